"""Detections read one at a time into columns (issue 13: memory, and
duplicate keys refused in every JSON input), with the id and size rules."""

from __future__ import annotations

import gzip
import json
import warnings

import numpy as np
import pytest

from studygen.collect import coco_detections, coco_json, coco_truth
from studygen.errors import InputError
from tests.collect.coco_build import annotation, document, numbered, write


@pytest.fixture
def gt(tmp_path):
    doc = document(numbered([(1, 10, 10, 50, 50), (2, 100, 100, 80, 60)]), images=(1, 2, 3), categories=(1, 3))
    return coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")


def det(image=1, category=1, bbox=(10, 10, 50, 50), score=0.9, **extra):
    return {"image_id": image, "category_id": category, "bbox": list(bbox), "score": score, **extra}


def read(tmp_path, gt, content) -> coco_detections.Detections:
    path = tmp_path / "dt.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return coco_detections.read_detections(path, gt, "dt.json")


def refusal(tmp_path, gt, content) -> str:
    with pytest.raises(InputError) as caught:
        read(tmp_path, gt, content)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_columns(tmp_path, gt):
    table = read(tmp_path, gt, [det(2, 3, (1.5, 2, 3, 4.25), 0.25, segmentation=[[1, 2]]), det()])
    assert len(table) == 2 and table.display == "dt.json"
    assert table.image.tolist() == [1, 0] and table.category.tolist() == [3, 1]
    assert table.box.tolist() == [[1.5, 2, 3, 4.25], [10, 10, 50, 50]] and table.score.tolist() == [0.25, 0.9]
    assert table.example(0, gt) == '{"image_id": 2, "category_id": 3, "bbox": [1.5, 2, 3, 4.25], "score": 0.25}'


def test_empty_list(tmp_path, gt):
    assert len(read(tmp_path, gt, "[ ]\n")) == 0


def test_gzip_and_byte_order_mark(tmp_path, gt):
    path = tmp_path / "dt.json.gz"
    path.write_bytes(gzip.compress(("\ufeff" + json.dumps([det()])).encode()))
    assert coco_detections.read_detections(path, gt, "dt.json.gz").score.tolist() == [0.9]


def test_load_detections_gives_the_dicts(tmp_path):
    write(tmp_path / "dt.json", [det(), det(2, 3)])
    assert coco_detections.load_detections(tmp_path / "dt.json") == [det(), det(2, 3)]


def test_detections_from_dicts(gt):
    table = coco_detections.detections_from(enumerate([det(3, 3, (0, 0, 5, 5), 0.5)]), gt, "model output")
    assert table.image.tolist() == [2] and table.display == "model output"


def test_float_ids_equal_to_integers_find_their_image_and_category(tmp_path, gt):
    table = read(tmp_path, gt, [det(2.0, 3.0)])
    assert table.image.tolist() == [1] and table.category.tolist() == [3]


# --- rules ------------------------------------------------------------------------------

def test_unknown_image_ids(tmp_path, gt):
    text = refusal(tmp_path, gt, [det(), det(99), det(98)])
    assert text == ('dt.json:/1: refused before evaluating, rule image-ids: 2 of 3 detections name image ids not in the '
                    'annotations gt.json; e.g. detection 1: {"image_id": 99, "category_id": 1, "bbox": [10, 10, 50, 50], '
                    '"score": 0.9}')


def test_string_ids_for_integer_images_are_named(tmp_path, gt):
    text = refusal(tmp_path, gt, [det("1"), det("2")])
    assert text.endswith("(the annotations' image ids are integers and these strings: write them as numbers)")
    assert "rule image-ids: 2 of 2 detections" in text


def test_integer_ids_for_string_images_are_named(tmp_path):
    doc = document([annotation(1, "000139", 10, 10, 50, 50)], images=("000139", "139"))
    text_gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    text = refusal(tmp_path, text_gt, [det(139), det(140)])
    assert text.endswith("(the annotations' image ids are strings and these integers: write them as strings)")


def test_bool_image_id_is_not_image_1(tmp_path, gt):
    assert "rule image-ids: 1 of 1 detections" in refusal(tmp_path, gt, [det(True)])


def test_contiguous_labels(tmp_path, gt):
    # categories 1 and 3; labels 0, 1, 2 as a model's class indices
    text = refusal(tmp_path, gt, [det(category=c) for c in (0, 1, 2)])
    assert text.startswith("dt.json:/0: refused before evaluating, rule category-ids: 2 of 3 detections use category ids "
                           "not among the annotations' categories; e.g. detection 0: ")
    assert text.endswith("(contiguous 0-based labels instead of the annotations' category ids? map them to the category ids)")


def test_unknown_category_without_the_label_hint(tmp_path, gt):
    text = refusal(tmp_path, gt, [det(category=500)])
    assert "rule category-ids: 1 of 1 detections" in text and not text.endswith(")")


def test_negative_size(tmp_path, gt):
    text = refusal(tmp_path, gt, [det(), det(bbox=(60, 60, 50, -5), score=0.5), det(bbox=(1, 1, -1, 2))])
    assert text.startswith("dt.json:/1: refused before evaluating, rule negative-size: 2 of 3 detections have a negative "
                           "width or height (xywh boxes need w, h >= 0)")


def test_zero_size_is_accepted(tmp_path, gt):
    assert len(read(tmp_path, gt, [det(bbox=(5, 5, 0, 0))])) == 1


def test_exact_duplicates_are_refused_with_count_and_both_copies(tmp_path, gt):
    # detections 0 and 2 written again at 3 and 4 (a results file appended to itself); 1 and 5 differ only in score
    first = [det(), det(2, 3, (100, 100, 80, 60), 0.7), det(3, 1, (5.5, 6, 7, 8), 0.125)]
    content = first + [det(), det(3, 1, (5.5, 6, 7, 8), 0.125), det(2, 3, (100, 100, 80, 60), 0.75)]
    text = refusal(tmp_path, gt, content)
    assert text == ('dt.json:/3: refused before evaluating, rule duplicate-detections: 2 of 6 detections repeat an earlier '
                    'detection exactly (same image_id, category_id, bbox and score); e.g. detection 3: {"image_id": 1, '
                    '"category_id": 1, "bbox": [10, 10, 50, 50], "score": 0.9} (the same as detection 0; COCOeval '
                    'counts each copy, the second as a false positive: write each detection once)')


@pytest.mark.parametrize("changed", [dict(image=2), dict(category=3), dict(bbox=(10, 10, 50, 50.000001)),
                                     dict(bbox=(10, 10.5, 50, 50)), dict(score=0.9000001)])
def test_detections_differing_in_one_field_are_not_duplicates(tmp_path, gt, changed):
    assert len(read(tmp_path, gt, [det(), det(**changed)])) == 2


def test_repeated_detections_pairs_each_repeat_with_its_copy():
    # images 0 1 0 1 0 2, all else equal: 2 repeats 0, 3 repeats 1, 4 repeats 2 (its nearest earlier copy)
    table = coco_detections.Detections("m", np.array([0, 1, 0, 1, 0, 2]), np.ones(6, dtype=np.int64),
                                       np.tile([10.0, 10, 50, 50], (6, 1)), np.full(6, 0.9))
    repeats, originals = coco_detections.repeated_detections(table)
    assert repeats.tolist() == [2, 3, 4] and originals.tolist() == [0, 1, 2]


def test_duplicates_come_after_the_size_rule(tmp_path, gt):
    assert "rule negative-size" in refusal(tmp_path, gt, [det(bbox=(1, 1, -1, 1))] * 2)


def test_rules_in_order(tmp_path, gt):
    # an unknown image comes before an unknown category, which comes before a negative size
    content = [det(bbox=(1, 1, -1, 1)), det(category=7), det(image=50)]
    assert "rule image-ids" in refusal(tmp_path, gt, content)
    assert "rule category-ids" in refusal(tmp_path, gt, content[:2])


# --- structure --------------------------------------------------------------------------

@pytest.mark.parametrize("content, message", [
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3], "score": 0.5}]', "dt.json:/0/bbox: bbox must be 4 numbers"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, true], "score": 0.5}]', "dt.json:/0/bbox: bbox must be 4"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4]}]', "dt.json:/0: detection without score"),
    ('[{"image_id": 1, "bbox": [1, 2, 3, 4], "score": 1}]', "dt.json:/0: detection without category_id"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": "high"}]', "dt.json:/0/score: score must be a"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 1e999}]',
     "dt.json:/0/score: number out of range: it is not a finite double"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, -1e400], "score": 1}]',
     "dt.json:/0/bbox/3: number out of range"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, ' + "9" * 400 + '], "score": 1}]',
     "dt.json:/0/bbox/3: number out of range"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": NaN}]', "dt.json:/0: malformed JSON: NaN is not"),
    ('[3]', "dt.json:/0: detection is not an object"),
    ('{"annotations": []}', "dt.json: expected a JSON array of detections"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5}', "dt.json:1: malformed JSON"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5}]\n[]', "dt.json:2: holds more than one JSON"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5},]', "dt.json:1: malformed JSON: Expecting"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 0.5} {}]', "dt.json:1: malformed JSON: Expecting"),
    ("  \n ", "dt.json: file is empty"),
])
def test_structure(tmp_path, gt, content, message):
    assert refusal(tmp_path, gt, content).startswith(message)


def test_duplicate_key_in_a_detection(tmp_path, gt):
    # {"score": 0.1, "score": 0.9}: json.loads keeps the last; refused instead
    content = json.dumps([det(), det()]).replace('"score": 0.9}]', '"score": 0.1, "score": 0.9}]')
    assert refusal(tmp_path, gt, content) == ("dt.json:1: malformed JSON: duplicate key 'score' in one object (the "
                                              "last would silently win)")


def test_a_number_beyond_float_range_is_refused_where_it_sits(tmp_path, gt):
    assert coco_json.out_of_range(float("inf")) and coco_json.out_of_range(-(10**309))
    assert not coco_json.out_of_range(10**308) and not coco_json.out_of_range(True) and not coco_json.out_of_range("1e400")


def test_members_and_elements_read_nested_text(tmp_path):
    doc = coco_json.JsonText('{"a": [1, {"b": 2}], "c" : "d", "e": {}}', "x.json")
    members = coco_json.Members(doc, doc.start())
    seen = {}
    for key, pos in members:
        if key == "a":
            elements = coco_json.Elements(doc, pos, "/a")
            seen[key] = list(elements)
            members.done(elements.end)
        else:
            value, end = doc.value(pos, f"/{key}")
            seen[key] = value
            members.done(end)
    doc.finish(members.end)
    assert seen == {"a": [(0, 1), (1, {"b": 2})], "c": "d", "e": {}}


@pytest.mark.parametrize("text, message", [
    ('{"a" 1}', "x.json:1: malformed JSON: Expecting ':' delimiter (column 6)"),
    ('{"a": 1 "b": 2}', "x.json:1: malformed JSON: Expecting ',' delimiter (column 9)"),
    ("{a: 1}", "x.json:1: malformed JSON: Expecting property name enclosed in double quotes (column 2)"),
    ('{"a": 1,\n "a": 2}', "x.json:2: malformed JSON: duplicate key 'a' in one object (the last would silently win)"),
    ('{"a": [1, 2', "x.json:1: malformed JSON: Expecting ',' delimiter"),
])
def test_members_refusals(text, message):
    doc = coco_json.JsonText(text, "x.json")
    members = coco_json.Members(doc, doc.start())
    with pytest.raises(InputError) as caught:
        for key, pos in members:
            elements = coco_json.Elements(doc, pos, f"/{key}") if doc.text[pos] == "[" else None
            if elements is not None:
                list(elements)
                members.done(elements.end)
            else:
                members.done(doc.value(pos, f"/{key}")[1])
    assert str(caught.value).startswith(message)


def test_escape_pointer():
    assert coco_json.escape_pointer("a/b~c") == "a~1b~0c"


def test_examples_print_numbers_as_json_would(tmp_path, gt):
    # 3.0 prints as 3 (as most files write it), 1e20 stays a float, 2**53 + 1 as a float too (columns built
    # here: a file with such coordinates is refused, the scale's refusal quotes them through the same example)
    table = coco_detections.Detections("dt.json", np.array([0]), np.array([1]),
                                       np.array([[3.0, 1e20, 2.5, 9007199254740993]]), np.array([1.0]))
    assert table.example(0, gt) == ('{"image_id": 1, "category_id": 1, "bbox": [3, 1e+20, 2.5, 9007199254740992.0], '
                                    '"score": 1}')


@pytest.mark.parametrize("content, message", [
    ('{"a": 1}', "dt.json: expected a JSON array of detections"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4]}]', "dt.json:/0: detection without score"),
    ('[{"image_id": 1, "category_id": 1, "bbox": [1, 2, 3, 4], "score": 1}] 5', "dt.json:1: holds more than one"),
])
def test_load_detections_refuses_as_read_detections_does(tmp_path, content, message):
    (tmp_path / "dt.json").write_text(content)
    with pytest.raises(InputError) as caught:
        coco_detections.load_detections(tmp_path / "dt.json", "dt.json")
    assert str(caught.value).startswith(message)


def test_numpy_floats_from_a_model_are_read_as_plain_ones(gt):
    # a model's output as dicts may hold numpy float64 scalars (a float subclass): read by the careful path
    import numpy as np

    detections = [{"image_id": 2, "category_id": 3, "bbox": [np.float64(100.5), np.float64(100), 80, 60],
                   "score": np.float64(0.75)},
                  det(bbox=(10, 10, 50, 50), score=0.5)]
    table = coco_detections.detections_from(enumerate(detections), gt, "model")
    assert table.image.tolist() == [1, 0] and table.category.tolist() == [3, 1]
    assert table.box.tolist() == [[100.5, 100, 80, 60], [10, 10, 50, 50]] and table.score.tolist() == [0.75, 0.5]


def test_negative_category_ids_are_read(tmp_path):
    # category ids are 64-bit integers of either sign in the annotations; a detection of category -1 finds it
    doc = document([annotation(1, 1, 10, 10, 50, 50, category=-1)], images=(1,), categories=(-1,))
    negative_gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    table = read(tmp_path, negative_gt, [det(category=-1)])
    assert table.category.tolist() == [-1]


# --- coordinates no image has -----------------------------------------------------------

FAR = "is beyond ±1e+06 px: no image is that large (another unit, or a corrupt number?)"


@pytest.mark.parametrize("bbox, pointer, value", [((1e308, 1, 10, 10), "/1/bbox/0", "1e+308"),
                                                  ((-1000000.5, 5, 10, 10), "/1/bbox/0", "-1e+06"),
                                                  ((5, 5, 2_000_000, 10), "/1/bbox/2", "2e+06")])
def test_a_coordinate_beyond_a_million_pixels_is_refused(tmp_path, gt, bbox, pointer, value):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy overflow warning on the way
        text = refusal(tmp_path, gt, [det(), det(bbox=bbox)])
    assert text == f"dt.json:{pointer}: bbox coordinate {value} {FAR}"


def test_a_far_coordinate_of_another_number_type_is_refused_alike(gt):
    # a model's output as numpy floats takes check_detection's path, not the fast one
    with pytest.raises(InputError) as caught:
        coco_detections.detections_from(enumerate([det(bbox=(np.float64(3e6), 1, 2, 3))]), gt, "model output")
    assert str(caught.value) == f"model output:/0/bbox/0: bbox coordinate 3e+06 {FAR}"


def test_a_million_pixels_is_accepted(tmp_path, gt):
    assert read(tmp_path, gt, [det(bbox=(1e6, -1e6, 1e6, 1e6))]).box.tolist() == [[1e6, -1e6, 1e6, 1e6]]


def test_a_far_ground_truth_coordinate_is_refused(tmp_path):
    doc = document(numbered([(1, 10, 10, 50, 50), (2, 100, 7e6, 80, 60)]), images=(1, 2))
    with pytest.raises(InputError) as caught:
        coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    assert str(caught.value) == f"gt.json:/annotations/1/bbox/1: bbox coordinate 7e+06 {FAR}"

