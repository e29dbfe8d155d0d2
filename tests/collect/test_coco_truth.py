"""Ground-truth validation (issue 13, COCO item 1): each mistake that would
give a wrong AP silently is refused in one line naming the file, a count and
the first example. Figures below are worked out by hand in the comments."""

from __future__ import annotations

import json

import numpy as np
import pytest

from studygen.collect import coco_truth
from studygen.errors import InputError
from tests.collect.coco_build import annotation, document, numbered, write


def refusal(tmp_path, doc) -> str:
    path = write(tmp_path / "gt.json", doc)
    with pytest.raises(InputError) as caught:
        coco_truth.load_ground_truth(path, "gt.json")
    text = str(caught.value)
    assert "\n" not in text
    return text


def loaded(tmp_path, doc):
    return coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")


def test_columns_hold_the_fields_cocoeval_uses(tmp_path):
    doc = document([annotation(7, 2, 10, 20, 30, 40, category=3, area=900.5, segmentation=[[1, 2, 3, 4]]),
                    annotation(9, 1, 1.5, 2.5, 3.5, 4.5, iscrowd=1)], images=(1, 2), categories=(1, 3))
    doc["images"][0].pop("width")
    gt = loaded(tmp_path, doc)
    ann = gt.annotations
    assert len(ann) == 2 and gt.image_list == [1, 2] and gt.category_ids == {1, 3}
    assert ann.image.tolist() == [1, 0] and ann.category.tolist() == [3, 1] and ann.ids.tolist() == [7, 9]
    assert ann.box.tolist() == [[10, 20, 30, 40], [1.5, 2.5, 3.5, 4.5]]
    assert ann.area.tolist() == [900.5, 3.5 * 4.5] and ann.crowd.tolist() == [0, 1]
    assert gt.images == {1: (None, 480), 2: (640, 480)}
    assert np.isnan(gt.sizes()[0, 0]) and gt.sizes()[1].tolist() == [640, 480]
    assert "annotations" not in gt.document and gt.document["images"][1]["file_name"] == "img2.jpg"
    assert gt.image_index == {1: 0, 2: 1} and gt.warnings == []


def test_annotations_before_images_are_read_too(tmp_path):
    doc = document(numbered([(2, 10, 10, 50, 50), (1, 5, 5, 20, 20)]), images=(1, 2))
    reordered = {"annotations": doc["annotations"], "categories": doc["categories"], "images": doc["images"]}
    gt = loaded(tmp_path, reordered)
    assert gt.annotations.image.tolist() == [1, 0] and gt.image_list == [1, 2]


# --- ids ------------------------------------------------------------------------------

def test_annotation_id_0_is_refused(tmp_path):
    # before: perfect detections of these 3 boxes scored AP 0.67 (the box with id 0 counts as a false positive)
    doc = document([annotation(0, 1, 10, 10, 50, 50), annotation(1, 2, 10, 10, 50, 50), annotation(2, 3, 5, 5, 80, 60)])
    text = refusal(tmp_path, doc)
    assert text.startswith("gt.json:/annotations/0: 1 of 3 annotations have an id that is not a positive integer "
                           "(first at /annotations/0): COCOeval reads a matched id of 0 as unmatched")


@pytest.mark.parametrize("bad", [-4, 2.5, "7", True, 2**63])
def test_ids_that_are_not_positive_integers_are_refused(tmp_path, bad):
    doc = document([annotation(1, 1, 10, 10, 50, 50), annotation(bad, 2, 10, 10, 50, 50)])
    assert refusal(tmp_path, doc).startswith("gt.json:/annotations/1: 1 of 2 annotations have an id that is not a "
                                             "positive integer (first at /annotations/1)")


def test_repeated_annotation_ids_are_refused(tmp_path):
    doc = document([annotation(5, 1, 10, 10, 50, 50), annotation(3, 2, 10, 10, 50, 50),
                    annotation(5, 3, 200, 100, 40, 40), annotation(3, 3, 300, 100, 40, 40)])
    text = refusal(tmp_path, doc)
    assert text.startswith("gt.json:/annotations/2: 2 of 4 annotations repeat an id used before them (first: id 5 at "
                           "/annotations/2, also at /annotations/0): COCOeval looks annotations up by id")


def test_an_image_listed_twice_is_refused(tmp_path):
    doc = document(numbered([(1, 10, 10, 50, 50)]), images=(4, 1, 4, 2, 1))
    text = refusal(tmp_path, doc)
    assert text == ("gt.json:/images/2: 2 image entries repeat an id listed before them (first: id 4 at /images/2, "
                    "listed first at /images/0): the image count and the dataset's ids would not be the file's; list "
                    "each image once")


def test_mixed_string_and_integer_image_ids_are_refused(tmp_path):
    doc = document([annotation(1, 1, 10, 10, 50, 50)], images=(1, "b", 3, "d"))
    text = refusal(tmp_path, doc)
    assert text.startswith('gt.json:/images/1: 2 of 4 image ids are strings and the others integers (first string: "b")')


def test_string_image_ids_are_read(tmp_path):
    doc = document([annotation(1, "000139", 10, 10, 50, 50)], images=("000139", "000285"))
    gt = loaded(tmp_path, doc)
    assert gt.image_list == ["000139", "000285"] and gt.annotations.image.tolist() == [0]


# --- boxes, emptiness, crowds ------------------------------------------------------------

@pytest.mark.parametrize("w, h", [(0, 30), (30, -2)])
def test_boxes_without_size_are_refused(tmp_path, w, h):
    doc = document([annotation(1, 1, 10, 10, 50, 50), annotation(2, 1, 100, 100, w, h, area=1)])
    text = refusal(tmp_path, doc)
    assert text.startswith(f"gt.json:/annotations/1: 1 of 2 annotations have a zero or negative width or height (first: "
                           f"bbox [100, 100, {w}, {h}] at /annotations/1): no detection can match such a box")


def test_a_crowd_region_without_size_is_not_refused(tmp_path):
    # crowd regions are ignored by COCOeval: a degenerate one changes no figure
    gt = loaded(tmp_path, document([annotation(1, 1, 10, 10, 50, 50), annotation(2, 1, 1, 1, 0, 0, iscrowd=1, area=0)]))
    assert len(gt.annotations) == 2


def test_no_annotation_is_refused(tmp_path):
    text = refusal(tmp_path, document([]))
    assert text == "gt.json:/annotations: no annotation at all: AP is undefined without ground truth (COCOeval would print -1)"


def test_only_crowd_regions_are_refused(tmp_path):
    text = refusal(tmp_path, document([annotation(1, 1, 10, 10, 50, 50, iscrowd=1), annotation(2, 2, 5, 5, 9, 9, iscrowd=1)]))
    assert text.startswith("gt.json:/annotations/0: all 2 annotations are crowd regions (iscrowd 1), which COCOeval ignores")


# --- a detections dump passed as ground truth --------------------------------------------

def test_annotations_with_scores_are_refused(tmp_path):
    doc = document([annotation(i, 1, 10 * i, 10, 50, 50, score=0.5) for i in (1, 2, 3)] + [annotation(4, 2, 1, 1, 9, 9)])
    text = refusal(tmp_path, doc)
    assert text.startswith("gt.json:/annotations/0: 3 of 4 annotations carry a score (first at /annotations/0): ground "
                           "truth has none; is this a detections file passed as --annotations?")


def test_few_scores_are_a_warning(tmp_path):
    doc = document([annotation(i, 1, 10 * i, 10, 50, 50) for i in (1, 2, 3)] + [annotation(4, 2, 1, 1, 9, 9, score=1)])
    assert loaded(tmp_path, doc).warnings == [
        "gt.json: 1 of 4 annotations carry a score (first at /annotations/3); COCOeval ignores it in ground truth"]


def test_ignore_without_crowd_is_a_warning(tmp_path):
    doc = document([annotation(1, 1, 10, 10, 50, 50, ignore=1), annotation(2, 1, 80, 80, 5, 5, ignore=1, iscrowd=1),
                    annotation(3, 2, 9, 9, 9, 9, ignore=0)])
    assert loaded(tmp_path, doc).warnings == [
        'gt.json: 1 of 3 annotations carry "ignore" without iscrowd 1 (first at /annotations/0); COCOeval scores them '
        'like any box (only iscrowd makes it ignore one)']


def test_a_detections_array_as_annotations_names_the_swap(tmp_path):
    text = refusal(tmp_path, [{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.3}])
    assert text == ("gt.json: expected a COCO annotations object with images, annotations, categories (this is a JSON "
                    "array, as a detections file is: --annotations and --detections swapped?)")


# --- areas ----------------------------------------------------------------------------------

def test_normalised_areas_are_refused(tmp_path):
    # a 200 x 150 box (30000 px², large) with its area divided by the image's 640 * 480: 0.0977, "small"
    doc = document([annotation(1, 1, 100, 100, 200, 150, area=round(200 * 150 / (640 * 480), 4)),
                    annotation(2, 2, 10, 10, 20, 20)])
    text = refusal(tmp_path, doc)
    assert text.startswith("gt.json:/annotations/0: 1 of 2 annotations have an area larger than their box or below 0.1% "
                           "of it, 1 of them in another COCO size range than their box (first: area 0.0977 for bbox "
                           "[100, 100, 200, 150], w × h = 30000, at /annotations/0): APs, APm and APl would be wrong")


def test_area_of_an_xyxy_box_is_refused(tmp_path):
    # box 40 x 30 at (500, 400): area written as x2 * y2 = 540 * 430, far above w * h = 1200 (small → large)
    doc = document([annotation(1, 1, 500, 400, 40, 30, area=540 * 430)])
    assert "1 of 1 annotations have an area larger than their box" in refusal(tmp_path, doc)


def test_impossible_area_in_the_same_range_is_a_warning(tmp_path):
    # 200 x 150 box, area 31000 (> 30000 · 1.01 + 1) but large either way: no figure changes
    gt = loaded(tmp_path, document([annotation(1, 1, 100, 100, 200, 150, area=31000)]))
    assert gt.warnings == ["gt.json: 1 of 1 annotations have an area larger than their box or below 0.1% of it (first: "
                           "area 31000 for bbox [100, 100, 200, 150], w × h = 30000, at /annotations/0); none changes "
                           "size range, so no figure changes"]


def test_mask_areas_inside_the_box_pass(tmp_path):
    # real masks cover part of their box: 40 % and 100.5 % (rounding of a 2-decimal box) both pass
    gt = loaded(tmp_path, document([annotation(1, 1, 100, 100, 200, 150, area=12000),
                                    annotation(2, 1, 10, 10, 20, 20, area=402)]))
    assert gt.warnings == []


def test_area_limits(tmp_path):
    # 100 x 100 box: 10101 (= 10000 · 1.01 + 1) passes, 10101.5 does not; 10 (0.1 %) passes, 9.99 does not
    assert loaded(tmp_path, document([annotation(1, 1, 0, 0, 100, 100, area=10101)])).warnings == []
    assert loaded(tmp_path, document([annotation(1, 1, 0, 0, 100, 100, area=10)])).warnings == []
    over = loaded(tmp_path, document([annotation(1, 1, 0, 0, 100, 100, area=10101.5)])).warnings
    under = document([annotation(1, 1, 0, 0, 100, 100, area=9.99)])
    assert len(over) == 1 and "1 of 1 annotations have an area larger" in over[0]
    assert "in another COCO size range" in refusal(tmp_path, under)  # 9.99 px² is small, the box large


def test_size_ranges_are_cocoevals(tmp_path):
    ranges = coco_truth.size_ranges_of(np.array([0.0, 1024.0, 1024.5, 9216.0, 9216.5, 1e10, 1e10 + 1]))
    assert ranges.tolist() == [[True, False, False], [True, True, False], [False, True, False], [False, True, True],
                               [False, False, True], [False, False, True], [False, False, False]]


def test_no_annotation_in_a_listed_category_is_refused(tmp_path):
    doc = document([annotation(1, 1, 10, 10, 50, 50, category=4), annotation(2, 1, 1, 1, 5, 5, category=1, iscrowd=1)],
                   categories=(1, 2))
    assert refusal(tmp_path, doc).startswith('gt.json:/annotations/0: none of the 2 annotations is a box of a category in '
                                             '"categories" (first: category 4 at /annotations/0): COCOeval would score')


def test_unknown_category_is_a_warning(tmp_path):
    gt = loaded(tmp_path, document([annotation(1, 1, 10, 10, 50, 50), annotation(2, 1, 1, 1, 5, 5, category=9)],
                                   categories=(1,)))
    assert gt.warnings == ['gt.json: 1 of 2 annotations name a category id that is not in "categories" (first: category 9 '
                           'at /annotations/1); COCOeval leaves them out of every figure']


# --- structure --------------------------------------------------------------------------------

@pytest.mark.parametrize("change, message", [
    (lambda d: d["annotations"][0].pop("area"), "gt.json:/annotations/0/area: annotation without a numeric area"),
    (lambda d: d["annotations"][0].update(iscrowd=2), "gt.json:/annotations/0/iscrowd: annotation without iscrowd 0 or 1"),
    (lambda d: d["annotations"][0].update(image_id=8), "gt.json:/annotations/0/image_id: image_id 8 is not among"),
    (lambda d: d["annotations"][0].update(image_id=True), "gt.json:/annotations/0/image_id: image_id True is not among"),
    (lambda d: d["annotations"][0].pop("id"), "gt.json:/annotations/0: annotation without an id"),
    (lambda d: d["annotations"][0].update(bbox=[1, 2, 3]), "gt.json:/annotations/0/bbox: bbox must be 4 numbers"),
    (lambda d: d["annotations"][0].update(bbox=[1, 2, "3", 4]), "gt.json:/annotations/0/bbox: bbox must be 4 numbers"),
    (lambda d: d["annotations"][0].update(category_id="1"), 'gt.json:/annotations/0/category_id: category_id "1" is not'),
    (lambda d: d["annotations"].__setitem__(0, 5), "gt.json:/annotations/0: annotation is not an object"),
    (lambda d: d["categories"][0].update(id="one"), 'gt.json:/categories/0/id: category id "one" is not an integer'),
    (lambda d: d["categories"][0].update(id=2**64), "gt.json:/categories/0/id: category id 18446744073709551616 is not"),
    (lambda d: d["annotations"][0].update(category_id=-2**63), "gt.json:/annotations/0/category_id: category_id -9223"),
    (lambda d: d["categories"][0].pop("id"), "gt.json:/categories/0: category without an id"),
    (lambda d: d["images"][1].pop("id"), "gt.json:/images/1: image without an integer or string id"),
    (lambda d: d["images"][1].update(id=2.0), "gt.json:/images/1: image without an integer or string id"),
    (lambda d: d.pop("categories"), 'gt.json:/categories: no "categories" list'),
    (lambda d: d.update(annotations={}), 'gt.json:/annotations: no "annotations" list'),
    (lambda d: d.update(images=[]), "gt.json:/images: the annotations list no image"),
])
def test_structure_refusals(tmp_path, change, message):
    doc = document(numbered([(1, 10, 10, 50, 50), (2, 5, 5, 9, 9)]))
    change(doc)
    assert refusal(tmp_path, doc).startswith(message)


def test_float_image_id_of_an_annotation_finds_its_image(tmp_path):
    # pycocotools' dictionaries find 2 under 2.0; so does the reader
    gt = loaded(tmp_path, document([annotation(1, 2.0, 10, 10, 50, 50)]))
    assert gt.annotations.image.tolist() == [1]


@pytest.mark.parametrize("text, message", [
    ('{"images": [{"id": 1}], "images": [{"id": 2}], "annotations": [], "categories": []}',
     "gt.json:1: malformed JSON: duplicate key 'images' in one object (the last would silently win)"),
    ('{"images": [{"id": 1}], "annotations": [],\n "categories": [], "annotations": []}',
     "gt.json:2: malformed JSON: duplicate key 'annotations' in one object (the last would silently win)"),
    ('{"images": [{"id": 1, "id": 2}], "annotations": [], "categories": []}',
     "gt.json:1: malformed JSON: duplicate key 'id' in one object (the last would silently win)"),
    ('{"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": [{"id": 1, "image_id": 1, "category_id": 1, '
     '"bbox": [1, 1, 5, 5], "bbox": [1, 1, 50, 50], "area": 25, "iscrowd": 0}]}',
     "gt.json:1: malformed JSON: duplicate key 'bbox' in one object (the last would silently win)"),
    ('{"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": [{"id": 1, "image_id": 1, "category_id": 1, '
     '"bbox": [1, 1, 1e400, 5], "area": 25, "iscrowd": 0}]}',
     "gt.json:/annotations/0/bbox/2: number out of range: it is not a finite double (1e400 would read as infinity)"),
    ('{"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": [{"id": 1, "image_id": 1, "category_id": 1, '
     '"bbox": [1, 1, 5, 5], "area": -1e999, "iscrowd": 0}]}',
     "gt.json:/annotations/0/area: number out of range: it is not a finite double"),
    ('{"images": [{"id": 1}], "categories": [{"id": 1}], "annotations": [{"id": 1, "image_id": 1, "category_id": 1, '
     '"bbox": [1, 1, 5, 5], "area": NaN, "iscrowd": 0}]}', "gt.json:/annotations/0: malformed JSON: NaN is not valid JSON"),
    ('{"images": [{"id": 1}], "categories": [], "annotations": []} {}', "gt.json:1: holds more than one JSON value"),
    ('{"images": [{"id": 1}], "categories": [], "annotations": [', "gt.json:1: malformed JSON"),
])
def test_json_refusals(tmp_path, text, message):
    (tmp_path / "gt.json").write_text(text)
    with pytest.raises(InputError) as caught:
        coco_truth.load_ground_truth(tmp_path / "gt.json", "gt.json")
    assert str(caught.value).startswith(message), str(caught.value)


def test_duplicate_key_in_a_segmentation_is_refused_too(tmp_path):
    doc = document(numbered([(1, 10, 10, 50, 50)]))
    text = json.dumps(doc).replace('"iscrowd": 0', '"iscrowd": 0, "segmentation": {"counts": "ab", "counts": "cd"}')
    (tmp_path / "gt.json").write_text(text)
    with pytest.raises(InputError, match=r"^gt.json:1: malformed JSON: duplicate key 'counts'"):
        coco_truth.load_ground_truth(tmp_path / "gt.json", "gt.json")


def test_pair_keys_hold_for_any_category_id():
    # ids 2**62 and -2**62 would overflow category * images; dense numbering keeps pairs apart
    keys = coco_truth.pair_keys(3, (np.array([2**62, -2**62, 2**62]), np.array([0, 0, 2])),
                                (np.array([-2**62, 7]), np.array([0, 0])))
    assert keys[0].tolist() == [6, 0, 8] and keys[1].tolist() == [0, 3]


def test_errors_in_annotations_before_the_images_name_their_element(tmp_path):
    # the annotations list comes first, so it is read twice; the first pass (before the images are known) already
    # refuses what JSON itself gets wrong, naming the line of the repeat
    text = ('{"annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 1, 5, 5], "area": 25, '
            '"iscrowd": 0}, {"id": 2, "id": 3}], "images": [{"id": 1}], "categories": [{"id": 1}]}')
    (tmp_path / "gt.json").write_text(text)
    with pytest.raises(InputError, match=r"^gt.json:1: malformed JSON: duplicate key 'id' in one object"):
        coco_truth.load_ground_truth(tmp_path / "gt.json", "gt.json")


def test_image_sizes(tmp_path):
    # a size not given (absent or null) reads as None; a given one that is no pixel count is refused
    # (tests/collect/test_hostile_fields.py), as "480", a string, now is
    doc = document(numbered([(1, 10, 10, 50, 50), (2, 100, 100, 80, 60)]), images=(1, 2))
    del doc["images"][0]["width"]
    doc["images"][1]["height"] = None
    gt = loaded(tmp_path, doc)
    assert gt.images == {1: (None, 480), 2: (640, None)}
    sizes = gt.sizes()
    assert np.isnan(sizes[0, 0]) and sizes[0, 1] == 480 and sizes[1, 0] == 640 and np.isnan(sizes[1, 1])
