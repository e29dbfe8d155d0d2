"""SG221: two jobs holding one run's timing (the same input by its digest and
place, the same source with the same figures, or the same timed figures to
every digit) are an error; runs of their own, several runs of one file and
a transcribed source giving each GPU its own figure are not."""

from __future__ import annotations

import json
import shutil

from studygen.checks import CheckContext, sg221_same_run
from studygen.findings import ERROR
from studygen.study import load_study

from tests.conftest import REPO

from .studies import coco_ap, latency, load, record

DIGEST = "5f" * 32
# a summary as trtexec prints it: seven statistics, a sample count, a throughput (made-up figures)
SUMMARY = {"statistics_ms": {"min": 1.20117, "max": 1.90332, "mean": 1.26545, "median": 1.25977, "p90": 1.29395,
                             "p95": 1.31641, "p99": 1.45801},
           "distribution": {"samples": 3958, "warmup_iterations": 230}, "throughput_qps": 790.1}


def _run(variant="fp16", value=1.25977, **extra):
    return latency(variant, value, **{**SUMMARY, **extra})


def _findings(tmp_path, records):
    return sg221_same_run.check(CheckContext(load(tmp_path, records=records)))


def test_the_same_input_in_two_jobs_is_one_run_whatever_its_name(tmp_path):
    findings = _findings(tmp_path, [
        record("a", [latency("fp16", 2.5, source_locator="run.log:569", source_sha256=DIGEST)]),
        record("b", [latency("fp16", 2.5, source_locator="copy.log:569", source_sha256=DIGEST)]),
    ])
    assert [(f.code, f.severity, f.file, f.pointer) for f in findings] == [
        ("SG221", ERROR, "measurements/toy/b.json", "/results/0")]
    assert findings[0].message == (
        "job b's latency result of fp16 is the run job a holds at measurements/toy/a.json:/results/0 (the same "
        "input: content sha256 5f5f5f5f5f5f…, read at run.log:569): one run counted as two jobs that agree")
    text = (tmp_path / "measurements/toy/b.json").read_text().splitlines()
    assert text[findings[0].line - 1].strip() == "{"  # the line of the result itself
    assert findings[0].key is not None and "fp16" in findings[0].key
    # the finding sits at the job read second; the hint names both, since either may be the copy (trial s21)
    assert findings[0].hint == ("the job that did not run it, a or b, holds a copy: remove that result, or collect a "
                                "run of its own into that job")


def test_a_record_copied_under_another_job_id_is_one_run(tmp_path):
    # the fp32 run's own statistics: a value_ms is its median (records/order.stated_value_disagreement)
    fp32_stats = {"min": 1.95117, "max": 2.60352, "mean": 2.02481, "median": 2.01172, "p90": 2.04395, "p95": 2.06641,
                  "p99": 2.21875}
    held = [_run(source_locator="gpu.log:120"), _run("fp32", 2.01172, source_locator="gpu.log:180",
                                                     statistics_ms=fp32_stats)]
    findings = _findings(tmp_path, [record("a", held), record("copy", json.loads(json.dumps(held)))])
    assert [(f.file, f.pointer) for f in findings] == [("measurements/toy/copy.json", "/results/0"),
                                                       ("measurements/toy/copy.json", "/results/1")]
    assert "(the same source and figures)" in findings[0].message


def test_figures_equal_to_every_digit_are_one_run_without_a_source(tmp_path):
    findings = _findings(tmp_path, [record("a", [_run(source_locator="a.json:line 1")]),
                                    record("b", [_run(source_locator="b-reformatted.json:line 3")])])
    assert len(findings) == 1 and "(the same timed figures to every digit)" in findings[0].message


def test_runs_of_their_own_and_one_file_of_several_runs_pass(tmp_path):
    # one digit differs (p99): another run
    other = _run(source_locator="b.log:120", statistics_ms={**SUMMARY["statistics_ms"], "p99": 1.45802})
    # the same file in two jobs, but other runs in it (other places): several runs of one log
    first = latency("fp16", 2.5, source_locator="runs.log:100", source_sha256=DIGEST)
    second = latency("fp16", 2.7, source_locator="runs.log:300", source_sha256=DIGEST)
    assert _findings(tmp_path / "a", [record("a", [_run(source_locator="a.log:120"), first]),
                                      record("b", [other, second])]) == []
    # generated figures (a benchmark's synthetic records) ran nothing; the measured records after them are read
    held = [_run(source_locator="a.log:1")]
    found = _findings(tmp_path / "c", [record("a", held, synthetic=True), record("b", held, synthetic=True),
                                       record("c", held), record("d", held)])
    assert [(f.file, f.pointer) for f in found] == [("measurements/toy/d.json", "/results/0")]
    # one job split into two records (shards) is no second job
    assert _findings(tmp_path / "b", [record("a", [_run(source_locator="a.log:1")]),
                                      record("a", [_run(source_locator="a.log:1")], description="shard 2")]) == []


def test_a_few_equal_figures_of_two_publications_are_not_one_run(tmp_path):
    # a transcribed median with min and max (4 distinct numbers) may repeat in two tables
    few = {"statistics_ms": {"min": 1.2, "median": 1.3, "max": 1.5}}
    provenance = {"gpu": "NVIDIA B200", "software": {"tensorrt": "11.4"},
                  "checkpoint": {"id": "example/toy-detector", "weights": "pretrained"},
                  "source": {"citation": "Toy paper, tables 2 and 3"}}
    assert _findings(tmp_path, [record("a", [latency("fp16", 1.3, source_locator="table 2", **few)], provenance),
                                record("b", [latency("fp16", 1.3, source_locator="table 3", **few)], provenance)]) == []


def test_the_shipped_project_holds_no_run_twice(tmp_path):
    # deformable_detr: one transcribed description gives B200 13.99 ms and B300 13.62 ms under one locator
    for family in ("deformable_detr", "hackathon_mnist_trtexec", "deformable_detr_h200_torch",
                   "bert_small_h100_mi300x", "jetson_trt7_googlenet"):
        study = load_study(REPO / "families" / family, REPO)
        assert sg221_same_run.check(CheckContext(study)) == [], family


def test_the_hackathon_record_copied_under_job_id_copy_is_caught(tmp_path):
    # attack round 01 (b): gtx1070-trt8.0.3.json copied by hand with job_id "copy"
    root = tmp_path / "p"
    shutil.copytree(REPO / "families" / "hackathon_mnist_trtexec", root / "families" / "hackathon_mnist_trtexec")
    shutil.copytree(REPO / "measurements" / "hackathon_mnist_trtexec", root / "measurements" / "hackathon_mnist_trtexec")
    records = root / "measurements" / "hackathon_mnist_trtexec"
    document = json.loads((records / "gtx1070-trt8.0.3.json").read_text())
    document["job_id"] = "copy"
    (records / "copy.json").write_text(json.dumps(document, indent=2))
    study = load_study(root / "families" / "hackathon_mnist_trtexec", root)
    findings = sg221_same_run.check(CheckContext(study))
    # its six fp16 latencies (host latency, end to end, enqueue, H2D, GPU compute, D2H), each once
    assert len(findings) == len(document["results"]) == 6
    assert {f.file for f in findings} == {"measurements/hackathon_mnist_trtexec/gtx1070-trt8.0.3.json"}
    assert all("is the run job copy holds at measurements/hackathon_mnist_trtexec/copy.json" in f.message
               for f in findings)


# ---- one detections file read as the AP of two variants or two jobs (trial s21) -------------------------------

DETECTIONS = "d3" * 32


def _ap(variant, value, statistic="AP", dataset="val-8", digest=DETECTIONS):
    return coco_ap(variant, value, dataset, statistic=statistic, source_locator="dets.json", source_sha256=digest)


def test_one_detections_file_as_two_variants_ap_is_one_run(tmp_path):
    # fp32's detections collected again as fp16's: both AP and AP50 agree, one finding at fp16's first result
    findings = _findings(tmp_path, [record("a", [_ap("fp32", 0.4433), _ap("fp32", 0.8178, "AP50")]),
                                    record("b", [_ap("fp16", 0.4433), _ap("fp16", 0.8178, "AP50")])])
    assert [(f.code, f.severity, f.file, f.pointer) for f in findings] == [
        ("SG221", ERROR, "measurements/toy/b.json", "/results/0")]
    text = (tmp_path / "measurements/toy/b.json").read_text().splitlines()
    assert text[findings[0].line - 1].strip() == "{"  # the line of the result itself
    assert findings[0].key is not None and "fp16" in findings[0].key and "coco_ap" in findings[0].key
    assert findings[0].message == (
        "job b's coco_ap of fp16 is read from the detections job a holds as fp32's at measurements/toy/a.json:"
        "/results/0 (content sha256 d3d3d3d3d3d3…, image set val-8): one inference run counted as the AP of fp32 "
        "and of fp16")
    assert findings[0].hint == "collect coco with the detections this variant's own run wrote, in this job"


def test_one_detections_file_in_two_jobs_of_one_variant_is_a_replication_that_never_ran(tmp_path):
    findings = _findings(tmp_path, [record("a", [_ap("fp32", 0.4433)]), record("b", [_ap("fp32", 0.4433)])])
    assert [f.file for f in findings] == ["measurements/toy/b.json"]
    assert findings[0].message.endswith("one inference run counted as two jobs' AP of fp32")
    # scored on another image set in the second job, it is still the first job's inference run
    other_set = _findings(tmp_path / "sets", [record("a", [_ap("fp32", 0.4433)]),
                                              record("b", [_ap("fp32", 0.4512, dataset="val-50")])])
    assert [f.file for f in other_set] == ["measurements/toy/b.json"]


def test_detections_of_their_own_and_one_file_on_two_image_sets_pass(tmp_path):
    # each variant's own file; one job scoring fp32's file on two image sets; a result without a digest
    assert _findings(tmp_path, [
        record("a", [_ap("fp32", 0.4433), _ap("fp32", 0.4512, dataset="val-50"), coco_ap("fp8", 0.41)]),
        record("b", [_ap("fp16", 0.4431, digest="e4" * 32), coco_ap("fp8", 0.41)])]) == []
