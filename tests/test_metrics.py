"""PR curve and AUC metrics with the reference semantics, on hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from directional_inference.metrics import auc_above, auc_norm, best_f1, evaluate_scores, precision_recall_curve


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
