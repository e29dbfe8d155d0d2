"""A COCO AP or AR is in [0, 1], and -1 is pycocotools' marker for "no
ground truth in that area range": the schema took any value from -1 to 1,
so -0.5 (no AP, no marker) loaded as a figure."""

from __future__ import annotations

import json

import pytest

from studygen.errors import RecordError
from studygen.records.load import load_record
from tests.checks.studies import coco_ap, record


def loaded(tmp_path, value):
    path = tmp_path / "job.json"
    path.write_text(json.dumps(record("job", [coco_ap("fp16", value, statistic="APs")]), indent=2) + "\n")
    return load_record(path, "job.json")


@pytest.mark.parametrize("value", [-1, -1.0, 0, 0.0, 0.379, 1, 1.0])
def test_an_ap_or_the_marker_loads(tmp_path, value):
    assert loaded(tmp_path, value).results[0]["value"] == value


@pytest.mark.parametrize("value, words", [(-0.5, "-0.5 is less than the minimum of 0"),
                                          (-0.0001, "-0.0001 is less than the minimum of 0"),
                                          (-2, "-2 is less than the minimum of 0"),
                                          (1.01, "1.01 is greater than the maximum of 1")])
def test_a_value_that_is_neither_is_refused_at_its_pointer(tmp_path, value, words):
    with pytest.raises(RecordError) as caught:
        loaded(tmp_path, value)
    assert str(caught.value).startswith("job.json:") and "/results/0/value" in str(caught.value)
    assert words in str(caught.value)
