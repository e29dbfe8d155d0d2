"""collect trtexec reads the input shape HxW and the batch of a TensorRT 8.x
run whose options print no shapes (``Input inference shapes: model``) from
its ``Created input binding for NAME with dimensions NxCxHxW`` line, notes
where it read them, takes a --shape that agrees as the log's word and
refuses one that does not. Real logs from ../shared/fixtures (SOURCES.md):
the GTX 1080 Ti TensorRT 8.4.3 log and the Jetson Xavier TensorRT 8.5.2
one; the line each figure comes from is named beside it."""

from __future__ import annotations

from studygen.records.unstated import shapes_from_option

from tests.collect.conftest import TRTEXEC
from tests.collect.trtexec_logs import log_text, write
from tests.conftest import FIXTURES

GTX_1080TI_84 = TRTEXEC / "trt8.4_hash-prefixed-log_in-python-file.py.txt"
XAVIER_852 = FIXTURES / "public" / "ALPR_Jetson-b836f11a_2025-10-21_trtexec_lprnet.log"
SPARSEDRIVE_853 = TRTEXEC / "trt8.5.3_dump-profile_no-e2e-timing.log"


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
