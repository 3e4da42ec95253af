"""What the hypothesis-only models of Table 3 rank English BoOQA by: predicate generality and frequency.

A BoOQA negative's predicate is a WordNet troponym of its positive's (booqa.negatives), so it is more specific by
design. A model that learned "the more general hypothesis is the entailed one" could then rank a bundle's positive
above its negatives without any premise. For each H-only model this measures how far that explains its ranking:

* the WordNet depth of a predicate (``predicate_depth``): the smallest ``min_depth`` of the first verb sense of each of
  its content words (function words, as negatives.FUNCTION_WORDS, skipped), so "be covered by" is the depth of
  "cover";
* the mean depth of the positives and of the negatives, and the Spearman correlation of the model's score with depth;
* over a bundle's positive-negative pairs whose scores differ: where depth differs, how often the positive and how
  often the shallower predicate scores higher; where the benchmark's ``frequency`` (the predicate's count with its
  argument types in the corpus) differs, how often the more frequent one does; each share with a two-sided exact
  binomial p against 50%;
* the positive-above share that preference for shallower predicates alone would give (``_depth_only``): a model
  whose positive-above share is well above it ranks by more than generality.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy.stats import binomtest, spearmanr

from ..booqa.negatives import FUNCTION_WORDS
from ..errors import InputFormatError
from ..evaluation.methods import TABLE3_NAMES
from ..metrics import group_pairs
from .booqa import TOO_FEW_TEST
from .common import pct

HEADER = [
    "trained_on",
    "tested_on",
    "entries",
    "entries_with_depth",
    "depth_positives",
    "depth_negatives",
    "spearman_score_depth",
    "spearman_p",
    "pairs",
    "depth_pairs",
    "negative_deeper",
    "positive_above",
    "positive_above_p",
    "shallower_above",
    "shallower_above_p",
    "positive_above_if_depth_only",
    "frequency_pairs",
    "more_frequent_above",
    "more_frequent_above_p",
    "model",
    "scale",
    "note",
]


def predicate_depth(pred: str, wordnet) -> int | None:
    """WordNet depth of an English predicate (see the module); None when no content word is a WordNet verb."""
    depths = []
    for word in pred.split():
        if word in FUNCTION_WORDS:
            continue
        senses = wordnet.synsets(word, pos="v")
        if senses:
            depths.append(senses[0].min_depth())
    return min(depths) if depths else None


def _cell(value: float, spec: str) -> str:
    return "" if value != value else format(value, spec)


def _share(wins: int, n: int) -> list[str]:
    """A share as a percent cell and its two-sided exact binomial p against 50% ("" when there is no pair)."""
    return [pct(wins / n), f"{binomtest(wins, n, 0.5).pvalue:.3g}"] if n else ["", ""]


def _depth_only(shallower: float, deeper: float) -> float:
    """The positive-above share a model would reach if it ranked by depth alone: it prefers the shallower predicate at
    its measured rate s whichever is the positive, and the negative is the deeper one in a share d of the pairs, so
    s d + (1 - s)(1 - d)."""
    return shallower * deeper + (1 - shallower) * (1 - deeper)


def generality_cells(entries: pd.DataFrame) -> list:
    """The measured cells of one model (HEADER from ``entries`` to ``more_frequent_above_p``); ``entries`` has one row
    per test entry: ``group`` (bundle), ``label``, ``score``, ``depth`` (None where unknown), ``frequency``."""
    entries = entries.assign(label=entries["label"].astype(bool), depth=pd.to_numeric(entries["depth"], errors="coerce"))
    depth, label = entries["depth"], entries["label"]
    known = depth.notna()
    rho, p = spearmanr(entries.loc[known, "score"], depth[known]) if known.sum() > 2 else (float("nan"), float("nan"))
    pairs = group_pairs(entries)
    scored = pairs[pairs["score_p"] != pairs["score_n"]]
    positive_above = scored["score_p"] > scored["score_n"]
    deep = (scored["depth_p"] != scored["depth_n"]) & scored["depth_p"].notna() & scored["depth_n"].notna()
    deeper = int((scored["depth_n"] > scored["depth_p"])[deep].sum())
    shallower = int((positive_above == (scored["depth_p"] < scored["depth_n"]))[deep].sum())
    frequent = scored["frequency_p"] != scored["frequency_n"]
    more_frequent = int((positive_above == (scored["frequency_p"] > scored["frequency_n"]))[frequent].sum())
    n_deep = int(deep.sum())
    return [
        len(entries),
        int(known.sum()),
        _cell(depth[known & label].mean(), ".2f"),
        _cell(depth[known & ~label].mean(), ".2f"),
        _cell(rho, ".3f"),
        _cell(p, ".3g"),
        len(scored),
        n_deep,
        pct(deeper / n_deep if n_deep else None),
        *_share(int(positive_above[deep].sum()), n_deep),
        *_share(shallower, n_deep),
        pct(_depth_only(shallower / n_deep, deeper / n_deep) if n_deep else None),
        int(frequent.sum()),
        *_share(more_frequent, int(frequent.sum())),
    ]


def model_entries(
    hypotheses: Sequence, scores: pd.DataFrame, frequency: dict[tuple[str, str], int], depth: Callable[[str], int | None], *, where: str
) -> pd.DataFrame:
    """One row per test entry of a score file (``entry, label, score, group``), joined with the type-masked test
    entries it scored (same order) for the predicate, its depth and its benchmark frequency ((bundle, pred) -> count)."""
    if len(scores) != len(hypotheses):
        raise InputFormatError(where, None, "entry", f"{len(scores)} scores for the {len(hypotheses)} entries of the hypothesis-only test set")
    for row, (label, entry) in enumerate(zip(scores["label"], hypotheses)):
        if int(label) != int(entry.label):
            raise InputFormatError(where, row + 1, "label", f"{int(label)}, but the hypothesis-only test set's entry {row} has {int(entry.label)}")
    preds = [e.hypothesis[1] for e in hypotheses]
    return pd.DataFrame(
        {
            "group": scores["group"].to_numpy(),
            "label": scores["label"].to_numpy().astype(bool),
            "score": scores["score"].to_numpy(dtype=np.float64),
            "depth": [depth(p) for p in preds],
            "frequency": [frequency[(e.subgroup, p)] for e, p in zip(hypotheses, preds)],
        }
    )


def generality_rows(
    hypotheses: Sequence,
    score_files: dict[str, str],
    frequency: dict[tuple[str, str], int],
    depth: Callable[[str], int | None],
    *,
    model: str,
    scale: str,
) -> list[list]:
    """One row per H-only model (``score_files``: Table 3's training data -> its score file on English BoOQA test)."""
    rows = []
    for trained_on, path in score_files.items():
        entries = model_entries(hypotheses, pd.read_parquet(path), frequency, depth, where=path)
        if entries["label"].all() or not entries["label"].any():
            cells, note = [len(entries), *[""] * (HEADER.index("model") - 3)], TOO_FEW_TEST
        else:
            cells, note = generality_cells(entries), ""
        rows.append([TABLE3_NAMES[trained_on], "BoOQA EN (test)", *cells, model, scale, note])
    return rows


def not_run_row(scale: str) -> list:
    return [
        "",
        "BoOQA EN (test)",
        *[""] * (HEADER.index("model") - 2),
        "",
        scale,
        "not run: English BoOQA has no hypothesis-only models in this config (booqa.languages)",
    ]
