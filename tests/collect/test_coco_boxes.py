"""The box-convention probe and the category and image mapping checks (issue
13, COCO items 2 and 3), on detections built from ground truth of our own:
the same boxes written in another convention, or with ids shifted, must be
refused naming the reading that fits; correct boxes never."""

from __future__ import annotations

import random

import numpy as np
import pytest

from studygen.collect import coco_boxes, coco_detections, coco_truth
from studygen.errors import InputError
from tests.collect.coco_build import annotation, document, numbered, perfect, scattered_boxes, write

IMAGES = (1, 2, 3, 4, 5, 6)
SIZE = (640, 480)


def setup(tmp_path, detections, boxes=None, images=IMAGES, categories=(1, 2, 3), size=SIZE, gt_doc=None):
    doc = gt_doc or document(numbered(boxes or scattered_boxes(images, 4)), images=images, categories=categories, size=size)
    gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    dets = detections(doc["annotations"]) if callable(detections) else detections
    table = coco_detections.read_detections(write(tmp_path / "dt.json", dets), gt, "dt.json")
    return gt, table


def refused(gt, table, size=coco_boxes.PROBE_SIZE) -> str:
    with pytest.raises(InputError) as caught:
        coco_boxes.check_readings(gt, table, size)
    text = str(caught.value)
    assert "\n" not in text
    return text


def rewrite(convert):
    def detections(annotations):
        out = perfect(annotations, [round(0.9 - 0.01 * i, 3) for i in range(len(annotations))])
        for d in out:
            d["bbox"] = [round(v, 4) for v in convert(*d["bbox"])]
        return out
    return detections


def test_correct_boxes_pass_and_match(tmp_path):
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x + 2, y - 1, w + 3, h)))
    assert coco_boxes.check_readings(gt, table) == []
    probe = coco_boxes.run_probe(gt, table)
    assert probe.probed == 24 and probe.matches["x, y, w, h"] == 24
    assert all(probe.matches[name] == 0 for name in coco_boxes.CONVENTIONS[1:])


def test_xyxy_boxes_are_refused(tmp_path):
    # before: the border rule saw none of these (all x2 < 640) and AP came out 0.0
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x, y, x + w, y + h)))
    text = refused(gt, table)
    assert text.startswith("dt.json:/0: refused before evaluating, rule box-convention: 24 of 24 detections of the 24 "
                           "highest-scoring match a ground-truth box of their category (IoU >= 0.5) when read as x1, y1, "
                           "x2, y2, 0 when read as x, y, w, h as COCOeval reads them; e.g. detection 0: ")
    assert text.endswith("(convert to x, y, w, h: w = x2 - x1, h = y2 - y1)")


def test_centre_boxes_are_refused(tmp_path):
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x + w / 2, y + h / 2, w, h)))
    assert "when read as centre x, centre y, w, h, 0 when read as x, y, w, h" in refused(gt, table)


def test_yolo_boxes_slightly_outside_the_unit_square_are_refused(tmp_path):
    # normalised centre boxes, two of them moved just outside [0, 1] (those two then match nothing): before, the
    # normalised rule wanted every value within [0, 1], so these were read as pixels and evaluated to AP 0
    def yolo(annotations):
        out = rewrite(lambda x, y, w, h: ((x + w / 2) / 640, (y + h / 2) / 480, w / 640, h / 480))(annotations)
        out[0]["bbox"][0] = -0.012
        out[1]["bbox"][1] = 1.03
        return out
    gt, table = setup(tmp_path, yolo)
    text = refused(gt, table)
    assert ("22 of 24 detections of the 24 highest-scoring match a ground-truth box of their category (IoU >= 0.5) when "
            "read as centre x, centre y, w, h normalised to the image size (YOLO), 0 when read as x, y, w, h") in text
    assert text.endswith("(scale to pixels by the image size, then x = cx - w/2, y = cy - h/2)")


def test_normalised_boxes_without_image_sizes_use_the_ground_truth_extent(tmp_path):
    # no width/height in the images: the extent of the ground-truth boxes (here up to 600 x 400) stands in
    boxes = [(1, 0, 0, 300, 200), (1, 300, 200, 300, 200), (2, 100, 50, 200, 150), (2, 350, 250, 200, 120)]
    doc = document(numbered(boxes), images=(1, 2))
    for image in doc["images"]:
        del image["width"], image["height"]
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x / 600, y / 400, w / 600, h / 400)), gt_doc=doc)
    assert "when read as x, y, w, h normalised to the image size, 0 when read as x, y, w, h" in refused(gt, table)


def test_normalised_boxes_that_match_nothing_are_refused_by_their_range(tmp_path):
    # a weak model: normalised boxes nowhere near the ground truth, every coordinate within [-0.05, 1.05]
    dets = [{"image_id": i, "category_id": 1, "bbox": [0.9, 0.9, 0.05, 0.05], "score": 0.5} for i in IMAGES]
    gt, table = setup(tmp_path, dets)
    text = refused(gt, table)
    assert text.startswith("dt.json:/0: refused before evaluating, rule box-convention: 6 of 6 detections have every "
                           "coordinate within [-0.05, 1.05] while the ground-truth boxes are in pixels: normalised boxes")


def test_ground_truth_in_unit_coordinates_accepts_unit_detections(tmp_path):
    # both normalised (a dataset annotated in relative units): x, y, w, h matches, nothing refused
    boxes = [(i, 0.1 * k, 0.1, 0.08, 0.1) for i in (1, 2) for k in range(1, 5)]
    doc = document([dict(a, area=a["bbox"][2] * a["bbox"][3]) for a in numbered(boxes)], images=(1, 2))
    gt, table = setup(tmp_path, lambda anns: perfect(anns), gt_doc=doc)
    assert coco_boxes.check_readings(gt, table) == []


def test_boxes_past_the_border_like_the_ground_truth_pass(tmp_path):
    # ground truth reaching 60 px past the right border (x + w = 700 > 640), detections the same:
    # before: refused as xyxy-as-xywh (more than 10 % of boxes past the border by more than 5 %)
    boxes = [(i, 540, 40 * k, 160, 35) for i in IMAGES for k in range(4)] + [(i, 20, 20, 50, 50) for i in IMAGES]
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x, y, w, h)), boxes=boxes)
    assert coco_boxes.check_readings(gt, table) == []


def test_boxes_at_the_origin_fit_two_readings_and_pass(tmp_path):
    # boxes at (0, 0): x, y, w, h and x1, y1, x2, y2 coincide; nothing is far better than x, y, w, h
    boxes = [(i, 0, 0, 100 + 10 * i, 80 + 5 * i) for i in IMAGES]
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x, y, w, h)), boxes=boxes)
    probe = coco_boxes.run_probe(gt, table)
    assert probe.matches["x, y, w, h"] == probe.matches["x1, y1, x2, y2"] == 6
    assert coco_boxes.check_readings(gt, table) == []


def test_the_probe_takes_the_highest_scores(tmp_path):
    # 24 detections, probe of 10: the 10 highest-scoring (scores 0.9 ... 0.81), reported in file order
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x, y, w, h)))
    assert coco_boxes.probe_sample(table, 10).tolist() == list(range(10))
    reversed_scores = coco_detections.Detections("d", table.image, table.category, table.box, table.score[::-1].copy())
    assert coco_boxes.probe_sample(reversed_scores, 10).tolist() == list(range(14, 24))


def test_far_better_margins():
    assert coco_boxes.far_better(20, 0, 100) and not coco_boxes.far_better(19, 0, 100)
    assert coco_boxes.far_better(60, 30, 100) and not coco_boxes.far_better(59, 30, 100)
    assert not coco_boxes.far_better(0, 0, 0) and not coco_boxes.far_better(45, 30, 50)


# --- categories -----------------------------------------------------------------------------

def shifted_categories(annotations):
    out = perfect(annotations)
    for d in out:
        d["category_id"] = {1: 2, 2: 3, 3: 1}[d["category_id"]]
    return out


def three_category_boxes():
    return [(image, x, y, w, h) for image, x, y, w, h in scattered_boxes(IMAGES, 4)]


def three_category_doc():
    anns = numbered(three_category_boxes())
    for k, a in enumerate(anns):
        a["category_id"] = 1 + k % 3
    return document(anns, images=IMAGES, categories=(1, 2, 3))


def test_shifted_category_ids_are_refused(tmp_path):
    # every id exists among the categories, so the category-ids rule passes; before: AP 0.0. Of the 24 boxes
    # (categories 1, 2, 3 in turn), the 16 of categories 1 and 2 carry a detection of the id above (theirs -1 from
    # the detection's side), the 8 of category 3 one of category 1
    gt, table = setup(tmp_path, shifted_categories, gt_doc=three_category_doc())
    text = refused(gt, table)
    assert text.startswith("dt.json:/0: refused before evaluating, rule category-mapping: 24 of 24 ground-truth boxes "
                           "that detections overlap have as their highest-scoring overlapping detection (IoU >= 0.5) one "
                           "of another category, 0 one of their own; 16 of them on ground truth whose category id is "
                           "theirs -1, e.g. category 2 on category 1; e.g. detection 0: ")


def test_a_model_firing_every_class_on_each_box_is_not_refused(tmp_path):
    # each box detected as its own category (score 0.9) and as both others (0.5, 0.4): counted per detection two
    # thirds are of another category; per box the top detection is right
    def every_class(annotations):
        out = []
        for d in perfect(annotations):
            out.append(d)
            for other, score in zip([c for c in (1, 2, 3) if c != d["category_id"]], (0.5, 0.4)):
                out.append(dict(d, category_id=other, score=score))
        return out
    gt, table = setup(tmp_path, every_class, gt_doc=three_category_doc())
    assert coco_boxes.check_readings(gt, table) == []
    probe = coco_boxes.run_probe(gt, table)
    assert (probe.boxes_found, probe.boxes_own, probe.boxes_other) == (24, 24, 0)


def test_random_classes_are_a_warning_not_a_refusal(tmp_path):
    # a model guessing the class (seeded): most boxes carry another category, but no one mapping explains them
    rng = random.Random(0)  # own 5, other 19: far better, but spread over six pairings
    def guessed(annotations):
        return [dict(d, category_id=rng.choice((1, 2, 3))) for d in perfect(annotations)]
    gt, table = setup(tmp_path, guessed, gt_doc=three_category_doc())
    warnings = coco_boxes.check_readings(gt, table)
    probe = coco_boxes.run_probe(gt, table)
    assert probe.boxes_other > probe.boxes_own and coco_boxes.far_better(probe.boxes_other, probe.boxes_own, 24)
    assert len(warnings) == 1 and warnings[0].startswith(f"dt.json: {probe.boxes_other} of the 24 ground-truth boxes")


def test_few_boxes_are_only_a_warning(tmp_path):
    # the shifted ids on 3 images (12 boxes): under MIN_BOXES (20), so a warning
    doc = document(numbered(scattered_boxes((1, 2, 3), 4)), images=(1, 2, 3), categories=(1, 2, 3))
    for k, a in enumerate(doc["annotations"]):
        a["category_id"] = 1 + k % 3
    gt, table = setup(tmp_path, shifted_categories, gt_doc=doc)
    assert coco_boxes.check_readings(gt, table)[0].startswith("dt.json: 12 of the 12 ground-truth boxes that detections "
                                                              "overlap have as their highest-scoring")


def test_no_detection_in_an_annotated_category_is_refused(tmp_path):
    # detections of category 3 where only categories 1 and 2 are annotated, boxes elsewhere
    doc = document(numbered(scattered_boxes(IMAGES, 4)), images=IMAGES)
    dets = [{"image_id": i, "category_id": 3, "bbox": [600, 400, 30, 30], "score": 0.4} for i in IMAGES]
    gt, table = setup(tmp_path, dets, gt_doc=doc)
    assert refused(gt, table).startswith("dt.json:/0: refused before evaluating, rule category-mapping: 0 of 6 "
                                         "detections name a category that has ground truth in their image")


def rotate_first(count):
    """Perfect detections, the first ``count`` with categories rotated 1→2, 2→3, 3→1."""
    def detections(annotations):
        out = perfect(annotations)
        for d in out[:count]:
            d["category_id"] = {1: 2, 2: 3, 3: 1}[d["category_id"]]
        return out
    return detections


def test_more_other_category_matches_than_own_are_a_warning(tmp_path):
    # the first 14 of 24 detections (categories 1, 2, 3 in turn) rotated, 10 right: 14 - 10 < 0.2 · 24, not far
    # better: a warning with the figures. Of the 14, 5 + 5 sit on the id below theirs (2 on 1, 3 on 2)
    gt, table = setup(tmp_path, rotate_first(14), gt_doc=three_category_doc())
    assert coco_boxes.check_readings(gt, table) == [
        "dt.json: 14 of the 24 ground-truth boxes that detections overlap have as their highest-scoring overlapping "
        "detection (IoU >= 0.5) one of another category, 10 one of their own; 10 of them on ground truth whose category "
        "id is theirs -1, e.g. category 2 on category 1; check the category mapping"]


def test_a_few_confused_categories_pass_silently(tmp_path):
    # 6 of 24 detections on the box of another category (a model confusing classes): no warning
    gt, table = setup(tmp_path, rotate_first(6), gt_doc=three_category_doc())
    assert coco_boxes.check_readings(gt, table) == []


# --- images ---------------------------------------------------------------------------------

def test_image_ids_off_by_one_are_refused(tmp_path):
    # image k's detections named k - 1 (image 1's dropped): every id exists, so the image-ids rule passes
    def shifted(annotations):
        return [dict(d, image_id=d["image_id"] - 1) for d in perfect(annotations) if d["image_id"] > 1]
    gt, table = setup(tmp_path, shifted)
    text = refused(gt, table)
    assert text.startswith("dt.json:/0: refused before evaluating, rule image-mapping: 20 of 20 detections of the 20 "
                           "highest-scoring match a ground-truth box of their category (IoU >= 0.5) in the image after "
                           "theirs in the annotations’ image list, 0 in their own image")


def test_image_ids_off_by_one_in_id_order(tmp_path):
    # images listed 30, 10, 20 but detections shifted in id order (10 → named 20's neighbour): "in id order"
    images = (30, 10, 20)
    doc = document(numbered(scattered_boxes(images, 4)), images=images)
    mapping = {20: 10, 30: 20}
    dets = [dict(d, image_id=mapping[d["image_id"]]) for d in perfect(doc["annotations"]) if d["image_id"] in mapping]
    gt, table = setup(tmp_path, dets, gt_doc=doc)
    assert "in the image after theirs in id order, 0 in their own image" in refused(gt, table)


def test_video_like_neighbours_are_not_refused(tmp_path):
    # consecutive images with the same boxes (frames): the neighbour fits as well as the own image, no refusal
    boxes = [(i, 100, 100, 80, 60) for i in IMAGES] + [(i, 300, 200, 50, 90) for i in IMAGES]
    gt, table = setup(tmp_path, lambda anns: perfect(anns), boxes=boxes)
    assert coco_boxes.check_readings(gt, table) == []


def test_partial_coverage_is_a_warning_with_both_counts(tmp_path):
    def first_four(annotations):
        return [d for d in perfect(annotations) if d["image_id"] <= 4]
    gt, table = setup(tmp_path, first_four)
    assert coco_boxes.check_readings(gt, table) == [
        "dt.json names 4 of the 6 annotated images; AP is over all 6 (the ground truth of the other 2 counts as missed)"]


def test_unannotated_images_do_not_count_as_missing(tmp_path):
    doc = document(numbered(scattered_boxes((1, 2), 3)), images=(1, 2, 3))
    gt, table = setup(tmp_path, lambda anns: perfect(anns), gt_doc=doc)
    assert coco_boxes.check_readings(gt, table) == []


def test_iou_is_cocoevals():
    a = np.array([[0, 0, 10, 10], [0, 0, 10, 10], [5, 5, 0, 4], [0, 0, 10, 10]], dtype=float)
    b = np.array([[5, 0, 10, 10], [20, 20, 5, 5], [5, 5, 0, 4], [0, 0, -10, 10]], dtype=float)
    assert coco_boxes.iou(a, b).tolist() == pytest.approx([50 / 150, 0.0, 0.0, 0.0])


def test_readings_convert_each_convention():
    box = np.array([[0.25, 0.5, 0.5, 0.25]])
    size = np.array([[200.0, 100.0]])
    got = {name: value[0].tolist() for name, value in coco_boxes.readings(box, size).items()}
    assert got == {"x, y, w, h": [0.25, 0.5, 0.5, 0.25], "x1, y1, x2, y2": [0.25, 0.5, 0.25, -0.25],
                   "centre x, centre y, w, h": [0.0, 0.375, 0.5, 0.25],
                   "x, y, w, h normalised to the image size": [50, 50, 100, 25],
                   "x1, y1, x2, y2 normalised to the image size": [50, 50, 50, -25],
                   "centre x, centre y, w, h normalised to the image size (YOLO)": [0, 37.5, 100, 25]}


def test_ties_at_the_probe_boundary_are_broken_by_box():
    # scores 0.9 once and 0.5 five times; a probe of 3 takes the 0.9 and the two 0.5 boxes with the smallest x
    box = np.array([[50, 0, 5, 5], [10, 0, 5, 5], [40, 0, 5, 5], [20, 0, 5, 5], [30, 0, 5, 5], [99, 0, 5, 5]], float)
    table = coco_detections.Detections("d", np.zeros(6, np.int64), np.ones(6, np.int64), box,
                                       np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.9]))
    assert coco_boxes.probe_sample(table, 3).tolist() == [1, 3, 5]
    assert coco_boxes.probe_sample(table, 6).tolist() == [0, 1, 2, 3, 4, 5]


def test_missing_image_sizes_come_from_the_ground_truth_extent(tmp_path):
    # no width on image 1, no height on image 2: the extent of all boxes (x + w up to 180, y + h up to 160) fills in
    doc = document(numbered([(1, 10, 10, 50, 50), (2, 100, 100, 80, 60)]), images=(1, 2))
    del doc["images"][0]["width"]
    del doc["images"][1]["height"]
    gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    assert coco_boxes._image_sizes(gt).tolist() == [[180, 480], [640, 160]]


def test_iou_edges():
    # disjoint along both axes (both overlaps negative: their product must not count); boxes under 1 px;
    # half overlap: exactly 0.5
    a = np.array([[0, 0, 10, 10], [0, 0, 0.5, 0.5], [0, 0, 0.5, 0.5], [0, 0, 100, 100]], dtype=float)
    b = np.array([[20, 30, 5, 5], [0, 0, 0.25, 0.5], [0, 0, 0.5, 0.5], [0, 0, 100, 50]], dtype=float)
    assert coco_boxes.iou(a, b).tolist() == [0.0, 0.5, 1.0, 0.5]


def test_iou_of_exactly_one_half_is_a_match(tmp_path):
    # COCOeval matches at IoU >= 0.5: a detection twice as tall as its box (IoU 0.5) matches
    doc = document(numbered([(1, 100, 100, 100, 50)]), images=(1, 2), categories=(1,))
    gt, table = setup(tmp_path, [{"image_id": 1, "category_id": 1, "bbox": [100, 100, 100, 100], "score": 0.5}],
                      gt_doc=doc)
    assert coco_boxes.run_probe(gt, table).matches["x, y, w, h"] == 1


def test_perfect_detections_match_no_neighbour(tmp_path):
    # the first image has no image before it, the last none after: nothing is counted there
    gt, table = setup(tmp_path, lambda anns: perfect(anns))
    assert coco_boxes.run_probe(gt, table).neighbours == {"the image after theirs in the annotations’ image list": 0,
                                                          "the image before theirs in the annotations’ image list": 0}


def test_image_ids_off_by_one_the_other_way(tmp_path):
    # image k's detections named k + 1 (image 6's dropped): their boxes sit in the image before the one named
    def shifted(annotations):
        return [dict(d, image_id=d["image_id"] + 1) for d in perfect(annotations) if d["image_id"] < 6]
    gt, table = setup(tmp_path, shifted)
    assert "rule image-mapping: 20 of 20 detections of the 20 highest-scoring match a ground-truth box of their " \
           "category (IoU >= 0.5) in the image before theirs in the annotations’ image list, 0 in their own image" \
           in refused(gt, table)


def test_the_probe_size_is_passed_on(tmp_path):
    gt, table = setup(tmp_path, rewrite(lambda x, y, w, h: (x, y, x + w, y + h)))
    assert "rule box-convention: 5 of 5 detections of the 5 highest-scoring match" in refused(gt, table, 5)


def test_normalised_fallback_message_and_limits(tmp_path):
    dets = [{"image_id": i, "category_id": 1, "bbox": [0.9, 0.9, 0.05, 0.05], "score": 0.5} for i in IMAGES]
    gt, table = setup(tmp_path, dets)
    assert refused(gt, table) == (
        'dt.json:/0: refused before evaluating, rule box-convention: 6 of 6 detections have every coordinate within '
        '[-0.05, 1.05] while the ground-truth boxes are in pixels: normalised boxes; e.g. detection 0: {"image_id": 1, '
        '"category_id": 1, "bbox": [0.9, 0.9, 0.05, 0.05], "score": 0.5} (read as normalised to the image size? scale '
        'them to pixels by the image size)')
    for edge in (-0.05, 1.05):
        dets[1]["bbox"][0] = edge
        gt, table = setup(tmp_path, dets)
        assert "have every coordinate within" in refused(gt, table)
    for outside in (-0.0501, 1.0501):
        dets[1]["bbox"][0] = outside
        gt, table = setup(tmp_path, dets)
        assert coco_boxes.check_readings(gt, table) == []


def test_ground_truth_reaching_2_is_not_in_pixels(tmp_path):
    # the pixel test wants boxes reaching past 2 (x + w or y + h): at exactly 2 the ground truth may be normalised
    doc = document([annotation(1, 1, 1, 1, 1, 1, area=1)], images=(1,), categories=(1,))
    dets = [{"image_id": 1, "category_id": 1, "bbox": [0.9, 0.9, 0.05, 0.05], "score": 0.5}]
    gt, table = setup(tmp_path, dets, gt_doc=doc)
    assert coco_boxes.check_readings(gt, table) == []


def test_none_in_an_annotated_category_message(tmp_path):
    doc = document(numbered(scattered_boxes(IMAGES, 4)), images=IMAGES)
    dets = [{"image_id": 2, "category_id": 3, "bbox": [600, 400, 30, 30], "score": 0.4}]
    gt, table = setup(tmp_path, dets, gt_doc=doc)
    assert refused(gt, table) == (
        'dt.json:/0: refused before evaluating, rule category-mapping: 0 of 1 detections name a category that has '
        'ground truth in their image; e.g. detection 0: {"image_id": 2, "category_id": 3, "bbox": [600, 400, 30, 30], '
        '"score": 0.4} (none does: are the category ids the annotations\' ids, not a model\'s class indices?)')


def test_category_mapping_wants_20_boxes(tmp_path):
    # the rotated ids on 5 images (20 boxes) are refused, on 19 of them only warned about
    doc = document(numbered(scattered_boxes(IMAGES[:5], 4)), images=IMAGES[:5], categories=(1, 2, 3))
    for k, a in enumerate(doc["annotations"]):
        a["category_id"] = 1 + k % 3
    gt, table = setup(tmp_path, shifted_categories, gt_doc=doc)
    text = refused(gt, table)
    assert text.startswith("dt.json:/0: refused before evaluating, rule category-mapping: 20 of 20 ground-truth boxes")
    assert text.endswith("(category ids shifted or mapped from a model's class indices? use the annotations' ids)")
    gt, table = setup(tmp_path, lambda anns: shifted_categories(anns)[:19], gt_doc=doc)
    assert coco_boxes.check_readings(gt, table)[0].startswith("dt.json: 19 of the 19 ground-truth boxes")


def test_consistent_mapping():
    # one detection category onto one ground-truth category for 80 % of the mismatches, or more
    assert coco_boxes._consistent({(1, 2): 8, (1, 3): 2}, 10)
    assert not coco_boxes._consistent({(1, 2): 7, (1, 3): 3}, 10)
    assert coco_boxes._consistent({(1, 2): 8, (1, 3): 2, (4, 5): 3}, 13)  # 8 + 3 = 11 >= 0.8 · 13
    assert not coco_boxes._consistent({(1, 2): 5, (1, 3): 5, (4, 5): 3}, 13)  # 5 + 3 = 8 < 10.4


def test_category_pattern_ties():
    # most mismatches with one shift; ties: the smaller shift, then the negative one; examples by count, then id
    assert coco_boxes._category_pattern({(1, 2): 5, (3, 2): 5}) == \
        "5 of them on ground truth whose category id is theirs -1, e.g. category 3 on category 2"
    assert coco_boxes._category_pattern({(1, 3): 4, (1, 2): 4}) == \
        "4 of them on ground truth whose category id is theirs +1, e.g. category 1 on category 2"
    assert coco_boxes._category_pattern({(2, 1): 3, (3, 2): 3, (5, 9): 2}) == \
        "6 of them on ground truth whose category id is theirs -1, e.g. category 2 on category 1"
    assert coco_boxes._category_pattern({(2, 1): 2, (3, 2): 3}) == \
        "5 of them on ground truth whose category id is theirs -1, e.g. category 3 on category 2"


def test_fewer_than_ten_found_boxes_give_no_category_warning(tmp_path):
    # 3 boxes (categories 1, 2, 3) on each image, all detections shifted: 9 boxes on 3 images say nothing
    # (under MIN_WARNING_BOXES); one more box on a fourth image makes 10 of 10, a warning
    for images, count, expected in (((1, 2, 3), 9, 0), ((1, 2, 3, 4), 10, 1)):
        doc = document(numbered(scattered_boxes(images, 3)[:count]), images=images, categories=(1, 2, 3))
        for k, a in enumerate(doc["annotations"]):
            a["category_id"] = 1 + k % 3
        gt, table = setup(tmp_path, shifted_categories, gt_doc=doc)
        assert coco_boxes.run_probe(gt, table).boxes_other == count
        assert len(coco_boxes.check_readings(gt, table)) == expected
