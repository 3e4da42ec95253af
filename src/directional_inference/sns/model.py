"""``PromptScorer``: a 2-label sequence classifier that reads each prompt sentence of a pair on its own.

* loss = mean cross-entropy of the prompts against the label + mean cross-entropy of the antiprompts against the
  flipped label (the authors' ``use_antipatterns``);
* score = max over prompts of P(1) - max over antiprompts of P(1), in (-1, 1).

Sentences are tokenised once (``encode``), so repeated epochs and evaluations never tokenise again. The sentences of
a batch go through the model in chunks of ``chunk_size`` sentences of similar length, each padded to its longest:
the batch is the same (the authors' random batches), only less padding is computed. Scoring goes through the pairs
in order of length and returns the scores in the input order. ``precision="bf16"`` runs the forward passes under bfloat16 autocast;
``"auto"`` takes bf16 only where the device computes it natively and a measured step of this model is faster in it
(``compute.resolve_precision``; logged with the figures); the default is float32.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..compute import resolve_precision, torch_device
from ..levyholt.entries import Entry
from ..progress import ProgressLog
from .prompts import prompt_sentences

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class EncodedPair:
    """Token ids of one pair's prompt and antiprompt sentences, and its label."""

    prompts: tuple[tuple[int, ...], ...]
    antiprompts: tuple[tuple[int, ...], ...]
    label: bool

    @property
    def longest(self) -> int:
        return max(len(ids) for ids in self.prompts + self.antiprompts)


class PromptScorer:
    def __init__(
        self, model_dir: str | os.PathLike, *, max_length: int, symmetric: bool, lang: str = "en", precision: str = "fp32", chunk_size: int = 32
    ):
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        self.torch = torch
        self.device = torch_device()
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=2).to(self.device)
        precision, self.precision_reason = resolve_precision(precision, self.device.type, model=self.model, device=self.device)
        log.info("number format %s (%s)", precision, self.precision_reason)
        self.max_length, self.symmetric, self.lang, self.precision = max_length, symmetric, lang, precision
        self.chunk_size = chunk_size
        self.pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0

    def encode(self, entries: Sequence[Entry]) -> list[EncodedPair]:
        """Every pair's prompt sentences as token ids (truncated to ``max_length``)."""
        sentences, shapes = [], []
        for entry in entries:
            prompts, antiprompts = prompt_sentences(entry.premise, entry.hypothesis, symmetric=self.symmetric, lang=self.lang)
            sentences += prompts + antiprompts
            shapes.append((len(prompts), len(antiprompts)))
        ids = self.tokenizer(sentences, truncation=True, max_length=self.max_length)["input_ids"] if sentences else []
        encoded, at = [], 0
        for entry, (n_p, n_a) in zip(entries, shapes):
            encoded.append(EncodedPair(tuple(map(tuple, ids[at : at + n_p])), tuple(map(tuple, ids[at + n_p : at + n_p + n_a])), entry.label))
            at += n_p + n_a
        return encoded

    def padded(self, id_lists: Sequence[tuple[int, ...]]):
        """Input ids and attention mask of sentences padded to the longest of them."""
        torch = self.torch
        longest = max(len(ids) for ids in id_lists)
        input_ids = torch.full((len(id_lists), longest), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(id_lists), longest), dtype=torch.long)
        for row, ids in enumerate(id_lists):
            input_ids[row, : len(ids)] = torch.tensor(ids, dtype=torch.long)
            attention[row, : len(ids)] = 1
        return input_ids, attention

    def chunks(self, id_lists: Sequence[tuple[int, ...]]) -> list[list[int]]:
        """Positions of the sentences in forward passes of ``chunk_size`` sentences of similar length: each sentence is
        read on its own, so grouping by length changes no result, only the padding computed."""
        order = sorted(range(len(id_lists)), key=lambda k: (len(id_lists[k]), k))
        return [order[start : start + self.chunk_size] for start in range(0, len(order), self.chunk_size)]

    def _logits(self, id_lists: list[tuple[int, ...]]):
        torch = self.torch
        parts, positions = [], []
        for chunk in self.chunks(id_lists):
            input_ids, attention = self.padded([id_lists[k] for k in chunk])
            with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.precision == "bf16"):
                parts.append(self.model(input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)).logits.float())
            positions += chunk
        logits = torch.cat(parts)
        inverse = torch.empty(len(positions), dtype=torch.long)
        inverse[torch.tensor(positions)] = torch.arange(len(positions))
        return logits[inverse.to(self.device)]

    def _batch_logits(self, pairs: Sequence[EncodedPair]):
        """Logits of the prompts and of the antiprompts of a batch, each (pairs, sentences per pair, 2)."""
        n_p, n_a = len(pairs[0].prompts), len(pairs[0].antiprompts)
        logits = self._logits([ids for pair in pairs for ids in pair.prompts] + [ids for pair in pairs for ids in pair.antiprompts])
        split = len(pairs) * n_p
        return logits[:split].view(len(pairs), n_p, 2), logits[split:].view(len(pairs), n_a, 2)

    def loss(self, pairs: Sequence[EncodedPair]):
        """Mean CE of prompts against the labels + mean CE of antiprompts against the flipped labels."""
        torch = self.torch
        prompts, antiprompts = self._batch_logits(pairs)
        labels = torch.tensor([int(p.label) for p in pairs], device=self.device)
        loss_p = torch.nn.functional.cross_entropy(prompts.reshape(-1, 2), labels.repeat_interleave(prompts.shape[1]))
        loss_a = torch.nn.functional.cross_entropy(antiprompts.reshape(-1, 2), (1 - labels).repeat_interleave(antiprompts.shape[1]))
        return loss_p + loss_a

    def scores(self, entries: Sequence[Entry] | Sequence[EncodedPair], batch_size: int = 32, *, what: str = "scoring") -> np.ndarray:
        """max P(1 | prompts) - max P(1 | antiprompts) for every pair, in input order."""
        torch = self.torch
        pairs = entries if not entries or isinstance(entries[0], EncodedPair) else self.encode(entries)
        order = sorted(range(len(pairs)), key=lambda k: (pairs[k].longest, k))
        out = np.empty(len(pairs), dtype=np.float64)
        was_training = self.model.training
        self.model.eval()
        progress = ProgressLog(what, len(pairs), "pairs")
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                rows = order[start : start + batch_size]
                prompts, antiprompts = self._batch_logits([pairs[k] for k in rows])
                best_p = torch.softmax(prompts.double(), dim=-1)[..., 1].max(dim=1).values
                best_a = torch.softmax(antiprompts.double(), dim=-1)[..., 1].max(dim=1).values
                out[rows] = (best_p - best_a).cpu().numpy()
                progress.advance(len(rows))
        self.model.train(was_training)
        return out
