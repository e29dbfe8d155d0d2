"""A trtexec run closed with ``&&&& FAILED`` is recorded as not measured (a
configuration tried and failed is a finding), with the reason and the run's
last [E] line; refused only when nothing names the variant it tried."""

from __future__ import annotations

from studygen.collect.trtexec import parse_log
from tests.collect.conftest import TRTEXEC, assert_refused
from tests.conftest import FIXTURES

# a public fp16 build that failed: 113 lines, the FAILED line last, no [E] line (read off the file by hand)
FAILED_FP16 = FIXTURES / "public" / "hackathon-c65790e1_trt8.2.3_result-FP16-failed.txt"
BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"
STAMP = "[01/02/2026-03:04:05] "


def _own_failed_log(path):
    """A log of our own: one run whose build fails with two [E] lines (lines 4 and 5), FAILED on line 6."""
    command = "trtexec --onnx=net.onnx --fp16 --shapes=input:2x3x64x96"
    path.write_text("\n".join([
        f"&&&& RUNNING TensorRT.trtexec [TensorRT v100100] # {command}",
        STAMP + "[I] === Model Options ===",
        STAMP + "[W] a warning that is no error",
        STAMP + "[E] Error[2]: first complaint",
        STAMP + "[E] Error[4]: [network.cpp::validate::3100] no implementation for layer Foo",
        f"&&&& FAILED TensorRT.trtexec [TensorRT v100100] # {command}",
        ""]))
    return path


def test_the_public_failed_fp16_build_is_recorded_as_not_measured(collect):
    done = collect("trtexec", "--variant", "fp16", "--log", FAILED_FP16)
    assert done.exit_code == 0, done.err
    assert done.results == [{
        "kind": "not_measured", "variant": "fp16", "shape": "28x28", "batch": 4, "backend": "tensorrt",
        "mode": "engine", "metric": "latency",
        "reason": "trtexec reported FAILED (hackathon-c65790e1_trt8.2.3_result-FP16-failed.txt line 113); "
                  "the run printed no error line ([E]) before it",
        "source_locator": "hackathon-c65790e1_trt8.2.3_result-FP16-failed.txt:113"}]
    assert done.record["provenance"]["software"]["tensorrt"] == "8.2.3"  # the failed run's version tag


def test_the_reason_quotes_the_first_and_last_error_lines_and_the_options_label_it(collect, workdir):
    # the first [E] line is the cause, the last often trtexec's own consequence; before, the last alone was quoted
    log = _own_failed_log(workdir / "own.log")
    done = collect("trtexec", "--variant", "fp16", "--log", log)
    assert done.exit_code == 0, done.err
    [result] = done.results
    assert result["reason"] == ("trtexec reported FAILED (own.log line 6); its first error (line 4): Error[2]: first "
                                "complaint; its last of 2 (line 5): Error[4]: [network.cpp::validate::3100] no "
                                "implementation for layer Foo")
    assert (result["shape"], result["batch"], result["source_locator"]) == ("64x96", 2, "own.log:6")
    refused = collect("trtexec", "--variant", "fp16", "--shape", "64x64", "--log", log, job="other")
    assert_refused(refused, "--shape 64x64 but own.log says 64x96 for run 1 (line 1)")


def test_a_failed_run_whose_variant_nothing_names_is_still_refused(collect, workdir):
    log = _own_failed_log(workdir / "own.log")
    assert_refused(collect("trtexec", "--log", log),
                   "own.log:1: trtexec reported FAILED for run 1 (line 1); nothing recorded: give --variant (and "
                   "--shape) to record the configuration it tried as not measured")


def test_a_failed_run_beside_a_passed_one_keeps_the_passed_figures(workdir):
    passed = BUILD_LOG.read_text()
    failed = _own_failed_log(workdir / "own.log").read_text().replace("v100100", "v101601")
    both = workdir / "both.log"
    both.write_text(passed + failed)
    log = parse_log(both)
    alone = parse_log(BUILD_LOG)
    assert [run.index for run in log.runs] == [0] and [run.index for run in log.failed] == [1]
    assert log.runs[0].summary == alone.runs[0].summary
    offset = passed.count("\n")
    assert log.failed[0].errors == [(offset + 4, "Error[2]: first complaint"),
                                    (offset + 5, "Error[4]: [network.cpp::validate::3100] no implementation for "
                                                 "layer Foo")]


def test_a_build_only_run_that_failed_misses_its_plan_size_and_a_long_error_is_cut(collect, workdir):
    command = "trtexec --onnx=net.onnx --int8 --skipInference --saveEngine=net.plan"
    long_error = "Error[10]: could not find any implementation for node " + "x" * 300
    (workdir / "build.log").write_text("\n".join([
        f"&&&& RUNNING TensorRT.trtexec [TensorRT v100100] # {command}",
        STAMP + "[E] Error[1]: first",
        STAMP + "[E] Error[2]: second",
        STAMP + f"[E] {long_error}",
        f"&&&& FAILED TensorRT.trtexec [TensorRT v100100] # {command}",
        ""]))
    done = collect("trtexec", "--variant", "int8", "--shape", "640x640", "--log", workdir / "build.log")
    assert done.exit_code == 0, done.err
    [result] = done.results
    assert (result["metric"], result["shape"], result["variant"]) == ("plan_size", "640x640", "int8")
    shown = long_error[:197] + "..."
    assert result["reason"] == (f"trtexec reported FAILED (build.log line 5); its first error (line 2): Error[1]: first; "
                                f"its last of 3 (line 4): {shown}")
    assert len(shown) == 200


def test_a_long_first_error_is_cut_too_and_a_tensorrt_7_parse_failure_names_its_cause(collect, workdir):
    from studygen.collect.trtexec.failed import failure_reason
    from studygen.collect.trtexec.runs import TrtexecLog, TrtexecRun

    run = TrtexecRun(index=0, line=1, status="FAILED", status_line=9, errors=[(7, "f" * 201), (8, "e" * 200)])
    assert failure_reason(TrtexecLog("x/a.log", [], [run]), run) == (
        "trtexec reported FAILED (a.log line 9); its first error (line 7): " + "f" * 197 + "...; its last of 2 "
        "(line 8): " + "e" * 200)
    # TensorRT 7.2's ONNX parse failure: four [E] lines, the cause first, trtexec's consequences after it
    command = "trtexec --onnx=det.onnx --explicitBatch --fp16"
    (workdir / "parse.log").write_text("\n".join(
        [f"&&&& RUNNING TensorRT.trtexec # {command}", STAMP + "[I] Precision: FP32+FP16", "ERROR: importer.cpp:12 In "
         "function importPad:", "[8] Assertion failed: inputs.at(1).is_weights()"]
        + [STAMP + "[E] " + message for message in ("Failed to parse onnx file", "Parsing model failed",
                                                    "Engine creation failed", "Engine set up failed")]
        + [f"&&&& FAILED TensorRT.trtexec # {command}", ""]))
    done = collect("trtexec", "--variant", "fp16", "--shape", "512x512", "--log", workdir / "parse.log")
    assert done.exit_code == 0, done.err
    assert done.results[0]["reason"] == (
        "trtexec reported FAILED (parse.log line 9); its first error (line 5): Failed to parse onnx file; its last of 4 "
        "(line 8): Engine set up failed")


def test_an_error_line_of_exactly_200_characters_is_quoted_whole():
    from studygen.collect.trtexec.failed import failure_reason
    from studygen.collect.trtexec.runs import TrtexecLog, TrtexecRun

    run = TrtexecRun(index=0, line=1, status="FAILED", status_line=9, errors=[(8, "e" * 200)])
    assert failure_reason(TrtexecLog("x/a.log", [], [run]), run) == (
        "trtexec reported FAILED (a.log line 9); its last error (line 8): " + "e" * 200)


def _failed_then_passed(workdir, shapes: str):
    """A failed run of the no-data-transfers fixture's engine at ``shapes``, then the fixture's passed run (28x28, batch 4)."""
    command = f"trtexec --loadEngine=model-trained.trt --shapes={shapes} --noDataTransfers"
    failed = "\n".join([f"&&&& RUNNING TensorRT.trtexec [TensorRT v101601] # {command}",
                        STAMP + "[E] Error[3]: a first attempt that failed",
                        f"&&&& FAILED TensorRT.trtexec [TensorRT v101601] # {command}", ""])
    log = workdir / "retry.log"
    log.write_text(failed + (TRTEXEC / "trt10.16_no-data-transfers.log").read_text())
    return log


def test_a_failed_run_measured_again_in_the_same_log_is_no_gap(collect, workdir):
    # review: "failed, fixed, run again" in one log recorded both a latency and a not-measured latency of fp32 28x28 b4
    done = collect("trtexec", "--variant", "fp32", "--log", _failed_then_passed(workdir, "x:4x1x28x28"))
    assert done.exit_code == 0, done.err
    assert [r["kind"] for r in done.results if r["kind"] == "not_measured"] == []
    assert {(r["shape"], r["batch"]) for r in done.results if r["kind"] == "latency"} == {("28x28", 4)}


def test_a_failed_run_of_another_batch_beside_a_passed_one_is_still_a_gap(collect, workdir):
    done = collect("trtexec", "--variant", "fp32", "--log", _failed_then_passed(workdir, "x:8x1x28x28"))
    assert done.exit_code == 0, done.err
    (gap,) = [r for r in done.results if r["kind"] == "not_measured"]
    assert (gap["shape"], gap["batch"], gap["metric"]) == ("28x28", 8, "latency")
    assert gap["reason"] == "trtexec reported FAILED (retry.log line 3); its last error (line 2): Error[3]: a first attempt that failed"


def test_a_failed_run_whose_command_gives_a_flag_twice_is_refused(collect, workdir):
    # review: the batch of the first --shapes was recorded as tried, though the repeat is likely why trtexec failed
    command = "trtexec --onnx=net.onnx --shapes=x:4x1x28x28 --shapes=x:8x1x28x28"
    log = workdir / "twice.log"
    log.write_text("\n".join([f"&&&& RUNNING TensorRT.trtexec [TensorRT v101601] # {command}",
                              STAMP + "[E] Unknown option: --shapes x:8x1x28x28",
                              f"&&&& FAILED TensorRT.trtexec [TensorRT v101601] # {command}", ""]))
    assert_refused(collect("trtexec", "--variant", "fp32", "--log", log),
                   "twice.log:1: the command of run 1 (line 1) gives --shapes 2 times (--shapes=x:4x1x28x28, "
                   "--shapes=x:8x1x28x28)")
