"""A ``ProfilerStep#N`` event whose range cannot be read is refused with its
JSON pointer, as a kernel event is. Read without a word, one step's missing
dur moved the MI300X ResNet trace from 22.144801 ms per step to the GPU
annotations' few µs, and negative durs moved it to whole-trace totals."""

from __future__ import annotations

import gzip
import json

import pytest

from tests.collect.conftest import TORCH, assert_refused

MI300X_RESNET = TORCH / "rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz"


def resnet_trace() -> dict:
    return json.loads(gzip.decompress(MI300X_RESNET.read_bytes()))


def cpu_steps(trace: dict) -> list[int]:
    """Indexes of the CPU ProfilerStep events, in file order."""
    return [index for index, event in enumerate(trace["traceEvents"])
            if str(event.get("name", "")).startswith("ProfilerStep#") and event.get("cat") == "user_annotation"]


def collect_copy(collect, workdir, trace: dict):
    path = workdir / "trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    return collect("torch-profile", "--trace", path, "--mode", "eager", "--variant", "fp16")


def test_the_unaltered_copy_has_three_steps_of_22_ms(collect, workdir):
    trace = resnet_trace()
    assert [trace["traceEvents"][i]["name"] for i in cpu_steps(trace)] == [
        "ProfilerStep#15", "ProfilerStep#16", "ProfilerStep#17"]
    done = collect_copy(collect, workdir, trace)
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert result["iterations"] == 3 and str(result["profiled_total_ms"]) == "22.144801"


@pytest.mark.parametrize("which, change, field, held", [
    (0, lambda event: event.pop("dur"), "dur", "no dur"),
    (1, lambda event: event.__setitem__("dur", -event["dur"]), "dur", "dur -15950.958"),
    (1, lambda event: event.__setitem__("dur", str(event["dur"])), "dur", 'dur "15950.958"'),
    (2, lambda event: event.__setitem__("dur", True), "dur", "dur true"),
    (2, lambda event: event.pop("ts"), "ts", "no ts"),
    (0, lambda event: event.__setitem__("ts", None), "ts", "ts null"),
])
def test_a_step_event_without_a_readable_range_is_refused_at_its_field(collect, workdir, which, change, field, held):
    trace = resnet_trace()
    index = cpu_steps(trace)[which]
    event = trace["traceEvents"][index]
    change(event)
    done = collect_copy(collect, workdir, trace)
    assert_refused(done, f"trace.json:/traceEvents/{index}/{field}: {event['name']} event with {held}, not a step "
                         "range (a ts and a non-negative dur, in µs): which kernels ran in this step cannot be told; "
                         "nothing recorded\n")


def test_every_step_negative_is_refused_at_the_first_in_the_file(collect, workdir):
    # read as no step at all, this trace recorded 97.26 ms of whole-trace totals
    trace = resnet_trace()
    for index in cpu_steps(trace):
        trace["traceEvents"][index]["dur"] = -1
    first = min(cpu_steps(trace))
    done = collect_copy(collect, workdir, trace)
    assert_refused(done, f"trace.json:/traceEvents/{first}/dur: ProfilerStep#15 event with dur -1,")


def test_a_gpu_step_annotation_without_dur_is_refused_too(collect, workdir):
    trace = resnet_trace()
    index = next(i for i, event in enumerate(trace["traceEvents"])
                 if event.get("cat") == "gpu_user_annotation" and str(event.get("name")).startswith("ProfilerStep#"))
    del trace["traceEvents"][index]["dur"]
    done = collect_copy(collect, workdir, trace)
    assert_refused(done, f"trace.json:/traceEvents/{index}/dur: ProfilerStep#")


def test_a_step_of_zero_length_is_read_and_said_to_hold_nothing(collect, workdir):
    # dur 0 is a range, if an empty one: its launches fall outside every step, and the note says so
    trace = resnet_trace()
    trace["traceEvents"][cpu_steps(trace)[2]]["dur"] = 0
    done = collect_copy(collect, workdir, trace)
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert [step["label"] for step in result["per_iteration"]] == ["ProfilerStep#15", "ProfilerStep#16"]
    assert "1 ProfilerStep ranges hold no kernel and are left out;" in result["note"]
