"""From a score file (``entry, label, score, group``) to the numbers of a table: metrics with the reference semantics
(``metrics``) and 95% percentile bootstrap intervals that resample whole groups (LevyHolt converse pairs, BoOQA
bundles; ``metrics.bootstrap_samples``), as percent cells."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from ..atomic import atomic_file
from ..metrics import (
    bootstrap_difference,
    bootstrap_intervals,
    chance_range,
    evaluate_scores,
    largest_tie_share,
    tie_aware_auc50,
    tie_aware_auc_norm,
    within_group_share,
)


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


NO_RANKING = "no number: every entry has the same score, so nothing is ranked"
NO_COVERAGE = "no number: the method scores no entry (every score is its default)"
SIGNAL_COLUMNS = [
    "auc_norm_tie_aware",
    "auc_norm_tie_aware_low",
    "auc_norm_tie_aware_high",
    "auc50_tie_aware",
    "auc50_tie_aware_low",
    "auc50_tie_aware_high",
    "chance_auc_norm",
    "chance_auc_norm_low",
    "chance_auc_norm_high",
    "coverage",
    "tied",
    "signal",
]
WITHIN_GROUP_COLUMNS = ["within_bundle", "within_bundle_low", "within_bundle_high"]


def no_number_reason(scores, covered) -> str:
    """Why a score set can carry no number ("" when it can): it scores no entry, or it gives every entry one score."""
    if not len(scores) or not np.asarray(covered, dtype=bool).any():
        return NO_COVERAGE
    if np.unique(np.asarray(scores, dtype=np.float64)).size == 1:
        return NO_RANKING
    return ""


def measure(frame: pd.DataFrame, evaluation: Evaluation, *, within_groups: bool = False, point_only: bool = False) -> dict:
    """Every number of a table row, as fractions: the reference AUCnorm / AUC50 (``metrics.evaluate_scores``) and their
    tie-aware values, each with its 95% bootstrap interval (``*_low``, ``*_high``); the chance range of the test set (the
    AUCnorm of random scorers: ``chance_auc_norm`` and its 95% range); ``coverage`` (share of entries scored from
    evidence or an edge, not by default: the ``covered`` column, all where there is none) and ``tied`` (share of the
    largest block of equal scores); ``signal``, which says whether the tie-aware interval clears the chance range; with
    ``within_groups``, the share of (positive, negative) pairs of a group ranked right (``within_bundle``).

    The one place that decides whether a score set carries a number: a scorer that scores no entry or gives every entry
    the same score gets NaN metrics and ``no_number`` (the reason, for the row's note). ``point_only``: the reference
    metrics alone, no intervals, tie-aware values or chance range (a number used only inside another, e.g. a ratio)."""
    scores, labels = frame["score"].to_numpy(), frame["label"].to_numpy().astype(bool)
    covered = frame["covered"].to_numpy(bool) if "covered" in frame else np.ones(len(frame), dtype=bool)
    metrics = {
        "n": len(frame),
        "positive_rate": float(labels.mean()) if len(frame) else float("nan"),
        "coverage": float(covered.mean()) if len(frame) else float("nan"),
        "tied": largest_tie_share(scores),
        "no_number": no_number_reason(scores, covered),
    }
    names = ["auc_norm", "auc50", "auc_norm_tie_aware", "auc50_tie_aware"] + (["within_group"] if within_groups else [])
    for name in names + ["chance_auc_norm"]:
        metrics[name] = metrics[f"{name}_low"] = metrics[f"{name}_high"] = float("nan")
    metrics["signal"] = ""
    if metrics["no_number"]:
        return metrics
    metrics.update(evaluate_scores(scores, labels, auc_floor=evaluation.auc_floor))
    if point_only:
        return metrics
    metrics["auc_norm_tie_aware"] = tie_aware_auc_norm(scores, labels)
    metrics["auc50_tie_aware"] = tie_aware_auc50(scores, labels, evaluation.auc_floor, seed=evaluation.seed)
    intervals = bootstrap_intervals(
        scores,
        labels,
        _groups(frame),
        resamples=evaluation.resamples,
        seed=evaluation.seed,
        auc_floor=evaluation.auc_floor,
        tie_aware=True,
        within_groups=within_groups,
    )
    for name, (low, high) in intervals.items():
        metrics[f"{name}_low"], metrics[f"{name}_high"] = low, high
    chance = chance_range(labels, seed=evaluation.seed)
    metrics["chance_auc_norm"], metrics["chance_auc_norm_low"], metrics["chance_auc_norm_high"] = chance["mean"], chance["low"], chance["high"]
    clears = metrics["auc_norm_tie_aware_low"] > chance["high"]
    metrics["signal"] = "above chance" if clears else "NO SIGNAL: its interval reaches into the chance range"
    if within_groups:
        metrics["within_group"] = within_group_share(scores, labels, frame["group"].to_numpy())
    return metrics


def signal_cells(metrics: dict) -> list[str]:
    """The ``SIGNAL_COLUMNS`` cells of a measured row."""

    def share(v):
        return "" if v != v else f"{v:.4f}"

    return [
        *with_interval(metrics, "auc_norm_tie_aware"),
        *with_interval(metrics, "auc50_tie_aware"),
        *with_interval(metrics, "chance_auc_norm"),
        share(metrics["coverage"]),
        share(metrics["tied"]),
        metrics["signal"],
    ]


def within_group_cells(metrics: dict) -> list[str]:
    return with_interval(metrics, "within_group")


def measure_file(path: str | Path, evaluation: Evaluation) -> dict:
    return measure(read_scores(path), evaluation)


def difference_interval(first: pd.DataFrame, second: pd.DataFrame, evaluation: Evaluation, *, tie_aware: bool = False) -> tuple[float, float]:
    """Interval of AUCnorm(second) - AUCnorm(first) on one test set (paired resamples; ``tie_aware``: ties in random
    orders)."""
    if not (first["entry"].to_numpy() == second["entry"].to_numpy()).all():
        raise ValueError("a paired difference needs the scores of one test set, in one order")
    return bootstrap_difference(
        first["score"].to_numpy(),
        second["score"].to_numpy(),
        first["label"].to_numpy(),
        _groups(first),
        resamples=evaluation.resamples,
        seed=evaluation.seed,
        tie_aware=tie_aware,
    )


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


@dataclass(frozen=True)
class ModelRecord:
    """How a selected model was trained, as table cells: its number format, its training (data, stopping point) and
    its sanity check."""

    precision: str
    training: str
    sanity: str
    undertrained: bool = False
    sane: bool = True


def read_model_record(model_dir: str | Path) -> ModelRecord:
    """The record of the selected trial in ``model_dir/selection.csv``, with ``sanity.csv`` where there is one; where the
    trials are the authors', the training cell first says whether the model is their published choice or this
    workflow's selection."""
    from ..sns.epochs import shown_epoch
    from ..sns.published import describe_selection
    from ..sns.sanity import describe, read_summary

    selection = pd.read_csv(Path(model_dir) / "selection.csv")
    row = selection[selection["selected"] == 1].iloc[0]
    undertrained = bool(row["still_improving"])
    threads = int(row["threads"]) if "threads" in row else 1
    training = (
        f"{row['train_pairs']} train / {row['dev_pairs']} dev pairs, {threads} CPU thread{'s' if threads > 1 else ''}; best dev point {shown_epoch(row['best_epoch'])} batch "
        f"{row['best_batch']}, stopped {shown_epoch(row['stopped_epoch'])} batch {row['stopped_batch']} ({row['stop_reason']})"
    )
    if origin := describe_selection(row, list(selection["trial"])):  # the authors' trials: whose choice the model is
        training = f"{origin}; {training}"
    if undertrained:
        training += "; POSSIBLY UNDERTRAINED (still improving at its last evaluation)"
    sanity_file = Path(model_dir) / "sanity.csv"
    if sanity_file.is_file():
        summary = read_summary(sanity_file)
        return ModelRecord(str(row["precision"]), training, describe(summary), undertrained, summary["passed"])
    return ModelRecord(str(row["precision"]), training, "not applicable (hypothesis-only)", undertrained)
