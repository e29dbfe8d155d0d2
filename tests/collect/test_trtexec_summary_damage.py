"""Inside trtexec's performance summary, damage is refused and a setting is
never read: what a crafted log did before.

* A known label or statistic name differing only in case or spacing (an em
  space, a no-break space, a space before the colon, two spaces) was named
  as a new one and its figure dropped: a damaged GPU Compute Time line gave
  a record without it. Now refused, one line naming file and line.
* A ``[W]`` or ``[V]`` setting line inside the summary was read (device,
  engine size, throughput); a setting line after the summary's end
  replaced the one trtexec printed before, in silence. Now the first is
  named, not read; a second device, engine size or throughput that
  disagrees is refused (an agreeing repeat is fine).
* Percentile spellings (``90.0%``, ``095%``) made their own keys, and one
  percentile printed twice in two spellings was kept twice.
* A PASSED run whose summary never reached ``Total GPU Compute Time`` was
  read. Now refused as cut short.

Each case edits a copy of the TensorRT 10.16 fixture with lines and
figures of our own (fixture lines read off the file by hand: 103 device,
148 engine size, 567 summary start, 568 throughput, 572 GPU Compute Time,
575 Total GPU Compute Time).
"""

from __future__ import annotations

import pytest

from tests.collect.conftest import assert_refused
from tests.collect.test_trtexec_unknown_labels import (BUILD, BUILD_GPU_LINE, BUILD_GPU_STATS, BUILD_MEDIANS,
                                                       assert_warned, edit, latency, medians)

GPU_LINE_TEXT = BUILD.read_text(encoding="utf-8").split("\n")[BUILD_GPU_LINE - 1]
TOTAL_LINE = 575


def test_the_fixture_lines_are_where_the_cases_say():
    lines = BUILD.read_text(encoding="utf-8").split("\n")
    assert lines[102].endswith("] [I] Selected Device: NVIDIA H100 PCIe")
    assert lines[147].endswith("] [I] Created engine with size: 12.5744 MiB")
    assert lines[566].endswith("] [I] === Performance summary ===")
    assert lines[567].endswith("] [I] Throughput: 15374.3 qps")
    assert lines[TOTAL_LINE - 1].endswith("] [I] Total GPU Compute Time: 1.6586 s")


@pytest.mark.parametrize("label", [
    "GPU\u2003Compute Time",  # an em space between words
    "GPU Compute Time ",  # a space before the colon
    "GPU Compute Time\u00a0",  # a no-break space before the colon
    "GPU compute time",  # another case
    "GPU  Compute Time",  # two spaces
    "gpu computetime",
], ids=["em-space", "space-before-colon", "nbsp-before-colon", "lower-case", "two-spaces", "no-space-lower"])
def test_a_known_timing_label_in_another_case_or_spacing_is_refused(collect, workdir, label):
    damaged = GPU_LINE_TEXT.replace("GPU Compute Time: ", f"{label}: ")
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [damaged], replace=True)
    assert_refused(collect("trtexec", "--log", log),
                   f"new.log:{BUILD_GPU_LINE}: the performance summary of run 1 (line 1) has the label {ascii(label)}, "
                   "which is trtexec's 'GPU Compute Time' printed in another case or spacing", "nothing recorded")


@pytest.mark.parametrize("message, known", [
    ("Total GPU\u2003Compute Time: 1.6586 s", "Total GPU Compute Time"),
    ("THROUGHPUT: 15374.3 qps", "Throughput"),
    ("Total Host Walltime : 3.00013 s", "Total Host Walltime"),
], ids=["total-em-space", "throughput-upper", "walltime-space-before-colon"])
def test_a_known_fixed_line_in_another_case_or_spacing_is_refused(collect, workdir, message, known):
    at = {"Throughput": 568, "Total Host Walltime": 574}.get(known, TOTAL_LINE)
    log = edit(workdir, BUILD, at, [message], replace=True)
    assert_refused(collect("trtexec", "--log", log), f"new.log:{at}: ", f"which is trtexec's {known!r} printed",
                   "nothing recorded")


@pytest.mark.parametrize("before, after", [
    ("mean = ", "mean  = "),  # two spaces
    ("median = ", "median\u00a0 = "),  # a no-break space
    ("mean = ", "Mean = "),
    ("median = ", "MEDIAN = "),
    ("max = ", "max\u2003 = "),
], ids=["mean-two-spaces", "median-nbsp", "Mean", "MEDIAN", "max-em-space"])
def test_a_known_statistic_in_another_case_or_spacing_is_refused(collect, workdir, before, after):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [GPU_LINE_TEXT.replace(before, after)], replace=True)
    name = after[:-3]
    assert_refused(collect("trtexec", "--log", log), f"new.log:{BUILD_GPU_LINE}: the GPU Compute Time line",
                   f"has the item {ascii(name + ' = ')[:-1]}", "which is no 'statistic = figure ms'")


@pytest.mark.parametrize("severity, message, label", [
    ("W", "Selected Device: NVIDIA Q900 Test", "Selected Device"),
    ("V", "Created engine with size: 0.875 MiB", "Created engine with size"),
    ("W", "Throughput: 123456 qps", "Throughput"),
], ids=["device", "engine-size", "throughput"])
def test_a_setting_line_of_another_severity_inside_the_summary_is_named_not_read(collect, workdir, severity,
                                                                                 message, label):
    stamp = GPU_LINE_TEXT[:GPU_LINE_TEXT.index("] [") + 1]
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [f"{stamp} [{severity}] {message}"]))
    assert_warned(done, f"the label {label!r} (line {BUILD_GPU_LINE + 1})")
    assert done.record["provenance"]["gpu"] == "NVIDIA H100 PCIe"
    assert [r["value_mib"] for r in done.kind("plan_size")] == [12.5744]
    assert medians(done) == BUILD_MEDIANS


@pytest.mark.parametrize("message, words", [
    ("Selected Device: NVIDIA Q900 Test", "prints its device twice, 'NVIDIA H100 PCIe' on line 103 and "
                                          "'NVIDIA Q900 Test' on line 576"),
    ("Created engine with size: 0.875 MiB", "prints its engine size (MiB) twice, 12.5744 on line 148 and 0.875 on "
                                            "line 576"),
    ("Throughput: 123456 qps", "prints its throughput (qps) twice, 15374.3 on line 568 and 123456 on line 576"),
], ids=["device", "engine-size", "throughput"])
def test_a_setting_after_the_summary_that_disagrees_is_refused(collect, workdir, message, words):
    log = edit(workdir, BUILD, TOTAL_LINE, [message])
    assert_refused(collect("trtexec", "--log", log), "new.log:576: run 1 (line 1) ", words, "nothing recorded")


def test_a_setting_after_the_summary_that_agrees_changes_nothing(collect, workdir):
    log = edit(workdir, BUILD, TOTAL_LINE, ["Selected Device: NVIDIA H100 PCIe",
                                            "Created engine with size: 12.5744 MiB", "Throughput: 15374.3 qps"])
    done = collect("trtexec", "--log", log)
    assert (done.exit_code, done.err) == (0, "")
    assert done.record["provenance"]["gpu"] == "NVIDIA H100 PCIe"
    # the first printing is the one cited
    assert [(r["value_mib"], r["source_locator"]) for r in done.kind("plan_size")] == [(12.5744, "new.log:148")]


@pytest.mark.parametrize("spelling", ["90.0", "090", "90.00"], ids=["90.0", "090", "90.00"])
def test_a_percentile_is_one_key_however_it_is_spelled(collect, workdir, spelling):
    line = GPU_LINE_TEXT.replace("percentile(90%)", f"percentile({spelling}%)")
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [line], replace=True))
    assert (done.exit_code, done.err) == (0, "")
    assert latency(done, "gpu_compute")["statistics_ms"] == BUILD_GPU_STATS


@pytest.mark.parametrize("item, words", [
    ("percentile(99.00%) = 0.0625 ms", "prints percentile(99.00%) twice (0.041748 ms, then 0.0625 ms)"),
    ("percentile(95.0%) = 0.0371094 ms", "prints percentile(95.0%) twice"),
    ("percentile(+99.9%) = 0.0625 ms", "names percentile '+99.9', which is no percentage in (0, 100]"),
    ("percentile(0%) = 0.03125 ms", "names percentile '0', which is no percentage in (0, 100]"),
    ("percentile(1e1%) = 0.03125 ms", "names percentile '1e1', which is no percentage"),
], ids=["99-twice", "95-twice-same-figure", "signed", "zero", "exponent"])
def test_a_percentile_printed_twice_or_signed_is_refused(collect, workdir, item, words):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"{GPU_LINE_TEXT}, {item}"], replace=True)
    assert_refused(collect("trtexec", "--log", log), f"new.log:{BUILD_GPU_LINE}: the GPU Compute Time line ", words)


def test_a_passed_run_whose_summary_never_ends_is_refused(collect, workdir):
    # the Total GPU Compute Time line dropped; the [W] lines and &&&& PASSED after it kept
    log = edit(workdir, BUILD, TOTAL_LINE, [], replace=True)
    assert_refused(collect("trtexec", "--log", log),
                   "new.log:567: the performance summary of run 1 (line 1) never reaches its end",
                   "before '&&&& PASSED': the summary is cut short", "nothing recorded")


def test_a_passed_run_whose_summary_stops_at_a_new_label_is_refused(collect, workdir):
    # the summary's last three lines replaced by one unknown line: it is named, but the end is still missing
    lines = BUILD.read_text(encoding="utf-8").split("\n")
    stamp = GPU_LINE_TEXT[:GPU_LINE_TEXT.index("] [") + 5]
    lines[BUILD_GPU_LINE:TOTAL_LINE] = [stamp + "Queue Depth: 4"]
    (workdir / "new.log").write_text("\n".join(lines), encoding="utf-8")
    assert_refused(collect("trtexec", "--log", workdir / "new.log"), "new.log:567: ", "never reaches its end")
