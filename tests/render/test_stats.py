"""The statistics behind verdicts (studygen.render.stats), against pycocotools
and against the percentile bootstrap written out from its definition (Efron
and Tibshirani 1993, ch. 13: resample each side with replacement, take the
statistic, read the 2.5 and 97.5 percentiles)."""

from __future__ import annotations

import numpy as np
import pytest

from studygen.render.stats import (MedianDifference, PerImageAP, ap_difference, holm_adjusted, median_difference,
                                   per_image_from_cocoeval, percentile_p_value, permutation_floor)

from ..checks.coco_toy import evaluate, toy_coco

# Seven repeat medians a side (ms), all distinct, so every percentile of the resampled differences is sharp.
A_MS = [5.01, 4.97, 5.06, 4.99, 5.03, 4.95, 5.08]
B_MS = [4.90, 4.96, 4.85, 4.99, 4.88, 4.93, 4.87]


def bootstrap_by_definition(a, b, resamples, seed):
    """(low, high) of median(b*) - median(a*), resampling a first, then b, from one seeded generator."""
    a, b = np.asarray(a), np.asarray(b)
    rng = np.random.default_rng(seed)
    picks_a = rng.integers(0, a.size, size=(resamples, a.size))
    picks_b = rng.integers(0, b.size, size=(resamples, b.size))
    a_star = np.array([np.median(a[row]) for row in picks_a])
    b_star = np.array([np.median(b[row]) for row in picks_b])
    return tuple(np.percentile(b_star - a_star, [2.5, 97.5]))


@pytest.mark.parametrize("resamples", [37, 4000])  # 37: the percentiles fall between resamples (interpolated)
def test_median_difference_is_the_percentile_bootstrap(resamples):
    result = median_difference(A_MS, B_MS, resamples=resamples, seed=11)
    low, high = bootstrap_by_definition(A_MS, B_MS, resamples, 11)
    assert (result.low_ms, result.high_ms) == pytest.approx((low, high), abs=1e-12)
    assert result.difference_ms == pytest.approx(np.median(B_MS) - np.median(A_MS))  # 4.90 - 5.01
    assert result.difference_ms == pytest.approx(-0.11)
    assert (result.repeats_a, result.repeats_b) == (7, 7)
    assert result.spread_a == (4.95, 5.08) and result.spread_b == (4.85, 4.99)
    assert (result.resamples, result.seed, result.confidence) == (resamples, 11, 0.95)
    # medians of resamples lie between the extremes of each side
    assert 4.85 - 5.08 <= result.low_ms < result.high_ms <= 4.99 - 4.95
    assert result.high_ms < 0 and result.verdict == "beyond run-to-run noise"


def test_the_seed_fixes_the_interval_and_another_seed_moves_it():
    first = median_difference(A_MS, B_MS, resamples=37, seed=3)
    assert median_difference(A_MS, B_MS, resamples=37, seed=3) == first
    other = median_difference(A_MS, B_MS, resamples=37, seed=4)
    assert (other.low_ms, other.high_ms) != (first.low_ms, first.high_ms)


def test_a_narrower_confidence_gives_a_narrower_interval():
    wide = median_difference(A_MS, B_MS, resamples=37, seed=1)
    narrow = median_difference(A_MS, B_MS, resamples=37, seed=1, confidence=0.5)
    assert wide.low_ms < narrow.low_ms <= narrow.high_ms < wide.high_ms
    rng = np.random.default_rng(1)
    picks_a = rng.integers(0, 7, size=(37, 7))
    picks_b = rng.integers(0, 7, size=(37, 7))
    diffs = np.median(np.asarray(B_MS)[picks_b], axis=1) - np.median(np.asarray(A_MS)[picks_a], axis=1)
    assert (narrow.low_ms, narrow.high_ms) == pytest.approx(tuple(np.percentile(diffs, [25, 75])), abs=1e-12)


@pytest.mark.parametrize(("a", "b", "got"), [([5.0, 5.1], A_MS, "2 and 7"), (A_MS, [5.0, 5.1], "7 and 2")])
def test_fewer_than_three_repeats_on_either_side_are_refused(a, b, got):
    with pytest.raises(ValueError) as raised:
        median_difference(a, b)
    assert str(raised.value) == f"a noise verdict needs at least 3 repeats a side (got {got})"


def test_three_repeats_a_side_are_enough():
    assert median_difference([5.0, 5.1, 5.2], [4.0, 4.1, 4.2], resamples=100).difference_ms == pytest.approx(-1.0)


@pytest.mark.parametrize("bad_side", ["a", "b"])
def test_non_finite_repeat_medians_are_refused(bad_side):
    bad = [5.0, float("nan"), 5.1] if bad_side == "a" else [5.0, float("inf"), 5.1]
    a, b = (bad, A_MS) if bad_side == "a" else (A_MS, bad)
    with pytest.raises(ValueError) as raised:
        median_difference(a, b)
    assert str(raised.value) == "repeat medians must be finite"


def test_within_noise_holds_the_ends_of_the_interval():
    def verdict(low, high):
        return MedianDifference(0.0, low, high, 3, 3, (0, 0), (0, 0), 100, 0, 0.95, p_value=1.0).verdict

    assert verdict(-0.1, 0.1) == verdict(0.0, 0.2) == verdict(-0.2, 0.0) == "within run-to-run noise"
    assert verdict(0.001, 0.2) == verdict(-0.2, -0.001) == "beyond run-to-run noise"


def test_the_bootstrap_p_is_the_smallest_level_whose_interval_excludes_0():
    # sorted [-1, 1, 2, 3, 4]: numpy's linear percentile crosses 0 at position 0.5 of 4, so the low end
    # rises above 0 once alpha / 2 * 4 > 0.5: p = 0.25
    assert percentile_p_value([3.0, -1.0, 4.0, 1.0, 2.0]) == pytest.approx(0.25)
    assert percentile_p_value([-3.0, 1.0, -4.0, -1.0, -2.0]) == pytest.approx(0.25)  # mirrored: the high end
    assert percentile_p_value([0.1, 0.2, 0.3]) == 0.0  # every resample on one side
    assert percentile_p_value([-1.0, 0.0, 0.0, 1.0]) == 1.0  # no interval leaves 0 out


@pytest.mark.parametrize("confidence", [0.5, 0.9, 0.95])
def test_the_bootstrap_p_agrees_with_the_interval_of_the_same_resamples(confidence):
    # near-equal and separated pairs alike (coarse values give the tied medians of real repeat medians)
    outcomes = set()
    for shift in (0.0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12):
        b_ms = [round(v + shift, 2) for v in A_MS]
        result = median_difference(A_MS, b_ms, resamples=301, seed=5, confidence=confidence)
        assert (result.p_value < 1 - confidence) == (not result.within_noise), (shift, result)
        outcomes.add(result.within_noise)
    assert outcomes == {True, False}


def test_holm_multiplies_the_ith_smallest_p_by_the_tests_left_and_keeps_the_order():
    # sorted 0.005 x 4, 0.01 x 3, 0.03 x 2 and 0.04 x 1, each at least the one before it
    assert holm_adjusted([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm_adjusted([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm_adjusted([0.02]) == [0.02]
    assert holm_adjusted([]) == []


# ---- COCO AP from per-image results -------------------------------------------------

def document(*categories_per_image, iou_count=2, max_dets=100) -> dict:
    """A per-image document by hand: one list of categories per image (image ids 1, 2, ...)."""
    return {"format": "studygen-per-image-ap", "version": 1, "iou_thresholds": [0.5, 0.75][:iou_count],
            "max_dets": max_dets,
            "images": [{"image_id": i + 1, "categories": cats} for i, cats in enumerate(categories_per_image)]}


def category(category_id, num_gt, scores, matched, ignored=None):
    """``matched``/``ignored``: one 0/1 row per IoU threshold (two thresholds here)."""
    ignored = ignored or [[0] * len(scores) for _ in matched]
    return {"category_id": category_id, "num_gt": num_gt, "scores": scores, "matched": matched, "ignored": ignored}


def test_ap_by_hand():
    # category 1: one ground truth, found at both thresholds: precision 1 at every recall, AP 1
    one = category(1, 1, [0.9], [[1], [1]])
    assert PerImageAP(document([one])).ap() == pytest.approx(1.0, abs=1e-12)
    # category 2: two ground truths; detections TP then FP at IoU 0.5 (recall reaches 0.5), nothing at 0.75:
    # AP at 0.5 = 51/101 (recall thresholds 0.00 to 0.50 have precision 1), AP at 0.75 = 0
    two = category(2, 2, [0.8, 0.7], [[1, 0], [0, 0]])
    assert PerImageAP(document([two])).ap() == pytest.approx((51 / 101 + 0) / 2)
    # both categories: the mean over categories
    assert PerImageAP(document([one, two])).ap() == pytest.approx((1.0 + 51 / 202) / 2)


def test_categories_without_ground_truth_are_left_out_not_counted_as_zero():
    no_gt = category(1, 0, [0.9], [[0], [0]])
    found = category(2, 1, [0.8], [[1], [1]])
    assert PerImageAP(document([no_gt, found])).ap() == pytest.approx(1.0, abs=1e-12)
    assert PerImageAP(document([no_gt])).ap() == -1.0  # as pycocotools prints an AP it cannot compute
    missed = category(3, 1, [], [[], []])  # a ground truth no detection found: AP 0 for the category
    assert PerImageAP(document([found, missed])).ap() == pytest.approx(0.5, abs=1e-12)


def test_counts_repeat_images():
    hit = category(1, 1, [0.9], [[1], [1]])
    miss = category(1, 1, [0.4], [[0], [0]])
    per_image = PerImageAP(document([hit], [miss]))
    # image 1 twice, image 2 never: every ground truth found first
    assert per_image.ap([2, 0]) == pytest.approx(1.0, abs=1e-12)
    # once each: scores 0.9 (TP) then 0.4 (FP) over 2 ground truths: precision 1 up to recall 0.5
    assert per_image.ap() == pytest.approx(51 / 101)
    assert per_image.ap([0, 3]) == 0.0


@pytest.mark.parametrize("data", [
    [],
    {"format": "other", "version": 1, "iou_thresholds": [], "max_dets": 1, "images": []},
    {"format": "studygen-per-image-ap", "version": 2, "iou_thresholds": [], "max_dets": 1, "images": []},
])
def test_other_documents_are_refused(data):
    with pytest.raises(ValueError) as raised:
        PerImageAP(data)
    assert str(raised.value) == "not a studygen-per-image-ap version 1 document"


def crowded_coco():
    """Toy ground truth with a crowd region and detections inside it (ignored by COCO), scores with ties."""
    gt, dets = toy_coco(seed=4, n_images=24)
    crowd = {"id": 10_000, "image_id": 1, "category_id": 1, "bbox": [500.0, 350.0, 120.0, 100.0],
             "area": 12_000.0, "iscrowd": 1}
    gt = {**gt, "annotations": gt["annotations"] + [crowd]}
    dets = [{**d, "score": round(d["score"], 1)} for d in dets]  # many equal scores: order of ties matters
    dets.append({"image_id": 1, "category_id": 1, "bbox": [510.0, 360.0, 40.0, 40.0], "score": 0.7})
    return gt, dets


def test_per_image_results_reproduce_pycocotools_with_crowds_and_tied_scores():
    gt, dets = crowded_coco()
    coco_eval = evaluate(gt, dets)
    data = per_image_from_cocoeval(coco_eval)
    assert any(1 in row for image in data["images"] for cat in image["categories"] for row in cat["ignored"])
    assert PerImageAP(data).ap() == pytest.approx(coco_eval.stats[0], abs=1e-12)


def test_ap_difference_is_a_paired_bootstrap_over_images():
    gt, dets_a = toy_coco(seed=2, n_images=25)
    _, dets_b = toy_coco(seed=2, n_images=25, shift=6.0)
    a = PerImageAP(per_image_from_cocoeval(evaluate(gt, dets_a)))
    b = PerImageAP(per_image_from_cocoeval(evaluate(gt, dets_b)))
    result = ap_difference(a, b, resamples=150, seed=9)
    rng = np.random.default_rng(9)
    diffs = []
    for _ in range(150):
        counts = np.bincount(rng.integers(0, 25, size=25), minlength=25)
        diffs.append(b.ap(counts) - a.ap(counts))
    assert (result.low, result.high) == pytest.approx(tuple(np.percentile(diffs, [2.5, 97.5])), abs=1e-12)
    assert result.difference == pytest.approx(b.ap() - a.ap(), abs=1e-15)
    assert result.low < result.high  # resampled images, not the full list each time
    assert (result.images, result.resamples, result.seed, result.confidence) == (25, 150, 9, 0.95)


def test_ap_difference_needs_the_same_images():
    gt, dets = toy_coco(seed=2, n_images=6)
    small_gt, small_dets = toy_coco(seed=2, n_images=5)
    a = PerImageAP(per_image_from_cocoeval(evaluate(gt, dets)))
    b = PerImageAP(per_image_from_cocoeval(evaluate(small_gt, small_dets)))
    with pytest.raises(ValueError) as raised:
        ap_difference(a, b)
    assert str(raised.value) == "per-image results cover different images (6 and 5 images)"


def test_permutation_floor_is_two_of_the_ways_to_split_the_values():
    assert permutation_floor(3, 3) == pytest.approx(0.1)  # 2 of C(6, 3) = 20
    assert permutation_floor(5, 5) == pytest.approx(2 / 252)
    assert permutation_floor(1, 3) == pytest.approx(0.5)  # one value: the largest or smallest of 4
    assert permutation_floor(3, 1) == permutation_floor(1, 3)
    assert permutation_floor(1, 1) == 1.0  # 2 / 2
    assert permutation_floor(4, 4) < 0.05 <= permutation_floor(3, 4)  # 2 / 70 and 2 / 35
    with pytest.raises(ValueError, match="a value a side"):
        permutation_floor(0, 3)


def test_percentile_p_value_of_a_band_reads_each_end_against_its_own_side():
    differences = [3.0, -1.0, 4.0, 1.0, 2.0]
    assert percentile_p_value(differences, 0.0) == percentile_p_value(differences)
    # sorted -1, 1, 2, 3, 4: the curve crosses 0.5 at position 0.75 of 4 and 1.5 at 1.5 (the high end never
    # falls below -band)
    assert percentile_p_value(differences, 0.5) == pytest.approx(2 * 0.75 / 4)
    assert percentile_p_value(differences, 1.5) == pytest.approx(2 * 1.5 / 4)
    assert percentile_p_value([0.1, 0.2, 0.3], 0.5) == 1.0  # all inside the band: no interval misses it
    assert percentile_p_value([-0.9, -0.8, -0.7], 0.5) == 0.0  # all below -band
