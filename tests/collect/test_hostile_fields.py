"""Fields of the inputs that were read whatever they held: a Kineto kernel
event's ``name`` (null or a list became an unclassified kernel named
``None``) and a COCO image's ``width``/``height`` (0 was taken for "not
given", 10^12 was taken as a size). Each is now refused in one line naming
the file and the JSON pointer.

Traces are copies of the alexnet fixture with one event edited; COCO files
are built here (tests/collect/coco_build.py).
"""

from __future__ import annotations

import gzip
import json

import pytest

from studygen.collect import coco_truth
from studygen.errors import InputError
from tests.collect.coco_build import annotation, document, perfect, write
from tests.collect.conftest import TORCH, assert_refused

ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"


def alexnet_with(workdir, edit):
    """The alexnet trace with ``edit(first_kernel_event)`` applied, and that event's index."""
    trace = json.loads(gzip.decompress(ALEXNET.read_bytes()))
    index = next(i for i, e in enumerate(trace["traceEvents"]) if e.get("ph") == "X" and e.get("cat") == "kernel")
    edit(trace["traceEvents"][index])
    path = workdir / "edited_trace.json"
    path.write_text(json.dumps(trace))
    return path, index


@pytest.mark.parametrize("name, shown", [(None, "the name null"), (["sgemm", "tn"], 'the name ["sgemm", "tn"]'),
                                         (7, "the name 7"), ("", 'the name ""'), ("  ", 'the name "  "')])
def test_a_kernel_event_whose_name_is_no_string_is_refused(collect, workdir, name, shown):
    path, index = alexnet_with(workdir, lambda event: event.update(name=name))
    # the first kernel event of the alexnet trace lasts 71 µs (read off the file)
    assert_refused(collect("torch-profile", "--trace", path, "--mode", "eager", "--variant", "fp32"),
                   f"edited_trace.json:/traceEvents/{index}/name: kernel event with {shown}, not a kernel name",
                   "its 71 µs cannot be given to any group", "nothing recorded")


def test_a_kernel_event_without_a_name_is_refused(collect, workdir):
    path, index = alexnet_with(workdir, lambda event: event.pop("name"))
    assert_refused(collect("torch-profile", "--trace", path, "--mode", "eager", "--variant", "fp32"),
                   f"/traceEvents/{index}/name: kernel event with no name")


def test_the_unedited_copy_collects_every_microsecond(collect, workdir):
    # the same copy with the name left as it is: 10692 µs in all, as the alexnet test reads it
    path, _ = alexnet_with(workdir, lambda event: None)
    done = collect("torch-profile", "--trace", path, "--mode", "eager", "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.results[0]["profiled_total_ms"] == 10.692


# ---- COCO image sizes ---------------------------------------------------------------------------

BOXES = [annotation(1, 1, 10, 10, 50, 40), annotation(2, 2, 20, 20, 30, 30), annotation(3, 3, 5, 5, 100, 80)]


@pytest.mark.parametrize("axis", ["width", "height"])
@pytest.mark.parametrize("value", [0, -640, 10**12, 100_001, 0.5, "640", True, [640], float("inf")])
def test_an_impossible_image_size_is_refused_with_its_pointer(tmp_path, axis, value):
    doc = document(BOXES)
    doc["images"][1][axis] = value
    path = tmp_path / "gt.json"
    # json.dumps writes inf as Infinity, which the reader refuses as JSON before any size check
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError) as caught:
        coco_truth.load_ground_truth(path, "gt.json")
    text = str(caught.value)
    assert "\n" not in text and "gt.json" in text
    if value != float("inf"):
        assert f"/images/1/{axis}" in text and f"image {axis}" in text and "from 1 to 100000" in text, text


@pytest.mark.parametrize("value", [1, 640, 100_000, 1279.5])
def test_possible_image_sizes_are_read(tmp_path, value):
    doc = document(BOXES)
    doc["images"][2]["width"] = value
    gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    assert gt.images[3] == (value, 480) and gt.images[1] == (640, 480)


def test_a_null_or_absent_size_is_not_given(tmp_path):
    doc = document(BOXES)
    doc["images"][0]["width"] = None
    del doc["images"][1]["height"]
    gt = coco_truth.load_ground_truth(write(tmp_path / "gt.json", doc), "gt.json")
    assert gt.images[1] == (None, 480) and gt.images[2] == (640, None)


def test_collect_coco_refuses_a_zero_width_and_writes_nothing(collect, workdir):
    doc = document(BOXES)
    doc["images"][2]["width"] = 0
    gt, dt = write(workdir / "gt.json", doc), write(workdir / "dt.json", perfect(BOXES))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-3", "--variant", "fp16")
    assert_refused(done, "gt.json:/images/2/width: image width 0 is no image size")
    assert not (done.measurements / done.family / "datasets").exists()
