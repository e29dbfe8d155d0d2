"""Kineto traces altered where the collector used to read them without a
word (this session's attack on ``collect torch-profile``): a kernel's launch
written twice, a kernel event that is no complete event, an integer longer
than Python converts, and durations finer than the ns. Each case is a copy of
the H100 BERT fixture changed in one place, written under tmp_path."""

from __future__ import annotations

import copy
import gzip
import json

import pytest

from studygen.collect.trace_resolution import finer_than_ns
from tests.collect.conftest import TORCH, assert_refused

H100_BERT = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
FIRST_KERNEL = 2103  # the trace's first kernel event: correlation id 8218, launched by event 2105 (cudaLaunchKernel)
ITS_LAUNCH = 2105
EVENTS = 2551  # events in the trace: an event appended is event 2551


def h100_events() -> dict:
    return json.loads(gzip.decompress(H100_BERT.read_bytes()))


def collect_copy(collect, workdir, trace: dict, text_change=None):
    text = json.dumps(trace)
    if text_change:
        text = text_change(text)
    path = workdir / "trace.json"
    path.write_text(text, encoding="utf-8")
    return collect("torch-profile", "--trace", path, "--mode", "eager", "--variant", "bf16")


def test_the_unaltered_copy_is_read(collect, workdir):
    trace = h100_events()
    events = trace["traceEvents"]
    assert len(events) == EVENTS and events[FIRST_KERNEL]["cat"] == "kernel"
    assert events[FIRST_KERNEL]["args"]["correlation"] == events[ITS_LAUNCH]["args"]["correlation"] == 8218
    done = collect_copy(collect, workdir, trace)
    assert done.exit_code == 0, done.err
    assert str(done.results[0]["profiled_total_ms"]) == "0.307197"
    assert "the kernels' dur is in µs to 3 decimals;" in done.results[0]["note"]


@pytest.mark.parametrize("shift_us", [-1_000_000, 0])  # a copy 1 s earlier (outside every step), an exact copy
def test_a_launch_written_twice_is_refused_naming_both(collect, workdir, shift_us):
    trace = h100_events()
    launch = copy.deepcopy(trace["traceEvents"][ITS_LAUNCH])
    launch["ts"] += shift_us
    trace["traceEvents"].append(launch)
    done = collect_copy(collect, workdir, trace)
    assert_refused(done, f"trace.json:/traceEvents/{EVENTS}: launch event {EVENTS} carries correlation id 8218, as "
                         f"launch event {ITS_LAUNCH} (/traceEvents/{ITS_LAUNCH}) does: a kernel has one launch, and "
                         "which of the two places it in a step cannot be told (events written twice, or traces "
                         "joined?)\n")


def test_runtime_calls_sharing_an_id_no_kernel_carries_are_read(collect, workdir):
    # the MTIA fixture nests runtime calls of one correlation id; none of them launches a kernel here
    trace = h100_events()
    for ts in (5.0, 7.0):
        trace["traceEvents"].append({"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "ts": ts,
                                     "dur": 1.0, "pid": 1, "tid": 1, "args": {"correlation": 999999}})
    done = collect_copy(collect, workdir, trace)
    assert done.exit_code == 0, done.err
    assert str(done.results[0]["profiled_total_ms"]) == "0.307197"


@pytest.mark.parametrize("phase, held, pointer", [
    ("B", '"ph": "B"', f"/traceEvents/{FIRST_KERNEL}/ph"),
    (None, 'no "ph"', f"/traceEvents/{FIRST_KERNEL}"),
])
def test_a_kernel_event_that_is_no_complete_event_is_refused(collect, workdir, phase, held, pointer):
    trace = h100_events()
    kernel = trace["traceEvents"][FIRST_KERNEL]
    if phase is None:
        del kernel["ph"]
    else:
        kernel["ph"] = phase
    done = collect_copy(collect, workdir, trace)
    assert_refused(done, f"trace.json:{pointer}: kernel event with {held}, not a complete event (\"ph\": \"X\", as "
                         "Kineto writes every kernel): its time cannot be read; nothing recorded\n")


def test_an_integer_longer_than_python_converts_is_worded(collect, workdir):
    trace = h100_events()
    trace["traceEvents"][FIRST_KERNEL]["ts"] = "LONG"
    done = collect_copy(collect, workdir, trace, lambda text: text.replace('"LONG"', "9" * 5001))
    assert_refused(done, "trace.json:1: malformed JSON: an integer with more than 4300 digits (no measurement has "
                         "that many)\n")


def test_durations_finer_than_the_ns_are_said_to_be_rounded(collect, workdir):
    trace = h100_events()
    kernel = trace["traceEvents"][FIRST_KERNEL]
    assert kernel["dur"] == 3.136
    kernel["dur"] = 3.1234567890123
    done = collect_copy(collect, workdir, trace)
    assert done.exit_code == 0, done.err
    (result,) = done.results
    # the trace's one step: 0.307197 ms - 3.136 µs + 3.1234567890123 µs = 0.30718445679 ms, written to the ns
    assert result["iterations"] == 1 and str(result["profiled_total_ms"]) == "0.307184"
    assert ("times in ms to 6 decimals: the kernels' dur is in µs to more than 3 decimals (finer than any profiler "
            "clock): the times are rounded to the ns;") in result["note"]


@pytest.mark.parametrize("durations, finer", [
    ([71, 9.344, 41.28], False), ([2.0], False), ([3.1234567890123], True), ([2.0000000000000004], True),
    ([9.3445, 1], True),
])
def test_finer_than_ns(durations, finer):
    assert finer_than_ns(durations) is finer


def test_an_integer_no_double_holds_is_refused_at_its_pointer(collect, workdir):
    # 400 digits: beyond a double (1e308) but within Python's 4300; it stopped collect with an internal OverflowError
    trace = h100_events()
    digits = "7" * 400
    done = collect_copy(collect, workdir, trace, lambda text: text.replace(
        '"dur": ' + json.dumps(trace["traceEvents"][FIRST_KERNEL]["dur"]) + ",", f'"dur": {digits},', 1))
    assert_refused(done, f"trace.json:/traceEvents/{FIRST_KERNEL}/dur: number 777777777777…7777777777 (400 digits) is "
                         "out of range: not a finite double (it would read as infinity)\n")
