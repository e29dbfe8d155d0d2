"""Issue 13, COCO: each class through ``studygen collect coco``, on the cases
of tests/collect/coco_cases.py. Before this change each gave a silent wrong
figure, a crash or a wrong refusal (the figures are in each comment); now a
refusal (one line, exit 2, nothing written) or the right figure."""

from __future__ import annotations

import pytest

from tests.collect import coco_cases
from tests.collect.coco_build import STATS, notes, values, write


def run(collect, workdir, case, *extra, job="job1"):
    doc, dets = case() if callable(case) else case
    gt = write(workdir / "gt.json", doc)
    dt = write(workdir / "dt.json", dets)
    return collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d", *extra, job=job)


def refused(done, start: str):
    assert done.exit_code == 2, done.out
    assert done.err.startswith("studygen: " + start), done.err
    assert done.err.count("\n") == 1 and "Traceback" not in done.err
    assert done.out == "" and not done.measurements.exists()


@pytest.mark.parametrize("case, start", [
    # before: AP 0.4422 (the perfect detection of the box with id 0 counted as a false positive)
    ("id_zero", "gt.json:/annotations/0: 1 of 3 annotations have an id that is not a positive integer"),
    # before: AP 0.5545 (the first box with id 2 was evaluated as the second, on another image)
    ("repeated_ids", "gt.json:/annotations/2: 1 of 3 annotations repeat an id used before them (first: id 2"),
    # before: AP 1 recorded, the dataset definition counting 3 images for 4 entries
    ("image_twice", "gt.json:/images/2: 1 image entry repeats an id listed before them (first: id 2"),
    # before: AP 0.7525 (the 0 px box counted as missed)
    ("zero_size_box", "gt.json:/annotations/3: 1 of 4 annotations have a zero or negative width or height"),
    # before: AP -1 recorded as a figure
    ("no_annotation", "gt.json:/annotations: no annotation at all: AP is undefined"),
    # before: AP 1.0 recorded against a detections dump
    ("scored_ground_truth", "gt.json:/annotations/0: 3 of 3 annotations carry a score"),
    # before: APs 1.0, APm -1, APl -1 (every box small)
    ("normalised_areas", "gt.json:/annotations/1: 3 of 3 annotations have an area larger than their box or below 0.1% "
                         "of it, 2 of them in another COCO size range than their box"),
    # before: AP 0.0 (read as x, y, w, h no box passes the border, so the border rule saw none of them)
    ("xyxy_boxes", "dt.json:/0: refused before evaluating, rule box-convention: 24 of 24 detections of the 24 "
                   "highest-scoring match a ground-truth box of their category (IoU >= 0.5) when read as x1, y1, x2, y2"),
    # before: AP 0.0 (two coordinates outside [0, 1] kept the normalised rule from firing)
    ("normalised_boxes", "dt.json:/0: refused before evaluating, rule box-convention: 26 of 26 detections of the 26 "
                         "highest-scoring match a ground-truth box of their category (IoU >= 0.5) when read as x1, y1, "
                         "x2, y2 normalised to the image size, 0 when read as x, y, w, h"),
    # before: AP 0.0
    ("shifted_categories", "dt.json:/0: refused before evaluating, rule category-mapping: 24 of 24 ground-truth boxes "
                           "that detections overlap have as their highest-scoring overlapping detection"),
    # before: AP 0.0
    ("image_off_by_one", "dt.json:/0: refused before evaluating, rule image-mapping: 20 of 20 detections of the 20 "
                         "highest-scoring match a ground-truth box of their category (IoU >= 0.5) in the image after"),
])
def test_refused(collect, workdir, case, start):
    refused(run(collect, workdir, getattr(coco_cases, case)), start)


@pytest.mark.parametrize("backend", ["pycocotools", "faster-coco-eval"])
def test_string_image_ids_give_ap_1_with_both_backends(collect, workdir, backend):
    # before: faster-coco-eval failed on string ids (internal error); pycocotools gave AP 1
    done = run(collect, workdir, coco_cases.string_image_ids, "--backend", backend)
    assert done.exit_code == 0, done.err
    assert values(done) == pytest.approx(dict.fromkeys(STATS, 1.0), abs=1e-12)
    assert done.record["results"][0]["evaluator"].startswith(f"{backend} ")


def test_boxes_past_the_border_like_the_ground_truth_give_ap_1(collect, workdir):
    # before: refused as xyxy-as-xywh (every box past the border by more than 5 %)
    done = run(collect, workdir, coco_cases.past_the_border)
    assert done.exit_code == 0, done.err
    assert values(done)["AP"] == pytest.approx(1.0, abs=1e-12) and done.err == ""


def test_partial_images_are_a_warning_with_both_counts(collect, workdir):
    done = run(collect, workdir, coco_cases.partial_images)
    assert done.exit_code == 0, done.err
    warning = "dt.json names 4 of the 6 annotated images; AP is over all 6 (the ground truth of the other 2 counts as missed)"
    assert done.err == f"studygen: warning: {warning}\n"
    assert warning in notes(done)
    assert values(done)["AP"] == pytest.approx(67 / 101, abs=1e-12)


def test_ties_give_the_reference_figure_and_the_range_every_order_allows(collect, workdir):
    # plain pycocotools: 51/101 as given, 0.5 · 51/101 with the two image ids swapped; the file order of the two
    # (on two images) does not matter to it. Issue 22: that figure is recorded, the range beside it.
    case = coco_cases.tied_scores()
    doc, dets = case
    expected = [51 / 101, 51 / 101, 0.5 * 51 / 101, 0.5 * 51 / 101]
    for job, variant in enumerate([case, (doc, dets[::-1]), coco_cases.swapped_ids(case),
                                   coco_cases.swapped_ids((doc, dets[::-1]))]):
        done = run(collect, workdir, variant, job=f"j{job}")
        assert done.exit_code == 0, done.err
        assert values(done)["AP"] == pytest.approx(expected[job], abs=1e-12)
        (ap,) = [r for r in done.results if r["statistic"] == "AP"]
        assert ap["tie_order_range"] == pytest.approx({"min": 0.5 * 51 / 101, "max": 51 / 101}, abs=1e-12)
        assert any(n.startswith("2 of 2 scored detections share their score with another of their category") for n in
                   notes(done))


def test_detections_beyond_max_dets_are_noted(collect, workdir):
    done = run(collect, workdir, coco_cases.beyond_max_dets)
    assert done.exit_code == 0, done.err
    assert values(done)["AP"] == pytest.approx(1 / 40, abs=1e-12)
    assert ("30 of 130 detections were not scored: COCOeval keeps the 100 highest-scoring detections of each image and "
            "category (maxDets)") in notes(done)
    assert done.err == ""  # a note, not a warning


def test_every_case_has_a_test():
    named = {"id_zero", "repeated_ids", "image_twice", "zero_size_box", "no_annotation", "scored_ground_truth",
             "normalised_areas", "xyxy_boxes", "normalised_boxes", "shifted_categories", "image_off_by_one",
             "string_image_ids", "past_the_border", "partial_images", "tied_scores", "beyond_max_dets"}
    assert set(coco_cases.CASES) == named


def test_the_record_names_an_input_by_its_file_name_and_stderr_as_typed(collect, workdir):
    # a new user's README printed "/tmp/<their folder>/dets_fp16.json names 35 of the 36 annotated images": the
    # collecting machine's path in a published note, where every other note named the file alone
    doc, dets = coco_cases.partial_images()
    (workdir / "inputs").mkdir()
    gt, dt = write(workdir / "inputs" / "gt.json", doc), write(workdir / "inputs" / "dt.json", dets)
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 0, done.err
    said = "names 4 of the 6 annotated images; AP is over all 6 (the ground truth of the other 2 counts as missed)"
    assert done.err == f"studygen: warning: inputs/dt.json {said}\n"
    assert f"dt.json {said}" in notes(done) and not any("inputs/" in note for note in notes(done))
    assert "inputs/dt.json" in done.record["provenance"]["collector"]["command"]  # the command keeps it as typed
