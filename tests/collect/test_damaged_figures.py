"""A trtexec log line that is recognised by its words but whose figure is
damaged (a NUL byte, a right-to-left override, a letter in the digits) is
refused naming the file and line: before, the line was left unread and its
result, throughput, warm-up count or instability flag vanished from the
record with exit 0.

Each case edits one line of a copy of a fixture log in the test's folder;
the line numbers were read off the fixtures by hand.
"""

from __future__ import annotations

import pytest

from tests.collect.conftest import TRTEXEC, assert_refused

UNSTABLE = TRTEXEC / "trt8.6_unstable-gpu-compute.log"
BUILD = TRTEXEC / "trt10.16_build-and-run.log"
TRT7 = TRTEXEC / "trt7_resnet50-int8_console.log"
PROFILE = TRTEXEC / "trt10.16_dump-profile.log"


def damaged(workdir, source, line: int, old: str, new: str):
    """A copy of ``source`` with ``old`` replaced by ``new`` on line ``line`` (1-based) only."""
    lines = source.read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path = workdir / "damaged.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


CASES = [
    # (fixture, line, printed text, damaged text, words the refusal holds)
    (UNSTABLE, 6468, "median = 0.0517578 ms", "median = 0.0517\x00578 ms", "the Latency median is '0.0517\\x00578'"),
    (UNSTABLE, 6468, "median = 0.0517578 ms", "median = 0.0517\u202e578 ms", "which is no number"),
    (UNSTABLE, 6471, "percentile(99%) = 0.0521851", "percentile(99%) = 0.05\x0021851", "the GPU Compute Time p99"),
    (UNSTABLE, 6470, "mean = 0.00427174 ms", "mean = 0.0042x7174 ms", "the H2D Latency mean"),
    (UNSTABLE, 6469, "min = 0.0224609 ms", "min = 0.0224609\x00 ms", "the Enqueue Time min"),
    (UNSTABLE, 6472, "max = 0.0254517 ms", "max = 0.02 54517 ms", "the D2H Latency max"),
    (UNSTABLE, 6468, "median = 0.0517578 ms", "med\x00ian = 0.0517578 ms", "the Latency line of the performance summary"),
    (UNSTABLE, 6468, "percentile(90%)", "percentile(9\x000%)", "names percentile '9\\x000'"),
    (UNSTABLE, 6468, "Latency: min", "Late\u202ency: min", "statistics under the label"),
    (UNSTABLE, 6467, "Throughput: 21009.2 qps", "Throughput: 2100\x009.2 qps", "the throughput is"),
    (UNSTABLE, 6475, "variance = 44.3558%", "variance = 44.3\u202e558%", "the GPU compute coefficient of variance"),
    (BUILD, 148, "size: 12.5744 MiB", "size: 12.57O44 MiB", "the engine size"),
    (BUILD, 160, "completed 3057 queries", "completed 30\u202e57 queries", "the warm-up query count is '30\\u202e57'"),
    (BUILD, 161, "has 46125 queries", "has 461\u202e25 queries", "the timed query count"),
    (TRT7, 28, "Batch: 1", "Batch: 1\u202e", "the batch is"),
    (TRT7, 162, "median: 3.09796 ms", "median: 3.09\x00796 ms", "the host_latency median"),
    (TRT7, 163, "(end to end 3.47168 ms", "(end to end 3.47\u202e168 ms", "the end_to_end p99"),
    (TRT7, 175, "percentile: 3.41711 ms", "percentile: 3.41 711 ms", "the gpu_compute p99"),
    (TRT7, 175, "at 99%", "at 9\x009%", "names percentile"),
    (TRT7, 172, "max: 5.56586 ms", "max: 5.56586\x00", "the gpu_compute max line does not read as 'X ms'"),
    (PROFILE, 86, "193.50", "193.\u202e50", "the --dumpProfile table of run 1 (line 1) has the line"),
    (PROFILE, 100, "1529.13", "152\u202e9.13", "no row of 4 figures and a layer"),
]


def case_id(case) -> str:
    """``trt7_resnet50-int8_console.log-175-2``: fixture, line and the case's index, printable (a NUL or
    U+202E in a test id would not select the test by name)."""
    return f"{case[0].name}-{case[1]}-{CASES.index(case)}"


@pytest.mark.parametrize("source, line, old, new, words", CASES, ids=[case_id(c) for c in CASES])
def test_a_damaged_figure_is_refused_at_its_line(collect, workdir, source, line, old, new, words):
    log = damaged(workdir, source, line, old, new)
    assert_refused(collect("trtexec", "--log", log), f"damaged.log:{line}: ", words, "nothing recorded")


def test_the_undamaged_copy_collects(collect, workdir):
    # the same edit with the printed text itself: the copy reads, so each refusal above is the damage's
    log = damaged(workdir, UNSTABLE, 6468, "median = 0.0517578 ms", "median = 0.0517578 ms")
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert [r["value_ms"] for r in done.results if r.get("timing") == "host_latency"] == [0.0517578]


def test_a_warning_inside_the_profile_table_is_still_left_alone(collect, workdir):
    # a [W] line between the table's rows is no row and no damage: the table reads as before
    log = damaged(workdir, PROFILE, 86, "[I]      193.50", "[W] a warning printed here\n[07/07/2026-02:11:43] [I]      193.50")
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert done.kind("kernel_time")


def test_a_long_damaged_item_is_shown_cut_to_80_characters(collect, workdir):
    # a damaged statistic name (the item reads as no statistic): 81 characters show as the first 77 and "...",
    # 80 show whole
    for length, shown in ((81, "med\x00ian = " + "9" * 67 + "..."), (80, "med\x00ian = " + "9" * 67 + " ms")):
        item = "med\x00ian = " + "9" * (length - 13) + " ms"
        assert len(item) == length
        log = damaged(workdir, UNSTABLE, 6468, "median = 0.0517578 ms", item)
        assert_refused(collect("trtexec", "--log", log), f"has the item {shown!r}, which is no 'statistic = figure ms'")


def test_a_line_of_other_output_inside_the_log_is_left_alone(collect, workdir):
    # a line no trtexec prefix starts (another program's output) before the summary: the rest is still read
    log = damaged(workdir, BUILD, 150, "[I]", "[I]")
    lines = log.read_text(encoding="utf-8").split("\n")
    log.write_text("\n".join(lines[:150] + ["another program printed this line"] + lines[150:]), encoding="utf-8")
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    # line 569 of the fixture: Latency median = 0.0440674 ms
    assert [r["value_ms"] for r in done.results if r.get("timing") == "host_latency"] == [0.0440674]


def test_json_given_as_the_log_is_named_as_json(collect, workdir):
    times = workdir / "times.json"
    times.write_text('[{"startEnqMs": 0.1, "endEnqMs": 0.2}]\n')
    assert_refused(collect("trtexec", "--log", times), "times.json: this is JSON, not a trtexec console log")
