"""collect trtexec reads the input shape HxW and the batch of a run whose
options print no shapes (``Input inference shapes: model``) from its input
binding line, in each of trtexec's wordings (``Created input binding for
NAME with dimensions NxCxHxW`` up to TensorRT 8.6.0, ``Input binding for
NAME with dimensions NxCxHxW is created.`` from 8.6.1, with ``and type T``
in 10.16), notes where it read them, takes a --shape that agrees as the
log's word and refuses one that does not; shapes the run states otherwise
(--shapes, --optShapes, printed inference shapes) win, and bindings that
read as no one image state nothing. Real logs from ../shared/fixtures
(SOURCES.md): the GTX 1080 Ti TensorRT 8.4.3 log, the Jetson Xavier
TensorRT 8.5.2 one, the RTX 3080 TensorRT 8.6.1 one and two TensorRT
10.16.1 ones; the line each figure comes from is named beside it."""

from __future__ import annotations

from studygen.records.unstated import shapes_from_option

from tests.collect.conftest import TRTEXEC
from tests.collect.trtexec_logs import log_text, write
from tests.conftest import FIXTURES

GTX_1080TI_84 = TRTEXEC / "trt8.4_hash-prefixed-log_in-python-file.py.txt"
XAVIER_852 = FIXTURES / "public" / "ALPR_Jetson-b836f11a_2025-10-21_trtexec_lprnet.log"
SPARSEDRIVE_853 = TRTEXEC / "trt8.5.3_dump-profile_no-e2e-timing.log"
RTX3080_861 = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log"
PROFILE_1016 = TRTEXEC / "trt10.16_dump-profile.log"
NO_TRANSFERS_1016 = TRTEXEC / "trt10.16_no-data-transfers.log"


def shape_notes(done) -> list[str]:
    return [note for note in done.record["provenance"]["notes"] if ": shape " in note]


def test_the_1080ti_log_states_640x640_batch_1_in_its_input_binding(collect):
    # line 150 "Batch: Explicit", line 151 "Input inference shapes: model",
    # line 232 "Created input binding for onnx::Cast_0 with dimensions 1x3x640x640"
    done = collect("trtexec", "--log", GTX_1080TI_84)
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=1)
    assert (gpu["batch"], gpu["shape"], gpu["value_ms"]) == (1, "640x640", 5.46616)  # median: line 307
    assert shape_notes(done) == [
        "trt8.4_hash-prefixed-log_in-python-file.py.txt run 1 (line 116): shape 640x640 read from its input shapes "
        "onnx::Cast_0=1x3x640x640 (input binding, line 232), channels first"]


def test_the_xavier_log_states_48x96_batch_1_in_its_input_binding(collect):
    # line 37 "Batch: 1", line 38 "Input inference shapes: model",
    # line 135 "Created input binding for image_input with dimensions 1x3x48x96": 48 high, 96 wide; --dumpProfile
    # without a separate profile run (line 141): the profile table is its only result
    done = collect("trtexec", "--log", XAVIER_852)
    assert done.exit_code == 0, done.err
    (kernel,) = done.results
    assert (kernel["kind"], kernel["batch"], kernel["shape"]) == ("kernel_time", 1, "48x96")
    assert shape_notes(done) == [
        "ALPR_Jetson-b836f11a_2025-10-21_trtexec_lprnet.log run 1 (line 1): shape 48x96 read from its input shapes "
        "image_input=1x3x48x96 (input binding, line 135), channels first"]


def test_a_shape_option_that_agrees_with_the_binding_is_not_marked_as_the_options(collect):
    done = collect("trtexec", "--log", GTX_1080TI_84, "--shape", "640x640")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=1)["shape"] == "640x640"
    assert not any("taken from --shape" in note for note in done.record["provenance"]["notes"])
    assert shapes_from_option(done.record["provenance"]) == frozenset()


def test_a_shape_option_the_binding_contradicts_is_refused(collect):
    done = collect("trtexec", "--log", XAVIER_852, "--shape", "96x48")
    assert done.exit_code == 2
    assert "--shape 96x48 but " in done.err and "says 48x96 for run 1 (line 1) (its input shapes " \
        "image_input=1x3x48x96 (input binding, line 135), channels first)" in done.err
    assert not done.path.exists()


def test_bindings_of_no_image_input_state_nothing(collect):
    # lines 85-113: fifteen inputs (1x900x256, 1x256x8x22 of 256 channels, a one-dimensional mask ...), none an
    # image: no shape, and the batch stays line 37's "Batch: 1", as before bindings were read
    done = collect("trtexec", "--log", SPARSEDRIVE_853)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert kernel["batch"] == 1 and "shape" not in kernel
    assert shape_notes(done) == []


def test_an_implicit_batch_that_the_binding_contradicts_leaves_the_batch_unstated(collect, workdir):
    # made-up: "Batch: 4" printed, the input bound as 1x3x8x8; an implicit-batch binding has no batch dimension,
    # so the leading 1 is no batch, and neither figure is taken
    log = write(workdir, log_text("trtexec --loadEngine=m.plan", "Batch: 4", "Input inference shapes: model",
                                  "Created input binding for x with dimensions 1x3x8x8"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute")
    assert "batch" not in gpu and gpu["shape"] == "8x8"
    # the same binding under "Batch: Explicit" gives batch 1; twice (another stream) counts once
    explicit = write(workdir, log_text("trtexec --loadEngine=m.plan", "Batch: Explicit",
                                       "Created input binding for x with dimensions 1x3x8x8",
                                       "Created input binding for x with dimensions 1x3x8x8"), "explicit.log")
    again = collect("trtexec", "--log", explicit, measurements=workdir / "explicit")
    assert again.exit_code == 0, again.err
    assert again.latency("gpu_compute", batch=1)["shape"] == "8x8"
    assert shape_notes(again) == ["explicit.log run 1 (line 1): shape 8x8 read from its input shapes x=1x3x8x8 "
                                  "(input binding, line 3), channels first"]


def test_the_rtx3080_log_states_224x224_batch_1_in_its_861_input_binding(collect):
    # line 53 "Batch: 1", line 54 "Input inference shapes: model",
    # line 151 "Input binding for input0 with dimensions 1x3x224x224 is created." (the 8.6.1 wording)
    done = collect("trtexec", "--log", RTX3080_861)
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=1)
    assert (gpu["batch"], gpu["shape"], gpu["value_ms"]) == (1, "224x224", 0.275391)  # median: line 1187
    assert {result["shape"] for result in done.results} == {"224x224"}
    assert shape_notes(done) == [
        "trt8.6_resnet50-int8_separate-profile-run.log run 1 (line 1): shape 224x224 read from its input shapes "
        "input0=1x3x224x224 (input binding, line 151), channels first"]


def test_the_1016_profile_log_states_28x28_batch_1_in_its_typed_input_binding(collect):
    # line 17 "Batch: Explicit", line 18 "Input inference shapes: model",
    # line 76 "Input binding for x with dimensions 1x1x28x28 and type fp32 is created." (one grey channel);
    # line 77's output binding 1x10 is left alone
    done = collect("trtexec", "--log", PROFILE_1016)
    assert done.exit_code == 0, done.err
    (kernel,) = done.results
    assert (kernel["kind"], kernel["batch"], kernel["shape"]) == ("kernel_time", 1, "28x28")
    assert shape_notes(done) == [
        "trt10.16_dump-profile.log run 1 (line 1): shape 28x28 read from its input shapes x=1x1x28x28 "
        "(input binding, line 76), channels first"]


def test_printed_inference_shapes_win_over_the_1016_binding(collect):
    # line 18 "Input inference shape : x=4x1x28x28"; line 131 binds x as 4x1x28x28 too, but the note names line 18's
    done = collect("trtexec", "--log", NO_TRANSFERS_1016)
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=4)["shape"] == "28x28"
    assert shape_notes(done) == ["trt10.16_no-data-transfers.log run 1 (line 1): shape 28x28 read from its input "
                                 "shapes x=4x1x28x28, channels first"]


def collect_bound(collect, workdir, command: str, *bindings: str, name: str = "bound.log"):
    """Collect a made-up TensorRT 10 log: ``command``, "Batch: Explicit", no
    printed shapes, then the ``bindings`` (without their ``[I]`` stamps)."""
    log = write(workdir, log_text(command, "Batch: Explicit", "Input inference shapes: model", *bindings,
                                  tag="[TensorRT v100900]"), name)
    done = collect("trtexec", "--log", log, measurements=workdir / name.replace(".", "-"))
    assert done.exit_code == 0, done.err
    return done


def test_shape_options_on_the_command_line_win_over_the_binding(collect, workdir):
    # made-up: the binding says 1x3x8x8; the command's --shapes (then --optShapes) says otherwise and is what is taken
    for flag, source in (("--shapes", "img:2x3x40x60"), ("--optShapes", "--optShapes=img:2x3x40x60")):
        done = collect_bound(collect, workdir, f"trtexec --onnx=m.onnx {flag}=img:2x3x40x60",
                             "Input binding for img with dimensions 1x3x8x8 is created.", name=f"{flag[2:]}.log")
        assert done.latency("gpu_compute", batch=2)["shape"] == "40x60"
        assert shape_notes(done) == [f"{flag[2:]}.log run 1 (line 1): shape 40x60 read from its input shapes "
                                     f"{source}, channels first"]


def test_bindings_that_read_as_no_one_image_state_neither_shape_nor_batch(collect, workdir):
    # made-up TensorRT 10 bindings, each log on its own: a three-dimensional token input, a dimension left at -1,
    # two image inputs of different sizes, and only an output binding of image dimensions
    cases = {
        "tokens.log": ["Input binding for tokens with dimensions 1x77x512 and type int32 is created."],
        "free.log": ["Input binding for img with dimensions -1x3x32x32 is created."],
        "pair.log": ["Input binding for left with dimensions 1x3x32x32 is created.",
                     "Input binding for right with dimensions 1x3x64x48 is created."],
        "output.log": ["Output binding for mask with dimensions 1x1x32x32 and type fp32 is created."],
    }
    for name, bindings in cases.items():
        done = collect_bound(collect, workdir, "trtexec --onnx=m.onnx", *bindings, name=name)
        gpu = done.latency("gpu_compute")
        assert "batch" not in gpu and "shape" not in gpu, name
        assert shape_notes(done) == [], name


def test_an_image_input_beside_one_of_another_batch_gives_the_shape_alone(collect, workdir):
    # made-up: the image is bound with batch 2, a scale input of two values with 1: the shape is read, the batch not
    done = collect_bound(collect, workdir, "trtexec --onnx=m.onnx",
                         "Input binding for image with dimensions 2x3x36x52 and type fp16 is created.",
                         "Input binding for scale with dimensions 1x2 and type fp32 is created.")
    gpu = done.latency("gpu_compute")
    assert "batch" not in gpu and gpu["shape"] == "36x52"
    assert shape_notes(done) == ["bound.log run 1 (line 1): shape 36x52 read from its input shapes image=2x3x36x52, "
                                 "scale=1x2 (input binding, lines 4, 5), channels first"]
