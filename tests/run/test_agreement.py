"""Agreement metrics on hand-made outputs (values worked out by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from studygen.collect.run.agreement import (Outputs, detections, have_boxes, have_logits, iou, logit_correlation,
                                            match_counts, nonfinite_count, outputs_from_model, precision_recall,
                                            top1_agreement)


def outputs(logits, boxes):
    return Outputs(logits=np.asarray(logits, dtype=float), boxes=np.asarray(boxes, dtype=float))


def test_iou_of_half_overlapping_squares():
    # two 10x10 squares overlapping in a 5x10 strip: 50 / (100 + 100 - 50)
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)
    assert iou((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0  # touching, no area
    assert iou((0, 0, 10, 10), (float("nan"), 0, 5, 5)) == 0.0


def test_logit_correlation():
    ref = [outputs([[1.0, 2.0], [3.0, 4.0]], [[0.5, 0.5, 0.1, 0.1]] * 2)]
    assert logit_correlation(ref, ref) == pytest.approx(1.0)
    flipped = [outputs([[-1.0, -2.0], [-3.0, -4.0]], [[0.5, 0.5, 0.1, 0.1]] * 2)]
    assert logit_correlation(ref, flipped) == pytest.approx(-1.0)
    # one NaN in the variant: the other three positions (1, 2, 4 vs 1, 2, 4) still correlate perfectly
    with_nan = [outputs([[1.0, 2.0], [float("nan"), 4.0]], [[0.5, 0.5, 0.1, 0.1]] * 2)]
    assert logit_correlation(ref, with_nan) == pytest.approx(1.0)
    constant = [outputs([[1.0, 1.0], [1.0, 1.0]], [[0.5, 0.5, 0.1, 0.1]] * 2)]
    assert logit_correlation(ref, constant) is None


def classes(*rows):
    return [Outputs(logits=np.asarray(row, dtype=float)) for row in rows]


def test_top1_agreement_over_images_whose_reference_has_a_top_class():
    reference = classes([0.1, 2.0, 0.3], [1.5, 0.2, 0.1], [0.0, 0.1, 0.9], [0.4, 0.3, 0.2])
    # image 1 agrees (class 1), image 2 moves to class 2, image 3 agrees (class 2), image 4 agrees (class 0)
    variant = classes([0.2, 1.9, 0.1], [0.1, 0.2, 0.3], [0.1, 0.0, 0.8], [0.5, 0.1, 0.1])
    assert top1_agreement(reference, variant) == 0.75
    assert top1_agreement(reference, reference) == 1.0
    # a variant image holding a NaN has no top class: it disagrees, even where its finite logits peak alike
    nan_variant = classes([float("nan"), 1.9, 0.1], [1.1, 0.2, 0.3], [0.1, 0.0, 0.8], [0.5, 0.1, 0.1])
    assert top1_agreement(reference, nan_variant) == 0.75
    # a reference image holding an Inf compares nothing: 2 of the 3 others agree
    inf_reference = classes([0.1, 2.0, 0.3], [1.5, 0.2, float("inf")], [0.0, 0.1, 0.9], [0.4, 0.3, 0.2])
    assert top1_agreement(inf_reference, variant) == 1.0
    moved_third = classes([0.2, 1.9, 0.1], [0.1, 0.2, 0.3], [0.9, 0.0, 0.1], [0.5, 0.1, 0.1])
    assert top1_agreement(inf_reference, moved_third) == pytest.approx(2 / 3)  # images after the skipped one count
    with pytest.raises(ValueError):  # outputs of different image counts are no pairs
        top1_agreement(reference, variant[:3])
    assert top1_agreement(classes([float("nan"), 1.0]), classes([0.0, 1.0])) is None
    # a tie takes the lowest class in both: 0 against 0
    assert top1_agreement(classes([1.0, 1.0, 0.0]), classes([2.0, 2.0, 1.0])) == 1.0


def test_top1_agreement_is_not_read_off_a_detectors_queries():
    per_query = [Outputs(logits=np.asarray([[0.1, 0.9], [0.8, 0.2]]))]
    assert top1_agreement(per_query, per_query) is None


def test_nonfinite_count_counts_logits_and_boxes():
    out = outputs([[float("nan"), 1.0], [float("inf"), 2.0]], [[0.5, float("-inf"), 0.1, 0.1], [0.5] * 4])
    assert nonfinite_count([out]) == 3


def test_detections_threshold_top_k_and_pixel_boxes():
    # query 0: best class 1 at sigmoid(2) = 0.881; query 1: class 0 at sigmoid(0) = 0.5; query 2: sigmoid(-3) = 0.047
    out = outputs([[-5.0, 2.0], [0.0, -1.0], [-3.0, -4.0]],
                  [[0.5, 0.5, 0.2, 0.4], [0.25, 0.25, 0.1, 0.1], [0.5, 0.5, 1.0, 1.0]])
    found = detections(out, height=100, width=200, score_threshold=0.1)
    assert [(round(s, 3), label) for s, label, _ in found] == [(0.881, 1), (0.5, 0)]
    assert found[0][2] == pytest.approx((80.0, 30.0, 120.0, 70.0))  # cx 100 px, cy 50 px, w 40 px, h 40 px
    assert len(detections(out, height=100, width=200, score_threshold=0.0, top_k=1)) == 1


def test_matching_needs_same_label_and_enough_overlap():
    reference = [(0.9, 1, (0, 0, 10, 10)), (0.8, 2, (20, 20, 30, 30))]
    assert match_counts(reference, [(0.9, 1, (0, 0, 10, 10)), (0.8, 2, (20, 20, 30, 30))], 0.5) == 2
    assert match_counts(reference, [(0.9, 2, (0, 0, 10, 10))], 0.5) == 0  # wrong label
    assert match_counts(reference, [(0.9, 1, (5, 0, 15, 10))], 0.5) == 0  # IoU 1/3
    assert match_counts(reference, [(0.9, 1, (5, 0, 15, 10))], 0.3) == 1
    # one reference box can be matched once only
    assert match_counts(reference[:1], [(0.9, 1, (0, 0, 10, 10)), (0.8, 1, (0, 0, 10, 10))], 0.5) == 1


def test_precision_and_recall_over_images():
    ref = outputs([[3.0, -3.0], [-3.0, 3.0]], [[0.5, 0.5, 0.2, 0.2], [0.2, 0.2, 0.1, 0.1]])
    # the variant keeps query 0, moves query 1 far away, and adds nothing
    var = outputs([[3.0, -3.0], [-3.0, 3.0]], [[0.5, 0.5, 0.2, 0.2], [0.8, 0.8, 0.1, 0.1]])
    result = precision_recall([ref], [var], height=100, width=100, score_threshold=0.5, iou_threshold=0.5)
    assert result == {"precision": 0.5, "recall": 0.5, "matches": 1, "variant_detections": 2, "reference_detections": 2}
    silent = outputs([[-9.0, -9.0], [-9.0, -9.0]], [[0.5, 0.5, 0.2, 0.2]] * 2)
    result = precision_recall([ref], [silent], height=100, width=100, score_threshold=0.5, iou_threshold=0.5)
    assert result["precision"] is None and result["recall"] == 0.0
    assert math.isclose(precision_recall([ref], [ref], height=10, width=10, score_threshold=0.5,
                                         iou_threshold=0.99)["recall"], 1.0)


def test_a_classifier_output_is_read_as_logits_without_boxes():
    import torch
    from transformers.modeling_outputs import ImageClassifierOutput

    read = outputs_from_model(ImageClassifierOutput(logits=torch.tensor([[1.5, float("nan"), -2.0]])))
    assert read.boxes is None and read.logits.dtype == np.float64
    assert read.logits.shape == (3,) and read.logits[0] == 1.5 and read.logits[2] == -2.0
    assert nonfinite_count([read, read]) == 2  # one NaN logit in each, no boxes to count
    assert have_logits([read]) and not have_boxes([read]) and not have_boxes([])
    assert logit_correlation([read], [Outputs(np.array([3.0, 0.0, -4.0]))]) == pytest.approx(1.0)  # NaN left out
    detector = outputs([[1.0, 2.0]], [[0.5, 0.5, 0.1, 0.1]])
    assert have_boxes([detector]) and not have_boxes([detector, read])
    assert not have_logits([Outputs(None)]) and not have_logits([])


def test_a_detection_output_is_read_as_logits_and_boxes_of_its_first_image():
    import torch
    from transformers.models.deformable_detr.modeling_deformable_detr import DeformableDetrObjectDetectionOutput

    logits = torch.tensor([[[0.0, 1.0], [2.0, 3.0]], [[9.0, 9.0], [9.0, 9.0]]])
    boxes = torch.tensor([[[0.5, 0.5, 0.2, 0.2], [0.1, 0.1, 0.1, 0.1]], [[0.9] * 4] * 2])
    read = outputs_from_model(DeformableDetrObjectDetectionOutput(logits=logits, pred_boxes=boxes))
    assert read.logits.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    assert read.boxes.ravel().tolist() == pytest.approx([0.5, 0.5, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1])
