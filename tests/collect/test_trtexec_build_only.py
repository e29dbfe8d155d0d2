"""``collect trtexec --log`` on a log that gave no result says which file and
why, not only "nothing to record: the inputs gave no result" (a new user's
report): a build-only log (``--skipInference``: an engine built, no inference
run, no performance summary) names the flag and the lines that show it, and a
log whose run passed without printing anything this reader records says so.
Each test failed before: the message named neither the file nor the cause.

The build-only log is NVIDIA's trt-samples-for-hackathon-cn cookbook
``07-Tool/trtexec/result-02.log`` (TensorRT 8.6.0, RTX 3090), read from
../shared/fixtures/public. Its lines, read by hand: 1 ``&&&& RUNNING`` with
``--saveEngine=model-FP32.plan --skipInference``; 25 ``Skip inference:
Enabled``; 3433 ``Engine built in 9.55249 sec.``; 3438 ``Skipped inference
phase since --skipInference is added.``; 3439 ``&&&& PASSED``.
"""

from __future__ import annotations

from tests.collect.conftest import assert_refused
from tests.conftest import FIXTURES

BUILD_ONLY = FIXTURES / "public" / "hackathon-07271c31_trt8.6.0_result-02.log"


def test_a_build_only_log_names_the_file_the_flag_and_its_lines(collect):
    done = collect("trtexec", "--log", BUILD_ONLY, "--variant", "fp16")
    assert_refused(done)
    assert done.err == (
        f"studygen: {BUILD_ONLY}:3438: nothing to record: run 1 (line 1) built an engine (line 3433) and ran no "
        "inference: its command line has --skipInference, and line 3438 says 'Skipped inference phase since "
        "--skipInference is added.'; a build-only log has no timings (collect the log of a run that times the "
        "engine, and its size with --plan model-FP32.plan)\n")


def test_the_setting_line_is_quoted_when_the_closing_one_is_missing(collect, workdir):
    lines = BUILD_ONLY.read_text(encoding="utf-8").split("\n")
    assert lines[3437].endswith("] [I] Skipped inference phase since --skipInference is added.")
    del lines[3437]  # as a log of a trtexec that does not print it
    path = workdir / "build.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    done = collect("trtexec", "--log", path, "--variant", "fp16")
    assert_refused(done, "studygen: build.log:25: nothing to record: run 1 (line 1) built an engine (line 3433) and ran "
                         "no inference: its command line has --skipInference, and line 25 says 'Skip inference: "
                         "Enabled'; a build-only log")


def test_a_run_that_passed_without_a_summary_says_what_it_lacks(collect, workdir):
    lines = [line.replace(" --skipInference", "") for line in BUILD_ONLY.read_text(encoding="utf-8").split("\n")]
    assert lines[24].endswith("] [I] Skip inference: Enabled")
    lines[24] = lines[24].replace("Enabled", "Disabled")
    del lines[3437]
    path = workdir / "edited.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    done = collect("trtexec", "--log", path, "--variant", "fp16")
    assert_refused(done)
    assert done.err == (
        "studygen: edited.log:1: nothing to record: run 1 (line 1) built an engine (line 3433) and passed (line 3438) "
        "without a performance summary, a --dumpProfile table or an engine size ('Created engine with size'), "
        "and its command line has no --skipInference: the log was cut or edited?\n")


def _captured_part_way(workdir, skipped: bool):
    """The build-only log without its '&&&& RUNNING' and '&&&& PASSED' lines (output captured part way: no
    command line), keeping trtexec's own 'skip inference' lines or not; its lines move up by one."""
    lines = BUILD_ONLY.read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("&&&& RUNNING") and lines[3438].startswith("&&&& PASSED")
    if not skipped:
        lines[24] = lines[24].replace("Enabled", "Disabled")
        del lines[3437]
    del lines[3438 if skipped else 3437], lines[0]
    path = workdir / "part.log"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_a_log_without_its_command_line_is_told_build_only_by_trtexec_lines(collect, workdir):
    done = collect("trtexec", "--log", _captured_part_way(workdir, skipped=True), "--variant", "fp16")
    assert_refused(done)
    assert done.err == (
        "studygen: part.log:3437: nothing to record: run 1 (line 1) built an engine (line 3432) and ran no inference: "
        "line 3437 says 'Skipped inference phase since --skipInference is added.'; a build-only log has no timings "
        "(collect the log of a run that times the engine)\n")


def test_a_log_without_its_command_line_or_closing_line_ended(collect, workdir):
    done = collect("trtexec", "--log", _captured_part_way(workdir, skipped=False), "--variant", "fp16")
    assert_refused(done, "studygen: part.log:1: nothing to record: run 1 (line 1) built an engine (line 3432) and ended "
                         "without a performance summary")
