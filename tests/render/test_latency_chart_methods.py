"""Issue 22, item 2: the latency figure plots one timing, split by timing
method as the tables are, names the timing on its y-axis, and leaves no
row with a figure out.

Figures are made up for the tests; each expected value is read off the
records written here. The default provenance is TensorRT 11.4 on an H200,
whose defaults are CUDA graphs on, data transfers off, spin-wait on."""

from __future__ import annotations

import re

from studygen.render.charts import axis_words, latency_chart
from studygen.render.engine import render_markdown

from ..checks.studies import collected_provenance, latency, record
from .test_generic_issue22 import generic

# trtexec before TensorRT 11: no CUDA graphs, host copies timed, no spin-wait (stated in the record's method)
OLD_METHOD = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True, "spin_wait": False}


def without_shape(result: dict) -> dict:
    return {name: value for name, value in result.items() if name != "shape"}


def two_methods(tmp_path):
    """Job old: TensorRT 8.6 with transfers, fp16 0.1526 and fp32 0.1536 ms (and a host latency, which no
    table shows); job new: TensorRT 11.4 defaults, fp32 0.02954 ms at 28 x 28 and 0.03613 ms with no shape."""
    old = record("old", [latency("fp16", 0.1526, "28x28", method=OLD_METHOD),
                         latency("fp32", 0.1536, "28x28", method=OLD_METHOD),
                         latency("fp32", 0.2011, "28x28", method=OLD_METHOD, timing="host_latency")],
                 collected_provenance(gpu="NVIDIA GeForce GTX 1070", tensorrt="8.6.0"))
    new = record("new", [latency("fp32", 0.02954, "28x28"), without_shape(latency("fp32", 0.03613))])
    return generic(tmp_path, [old, new])


def test_each_timing_method_is_a_row_of_panels_headed_as_its_table(tmp_path):
    study = two_methods(tmp_path)
    chart = latency_chart(study)
    methods, panels = chart.draw.args[0], chart.draw.args[1]
    # the row titles are the README's table headings, in the same order (the tables', by job: new, then old)
    headings = [line.rstrip(":") for line in render_markdown(study).splitlines() if line.startswith("Timed as ")]
    assert [title for title, _, _ in methods] == headings == [
        "Timed as TensorRT engine, GPU compute time, CUDA graphs on, data transfers off, spin-wait on",
        "Timed as TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, spin-wait off"]
    assert {key: [value for _, value, _ in points] for key, points in panels.items()} == {
        (0, "28x28", "fp32"): [0.02954], (0, "", "fp32"): [0.03613],
        (1, "28x28", "fp16"): [0.1526], (1, "28x28", "fp32"): [0.1536]}
    # the row without a shape is plotted, in a panel that says so; the host latency is not
    assert [shapes for _, shapes, _ in methods] == [[["28x28", "28 x 28"], ["", "shape not stated"]],
                                                    [["28x28", "28 x 28"]]]
    assert chart.alt == (
        "Median GPU compute time per variant, one row of panels per timing method (2). Timed as TensorRT engine, "
        "GPU compute time, CUDA graphs on, data transfers off, spin-wait on, at 28 x 28: 0.02954 ms over 1 result; "
        "shape not stated: 0.03613 ms over 1 result. Timed as TensorRT engine, GPU compute time, CUDA graphs off, data transfers "
        "on, spin-wait off, at 28 x 28: 0.1526 to 0.1536 ms over 2 results")


def test_the_y_axis_names_the_timing_and_every_row_has_its_own(tmp_path):
    svg = latency_chart(two_methods(tmp_path)).drawing().decode()
    # matplotlib writes each text it draws as paths after a comment holding the text
    texts = re.findall(r"<!-- (.*?) -->", svg)
    assert texts.count("median GPU compute time (ms)") == 2  # one axis per method row, never shared
    assert "latency (ms)" not in texts
    assert "shape not stated" in texts
    assert [t for t in texts if t.startswith("Timed as")] == [
        "Timed as TensorRT engine, GPU compute time, CUDA graphs on,", "Timed as TensorRT engine, GPU compute time, "
        "CUDA graphs off,"]  # wrapped at 60 characters; the second line follows


def test_one_method_has_no_row_title_and_its_alt_text_one_range(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0), latency("fp32", 7.5),
                                            latency("fp32", 9.0, timing="host_latency")])])
    chart = latency_chart(study)
    assert [title for title, _, _ in chart.draw.args[0]] == [""]
    assert chart.alt == "Median GPU compute time per variant at 800 x 800: 5.0 to 7.5 ms over 2 results"


def test_a_method_of_one_result_gives_its_figure_not_a_range(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 0.03882)]),
                               record("b", [latency("fp16", 0.1547, method=OLD_METHOD)])])
    assert latency_chart(study).alt.endswith("spin-wait on, at 800 x 800: 0.03882 ms over 1 result. Timed as "
                                             "TensorRT engine, GPU compute time, CUDA graphs off, data transfers on, "
                                             "spin-wait off, at 800 x 800: 0.1547 ms over 1 result")


def test_points_of_a_method_row_at_several_batches_each_say_their_batch(tmp_path):
    # batch 1 on one GPU, batch 4 on another, one method: in different panels, yet read against each other
    a = record("a", [latency("fp32", 0.03613)])
    b = record("b", [latency("fp16", 0.1547, batch=4)], collected_provenance(gpu="NVIDIA GeForce GTX 1070"))
    panels = latency_chart(generic(tmp_path, [a, b])).draw.args[1]
    assert {key: [label for label, _, _ in points] for key, points in panels.items()} == {
        (0, "800x800", "fp32"): ["H200 TensorRT 11.4 batch 1"],
        (0, "800x800", "fp16"): ["GeForce GTX 1070 TensorRT 11.4 batch 4"]}


def test_axis_words_name_what_the_record_states():
    assert axis_words("median", "gpu_compute") == "median GPU compute time"
    assert axis_words("p99", "host_latency") == "p99 host latency"
    assert axis_words("unspecified", "unspecified") == "latency, timing and statistic not stated"
    assert axis_words("median", "unspecified") == "median latency, timing not stated"
    assert axis_words(None, "end_to_end") == "end-to-end time, statistic not stated"


def test_a_median_and_a_p99_of_one_method_never_share_an_axis(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0), latency("fp16", 6.5, statistic="p99")])])
    chart = latency_chart(study)
    assert [axis for _, _, axis in chart.draw.args[0]] == ["median GPU compute time (ms)", "p99 GPU compute time (ms)"]
    assert chart.alt.startswith("Latencies per variant, one row of panels per timing method (2).")
