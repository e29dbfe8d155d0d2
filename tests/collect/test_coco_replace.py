"""``collect coco`` names the detections file its AP was read from
(``source_locator``) and that file's content digest (``source_sha256``), so
that ``collect coco --replace REASON`` finds the results it replaces: before,
AP results named no file and ``--replace`` refused every one of them ("names
no source file"), leaving no way to correct an AP but editing the record.

One ground-truth box in image 1; detections equal to it give AP 1.0, the same
box shifted by (4, 2) pixels has IoU 46 * 48 / (2 * 2500 - 46 * 48) = 0.79,
a match at 6 of COCOeval's 10 IoU thresholds (0.50 to 0.75): AP 0.6."""

from __future__ import annotations

import hashlib

import pytest

from .test_coco import box, detections_of, ground_truth, write


def test_ap_results_name_their_detections_file_and_its_digest(collect, workdir):
    annotations = [box(1, 10, 10, 50, 50)]
    gt = ground_truth(workdir, annotations)
    dt = write(workdir / "dt_a.json", detections_of(annotations))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d")
    assert done.exit_code == 0, done.err
    digest = hashlib.sha256(dt.read_bytes()).hexdigest()
    assert {(r["source_locator"], r["source_sha256"]) for r in done.kind("coco_ap")} == {("dt_a.json", digest)}
    assert len(done.kind("coco_ap")) == 12


def test_replace_swaps_the_ap_of_other_detections(collect, workdir):
    annotations = [box(1, 10, 10, 50, 50)]
    gt = ground_truth(workdir, annotations)
    first = write(workdir / "dt_a.json", detections_of(annotations))
    assert collect("coco", "--annotations", gt, "--detections", first, "--dataset", "d").exit_code == 0
    shifted = write(workdir / "dt_b.json", detections_of([box(1, 14, 12, 50, 50)]))
    # without --replace: one measurement with two values, refused and nothing written
    refused = collect("coco", "--annotations", gt, "--detections", shifted, "--dataset", "d")
    assert refused.exit_code == 2 and "already recorded" in refused.err
    done = collect("coco", "--annotations", gt, "--detections", shifted, "--dataset", "d",
                   "--replace", "dt_a.json held the detections of the fp32 checkpoint")
    assert done.exit_code == 0, done.err
    results = done.kind("coco_ap")
    assert len(results) == 12  # the twelve statistics of dt_b.json only
    assert {r["source_locator"] for r in results} == {"dt_b.json"}
    assert {r["source_sha256"] for r in results} == {hashlib.sha256(shifted.read_bytes()).hexdigest()}
    assert next(r["value"] for r in results if r["statistic"] == "AP") == pytest.approx(0.6, abs=1e-12)
    assert next(r["value"] for r in results if r["statistic"] == "AP50") == pytest.approx(1.0, abs=1e-12)
    assert ("replaced 12 result(s) read from dt_a.json: dt_a.json held the detections of the fp32 checkpoint"
            in done.record["provenance"]["notes"])


def test_replace_reads_a_rewritten_file_of_the_same_name(collect, workdir):
    annotations = [box(1, 10, 10, 50, 50)]
    gt = ground_truth(workdir, annotations)
    dt = write(workdir / "dt.json", detections_of(annotations))
    assert collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d").exit_code == 0
    write(dt, detections_of([box(1, 14, 12, 50, 50)]))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "d", "--replace", "boxes fixed")
    assert done.exit_code == 0, done.err
    ap = {r["statistic"]: r["value"] for r in done.kind("coco_ap")}
    assert (ap["AP"], ap["AP75"]) == (pytest.approx(0.6, abs=1e-12), pytest.approx(1.0, abs=1e-12))
    assert "replaced 12 result(s) read from dt.json: boxes fixed" in done.record["provenance"]["notes"]
