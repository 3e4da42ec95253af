"""Text encodings from any Hugging Face encoder, L2-normalised, batched, on CPU or GPU.

Poolings of the last layer:

* ``cls``: the first token ([CLS] / <s>);
* ``mean``: the mean over the text's tokens;
* ``span_mean``: the mean over the word-pieces that overlap a character span of each text (the authors' ``rel``
  LM baseline averages the predicate's word-pieces). The span is found through the fast tokenizer's offsets, so it
  works for WordPiece and byte-level BPE alike (the authors' code fell back to the first token for RoBERTa); a text
  whose span lies beyond the token limit falls back to the first token.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from .compute import torch_device

POOLINGS = ("cls", "mean", "span_mean")


class SentenceEncoder:
    def __init__(self, model_dir: str | os.PathLike, *, pooling: str = "mean", max_length: int = 128, batch_size: int = 64):
        import torch
        from transformers import AutoModel, AutoTokenizer

        if pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {POOLINGS}, not {pooling!r}")
        self.torch = torch
        self.device = torch_device()
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModel.from_pretrained(model_dir).to(self.device).eval()
        self.pooling, self.max_length, self.batch_size = pooling, max_length, batch_size

    def __call__(self, texts: list[str], spans: Sequence[tuple[int, int]] | None = None) -> np.ndarray:
        """Encodings of ``texts``; ``spans`` (character start, end per text) are needed by ``span_mean``."""
        torch = self.torch
        if self.pooling == "span_mean" and (spans is None or len(spans) != len(texts)):
            raise ValueError("span_mean pooling needs one (start, end) character span per text")
        out = []
        with torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                chunk = texts[start : start + self.batch_size]
                batch = self.tokenizer(
                    chunk,
                    truncation=True,
                    max_length=self.max_length,
                    padding=True,
                    return_tensors="pt",
                    return_offsets_mapping=self.pooling == "span_mean",
                )
                offsets = batch.pop("offset_mapping", None)
                hidden = self.model(**batch.to(self.device)).last_hidden_state
                if self.pooling == "cls":
                    pooled = hidden[:, 0]
                else:
                    mask = batch["attention_mask"].to(hidden.dtype)
                    if self.pooling == "span_mean":
                        mask = mask * span_mask(offsets, spans[start : start + self.batch_size]).to(self.device, hidden.dtype)
                        empty = mask.sum(1) == 0
                        mask[empty, 0] = 1.0  # span truncated away: the first token
                    mask = mask.unsqueeze(-1)
                    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                out.append(torch.nn.functional.normalize(pooled.float(), dim=-1).cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.model.config.hidden_size), dtype=np.float32)


def span_mask(offsets, spans: Sequence[tuple[int, int]]):
    """1 for every token whose character offsets overlap the text's span (special tokens have empty offsets)."""
    import torch

    starts = torch.tensor([s for s, _ in spans]).unsqueeze(1)
    ends = torch.tensor([e for _, e in spans]).unsqueeze(1)
    token_start, token_end = offsets[..., 0], offsets[..., 1]
    return ((token_end > token_start) & (token_start < ends) & (token_end > starts)).long()
