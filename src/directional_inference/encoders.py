"""Sentence encodings from any Hugging Face encoder (mean or [CLS] pooling), L2-normalised, batched, on CPU or GPU."""

from __future__ import annotations

import os

import numpy as np


class SentenceEncoder:
    def __init__(self, model_dir: str | os.PathLike, *, pooling: str = "mean", max_length: int = 128, batch_size: int = 64):
        import torch
        from transformers import AutoModel, AutoTokenizer

        if pooling not in ("mean", "cls"):
            raise ValueError(f"pooling must be 'mean' or 'cls', not {pooling!r}")
        self.torch = torch
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModel.from_pretrained(model_dir).to(self.device).eval()
        self.pooling, self.max_length, self.batch_size = pooling, max_length, batch_size

    def __call__(self, texts: list[str]) -> np.ndarray:
        torch = self.torch
        out = []
        with torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                batch = self.tokenizer(texts[start : start + self.batch_size], truncation=True, max_length=self.max_length,
                                       padding=True, return_tensors="pt").to(self.device)
                hidden = self.model(**batch).last_hidden_state
                if self.pooling == "cls":
                    pooled = hidden[:, 0]
                else:
                    mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
                    pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                out.append(torch.nn.functional.normalize(pooled, dim=-1).cpu().numpy())
        return np.concatenate(out) if out else np.zeros((0, self.model.config.hidden_size), dtype=np.float32)
