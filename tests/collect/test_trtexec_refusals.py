"""Console logs that would give a silently wrong figure are refused (issue
13): one line naming the file and the line, exit 2, nothing written. Each
case edits the text of a shared fixture at run time, with numbers of our own."""

from __future__ import annotations

from tests.collect.conftest import TRTEXEC, assert_refused

BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"
TRT7_LOG = TRTEXEC / "trt7_resnet50-int8_console.log"
STAMP = "[07/07/2026-02:10:58] [I] "
# lines of the build-and-run log's summary (1-based), read off the file by hand
LATENCY_LINE, GPU_COMPUTE_LINE = 569, 572


def edited(workdir, source, name: str, edit) -> object:
    """``source``'s lines passed through ``edit`` (a function of the line list) into ``workdir/name``."""
    lines = source.read_text().split("\n")
    edit(lines)
    path = workdir / name
    path.write_text("\n".join(lines))
    return path


def test_the_edited_lines_are_the_summary_lines():
    lines = BUILD_LOG.read_text().split("\n")
    assert lines[LATENCY_LINE - 1].startswith(STAMP + "Latency: min = 0.0410156 ms")
    assert lines[GPU_COMPUTE_LINE - 1].startswith(STAMP + "GPU Compute Time: min = 0.0331421 ms")


def test_a_second_latency_line_is_refused_naming_both_lines(collect, workdir):
    second = (STAMP + "Latency: min = 0.05 ms, max = 0.2 ms, mean = 0.07 ms, median = 0.0725 ms, "
              "percentile(90%) = 0.08 ms, percentile(95%) = 0.09 ms, percentile(99%) = 0.1 ms")
    log = edited(workdir, BUILD_LOG, "twolat.log", lambda lines: lines.insert(LATENCY_LINE + 1, second))
    assert_refused(collect("trtexec", "--log", log),
                   f"twolat.log:{LATENCY_LINE + 2}: the performance summary of run 1 (line 1) prints host_latency "
                   f"twice, on lines {LATENCY_LINE} and {LATENCY_LINE + 2} ('Latency'): which one is the "
                   "measurement is unknown; nothing recorded")


def test_host_latency_under_its_other_label_is_a_second_line_too(collect, workdir):
    # "Latency" (TensorRT 8.4+) and "Host Latency" (8.0-8.2) are one timing
    second = STAMP + "Host Latency: min = 1 ms, max = 3 ms, mean = 2 ms, median = 2 ms, percentile(99%) = 3 ms"
    log = edited(workdir, BUILD_LOG, "hostlat.log", lambda lines: lines.insert(GPU_COMPUTE_LINE, second))
    assert_refused(collect("trtexec", "--log", log),
                   f"hostlat.log:{GPU_COMPUTE_LINE + 1}: ", f"on lines {LATENCY_LINE} and {GPU_COMPUTE_LINE + 1} "
                   "('Host Latency')")


def test_a_second_gpu_compute_line_is_refused(collect, workdir):
    def copy_gpu_line(lines):
        lines.insert(GPU_COMPUTE_LINE, lines[GPU_COMPUTE_LINE - 1].replace("median = 0.0361328", "median = 0.0412"))
    log = edited(workdir, BUILD_LOG, "twogpu.log", copy_gpu_line)
    assert_refused(collect("trtexec", "--log", log),
                   f"twogpu.log:{GPU_COMPUTE_LINE + 1}: ", "prints gpu_compute twice, on lines "
                   f"{GPU_COMPUTE_LINE} and {GPU_COMPUTE_LINE + 1} ('GPU Compute Time')")


def test_a_key_twice_in_one_line_is_refused(collect, workdir):
    def second_median(lines):
        lines[GPU_COMPUTE_LINE - 1] = lines[GPU_COMPUTE_LINE - 1].replace(
            "mean = 0.0359588 ms,", "median = 0.0444 ms, mean = 0.0359588 ms,")
    log = edited(workdir, BUILD_LOG, "twokey.log", second_median)
    assert_refused(collect("trtexec", "--log", log),
                   f"twokey.log:{GPU_COMPUTE_LINE}: the GPU Compute Time line prints median twice (0.0444 ms, then "
                   "0.0361328 ms): which one is the measurement is unknown; nothing recorded")


def test_a_percentile_twice_in_one_line_is_refused(collect, workdir):
    def second_p99(lines):
        lines[LATENCY_LINE - 1] += ", percentile(99%) = 0.0613 ms"
    log = edited(workdir, BUILD_LOG, "twop99.log", second_p99)
    assert_refused(collect("trtexec", "--log", log),
                   f"twop99.log:{LATENCY_LINE}: the Latency line prints percentile(99%) twice (0.0512695 ms, then "
                   "0.0613 ms)")


def test_a_statistic_twice_in_a_tensorrt7_block_is_refused(collect, workdir):
    # line 162 is the first run's Host Latency median; a second one below it, with its end-to-end figure
    def second_median(lines):
        assert lines[161] == "[02/22/2021-15:14:52] [I] median: 3.09796 ms (end to end 3.10852 ms)"
        lines.insert(163, "[02/22/2021-15:14:52] [I] median: 3.2 ms (end to end 3.21 ms)")
    log = edited(workdir, TRT7_LOG, "trt7twice.log", second_median)
    assert_refused(collect("trtexec", "--log", log),
                   "trt7twice.log:164: the performance summary of run 1 (line 1) prints the host_latency median "
                   "twice, on lines 162 and 164: which one is the measurement is unknown; nothing recorded")


def test_a_median_in_microseconds_is_refused_not_dropped(collect, workdir):
    def in_us(lines):
        lines[LATENCY_LINE - 1] = lines[LATENCY_LINE - 1].replace("median = 0.0440674 ms", "median = 44.0674 us")
    log = edited(workdir, BUILD_LOG, "us.log", in_us)
    assert_refused(collect("trtexec", "--log", log),
                   f"us.log:{LATENCY_LINE}: the Latency median is printed in 'us', not ms (trtexec prints every "
                   "summary statistic in ms): the log was edited or is not trtexec's; nothing recorded")


def test_a_minimum_in_seconds_is_refused(collect, workdir):
    def in_s(lines):
        lines[GPU_COMPUTE_LINE - 1] = lines[GPU_COMPUTE_LINE - 1].replace("min = 0.0331421 ms", "min = 3.3e-05 s")
    log = edited(workdir, BUILD_LOG, "sec.log", in_s)
    assert_refused(collect("trtexec", "--log", log),
                   f"sec.log:{GPU_COMPUTE_LINE}: the GPU Compute Time min is printed in 's', not ms")


def test_a_tensorrt7_percentile_in_microseconds_is_refused(collect, workdir):
    def in_us(lines):
        assert lines[162].startswith("[02/22/2021-15:14:52] [I] percentile: 3.4563 ms at 99%")
        lines[162] = "[02/22/2021-15:14:52] [I] percentile: 3456.3 us at 99% (end to end 3.47168 ms at 99%)"
    log = edited(workdir, TRT7_LOG, "trt7us.log", in_us)
    assert_refused(collect("trtexec", "--log", log),
                   "trt7us.log:163: the host_latency percentile is printed in 'us', not ms")


VERSION_LINE = 116  # "TensorRT version: 10.16.1"; line 1 and the PASSED line carry [TensorRT v101601]


def with_version_line(text: str):
    def edit(lines):
        assert lines[VERSION_LINE - 1] == "[07/07/2026-02:10:45] [I] TensorRT version: 10.16.1"
        lines[VERSION_LINE - 1] = f"[07/07/2026-02:10:45] [I] TensorRT version: {text}"
    return edit


def test_a_version_line_contradicting_the_banner_is_refused_naming_both_lines(collect, workdir):
    log = edited(workdir, BUILD_LOG, "twover.log", with_version_line("8.5.3"))
    assert_refused(collect("trtexec", "--log", log),
                   f"twover.log:{VERSION_LINE}: run 1 (line 1) states TensorRT 10.16.1 on line 1 and 8.5.3 on line "
                   f"{VERSION_LINE}: one run is one TensorRT build; nothing recorded")


def test_a_passed_banner_contradicting_the_version_line_is_refused(collect, workdir):
    def passed_tag(lines):
        assert lines[-2].startswith("&&&& PASSED TensorRT.trtexec [TensorRT v101601]")
        lines[-2] = lines[-2].replace("v101601", "v100300")
    log = edited(workdir, BUILD_LOG, "passedver.log", passed_tag)
    last = len(BUILD_LOG.read_text().split("\n")) - 1
    assert_refused(collect("trtexec", "--log", log),
                   f"passedver.log:{last}: run 1 (line 1) states TensorRT 10.16.1 on line {VERSION_LINE} and 10.3.0 "
                   f"on line {last}")


def test_a_more_detailed_version_line_agrees_with_the_banner(collect, workdir):
    log = edited(workdir, BUILD_LOG, "detail.log", with_version_line("10.16.1.3"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["software"]["tensorrt"] == "10.16.1.3"


def test_a_minor_version_differing_from_the_banner_is_refused(collect, workdir):
    log = edited(workdir, BUILD_LOG, "minor.log", with_version_line("10.15.1"))
    assert_refused(collect("trtexec", "--log", log), f"minor.log:{VERSION_LINE}: ", "10.16.1 on line 1 and 10.15.1")


def replaced(line: int, old: str, new: str):
    def edit(lines):
        assert old in lines[line - 1]
        lines[line - 1] = lines[line - 1].replace(old, new)
    return edit


def test_a_median_above_p90_is_refused(collect, workdir):
    log = edited(workdir, BUILD_LOG, "order.log", replaced(LATENCY_LINE, "median = 0.0440674 ms", "median = 0.0461 ms"))
    assert_refused(collect("trtexec", "--log", log),
                   f"order.log:{LATENCY_LINE}: the host_latency summary of run 1 (line 1) is out of order: median "
                   "0.0461 ms is above p90 0.0450439 ms, which no set of timings gives (the log was edited?); "
                   "nothing recorded")


def test_a_p99_above_max_is_refused(collect, workdir):
    log = edited(workdir, BUILD_LOG, "p99.log", replaced(GPU_COMPUTE_LINE, "percentile(99%) = 0.041748 ms",
                                                         "percentile(99%) = 0.1417 ms"))
    assert_refused(collect("trtexec", "--log", log), f"p99.log:{GPU_COMPUTE_LINE}: the gpu_compute summary",
                   "p99 0.1417 ms is above max 0.140381 ms")


def test_a_mean_below_min_is_refused(collect, workdir):
    log = edited(workdir, BUILD_LOG, "mean.log", replaced(GPU_COMPUTE_LINE, "mean = 0.0359588 ms", "mean = 0.0301 ms"))
    assert_refused(collect("trtexec", "--log", log), f"mean.log:{GPU_COMPUTE_LINE}: ",
                   "mean 0.0301 ms is below min 0.0331421 ms")


def test_a_tensorrt7_median_above_its_percentile_is_refused(collect, workdir):
    # the first run's GPU Compute block: min on line 171, median 3.03919 ms on 174, p99 3.41711 ms on 175
    log = edited(workdir, TRT7_LOG, "trt7order.log", replaced(174, "median: 3.03919 ms", "median: 3.5 ms"))
    assert_refused(collect("trtexec", "--log", log),
                   "trt7order.log:171: the gpu_compute summary of run 1 (line 1) is out of order: median 3.5 ms is "
                   "above p99 3.41711 ms")



def test_a_summary_line_without_its_median_is_refused_at_that_line(collect, workdir):
    log = edited(workdir, BUILD_LOG, "nomedian.log", replaced(LATENCY_LINE, " median = 0.0440674 ms,", ""))
    assert_refused(collect("trtexec", "--log", log),
                   f"nomedian.log:{LATENCY_LINE}: the host_latency summary of run 1 (line 1) has no median")


def test_a_percentile_just_above_the_median_may_not_be_below_it(collect, workdir):
    # percentile(51%) ranks above the median: trtexec's p51 is the upper middle timing (or above), never below
    # the median, which is at most the mean of the two middle ones
    log = edited(workdir, BUILD_LOG, "p51.log", replaced(LATENCY_LINE, "percentile(90%) = 0.0450439 ms",
                                                         "percentile(51%) = 0.044 ms, percentile(90%) = 0.0450439 ms"))
    assert_refused(collect("trtexec", "--log", log),
                   f"p51.log:{LATENCY_LINE}: the host_latency summary of run 1 (line 1) is out of order: median "
                   "0.0440674 ms is above p51 0.044 ms")
    log = edited(workdir, BUILD_LOG, "p50.log", replaced(LATENCY_LINE, "percentile(90%) = 0.0450439 ms",
                                                         "percentile(50%) = 0.0441 ms, percentile(90%) = 0.0450439 ms"))
    done = collect("trtexec", "--log", log)  # p50 and the median share a rank: neither bounds the other
    assert done.exit_code == 0, done.err
    assert done.latency("host_latency", batch=1)["statistics_ms"]["p50"] == 0.0441


def test_a_log_cut_before_its_summary_is_refused_at_the_run_line(collect, workdir):
    lines = BUILD_LOG.read_text().split("\n")
    assert lines[LATENCY_LINE - 3].endswith("=== Performance summary ===")
    path = workdir / "early.log"
    path.write_text("\n".join(lines[:LATENCY_LINE - 3]) + "\n")  # every trtexec line up to the summary's heading
    assert_refused(collect("trtexec", "--log", path),
                   "early.log:1: the log ends before the run finished of run 1 (line 1) (no '&&&& PASSED' line): "
                   "the file is cut; nothing recorded")


# --- --exportProfile -----------------------------------------------------------------------------

PROFILE = TRTEXEC / "trt8.6_resnet50-int8_profile.json"
PROFILE_LOG = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log"


def test_a_layer_listed_twice_in_a_profile_is_refused_at_both_indexes(collect, workdir):
    import json

    rows = json.loads(PROFILE.read_text())
    repeated = rows[3]["name"]
    assert repeated == "/backbone/layer1/layer1.0/conv1/Conv + /backbone/layer1/layer1.0/relu/Relu"
    rows[7] = dict(rows[7], name=repeated)
    path = workdir / "twice.json"
    path.write_text(json.dumps(rows))
    assert_refused(collect("trtexec", "--log", PROFILE_LOG, "--profile", path),
                   f"twice.json:/7/name: layer {repeated!r} is listed twice, at /3 and /7: its time would be "
                   "counted twice; nothing recorded")


def test_a_layer_repeated_in_the_second_concatenated_array_names_that_array(workdir):
    import json

    import pytest

    from studygen.collect.trtexec.exports import parse_profile
    from studygen.errors import InputError

    first = [{"count": 10}, {"name": "conv_a", "timeMs": 2.0, "averageMs": 0.2}, {"name": "conv_b", "timeMs": 1.0,
                                                                                 "averageMs": 0.1}]
    second = [{"count": 10}, {"name": "conv_a", "timeMs": 4.0, "averageMs": 0.4},
              {"name": "conv_b", "timeMs": 3.0, "averageMs": 0.3}, {"name": "conv_a", "timeMs": 4.0, "averageMs": 0.4}]
    path = workdir / "cat.json"
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    with pytest.raises(InputError) as raised:
        parse_profile(path, "cat.json")
    assert raised.value.line() == ("cat.json:/1/3/name: layer 'conv_a' is listed twice, at /1/1 and /1/3: its time "
                                   "would be counted twice; nothing recorded")
