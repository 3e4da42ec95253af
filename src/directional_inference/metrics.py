"""Precision-recall curves and the AUC metrics of the paper, with the reference implementation's semantics.

The curve follows the S&S / LM-DirectionalInference code (PyTorch-Lightning 0.8.5, like scikit-learn 0.2x):
one point per distinct score (cumulative counts at the end of each tie group), cut at the first
threshold that reaches full recall, ordered by decreasing recall, with the point (precision 1, recall 0)
appended. Current scikit-learn no longer cuts at full recall, hence this implementation.

* ``auc_above(curve, t)``: trapezoid area under the points with precision >= t (the anchor included);
  ``t = 0.5`` is the S&S "AUC50%" of the paper, ``t = 0.51`` the authors' dev-selection criterion.
* ``auc_norm(curve, xi)``: the paper's AUCnorm (Eq. 1), trapezoid of max(precision - xi, 0) over recall,
  divided by (1 - xi), with xi the positive rate of the evaluated set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PRCurve:
    """Points ordered by decreasing recall; the last point is the (recall 0, precision 1) anchor.

    ``thresholds[i]`` is the score threshold of point ``i`` (the anchor has none).
    """

    precision: np.ndarray
    recall: np.ndarray
    thresholds: np.ndarray
    positive_rate: float


def precision_recall_curve(scores, labels) -> PRCurve:
    """PR curve with the reference semantics (see module docstring). ``labels`` are 0/1 or booleans."""
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    if scores.shape != labels.shape or scores.ndim != 1:
        raise ValueError(f"scores and labels must be 1-D of the same length, got {scores.shape} and {labels.shape}")
    if scores.size == 0 or not labels.any():
        raise ValueError("a precision-recall curve needs at least one positive item")
    if np.isnan(scores).any():
        raise ValueError("scores contain NaN")
    order = np.argsort(-scores, kind="mergesort")
    sorted_scores, sorted_labels = scores[order], labels[order]
    # the last index of each group of equal scores
    group_ends = np.r_[np.flatnonzero(np.diff(sorted_scores)), sorted_scores.size - 1]
    true_positives = np.cumsum(sorted_labels)[group_ends]
    false_positives = (group_ends + 1) - true_positives
    thresholds = sorted_scores[group_ends]
    precision = true_positives / (true_positives + false_positives)
    recall = true_positives / true_positives[-1]
    full = int(np.searchsorted(true_positives, true_positives[-1]))  # first threshold reaching full recall
    keep = slice(full, None, -1)
    return PRCurve(
        precision=np.r_[precision[keep], 1.0],
        recall=np.r_[recall[keep], 0.0],
        thresholds=thresholds[keep],
        positive_rate=float(labels.mean()),
    )


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


def auc_above(curve: PRCurve, floor: float) -> float:
    """Area under the curve's points with precision >= ``floor`` (trapezoid over increasing recall)."""
    keep = curve.precision >= floor
    precision, recall = curve.precision[keep][::-1], curve.recall[keep][::-1]
    return _trapezoid(precision, recall)


def auc_norm(curve: PRCurve, xi: float | None = None) -> float:
    """The paper's AUCnorm: area of max(precision - xi, 0) over recall, divided by (1 - xi).

    ``xi`` defaults to the positive rate of the evaluated set (the random baseline's precision).
    """
    xi = curve.positive_rate if xi is None else xi
    if not 0.0 <= xi < 1.0:
        raise ValueError(f"xi must lie in [0, 1), got {xi}")
    lifted = np.maximum(curve.precision - xi, 0.0)[::-1]
    return _trapezoid(lifted, curve.recall[::-1]) / (1.0 - xi)


def best_f1(curve: PRCurve) -> tuple[float, float, float, float]:
    """(F1, precision, recall, threshold) of the curve point with the highest F1 (the anchor excluded)."""
    precision, recall = curve.precision[:-1], curve.recall[:-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    best = int(np.argmax(f1))
    return float(f1[best]), float(precision[best]), float(recall[best]), float(curve.thresholds[best])


def evaluate_scores(scores, labels, *, auc_floor: float = 0.5, selection_floor: float = 0.51) -> dict[str, float]:
    """Every metric the tables report, for one scored set (values as fractions, not percent)."""
    curve = precision_recall_curve(scores, labels)
    f1, precision, recall, threshold = best_f1(curve)
    return {
        "n": int(np.asarray(labels).size),
        "positive_rate": curve.positive_rate,
        "auc_norm": auc_norm(curve),
        "auc50": auc_above(curve, auc_floor),
        "auc_selection": auc_above(curve, selection_floor),
        "best_f1": f1,
        "best_f1_precision": precision,
        "best_f1_recall": recall,
        "best_f1_threshold": threshold,
    }


def bootstrap_samples(labels, groups=None, *, resamples: int = 1000, seed: int = 0):
    """Index arrays of ``resamples`` bootstrap test sets: whole groups drawn with replacement (``groups``: one key per
    item, e.g. a BoOQA bundle or a LevyHolt pair and its converse; None = every item alone). Draws without a positive
    or without a negative are drawn again, up to ``resamples`` more times."""
    labels = np.asarray(labels).astype(bool)
    codes = np.unique(np.asarray(groups), return_inverse=True)[1].ravel() if groups is not None else np.arange(labels.size)
    order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    starts = np.flatnonzero(np.r_[True, sorted_codes[1:] != sorted_codes[:-1]])
    lengths = np.diff(np.r_[starts, sorted_codes.size])
    rng = np.random.default_rng(seed)
    found = attempts = 0
    while found < resamples and attempts < 2 * resamples:
        attempts += 1
        pick = rng.integers(0, starts.size, starts.size)
        sizes = lengths[pick]
        index = order[np.repeat(starts[pick] - np.cumsum(np.r_[0, sizes[:-1]]), sizes) + np.arange(sizes.sum())]
        drawn = labels[index]
        if drawn.all() or not drawn.any():
            continue
        found += 1
        yield index


def _interval(values: list[float], level: float) -> tuple[float, float]:
    tail = 100 * (1 - level) / 2
    return (float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))) if values else (float("nan"), float("nan"))


def bootstrap_intervals(scores, labels, groups=None, *, resamples: int = 1000, seed: int = 0, level: float = 0.95,
                        auc_floor: float = 0.5) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of AUCnorm and AUC50 (``auc_floor``) over a scored test set, each resample
    (``bootstrap_samples``) scored as a test set of its own (its own positive rate as xi).
    Returns {"auc_norm": (low, high), "auc50": (low, high)}."""
    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    values: dict[str, list[float]] = {"auc_norm": [], "auc50": []}
    for index in bootstrap_samples(labels, groups, resamples=resamples, seed=seed):
        curve = precision_recall_curve(scores[index], labels[index])
        values["auc_norm"].append(auc_norm(curve))
        values["auc50"].append(auc_above(curve, auc_floor))
    return {name: _interval(v, level) for name, v in values.items()}


def bootstrap_difference(scores_a, scores_b, labels, groups=None, *, resamples: int = 1000, seed: int = 0,
                         level: float = 0.95) -> tuple[float, float]:
    """Paired percentile bootstrap interval of AUCnorm(b) - AUCnorm(a), two scorers of the same test set resampled
    alike."""
    scores_a, scores_b = np.asarray(scores_a, dtype=np.float64), np.asarray(scores_b, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    values = []
    for index in bootstrap_samples(labels, groups, resamples=resamples, seed=seed):
        values.append(auc_norm(precision_recall_curve(scores_b[index], labels[index]))
                      - auc_norm(precision_recall_curve(scores_a[index], labels[index])))
    return _interval(values, level)
