"""Bad input everywhere: one line naming the file and what is wrong, exit 2,
nothing written (and an existing record left byte for byte)."""

from __future__ import annotations

import re

import gzip
import os

import pytest

from tests.collect.conftest import TORCH, TRTEXEC, assert_refused

BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"


def cut_log(workdir, upto_line: int, partial: str | None = None):
    """The build-and-run log up to line ``upto_line`` (1-based, inclusive),
    then ``partial`` text without a newline."""
    lines = BUILD_LOG.read_text().split("\n")
    text = "\n".join(lines[:upto_line]) + "\n" + (partial or "")
    path = workdir / "cut.log"
    path.write_text(text)
    return path


def test_log_cut_mid_summary_line_is_refused(collect, workdir):
    # line 572 is the GPU Compute Time line; cut inside its median figure
    log = cut_log(workdir, 571, "[07/07/2026-02:10:58] [I] GPU Compute Time: min = 0.0331421 ms, max = 0.140381 ms, "
                                "mean = 0.0359588 ms, median = 0.03613")
    assert_refused(collect("trtexec", "--log", log), "cut.log:567:",
                   "the log ends inside the performance summary of run 1 (line 1)", "nothing recorded")


def test_log_cut_after_a_whole_summary_line_is_refused(collect, workdir):
    # the cut falls after a complete line: still inside the summary, still refused
    log = cut_log(workdir, 572)
    assert_refused(collect("trtexec", "--log", log), "ends inside the performance summary")


def test_log_cut_before_passed_is_refused(collect, workdir):
    lines = BUILD_LOG.read_text().split("\n")
    assert lines[-2].startswith("&&&& PASSED")
    path = workdir / "nopass.log"
    path.write_text("\n".join(lines[:-2]) + "\n")
    assert_refused(collect("trtexec", "--log", path), "no '&&&& PASSED' line", "the file is cut")


def test_partial_line_is_never_read_as_a_figure(workdir):
    from studygen.collect.trtexec import parse_log
    from studygen.errors import InputError

    log = cut_log(workdir, 571, "[07/07/2026-02:10:58] [I] GPU Compute Time: min = 0.0331421 ms")
    with pytest.raises(InputError):
        parse_log(log)


def test_failed_run_is_refused(collect, workdir):
    text = BUILD_LOG.read_text().replace("&&&& PASSED TensorRT.trtexec", "&&&& FAILED TensorRT.trtexec")
    path = workdir / "failed.log"
    path.write_text(text)
    assert_refused(collect("trtexec", "--log", path), "failed.log:1: trtexec reported FAILED for run 1")


def test_not_a_log(collect, workdir):
    path = workdir / "notes.txt"
    path.write_text("hello\nworld\n")
    assert_refused(collect("trtexec", "--log", path), "notes.txt: not a trtexec console log")


@pytest.mark.parametrize("option", ["--log", "--times", "--profile", "--layer-info"])
def test_empty_file(collect, workdir, option):
    path = workdir / "empty.json"
    path.write_text("")
    assert_refused(collect("trtexec", option, path), "empty.json: file is empty")


@pytest.mark.parametrize("option", ["--log", "--times", "--profile", "--layer-info"])
def test_binary_file(collect, workdir, option):
    path = workdir / "engine.bin"
    path.write_bytes(b"ftrt\x00\x01\x02\x03" * 64)
    assert_refused(collect("trtexec", option, path), "engine.bin: binary file (NUL bytes), not text")


def test_missing_file(collect, workdir):
    assert_refused(collect("trtexec", "--log", workdir / "nope.log"), "nope.log: no such file")


@pytest.mark.parametrize("option, fixture", [("--times", "trt7_resnet50-int8_times-concatenated.json"),
                                             ("--profile", "detr-r50_profile.json"),
                                             ("--layer-info", "detr-r50_layer-info.json")])
def test_truncated_json(collect, workdir, option, fixture):
    text = (TRTEXEC / fixture).read_text()
    path = workdir / f"cut-{fixture}"
    path.write_text(text[: len(text) // 2])
    line = text[: len(text) // 2].count("\n") + 1
    assert_refused(collect("trtexec", option, path), f"cut-{fixture}:{line}: malformed JSON",
                   "the file ends inside a JSON value (truncated?)")


def test_times_with_unknown_keys(collect, workdir):
    path = workdir / "times.json"
    path.write_text('[{"foo": 1, "latencyMs": 2}]')
    assert_refused(collect("trtexec", "--times", path), "times.json:/0: unknown --exportTimes keys")


def test_times_with_a_non_numeric_value(collect, workdir):
    path = workdir / "times.json"
    path.write_text('[{"startInMs": 0, "endInMs": 1, "inMs": 0.1, "computeMs": "fast", "outMs": 0.1, '
                    '"latencyMs": 1.2, "endToEndMs": 1.3}]')
    assert_refused(collect("trtexec", "--times", path), "times.json:/0/computeMs: computeMs is missing or not a number")


def test_nan_is_not_json(collect, workdir):
    path = workdir / "profile.json"
    path.write_text('[{"count": 3}, {"name": "a", "timeMs": NaN, "averageMs": 1}]')
    assert_refused(collect("trtexec", "--profile", path), "profile.json:1: malformed JSON: NaN is not valid JSON")


def test_input_over_500_mb_is_refused(collect, workdir):
    path = workdir / "huge.log"
    with path.open("wb") as handle:  # sparse: no disk or memory used
        handle.truncate(500 * 1024 * 1024 + 1)
    assert_refused(collect("trtexec", "--log", path), "huge.log: file is 524288001 bytes; the limit is 524288000 bytes (500 MiB)")


def test_gzip_bomb_over_500_mb_is_refused(workdir):
    from studygen.collect.inputs import read_input_text
    from studygen.errors import InputError

    path = workdir / "bomb.json.gz"
    with gzip.open(path, "wb", compresslevel=1) as handle:
        block = b" " * (1 << 20)
        for _ in range(501):
            handle.write(block)
    assert path.stat().st_size < 5 * 1024 * 1024
    with pytest.raises(InputError, match="decompresses to more than 524288000 bytes"):
        read_input_text(path)


def test_damaged_gzip_trace(collect, workdir):
    data = (TORCH / "alexnet_kineto_trace.json.gz").read_bytes()
    path = workdir / "cut.json.gz"
    path.write_bytes(data[: len(data) // 2])
    assert_refused(collect("torch-profile", "--trace", path), "cut.json.gz: damaged gzip file")


def test_truncated_plain_trace(collect, workdir):
    text = gzip.decompress((TORCH / "alexnet_kineto_trace.json.gz").read_bytes()).decode()
    path = workdir / "trace.json"
    path.write_text(text[:5000])
    refused = collect("torch-profile", "--trace", path)
    assert_refused(refused, "trace.json:", "malformed JSON")
    assert re.match(r"studygen: trace\.json:\d+: malformed JSON", refused.err), refused.err  # the line where it ends


def test_empty_plan(collect, workdir):
    path = workdir / "empty.plan"
    path.write_bytes(b"")
    assert_refused(collect("trtexec", "--plan", path), "empty.plan: file is empty")


@pytest.mark.parametrize("args, message", [
    (("--shape", "800"), "invalid --shape '800': use HxW in pixels"),
    (("--software", "tensorrt"), "invalid --software 'tensorrt': use NAME=VERSION"),
    (("--checkpoint", "model@"), "invalid --checkpoint 'model@': use ID or ID@REVISION"),
])
def test_bad_option_values(collect, args, message):
    assert_refused(collect("trtexec", "--log", BUILD_LOG, *args), message)


def test_bad_family_and_job(collect):
    done = collect("trtexec", "--log", BUILD_LOG, family="../evil")
    assert done.exit_code == 2 and "invalid family name '../evil'" in done.err
    done = collect("trtexec", "--log", BUILD_LOG, job="../evil")
    assert done.exit_code == 2 and "invalid job id '../evil'" in done.err
    assert not list(done.measurements.parent.glob("**/*.json"))


def test_no_input_given(collect):
    assert_refused(collect("trtexec"), "give at least one of --log, --times, --profile, --layer-info, --plan")


def test_unreadable_existing_record_is_reported_not_overwritten(collect, workdir):
    target = workdir / "measurements" / "demo" / "job1.json"
    target.parent.mkdir(parents=True)
    target.write_text('{"schema_version": 1, "job_id": "job1"')
    done = collect("trtexec", "--log", BUILD_LOG)
    assert done.exit_code == 2
    assert "job1.json:1: malformed JSON" in done.err
    assert target.read_text() == '{"schema_version": 1, "job_id": "job1"'


def test_no_temporary_files_left_behind(collect, workdir):
    collect("trtexec", "--log", BUILD_LOG)
    before = (workdir / "measurements" / "demo" / "job1.json").read_bytes()
    same = collect("trtexec", "--log", BUILD_LOG)  # the same inputs again: nothing new, nothing written
    assert same.exit_code == 0 and "nothing new, the record is unchanged" in same.out
    assert (workdir / "measurements" / "demo" / "job1.json").read_bytes() == before
    again = collect("trtexec", "--log", BUILD_LOG, "--gpu", "NVIDIA A100")  # refused: the log names another GPU
    assert again.exit_code == 2
    leftovers = [p.name for p in (workdir / "measurements" / "demo").iterdir()]
    assert leftovers == ["job1.json"]
    assert os.access(workdir / "measurements" / "demo" / "job1.json", os.R_OK)


def test_log_without_status_lines_needs_a_whole_summary(collect, workdir):
    # output captured from the middle of a run: no "&&&&" lines at all
    lines = [text for text in (TRTEXEC / "trt8.6_unstable-gpu-compute.log").read_text().split("\n") if not text.startswith("&&&&")]
    whole = workdir / "middle.log"
    whole.write_text("\n".join(lines))
    done = collect("trtexec", "--log", whole)
    assert done.exit_code == 0, done.err
    # "Input inference shape: tensor-0=4x1x28x28" (line 50) gives the batch even without the command line
    assert done.latency("gpu_compute", batch=4)["value_ms"] == 0.0439453
    summary_at = next(i for i, text in enumerate(lines) if text.endswith("=== Performance summary ==="))
    cut = workdir / "middle-cut.log"
    cut.write_text("\n".join(lines[: summary_at + 4]) + "\n")  # up to the H2D Latency line
    refused = collect("trtexec", "--log", cut, job="cut")
    assert refused.exit_code == 2
    assert f"middle-cut.log:{summary_at + 1}: the performance summary of run 1" in refused.err
    assert "is incomplete" in refused.err and not refused.path.exists()


def test_complete_log_without_final_newline_is_accepted(collect, workdir):
    path = workdir / "nonl.log"
    path.write_text(BUILD_LOG.read_text().rstrip("\n"))
    done = collect("trtexec", "--log", path)
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=1)["value_ms"] == 0.0361328


@pytest.mark.parametrize("digits", [310, 400, 4300, 5000])
def test_a_whole_figure_past_a_doubles_range_is_refused_at_its_line(collect, workdir, digits):
    # a 400-digit whole latency read as an int reached the statistics order check, which raised OverflowError;
    # past 4300 digits (Python's int() limit) the log is refused before any line is read, at the same line
    huge = "9" * digits
    text = BUILD_LOG.read_text().replace("Latency: min = 0.0410156 ms", f"Latency: min = {huge} ms", 1)
    path = workdir / "huge.log"
    path.write_text(text)
    if digits > 4300:
        assert_refused(collect("trtexec", "--log", path), "huge.log:569: a number of more than 4300 digits")
    else:
        assert_refused(collect("trtexec", "--log", path), "huge.log:569: the Latency min is '999",
                       "which is not a finite figure (a double cannot hold it): nothing recorded")


def test_a_whole_figure_within_a_doubles_range_is_read_as_printed():
    from studygen.collect.inputs import figure

    assert figure("9" * 308) == int("9" * 308) and figure("0") == 0 and figure("17") == 17
    with pytest.raises(ValueError):
        figure("9" * 309 + "0")  # 1e310 - 10 > 1.797e308


@pytest.mark.parametrize("line", ["Batch: {n}", "Compute Capability: 8.{n}",
                                  "Created input binding for input with dimensions {n}x3x224x224"])
def test_a_number_past_pythons_digit_limit_is_refused_naming_its_line(collect, workdir, line):
    # int() refuses more than 4300 digits (sys.get_int_max_str_digits()): a batch, compute capability or binding
    # that long was an internal error (ValueError) instead of a refusal naming the log's line
    from tests.collect.trtexec_logs import log_text, write

    log = write(workdir, log_text("trtexec --onnx=m.onnx", "Selected Device: NVIDIA A100", line.format(n="7" * 4301)))
    done = collect("trtexec", "--log", log, "--variant", "fp32", "--shape", "224x224")
    assert_refused(done, "run.log:3: a number of more than 4300 digits")


def test_a_batch_printed_twice_differently_in_one_run_is_refused(collect, workdir):
    # 'Batch: 1' then 'Batch: 4' inside one run (two logs' option blocks pasted together): the second replaced
    # the first in silence and every result was recorded at batch 4; the device and throughput were refused so
    from tests.collect.trtexec_logs import log_text, write

    log = write(workdir, log_text("trtexec --onnx=m.onnx", "Selected Device: NVIDIA A100", "Batch: 1", "Batch: 4"))
    done = collect("trtexec", "--log", log, "--variant", "fp32", "--shape", "224x224")
    assert_refused(done, "run.log:4: run 1 (line 1) prints its batch twice, 1 on line 3 and 4 on line 4")
    again = write(workdir, log_text("trtexec --onnx=m.onnx", "Selected Device: NVIDIA A100", "Batch: 4", "Batch: 4"))
    repeated = collect("trtexec", "--log", again, "--variant", "fp32", "--shape", "224x224")
    assert repeated.exit_code == 0, repeated.err
    assert {r["batch"] for r in repeated.results} == {4}
