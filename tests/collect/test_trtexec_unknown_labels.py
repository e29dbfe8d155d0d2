"""A performance-summary label or statistic that the log reader does not know
(one a later TensorRT may add) is not read, and does not cost the figures
it knows: they are recorded, and one warning, on stderr and among the
record's provenance notes, names what was left unread and where. Before,
any such label refused the whole log, so one new trtexec summary line would
have made every log it writes uncollectable.

What must not happen: a label that looks like a known one (a suffix, a
prefix, another case, a Cyrillic letter) read as the known timing; a
damaged known label or statistic passing as a new one; a cut log read.

Each case edits a copy of a shared fixture log in the test's folder, with
labels and figures of our own; the fixture figures below were read off the
files by hand.
"""

from __future__ import annotations

import pytest

from studygen.commands.collect.options import IngestOptions
from studygen.commands.collect.trtexec import TrtexecOptions, run_trtexec
from tests.collect.conftest import TRTEXEC, assert_refused

BUILD = TRTEXEC / "trt10.16_build-and-run.log"  # TensorRT 10.16.1
UNSTABLE = TRTEXEC / "trt8.6_unstable-gpu-compute.log"  # TensorRT 8.6
NO_TRANSFERS = TRTEXEC / "trt10.16_no-data-transfers.log"
# the medians (ms) of each fixture's summary, and the line of its GPU Compute Time
BUILD_MEDIANS = {"host_latency": 0.0440674, "enqueue": 0.0267334, "h2d": 0.00378418, "gpu_compute": 0.0361328,
                 "d2h": 0.00415039}
UNSTABLE_MEDIANS = {"host_latency": 0.0517578, "enqueue": 0.0253906, "h2d": 0.00415039, "gpu_compute": 0.0439453,
                    "d2h": 0.00366211}
BUILD_GPU_LINE, UNSTABLE_GPU_LINE = 572, 6471
BUILD_GPU_STATS = {"min": 0.0331421, "max": 0.140381, "mean": 0.0359588, "median": 0.0361328, "p90": 0.0368652,
                   "p95": 0.0371094, "p99": 0.041748}
# a plausible statistics line of our own, figures far from every fixture figure
OUR_ITEMS = ("min = 7.125 ms, max = 9.5 ms, mean = 7.75 ms, median = 7.5 ms, percentile(90%) = 8.25 ms, "
             "percentile(95%) = 8.5 ms, percentile(99%) = 9.25 ms")
WARNING_HEAD = "the performance summary prints what this studygen does not read, so it is not recorded: "
WARNING_TAIL = "; the timings it knows are recorded"


def stamp_of(line: str) -> str:
    """``[date time] [I] `` of a fixture line."""
    return line[:line.index("] [") + 5]


def edit(workdir, source, at: int, new_lines=(), *, replace: bool = False, name: str = "new.log", cut: bool = False):
    """A copy of ``source`` with ``new_lines`` (messages, given the stamp of line ``at``) inserted after line
    ``at`` (1-based), or put in its place with ``replace``; ``cut`` ends the copy after them."""
    lines = source.read_text(encoding="utf-8").split("\n")
    stamp = stamp_of(lines[at - 1])
    added = [line if line.startswith("[") else stamp + line for line in new_lines]
    after = lines[at:] if not cut else []
    lines = lines[:at - 1] + added + after if replace else lines[:at] + added + after
    path = workdir / name
    path.write_text("\n".join(lines) + ("\n" if cut else ""), encoding="utf-8")
    return path


def medians(done) -> dict:
    return {r["timing"]: r["value_ms"] for r in done.kind("latency")}


def latency(done, timing: str) -> dict:
    """The one latency result of ``timing`` (each case's log has one run)."""
    found = [r for r in done.kind("latency") if r["timing"] == timing]
    assert len(found) == 1, found
    return found[0]


def warning(*named: str, log: str = "new.log") -> str:
    return f"{log}: {WARNING_HEAD}{'; '.join(named)}{WARNING_TAIL}"


def assert_warned(done, *named: str, log: str = "new.log") -> None:
    """Exit 0, one warning line on stderr naming ``named``, and the same line among the record's notes."""
    assert done.exit_code == 0, done.err
    expected = warning(*named, log=log)
    assert done.err == f"studygen: warning: {expected}\n"
    assert expected in done.record["provenance"]["notes"]


def test_the_fixture_lines_are_the_gpu_compute_lines():
    for source, line in ((BUILD, BUILD_GPU_LINE), (UNSTABLE, UNSTABLE_GPU_LINE)):
        assert "] [I] GPU Compute Time: min = " in source.read_text(encoding="utf-8").split("\n")[line - 1]


@pytest.mark.parametrize("source, at, known", [(BUILD, BUILD_GPU_LINE, BUILD_MEDIANS),
                                               (UNSTABLE, UNSTABLE_GPU_LINE, UNSTABLE_MEDIANS)],
                         ids=["trt10.16", "trt8.6"])
def test_a_new_label_keeps_every_known_figure_and_is_named(collect, workdir, source, at, known):
    log = edit(workdir, source, at, [f"Device Queue Time: {OUR_ITEMS}"])
    done = collect("trtexec", "--log", log)
    assert_warned(done, f"the label 'Device Queue Time' (line {at + 1})")
    assert medians(done) == known
    # the line after the new one is read at its own place
    assert latency(done, "d2h")["source_locator"] == f"new.log:{at + 2}"


def test_the_unedited_fixture_gives_the_same_figures_without_warning(collect, workdir):
    # what the unedited fixture gives, for the cases above to compare with: the same medians, no warning
    done = collect("trtexec", "--log", BUILD)
    assert (done.exit_code, done.err, medians(done)) == (0, "", BUILD_MEDIANS)
    assert latency(done, "gpu_compute")["statistics_ms"] == BUILD_GPU_STATS


LOOK_ALIKES = [
    "GPU Compute Time (p99.9)",  # a suffix
    "GPU Compute Time (us)",  # a unit in the label
    "Host GPU Compute Time",  # a prefix
    "Total GPU Compute Time Per Query",  # the summary's end line, longer
    # another case or a space before the colon is a damaged known label: refused (test_trtexec_summary_damage)
    "GPU Compute T\u0456me",  # a Cyrillic i
    "Latency (end to end)",
    "D2H Latency per output",
]


@pytest.mark.parametrize("label", LOOK_ALIKES, ids=[f"look-alike-{n}" for n in range(len(LOOK_ALIKES))])
def test_a_label_like_a_known_one_is_never_read_as_it(collect, workdir, label):
    # our line comes first, so a reader matching on part of the label would take its 7.5 ms median
    log = edit(workdir, BUILD, BUILD_GPU_LINE - 1, [f"{label}: {OUR_ITEMS}"])
    done = collect("trtexec", "--log", log)
    assert_warned(done, f"the label {ascii(label)} (line {BUILD_GPU_LINE})")
    assert medians(done) == BUILD_MEDIANS
    assert latency(done, "gpu_compute")["statistics_ms"] == BUILD_GPU_STATS


def test_a_known_label_renamed_loses_that_timing_only_and_says_so(collect, workdir):
    line = BUILD.read_text(encoding="utf-8").split("\n")[BUILD_GPU_LINE - 1]
    renamed = line.replace("GPU Compute Time: ", "GPU Compute Time (p99.9): ")
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [renamed], replace=True))
    assert_warned(done, f"the label 'GPU Compute Time (p99.9)' (line {BUILD_GPU_LINE})")
    assert medians(done) == {k: v for k, v in BUILD_MEDIANS.items() if k != "gpu_compute"}


def test_a_new_label_repeated_is_named_once_with_its_lines(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Queue Wait: {OUR_ITEMS}"] * 7)
    done = collect("trtexec", "--log", log)
    assert_warned(done, "the label 'Queue Wait' (lines 573, 574, 575, 576, 577 and 2 more)")
    assert medians(done) == BUILD_MEDIANS


@pytest.mark.parametrize("times, lines", [(2, "lines 573, 574"), (5, "lines 573, 574, 575, 576, 577")],
                         ids=["twice", "five-times"])
def test_up_to_five_lines_of_a_new_label_are_all_named(collect, workdir, times, lines):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Queue Wait: {OUR_ITEMS}"] * times)
    assert_warned(collect("trtexec", "--log", log), f"the label 'Queue Wait' ({lines})")


def test_ten_new_labels_are_all_named(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Stage {n} Time: {OUR_ITEMS}" for n in range(1, 11)])
    assert_warned(collect("trtexec", "--log", log), *[f"the label 'Stage {n} Time' (line {572 + n})"
                                                      for n in range(1, 11)])


@pytest.mark.parametrize("length, shown", [(78, "'" + "Q" * 78 + "'"), (79, "'" + "Q" * 75 + "...'")],
                         ids=["78-shown-whole", "79-cut"])
def test_a_long_label_is_shown_cut_to_80_characters(collect, workdir, length, shown):
    # quoted, 78 characters make 80 and show whole; 79 show as their first 75 and "...'"
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"{'Q' * length}: {OUR_ITEMS}"])
    assert_warned(collect("trtexec", "--log", log), f"the label {shown} (line 573)")


def test_twelve_new_labels_name_ten_and_count_the_rest(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Stage {n} Time: {OUR_ITEMS}" for n in range(1, 13)])
    done = collect("trtexec", "--log", log)
    assert_warned(done, *[f"the label 'Stage {n} Time' (line {572 + n})" for n in range(1, 11)], "and 2 more")


def test_many_long_new_labels_still_fit_one_record_note(collect, workdir):
    # 150 labels of 200 characters: the record's notes hold at most 100 lines of 4,000 characters
    labels = [f"Stage {n:03d} " + "x" * 190 for n in range(150)]
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [f"{lb}: {OUR_ITEMS}" for lb in labels]))
    assert done.exit_code == 0, done.err
    shown = ascii(labels[0])[:76] + "...'"
    assert f"the label {shown} (line 573)" in done.err and done.err.endswith(f"and 140 more{WARNING_TAIL}\n")
    assert len(done.err) < 4000 and medians(done) == BUILD_MEDIANS


def test_a_new_line_without_statistics_is_named_too(collect, workdir):
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, ["Peak Device Memory: 412 MiB"]))
    assert_warned(done, "the label 'Peak Device Memory' (line 573)")
    assert medians(done) == BUILD_MEDIANS


def test_a_new_statistic_on_a_known_line_keeps_the_others(collect, workdir):
    line = BUILD.read_text(encoding="utf-8").split("\n")[BUILD_GPU_LINE - 1]
    longer = line + ", stddev = 0.00237 ms, cv = 6.6%"
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [longer], replace=True))
    assert_warned(done, f"the statistic 'stddev' of the GPU Compute Time line (line {BUILD_GPU_LINE})",
                  f"the statistic 'cv' of the GPU Compute Time line (line {BUILD_GPU_LINE})")
    assert latency(done, "gpu_compute")["statistics_ms"] == BUILD_GPU_STATS


@pytest.mark.parametrize("item, words", [
    # a known statistic printed otherwise is damage, never a new statistic
    ("percentile(99.9) = 0.0452 ms", "has the item 'percentile(99.9) = 0.0452 ms', which is no 'statistic = figure ms'"),
    ("median = 0.0361", "has the item 'median = 0.0361', which is no 'statistic = figure ms'"),
    ("mean = 0.0359 us", "the GPU Compute Time mean is printed in 'us', not ms"),
    ("std\x00dev = 0.00237 ms", "has the item 'std\\x00dev = 0.00237 ms'"),
    ("0.00237 ms", "has the item '0.00237 ms'"),
    ("percentile(101%) = 0.0452 ms", "the GPU Compute Time line names percentile '101', which is no percentage"),
    ("stddev = 0.00237 ms = 0.0452 ms", "has the item 'stddev = 0.00237 ms = 0.0452 ms', which is no 'statistic"),
], ids=["percentile-without-percent", "no-unit", "in-us", "nul-in-name", "no-name", "percentile-101", "two-figures"])
def test_a_damaged_statistic_is_still_refused(collect, workdir, item, words):
    line = BUILD.read_text(encoding="utf-8").split("\n")[BUILD_GPU_LINE - 1]
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"{line}, {item}"], replace=True)
    assert_refused(collect("trtexec", "--log", log), f"new.log:{BUILD_GPU_LINE}: ", words, "nothing recorded")


@pytest.mark.parametrize("message, words", [
    (f"Device\x00Queue Time: {OUR_ITEMS}", "has statistics under the label 'Device\\x00Queue Time', which holds a "
                                           "character no trtexec label holds"),
    ("Through\u202eput: 15374.3 qps", "has a line under the label 'Through\\u202eput'"),
], ids=["nul-in-statistics-label", "u202e-in-throughput-label"])
def test_a_damaged_label_is_still_refused(collect, workdir, message, words):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [message])
    done = collect("trtexec", "--log", log)
    assert_refused(done, "new.log:573: the performance summary of run 1 (line 1) ", words)
    assert done.err.endswith(" (the log was edited or damaged?); nothing recorded\n")


def test_a_log_cut_after_a_new_label_is_still_refused(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Device Queue Time: {OUR_ITEMS}"], cut=True)
    assert_refused(collect("trtexec", "--log", log), "new.log:567: the log ends inside the performance summary")


def test_a_summary_of_new_labels_only_records_nothing_and_says_why(collect, workdir):
    # data transfers off: H2D and D2H are zeros by construction; the three timings left are renamed
    lines = NO_TRANSFERS.read_text(encoding="utf-8").split("\n")
    renamed = {546: "Latency", 547: "Enqueue Time", 549: "GPU Compute Time"}
    path = workdir / "new.log"
    for number, label in renamed.items():
        assert f"] [I] {label}: min = " in lines[number - 1]
        lines[number - 1] = lines[number - 1].replace(f"{label}: ", f"{label} (v2): ")
    path.write_text("\n".join(lines), encoding="utf-8")
    named = [f"the label '{label} (v2)' (line {number})" for number, label in renamed.items()]
    assert_refused(collect("trtexec", "--log", path), f"nothing to record: the inputs gave no result ({warning(*named)})")


@pytest.mark.parametrize("message", [
    "[07/07/2026-02:10:58] [W] Clock Drift: min = 1 ms, max = 2 ms",  # a warning printed in between
    "[07/07/2026-02:10:58] [I] [TRT] Allocator: used = 12 MiB",  # TensorRT's own logger, at [I]
    "[07/07/2026-02:10:58] [I]",  # an empty line holds nothing to name
], ids=["warning-line", "tensorrt-logger-line", "empty-line"])
def test_another_loggers_line_inside_the_summary_is_left_alone(collect, workdir, message):
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [message]))
    assert (done.exit_code, done.err) == (0, ""), done.err
    assert medians(done) == BUILD_MEDIANS


def test_python_callers_get_the_warning_too(workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Device Queue Time: {OUR_ITEMS}"])
    ingest = IngestOptions(family="demo", job_id="py", measurements_dir=str(workdir / "m"), variant="fp32")
    outcome = run_trtexec(TrtexecOptions(ingest=ingest, log_path=str(log)))
    assert outcome.warnings == [warning("the label 'Device Queue Time' (line 573)")]
    assert outcome.record.added == 6


def test_collecting_again_adds_no_second_note(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, [f"Device Queue Time: {OUR_ITEMS}"])
    collect("trtexec", "--log", log)
    again = collect("trtexec", "--log", log)
    expected = warning("the label 'Device Queue Time' (line 573)")
    assert again.err == f"studygen: warning: {expected}\n"
    assert again.record["provenance"]["notes"].count(expected) == 1


# Inside the summary a line is read, or named as unread, or refused: never read and named both, never passed over.
BUILD_THROUGHPUT_LINE, BUILD_END_LINE = 568, 575  # "Throughput: 15374.3 qps", "Total GPU Compute Time: 1.6586 s"
BUILD_DEVICE, BUILD_PLAN_MIB = "NVIDIA H100 PCIe", 12.5744  # lines 103 and 148, before the run


def test_the_fixture_lines_of_the_summary_are_where_the_cases_below_edit(collect):
    lines = BUILD.read_text(encoding="utf-8").split("\n")
    assert lines[BUILD_THROUGHPUT_LINE - 1].endswith("] [I] Throughput: 15374.3 qps")
    assert lines[BUILD_END_LINE - 1].endswith("] [I] Total GPU Compute Time: 1.6586 s")
    done = collect("trtexec", "--log", BUILD)
    assert done.record["provenance"]["gpu"] == BUILD_DEVICE
    assert [r["value_mib"] for r in done.kind("plan_size")] == [BUILD_PLAN_MIB]
    assert latency(done, "gpu_compute")["throughput_qps"] == 15374.3


BUILD_DISTRIBUTION = {"samples": 46125, "warmup_iterations": 3057, "cv": 0.0658751}  # lines 160, 161, 578


@pytest.mark.parametrize("setting, named", [
    ("Selected Device: NVIDIA A10G", "the label 'Selected Device'"),
    ("Created engine with size: 0.75 MiB", "the label 'Created engine with size'"),
    ("Data transfers: Disabled", "the label 'Data transfers'"),
    ("Warmup completed 9 queries over 20 ms", "the line 'Warmup completed 9 queries over 20 ms'"),
    ("Timing trace has 11 queries over 0.5 s", "the line 'Timing trace has 11 queries over 0.5 s'"),
], ids=["device", "engine-size", "data-transfers", "warm-up", "trace"])
def test_a_setting_line_inside_the_summary_is_named_and_not_read(collect, workdir, setting, named):
    # trtexec prints its settings before the run: one inside the summary comes from an edited or joined log,
    # so the record keeps what the log says where trtexec says it, and the warning names the line
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [setting]))
    assert_warned(done, f"{named} (line 573)")
    assert done.record["provenance"]["gpu"] == BUILD_DEVICE
    assert [r["value_mib"] for r in done.kind("plan_size")] == [BUILD_PLAN_MIB]
    assert medians(done) == BUILD_MEDIANS
    gpu_compute = latency(done, "gpu_compute")
    assert (gpu_compute["method"]["data_transfers"], gpu_compute["distribution"]) == (True, BUILD_DISTRIBUTION)


def test_two_setting_lines_inside_the_summary_are_both_named_and_neither_read(collect, workdir):
    log = edit(workdir, BUILD, BUILD_GPU_LINE, ["Selected Device: NVIDIA B300", "Created engine with size: 0.5 MiB"])
    done = collect("trtexec", "--log", log)
    assert_warned(done, "the label 'Selected Device' (line 573)", "the label 'Created engine with size' (line 574)")
    assert (done.record["provenance"]["gpu"], [r["value_mib"] for r in done.kind("plan_size")]) == (
        BUILD_DEVICE, [BUILD_PLAN_MIB])


@pytest.mark.parametrize("message", [
    "Queue Depth min = 3 ms, max = 5 ms",  # statistics, no label
    "42 queries were retried",  # words only
    "=== Performance summary ===",  # a second summary starts inside the first: two logs joined
], ids=["statistics", "words", "second-header"])
def test_a_line_of_no_label_inside_the_summary_is_named(collect, workdir, message):
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [message]))
    assert_warned(done, f"the line {ascii(message)} (line 573)")
    assert medians(done) == BUILD_MEDIANS


@pytest.mark.parametrize("at, old, new", [
    (BUILD_GPU_LINE, "GPU Compute Time: ", "GPU Compute Time:"),
    (BUILD_GPU_LINE, "GPU Compute Time: ", "GPU Compute Time:\t"),
    (BUILD_GPU_LINE - 3, "Latency: ", "Latency:"),
    (BUILD_THROUGHPUT_LINE, "Throughput: ", "Throughput:"),
    (BUILD_END_LINE, "Total GPU Compute Time: ", "Total GPU Compute Time:"),
], ids=["gpu-compute", "gpu-compute-tab", "latency", "throughput", "summary-end"])
def test_a_known_label_without_the_space_after_its_colon_is_refused(collect, workdir, at, old, new):
    # before, such a line matched no summary line and was passed over: its timing lost without a word
    line = BUILD.read_text(encoding="utf-8").split("\n")[at - 1]
    assert old in line
    label = old.rstrip(": ")
    done = collect("trtexec", "--log", edit(workdir, BUILD, at, [line.replace(old, new)], replace=True))
    shown = ascii(line[line.index(old):].replace(old, new))
    shown = shown if len(shown) <= 80 else shown[:76] + "...'"
    assert_refused(done, f"new.log:{at}: the performance summary of run 1 (line 1) has the line {shown}, which "
                         f"trtexec prints as '{label}: ", "(the log was edited or damaged?); nothing recorded")


@pytest.mark.parametrize("label", ["Throughput", "Total Host Walltime", "Total GPU Compute Time"])
def test_statistics_under_a_summary_label_that_is_no_timing_are_refused(collect, workdir, label):
    # these three print one figure each; statistics under one are an edit (the end line would end the summary
    # early and leave the D2H line after it unread)
    unit = "qps" if label == "Throughput" else "s"
    done = collect("trtexec", "--log", edit(workdir, BUILD, BUILD_GPU_LINE, [f"{label}: {OUR_ITEMS}"]))
    assert_refused(done, f"new.log:573: the performance summary of run 1 (line 1) has statistics under the label "
                         f"'{label}', which trtexec prints as '{label}: X {unit}' (the log was edited or damaged?)")


@pytest.mark.parametrize("at, printed, words", [
    (BUILD_THROUGHPUT_LINE, "Throughput: 15374.3 fps", "has the line 'Throughput: 15374.3 fps', which trtexec "
                                                       "prints as 'Throughput: X qps'"),
    (BUILD_THROUGHPUT_LINE, "Throughput: 15374.3", "has the line 'Throughput: 15374.3', which"),
    (BUILD_END_LINE - 1, "Total Host Walltime: 3000.13 ms", "has the line 'Total Host Walltime: 3000.13 ms', which"),
    (BUILD_END_LINE - 1, "Total Host Walltime: 3.0\x0013 s", "the total host walltime is '3.0\\x0013', which is no "
                                                             "number"),
    (BUILD_END_LINE, "Total GPU Compute Time: 1.6586", "has the line 'Total GPU Compute Time: 1.6586', which"),
], ids=["throughput-fps", "throughput-no-unit", "walltime-ms", "walltime-nul", "end-no-unit"])
def test_a_summary_line_that_is_no_timing_printed_otherwise_is_refused(collect, workdir, at, printed, words):
    done = collect("trtexec", "--log", edit(workdir, BUILD, at, [printed], replace=True))
    assert_refused(done, f"new.log:{at}: ", words, "nothing recorded")
