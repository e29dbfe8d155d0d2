"""An ``--exportTimes`` iteration must agree with itself (each duration with
its own start and end stamps, the host latency with its parts) and follow the
one before it (H2D starts never go back): attack round 11 gave a computeMs of
1e30 between stamps 0.44 ms apart, and a file pasted twice into one array."""

from __future__ import annotations

import json

import pytest

from studygen.collect.trtexec.times import parse_times
from studygen.errors import InputError
from tests.conftest import FIXTURES

TREX = FIXTURES / "public" / "trex-26210e92_mobilenet.qat.onnx.engine.timing.json"  # TensorRT 8.x keys
TRT7 = FIXTURES / "trtexec" / "trt7_resnet50-int8_times-concatenated.json"  # 7 arrays, TensorRT 7 keys


def _edited(tmp_path, source, edit, name="times.json"):
    items = json.loads(source.read_text())
    items = edit(items) or items
    path = tmp_path / name
    path.write_text(json.dumps(items))
    return path


def _refusal(path) -> str:
    with pytest.raises(InputError) as raised:
        parse_times(path)
    return str(raised.value)


def test_a_duration_its_own_stamps_contradict_is_refused_at_its_pointer(tmp_path):
    # iteration 3: startComputeMs 13.8904, endComputeMs 14.3348, computeMs 0.444416 (read off the file)
    def edit(items):
        items[3]["computeMs"] = items[3]["latencyMs"] = 1e30
    message = _refusal(_edited(tmp_path, TREX, edit))
    assert message.startswith(f"{tmp_path}/times.json:/3/computeMs: computeMs 1e+30 ms disagrees with its own "
                              "stamps (endComputeMs − startComputeMs is 0.4444 ms")


def test_printing_explains_a_little_and_no_more(tmp_path):
    # iteration 3: 14.3348 − 13.8904 = 0.4444 ms; six printed digits allow 1e-4 + 1e-4 (stamps) + 1e-6 (duration)
    def set_compute(value):
        def edit(items):
            items[3]["computeMs"] = items[3]["latencyMs"] = value
        return edit
    assert parse_times(_edited(tmp_path, TREX, set_compute(0.444600)))[0].timings["gpu_compute"][3] == 0.4446
    message = _refusal(_edited(tmp_path, TREX, set_compute(0.444602)))
    assert message.endswith("/3/computeMs: computeMs 0.444602 ms disagrees with its own stamps "
                            "(endComputeMs − startComputeMs is 0.4444 ms, allowing 0.000201 ms)")


def test_a_latency_that_is_not_the_sum_of_its_parts_is_refused(tmp_path):
    def edit(items):
        items[5]["latencyMs"] = round(items[5]["latencyMs"] * 3, 6)
    # iteration 5: h2dMs 0, computeMs 0.444512, d2hMs 0; 3 x 0.444512 = 1.333536, printed to 7 digits (step 1e-6)
    assert _refusal(_edited(tmp_path, TREX, edit)).endswith(
        ":/5/latencyMs: latencyMs 1.33354 ms is not h2dMs + computeMs + d2hMs = 0.444512 ms (allowing 2e-06 ms)")


def test_a_file_repeated_in_one_array_is_refused_where_time_runs_back(tmp_path):
    items = json.loads(TREX.read_text())
    assert len(items) == 6580
    message = _refusal(_edited(tmp_path, TREX, lambda items: items + items))
    assert ":/6580/startH2dMs: startH2dMs 12.5399 is before iteration 6579's 3200.77: iterations out of order" \
        in message


def test_concatenated_arrays_are_runs_of_their_own_and_checked_one_by_one(tmp_path):
    runs = parse_times(TRT7)
    assert [run.iterations for run in runs] == [1013, 477, 282, 146, 80, 45, 15]
    # TensorRT 7's swapped stamps: inMs is endEnqMs − startEnqMs; a broken outMs in the second array is named there
    text = TRT7.read_text()
    arrays, position, decoder = [], 0, json.JSONDecoder()
    while position < len(text.rstrip()):
        value, position = decoder.raw_decode(text, position)
        arrays.append(value)
        while position < len(text) and text[position].isspace():
            position += 1
    arrays[1][7]["outMs"] = arrays[1][7]["outMs"] + 1
    broken = tmp_path / "broken.json"
    broken.write_text("\n".join(json.dumps(array) for array in arrays))
    assert ":/1/7/outMs: outMs " in _refusal(broken)


@pytest.mark.parametrize("name, iterations", [
    ("public/trex-26210e92_mobilenet.qat.onnx.engine.timing.json", [6580]),
    ("public/fuzzylabs-6d8ac68a_alexnet_fp16.timing.json", [6039]),
    ("public/jetson-trt7_googlenet_times_googlenet_None_int8_10.json", [1520, 708, 426, 239, 129, 68, 36]),
])
def test_every_real_times_file_still_reads(name, iterations):
    assert [run.iterations for run in parse_times(FIXTURES / name)] == iterations
