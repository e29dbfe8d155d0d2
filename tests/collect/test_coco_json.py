"""The COCO JSON reader (studygen.collect.coco_json) through load_ground_truth:
each refusal's exact line, place included, on texts written here."""

from __future__ import annotations

import json

import pytest

from studygen.collect import coco_truth
from studygen.errors import InputError

TAIL = '"categories": [{"id": 1}], "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 1, 5, 5], ' \
       '"area": 25, "iscrowd": 0}]}'


def refusal(tmp_path, text: str) -> str:
    (tmp_path / "gt.json").write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        coco_truth.load_ground_truth(tmp_path / "gt.json", "gt.json")
    return str(caught.value)


def test_compact_json_is_read(tmp_path):
    # no space after any comma or colon, as json.dumps(separators=(",", ":")) writes a large file
    document = {"images": [{"id": 1, "width": 64, "height": 48}, {"id": 2}], "categories": [{"id": 1}, {"id": 2}],
                "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [1, 2, 30, 20], "area": 600,
                                 "iscrowd": 0},
                                {"id": 2, "image_id": 2, "category_id": 2, "bbox": [5, 5, 10, 10], "area": 100,
                                 "iscrowd": 0}]}
    (tmp_path / "gt.json").write_text(json.dumps(document, separators=(",", ":")), encoding="utf-8")
    gt = coco_truth.load_ground_truth(tmp_path / "gt.json", "gt.json")
    assert gt.image_list == [1, 2] and gt.category_ids == {1, 2}
    assert gt.annotations.box.tolist() == [[1, 2, 30, 20], [5, 5, 10, 10]]


@pytest.mark.parametrize("text", ["", "  \n "])
def test_an_empty_file_is_refused(tmp_path, text):
    assert refusal(tmp_path, text) == "gt.json: file is empty"


def test_a_second_value_is_refused_at_its_line(tmp_path):
    text = '{"images": [{"id": 1}], ' + TAIL + "\n\n{}"
    assert refusal(tmp_path, text) == "gt.json:3: holds more than one JSON value (another starts here); expected one"


def test_malformed_json_names_its_line_and_column(tmp_path):
    text = '{"images": [{"id": 1}],\n "categories": [}, "annotations": []}'
    assert refusal(tmp_path, text) == "gt.json:2: malformed JSON: Expecting value (column 17)"


def test_nesting_too_deep_is_refused_where_it_sits(tmp_path):
    nested = "[" * 100_000 + "]" * 100_000
    in_image = '{"images": [{"id": 1, "x": ' + nested + '}], ' + TAIL
    in_info = '{"info": ' + nested + ', "images": [{"id": 1}], ' + TAIL
    assert refusal(tmp_path, in_image) == "gt.json:/images/0: malformed JSON: nested too deeply to read"
    assert refusal(tmp_path, in_info) == "gt.json:/info/0: malformed JSON: nested too deeply to read"


def test_an_integer_of_5000_digits_is_refused_where_it_sits(tmp_path):
    text = '{"images": [{"id": 1, "x": ' + "9" * 5000 + '}], ' + TAIL
    assert refusal(tmp_path, text) == ("gt.json:/images/0: malformed JSON: an integer with more than 4300 digits (no "
                                       "measurement has that many)")


def test_an_empty_object_is_not_a_coco_file(tmp_path):
    assert refusal(tmp_path, "{}") == 'gt.json:/images: no "images" list: not a COCO annotations file'


def test_a_value_right_after_the_closing_brace_is_refused(tmp_path):
    text = '{"images": [{"id": 1}], ' + TAIL + "5"
    assert refusal(tmp_path, text) == "gt.json:1: holds more than one JSON value (another starts here); expected one"


def test_a_trailing_comma_in_an_element_names_its_line_and_column(tmp_path):
    text = '{"images": [{"id": 1},\n  {"id": 2,}], ' + TAIL
    assert refusal(tmp_path, text) == ("gt.json:2: malformed JSON: Expecting property name enclosed in double quotes "
                                       "(column 12)")
