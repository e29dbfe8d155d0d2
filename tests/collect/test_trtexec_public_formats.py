"""trtexec formats seen in public logs that ../shared/fixtures lacks, each
written here in trtexec's line formats with figures of our own, and the
command-line reader (:mod:`studygen.collect.trtexec.command`) that every
flag lookup shares.

Where each format was seen (read, not copied):

* TensorRT 7 block summary of an explicit-batch (ONNX) engine printing
  ``throughput: 0 qps``: NVIDIA/TensorRT issue 2054; the 7.x
  ``sampleReporting.cpp`` multiplies the query counts and the throughput by
  the implicit batch, 0 for such an engine.
* ``[W] The specified --useCudaGraph flag has been ignored …`` after a
  failed graph capture: NVIDIA/TensorRT issue 3011 (8.6); the 7.2-8.x
  ``Ignored --useCudaGraph flag and disabled CUDA graph`` is in
  ``samples/trtexec/trtexec.cpp``.
* Quoted tensor names in ``--shapes``, repeated options refused with
  ``Unknown option``, ``--name=value`` only: ``samples/common/sampleOptions.cpp``
  and ``samples/trtexec/trtexec.cpp``; Windows logs (``trtexec.exe``, CRLF,
  ``Input inference shape :`` per input): NVIDIA/TensorRT issues 4036 (10.2)
  and 3229 (8.6.1); ``--infStreams``: styler00dollar/VSGAN-tensorrt-docker
  issue 70.
"""

from __future__ import annotations

import pytest

from studygen.collect.trtexec.command import arguments, conflicting_flag, options
from studygen.collect.trtexec.log import parse_log
from studygen.collect.trtexec.runs import TrtexecRun, measured_settings
from tests.collect.conftest import assert_refused

STAMP = "[05/02/2022-08:30:00] "


def lines(*messages: str, severity: str = "I") -> list[str]:
    return [f"{STAMP}[{severity}] {message}" for message in messages]


SUMMARY_8 = lines(
    "=== Performance summary ===", "Throughput: 311.2 qps",
    "Latency: min = 3.1 ms, max = 3.9 ms, mean = 3.3 ms, median = 3.25 ms, percentile(90%) = 3.5 ms, "
    "percentile(95%) = 3.6 ms, percentile(99%) = 3.8 ms",
    "Enqueue Time: min = 0.4 ms, max = 0.9 ms, mean = 0.5 ms, median = 0.48 ms, percentile(90%) = 0.6 ms, "
    "percentile(95%) = 0.7 ms, percentile(99%) = 0.85 ms",
    "H2D Latency: min = 0.2 ms, max = 0.3 ms, mean = 0.22 ms, median = 0.21 ms, percentile(90%) = 0.25 ms, "
    "percentile(95%) = 0.26 ms, percentile(99%) = 0.28 ms",
    "GPU Compute Time: min = 2.8 ms, max = 3.5 ms, mean = 2.95 ms, median = 2.9 ms, percentile(90%) = 3.1 ms, "
    "percentile(95%) = 3.2 ms, percentile(99%) = 3.4 ms",
    "D2H Latency: min = 0.1 ms, max = 0.2 ms, mean = 0.14 ms, median = 0.13 ms, percentile(90%) = 0.16 ms, "
    "percentile(95%) = 0.17 ms, percentile(99%) = 0.19 ms",
    "Total Host Walltime: 3.004 s", "Total GPU Compute Time: 2.75 s")


def run_log(command: str, *body: str, tag: str = "[TensorRT v8601]") -> str:
    return "\n".join([f"&&&& RUNNING TensorRT.trtexec {tag} # {command}", *body,
                      f"&&&& PASSED TensorRT.trtexec {tag} # {command}"]) + "\n"


def write(workdir, text: str, name: str = "run.log", newline: str = "\n"):
    path = workdir / name
    with path.open("w", encoding="utf-8", newline=newline) as handle:
        handle.write(text)
    return path


# --- TensorRT 7: query counts and throughput multiplied by a zero batch -------------------------

ZERO_BATCH_7 = run_log(
    "trtexec --onnx=det.onnx --explicitBatch --workspace=2048",
    *lines("Format: ONNX", "Batch: Explicit", "Warmup completed 0 queries over 200 ms",
           "Timing trace has 0 queries over 3.00213 s", "Average on 10 runs - GPU latency: 2.1 ms - Host latency: 2.3 ms "
           "(end to end 4.1 ms, enqueue 0.9 ms)", "Host Latency", "min: 2.2 ms (end to end 3.9 ms)",
           "max: 3.4 ms (end to end 6.1 ms)", "mean: 2.35 ms (end to end 4.2 ms)", "median: 2.31 ms (end to end 4.15 ms)",
           "percentile: 2.9 ms at 99% (end to end 5.2 ms at 99%)", "throughput: 0 qps", "walltime: 3.00213 s",
           "Enqueue Time", "min: 0.7 ms", "max: 1.6 ms", "median: 0.88 ms", "GPU Compute", "min: 2.0 ms", "max: 3.2 ms",
           "mean: 2.12 ms", "median: 2.08 ms", "percentile: 2.7 ms at 99%", "total compute time: 2.9 s"), tag="").replace(
    "TensorRT.trtexec  #", "TensorRT.trtexec #")


def test_zero_batch_counts_and_throughput_are_left_out_not_recorded(collect, workdir):
    # before: throughput_qps 0 and distribution warmup_iterations 0 were recorded as measurements
    done = collect("trtexec", "--log", write(workdir, ZERO_BATCH_7))
    assert done.exit_code == 0, done.err
    host = done.latency("host_latency")
    assert (host["value_ms"], host["statistics_ms"]["p99"]) == (2.31, 2.9)
    assert done.latency("end_to_end")["value_ms"] == 4.15 and done.latency("gpu_compute")["value_ms"] == 2.08
    for result in done.kind("latency"):
        assert "throughput_qps" not in result and "distribution" not in result
    notes = done.record["provenance"]["notes"]
    assert any(n.startswith("run.log:5: the timed and warm-up query counts, printed as 0, left out") for n in notes)
    assert any(n.startswith("run.log:13: the throughput, printed as 0, left out") for n in notes)


def test_nonzero_counts_are_kept(workdir):
    text = ZERO_BATCH_7.replace("completed 0 queries", "completed 25 queries").replace(
        "has 0 queries", "has 940 queries").replace("throughput: 0 qps", "throughput: 313.1 qps")
    run = parse_log(write(workdir, text)).runs[0]
    assert (run.warmup_queries, run.timed_queries, run.throughput_qps, run.zeroed) == (25, 940, 313.1, [])


# --- the CUDA graph trtexec turned off after printing its options --------------------------------

GRAPH_WARNINGS = lines("The CUDA graph capture on the stream has failed.",
                       "The built TensorRT engine contains operations that are not permitted under CUDA graph capture mode.",
                       "The specified --useCudaGraph flag has been ignored. The inference will be launched without using "
                       "CUDA graph launch.", severity="W")
OPTIONS_86 = lines("TensorRT version: 8.6.1", "CUDA Graph: Enabled", "Data transfers: Enabled", "Spin-wait: Enabled",
                   "Separate profiling: Enabled", "Warmup completed 30 queries over 200 ms",
                   "Timing trace has 930 queries over 3.004 s")


def test_cuda_graph_ignored_before_the_summary_is_recorded_off(collect, workdir):
    # before: cuda_graph true, as the Inference Options print it
    log = write(workdir, run_log("trtexec --loadEngine=nms.plan --useCudaGraph --useSpinWait --separateProfileRun",
                                 *OPTIONS_86[:5], *GRAPH_WARNINGS, *OPTIONS_86[5:], *SUMMARY_8))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    method = done.latency("gpu_compute")["method"]
    assert (method["cuda_graph"], method["spin_wait"], method["separate_profile_run"]) == (False, True, True)
    assert "run.log:9: run 1 (line 1): trtexec ignored --useCudaGraph; cuda_graph recorded false" in " ".join(
        done.record["provenance"]["notes"])


def test_cuda_graph_ignored_after_the_summary_concerns_the_profiling_run(collect, workdir):
    log = write(workdir, run_log("trtexec --loadEngine=nms.plan --useCudaGraph --separateProfileRun --dumpProfile",
                                 *OPTIONS_86, *SUMMARY_8, *GRAPH_WARNINGS))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["method"]["cuda_graph"] is True
    assert any(n.startswith("run.log:20: run 1 (line 1): trtexec ignored --useCudaGraph; after its performance summary")
               for n in done.record["provenance"]["notes"])


def test_graph_profiling_warning_of_cuda_before_11_1_turns_the_graph_off(workdir):
    text = run_log("trtexec --onnx=m.onnx --useCudaGraph --dumpProfile", *lines("CUDA Graph: Enabled"),
                   *lines("Graph profiling only works with CUDA 11.1 and beyond. Ignored --useCudaGraph flag and "
                          "disabled CUDA graph.", severity="W"), *SUMMARY_8, tag="[TensorRT v7201]")
    run = parse_log(write(workdir, text)).runs[0]
    assert (run.graph_ignored_line, measured_settings(run)["cuda_graph"]) == (3, False)


# --- the command line: one reader for every flag -------------------------------------------------

@pytest.mark.parametrize(("command", "expected"), [
    ("trtexec --shapes='input 0':8x3x64x64 --fp16", ["trtexec", "--shapes='input 0':8x3x64x64", "--fp16"]),
    ("trtexec --shapes=a:1x3,'b c':4x2 --int8", ["trtexec", "--shapes=a:1x3,'b c':4x2", "--int8"]),
    ("trtexec '--saveEngine=x y.plan' --best", ["trtexec", "'--saveEngine=x y.plan'", "--best"]),
    # a quote inside a path is a character, never the start of a span that would swallow the next flag
    ("trtexec --onnx=/data/o'neil/m.onnx --saveEngine=/data/o'neil/m.plan",
     ["trtexec", "--onnx=/data/o'neil/m.onnx", "--saveEngine=/data/o'neil/m.plan"]),
    ("trtexec --shapes='open:1x3 --fp16", ["trtexec", "--shapes='open:1x3", "--fp16"]),
    (r"C:\Program Files\TensorRT\bin\trtexec.exe --onnx=m.onnx", [r"C:\Program", r"Files\TensorRT\bin\trtexec.exe",
                                                                   "--onnx=m.onnx"]),
    (None, []),
])
def test_arguments_keep_quoted_names_whole(command, expected):
    assert arguments(command) == expected


def test_flag_value_forms():
    # --name=value splits at the first '='; '--name value' is two arguments to trtexec, the flag taking no value
    assert options("trtexec --saveEngine=a=b.plan --saveEngine c.plan --int8 --exportProfile=") == [
        ("--saveEngine", "a=b.plan"), ("--saveEngine", ""), ("--int8", ""), ("--exportProfile", "")]
    run = TrtexecRun(index=0, line=1, command="trtexec --batch=8 --saveEngine m.plan --shapes=x:2x3x4x4")
    assert (run.flag("--batch"), run.flag("--saveEngine"), run.flag("--shapes"), run.flag("--fp16")) == (
        "8", "", "x:2x3x4x4", None)
    assert TrtexecRun(index=0, line=1).flag("--batch") is None


def test_repeated_flags():
    reads = frozenset({"--shapes", "--fp16", "--plugins"})
    assert conflicting_flag("trtexec --fp16 --fp16 --plugins=a.so --plugins=b.so", reads) is None
    assert conflicting_flag("trtexec --shapes=x:1x3 --shapes=x:8x3 --onnx=a --onnx=b", reads) == (
        "--shapes", ["x:1x3", "x:8x3"])
    assert conflicting_flag("trtexec --onnx=a --onnx=b", reads) is None  # an option this reader does not read


def test_a_flag_given_twice_with_two_values_is_refused_at_the_command_line(collect, workdir):
    # before: the first --shapes won in silence (batch 1), though trtexec fails on a second copy
    log = write(workdir, run_log("trtexec --loadEngine=m.plan --shapes=x:1x3x32x32 --shapes=x:16x3x32x32",
                                 *OPTIONS_86, *SUMMARY_8))
    done = collect("trtexec", "--log", log)
    assert_refused(done, "run.log:1:", "gives --shapes 2 times (--shapes=x:1x3x32x32, --shapes=x:16x3x32x32)",
                   "'Unknown option'")


def test_empty_export_profile_flag_wrote_no_profile():
    # trtexec writes a profile only for a non-empty --exportProfile value
    assert TrtexecRun(index=0, line=1, command="trtexec --exportProfile= --fp16").wrote_profile() == (
        False, "its command line has no --exportProfile")
    assert TrtexecRun(index=0, line=1, command="trtexec --exportProfile=p.json").wrote_profile() == (
        True, "its command line has --exportProfile")


def test_quoted_shape_name_gives_batch_and_shape(collect, workdir):
    # a log captured part way: the command (from the closing line) is the only place the shapes are stated;
    # before: whitespace splitting cut --shapes='input 0':8x3x160x160 in two, and neither batch nor shape was read
    body = "\n".join([*lines("TensorRT version: 8.6.1"), *SUMMARY_8,
                      "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.plan "
                      "--shapes='input 0':8x3x160x160 --useCudaGraph"]) + "\n"
    done = collect("trtexec", "--log", write(workdir, body))
    assert done.exit_code == 0, done.err
    result = done.latency("gpu_compute", batch=8)
    assert (result["shape"], result["value_ms"], result["method"]["cuda_graph"]) == ("160x160", 2.9, True)
    assert result["method"]["flags"] == ["--shapes='input 0':8x3x160x160", "--useCudaGraph"]


def test_loaded_plan_evidence_reads_the_flag_through_the_shared_reader(workdir):
    from studygen.collect.trtexec.precision import build_precision, plan_load_evidence
    run = TrtexecRun(index=0, line=1, command="trtexec --loadEngine=a.plan --fp16", command_line_number=4)
    assert plan_load_evidence(run) == "line 4 '--loadEngine=a.plan'" and build_precision(run) is None
    built = TrtexecRun(index=0, line=1, command="trtexec --onnx=m.onnx --int8 --noTF32 --fp16 --int8")
    precision = build_precision(built)
    assert (precision.evidence, precision.no_tf32, precision.shown) == ("its flags --int8 --noTF32 --fp16", True,
                                                                        "FP32+FP16+INT8")


# --- Windows: trtexec.exe, CRLF line ends, one shape line per input ------------------------------

def test_windows_crlf_log_reads_as_the_same_log(collect, workdir):
    body = run_log(r"D:\TensorRT-10.2.0.19\bin\trtexec.exe --loadEngine=m.plan --infStreams=2 "
                   "--shapes=img:4x3x96x128,scale:4x2",
                   *lines("Format: *", "Batch: Explicit", "Input inference shape : img=4x3x96x128",
                          "Input inference shape : scale=4x2", "TensorRT version: 10.2.0",
                          "Selected Device: NVIDIA GeForce RTX 4070"), *SUMMARY_8, tag="[TensorRT v100200]")
    done = collect("trtexec", "--log", write(workdir, body, "win.log", newline="\r\n"))
    assert done.exit_code == 0, done.err
    result = done.latency("host_latency", batch=4)
    assert (result["shape"], result["value_ms"], result["throughput_qps"]) == ("96x128", 3.25, 311.2)
    assert result["method"]["flags"] == ["--infStreams=2", "--shapes=img:4x3x96x128,scale:4x2"]
    assert result["method"]["input_shapes"] == "img=4x3x96x128, scale=4x2"
    assert done.record["provenance"]["software"]["tensorrt"] == "10.2.0"


# --- TensorRT 7.0: the "Host latency" block, and times of a run whose counts are 0 ----------------

def old_block_log(header: str, *, warmup: int, timed: int, throughput: str) -> str:
    """A TensorRT 7 block summary of 20 timed iterations that all took 2.15 ms (H2D 0.1 + compute 2.0 + D2H 0.05),
    end to end 2.15 ms, enqueue 0.03 ms."""
    return run_log("trtexec --onnx=m.onnx --explicitBatch --exportTimes=t.json", *lines(
        f"Warmup completed {warmup} queries over 200 ms", f"Timing trace has {timed} queries over 0.20015 s", header,
        *(f"{stat}: 2.15 ms (end to end 2.15 ms)" for stat in ("min", "max", "mean", "median")),
        "percentile: 2.15 ms at 99% (end to end 2.15 ms at 99%)", f"throughput: {throughput} qps",
        "walltime: 0.20015 s", "Enqueue Time", "min: 0.03 ms", "max: 0.03 ms", "median: 0.03 ms", "GPU Compute",
        *(f"{stat}: 2 ms" for stat in ("min", "max", "mean", "median")), "percentile: 2 ms at 99%",
        "total compute time: 0.04 s"), tag="").replace("TensorRT.trtexec  #", "TensorRT.trtexec #")


def times_7(warmup: int, timed: int) -> list[dict]:
    """TensorRT 7 --exportTimes rows (enqueue and input stamps swapped, warm-up exported): ``warmup`` iterations
    computing 5 ms from 0 ms on, then ``timed`` computing 2 ms from 200 ms on, 10 ms apart."""
    rows = []
    for index in range(warmup + timed):
        warm = index < warmup
        base, compute = (index * 40.0, 5.0) if warm else (200.0 + (index - warmup) * 10.0, 2.0)
        row = {"startEnqMs": base, "endEnqMs": base + 0.1, "startInMs": base + 0.02, "endInMs": base + 0.05,
               "startComputeMs": base + 0.1, "endComputeMs": base + 0.1 + compute, "startOutMs": base + 0.1 + compute,
               "endOutMs": base + 0.15 + compute, "inMs": 0.1, "computeMs": compute, "outMs": 0.05,
               "latencyMs": 0.15 + compute, "endToEndMs": 0.15 + compute}
        rows.append({key: round(value, 6) for key, value in row.items()})
    return rows


def test_tensorrt_70_host_latency_block_is_read(collect, workdir):
    # before: the 7.0 spelling "Host latency" opened no block: host and end-to-end latency were dropped unseen
    done = collect("trtexec", "--log", write(workdir, old_block_log("Host latency", warmup=4, timed=20,
                                                                    throughput="99.93")))
    assert done.exit_code == 0, done.err
    assert [r["timing"] for r in done.kind("latency")] == ["host_latency", "end_to_end", "enqueue", "gpu_compute"]
    host = done.latency("host_latency")
    assert (host["value_ms"], host["statistics_ms"]["p99"], host["throughput_qps"]) == (2.15, 2.15, 99.93)
    assert host["distribution"] == {"samples": 20, "warmup_iterations": 4}


def test_times_of_a_zero_batch_run_drop_the_warmup_by_trtexecs_rule(collect, workdir):
    # before: the log's 0 timed queries refused the array (24 iterations, "the run timed 0"); with the counts left
    # out, the 4 warm-up iterations (compute 5 ms) must still be dropped, or the max and mean would include them
    import json
    log = write(workdir, old_block_log("Host Latency", warmup=0, timed=0, throughput="0"))
    times = workdir / "t.json"
    times.write_text(json.dumps(times_7(4, 20)), encoding="utf-8")
    done = collect("trtexec", "--log", log, "--times", times)
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute")
    assert (gpu["distribution"]["samples"], gpu["distribution"]["mean_ms"], gpu["distribution"]["p99_ms"]) == (
        20, 2.0, 2.0)
    assert "its first 4 iteration(s) start computing before the log's 200 ms warm-up" in gpu["note"]
    assert "throughput_qps" not in gpu


# --- dynamic shapes given as --minShapes/--maxShapes only (NVIDIA/TensorRT issue 3229) ---------------

@pytest.mark.parametrize(("shape_flags", "batch", "shape"), [
    ("--minShapes=x:1x3x64x96 --maxShapes=x:4x3x128x192", 4, "128x192"),  # opt broadcast from max
    ("--minShapes=x:2x3x64x96", 2, "64x96"),                              # from min when max is absent too
    ("--minShapes=x:1x3x64x96 --optShapes=x:8x3x96x96 --maxShapes=x:16x3x128x192", 8, "96x96"),
])
def test_shapes_of_a_part_way_log_follow_trtexecs_broadcast(collect, workdir, shape_flags, batch, shape):
    # before: without --optShapes the flags said nothing, and batch and shape went unread
    body = "\n".join([*lines("TensorRT version: 8.6.1"), *SUMMARY_8,
                      f"&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx {shape_flags}"]) + "\n"
    done = collect("trtexec", "--log", write(workdir, body))
    assert done.exit_code == 0, done.err
    assert done.latency("host_latency", batch=batch)["shape"] == shape


# --- TensorRT 10: FP8 strongly typed, timing cache, multi-stream, [W]/[E] lines inside the summary -----

def test_tensorrt_10_fp8_strongly_typed_log_with_interleaved_warnings(collect, workdir):
    # a regression case (read right before this change too): lines of other loggers inside the summary and
    # the timing-cache and multi-stream lines around it take nothing from the figures
    command = ("trtexec --onnx=m.onnx --fp8 --stronglyTyped --timingCacheFile=tc.bin --useCudaGraph --noDataTransfers "
               "--infStreams=2 --separateProfileRun --dumpProfile")
    summary = [*SUMMARY_8[:2], *lines("[TRT] a warning of the builder's own", severity="W"), *SUMMARY_8[2:5],
               *lines("[TRT] an error the run survived", severity="E"), *SUMMARY_8[5:]]
    body = run_log(command, *lines(
        "Precision: Strongly Typed", "timingCacheMode: global", "CUDA Graph: Enabled", "Data transfers: Disabled",
        "Separate profiling: Enabled", "Spin-wait: Disabled", "TensorRT version: 10.10.0",
        "Selected Device: NVIDIA H100 80GB HBM3", "[TRT] Loaded 120345 bytes of timing cache from tc.bin",
        "Created engine with size: 52.25 MiB", "[TRT] [MS] Number of aux streams is 2",
        "Warmup completed 180 queries over 200 ms", "Timing trace has 9000 queries over 3.00041 s"),
        *lines("[TRT] Detected invalid timing cache, setup a local cache instead", severity="W"), *summary,
        *lines("* GPU compute time is unstable, with coefficient of variance = 6.2%.", severity="W"),
        *lines("=== Profile (4500 iterations ) ===", "   Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer",
               "    1200.00       0.2667       0.2650      45.0   /conv1/Conv",
               "    1466.67       0.3259       0.3240      55.0   /fc/Gemm",
               "    2666.67       0.5926       0.5890     100.0   Total"), tag="[TensorRT v101000]")
    done = collect("trtexec", "--log", write(workdir, body))
    assert done.exit_code == 0, done.err
    assert [r["timing"] for r in done.kind("latency")] == ["host_latency", "enqueue", "gpu_compute"]
    gpu = done.latency("gpu_compute")
    assert (gpu["value_ms"], gpu["statistics_ms"]["p95"], gpu["throughput_qps"], gpu["distribution"]) == (
        2.9, 3.2, 311.2, {"samples": 9000, "warmup_iterations": 180, "cv": 0.062})
    method = gpu["method"]
    assert (method["cuda_graph"], method["data_transfers"], method["separate_profile_run"]) == (True, False, True)
    assert done.record["provenance"]["software"]["tensorrt"] == "10.10.0"
    assert done.kind("plan_size")[0]["value_mib"] == 52.25


# --- exact words and edges of the readers above (what mutation testing asked for) -------------------

def test_notes_word_the_zero_batch_and_graph_cases(workdir):
    from studygen.collect.trtexec.latency import run_setting_notes
    log = parse_log(write(workdir, ZERO_BATCH_7))
    assert run_setting_notes(log.runs[0], log) == [
        "run.log:5: the timed and warm-up query counts, printed as 0, left out: TensorRT 7's report scales the query "
        "counts and the throughput by the implicit batch, which is 0 for an explicit-batch engine (no timed run "
        "measures 0)",
        "run.log:13: the throughput, printed as 0, left out: TensorRT 7's report scales the query counts and the "
        "throughput by the implicit batch, which is 0 for an explicit-batch engine (no timed run measures 0)"]
    before = parse_log(write(workdir, run_log("trtexec --loadEngine=a.plan --useCudaGraph", *OPTIONS_86[:5],
                                              *GRAPH_WARNINGS, *OPTIONS_86[5:], *SUMMARY_8), "b.log"))
    assert run_setting_notes(before.runs[0], before) == [
        "b.log:9: run 1 (line 1): trtexec ignored --useCudaGraph; cuda_graph recorded false: its timed inference ran "
        "without the CUDA graph its options enable"]
    after = parse_log(write(workdir, run_log("trtexec --loadEngine=a.plan --useCudaGraph --separateProfileRun",
                                             *OPTIONS_86, *SUMMARY_8, *GRAPH_WARNINGS), "c.log"))
    assert run_setting_notes(after.runs[0], after) == [
        "c.log:20: run 1 (line 1): trtexec ignored --useCudaGraph; after its performance summary, so it concerns the "
        "separate profiling run, not the timings"]


def test_a_repeated_flag_without_a_value_is_shown_bare(collect, workdir):
    log = write(workdir, run_log("trtexec --loadEngine=m.plan --exportProfile --exportProfile=p.json",
                                 *OPTIONS_86, *SUMMARY_8))
    assert_refused(collect("trtexec", "--log", log), "gives --exportProfile 2 times (--exportProfile, "
                                                     "--exportProfile=p.json)")


def test_flag_evidence_words():
    from studygen.collect.trtexec.precision import build_precision, plan_load_evidence
    bare = TrtexecRun(index=0, line=1, command="trtexec --loadEngine --fp16", command_line_number=2)
    assert plan_load_evidence(bare) == "line 2 '--loadEngine'"
    assert build_precision(TrtexecRun(index=0, line=1, command="trtexec --onnx=m.onnx")).evidence == (
        "its flags (no precision flag)")


def test_batch_and_shapes_from_the_flags_say_where_they_come_from():
    assert TrtexecRun(index=0, line=1, command="trtexec --deploy=r.prototxt --batch=4").stated_batch() == (
        4, "its --batch=4 flag")
    assert TrtexecRun(index=0, line=1, command="trtexec --deploy=r.prototxt --batch=x4").stated_batch() == (None, None)
    assert TrtexecRun(index=0, line=1, batch=2, command="trtexec --batch=4").stated_batch() == (
        2, "its implicit batch ('Batch: 2')")
    assert TrtexecRun(index=0, line=1, command="trtexec --maxShapes=x:4x3x8x8").stated_shapes() == (
        [("x", "4x3x8x8")], "--maxShapes=x:4x3x8x8 (no --optShapes: trtexec optimises and runs at these)")
    assert TrtexecRun(index=0, line=1, command="trtexec --optShapes=x:2x3x8x8 --maxShapes=x:4x3x8x8").stated_shapes() == (
        [("x", "2x3x8x8")], "--optShapes=x:2x3x8x8")
    built = TrtexecRun(index=0, line=1, build_shapes="x=1x3x8x8+2x3x8x8+4x3x8x8")
    assert built.stated_shapes() == ([("x", "2x3x8x8")], "x=1x3x8x8+2x3x8x8+4x3x8x8 (min+opt+max)")


def test_warmup_rule_edges():
    from studygen.collect.trtexec.align import _drop_warmup_by_rule
    from studygen.collect.trtexec.times import TimesRun

    def times(starts, exported=True):
        return TimesRun(index=0, line=1, key_set="TensorRT 7", timings={"gpu_compute": [1.0] * len(starts or [0.0, 0.0])},
                        compute_starts=starts, warmup_exported=exported)

    run = TrtexecRun(index=0, line=1, warmup_ms=200)
    assert _drop_warmup_by_rule(times([100.0, 200.0, 210.0]), run).iterations == 2  # 200 ms itself is timed
    assert _drop_warmup_by_rule(times([100.0, 150.0]), run).iterations == 0
    unchanged = [times([200.0, 210.0]), times([100.0, 210.0], exported=False), times(None)]
    assert all(_drop_warmup_by_rule(t, run) is t for t in unchanged)
    no_duration = times([100.0, 210.0])
    assert _drop_warmup_by_rule(no_duration, TrtexecRun(index=0, line=1)) is no_duration


def test_a_conflict_in_the_closing_lines_command_is_placed_there(collect, workdir):
    # a log captured part way has its command on the closing line only: the refusal points there
    body = "\n".join([*lines("TensorRT version: 8.6.1"), *SUMMARY_8,
                      "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.plan --batch=2 --batch=4"])
    done = collect("trtexec", "--log", write(workdir, body + "\n"))
    assert_refused(done, "run.log:11: the command of run 1 (line 1) gives --batch 2 times (--batch=2, --batch=4): "
                         "trtexec reads it once and fails on another copy ('Unknown option'), so which one this run "
                         "used is unknown (the command was edited?); nothing recorded")
