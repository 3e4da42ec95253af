"""How an epoch is shown: counted from 1, as the paper counts them ("epoch 5 of 5"), in tables, model cards and logs.

The record files keep the training loop's index, from 0: ``selection.csv`` (``best_epoch``, ``stopped_epoch``,
``published_epoch``), the evaluations of a trial's ``trial-{k}/training.json``, and the authors' checkpoint names (PyTorch Lightning's
``epoch=4`` is the fifth epoch)."""

from __future__ import annotations


def shown_epoch(index: int | None, epochs: int | None = None) -> str:
    """``epoch k`` (or ``epoch k of n``) for the epoch of loop index ``index`` (from 0) of ``epochs``; ``epoch -`` where
    a record has none."""
    if index is None:
        return "epoch -"
    return f"epoch {int(index) + 1}" + (f" of {int(epochs)}" if epochs else "")
