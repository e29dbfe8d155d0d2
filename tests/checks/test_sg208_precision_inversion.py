"""SG208 (warning): a lower-precision variant slower than a higher one at the same shape."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg208_precision_inversion
from studygen.findings import WARNING
from studygen.study.analyses import precision_inversions

from .studies import codes, collected_provenance, latency, load, readme_lines, record


def test_fp16_slower_than_fp32_is_a_warning_and_a_side_finding(tmp_path):
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n## Side findings\n\n"
                "{% for line in study.precision_inversions() %}\n- {{ line }}\n{% endfor %}\n")
    records = [record("job", [latency("fp32", 13.99, "800x1067"), latency("fp16", 14.747, "800x1067"),
                              latency("fp16", 5.889), latency("fp32", 9.5)])]
    study = load(tmp_path, records=records, template=template)
    findings = codes(sg208_precision_inversion.check(CheckContext(study)), "SG208")
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity == WARNING and finding.pointer == "/results/1/value_ms"
    assert "fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job)" in finding.message and "800x1067" in finding.message
    # the README prints 14.747 (collected) to 4 significant digits; the finding quotes the record
    assert ("- fp16 is slower than fp32 on H200 with TensorRT 11.4.0.106 at 800 x 1067: 14.75 ms against 13.99 ms "
            "(job job)."
            in readme_lines(study))


def test_other_gpu_or_faster_lower_precision_passes(tmp_path):
    records = [record("a", [latency("fp32", 13.99, "800x1067")], collected_provenance("NVIDIA B200")),
               record("b", [latency("fp16", 14.747, "800x1067")], collected_provenance("NVIDIA B300")),
               record("c", [latency("fp32", 9.5), latency("fp16", 5.889)])]
    study = load(tmp_path, records=records)
    assert sg208_precision_inversion.check(CheckContext(study)) == []


def _inversion(tmp_path, provenance=None):
    records = [record("job", [latency("fp32", 13.99, "800x1067"), latency("fp16", 14.747, "800x1067")], provenance)]
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path, records=records)))
    assert finding.hint == "render lists it under side findings; explain it if it is expected"
    return finding.message


def test_the_message_names_the_gpu_and_versions_or_says_they_are_not_stated(tmp_path):
    assert _inversion(tmp_path / "a") == ("fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job) on "
                                          "NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0, 800x1067, batch 1, median GPU "
                                          "compute time")
    unstated = collected_provenance(gpu=None)
    unstated["software"] = {}
    assert _inversion(tmp_path / "b", unstated) == ("fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job) "
                                                    "on GPU not stated, versions not stated, 800x1067, batch 1, "
                                                    "median GPU compute time")


def test_equal_latency_is_no_inversion(tmp_path):
    # 9.50 ms at both precisions: fp16 is not slower than fp32
    records = [record("job", [latency("fp32", 9.5), latency("fp16", 9.5), latency("fp16", 9.51, "800x1067"),
                              latency("fp32", 9.5, "800x1067")])]
    pairs = precision_inversions(load(tmp_path, records=records))
    assert [(low.value, high.value, low.shape) for low, high in pairs] == [(9.51, 9.5, "800x1067")]


def test_inversions_are_listed_by_gpu_then_shape(tmp_path):
    # Written 800x800 first and on a named GPU first; listed GPU-not-stated first, then by shape text.
    unstated = collected_provenance(gpu=None)
    records = [record("named", [latency("fp32", 9.0), latency("fp16", 9.9), latency("fp32", 12.0, "800x1067"),
                                latency("fp16", 13.0, "800x1067")]),
               record("unstated", [latency("fp32", 7.0), latency("fp16", 7.7)], unstated)]
    pairs = precision_inversions(load(tmp_path, records=records))
    assert [(low.job_id, low.shape) for low, _ in pairs] == [
        ("unstated", "800x800"), ("named", "800x1067"), ("named", "800x800")]


def test_latencies_timed_differently_are_no_inversion(tmp_path):
    # fp32 13.99 ms without CUDA graphs in job a, fp16 14.747 ms with them in job b: the gap mixes precision and
    # timing (SG212), so neither is slower at the same timing method; before, SG208 warned "fp16 (14.747 ms, job b)
    # is slower than fp32 (13.99 ms, job a)". Timed alike, the pair is the inversion it was
    off, on = {"timer": "trtexec", "cuda_graph": False}, {"timer": "trtexec", "cuda_graph": True}
    records = [record("a", [latency("fp32", 13.99, "800x1067", method=off)]),
               record("b", [latency("fp16", 14.747, "800x1067", method=on)])]
    assert sg208_precision_inversion.check(CheckContext(load(tmp_path / "mixed", records=records))) == []
    records[1] = record("b", [latency("fp16", 14.747, "800x1067", method=off)])
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path / "alike", records=records)))
    assert finding.message.startswith("fp16 (14.747 ms, job b) is slower than fp32 (13.99 ms, job a)")


TRTEXEC_TIMINGS = ("gpu_compute", "host_latency", "enqueue", "h2d", "d2h")


def _trtexec_run(variant: str, shape: str, batch: int, figures: tuple) -> list[dict]:
    """The five timings trtexec prints for one run, ``figures`` in :data:`TRTEXEC_TIMINGS` order (ms)."""
    return [latency(variant, value, shape, timing=timing, batch=batch) for timing, value in zip(TRTEXEC_TIMINGS, figures)]


def test_copy_and_enqueue_times_are_no_precision_claim(tmp_path):
    # fp16's compute 4.21 ms and host latency 5.96 ms beat fp32's 6.80 and 8.47; its output copy (0.0131 vs
    # 0.0112 ms) and enqueue time (0.412 vs 0.377 ms) do not: work the precision does not change, no inversion
    records = [record("job", _trtexec_run("fp32", "640x640", 8, (6.8, 8.47, 0.377, 0.81, 0.0112))
                      + _trtexec_run("fp16", "640x640", 8, (4.21, 5.96, 0.412, 0.81, 0.0131)))]
    study = load(tmp_path, records=records)
    assert precision_inversions(study) == []
    assert sg208_precision_inversion.check(CheckContext(study)) == []


def test_one_finding_per_run_naming_its_batch_and_timing(tmp_path):
    # fp16 slower than fp32 in GPU compute time at batch 1 (2.43 vs 2.31 ms) and batch 8 (17.9 vs 17.2 ms), and in
    # host latency too (2.71 vs 2.60, 19.4 vs 18.8): one finding per batch, on the compute timing, told apart
    records = [record("job", _trtexec_run("fp32", "1280x1280", 1, (2.31, 2.6, 0.3, 0.2, 0.01))
                      + _trtexec_run("fp16", "1280x1280", 1, (2.43, 2.71, 0.3, 0.2, 0.01))
                      + _trtexec_run("fp32", "1280x1280", 8, (17.2, 18.8, 0.3, 1.5, 0.05))
                      + _trtexec_run("fp16", "1280x1280", 8, (17.9, 19.4, 0.3, 1.5, 0.05)))]
    findings = sg208_precision_inversion.check(CheckContext(load(tmp_path, records=records)))
    where = "on NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0, 1280x1280"
    assert [(f.pointer, f.message) for f in findings] == [
        ("/results/5/value_ms", f"fp16 (2.43 ms, job job) is slower than fp32 (2.31 ms, job job) {where}, batch 1, "
                                "median GPU compute time"),
        ("/results/15/value_ms", f"fp16 (17.9 ms, job job) is slower than fp32 (17.2 ms, job job) {where}, batch 8, "
                                 "median GPU compute time")]


def test_a_run_without_gpu_compute_time_is_judged_by_the_timing_it_gives(tmp_path):
    from studygen.study.timing import compute_rows

    # collect run without a CUDA timer writes end-to-end time only (fp16 31.4 vs fp32 30.9 ms: an inversion);
    # a run giving GPU compute time too is judged by that (fp16 12.0 vs fp32 12.5 ms: none), not by its
    # end-to-end time (fp16 14.1 vs fp32 13.9 ms)
    records = [record("cpu-timed", [latency("fp32", 30.9, timing="end_to_end"), latency("fp16", 31.4, timing="end_to_end")]),
               record("gpu-timed", [latency("fp32", 12.5, "640x640"), latency("fp16", 12.0, "640x640"),
                                    latency("fp32", 13.9, "640x640", timing="end_to_end"),
                                    latency("fp16", 14.1, "640x640", timing="end_to_end")])]
    study = load(tmp_path, records=records)
    assert [(low.value, high.value, low.metric) for low, high in precision_inversions(study)] == [
        (31.4, 30.9, "end_to_end")]
    assert [r.value for r in compute_rows(study.rows)] == [30.9, 31.4, 12.5, 12.0]


def test_compute_rows_prefer_the_most_specific_timing_of_each_run(tmp_path):
    from studygen.study.timing import compute_rows

    # one run: host latency and end-to-end, no GPU compute time; another: a transcribed figure only; the copies
    # alone are no run's compute timing
    records = [record("a", [latency("fp16", 3.3, timing="end_to_end"), latency("fp16", 3.1, timing="host_latency"),
                            latency("fp16", 0.2, timing="h2d")]),
               record("b", [latency("fp16", 2.9, timing="unspecified"), latency("fp32", 0.01, "640x640", timing="d2h")])]
    study = load(tmp_path, records=records)
    assert [(r.job_id, r.metric) for r in compute_rows(study.rows)] == [("a", "host_latency"), ("b", "unspecified")]


def test_a_run_is_its_job_configuration_and_method_whatever_the_statistic(tmp_path):
    from studygen.study.timing import compute_rows

    # one run gives GPU compute time as median only and host latency as median and p99: its compute timing is the
    # GPU compute median, the host latency p99 is not a run of its own. The same engine timed again with CUDA
    # graphs (the only flag that differs), giving host latency only, is another run, judged by that host latency
    classic = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}
    graphs = dict(classic, cuda_graph=True)
    records = [record("job", [latency("fp16", 4.2, method=classic),
                              latency("fp16", 4.6, timing="host_latency", method=classic),
                              latency("fp16", 5.6, timing="host_latency", statistic="p99", method=classic),
                              latency("fp16", 3.9, timing="host_latency", method=graphs)])]
    study = load(tmp_path, records=records)
    assert [(r.value, r.metric, r.statistic) for r in compute_rows(study.rows)] == [
        (4.2, "gpu_compute", "median"), (3.9, "host_latency", "median")]


def test_a_latency_without_a_shape_says_so(tmp_path):
    fp32, fp16 = latency("fp32", 13.99), latency("fp16", 14.747)
    del fp32["shape"], fp16["shape"]
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path, records=[record("job", [fp32, fp16])])))
    assert finding.message.endswith("on NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0, shape not stated, batch 1, "
                                    "median GPU compute time")


def test_the_side_findings_list_what_sg208_reports(tmp_path):
    # one run per variant with an inversion in host latency only (fp16 2.71 vs fp32 2.60 ms; compute 2.20 vs
    # 2.31 ms) and another in GPU compute time only at 960x960 (fp16 5.5 vs fp32 5.4 ms; host latency 5.9 vs 6.0)
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n## Side findings\n\n"
                "{% for line in study.precision_inversions() %}\n- {{ line }}\n{% endfor %}\n")
    records = [record("job", _trtexec_run("fp32", "640x640", 1, (2.31, 2.6, 0.3, 0.2, 0.01))
                      + _trtexec_run("fp16", "640x640", 1, (2.2, 2.71, 0.3, 0.2, 0.01))
                      + _trtexec_run("fp32", "960x960", 1, (5.4, 6.0, 0.3, 0.2, 0.01))
                      + _trtexec_run("fp16", "960x960", 1, (5.5, 5.9, 0.3, 0.2, 0.01)))]
    study = load(tmp_path, records=records, template=template)
    (finding,) = sg208_precision_inversion.check(CheckContext(study))
    assert "fp16 (5.5 ms, job job) is slower than fp32 (5.4 ms, job job)" in finding.message
    assert [line for line in readme_lines(study) if line.startswith("- ")] == [
        "- fp16 is slower than fp32 on H200 with TensorRT 11.4.0.106 at 960 x 960: 5.5 ms against 5.4 ms (job job)."]


def test_rows_of_two_jobs_are_not_paired_where_a_job_measured_both(tmp_path):
    # a user's GPU trial, one platform: job a fp16 5.0 / FP8 4.0 ms, job b fp16 6.0 / FP8 5.5 ms. Each job's own FP8
    # is faster; across jobs, b's FP8 5.5 against a's fp16 5.0 read as an inversion
    records = [record("a", [latency("fp16", 5.0), latency("fp8", 4.0)]),
               record("b", [latency("fp16", 6.0), latency("fp8", 5.5)])]
    study = load(tmp_path / "cross", records=records)
    assert precision_inversions(study) == []
    assert sg208_precision_inversion.check(CheckContext(study)) == []
    # an inversion inside one job is still one, with another job beside it: job c's FP8 7.0 against its fp16 6.5
    records.append(record("c", [latency("fp16", 6.5), latency("fp8", 7.0)]))
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path / "within", records=records)))
    assert finding.message.startswith("fp8 (7.0 ms, job c) is slower than fp16 (6.5 ms, job c) on NVIDIA H200")
    assert finding.file == "measurements/toy/c.json" and finding.pointer == "/results/1/value_ms"


def test_rows_of_two_jobs_are_paired_where_no_job_measured_both(tmp_path):
    # the seed's shape: the fp32 engine timed in a job of its own (13.99 ms), fp16 in another (14.747 ms): the
    # only comparison the records hold
    records = [record("fp16-job", [latency("fp16", 14.747, "800x1067")]),
               record("fp32-engine", [latency("fp32", 13.99, "800x1067")])]
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path, records=records)))
    assert finding.message.startswith("fp16 (14.747 ms, job fp16-job) is slower than fp32 (13.99 ms, job fp32-engine)")


def test_compute_rows_make_each_rows_run_once(tmp_path, monkeypatch):
    from studygen.study import timing

    # 2 runs of 2 timings each and a copy time (not a compute timing, never asked its run): 4 rows asked once each
    records = [record("a", [latency("fp16", 3.3, timing="end_to_end"), latency("fp16", 3.1, timing="host_latency"),
                            latency("fp16", 0.2, timing="h2d")]),
               record("b", [latency("fp16", 2.9), latency("fp16", 3.4, timing="end_to_end")])]
    study = load(tmp_path, records=records)
    asked = []
    run_of = timing.run_of
    monkeypatch.setattr(timing, "run_of", lambda row: asked.append(row.value) or run_of(row))
    assert [(r.job_id, r.value) for r in timing.compute_rows(study.rows)] == [("a", 3.1), ("b", 2.9)]
    assert sorted(asked) == [2.9, 3.1, 3.3, 3.4]


def test_a_group_with_no_inversion_between_two_jobs_lists_no_jobs_variants(tmp_path, monkeypatch):
    """Which variants a job measured together is asked only for a pair of two
    jobs that inverts: a lone row, or a lower precision that is faster,
    asks nothing; an inversion between jobs still asks, and is found."""
    from studygen.study import analyses

    records = [record("a", [latency("fp16", 5.0), latency("fp8", 4.0), latency("fp16", 7.0, "640x640")]),
               record("b", [latency("fp8", 4.5)])]
    study = load(tmp_path, records=records)
    monkeypatch.setattr(analyses, "_measured_together", lambda rows: pytest.fail("asked a job's variants"))
    assert analyses.precision_inversions(study) == []
    inverted = load(tmp_path / "inverted", records=[record("a", [latency("fp16", 5.0)]), record("b", [latency("fp8", 5.5)])])
    asked = []
    monkeypatch.setattr(analyses, "_measured_together", lambda rows: asked.append(len(rows)) or set())
    assert [(low.value, high.value) for low, high in analyses.precision_inversions(inverted)] == [(5.5, 5.0)]
    assert asked == [2]


def test_pairs_of_one_configuration_past_ten_make_one_finding(tmp_path):
    # 12 jobs timed fp16 alone (6.01 ... 6.12 ms), 12 others fp32 alone (4.51 ... 4.62 ms): no job measured both,
    # so each fp16 row pairs with each fp32 row, 144 pairs; the old check made a finding of each (400 jobs of
    # each: 160,000 findings, 300 MB; 800: 640,000 findings, 1 GB)
    records = [record(f"h{i:02d}", [latency("fp16", round(6.01 + i / 100, 2))]) for i in range(12)]
    records += [record(f"f{i:02d}", [latency("fp32", round(4.51 + i / 100, 2))]) for i in range(12)]
    study = load(tmp_path, records=records)
    assert len(precision_inversions(study)) == 144
    findings = codes(sg208_precision_inversion.check(CheckContext(study)), "SG208")
    assert len(findings) == sg208_precision_inversion.MAX_LISTED + 1 == 11
    listed, summary = findings[:10], findings[10]
    assert all(" is slower than fp32 (" in finding.message for finding in listed)
    assert summary.message.startswith("fp16 is slower than fp32 in 134 more pairs of rows on NVIDIA H200, ")
    assert summary.message.endswith(", not listed one by one: fp16 6.01 to 6.12 ms (12 rows) against fp32 4.51 "
                                    "to 4.62 ms (12 rows)")
    assert summary.severity == WARNING and summary.pointer == "/results/0/value_ms"
