"""``collect trtexec`` without a log reads the input shape from a detailed ``--layer-info`` given beside the times
or profile: the engine's network input (a binding some layer reads and none writes) with its dimensions.

Why: fuzzylabs' AlexNet fp16 export (../shared/fixtures/public) states its input binding ``input`` as
``[1, 3, 224, 224]`` in the first layer's ``Inputs`` (read by hand); collected with ``--shape 224x224``, the record
said "shape 224x224 taken from --shape: the input states none" and the README printed "224 x 224 (from --shape, not
in the input)" beside each figure, although an input of that very collect stated it; without ``--shape`` no shape was
recorded at all (session 30's new-user trial)."""

from __future__ import annotations

from .conftest import TRTEXEC, assert_refused
from ..conftest import FIXTURES

PUBLIC = FIXTURES / "public"
TIMES = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.timing.json"
LAYERS = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json"
TREX_TIMES = PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.timing.json"
TREX_LAYERS = PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine.graph.json"
OPTIONS = ("--variant", "fp16", "--gpu", "X", "--software", "tensorrt=10.0.1")
READ = ("fuzzylabs-6d8ac68a_alexnet_fp16.graph.json: shape 224x224 read from its input binding input=1x3x224x224, "
        "channels first")


def test_the_layer_info_states_the_shape_of_times_without_a_log(collect):
    done = collect("trtexec", *OPTIONS, "--times", TIMES, "--layer-info", LAYERS)
    assert done.exit_code == 0, done.err
    assert {r["shape"] for r in done.kind("latency")} == {"224x224"}
    notes = done.record["provenance"]["notes"]
    assert READ in notes and not any("taken from --shape" in note for note in notes)


def test_a_shape_option_it_agrees_with_is_the_layer_infos_word(collect):
    done = collect("trtexec", *OPTIONS, "--shape", "224x224", "--times", TIMES, "--layer-info", LAYERS)
    assert done.exit_code == 0, done.err
    notes = done.record["provenance"]["notes"]
    assert READ in notes and not any("taken from --shape" in note for note in notes)


def test_a_shape_option_it_contradicts_is_refused(collect):
    done = collect("trtexec", *OPTIONS, "--shape", "256x256", "--times", TIMES, "--layer-info", LAYERS)
    assert_refused(done, "--shape 256x256 but", "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json says 224x224",
                   "input=1x3x224x224")


def test_the_network_input_is_the_binding_no_layer_writes(collect):
    # trex's QAT MobileNet: bindings input1 (read by QuantizeLinear_2) and 1179 (the output, written by the last
    # layer); only input1, 1x3x224x224, is an input
    done = collect("trtexec", "--variant", "int8", "--gpu", "X", "--software", "tensorrt=8.2.0",
                   "--times", TREX_TIMES, "--layer-info", TREX_LAYERS)
    assert done.exit_code == 0, done.err
    assert {r["shape"] for r in done.kind("latency")} == {"224x224"}


def test_a_names_only_layer_info_states_no_shape(collect):
    # DETR-R50's export lists layer names only: no dimensions, so the option's shape is noted as the option's
    done = collect("trtexec", "--variant", "int8", "--shape", "800x800", "--gpu", "X", "--software", "tensorrt=8.6.1",
                   "--profile", TRTEXEC / "detr-r50_profile.json", "--layer-info", TRTEXEC / "detr-r50_layer-info.json")
    assert done.exit_code == 0, done.err
    assert "detr-r50_profile.json: shape 800x800 taken from --shape: the input states none" in \
        done.record["provenance"]["notes"]
