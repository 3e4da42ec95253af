"""PR curve and AUC metrics with the reference semantics, on hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from directional_inference.metrics import (
    auc_above,
    auc_norm,
    best_f1,
    bootstrap_intervals,
    chance_range,
    evaluate_scores,
    largest_tie_share,
    precision_recall_curve,
    tie_aware_auc50,
    tie_aware_auc_norm,
    within_group_share,
)


def test_curve_points_cut_at_full_recall_with_anchor():
    curve = precision_recall_curve([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0])
    # points from the full-recall threshold (0.7) up to the highest; the 0.6 point is cut; anchor (r=0, p=1) last
    np.testing.assert_allclose(curve.precision, [2 / 3, 0.5, 1.0, 1.0])
    np.testing.assert_allclose(curve.recall, [1.0, 0.5, 0.5, 0.0])
    np.testing.assert_allclose(curve.thresholds, [0.7, 0.8, 0.9])
    assert curve.positive_rate == 0.5


def test_auc_above_floor_by_hand():
    curve = precision_recall_curve([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0])
    # recall 0 -> .5 at precision 1: 0.5; .5 -> .5: 0; .5 -> 1 from 0.5 to 2/3: 0.5 * (0.5 + 2/3) / 2
    assert auc_above(curve, 0.5) == pytest.approx(0.5 + 0.5 * (0.5 + 2 / 3) / 2)
    # floor 0.6 drops the (0.5, 0.5) point and bridges over it
    assert auc_above(curve, 0.6) == pytest.approx(0.5 + 0.5 * (1 + 2 / 3) / 2)


def test_auc_norm_by_hand_and_on_the_right_xi():
    curve = precision_recall_curve([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0])
    # max(p - 0.5, 0) = [0.5, 0.5, 0, 1/6] over recall [0, .5, .5, 1]: 0.25 + 0 + 0.5 * (1/6) / 2
    assert auc_norm(curve) == pytest.approx((0.25 + 0.5 / 12) / 0.5)
    # an explicit xi changes the result: the default must be the positive rate of the evaluated set
    assert auc_norm(curve, 0.25) != pytest.approx(auc_norm(curve))


def test_ties_form_one_point():
    curve = precision_recall_curve([0.5, 0.5, 0.5, 0.1], [1, 0, 1, 0])
    np.testing.assert_allclose(curve.precision, [2 / 3, 1.0])
    np.testing.assert_allclose(curve.recall, [1.0, 0.0])
    assert auc_above(curve, 0.5) == pytest.approx((1 + 2 / 3) / 2)
    assert auc_norm(curve) == pytest.approx(((0.5 + 1 / 6) / 2) / 0.5)


def test_all_equal_scores_keep_the_anchor_area():
    # one threshold, precision = positive rate; the (0, 1) anchor leaves a triangle of area (1 - xi) / 2,
    # so AUCnorm is 0.5 (the reference implementation's semantics, not 0)
    curve = precision_recall_curve([0.3, 0.3, 0.3, 0.3], [1, 0, 0, 0])
    assert auc_norm(curve) == pytest.approx(0.5)
    assert auc_above(curve, 0.5) == pytest.approx(0.0)


def test_perfect_and_inverted_rankings():
    perfect = precision_recall_curve([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0])
    assert auc_norm(perfect) == pytest.approx(1.0) and auc_above(perfect, 0.5) == pytest.approx(1.0)
    inverted = precision_recall_curve([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0])
    assert auc_norm(inverted) < 0.5


def test_best_f1():
    curve = precision_recall_curve([0.9, 0.8, 0.7, 0.6], [1, 0, 1, 0])
    f1, precision, recall, threshold = best_f1(curve)
    assert (f1, precision, recall, threshold) == pytest.approx((0.8, 2 / 3, 1.0, 0.7))


def test_invalid_inputs():
    with pytest.raises(ValueError, match="positive"):
        precision_recall_curve([0.1, 0.2], [0, 0])
    with pytest.raises(ValueError, match="same length"):
        precision_recall_curve([0.1, 0.2], [0, 1, 1])
    with pytest.raises(ValueError, match="NaN"):
        precision_recall_curve([0.1, float("nan")], [0, 1])


def test_random_scores_on_levyholt_size_match_reference_magnitudes():
    rng = np.random.default_rng(0)
    labels = np.zeros(12921, dtype=int)
    labels[:2831] = 1
    metrics = evaluate_scores(rng.random(labels.size), labels)
    assert metrics["positive_rate"] == pytest.approx(0.2191, abs=1e-4)
    assert 0.0 <= metrics["auc_norm"] < 0.02  # only the anchor lifts a random ranking above 0
    assert metrics["n"] == 12921


def test_bootstrap_resamples_whole_groups():
    from directional_inference.metrics import bootstrap_intervals

    rng = np.random.default_rng(3)
    labels = rng.random(300) < 0.4
    scores = labels * 0.4 + rng.random(300)
    alone = bootstrap_intervals(scores, labels, seed=5, resamples=300)
    low, high = alone["auc_norm"]
    point = auc_norm(precision_recall_curve(scores, labels))
    assert low < point < high and alone == bootstrap_intervals(scores, labels, seed=5, resamples=300)  # seeded
    # every item twice: duplicating items leaves the PR curve unchanged, so resampling the duplicates as whole groups
    # draws exactly the distribution of the original items (same seed, same draws) ...
    doubled = bootstrap_intervals(np.repeat(scores, 2), np.repeat(labels, 2), np.repeat(np.arange(300), 2), seed=5, resamples=300)
    assert all(doubled[k] == pytest.approx(alone[k]) for k in alone)
    # ... while resampling them one by one pretends to have twice the data: a narrower interval
    naive = bootstrap_intervals(np.repeat(scores, 2), np.repeat(labels, 2), seed=5, resamples=300)
    assert naive["auc_norm"][1] - naive["auc_norm"][0] < 0.85 * (high - low)
    perfect = bootstrap_intervals(labels.astype(float), labels, seed=1, resamples=50)
    assert perfect["auc_norm"] == (1.0, 1.0) and perfect["auc50"] == (1.0, 1.0)


def test_paired_bootstrap_of_a_difference():
    from directional_inference.metrics import bootstrap_difference

    rng = np.random.default_rng(4)
    labels = rng.random(400) < 0.3
    noise = rng.random(400)
    low, high = bootstrap_difference(noise, noise + 0.0, labels, seed=1, resamples=200)
    assert low == high == 0.0  # the same scorer twice: every resample gives a difference of 0
    better = labels * 0.8 + noise
    low, high = bootstrap_difference(noise, better, labels, seed=1, resamples=200)
    point = auc_norm(precision_recall_curve(better, labels)) - auc_norm(precision_recall_curve(noise, labels))
    assert 0 < low < point < high


# --- tie-aware values, chance and signal ----------------------------------------------------------------------------


def _every_order(scores, labels, metric):
    """The mean of ``metric`` over every order of the tied entries (brute force: each permutation that keeps the order
    of distinct scores, scored as a ranking without ties)."""
    import itertools

    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels, dtype=bool)
    values = []
    for permutation in itertools.permutations(range(len(scores))):
        ordered = scores[list(permutation)]
        if np.all(np.diff(ordered) <= 0):
            ranks = np.empty(len(scores))
            ranks[list(permutation)] = np.arange(len(scores), 0, -1)
            values.append(metric(ranks, labels))
    return float(np.mean(values))


TIED_CASES = [
    ([0.9, 0.5, 0.5, 0.5, 0.1, 0.1], [1, 0, 1, 0, 1, 0]),
    ([0.0, 0.0, 0.0, 0.0, 0.0], [1, 0, 0, 1, 0]),  # a constant scorer
    ([0.3, 0.3, 0.2, 0.2, 0.2, 0.9, 0.0], [0, 1, 1, 0, 1, 0, 1]),
]


def test_tie_aware_auc_norm_by_hand():
    """Four tied entries, one positive: xi = 1/4, g(p) = max(p - 1/4, 0), and a positive at position k adds
    (g(precision at k - 1) + g(precision at k)) / 2 / (P (1 - xi)), the anchor's precision 1 before position 1.
    The positive is at each position with probability 1/4: k = 1 adds (3/4 + 3/4) / 2 = 3/4, k = 2 (0 + 1/4) / 2 = 1/8,
    k = 3 (0 + 1/12) / 2 = 1/24, k = 4 (0 + 0) / 2 = 0; the mean 11/48 over 3/4 is 11/36. The reference joins the anchor
    (0, 1) to (1, 1/4) by a straight line: (3/4 + 0) / 2 / (3/4) = 1/2."""
    scores, labels = [0.5] * 4, [1, 0, 0, 0]
    assert tie_aware_auc_norm(scores, labels) == pytest.approx(11 / 36)
    assert auc_norm(precision_recall_curve(scores, labels)) == pytest.approx(0.5)


@pytest.mark.parametrize(("scores", "labels"), TIED_CASES)
def test_tie_aware_values_equal_brute_force_over_every_order(scores, labels):
    expected_norm = _every_order(scores, labels, lambda s, y: auc_norm(precision_recall_curve(s, y)))
    assert tie_aware_auc_norm(scores, labels) == pytest.approx(expected_norm, abs=1e-12)
    expected_50 = _every_order(scores, labels, lambda s, y: auc_above(precision_recall_curve(s, y), 0.5))
    assert tie_aware_auc50(scores, labels, 0.5, seed=3) == pytest.approx(expected_50, abs=0.001)  # seeded average: within 0.1 points


def test_a_scorer_without_ties_gives_the_reference_values():
    rng = np.random.default_rng(0)
    scores, labels = rng.random(300), rng.random(300) < 0.3
    curve = precision_recall_curve(scores, labels)
    assert tie_aware_auc_norm(scores, labels) == auc_norm(curve) and tie_aware_auc50(scores, labels, 0.5) == auc_above(curve, 0.5)


def test_a_constant_scorer_is_worth_chance_tie_aware_but_not_by_the_reference():
    """Every order of a constant scorer is a random ranking: its tie-aware AUCnorm is the mean of random scorers, while
    the reference joins (0, 1) to the full-recall point and credits it 0.5."""
    labels = np.r_[np.ones(30), np.zeros(70)].astype(bool)
    scores = np.zeros(100)
    assert auc_norm(precision_recall_curve(scores, labels)) == pytest.approx(0.5)
    chance = chance_range(labels, draws=2000, seed=1)
    assert tie_aware_auc_norm(scores, labels) == pytest.approx(chance["mean"], abs=0.01)
    assert chance["low"] < chance["mean"] < chance["high"] < 0.2


def test_largest_tie_share_and_within_group_share_by_hand():
    assert largest_tie_share([0, 0, 0, 1, 2]) == pytest.approx(0.6) and largest_tie_share([3, 1, 2]) == pytest.approx(1 / 3)
    # bundle 1: the positive 1.0 beats both negatives; bundle 2: a tie (half); bundle 3 has no negative
    scores, labels, groups = [1.0, 0.0, 0.2, 0.5, 0.5, 0.9], [1, 0, 0, 1, 0, 1], [1, 1, 1, 2, 2, 3]
    assert within_group_share(scores, labels, groups) == pytest.approx((1 + 1 + 0.5) / 3)


def test_within_group_share_counts_every_pair_of_a_group_as_its_definition_lists_them():
    """Against the definition pair by pair (each positive against each negative of its group: 1 above, 0.5 equal, 0
    below or NaN), exactly: groups of strings and of ints, many ties, NaN scores, -0.0 beside 0.0, a group with no
    negative, one with no positive, and no pair at all."""
    import math

    rng = np.random.default_rng(5)
    for trial in range(40):
        n = int(rng.integers(1, 60))
        scores = rng.integers(-2, 3, n).astype(np.float64) * rng.choice([1.0, 0.25])
        scores[rng.random(n) < 0.1] = np.nan
        scores[scores == 0] *= rng.choice([1.0, -1.0], (scores == 0).sum())
        labels = rng.random(n) < 0.4
        groups = rng.integers(0, 6, n) if trial % 2 else np.array([f"b{k}" for k in rng.integers(0, 6, n)])
        wins = [
            1.0 if scores[p] > scores[q] else 0.5 if scores[p] == scores[q] else 0.0
            for p in range(n)
            for q in range(n)
            if labels[p] and not labels[q] and groups[p] == groups[q]
        ]
        share = within_group_share(scores, labels, groups)
        assert (math.isnan(share) and not wins) or share == sum(wins) / len(wins), trial


def test_tie_aware_intervals_hold_the_tie_aware_value():
    rng = np.random.default_rng(2)
    labels = rng.random(400) < 0.4
    scores = np.where(rng.random(400) < 0.6, 0.0, rng.random(400) + labels)  # 60% tied at 0, the rest informative
    intervals = bootstrap_intervals(scores, labels, resamples=300, seed=1, tie_aware=True)
    low, high = intervals["auc_norm_tie_aware"]
    assert low < tie_aware_auc_norm(scores, labels) < high
    assert intervals["auc_norm"] != intervals["auc_norm_tie_aware"]  # the reference joins the tie block by a straight line


def test_the_seeded_average_over_random_orders_is_within_a_tenth_of_a_point(monkeypatch):
    """A case with 3,432 arrangements is averaged exactly; with the limit below that, random orders must come within
    0.1 points of it."""
    from directional_inference import metrics

    rng = np.random.default_rng(5)
    labels = np.r_[np.ones(7), np.zeros(7), rng.random(40) < 0.5].astype(bool)
    scores = np.r_[np.zeros(14), rng.random(40) + labels[14:]]  # a block of 14 with 7 positives: C(14, 7) = 3,432 orders
    exact = tie_aware_auc50(scores, labels, 0.5)
    monkeypatch.setattr(metrics, "TIE_AWARE_MAX_ORDERS", 3000)
    assert tie_aware_auc50(scores, labels, 0.5, seed=9) == pytest.approx(exact, abs=0.001)


def test_the_untied_fast_path_gives_the_reference_curves_points_and_chance_exactly():
    """The seeded averages score thousands of rankings without ties through ``_untied_points``; its precision and
    recall must be ``precision_recall_curve``'s to the bit (the tables' bytes depend on it), and ``chance_range`` what
    its definition gives: AUCnorm of ``draws`` seeded random permutations used as scores."""
    from directional_inference.metrics import _interval, _untied_points

    rng = np.random.default_rng(4)
    for n, rate in ((7, 0.3), (200, 0.1), (1000, 0.6)):
        labels = rng.random(n) < rate
        labels[0], labels[-1] = True, False
        scores = rng.permutation(n).astype(np.float64)
        curve = precision_recall_curve(scores, labels)
        precision, recall = _untied_points(labels[np.argsort(-scores, kind="mergesort")])
        assert precision.tobytes() == curve.precision.tobytes() and recall.tobytes() == curve.recall.tobytes()
        draws = np.random.default_rng(8)
        values = [auc_norm(precision_recall_curve(draws.permutation(n).astype(np.float64), labels)) for _ in range(50)]
        chance = chance_range(labels, draws=50, seed=8)
        assert (chance["mean"], chance["low"], chance["high"]) == (float(np.mean(values)), *_interval(values, 0.95))
