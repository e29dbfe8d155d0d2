"""Profiler traces whose events overlap where a profiler never writes them so
(issue 13: refuse what would give a wrong number): ProfilerStep ranges of one
thread that overlap, a kernel event written twice, kernels of one stream that
overlap beyond timestamp rounding and a tail overlap."""

from __future__ import annotations

import gzip
import json

import pytest

from studygen.collect.inputs import skip_space
from tests.collect.conftest import assert_refused
from tests.collect.test_torch_profile import step_trace


def step(name, ts, dur, tid=1, cat="user_annotation"):
    return {"ph": "X", "cat": cat, "name": f"ProfilerStep#{name}", "ts": ts, "dur": dur, "pid": 1, "tid": tid}


def collect_trace(collect, workdir, events=(), change=None):
    trace = step_trace()
    trace["traceEvents"] += list(events)
    if change:
        change(trace["traceEvents"])
    path = workdir / "trace.json"
    path.write_text(json.dumps(trace))
    return collect("torch-profile", "--trace", path)


def test_a_step_starting_inside_another_is_refused_naming_both(collect, workdir):
    # a copy of step 8 starting inside step 7 ([1000, 1100] µs) would be one range [1050, 1300] with step 8
    done = collect_trace(collect, workdir, [step(8, 1050, 100)])
    assert_refused(done, "trace.json:/traceEvents/14: ProfilerStep#8 (event 14) starts at ts 1050.000 µs inside "
                         "ProfilerStep#7 (event 0, ts 1000.000 to 1100.000 µs) on pid 1 tid 1: steps of one thread "
                         "cannot overlap (a step recorded twice, or traces joined?), so kernels per iteration would be "
                         "wrong")


def test_a_step_inside_a_long_one_is_refused_after_a_short_one(collect, workdir):
    # step 7 made [1000, 1400] µs: step 8 ([1200, 1300]) lies inside it
    done = collect_trace(collect, workdir, change=lambda events: events[0].update(dur=400))
    assert_refused(done, "ProfilerStep#8 (event 1) starts at ts 1200.000 µs inside ProfilerStep#7 (event 0, ts "
                         "1000.000 to 1400.000 µs)")


def test_one_step_written_twice_is_one_range(collect, workdir):
    done = collect_trace(collect, workdir, [step(7, 1000, 100)])
    assert done.exit_code == 0, done.err
    assert done.results[0]["iterations"] == 2 and done.results[0]["profiled_total_ms"] == 0.93


@pytest.mark.parametrize("events, change", [
    ((), lambda events: events[1].update(ts=1099.5, dur=200.5)),  # 0.5 µs into step 7: rounding
    ((), lambda events: events[1].update(tid=2, ts=1050, dur=250)),  # steps on two threads may overlap
    ([step(7, 1000, 300, tid=7, cat="gpu_user_annotation"), step(8, 1200, 300, tid=7, cat="gpu_user_annotation")],
     None),  # GPU step ranges are not used when CPU ones exist
])
def test_steps_that_do_not_overlap_on_one_thread_are_read(collect, workdir, events, change):
    done = collect_trace(collect, workdir, events, change)
    assert done.exit_code == 0, done.err
    assert done.results[0]["iterations"] == 2


def test_overlapping_gpu_steps_are_refused_when_they_are_the_steps(collect, workdir):
    gpu = [step(7, 3000, 600, tid=7, cat="gpu_user_annotation"), step(8, 3500, 600, tid=7, cat="gpu_user_annotation")]
    done = collect_trace(collect, workdir, gpu, lambda events: [events.remove(e) for e in events[:2]])
    assert_refused(done, "ProfilerStep#8 (event 13) starts at ts 3500.000 µs inside ProfilerStep#7 (event 12")


# --- kernels of one stream ---------------------------------------------------------------

def kernel(ts, dur, name="ampere_fp16_gemm_kernel", stream=7, **args):
    return {"ph": "X", "cat": "kernel", "name": name, "ts": ts, "dur": dur, "pid": 0, "tid": stream,
            "args": {"device": 0, "stream": stream, **args}}


def test_a_kernel_event_written_twice_is_refused_naming_both(collect, workdir):
    # step_trace's kernels run at 3010 (300 µs), 3020, 3030, 3210, 3220, 3500 on device 0 without a stream
    done = collect_trace(collect, workdir, [kernel(5000, 40), kernel(6000, 10), kernel(5000, 40)])
    assert_refused(done, "trace.json:/traceEvents/16: kernel event 16 repeats kernel event 14 exactly (same name, ts "
                         "5000 µs, dur 40 µs) on device 0 stream 7: a kernel written twice would be counted twice")


def test_a_kernel_inside_another_of_its_stream_is_refused(collect, workdir):
    done = collect_trace(collect, workdir, [kernel(5000, 100), kernel(5050, 20, name="other_kernel")])
    assert_refused(done, "trace.json:/traceEvents/15: kernel event 15 (ts 5050 µs, dur 20 µs) starts inside kernel "
                         "event 14 (ts 5000 to 5100 µs) on device 0 stream 7 and overlaps it by 20 µs: a stream runs "
                         "its kernels one after another")


def test_a_copy_shifted_by_a_microsecond_is_refused(collect, workdir):
    done = collect_trace(collect, workdir, [kernel(5000, 71), kernel(5001, 71)])
    assert_refused(done, "kernel event 15 (ts 5001 µs, dur 71 µs) starts inside kernel event 14 (ts 5000 to 5071 µs)",
                   "overlaps it by 70 µs")


def test_kernels_without_a_stream_are_checked_on_their_pid_and_tid(collect, workdir):
    events = [kernel(5000, 71), kernel(5010, 71)]
    for event in events:
        del event["args"]["stream"]
    assert_refused(collect_trace(collect, workdir, events), "on pid 0 tid 7 and overlaps it by 61 µs")


@pytest.mark.parametrize("events", [
    [kernel(5000, 100), kernel(5099.2, 50)],  # within the 1 µs rounding of ts and dur
    [kernel(5000, 100), kernel(5080, 100, name="next_kernel")],  # a tail overlap: programmatic dependent launch
    [kernel(5000, 100), kernel(5050, 20, stream=8)],  # two streams run concurrently
    [kernel(5000, 100, **{"graph node id": 3}), kernel(5050, 20, **{"graph node id": 4})],  # branches of a CUDA graph
    [kernel(5000, 40), kernel(5000, 40, stream=8), kernel(5040, 40)],  # the same times on two streams, back to back
    [kernel(5000, 40, stream=[1]), kernel(5100, 40, stream={"a": 1})],  # odd stream values are keys, not errors
])
def test_kernels_a_stream_can_run_are_summed(collect, workdir, events):
    done = collect_trace(collect, workdir, events)
    assert done.exit_code == 0, done.err
    # the added kernels have no launch event (step_trace's have): in no step, the steps' figures stay
    assert done.results[0]["iterations"] == 2 and done.results[0]["profiled_total_ms"] == 0.93
    assert "1 kernel launches outside any ProfilerStep range are left out" in done.results[0]["note"]
    line = (f"trace.json: {len(events)} kernels ({sum(e['dur'] for e in events) / 1000:g} ms) whose launch event is "
            "missing from the trace (their step is unknown): left out")
    assert line in done.record["provenance"]["notes"] and f"studygen: warning: {line}\n" in done.err


# --- an empty event list, padded ---------------------------------------------------------

def test_a_padded_empty_trace_is_read_quickly_and_named_empty(collect, workdir):
    # a gzip bomb in small: 20 MB of whitespace inside an empty event list (300 MB took minutes, skipped one
    # character at a time); the reason is the empty list, not "CPU events only"
    path = workdir / "padded.json.gz"
    path.write_bytes(gzip.compress(b'{"traceEvents": [' + b" " * 20_000_000 + b"]}"))
    assert_refused(collect("torch-profile", "--trace", path), "padded.json.gz: no events at all: its event list is "
                   "empty (the profiler recorded nothing, or the file was written before it flushed), so no kernel time")


def test_skip_space_skips_json_whitespace_only():
    text = " \t\r\n \u00a0x"
    assert skip_space(text, 0) == 5 and skip_space(text, 5) == 5 and skip_space("ab", 2) == 2


def test_an_overlap_names_the_step_that_reaches_furthest_first(collect, workdir):
    # step 7 again as [1050, 1100] µs (one range with the first, ending with it), then step 9 from 1095 µs:
    # it starts inside step 7, and the message names the event that first reached 1100 µs (event 0)
    done = collect_trace(collect, workdir, [step(7, 1050, 50), step(9, 1095, 50)])
    assert_refused(done, "trace.json:/traceEvents/15: ProfilerStep#9 (event 15) starts at ts 1095.000 µs inside "
                         "ProfilerStep#7 (event 0, ts 1000.000 to 1100.000 µs) on pid 1 tid 1")
