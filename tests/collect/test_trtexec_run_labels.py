"""What a trtexec run says about itself: TensorRT version, command line,
batch and input shape HxW, in every spelling trtexec has used (issue 22,
"Batch, shape, version missing").

The logs here are written in trtexec's layout with figures of our own; the
spellings are trtexec's: ``--shapes`` / ``--optShapes`` with tensor names
that hold a colon or single quotes, the ``Input inference shape`` and
``Input build shape`` lines, the implicit ``--batch=N`` of TensorRT 7 and
8, and a log captured part way whose only ``&&&&`` line is the closing
``&&&& PASSED … # <command>``.
"""

from __future__ import annotations

import pytest

from tests.collect.conftest import TRTEXEC, assert_refused
from tests.collect.trtexec_logs import log_text, write

def test_a_log_captured_part_way_takes_version_and_command_from_its_passed_line(collect, workdir):
    log = write(workdir, log_text("trtexec --loadEngine=resnet_b16.plan --batch=16", running=False))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    assert provenance["software"] == {"tensorrt": "8.4.0"}  # [TensorRT v8400] on the PASSED line
    assert not any("states no TensorRT version" in note for note in provenance.get("notes", []))
    gpu = done.latency("gpu_compute", batch=16)  # --batch=16 of the command the PASSED line repeats
    assert gpu["value_ms"] == 17.5
    assert gpu["method"]["command"] == "trtexec --loadEngine=resnet_b16.plan --batch=16"
    assert gpu["method"]["flags"] == ["--batch=16"]


def test_a_passed_line_that_contradicts_the_version_line_is_refused(collect, workdir):
    log = write(workdir, log_text("trtexec --loadEngine=m.plan", "TensorRT version: 8.6.1", running=False))
    assert_refused(collect("trtexec", "--log", log), "states TensorRT 8.6.1 on line 1 and 8.4.0 on line 11")


def test_a_log_without_any_tag_still_says_so(collect, workdir):
    log = write(workdir, log_text(None, running=False, tag=""))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert any("states no TensorRT version" in note for note in done.record["provenance"]["notes"])


# (command, messages, batch, shape HxW or None): every spelling trtexec has used for the input shapes
SPELLINGS = [
    # a tensor name that holds a colon (TensorFlow's "x:0"): the dimensions follow the last colon
    ("trtexec --loadEngine=m.plan --shapes=x:0:4x1x28x28", (), 4, "28x28"),
    # a name in single quotes, as trtexec's help asks for names with special characters
    ("trtexec --loadEngine=m.plan --shapes='input:0':2x3x224x224", (), 2, "224x224"),
    # channels last (NHWC): the three channels are the last dimension
    ("trtexec --loadEngine=m.plan --shapes=input_1:8x96x160x3", (), 8, "96x160"),
    # only --optShapes (and min/max): trtexec runs inference at the optimisation shapes
    ("trtexec --onnx=det.onnx --minShapes=images:1x3x640x640 --optShapes=images:8x3x640x640 "
     "--maxShapes=images:16x3x640x640", (), 8, "640x640"),
    # the printed inference shape wins over the flag (the flag may be an alias trtexec resolved)
    ("trtexec --loadEngine=m.plan --shapes=x:4x1x28x28", ("Input inference shape : x=6x1x32x48",), 6, "32x48"),
    # no command line (captured part way), only the printed build shapes: min+opt+max, opt counts
    (None, ("=== Build Options ===", "Input build shape: images=1x3x512x512+2x3x512x512+4x3x512x512"), 2, "512x512"),
    # a non-image model: a batch, but no HxW
    ("trtexec --loadEngine=bert.plan --shapes=input_ids:4x128,attention_mask:4x128", (), 4, None),
    # channels first or last cannot be told apart (4x3x3 either way round): the batch only
    ("trtexec --loadEngine=m.plan --shapes=x:1x4x3x3", (), 1, None),
    # two image inputs of different sizes: no single HxW
    ("trtexec --loadEngine=m.plan --shapes=left:1x3x64x64,right:1x3x32x32", (), 1, None),
    # a dynamic input given no shape: trtexec sets each free dimension to 1 and prints the shape it runs at
    ("trtexec --onnx=seg.onnx", ("Dynamic dimensions required for input: image, but no shapes were provided. "
                                 "Automatically overriding shape to: 1x3x96x128",), 1, "96x128"),
    # one such line per dynamic input: a 3-D mask beside the image says nothing about HxW, and agrees on the batch
    ("trtexec --onnx=seg.onnx",
     ("Dynamic dimensions required for input: image:0, but no shapes were provided. "
      "Automatically overriding shape to: 1x1x40x56",
      "Dynamic dimensions required for input: mask, but no shapes were provided. "
      "Automatically overriding shape to: 1x40x56"), 1, "40x56"),
    # TensorRT 7's implicit batch: the batch, no shape
    ("trtexec --deploy=googlenet.prototxt --output=prob --batch=32", ("Batch: 32",), 32, None),
]


@pytest.mark.parametrize(("command", "messages", "batch", "shape"), SPELLINGS)
def test_batch_and_shape_in_every_spelling(collect, workdir, command, messages, batch, shape):
    log = write(workdir, log_text(command, *messages, running=command is not None))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=batch)
    assert gpu.get("shape") == shape
    notes = done.record["provenance"].get("notes", [])
    if shape:  # the record says where the shape came from
        assert any(f"shape {shape} read from" in note for note in notes), notes


def test_the_shape_trtexec_chose_for_an_input_given_none_labels_the_real_build_and_run_log(collect):
    # trt10.16_build-and-run.log line 132: "... Automatically overriding shape to: 1x1x28x28" (no --shapes given);
    # its GPU compute median, line 572, is 0.0361328 ms
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "fp32")
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=1)
    assert (gpu["shape"], gpu["value_ms"]) == ("28x28", 0.0361328)
    assert {(r.get("shape"), r.get("batch")) for r in done.results} == {("28x28", 1)}
    assert "trt10.16_build-and-run.log run 1 (line 1): shape 28x28 read from its input shapes x=1x1x28x28 (set by " \
           "trtexec: no shapes given), channels first" in done.record["provenance"]["notes"]


def test_a_shape_option_the_log_contradicts_is_refused_and_one_it_agrees_with_is_kept(collect, workdir):
    log = write(workdir, log_text("trtexec --loadEngine=m.plan --shapes=x:0:4x1x28x28"))
    refused = collect("trtexec", "--log", log, "--shape", "32x32")
    assert_refused(refused, "--shape 32x32 but ", "run.log says 28x28 for run 1 (line 1)")
    kept = collect("trtexec", "--log", log, "--shape", "28x28", job="agreed")
    assert kept.exit_code == 0, kept.err
    assert kept.latency("gpu_compute", batch=4)["shape"] == "28x28"


def test_a_shape_option_labels_a_run_whose_log_states_none(collect, workdir):
    log = write(workdir, log_text("trtexec --loadEngine=bert.plan --shapes=input_ids:4x128"))
    done = collect("trtexec", "--log", log, "--shape", "8x8")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=4)["shape"] == "8x8"
