"""A trtexec log collected under a variant whose declared precision its
build contradicts is refused (issue 22, "Wrong variant accepted").

What a build allowed is read from the log's ``Precision:`` line (TensorRT
7 to 10: ``FP32+FP16``, ``FP32+FP16+INT8`` for ``--best``, ``+BF16``,
``+FP8``, ``+INT4``, a parenthesised constraint mode, ``Strongly Typed``),
else from the command's precision flags; a run that loaded its engine
(``Format: *``, ``--loadEngine``) built nothing, and the precision it prints
is only trtexec's default. The logs are the real public ones where one
shows the case, else written here in trtexec's layout.
"""

from __future__ import annotations

import pytest

from tests.collect.conftest import FIXTURES, TRTEXEC, assert_refused
from tests.collect.trtexec_logs import log_text, write

FP16_BUILD = FIXTURES / "public" / "hackathon-76321b19_trt8.4.1_result-FP16.log"  # line 1 --fp16, line 11 FP32+FP16
VARIANTS = "fp32,tf32,fp16,bf16,int8,fp8,int4,nvfp4"


@pytest.fixture
def study(workdir, run_cli):
    """A project (in the working directory) whose study declares one variant of each precision."""
    made = run_cli("new", "demo", "--variants", VARIANTS, "--root", workdir)
    assert made.exit_code == 0, made.err
    return workdir


def built(precision_line: str | None, flags: str = "", model: str = "--onnx=det.onnx") -> str:
    """A log of a run that built its engine from a model, printing ``Precision: <precision_line>``."""
    messages = ["=== Model Options ===", "Format: ONNX" if "--onnx" in model else "Format: *", "=== Build Options ==="]
    if precision_line is not None:
        messages.append(f"Precision: {precision_line}")
    return log_text(f"trtexec {model} {flags}".strip(), *messages)


def test_an_fp16_build_collected_as_fp32_is_refused_in_one_line(collect, study):
    refused = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp32")
    assert_refused(refused, "variant 'fp32' is declared fp32 in families/demo/study.yaml, but run 1 (line 1) of "
                   "hackathon-76321b19_trt8.4.1_result-FP16.log built its engine allowing FP32+FP16 (line 11 "
                   "'Precision: FP32+FP16'): an engine of fp32 allows no other precision; collect it under a variant "
                   "of that precision, or give --override-precision REASON")
    accepted = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp16", job="right")
    assert accepted.exit_code == 0, accepted.err


# (what the log says, declared precisions it contradicts, declared precisions it fits)
CASES = [
    # TensorRT 7 (the real Jetson ResNet-50 log): --int8, "Precision: FP32+INT8"
    (TRTEXEC / "trt7_resnet50-int8_console.log", ("fp32", "fp16", "fp8"), ("int8",)),
    # TensorRT 8.5 --best (the real QAT ResNet-18 log): FP32+FP16+INT8, an int8 engine with an fp16 fallback
    (TRTEXEC / "trt8.5_qat-resnet18_dump-profile_separate-profile-run.log", ("fp32", "tf32", "fp16"), ("int8",)),
    (built("FP32+BF16", "--bf16"), ("fp16", "fp32", "int8"), ("bf16",)),
    (built("FP32+FP16+FP8", "--fp16 --fp8"), ("int8", "fp16"), ("fp8",)),
    (built("FP32+FP16+INT4", "--fp16 --int4"), ("fp8", "fp16", "nvfp4"), ("int4",)),
    (built("FP32+FP16 (obey precision constraints)", "--fp16 --precisionConstraints=obey"), ("fp32",), ("fp16",)),
    (built("FP32"), ("fp16", "int8"), ("fp32", "tf32")),
    # --noTF32: fp32 without TF32 kernels, so no tf32 engine (printed, or from the flags alone)
    (built("FP32", "--noTF32"), ("tf32",), ("fp32",)),
    (built(None, "--noTF32"), ("tf32",), ("fp32",)),
    # no Precision line (a log captured part way): the command's flags say what the build allowed
    (built(None, "--int8"), ("fp32", "fp16"), ("int8",)),
    (built(None, "--best"), ("fp32", "fp16", "bf16"), ("int8",)),
    # a strongly typed network takes each layer's type from the model: the log cannot contradict a variant
    (built("Strongly Typed", "--stronglyTyped"), (), ("fp32", "fp16", "fp8")),
    # loaded engines: TensorRT 8.6 prints its default "Precision: FP32" for an int8 engine it only loaded
    (TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log", (), ("int8", "fp32")),
    (TRTEXEC / "trt10.16_no-data-transfers.log", (), ("fp16",)),
    (built("FP32", "--fp16", model="--loadEngine=m.plan"), (), ("int8",)),
]


def case_id(case) -> str:
    source = case[0]
    if not isinstance(source, str):
        return source.name
    line = next((text for text in source.splitlines() if "Precision:" in text), "no precision line")
    return source.splitlines()[0].split("# ")[1] + " / " + line.split("[I] ")[-1]


@pytest.mark.parametrize(("source", "contradicted", "fitting"), CASES, ids=[case_id(c) for c in CASES])
def test_what_a_build_allowed_against_each_declared_precision(collect, study, workdir, source, contradicted, fitting):
    log = source if not isinstance(source, str) else write(workdir, source)
    for declared in contradicted:
        refused = collect("trtexec", "--log", log, "--variant", declared, job=f"no-{declared}")
        assert_refused(refused, f"variant '{declared}' is declared {declared}", "built its engine allowing")
    for declared in fitting:
        done = collect("trtexec", "--log", log, "--variant", declared, job=f"yes-{declared}")
        assert done.exit_code == 0, (declared, done.err)
        done.path.unlink()  # one log is one run: under a second job of the family it would be refused


def test_a_strongly_typed_build_is_noted(collect, study, workdir):
    log = write(workdir, built("Strongly Typed", "--stronglyTyped"))
    done = collect("trtexec", "--log", log, "--variant", "fp8")
    assert done.exit_code == 0, done.err
    assert any("strongly typed" in note and "the model's own types" in note
               for note in done.record["provenance"]["notes"])


def test_an_override_records_its_reason(collect, study):
    done = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp32", "--override-precision",
                   "every layer pinned to FP32 by --layerPrecisions in a wrapper script")
    assert done.exit_code == 0, done.err
    # the note names the log (a --replace of its results drops it with them)
    assert ("precision: variant 'fp32' is declared fp32 but hackathon-76321b19_trt8.4.1_result-FP16.log run 1 (line 1) "
            "allowed FP32+FP16; recorded as declared: "
            "every layer pinned to FP32 by --layerPrecisions in a wrapper script") in done.record["provenance"]["notes"]
    blank = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp32", "--override-precision", " ", job="blank")
    assert_refused(blank)
    assert blank.err == ("studygen: --override-precision needs a reason (why the declared precision is right for this "
                         "log)\n")


def test_the_refusal_names_every_narrower_precision_and_the_flags_it_read(collect, study, workdir):
    log = write(workdir, built("FP32+FP16+INT8+FP8", "--fp16 --int8 --fp8"))
    refused = collect("trtexec", "--log", log, "--variant", "fp16")
    assert_refused(refused, "allowing FP32+FP16+FP8+INT8 (line 5 'Precision: FP32+FP16+INT8+FP8'): FP8 and INT8 are "
                   "not wider than fp16, so layers may run below the variant's precision")
    one = write(workdir, built(None, "--fp16 --int8 --noTF32"), "flags.log")
    refused = collect("trtexec", "--log", one, "--variant", "fp16", job="flags")
    assert_refused(refused, "allowing FP32+FP16+INT8 (its flags --fp16 --int8 --noTF32): INT8 is not wider than fp16")


def test_without_a_format_line_the_command_says_whether_the_engine_was_built(collect, study, workdir):
    # captured part way: no Model Options, only the build's Precision line and the command of the closing line
    def partial(command: str) -> str:
        return log_text(command, "=== Build Options ===", "Precision: FP32+FP16", running=False)

    loaded = write(workdir, partial("trtexec --loadEngine=m.plan --fp16"), "loaded.log")
    assert collect("trtexec", "--log", loaded, "--variant", "int8", job="loaded").exit_code == 0
    built_here = write(workdir, partial("trtexec --onnx=m.onnx --saveEngine=m.plan --fp16"), "built.log")
    assert_refused(collect("trtexec", "--log", built_here, "--variant", "int8", job="built"),
                   "the build allowed no INT8")
    # --loadEngine beside a model flag: trtexec loads the plan (the model and precision flags build nothing)
    both = write(workdir, log_text("trtexec --onnx=m.onnx --loadEngine=m.plan --fp16", "=== Model Options ===",
                                   "Format: ONNX", "=== Build Options ===", "Precision: FP32+FP16"), "both.log")
    # another run: these made-up logs print one summary, which would be one run's figures in two jobs
    both.write_text(both.read_text().replace("Throughput: 812.5 qps", "Throughput: 812.6 qps"), encoding="utf-8")
    assert collect("trtexec", "--log", both, "--variant", "int8", job="both").exit_code == 0


def test_without_a_study_a_variant_is_only_a_name(collect):
    done = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp32")
    assert done.exit_code == 0, done.err


def test_every_run_of_a_log_is_checked(collect, study, workdir):
    # two builds in one log: an fp16 build, then an int8 one; an fp16 variant fits the first only
    first = built("FP32+FP16", "--fp16")
    second = built("FP32+FP16+INT8", "--fp16 --int8")
    log = write(workdir, first + second, "two.log")
    refused = collect("trtexec", "--log", log, "--variant", "fp16")
    assert_refused(refused, "but run 2 (line 16) of two.log built its engine allowing FP32+FP16+INT8")
    # strongly typed first, then a contradicting build: still refused
    typed_first = write(workdir, built("Strongly Typed", "--stronglyTyped") + second, "typed.log")
    assert_refused(collect("trtexec", "--log", typed_first, "--variant", "fp16", job="typed"), "run 2 (line 16)")
    # with an override, each contradicting run is noted
    both = write(workdir, second + second.replace("--int8", "--int8 --shapes=x:2x3x8x8"), "both.log")  # batch 2
    done = collect("trtexec", "--log", both, "--variant", "fp16", "--override-precision", "checked by hand",
                   job="override")
    assert done.exit_code == 0, done.err
    noted = [n for n in done.record["provenance"]["notes"] if n.startswith("precision: variant 'fp16'")]
    assert [n.split(" but ")[1].split(" allowed")[0] for n in noted] == ["both.log run 1 (line 1)",
                                                                         "both.log run 2 (line 16)"]


LOADED_FP32_PLAN = FIXTURES / "public" / "hackathon-07271c31_trt8.6.0_result-04.log"  # line 1 --loadEngine


def test_a_loaded_plan_is_accepted_with_a_note_that_reaches_the_readme(collect, study, run_cli):
    # the real TensorRT 8.6.0 log: line 1 runs --loadEngine=./model-FP32.plan, line 11 prints the builder's
    # default "Precision: FP32"; the log cannot show the plan's precision, so fp16 is the collector's word
    done = collect("trtexec", "--log", LOADED_FP32_PLAN, "--variant", "fp16")
    assert done.exit_code == 0, done.err
    note = ("hackathon-07271c31_trt8.6.0_result-04.log run 1 (line 1): loads a built plan (line 1 "
            "'--loadEngine=./model-FP32.plan'), which shows no precision; its line 11 'Precision: FP32' is trtexec's "
            "builder default, not the plan's: that variant 'fp16' is fp16 rests on the collector's word, not on the log")
    assert note in done.record["provenance"]["notes"]
    rendered = run_cli("render", "demo")
    assert rendered.exit_code == 0, rendered.err
    provenance = (done.measurements.parent / "families" / "demo" / "README.md").read_text().split("## Provenance")[1]
    assert f"- job1: {note}" in provenance.replace("\\'", "'")


def test_a_plan_loaded_in_a_log_without_its_command_is_named_by_its_format_line(collect, study, workdir):
    # captured part way, no command anywhere: the Model Options' "Format: *" (line 2) says a plan was loaded
    log = write(workdir, log_text(None, "=== Model Options ===", "Format: *", "=== Build Options ===",
                                  "Precision: FP32", running=False))
    done = collect("trtexec", "--log", log, "--variant", "int8")
    assert done.exit_code == 0, done.err
    loaded = [n for n in done.record["provenance"]["notes"] if "loads a built plan" in n]
    assert len(loaded) == 1 and "(line 2 'Format: *')" in loaded[0] and "'int8' is int8" in loaded[0], loaded


def test_a_built_engine_gets_no_loaded_plan_note(collect, study):
    done = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp16")
    assert done.exit_code == 0, done.err
    assert not [n for n in done.record["provenance"]["notes"] if "loads a built plan" in n]


def test_the_refusal_points_at_the_precision_line_of_the_log(collect, study):
    refused = collect("trtexec", "--log", FP16_BUILD, "--variant", "fp32")
    assert_refused(refused)
    assert refused.err.startswith(f"studygen: {FP16_BUILD}:11: variant 'fp32'"), refused.err


def test_a_flag_only_strongly_typed_build_and_an_unknown_spelling_are_not_judged(collect, study, workdir):
    # no Precision line: --stronglyTyped among the flags makes the build strongly typed (noted, not refused)
    typed = write(workdir, built(None, "--stronglyTyped"), "typed.log")
    done = collect("trtexec", "--log", typed, "--variant", "fp8", job="typed")
    assert done.exit_code == 0, done.err
    assert any("strongly typed build (its flags --stronglyTyped)" in n for n in done.record["provenance"]["notes"])
    done.path.unlink()  # these made-up logs print one summary: in a second job it would be one run twice
    # a precision token this reader does not know says nothing it can check: accepted under any variant
    unknown = write(workdir, built("FP32+FP6", "--fp6"), "unknown.log")
    assert collect("trtexec", "--log", unknown, "--variant", "int8", job="unknown").exit_code == 0


PLUGIN_BUILD = TRTEXEC / "trt8.5_build-with-plugin_h2d-bound.log"  # 8.5.1, line 11 'Precision: FP32', line 69 CC 8.9
TF32_TEN = TRTEXEC / "trt10.16_build-and-run.log"  # 10.16.1 on an H100, line 2 'TF32 is enabled by default ...'


def _tf32_notes(done) -> list[str]:
    return [note for note in done.record["provenance"]["notes"] if "TF32" in note]


def test_an_fp32_build_that_left_tf32_on_is_noted_from_the_log_or_the_compute_capability(collect, study):
    # before: no word of TF32, though TensorRT runs FP32 layers with TF32 tactics on Ampere and newer by default
    done = collect("trtexec", "--log", TF32_TEN, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert _tf32_notes(done) == [
        "trt10.16_build-and-run.log run 1 (line 1): variant 'fp32' is declared fp32, but the build left TF32 on "
        "(line 2: 'TF32 is enabled by default'): TensorRT may run FP32 convolutions and GEMMs with TF32 tactics, so "
        "these figures are not full-FP32 arithmetic unless the engine is built with --noTF32"]
    older = collect("trtexec", "--log", PLUGIN_BUILD, "--variant", "fp32", job="older")
    assert older.exit_code == 0, older.err
    (note,) = _tf32_notes(older)
    assert "(compute capability 8.9, no --noTF32)" in note


def test_no_tf32_note_where_tf32_was_off_or_declared(collect, study, workdir):
    off = write(workdir, built("FP32", "--noTF32").replace("Precision: FP32\n", "Precision: FP32\n"
                                                             "[04/08/2025-23:14:00] [I] Compute Capability: 8.0\n"))
    done = collect("trtexec", "--log", off, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert _tf32_notes(done) == []
    declared = collect("trtexec", "--log", TF32_TEN, "--variant", "tf32", job="tf32")
    assert declared.exit_code == 0, declared.err
    assert _tf32_notes(declared) == []


def test_no_tf32_note_on_a_gpu_older_than_ampere(collect, study, workdir):
    pascal = write(workdir, built("FP32").replace("Precision: FP32\n", "Precision: FP32\n"
                                                  "[04/08/2025-23:14:00] [I] Compute Capability: 6.1\n"), "pascal.log")
    done = collect("trtexec", "--log", pascal, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert _tf32_notes(done) == []


def test_no_tf32_note_where_tensorrt_10_says_tf32_is_on_but_the_gpu_predates_it(collect, study, workdir):
    # the H100 log's run on a Turing GPU (compute capability 7.5): trtexec prints "TF32 is enabled by default" as
    # it reads its options, whatever the GPU; a GPU below 8.0 has no TF32. Failed before: the note, from that line
    turing = TF32_TEN.read_text(encoding="utf-8").replace("] [I] Compute Capability: 9.0\n",
                                                          "] [I] Compute Capability: 7.5\n")
    turing = turing.replace("] [I] Selected Device: NVIDIA H100 PCIe\n", "] [I] Selected Device: Tesla T4\n")
    assert "Compute Capability: 7.5" in turing and "Selected Device: Tesla T4" in turing
    done = collect("trtexec", "--log", write(workdir, turing, "turing.log"), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert _tf32_notes(done) == []
