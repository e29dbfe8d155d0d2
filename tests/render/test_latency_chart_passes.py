"""The latency chart names each row's timing once (studygen/render/charts.py:
a group's timing names serve its heading, axis and alt text) and labels a
point by its platform once per platform; the chart is as before (read off
the records written here; figures made up for the test)."""

from __future__ import annotations

from studygen.render import charts
from studygen.study import timing

from ..checks.studies import collected_provenance, latency, record
from .test_generic_issue22 import generic

EVENTS = {"timer": "cuda-events"}  # GPU compute timed by CUDA events: named "CUDA-event time per forward"


def study_of_three_platforms(tmp_path):
    """fp16 on three platforms (two TensorRT versions of the H200, one L4), one job timed by CUDA events."""
    jobs = [("a", "NVIDIA H200", "11.4.0.106", 5.0, None), ("b", "NVIDIA H200", "10.13.3.9", 5.2, None),
            ("c", "NVIDIA L4", "11.4.0.106", 9.1, EVENTS), ("d", "NVIDIA L4", "11.4.0.106", 9.3, None)]
    records = [record(job, [latency("fp16", value, method=dict(method or {"timer": "trtexec"}))],
                      collected_provenance(gpu=gpu, tensorrt=version)) for job, gpu, version, value, method in jobs]
    return generic(tmp_path, records)


def test_each_row_is_named_once_and_each_platform_labelled_once(tmp_path, monkeypatch):
    study = study_of_three_platforms(tmp_path)
    named, labelled = [], []
    timing_name, job_label = timing.timing_name, charts._job_label
    # the chart names rows through timing.timing_names, which asks the timing module's timing_name
    monkeypatch.setattr(timing, "timing_name", lambda row: named.append(row.job_id) or timing_name(row))
    monkeypatch.setattr(charts, "_job_label", lambda row: labelled.append(row.job_id) or job_label(row))
    chart = charts.latency_chart(study)
    assert sorted(named) == ["a", "b", "c", "d"]  # before: each three times
    assert sorted(labelled) == ["a", "b", "c"]  # d shares c's platform; before: every row
    methods, panels = chart.draw.args[0], chart.draw.args[1]
    # TensorRT 10's defaults (no CUDA graphs, transfers timed) make b a method of its own
    assert {key: [label for label, _, _ in points] for key, points in panels.items()} == {
        (0, "800x800", "fp16"): ["H200 TensorRT 11.4", "L4 TensorRT 11.4 c", "L4 TensorRT 11.4 d"],
        (1, "800x800", "fp16"): ["H200 TensorRT 10.13"]}
    # two timers in the first method: both named, in row order, in its heading and on its axis
    assert [(title, axis) for title, _, axis in methods] == [
        ("Timed as TensorRT engine, GPU compute time and CUDA-event time per forward, CUDA graphs on, data transfers "
         "off, spin-wait on", "median GPU compute time and CUDA-event time per forward (ms)"),
        ("Timed as TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off",
         "median GPU compute time (ms)")]
    # two timings named on the rows: the alt text says "latencies"
    assert chart.alt.startswith("Latencies per variant, one row of panels per timing method (2). Timed as TensorRT "
                                "engine, GPU compute time and CUDA-event time per forward, CUDA graphs on")
    assert chart.alt.endswith("at 800 x 800: 5.0 to 9.3 ms over 3 results. Timed as TensorRT engine, GPU compute "
                              "time, CUDA graphs off, data transfers on, spin-wait off, at 800 x 800: 5.2 ms over 1 result")


def test_one_timing_named_on_every_row_heads_the_alt_text(tmp_path):
    records = [record(job, [latency("fp16", value)], collected_provenance(gpu=gpu))
               for job, gpu, value in (("a", "NVIDIA H200", 5.0), ("b", "NVIDIA L4", 9.1))]
    chart = charts.latency_chart(generic(tmp_path, records))
    assert chart.alt == "Median GPU compute time per variant at 800 x 800: 5.0 to 9.1 ms over 2 results"
