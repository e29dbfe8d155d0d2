"""What a trtexec log prints but the reader cannot take is said, not passed
over: a compute capability line that is no ``MAJOR.MINOR`` under a variant
declared fp32 (whether TF32 could run is then unknown), and a batch the
log prints twice, differently (``Batch: 1`` above an input binding that
leads with 10, as a loaded plan's run on TensorRT 8.6 printed it), which
is left unrecorded with a note; and a performance summary the reader reads
no run from is refused for what it is (its opening line cut, or its
prefixes), not as a file with no summary.

Logs written here in trtexec's layout with figures of our own; the
near-misses show the lines that still read as before.
"""

from __future__ import annotations

import pytest

from studygen.collect.trtexec.figures import shown
from tests.collect.conftest import TRTEXEC, assert_refused
from tests.collect.trtexec_logs import STAMP, SUMMARY, log_text, write


@pytest.fixture
def study(workdir, run_cli):
    made = run_cli("new", "demo", "--variants", "fp32,fp16", "--root", workdir)
    assert made.exit_code == 0, made.err
    return workdir


@pytest.fixture
def case(workdir, run_cli, collect):
    """``case(name, log_text, *args)``: the log collected under ``--variant``
    in a project of its own (``name/``, a study declaring fp32 and fp16):
    the logs here share their summary, and one run is refused in two jobs."""
    def invoke(name: str, text: str, *args):
        root = workdir / name
        made = run_cli("new", "demo", "--variants", "fp32,fp16", "--root", root)
        assert made.exit_code == 0, made.err
        return collect("trtexec", "--log", write(workdir, text, f"{name}.log"), "--root", root, *args,
                       measurements=root / "measurements")
    return invoke


def fp32_build(*device_lines: str) -> str:
    """An FP32 build from ONNX (no --noTF32) whose Device Information prints ``device_lines``."""
    return log_text("trtexec --onnx=seg.onnx", "=== Model Options ===", "Format: ONNX", "=== Build Options ===",
                    "Precision: FP32", "=== Device Information ===", "Selected Device: Example GPU",
                    *device_lines)


def tf32_notes(done) -> list[str]:
    return [note for note in done.record["provenance"].get("notes", []) if "TF32" in note]


@pytest.mark.parametrize("printed", ["Compute Capability: 8", "Compute Capability: 8.6.1", "Compute Capability: sm_86",
                                     "Compute Capability: 8,6", "Compute capability: 8.6", "Compute Capability:"])
def test_a_compute_capability_line_that_does_not_read_is_noted_under_fp32(collect, study, workdir, printed):
    # failed before: no note at all, as if the log named no GPU generation
    done = collect("trtexec", "--log", write(workdir, fp32_build(printed)), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert tf32_notes(done) == [
        f"run.log run 1 (line 1): variant 'fp32' is declared fp32, and the build has no --noTF32, but its compute "
        f"capability line (line 8, {printed!r}) is not MAJOR.MINOR: whether the GPU could run FP32 convolutions and "
        "GEMMs with TF32 tactics (compute capability 8.0 and above) is not known, so these figures may not be "
        "full-FP32 arithmetic"]
    assert done.latency("gpu_compute")["value_ms"] == 17.5  # the figures read as before


def test_near_misses_of_the_unread_compute_capability(case):
    # read as MAJOR.MINOR: 8.6 gets the TF32 note of a compute capability, 7.5 none, as before
    ampere = case("a", fp32_build("Compute Capability: 8.6"), "--variant", "fp32")
    assert ampere.exit_code == 0, ampere.err
    (note,) = tf32_notes(ampere)
    assert "(compute capability 8.6, no --noTF32)" in note
    assert tf32_notes(case("t", fp32_build("Compute Capability: 7.5"), "--variant", "fp32")) == []
    (note,) = tf32_notes(case("a100", fp32_build("Compute Capability: 8.0"), "--variant", "fp32"))  # the first TF32 one
    assert "(compute capability 8.0, no --noTF32)" in note
    # TensorRT 10's own line says TF32 is on: that evidence is named, the damaged line adds nothing
    ten = log_text("trtexec --onnx=seg.onnx", "TF32 is enabled by default. Add --noTF32 flag to further improve "
                   "accuracy with some performance cost.", "Precision: FP32", "Compute Capability: 8",
                   tag="[TensorRT v100900]")
    (note,) = tf32_notes(case("ten", ten, "--variant", "fp32"))
    assert "(line 2: 'TF32 is enabled by default')" in note
    # fp16, or --noTF32: no note either way
    half = log_text("trtexec --onnx=seg.onnx --fp16", "Precision: FP32+FP16", "Compute Capability: 8")
    assert tf32_notes(case("h", half, "--variant", "fp16")) == []
    off = fp32_build("Compute Capability: 8").replace("--onnx=seg.onnx", "--onnx=seg.onnx --noTF32")
    assert tf32_notes(case("o", off, "--variant", "fp32")) == []
    # another label that only starts alike is no compute capability line
    assert tf32_notes(case("m", fp32_build("Compute Capability Mode: default"), "--variant", "fp32")) == []


def binding_log(batch_line: str | None, dims: str) -> str:
    messages = ["=== Model Options ===", "Format: *", "=== Inference Options ==="]
    messages += [batch_line] if batch_line else []
    messages += ["Input inference shapes: model", f"Input binding for images with dimensions {dims} is created.",
                 "Output binding for out with dimensions 10x100 is created."]
    return log_text("trtexec --loadEngine=det.plan", *messages, tag="[TensorRT v8601]")


def test_a_batch_the_log_prints_twice_differently_is_not_recorded_and_says_why(collect, workdir):
    # the T4 run of a loaded plan: 'Batch: 1' above a binding 10x3x640x1088. Before: no batch, and no word why
    done = collect("trtexec", "--log", write(workdir, binding_log("Batch: 1", "10x3x640x1088")), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert "batch" not in done.latency("gpu_compute")
    assert done.latency("gpu_compute")["shape"] == "640x1088"
    batch_notes = [note for note in done.record["provenance"]["notes"] if "no batch recorded" in note]
    assert batch_notes == [
        "run.log run 1 (line 1): no batch recorded: its 'Batch: 1' and the leading dimension 10 of its input shapes "
        "images=10x3x640x1088 (input binding, line 7) disagree (an implicit-batch binding has no batch dimension, an "
        "explicit-batch one leads with it); give --batch N where it is known"]
    # the option settles it, with no note
    given = collect("trtexec", "--log", write(workdir, binding_log("Batch: 1", "10x3x640x1088"), "g.log"),
                    "--variant", "fp32", "--batch", "10", job="given", measurements=workdir / "other")
    assert given.exit_code == 0, given.err
    assert given.latency("gpu_compute", batch=10)["value_ms"] == 17.5
    # a --batch the log's own batch contradicts is refused, naming the log, as before
    said = collect("trtexec", "--log", write(workdir, binding_log("Batch: 10", "10x3x640x1088"), "s.log"),
                   "--variant", "fp32", "--batch", "4", job="said", measurements=workdir / "said")
    assert_refused(said, "--batch 4 but s.log says batch 10 for run 1 (line 1)")
    assert not [note for note in given.record["provenance"]["notes"] if "no batch recorded" in note]


@pytest.mark.parametrize(("batch_line", "dims", "batch"), [("Batch: 10", "10x3x640x1088", 10),
                                                           (None, "10x3x640x1088", 10),
                                                           ("Batch: Explicit", "4x3x64x64", 4)])
def test_near_misses_of_a_batch_printed_twice(collect, workdir, batch_line, dims, batch):
    done = collect("trtexec", "--log", write(workdir, binding_log(batch_line, dims)), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=batch)["value_ms"] == 17.5
    assert not [note for note in done.record["provenance"]["notes"] if "no batch recorded" in note]


CUT_OPENING = ("starts at line {line} ({text}) without the line trtexec opens every summary with ('=== Performance "
               "summary ===', or a TensorRT 7 'Host Latency' block): the log was cut above it (an excerpt?), and which "
               "run printed it, with which options, is not in the file; nothing recorded")
NO_PREFIX = "its performance summary (line {line}, {text}) has no trtexec line prefix ('[date-time] [I] ')"


def summary_lines(first: int) -> list[str]:
    """The summary's lines from its ``first`` line on (0 is its header), each with trtexec's prefix."""
    return [STAMP + line for line in SUMMARY.splitlines()[first:]]


@pytest.mark.parametrize("first", [1, 4])  # from "Throughput:", from "H2D Latency:"
def test_a_summary_cut_below_its_header_is_refused_for_that(collect, workdir, first):
    # failed before: "no '&&&& RUNNING' line and no performance summary", of a file holding one
    lines = ["$ trtexec --loadEngine=best.engine --batch=128 --streams=32", *summary_lines(first)]
    refused = collect("trtexec", "--log", write(workdir, "\n".join(lines) + "\n"), "--variant", "fp16")
    assert_refused(refused, CUT_OPENING.format(line=2, text=shown(lines[1])))
    assert refused.err.startswith("studygen: run.log:2: its performance summary starts at line 2 (")
    assert refused.err.endswith("nothing recorded (collect the log trtexec wrote)\n")


def test_a_tensorrt_7_block_without_its_prefix_or_opening_is_refused_for_its_prefix(collect, workdir):
    # a README's excerpt: the date cut from each line, the 'Host Latency' block above cut away with "(...)"
    text = "(...)\n[I] Timing trace has 204 queries over 3.00185 s\n(...)\n[I] GPU Compute\n[I] min: 6.25 ms\n"
    refused = collect("trtexec", "--log", write(workdir, text), "--variant", "fp32")
    assert refused.err == (f"studygen: run.log:4: {NO_PREFIX.format(line=4, text=shown('[I] GPU Compute'))}, which "
                           "tells trtexec's lines and their severity from the rest: the log was edited (prefixes cut "
                           "when pasted?); nothing recorded (collect the log trtexec wrote)\n")
    # a header without its prefix is named before a summary line above it, as before
    header_below = "[I] Throughput: 5 qps\n[I] === Performance summary ===\n"
    assert_refused(collect("trtexec", "--log", write(workdir, header_below, "h.log"), "--variant", "fp32", job="h"),
                   NO_PREFIX.format(line=2, text=shown("[I] === Performance summary ===")))
    bare = write(workdir, "Throughput: 812.5 qps\nGPU Compute Time: min = 1 ms, max = 2 ms, mean = 1.5 ms, "
                 "median = 1.5 ms\n", "bare.log")
    assert_refused(collect("trtexec", "--log", bare, "--variant", "fp32", job="bare"),
                   NO_PREFIX.format(line=1, text=shown("Throughput: 812.5 qps")))


def test_near_misses_of_a_cut_summary(collect, workdir):
    # the summary with its header reads as before, and a file with no summary line says so as before
    whole = collect("trtexec", "--log", write(workdir, "\n".join(summary_lines(0)) + "\n"), "--variant", "fp16")
    assert whole.exit_code == 0, whole.err
    assert whole.latency("gpu_compute")["value_ms"] == 17.5
    no_summary = STAMP + "Average on 10 runs - GPU latency: 2.24 ms - Host latency: 6.5 ms (enqueue 6.43 ms)\n"
    for text in (no_summary, STAMP + "Throughput: fast\n", "Latency: 3 ms over the network\n"):
        refused = collect("trtexec", "--log", write(workdir, text, "n.log"), "--variant", "fp16", job="none")
        assert_refused(refused, "not a trtexec console log: no '&&&& RUNNING' line and no performance summary")
    # a run that prints a summary line but no summary is refused as before (nothing to record), not as a cut excerpt
    stray = "".join(["&&&& RUNNING TensorRT.trtexec [TensorRT v8400] # trtexec --onnx=m.onnx\n",
                     STAMP + "Format: ONNX\n", STAMP + "Throughput: 5 qps\n",
                     "&&&& PASSED TensorRT.trtexec [TensorRT v8400] # trtexec --onnx=m.onnx\n"])
    refused = collect("trtexec", "--log", write(workdir, stray, "s.log"), "--variant", "fp16", job="stray")
    assert_refused(refused, "nothing to record: run 1 (line 1) passed (line 4) without a performance summary")
    # the real TensorRT 10.16 log whose prefixes are all kept, its header cut: refused for the cut opening
    real = (TRTEXEC / "trt10.16_build-and-run.log").read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(real) if line.endswith("=== Performance summary ==="))
    cut = write(workdir, "\n".join(real[at + 1:]) + "\n", "cut.log")
    refused = collect("trtexec", "--log", cut, "--variant", "fp32", job="cut")
    assert_refused(refused, CUT_OPENING.format(line=1, text=shown(real[at + 1])))
