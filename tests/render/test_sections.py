"""Sections from the study as a whole: image sets, provenance, notes, side
findings, not measured and known gaps."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.produced import WRITTEN
from studygen.render.view import StudyView

from ..checks.studies import DEFAULT_DATASETS, collected_provenance, dataset, kernel_time, latency, load, record, spec
from .test_tables import cells
from .views import DETR, places, printed, view_of

NVFP4 = {"config": "NVFP4", "aliases": ["nvfp4"], "reason": "not tried", "expectation": "no gain",
         "because": "the linears are a small share"}


def test_dataset_table_says_whether_ids_are_published(tmp_path):
    datasets = {**DEFAULT_DATASETS, "held-2": dataset("held-2", "evaluation", 2)}
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])], datasets=datasets))
    text, recorded = printed(study.dataset_table)
    sha = DEFAULT_DATASETS["calib-4"]["image_ids_sha256"][:12]
    assert cells(text) == [["Image set", "Role", "Images", "Source", "Selection", "Image ids"],
                           ["calib-4", "calibration", "4", "toy images", "4 toy images", f"listed, sha256 {sha}"],
                           ["held-2", "evaluation", "2", "toy images", "2 toy images", "not published"],
                           ["val-8", "evaluation", "8", "toy images", "8 toy images",
                            "listed, sha256 " + DEFAULT_DATASETS["val-8"]["image_ids_sha256"][:12]]]
    assert recorded[-1].kind == "dataset" and recorded[-1].headers[0] == "Image set"
    assert [d["dataset_id"] for d in study.datasets()] == ["calib-4", "held-2", "val-8"]


def test_provenance_table_says_where_figures_come_from(tmp_path):
    plain = collected_provenance(software={})
    study = StudyView(load(tmp_path, records=[record("a", [latency("fp16", 5.0)]), record("b", [latency("fp16", 5.1)], plain)]))
    assert cells(study.provenance_table()) == [
        ["Job", "GPU", "Software", "Weights", "Figures"],
        ["a", "H200", "cuda 13.0, tensorrt 11.4.0.106, torch 2.11.0", "pretrained", "collected by studygen-test 0"],
        ["b", "H200", "not stated", "pretrained", "collected by studygen-test 0"]]
    detr = cells(view_of(DETR).provenance_table())
    assert detr[4][0] == "b200-trt11.4" and detr[4][-1].startswith("transcribed: Pull request #2119")


def test_record_notes_in_record_order(tmp_path):
    first = record("a", [latency("fp16", 5.0)], collected_provenance(notes=["clocks locked"]), notes=["one", "two"])
    study = StudyView(load(tmp_path, records=[first, record("b", [latency("fp16", 5.1)], notes=["three"])]))
    assert study.record_notes() == [("a", "one"), ("a", "two"), ("a", "clocks locked"), ("b", "three")]


def test_precision_inversions_are_sentences_with_their_rows(tmp_path):
    rows = [latency("fp16", 5.0), latency("fp8", 5.5),
            latency("fp16", 9.0, "800x1067", backend="pytorch", mode="eager"),
            latency("fp8", 9.9, "800x1067", backend="pytorch", mode="eager")]
    study = StudyView(load(tmp_path, records=[record("job", rows)]))
    lines, recorded = printed(study.precision_inversions)
    assert lines == ["FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800: 5.5 ms against 5.0 ms (job job).",
                     "FP8 on H200 at 800 x 1067 (eager) is slower than fp16 with 9.9 ms against 9.0 ms."]
    assert [e.kind for e in recorded] == ["side_finding", "side_finding"]
    assert [places(e.rows) for e in recorded] == [[("job", "/results/1/value_ms"), ("job", "/results/0/value_ms")],
                                                 [("job", "/results/3/value_ms"), ("job", "/results/2/value_ms")]]


def test_inversion_across_jobs_names_both(tmp_path):
    study = StudyView(load(tmp_path, records=[record("a", [latency("fp16", 5.0)]), record("b", [latency("fp8", 5.5)])]))
    assert study.precision_inversions() == [
        "FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800: 5.5 ms against 5.0 ms (jobs b and a)."]


def test_inversions_on_pytorch_cells_of_several_jobs_read_the_medians_over_every_job(tmp_path):
    # two eager jobs: FP8 9.9 and 10.2 ms against fp16 9.0 and 9.1 ms: medians 10.05 against 9.05, one line over
    # both jobs. At 800x800 job b's FP8 5.5 is slower than job a's fp16 5.0, but job a's own FP8 is 4.0: FP8's
    # median over both jobs, 4.75, is below fp16's 5.0, so nothing is listed (issue 26: a pair of one job, or of
    # two, is not what the cells' figures say)
    def eager(variant, value, shape="800x1067"):
        return latency(variant, value, shape, backend="pytorch", mode="eager")

    a = record("a", [eager("fp16", 9.0), eager("fp8", 9.9), eager("fp16", 5.0, "800x800"), eager("fp8", 4.0, "800x800")])
    b = record("b", [eager("fp16", 9.1), eager("fp8", 10.2), eager("fp8", 5.5, "800x800")])
    study = StudyView(load(tmp_path, records=[a, b]))
    lines, recorded = printed(study.precision_inversions)
    assert lines == [
        "FP8 on H200 at 800 x 1067 (eager) is slower than fp16 at the medians over every job, with 10.050 ms (2 jobs: "
        "9.900 to 10.200) against 9.050 ms (2 jobs: 9.000 to 9.100)."]
    (entry,) = recorded
    assert entry.kind == "side_finding" and len(entry.rows) == 4  # every job's row of both cells
    assert sorted((x.job_id, y.job_id) for x, y in entry.compared) == [("a", "a"), ("b", "b")]


def test_pooled_figures_that_overlap_state_no_inversion(tmp_path):
    # three eager jobs, fp16 against fp32 (numbers chosen here, after an H100 trial where fp16 was slower in two
    # jobs of three): fp16 4.3, 4.4, 5.5 (median 4.4); fp32 4.0, 4.2, 6.0 (median 4.2). fp16's least, 4.3, is under
    # fp32's most, 6.0, and job c's fp16 is the faster: the medians' order is not settled, no "slower"
    def eager(variant, value):
        return latency(variant, value, "800x1067", backend="pytorch", mode="eager")

    def jobs(fp16, fp32):
        return [record(job, [eager("fp16", a), eager("fp32", b)]) for job, a, b in zip("abc", fp16, fp32)]

    study = StudyView(load(tmp_path / "wide", records=jobs([4.3, 4.4, 5.5], [4.0, 4.2, 6.0])))
    lines, recorded = printed(study.precision_inversions)
    assert lines == [
        "fp16 on H200 at 800 x 1067 (eager) is no faster than fp32 at the medians over every job, with 4.400 ms "
        "(3 jobs: 4.300 to 5.500) against 4.200 ms (3 jobs: 4.000 to 6.000); the figures overlap, so the order "
        "of the medians is not settled."]
    assert [e.kind for e in recorded] == ["side_finding"] and len(recorded[0].rows) == 6
    # ends that meet (fp16's least 4.3 is fp32's most) overlap too, and so do ends that print alike (4.3004 and
    # 4.3001, both 4.300 at the study's 3 decimals); apart (fp16 4.31 and 4.4 against 4.0 and 4.3), every job's
    # fp16 is slower than every job's fp32, and the sentence says so
    for name, fp16, fp32 in (("meet", [4.3, 4.4], [4.0, 4.3]), ("alike", [4.3004, 4.4], [4.0, 4.3001])):
        assert StudyView(load(tmp_path / name, records=jobs(fp16, fp32))).precision_inversions() == [
            "fp16 on H200 at 800 x 1067 (eager) is no faster than fp32 at the medians over every job, with 4.350 ms "
            "(2 jobs: 4.300 to 4.400) against 4.150 ms (2 jobs: 4.000 to 4.300); the figures overlap, so the order "
            "of the medians is not settled."], name
    apart = StudyView(load(tmp_path / "apart", records=jobs([4.31, 4.4], [4.0, 4.3]))).precision_inversions()
    assert apart == [
        "fp16 on H200 at 800 x 1067 (eager) is slower than fp32 at the medians over every job, with 4.355 ms "
        "(2 jobs: 4.310 to 4.400) against 4.150 ms (2 jobs: 4.000 to 4.300)."]


def test_a_tensorrt_inversion_with_a_figure_in_no_pair_reads_the_medians_over_every_job(tmp_path):
    # job a: fp16 2.0, FP8 31.39 ms (FP8 slower in job a); job b: fp16 99.996 ms alone. fp16's job-to-job spread
    # (2.0 to 99.996) is wider than job a's difference (29.39), so job a's pair alone is not stated (the generic
    # property test found "31.39 ms against 2.0 ms (job a)" flagged by SG203). Over every job: FP8 31.39 (one
    # job) against fp16's median 50.998 ((2.0 + 99.996) / 2): FP8 is not slower there, so nothing is listed.
    a = record("a", [latency("fp16", 2.0), latency("fp8", 31.39)])
    b = record("b", [latency("fp16", 99.996)])
    assert StudyView(load(tmp_path / "wide", records=[a, b])).precision_inversions() == []
    # job b's fp16 at 40.0 ms, slower than FP8 (no pair): fp16's median over both jobs is 21.0, FP8 still slower
    # there, and the sentence shows every job's figure (a figure of one job as its record prints it); FP8's 31.39
    # lies inside fp16's 2.0 to 40.0, so the medians' order settles nothing and no "slower" is said
    b = record("b", [latency("fp16", 40.0)])
    study = StudyView(load(tmp_path / "narrow", records=[a, b]))
    lines, recorded = printed(study.precision_inversions)
    assert lines == ["FP8 on H200 with TensorRT 11.4.0.106 at 800 x 800 is no faster than fp16 at the medians over every "
                     "job, with 31.39 ms (job a) against 21.000 ms (2 jobs: 2.000 to 40.000); the figures overlap, so the "
                     "order of the medians is not settled."]
    (entry,) = recorded
    assert sorted((r.job_id, r.value) for r in entry.rows) == [("a", 2.0), ("a", 31.39), ("b", 40.0)]
    assert [(x.job_id, y.job_id) for x, y in entry.compared] == [("a", "a")]
    # FP8 at 21.0 ms, fp16's median over both jobs: slower than job a's fp16, not at the medians: nothing listed
    a = record("a", [latency("fp16", 2.0), latency("fp8", 21.0)])
    assert StudyView(load(tmp_path / "tie", records=[a, b])).precision_inversions() == []


def test_a_pooled_inversion_leaves_out_a_figure_timed_otherwise(tmp_path):
    # the generic property test (seed 41, 750 examples in): job c's fp16 timed without CUDA graphs was pooled with the
    # others into one side-finding sentence, which SG212 flags as latencies measured differently put together
    a = record("a", [latency("fp16", 2.0), latency("fp8", 31.39)])
    b = record("b", [latency("fp16", 3.0)])
    graphs = {"timer": "trtexec", "cuda_graph": False}  # TensorRT 11 times with CUDA graphs by default
    c = record("c", [latency("fp16", 10.0, method=graphs)])
    study = StudyView(load(tmp_path, records=[a, b, c]))
    lines, recorded = printed(study.precision_inversions)
    # job c's figure is another measurement: no sentence pools it with jobs a and b
    assert lines and not any("10.000" in line or "3 jobs" in line for line in lines), lines
    assert all(row.job_id != "c" for entry in recorded for row in entry.rows)


def test_a_pooled_tensorrt_inversion_names_the_batch_where_sentences_differ_in_it_and_no_shape_it_lacks(tmp_path):
    # as above at batch 1 without a shape (FP8 31.39 against fp16 2.0 and 40.0), and at batch 4 in job a alone
    def at(variant, value, batch):
        return latency(variant, value, batch=batch) | {"shape": None}

    a = record("a", [at("fp16", 2.0, 1), at("fp8", 31.39, 1), at("fp16", 3.0, 4), at("fp8", 4.0, 4)])
    b = record("b", [at("fp16", 40.0, 1)])
    for result in (*a["results"], *b["results"]):
        del result["shape"]
    assert StudyView(load(tmp_path, records=[a, b])).precision_inversions() == [
        "FP8 on H200 with TensorRT 11.4.0.106, batch 1 is no faster than fp16 at the medians over every job, with "
        "31.39 ms (job a) against 21.000 ms (2 jobs: 2.000 to 40.000); the figures overlap, so the order of the "
        "medians is not settled.",
        "FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106, batch 4: 4.0 ms against 3.0 ms (job a)."]


def test_a_tensorrt_inversion_every_figure_of_which_is_in_a_pair_names_its_jobs(tmp_path):
    # both jobs measured both, FP8 slower in each: every figure is in a pair, the sentence lists them all
    a = record("a", [latency("fp16", 5.0), latency("fp8", 5.5)])
    b = record("b", [latency("fp16", 5.1), latency("fp8", 5.4)])
    assert StudyView(load(tmp_path, records=[a, b])).precision_inversions() == [
        "FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800: 5.4 to 5.5 ms against 5.0 to 5.1 ms "
        "(jobs a and b)."]


def test_repeated_measurements_list_each_job_and_the_spread(tmp_path):
    study = StudyView(load(tmp_path, records=[record("a", [latency("fp16", 5.02), latency("fp8", 4.0)]),
                                              record("b", [latency("fp16", 5.1)])]))
    text, recorded = printed(study.repeated_measurements)
    # 5.1 - 5.02 = 0.08, printed with the most decimals either figure carries (2)
    assert cells(text) == [["Measurement", "GPU", "TensorRT", "Value per job", "Spread"],
                           ["fp16 median GPU compute time 800 x 800", "H200", "11.4.0.106", "a: 5.02; b: 5.1", "0.08"]]
    assert places(recorded[-1].rows) == [("a", "/results/0/value_ms"), ("b", "/results/0/value_ms")]
    assert recorded[-1].compared_by == "key"  # SG212 compares the jobs of one line, not a variant's lines
    single = StudyView(load(tmp_path / "single", records=[record("a", [latency("fp16", 5.0)])]))
    assert single.repeated_measurements() == ""


def test_a_repeated_measurement_prints_the_digits_that_tell_its_jobs_apart(tmp_path):
    """Two jobs' medians whose own repeats move the units digit print 15 and 14 alone; beside them the spread
    0.383 printed 0. Failed before: the figures kept their own digits and the spread took theirs."""
    a = record("a", [latency("fp16", 14.616, repeats=[14.1, 14.616, 15.3]), latency("fp8", 2.04, repeats=[1.9, 2.04, 2.2])])
    b = record("b", [latency("fp16", 14.233, repeats=[13.9, 14.233, 15.0]), latency("fp8", 1.985, repeats=[1.9, 1.985, 2.1])])
    study = StudyView(load(tmp_path, records=[a, b]))
    assert [study.one(job_id=job, variant="fp16").number() for job in "ab"] == ["15", "14"]  # alone: two digits
    assert [study.one(job_id=job, variant="fp8").number() for job in "ab"] == ["2.0", "2.0"]
    assert [row[-2:] for row in cells(study.repeated_measurements())[1:]] == [
        # one decimal resolves 0.383, and 14.6 - 14.2 is the 0.4 printed
        ["a: 14.6; b: 14.2", "0.4"],
        # 2.0; 2.0 beside 0.1 before; at two decimals 2.04 - 1.99 = 0.05 against 0.055 printed 0.06, so three,
        # with 2.04 kept at the two its source carries
        ["a: 2.04; b: 1.985", "0.055"]]


def test_a_repeated_measurement_tells_apart_every_job_and_outranks_the_study_precision(tmp_path):
    # precision latency_ms 1 printed 5.1; 5.1; 5.1 beside 0.0: three jobs whose figures differ in the second
    # decimal; the middle one must not print as either end
    study = StudyView(load(tmp_path, records=[record("a", [latency("fp16", 5.12)]), record("b", [latency("fp16", 5.14)]),
                                              record("c", [latency("fp16", 5.13)])],
                           study=spec(precision={"latency_ms": 1})))
    assert study.one(job_id="a", variant="fp16").number() == "5.1"
    assert cells(study.repeated_measurements())[1][-2:] == ["a: 5.12; b: 5.14; c: 5.13", "0.02"]


def test_repeated_measurements_without_statistic_or_decimals(tmp_path):
    # whole-number latencies carry no decimals: the spread 6 - 5 prints as 1; kernel times have no
    # statistic, so the metric names the measurement (in a reader's words: "kernel_time" was printed), and the
    # group which one
    a = record("a", [latency("fp16", 5), kernel_time("fp16", {"GEMM/MatMul": 0.41})])
    b = record("b", [latency("fp16", 6), kernel_time("fp16", {"GEMM/MatMul": 0.4})])
    study = StudyView(load(tmp_path, records=[a, b]))
    assert cells(study.repeated_measurements())[1:] == [
        ["fp16 median GPU compute time 800 x 800", "H200", "11.4.0.106", "a: 5; b: 6", "1"],
        ["fp16 kernel time (ms) GEMM/MatMul 800 x 1067", "H200", "11.4.0.106", "a: 0.41; b: 0.4", "0.01"]]


def test_repeated_measurements_name_each_timing_group_and_shape(tmp_path):
    # trtexec reports five timings per run; two jobs of the same log gave five lines all reading
    # "fp16 median". Each line now names what it holds, so no two read alike.
    def job(name, offset):
        return record(name, [latency("fp16", 0.0440674 + offset, timing="host_latency"),
                             latency("fp16", 0.0361328 + offset, timing="gpu_compute"),
                             latency("fp16", 0.0361328 + offset, "640x640", timing="gpu_compute"),
                             kernel_time("fp16", {"GEMM": 0.2 + offset, "Softmax": 0.1})])

    study = StudyView(load(tmp_path, records=[job("a", 0), job("b", 0.001)]))
    assert [row[0] for row in cells(study.repeated_measurements())[1:]] == [
        "fp16 median host latency 800 x 800", "fp16 median GPU compute time 800 x 800", "fp16 median GPU compute time 640 x 640",
        "fp16 kernel time (ms) GEMM 800 x 1067", "fp16 kernel time (ms) Softmax 800 x 1067"]


def test_repeated_measurements_name_timings_as_the_latency_tables_do(tmp_path):
    # a new user's README printed gpu_compute, host_latency and h2d here, where the latency tables say
    # "GPU compute time": the words (written out by hand) are those of "Timed as ..." above the tables
    def job(name, offset):
        return record(name, [latency("fp16", 0.0440674 + offset, timing="host_latency"),
                             latency("fp16", 0.0361328 + offset, timing="gpu_compute"),
                             latency("fp16", 0.0051 + offset, timing="h2d"),
                             latency("fp32", 9.5 + offset, method={"timer": "cuda-events"})])

    study = StudyView(load(tmp_path, records=[job("a", 0), job("b", 0.001)]))
    assert [row[0] for row in cells(study.repeated_measurements())[1:]] == [
        "fp16 median host latency 800 x 800", "fp16 median GPU compute time 800 x 800",
        "fp16 median host-to-device copy time 800 x 800", "fp32 median CUDA-event time per forward 800 x 800"]


def test_expectation_is_hedged_and_only_for_declared_configurations(tmp_path):
    bare = {"config": "INT8", "reason": "no calibrator"}
    only_expected = {"config": "W4A16", "reason": "out of scope", "expectation": "smaller plan"}
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])],
                           study=spec(not_measured=[NVFP4, bare, only_expected])))
    text, recorded = printed(study.expectation, "nvfp4")  # an alias names the entry
    assert text == ("Not measured: NVFP4 (not tried). Expected without a measurement: no gain, because the linears are a "
                    "small share.")
    assert recorded[-1].kind == "expectation"
    assert study.expectation("INT8") == "Not measured: INT8 (no calibrator)."
    assert study.expectation("W4A16") == "Not measured: W4A16 (out of scope). Expected without a measurement: smaller plan."
    # under a heading that already says "Not measured" (the generic template's section), without the lead
    assert study.expectation("W4A16", lead=False) == "W4A16 (out of scope). Expected without a measurement: smaller plan."
    assert [e["config"] for e in study.not_measured()] == ["NVFP4", "INT8", "W4A16"]
    with pytest.raises(TemplateError) as raised:
        study.expectation("FP4")
    assert raised.value.message == "expectation('FP4'): not listed under not_measured in the study file"


def test_a_study_without_not_measured_entries(tmp_path):
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])]))
    assert study.not_measured() == []
    with pytest.raises(TemplateError, match="not listed under not_measured"):
        study.expectation("NVFP4")


def test_known_gaps_admit_waivers_explanations_unpublished_ids_and_unstable_timings(tmp_path):
    detr = view_of(DETR)
    key = detr.one(kind="coco_ap", variant="fp16", job_id="b200-trt11.4").key
    rows = [latency("fp16", 5.0, unstable=True, unstable_reason="CV 7 % over all samples exceeds 5 %"),
            latency("fp8", 4.0, unstable=True)]
    waivers = [{"code": "SG203", "key": "toy|x", "reason": "two jobs differ, kept"},
               {"code": "SG207", "match": "kernel time", "reason": "expected outlier"},
               {"code": "SG101", "line": 7, "reason": "range over the rows shown"}]
    explanations = [{"code": "SG208", "key": "toy|y", "text": "FP8 casts cost more than they save."},
                    {"code": "SG205", "match": "val-8 image set", "text": "kept for a later study"}]
    datasets = {**DEFAULT_DATASETS, "held-2": dataset("held-2", "evaluation", 2)}
    study = StudyView(load(tmp_path, records=[record("job", rows)], datasets=datasets,
                           study=spec(waivers=waivers, explanations=explanations)))
    gaps, recorded = printed(study.known_gaps)
    assert gaps == ["Image set held-2 (2 images): not published by the toy source.",
                    "Unstable timing in job job (fp16, 800 x 800): CV 7 % over all samples exceeds 5 %.",
                    "Unstable timing in job job (FP8, 800 x 800): flagged unstable.",
                    "Waived SG203 (toy|x): two jobs differ, kept",
                    "Waived SG207 (findings matching \"kernel time\"): expected outlier",
                    "Waived SG101 (README line 7): range over the rows shown",
                    "Explained SG208 (toy|y): FP8 casts cost more than they save.",
                    "Explained SG205 (findings matching \"val-8 image set\"): kept for a later study"]
    assert [e.kind for e in recorded if e.kind != WRITTEN] == ["gap"] * 8
    # each reason and text is the study file's, printed as written: noted with its field, before the gap holding it
    assert [(e.text, e.source.pointer) for e in recorded if e.kind == WRITTEN] == [
        ("two jobs differ, kept", "/waivers/0/reason"), ("expected outlier", "/waivers/1/reason"),
        ("range over the rows shown", "/waivers/2/reason"),
        ("FP8 casts cost more than they save.", "/explanations/0/text"), ("kept for a later study", "/explanations/1/text")]
    # a measurement key in words (b200-trt11.4.json /results/6: fp16 AP on B200, TensorRT 11.4, held-out set)
    assert detr.describe_key(key) == "fp16 AP, B200, tensorrt=11.4.0.106,cuda=13, coco2017-val-heldout-400"


def test_describe_key_words(tmp_path):
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])]))
    (row,) = study.figures()
    assert study.describe_key(row.key) == "fp16 median, 800 x 800, H200, tensorrt=11.4.0.106,cuda=13.0"
    unspecified = row.key.replace("|median|", "|unspecified|")
    assert study.describe_key(unspecified) == "fp16 latency, 800 x 800, H200, tensorrt=11.4.0.106,cuda=13.0"
    assert study.describe_key("not|a|key") == "not|a|key"
    assert study.describe_key("|" * 14) == ""  # every part empty: nothing to say


def test_a_compiled_figure_of_a_record_without_compilations_prints_alone(tmp_path):
    # a compiled latency that keeps no compilations (an ingested or older record) rests on no count to state;
    # one that kept one compilation says "(1 compilation)" (tests/render/test_pooled_reruns.py)
    rows = [latency("fp16", 5.0, backend="pytorch", mode="compile"), latency("fp8", 5.5, backend="pytorch", mode="compile")]
    study = StudyView(load(tmp_path, records=[record("job", rows)]))
    lines = [" ".join(line.split()) for line in study.compilation_table("fp16", "fp8", mode="compile").splitlines()]
    assert lines[2] == "| 800 x 800 | 5.0 | 5.5 | 0.91x |"  # 5.0 / 5.5 = 0.909


def test_an_unstable_timing_without_a_shape_names_no_shape(tmp_path):
    # issue 22 wording: a run recorded without a shape printed "(fp16, any)"
    shapeless = latency("fp16", 5.0, unstable=True, unstable_reason="CV 9 % over all samples exceeds 5 %")
    del shapeless["shape"]
    study = StudyView(load(tmp_path, records=[record("job", [shapeless, latency("fp8", 4.0, unstable=True)])]))
    gaps, _ = printed(study.known_gaps)
    assert [gap for gap in gaps if gap.startswith("Unstable")] == [
        "Unstable timing in job job (fp16): CV 9 % over all samples exceeds 5 %.",
        "Unstable timing in job job (FP8, 800 x 800): flagged unstable."]


def test_inversions_of_runs_without_a_shape_say_no_shape(tmp_path):
    rows = [latency("fp16", 5.0), latency("fp8", 5.5),
            latency("fp16", 9.0, backend="pytorch", mode="eager"), latency("fp8", 9.9, backend="pytorch", mode="eager")]
    for row in rows:
        del row["shape"]
    study = StudyView(load(tmp_path, records=[record("job", rows)]))
    assert study.precision_inversions() == [
        "FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106: 5.5 ms against 5.0 ms (job job).",
        "FP8 on H200 (eager) is slower than fp16 with 9.9 ms against 9.0 ms."]


def test_a_match_under_known_gaps_is_quoted_without_its_separators(tmp_path):
    # a match is a piece of a finding's message ("kernel time attention: "); printed raw it read
    # "Explained SG207 (kernel time attention: ): ..." (issue 22, generic-template defects)
    explanations = [{"code": "SG207", "match": "kernel time attention: ", "text": "Two stacks, two kernels."}]
    waivers = [{"code": "SG209", "match": "has no revision", "reason": "not published"}]
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])],
                           study=spec(waivers=waivers, explanations=explanations)))
    gaps, _ = printed(study.known_gaps)
    assert gaps[-2:] == ['Waived SG209 (findings matching "has no revision"): not published',
                         'Explained SG207 (findings matching "kernel time attention"): Two stacks, two kernels.']


def test_an_unstable_trtexec_timing_prints_its_coefficient_of_variation_by_the_studys_rule(tmp_path):
    # collect trtexec keeps the log's 6.58751 % as cv 0.0658751 and says who flagged it; a record written before
    # quoted trtexec's own words and digits, and reads the same now. The README prints cv_percent decimals (1, or as set)
    flagged = "trtexec flagged the GPU compute time as unstable (run.log:576)"
    new = latency("fp16", 0.0361328, unstable=True, unstable_reason=flagged, distribution={"cv": 0.0658751})
    old = latency("fp8", 0.0439453, unstable=True, distribution={"cv": 0.443558},
                  unstable_reason="trtexec: GPU compute time is unstable, coefficient of variance 44.3558% (b.log:6475)")
    own = latency("fp32", 0.05, unstable=True, unstable_reason="CV 7.3 % over all samples exceeds 5 %",
                  distribution={"cv": 0.0731})  # a reason that states its own percentage is printed as it is

    def unstable_gaps(folder, **precision):
        study = StudyView(load(tmp_path / folder, records=[record("job", [new, old, own])],
                               study=spec(precision=precision) if precision else None))
        return [gap for gap in printed(study.known_gaps)[0] if gap.startswith("Unstable")]

    assert unstable_gaps("default") == [
        f"Unstable timing in job job (fp16, 800 x 800): coefficient of variation 6.6%; {flagged}.",
        "Unstable timing in job job (FP8, 800 x 800): coefficient of variation 44.4%; trtexec flagged the GPU compute "
        "time as unstable (b.log:6475).",
        "Unstable timing in job job (fp32, 800 x 800): CV 7.3 % over all samples exceeds 5 %."]
    assert [gap.split(": ")[1].split(";")[0] for gap in unstable_gaps("two", cv_percent=2)] == [
        "coefficient of variation 6.59%", "coefficient of variation 44.36%", "CV 7.3 % over all samples exceeds 5 %."]


def test_a_percent_sign_that_states_no_coefficient_of_variation_keeps_it_printed(tmp_path):
    # a log named with a percent sign, or a hand-written reason with one, states no CV: the record's cv is printed
    named = latency("fp16", 0.0361328, unstable=True, distribution={"cv": 0.443558},
                    unstable_reason="trtexec flagged the GPU compute time as unstable (rtx3090_fp16_100%clocks.log:6475)")
    fans = latency("fp8", 0.0439453, unstable=True, distribution={"cv": 0.0658751},
                   unstable_reason="fans held at 100% during the run")
    stated = latency("fp32", 0.05, unstable=True, distribution={"cv": 0.0731},
                     unstable_reason="coefficient of variation 7.3% over 40 repeats")
    study = StudyView(load(tmp_path, records=[record("job", [named, fans, stated])]))
    gaps = [gap for gap in printed(study.known_gaps)[0] if gap.startswith("Unstable")]
    assert gaps == [
        "Unstable timing in job job (fp16, 800 x 800): coefficient of variation 44.4%; trtexec flagged the GPU "
        "compute time as unstable (rtx3090\\_fp16\\_100%clocks.log:6475).",  # escaped as any record text
        "Unstable timing in job job (FP8, 800 x 800): coefficient of variation 6.6%; fans held at 100% during the run.",
        "Unstable timing in job job (fp32, 800 x 800): coefficient of variation 7.3% over 40 repeats."]


def test_repeated_measurements_name_each_tensorrt_release_in_full(tmp_path):
    # two releases of one major.minor are two measurements: cut to "10.13" their lines read alike
    def job(name, tensorrt, value_ms):
        return record(name, [latency("fp16", value_ms)], provenance=collected_provenance(tensorrt=tensorrt))

    study = StudyView(load(tmp_path, records=[job("a", "10.13.3.9", 5.02), job("b", "10.13.3.9", 5.1),
                                              job("c", "10.13.0.35", 6.2), job("d", "10.13.0.35", 6.0)]))
    assert cells(study.repeated_measurements())[1:] == [
        ["fp16 median GPU compute time 800 x 800", "H200", "10.13.3.9", "a: 5.02; b: 5.1", "0.08"],
        ["fp16 median GPU compute time 800 x 800", "H200", "10.13.0.35", "c: 6.2; d: 6.0", "0.2"]]


def test_a_waiver_or_explanation_check_refuses_is_never_listed_as_a_known_gap(tmp_path):
    # new-user trial: check refused these (SG216) yet the README said "Waived SG201 (…): edited by hand" and
    # "Waived SG215 (README line None): …"
    waivers = [{"code": "SG201", "match": "README is stale", "reason": "edited by hand"},
               {"code": "SG215", "match": "", "reason": "we trust the builder"},
               {"code": "SG209", "match": "has no revision", "reason": "not published"}]
    explanations = [{"code": "SG207", "text": "no selector at all"},
                    {"code": "SG207", "match": "kernel time attention", "text": "Two stacks, two kernels."}]
    study = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])],
                           study=spec(waivers=waivers, explanations=explanations)))
    gaps, _ = printed(study.known_gaps)
    assert [g for g in gaps if g.startswith(("Waived", "Explained"))] == [
        'Waived SG209 (findings matching "has no revision"): not published',
        'Explained SG207 (findings matching "kernel time attention"): Two stacks, two kernels.']


def test_an_inversion_the_printed_figures_do_not_show_says_no_faster(tmp_path):
    # the study prints latency to 1 decimal: 5.04 and 5.01 both print 5.0, and "slower ... 5.0 ms against 5.0 ms"
    # stated what its own figures did not show (render's property test found it through lint)
    rows = [latency("fp16", 5.01), latency("fp8", 5.04)]
    study = StudyView(load(tmp_path, records=[record("job", rows)], study=spec(precision={"latency_ms": 1})))
    assert study.precision_inversions() == [
        "FP8 is no faster than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800: 5.0 ms against 5.0 ms (job job)."]


def test_a_repeated_cpu_operator_profile_is_named_as_such(tmp_path):
    # attack: a --cpu study's table called CPU operators' self times "kernel time (ms)", which the README's
    # kernel-time section says they are not
    on_cpu = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, cpu="AMD EPYC")
    a = record("a", [kernel_time("fp32", {"Conv": 5.9}, backend="pytorch", mode="eager")], on_cpu)
    b = record("b", [kernel_time("fp32", {"Conv": 1.5}, backend="pytorch", mode="eager")], on_cpu)
    study = StudyView(load(tmp_path, records=[a, b]))
    assert cells(study.repeated_measurements())[1][:2] == ["fp32 CPU operator self time (ms) Conv 800 x 1067",
                                                           "CPU AMD EPYC"]
