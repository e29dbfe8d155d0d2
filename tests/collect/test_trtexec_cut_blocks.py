"""A TensorRT 7 summary cut by foreign text: a README that pastes
``grep -C 4 mean`` output of a trtexec log keeps grep's ``--`` group
separator where lines were left out, and the statistic after it belongs to
a block whose header was cut (the HaX-CoNN README pastes such an excerpt).
Before, that statistic was read into the block above the separator and the
log refused as printing the host latency median twice; now the separator
ends the block: the orphan is named as left unread and the blocks whose
headers are in the log are recorded. The log here is written for this test."""

from __future__ import annotations

from tests.collect.trtexec_logs import write

STAMP = "[03/14/2024-09:26:53] [I] "
EXCERPT = "\n".join([
    STAMP + "Host Latency",
    STAMP + "min: 3.10742 ms (end to end 3.11523 ms)",
    STAMP + "max: 3.60254 ms (end to end 3.61426 ms)",
    STAMP + "mean: 3.18359 ms (end to end 3.19336 ms)",
    STAMP + "median: 3.17578 ms (end to end 3.18555 ms)",
    STAMP + "percentile: 3.41797 ms at 99% (end to end 3.42969 ms at 99%)",
    STAMP + "throughput: 312.75 qps",
    STAMP + "walltime: 10.0433 s",
    "--",
    STAMP + "median: 0.0419922 ms",
    STAMP + "GPU Compute",
    STAMP + "min: 3.04102 ms",
    STAMP + "max: 3.52539 ms",
    STAMP + "mean: 3.11621 ms",
    STAMP + "median: 3.10938 ms",
    STAMP + "percentile: 3.34961 ms at 99%",
    STAMP + "total compute time: 9.96875 s",
]) + "\n"


def test_a_grep_separator_ends_a_tensorrt_7_block(collect, workdir):
    done = collect("trtexec", "--log", write(workdir, EXCERPT, "grep.log"), "--variant", "fp16")
    assert done.exit_code == 0, done.err
    host = done.latency("host_latency")
    assert host["statistics_ms"] == {"min": 3.10742, "max": 3.60254, "mean": 3.18359, "median": 3.17578,
                                     "p99": 3.41797}
    assert host["throughput_qps"] == 312.75
    assert done.latency("end_to_end")["statistics_ms"]["median"] == 3.18555
    assert done.latency("gpu_compute")["statistics_ms"] == {"min": 3.04102, "max": 3.52539, "mean": 3.11621,
                                                            "median": 3.10938, "p99": 3.34961}
    assert "enqueue" not in {r["timing"] for r in done.kind("latency")}
    assert ("the statistic 'median: 0.0419922 ms' after line 9, which is no trtexec line: its block's header is not "
            "in the log (line 10)") in done.err


def test_blank_lines_do_not_cut_a_block(collect, workdir):
    # an empty line (a paste's trailing newline) is no foreign text: the block goes on
    text = EXCERPT.replace("--\n" + STAMP + "median: 0.0419922 ms\n", "\n")
    done = collect("trtexec", "--log", write(workdir, text, "blank.log"), "--variant", "fp16")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["statistics_ms"]["median"] == 3.10938
    assert "warning" not in done.err


def test_an_ellipsis_cuts_a_block_as_grep_s_separator_does(collect, workdir):
    done = collect("trtexec", "--log", write(workdir, EXCERPT.replace("\n--\n", "\n...\n"), "dots.log"), "--variant",
                   "fp16")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["statistics_ms"]["median"] == 3.10938
    assert "the statistic 'median: 0.0419922 ms' after line 9, which is no trtexec line" in done.err


def test_another_programs_line_inside_a_block_does_not_cut_it(collect, workdir):
    """A line no trtexec wrote between a block's statistics, marking nothing left out (a Jetson driver's message
    on the same console): the statistics after it are still the block's. Failed before: it cut the block, whose
    median and mean were then missing, and the log was refused ("the gpu_compute summary ... has no median")."""
    whole = EXCERPT.replace("--\n" + STAMP + "median: 0.0419922 ms\n", "")
    stray = whole.replace(STAMP + "min: 3.04102 ms\n",
                          STAMP + "min: 3.04102 ms\nNvMapMemHandleAlloc: error 0\n")
    assert stray != whole
    done = collect("trtexec", "--log", write(workdir, stray, "stray.log"), "--variant", "fp16")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["statistics_ms"] == {"min": 3.04102, "max": 3.52539, "mean": 3.11621,
                                                            "median": 3.10938, "p99": 3.34961}
    assert "warning" not in done.err
