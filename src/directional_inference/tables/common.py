"""From a score file (``entry, label, score, group``) to the numbers of a table: metrics with the reference semantics
(``metrics``) and 95% percentile bootstrap intervals that resample whole groups (LevyHolt converse pairs, BoOQA
bundles; ``metrics.bootstrap_samples``), as percent cells."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..atomic import atomic_file
from ..metrics import bootstrap_difference, bootstrap_intervals, evaluate_scores


@dataclass(frozen=True)
class Evaluation:
    """How numbers are computed: the AUC50 precision floor and the bootstrap (resamples, seed; 95% intervals)."""

    auc_floor: float = 0.5
    resamples: int = 1000
    seed: int = 0


def read_scores(path: str | Path) -> pd.DataFrame:
    return pd.read_parquet(path)


def _groups(frame: pd.DataFrame):
    return frame["group"].to_numpy() if "group" in frame else None


def measure(frame: pd.DataFrame, evaluation: Evaluation) -> dict:
    """``metrics.evaluate_scores`` plus ``auc_norm_low/high`` and ``auc50_low/high`` (fractions)."""
    scores, labels = frame["score"].to_numpy(), frame["label"].to_numpy()
    metrics = evaluate_scores(scores, labels, auc_floor=evaluation.auc_floor)
    intervals = bootstrap_intervals(scores, labels, _groups(frame), resamples=evaluation.resamples, seed=evaluation.seed,
                                    auc_floor=evaluation.auc_floor)
    for name, (low, high) in intervals.items():
        metrics[f"{name}_low"], metrics[f"{name}_high"] = low, high
    return metrics


def measure_file(path: str | Path, evaluation: Evaluation) -> dict:
    return measure(read_scores(path), evaluation)


def difference_interval(first: pd.DataFrame, second: pd.DataFrame, evaluation: Evaluation) -> tuple[float, float]:
    """Interval of AUCnorm(second) - AUCnorm(first) on one test set (paired resamples)."""
    if not (first["entry"].to_numpy() == second["entry"].to_numpy()).all():
        raise ValueError("a paired difference needs the scores of one test set, in one order")
    return bootstrap_difference(first["score"].to_numpy(), second["score"].to_numpy(), first["label"].to_numpy(), _groups(first),
                                resamples=evaluation.resamples, seed=evaluation.seed)


def pct(value: float | None) -> str:
    """A fraction as a percent cell with one decimal ("" for None or NaN)."""
    return "" if value is None or value != value else f"{100 * value:.1f}"


def paper_cell(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def with_interval(metrics: dict, name: str) -> list[str]:
    """[value, low, high] percent cells of one metric."""
    return [pct(metrics[name]), pct(metrics[f"{name}_low"]), pct(metrics[f"{name}_high"])]


def write_csv(path: str | Path, header: list[str], rows: list[list]) -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    with atomic_file(path) as tmp:
        tmp.write_text(buffer.getvalue(), encoding="utf-8")
