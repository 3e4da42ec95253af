"""Dropout masks that do not depend on how a batch is split into passes: those of its reference passes.

Torch draws a dropout mask at each dropout site of a forward pass, of the pass's shape, from the CPU's one generator,
so the passes a batch is computed in decide which masks each sentence gets. The passes of least cost
(``model.least_cost_chunks``) differ by number format and by the tuned cost of a pass: each split would be another
draw of the masks, in effect another seed (a trial's dev AUCnorm spreads several points over such draws:
``benchmarks/trial_numerics.py``), and a change made for speed would change what a trial learns.

Here every split gets the masks of the batch's **reference passes**: its sentences in length order, in runs of
``REFERENCE_SENTENCES`` (32), each padded to its longest (the passes of 992529d and before). At each dropout site, the
first pass to reach a reference pass draws that reference pass's whole mask with torch's own draw (``bernoulli_`` of
the keep probability, then ``div_`` by it, as ``F.dropout``), so the generator is drawn in the same order and by the same
amounts as if the reference passes were computed; a pass multiplies by its sentences' rows of those masks, cut to its
own length, or zero-filled past a reference pass's length (padding, which no real token reads). A pass of at most
``REFERENCE_SENTENCES`` sentences in length order reaches at most one reference pass that no earlier pass of the batch
reached, and any other it reaches was drawn at every site by the pass before: so lazily drawn masks come in the
reference order. The sites are those of an encoder: (sentences, width) and (sentences, tokens, width) tensors through
``nn.Dropout`` and attention probabilities (sentences, heads, tokens, tokens), whose dropout this module's attention
function applies (otherwise torch's scaled-dot-product attention, which draws its mask inside). With the reference split
itself, the forward pass is that of torch's own dropout to the bit (``tests/test_sns.py``).

A trial takes them with ``training.dropout_masks: reference`` (``PromptScorer(dropout_masks=...)``); with ``pass`` (the
default), outside training, on a GPU (a batch is one pass there) or for a model whose attention is not
scaled-dot-product, dropout is torch's own, drawn a pass.
"""

from __future__ import annotations

import contextvars
import logging
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import torch
from transformers.integrations.sdpa_attention import sdpa_attention_forward

log = logging.getLogger(__name__)

REFERENCE_SENTENCES = 32
ATTENTION = "sns_reference_masks"  # the name this module's attention function is registered under
_BATCH: contextvars.ContextVar[ReferenceMasks | None] = contextvars.ContextVar("reference_masks", default=None)


class ReferenceMasks:
    """The dropout masks of one training batch's reference passes, drawn as its passes reach them.

    ``lengths`` are the batch's sentence lengths in the order its passes take them (ascending)."""

    def __init__(self, lengths: Sequence[int]):
        self.lengths = list(lengths)
        self.drawn: dict[int, list[torch.Tensor]] = {}  # reference pass -> its masks, one a site, in site order
        self.span = (0, 0)
        self.site = 0
        self.reached = -1  # the last reference pass a pass has reached

    @contextmanager
    def computing(self, start: int, end: int) -> Iterator[None]:
        """The forward pass of sentences ``start:end``: the dropout sites in it take their masks from here."""
        first, last = start // REFERENCE_SENTENCES, (end - 1) // REFERENCE_SENTENCES
        if end - start > REFERENCE_SENTENCES or first not in (self.reached, self.reached + 1) or last > self.reached + 1:
            raise ValueError(f"a pass of sentences {start}:{end} cannot take reference masks (passes of at most {REFERENCE_SENTENCES}, in order)")
        for done in [r for r in self.drawn if r < first]:  # no later pass reaches them
            del self.drawn[done]
        self.span, self.site, self.reached = (start, end), 0, last
        token = _BATCH.set(self)
        try:
            yield
        finally:
            _BATCH.reset(token)

    def apply(self, x: torch.Tensor, p: float, kind: str) -> torch.Tensor:
        """``x`` (this pass's tensor at its next dropout site) times the reference masks of its sentences."""
        site, (start, end) = self.site, self.span
        self.site += 1
        length = self.lengths[end - 1]  # the pass's padded length
        parts = []
        for ref in range(start // REFERENCE_SENTENCES, (end - 1) // REFERENCE_SENTENCES + 1):
            masks = self.drawn.setdefault(ref, [])
            if len(masks) == site:
                masks.append(self._draw(ref, x, p, kind))
            elif len(masks) < site:
                raise RuntimeError(f"dropout site {site} reached before site {len(masks)} of reference pass {ref}: the passes' sites differ")
            offset = ref * REFERENCE_SENTENCES
            parts.append(_fit(masks[site][max(start, offset) - offset : min(end, offset + REFERENCE_SENTENCES) - offset], kind, length))
        return x * (parts[0] if len(parts) == 1 else torch.cat(parts))

    def _draw(self, ref: int, x: torch.Tensor, p: float, kind: str) -> torch.Tensor:
        """Reference pass ``ref``'s mask at a site, drawn as ``F.dropout`` draws it for a tensor of that pass's shape."""
        start = ref * REFERENCE_SENTENCES
        end = min(start + REFERENCE_SENTENCES, len(self.lengths))
        sentences, length = end - start, self.lengths[end - 1]
        shape = {
            "pooled": (sentences, *x.shape[1:]),
            "tokens": (sentences, length, *x.shape[2:]),
            "attention": (sentences, x.shape[1], length, length),
        }[kind]
        return torch.empty(shape, dtype=x.dtype, device=x.device).bernoulli_(1 - p).div_(1 - p)


def _fit(mask: torch.Tensor, kind: str, length: int) -> torch.Tensor:
    """A reference mask's rows cut to a pass's padded ``length``, or zero-filled up to it."""
    if kind == "pooled":
        return mask
    have = mask.shape[1 if kind == "tokens" else 2]
    if have >= length:
        return mask[:, :length] if kind == "tokens" else mask[:, :, :length, :length]
    grow = length - have
    pads = [0, 0] * (mask.dim() - 2) + [0, grow] if kind == "tokens" else [0, grow, 0, grow]
    return torch.nn.functional.pad(mask, pads)


class ReferenceDropout(torch.nn.Dropout):
    """``nn.Dropout`` that takes the batch's reference masks while a training pass draws them (torch's otherwise)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch = _BATCH.get()
        if batch is None or not self.training or self.p == 0:
            return super().forward(x)
        if x.dim() not in (2, 3):  # torch's own draw here would shift every later reference mask
            raise ValueError(f"a dropout site of shape {tuple(x.shape)}: reference masks are for (sentences, width) and (sentences, tokens, width)")
        return batch.apply(x, self.p, "pooled" if x.dim() == 2 else "tokens")


def _attention(module, query, key, value, attention_mask, dropout: float = 0.0, scaling: float | None = None, **kwargs):
    """Scaled-dot-product attention as transformers' ``sdpa`` calls it; with the batch's reference masks in training,
    torch's math path written out (its operations in its order) with the mask applied as ``F.dropout`` applies it."""
    batch = _BATCH.get()
    if batch is None or dropout == 0 or getattr(module, "num_key_value_groups", 1) > 1:
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout, scaling=scaling, **kwargs)
    dtype = torch.get_autocast_dtype(query.device.type) if torch.is_autocast_enabled(query.device.type) else query.dtype
    with torch.autocast(query.device.type, enabled=False):
        # autocast hands the attention its format's inputs, and the math path computes bf16 and fp16 in fp32
        query, key, value = (t.to(dtype).float() for t in (query, key, value))
        factor = math.sqrt(scaling if scaling is not None else 1.0 / math.sqrt(query.shape[-1]))
        scores = torch.matmul(query * factor, key.transpose(-2, -1) * factor)
        if attention_mask is not None:
            if attention_mask.dtype == torch.bool:
                attention_mask = torch.zeros_like(attention_mask, dtype=scores.dtype).masked_fill_(attention_mask.logical_not(), -math.inf)
            scores.add_(attention_mask)
        probabilities = batch.apply(torch.softmax(scores, dim=-1), dropout, "attention")
        output = torch.matmul(probabilities, value).to(dtype)
    return output.transpose(1, 2).contiguous(), None


def draw_reference_masks(model) -> bool:
    """Have ``model``'s dropout take reference masks in training passes run under ``ReferenceMasks.computing``;
    whether it does (a model whose attention is not transformers' ``sdpa`` keeps torch's dropout, logged)."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

    if getattr(model.config, "_attn_implementation", None) not in ("sdpa", ATTENTION):
        log.warning("attention %r is not sdpa: dropout masks are drawn per pass", getattr(model.config, "_attn_implementation", None))
        return False
    AttentionInterface.register(ATTENTION, _attention)
    AttentionMaskInterface.register(ATTENTION, sdpa_mask)  # the masks sdpa gets
    model.set_attn_implementation(ATTENTION)
    for module in model.modules():
        if type(module) is torch.nn.Dropout:
            module.__class__ = ReferenceDropout
    return True
