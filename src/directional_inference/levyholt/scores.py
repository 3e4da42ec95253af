"""Score files of prompt models on test sets: ``entry`` (row of the test file), ``label``, ``score`` and ``group`` (items
a bootstrap resamples together: a LevyHolt entry and its converse, a BoOQA bundle)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import atomic_directory, atomic_file
from .entries import Entry, converse_groups, read_subset_tsv

SCORE_COLUMNS = ("entry", "label", "score", "group")


def converse_group_ids(entries: Sequence[Entry]) -> np.ndarray:
    """Group number of each entry: an entry and its converse share one."""
    ids = np.empty(len(entries), dtype=np.int64)
    for number, members in enumerate(converse_groups(entries)):
        ids[members] = number
    return ids


def score_frame(entries: Sequence[Entry], scores: np.ndarray, groups=None) -> pd.DataFrame:
    groups = converse_group_ids(entries) if groups is None else np.asarray(groups)
    return pd.DataFrame(
        {
            "entry": np.arange(len(entries), dtype=np.int64),
            "label": np.array([int(e.label) for e in entries], dtype=np.int8),
            "score": np.asarray(scores, dtype=np.float64),
            "group": groups,
        }
    )


def write_scores(path: str | Path, entries: Sequence[Entry], scores: np.ndarray, groups=None) -> None:
    """Scores of a test set as Parquet (see module docstring); ``groups`` default to converse groups."""
    with atomic_file(path) as tmp:
        score_frame(entries, scores, groups).to_parquet(tmp, index=False)


def score_test_sets(scorer, tests: Mapping[str, str | Path], out_dir: str | Path) -> int:
    """Score every test file of ``tests`` (name -> TSV) with one prompt model into ``out_dir/<name>.parquet``, each
    distinct (premise, hypothesis) pair once: the score of a pair does not depend on the test set. Returns the number
    of pairs scored."""
    sets = {name: read_subset_tsv(path) for name, path in sorted(tests.items())}
    unique: dict[tuple, int] = {}
    for entries in sets.values():
        for entry in entries:
            unique.setdefault((entry.premise, entry.hypothesis), len(unique))
    pairs = [Entry(premise, hypothesis, False) for premise, hypothesis in unique]
    scores = scorer.scores(pairs) if pairs else np.zeros(0)
    with atomic_directory(out_dir) as tmp:
        for name, entries in sets.items():
            rows = [unique[(e.premise, e.hypothesis)] for e in entries]
            score_frame(entries, scores[rows]).to_parquet(tmp / f"{name}.parquet", index=False)
    return len(pairs)
