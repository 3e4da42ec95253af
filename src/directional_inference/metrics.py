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
import pandas as pd


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
    _require_a_positive(labels)
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


def _require_a_positive(labels: np.ndarray) -> None:
    if not labels.any():  # an empty set has none either
        raise ValueError("a precision-recall curve needs at least one positive item")


def _untied_points(ranked_labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The precision and recall of ``precision_recall_curve`` for a ranking without ties whose entries, best first,
    have the labels ``ranked_labels``: the same arrays, made without the sort and the checks (every entry is a point,
    its count of entries so far its position). The inner step of the seeded averages below, run thousands of times."""
    true_positives = np.cumsum(ranked_labels)
    precision = true_positives / np.arange(1, true_positives.size + 1)
    recall = true_positives / true_positives[-1]
    full = int(np.searchsorted(true_positives, true_positives[-1]))
    return np.concatenate((precision[full::-1], (1.0,))), np.concatenate((recall[full::-1], (0.0,)))


def _trapezoid(y: np.ndarray, x: np.ndarray) -> float:
    return float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))


def _area_above(precision: np.ndarray, recall: np.ndarray, floor: float) -> float:
    keep = precision >= floor
    return _trapezoid(precision[keep][::-1], recall[keep][::-1])


def _area_norm(precision: np.ndarray, recall: np.ndarray, xi: float) -> float:
    if not 0.0 <= xi < 1.0:
        raise ValueError(f"xi must lie in [0, 1), got {xi}")
    return _trapezoid(np.maximum(precision - xi, 0.0)[::-1], recall[::-1]) / (1.0 - xi)


def auc_above(curve: PRCurve, floor: float) -> float:
    """Area under the curve's points with precision >= ``floor`` (trapezoid over increasing recall)."""
    return _area_above(curve.precision, curve.recall, floor)


def auc_norm(curve: PRCurve, xi: float | None = None) -> float:
    """The paper's AUCnorm: area of max(precision - xi, 0) over recall, divided by (1 - xi).

    ``xi`` defaults to the positive rate of the evaluated set (the random baseline's precision).
    """
    return _area_norm(curve.precision, curve.recall, curve.positive_rate if xi is None else xi)


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


def dense_codes(values) -> np.ndarray:
    """0, 1, 2, ... for the distinct values in sorted order, one code per item (a group's key, a score's rank)."""
    return np.unique(np.asarray(values), return_inverse=True)[1].ravel()


def bootstrap_samples(labels, groups=None, *, resamples: int = 1000, seed: int = 0):
    """Index arrays of ``resamples`` bootstrap test sets: whole groups drawn with replacement (``groups``: one key per
    item, e.g. a BoOQA bundle or a LevyHolt pair and its converse; None = every item alone). Draws without a positive
    or without a negative are drawn again, up to ``resamples`` more times."""
    labels = np.asarray(labels).astype(bool)
    codes = dense_codes(groups) if groups is not None else np.arange(labels.size)
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


def bootstrap_intervals(
    scores,
    labels,
    groups=None,
    *,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    auc_floor: float = 0.5,
    tie_aware: bool = False,
    within_groups: bool = False,
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of AUCnorm and AUC50 (``auc_floor``) over a scored test set, each resample
    (``bootstrap_samples``) scored as a test set of its own (its own positive rate as xi).
    Returns {"auc_norm": (low, high), "auc50": (low, high)}; with ``tie_aware`` also "auc_norm_tie_aware" and
    "auc50_tie_aware", each resample's ties put in a random order (seeded), so the interval covers the tie-aware value
    and the spread of tie orders; with ``within_groups`` also "within_group" (``within_group_share``, groups resampled)."""
    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    names = ["auc_norm", "auc50"] + (["auc_norm_tie_aware", "auc50_tie_aware"] if tie_aware else []) + (["within_group"] if within_groups else [])
    values: dict[str, list[float]] = {name: [] for name in names}
    rng = np.random.default_rng([seed, 1])
    ranks = random_tie_order(scores, rng) if tie_aware and has_ties(scores) else scores
    for index in bootstrap_samples(labels, groups, resamples=resamples, seed=seed):
        curve = precision_recall_curve(scores[index], labels[index])
        values["auc_norm"].append(auc_norm(curve))
        values["auc50"].append(auc_above(curve, auc_floor))
        if tie_aware:
            untied = precision_recall_curve(ranks[index], labels[index]) if ranks is not scores else curve
            values["auc_norm_tie_aware"].append(auc_norm(untied))
            values["auc50_tie_aware"].append(auc_above(untied, auc_floor))
            if ranks is not scores:
                ranks = random_tie_order(scores, rng)  # a new order of the ties for the next resample
        if within_groups:
            values["within_group"].append(within_group_share(scores[index], labels[index], _resampled_groups(groups, index)))
    return {name: _interval([v for v in found if v == v], level) for name, found in values.items()}


def _resampled_groups(groups, index) -> np.ndarray:
    """Group keys of a resample in which a group drawn twice counts as two groups (its copies are not paired)."""
    keys = np.asarray(groups)[index]
    # a drawn group's members are consecutive, in increasing position: a new copy starts where the key changes or the
    # position falls back
    starts = np.r_[True, keys[1:] != keys[:-1]] | np.r_[True, np.diff(index) <= 0]
    return np.cumsum(starts)


def bootstrap_difference(
    scores_a, scores_b, labels, groups=None, *, resamples: int = 1000, seed: int = 0, level: float = 0.95, tie_aware: bool = False
) -> tuple[float, float]:
    """Paired percentile bootstrap interval of AUCnorm(b) - AUCnorm(a), two scorers of the same test set resampled
    alike; with ``tie_aware``, each resample puts each scorer's ties in a random order (seeded)."""
    scores_a, scores_b = np.asarray(scores_a, dtype=np.float64), np.asarray(scores_b, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    rng = np.random.default_rng([seed, 2])
    reorder_a, reorder_b = tie_aware and has_ties(scores_a), tie_aware and has_ties(scores_b)
    values = []
    for index in bootstrap_samples(labels, groups, resamples=resamples, seed=seed):
        a = random_tie_order(scores_a, rng) if reorder_a else scores_a
        b = random_tie_order(scores_b, rng) if reorder_b else scores_b
        values.append(auc_norm(precision_recall_curve(b[index], labels[index])) - auc_norm(precision_recall_curve(a[index], labels[index])))
    return _interval(values, level)


# --- Tie-aware values, chance and ranking signal -------------------------------------------------------------------
#
# The reference curve has one point per distinct score, so a block of tied entries is joined to the point before it by
# a straight line, which credits the block with precision it does not have (Davis & Goadrich 2006; McSherry & Najork
# 2008 give the expectation over the orders of tied items for average precision). The tie-aware value of a metric is
# its expectation over every order of the tied entries, each order scored as a ranking without ties. For a ranking
# without ties, the reference curve has a point at every entry and only a positive adds area, so
#   AUCnorm = sum over positives k of (g(precision at k - 1) + g(precision at k)) / 2 / (P (1 - xi)),  g(p) = max(p - xi, 0),
# with the anchor's precision 1 before the first entry; its expectation over orders within tie blocks is exact below
# (hypergeometric counts of positives before each position). AUC50 bridges the points below its floor, which no such
# sum expresses: its expectation is a seeded average over random orders, to a standard error of 0.03 points.

CHANCE_DRAWS = 1000
TIE_AWARE_STANDARD_ERROR = 0.0003  # 0.03 points: the seeded average is within 0.1 points of the expectation (3 errors)
TIE_AWARE_MAX_ORDERS = 50000


def has_ties(scores) -> bool:
    scores = np.asarray(scores, dtype=np.float64)
    return np.unique(scores).size < scores.size


def largest_tie_share(scores) -> float:
    """Share of entries in the largest block of equal scores (1/n without ties, 1 for a constant scorer)."""
    scores = np.asarray(scores, dtype=np.float64)
    return float(np.unique(scores, return_counts=True)[1].max() / scores.size) if scores.size else float("nan")


def _tie_blocks(scores: np.ndarray, labels: np.ndarray) -> list[tuple[int, int, int]]:
    """(start, end, positives) of each block of equal scores, in order of decreasing score (positions of that order)."""
    order = np.argsort(-scores, kind="mergesort")
    sorted_scores, sorted_labels = scores[order], labels[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_scores)) + 1]
    return [(int(a), int(b), int(sorted_labels[a:b].sum())) for a, b in zip(starts, np.r_[starts[1:], scores.size])]


def tie_aware_auc_norm(scores, labels, xi: float | None = None) -> float:
    """AUCnorm averaged over every order of tied entries (exact); equal to ``auc_norm`` for a scorer without ties."""
    from scipy.stats import hypergeom

    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    curve = precision_recall_curve(scores, labels)  # validates the input
    if not has_ties(scores):
        return auc_norm(curve, xi)
    xi = curve.positive_rate if xi is None else xi
    total, positives_before = 0.0, 0
    for start, end, t in _tie_blocks(scores, labels):
        m = end - start
        if t:
            j = np.arange(1, m + 1)[:, None]  # position in the block
            h = np.arange(t)[None, :]  # positives of the block before a positive at position j
            # h of the j - 1 entries before position j, drawn from the block's m - 1 others, which hold t - 1 positives
            probability = hypergeom.pmf(h, m - 1, t - 1, j - 1) if m > 1 else np.ones((1, 1))
            before = np.where(start + j - 1 > 0, (positives_before + h) / np.maximum(start + j - 1, 1), 1.0)
            at = (positives_before + h + 1) / (start + j)
            gain = (np.maximum(before - xi, 0.0) + np.maximum(at - xi, 0.0)) / 2
            total += t / m * float(np.sum(probability * gain))
        positives_before += t
    return total / (labels.sum() * (1.0 - xi))


def random_tie_order(scores, rng: np.random.Generator) -> np.ndarray:
    """Scores without ties that keep the order of distinct scores and order each tie block at random: the rank of
    every entry (higher is better)."""
    order = _random_tie_positions(np.asarray(scores, dtype=np.float64), rng)
    ranks = np.empty(order.size, dtype=np.float64)
    ranks[order] = np.arange(order.size)
    return ranks


def _random_tie_positions(scores: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The entries from the lowest score to the highest, each tie block in a random order (``random_tie_order``'s
    ranks are their positions here)."""
    return np.lexsort((rng.random(scores.size), scores))


def tie_aware_auc50(scores, labels, floor: float = 0.5, *, seed: int = 0) -> float:
    """AUC over precision >= ``floor`` averaged over the orders of tied entries: exactly, over every arrangement of the
    labels within the tie blocks, where there are at most ``TIE_AWARE_MAX_ORDERS`` of them; else over random orders
    (seeded) until the standard error is below ``TIE_AWARE_STANDARD_ERROR``. Equal to ``auc_above`` without ties."""
    import itertools
    from math import comb, prod

    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    curve = precision_recall_curve(scores, labels)  # validates the input
    if not has_ties(scores):
        return auc_above(curve, floor)
    blocks = _tie_blocks(scores, labels)
    if prod(comb(end - start, t) for start, end, t in blocks) <= TIE_AWARE_MAX_ORDERS:
        values = []
        for choice in itertools.product(*(itertools.combinations(range(start, end), t) for start, end, t in blocks)):
            arranged = np.zeros(scores.size, dtype=bool)  # the labels in ranked order, best first
            arranged[[k for positions in choice for k in positions]] = True
            values.append(_area_above(*_untied_points(arranged), floor))
        return float(np.mean(values))
    rng, values = np.random.default_rng(seed), []
    while len(values) < TIE_AWARE_MAX_ORDERS:
        values += [_area_above(*_untied_points(labels[_random_tie_positions(scores, rng)[::-1]]), floor) for _ in range(100)]
        if np.std(values, ddof=1) / np.sqrt(len(values)) < TIE_AWARE_STANDARD_ERROR:
            break
    return float(np.mean(values))


def chance_range(labels, *, draws: int = CHANCE_DRAWS, seed: int = 0, level: float = 0.95) -> dict[str, float]:
    """AUCnorm of random scorers on these entries (``draws`` seeded random rankings): mean and central ``level`` range."""
    labels = np.asarray(labels).astype(bool)
    _require_a_positive(labels)
    rng = np.random.default_rng(seed)
    xi, values = float(labels.mean()), []
    for _ in range(draws):
        scores = rng.permutation(labels.size)  # a random ranking: entry i is the scores[i]-th from the bottom
        ranked = np.empty(labels.size, dtype=np.intp)
        ranked[labels.size - 1 - scores] = np.arange(labels.size)
        values.append(_area_norm(*_untied_points(labels[ranked]), xi))
    low, high = _interval(values, level)
    return {"mean": float(np.mean(values)), "low": low, "high": high}


def group_pairs(frame: pd.DataFrame) -> pd.DataFrame:
    """Every (positive, negative) pair of the same ``group`` of ``frame`` (a boolean ``label`` column): one row per
    pair, each other column twice, ``<column>_p`` of the positive and ``<column>_n`` of the negative."""
    label = frame["label"].astype(bool)
    return frame[label].merge(frame[~label], on="group", suffixes=("_p", "_n"))


def within_group_share(scores, labels, groups) -> float:
    """Share of (positive, negative) pairs of the same group (a BoOQA bundle) in which the positive scores higher, a tie
    counting half: 0.5 for a random or constant scorer; NaN when no group holds both. A NaN score wins and ties
    nothing. Counted, not listed: each positive's negatives of its group below it and equal to it are found by binary
    search in the negatives sorted by (group, score rank), so a bootstrap's thousand resamples cost no pair table
    (wins are halves, so their sum and the share are exact, as the mean over listed pairs was)."""
    scores, labels = np.asarray(scores, dtype=np.float64), np.asarray(labels).astype(bool)
    codes = dense_codes(groups)
    groups_n = int(codes.max()) + 1 if codes.size else 0
    pairs = int(np.dot(np.bincount(codes[labels], minlength=groups_n), np.bincount(codes[~labels], minlength=groups_n)))
    if pairs == 0:
        return float("nan")
    scored = ~np.isnan(scores)
    ranks = dense_codes(scores[scored])
    stride = ranks.size + 1
    keys = np.full(scores.size, -1, dtype=np.int64)
    keys[scored] = codes[scored].astype(np.int64) * stride + ranks
    negatives = np.sort(keys[~labels & scored])
    positive = labels & scored
    below = np.searchsorted(negatives, keys[positive], "left")
    equal = np.searchsorted(negatives, keys[positive], "right") - below
    below -= np.searchsorted(negatives, codes[positive].astype(np.int64) * stride, "left")
    return float((int(below.sum()) + 0.5 * int(equal.sum())) / pairs)
