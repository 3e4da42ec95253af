"""``PromptScorer``: a 2-label sequence classifier that reads each prompt sentence of a pair on its own.

* loss = mean cross-entropy of the prompts against the label + mean cross-entropy of the antiprompts against the
  flipped label (the authors' ``use_antipatterns``);
* score = max over prompts of P(1) - max over antiprompts of P(1), in (-1, 1).

Sentences are tokenised once (``encode``), so repeated epochs and evaluations never tokenise again. The sentences of
a batch go through the model in chunks of sentences of similar length, each padded to its longest: the batch is the
same (the authors' random batches), and less padding is computed. In scoring (no dropout) the split changes nothing
but float rounding. In training, with ``dropout_masks="pass"``, it also decides the dropout masks a sentence gets
(torch draws them a pass, by the pass's shape): another split is another draw of the masks, as another seed's would be,
so a trial's numbers move by the spread between seeds, not by rounding alone (``benchmarks/trial_numerics.py``); with
``"reference"`` every split takes the masks of the batch's passes of 32 sentences (``dropout_masks``), and changes only
rounding. The chunks are those of least cost
(``least_cost_chunks``): a pass costs its padded tokens plus a fixed cost per pass (``PASS_COST_TOKENS``, measured per
device kind and number format by ``benchmarks/sns_throughput.py``), so on a CPU a batch splits wherever a length step
saves more tokens than a pass costs, and on a GPU, where a pass of these sizes costs its launches rather than its
tokens, a batch is one pass. Scoring goes through the pairs
in order of length and returns the scores in the input order. ``precision="bf16"`` runs the forward passes under bfloat16 autocast;
``"auto"`` takes bf16 only where the device computes it natively and a measured step of this model is faster in it
(``compute.resolve_precision``; logged with the figures); the default is float32.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from ..compute import resolve_precision, torch_device
from ..levyholt.entries import Entry
from ..progress import ProgressLog
from .prompts import prompt_sentences

log = logging.getLogger(__name__)
# The fixed cost of one forward pass, in padded tokens, per device kind and number format. CPU: fitted by
# benchmarks/sns_throughput.py ("pass_cost": MiniLM's forward and backward timed at several chunk shapes) and held by its
# training loop, where these costs were the fastest of 0, 48, 96 and 192 and of passes of 32 sentences (AMD EPYC Zen 5,
# one thread: fp32 8% faster than passes of 32, bf16 as fast). A GPU's pass at these sizes is bound by its kernel
# launches (not measured here: no GPU), so a batch there is one pass.
PASS_COST_TOKENS = {"cpu": {"fp32": 48, "bf16": 192}, "cuda": {"fp32": 1 << 20, "bf16": 1 << 20}}
# A pass's sentences at most, per device kind: on a CPU a pass of more than 32 prompt sentences ran slower a sentence
# (its activations outgrow the core's cache: scoring in passes of up to 128 took 10-35% longer, benchmarks/sns_throughput.py);
# on a GPU a 'S&S batch of 8 pairs (128 sentences) is one pass.
MAX_CHUNK_SENTENCES = {"cpu": 32, "cuda": 128}


@dataclass(frozen=True)
class EncodedPair:
    """Token ids of one pair's prompt and antiprompt sentences, and its label."""

    prompts: tuple[tuple[int, ...], ...]
    antiprompts: tuple[tuple[int, ...], ...]
    label: bool

    @property
    def longest(self) -> int:
        return max(len(ids) for ids in self.prompts + self.antiprompts)


def least_cost_chunks(lengths: Sequence[int], pass_cost: float, max_sentences: int) -> list[tuple[int, int]]:
    """(start, end) of the runs that split ``lengths`` (ascending) into passes of least cost: a pass of the sentences
    ``start:end`` costs ``pass_cost`` plus its padded tokens, (end - start) x lengths[end - 1]; at most
    ``max_sentences`` a pass. Exact (dynamic programming over the split points); of equal costs, the fewer passes."""
    n = len(lengths)
    best = [(0.0, 0)] + [(float("inf"), 0)] * n  # (cost, passes) of the first j sentences
    start_of = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - max_sentences), end):
            cost = (best[start][0] + pass_cost + (end - start) * lengths[end - 1], best[start][1] + 1)
            if cost < best[end]:
                best[end], start_of[end] = cost, start
    bounds, end = [], n
    while end > 0:
        bounds.append((start_of[end], end))
        end = start_of[end]
    return bounds[::-1]


class PromptScorer:
    def __init__(
        self,
        model_dir: str | os.PathLike,
        *,
        max_length: int,
        symmetric: bool,
        lang: str = "en",
        precision: str = "fp32",
        dropout_masks: str = "pass",
    ):
        import torch
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        from .dropout_masks import REFERENCE_SENTENCES, draw_reference_masks

        self.torch = torch
        self.device = torch_device()
        self.tokenizer = AutoTokenizer.from_pretrained(model_dir)
        self.model = AutoModelForSequenceClassification.from_pretrained(model_dir, num_labels=2).to(self.device)
        precision, self.precision_reason = resolve_precision(precision, self.device.type, model=self.model, device=self.device)
        log.info("number format %s (%s)", precision, self.precision_reason)
        # on a CPU, where a batch is several passes, the word embeddings' gradient is summed on the rows the passes
        # touch, not on a dense matrix per pass: the same bits (embedding_gradient); a GPU's batch is one pass
        if self.device.type == "cpu":
            from .embedding_gradient import sum_touched_rows

            sum_touched_rows(self.model)
        self.max_length, self.symmetric, self.lang, self.precision = max_length, symmetric, lang, precision
        self.pass_cost = PASS_COST_TOKENS.get(self.device.type, PASS_COST_TOKENS["cpu"])[precision]
        self.max_chunk = MAX_CHUNK_SENTENCES.get(self.device.type, MAX_CHUNK_SENTENCES["cpu"])
        # training passes take the batch's reference masks (dropout_masks="reference") where a batch is several passes
        # and the model can; what is done is kept, as the number format is (a GPU's batch is one pass)
        reference = dropout_masks == "reference" and self.max_chunk <= REFERENCE_SENTENCES and draw_reference_masks(self.model)
        self.dropout_masks = "reference" if reference else "pass"
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

    def passes(self, id_lists: Sequence[tuple[int, ...]]) -> tuple[list[int], list[tuple[int, int]]]:
        """The sentences in order of length, and the (start, end) of the forward passes over that order
        (``least_cost_chunks``): each sentence is read on its own, so grouping by length changes no score but by
        rounding; in training the grouping also decides each sentence's dropout masks where they are drawn a pass."""
        order = sorted(range(len(id_lists)), key=lambda k: (len(id_lists[k]), k))
        return order, least_cost_chunks([len(id_lists[k]) for k in order], self.pass_cost, self.max_chunk)

    def chunks(self, id_lists: Sequence[tuple[int, ...]]) -> list[list[int]]:
        """Positions of the sentences of each forward pass (``passes``)."""
        order, bounds = self.passes(id_lists)
        return [order[start:end] for start, end in bounds]

    def _logits(self, id_lists: list[tuple[int, ...]]):
        from .dropout_masks import ReferenceMasks

        torch = self.torch
        order, bounds = self.passes(id_lists)
        masks = ReferenceMasks([len(id_lists[k]) for k in order]) if self.dropout_masks == "reference" and self.model.training else None
        parts = []
        # one autocast region for every pass of the batch: bf16 casts the weights once, not once a pass (its cache lives
        # as long as the region; the casts are the same, so are the results)
        with torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.precision == "bf16"):
            for start, end in bounds:
                input_ids, attention = self.padded([id_lists[k] for k in order[start:end]])
                with masks.computing(start, end) if masks else nullcontext():
                    parts.append(self.model(input_ids=input_ids.to(self.device), attention_mask=attention.to(self.device)).logits.float())
        logits = torch.cat(parts)
        inverse = torch.empty(len(order), dtype=torch.long)
        inverse[torch.tensor(order)] = torch.arange(len(order))
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
