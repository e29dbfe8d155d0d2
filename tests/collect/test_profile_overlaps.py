"""Profiler traces whose events overlap where a profiler never writes them so
(issue 13: refuse what would give a wrong number): ProfilerStep ranges of one
thread that overlap."""

from __future__ import annotations

import json

import pytest

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
