"""Kineto trace variants (issue 13, profiler items 5 and 6; issue 16's cost in
steps plus kernels): traces of our own in the layouts the fixtures show
(CUDA, ROCm, steps on the CPU and the GPU), each test asserting the figure
or the refusal text."""

from __future__ import annotations

import json

import pytest

from studygen.collect.kernel_groups import default_rules
from studygen.collect.torch_profile import kernel_time_result, parse_trace
from studygen.collect.torch_steps import assign_steps
from tests.collect.conftest import assert_refused, gpu_groups


def write(workdir, name, document):
    path = workdir / name
    path.write_text(json.dumps(document) if not isinstance(document, str) else document)
    return path


def launch_and_kernel(correlation, launch_ts, name, dur, *, device=0, kernel_delay=30000):
    return [{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "ts": launch_ts, "dur": 4,
             "pid": 100, "tid": 100, "args": {"correlation": correlation}},
            {"ph": "X", "cat": "kernel", "name": name, "ts": launch_ts + kernel_delay, "dur": dur, "pid": device,
             "tid": 0, "args": {"device": device, "correlation": correlation}}]


GPU_STEP = "gpu_user_annotation"


def step(name, ts, dur, cat="user_annotation", pid=100):
    return {"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur, "pid": pid, "tid": pid}


# --- steps on the CPU and the GPU -------------------------------------------------------------

def test_steps_on_both_sides_are_counted_once_by_their_cpu_range(collect, workdir):
    # as in the MI300X fixture: the GPU copies of the steps are short and start long after the CPU ranges
    events = [step("ProfilerStep#3", 1000, 500), step("ProfilerStep#4", 1600, 500),
              step("ProfilerStep#3", 31200, 12, GPU_STEP, pid=2), step("ProfilerStep#4", 31900, 15, GPU_STEP, pid=2)]
    events += launch_and_kernel(1, 1100, "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32", 300, device=2)
    events += launch_and_kernel(2, 1450, "void at::native::vectorized_elementwise_kernel<4, add>", 60, device=2)
    events += launch_and_kernel(3, 1700, "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32", 340, device=2)
    trace = {"traceEvents": events, "roctracer_version": 4.1,
             "deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X"}, {"id": 2, "name": "AMD Instinct MI300X"}]}
    done = collect("torch-profile", "--trace", write(workdir, "both.json", trace))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert result["iterations"] == 2  # not 4
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#3", 0.36), ("ProfilerStep#4", 0.34)]
    assert result["profiled_total_ms"] == 0.35
    # hipBLASLt's Tensile kernels are GEMMs: (0.3 + 0.34) / 2
    assert gpu_groups(result) == {"GEMM/MatMul": 0.32, "normalization and elementwise": 0.03}
    assert "ProfilerStep ranges appear on the CPU (2) and on the GPU (2, gpu_user_annotation)" in result["note"]
    assert done.record["provenance"]["gpu"] == "AMD Instinct MI300X"


def test_steps_on_the_gpu_only_match_kernels_by_their_own_start(collect, workdir):
    events = [step("ProfilerStep#0", 1000, 1000, GPU_STEP, pid=0), step("ProfilerStep#1", 2000, 1000, GPU_STEP, pid=0)]
    events += launch_and_kernel(1, 100, "ampere_sgemm_128x64_nn", 400, kernel_delay=1000)  # runs at 1100
    events += launch_and_kernel(2, 150, "ampere_sgemm_128x64_nn", 500, kernel_delay=2000)  # runs at 2150
    done = collect("torch-profile", "--trace", write(workdir, "gpu-steps.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#0", 0.4), ("ProfilerStep#1", 0.5)]
    assert "ProfilerStep ranges appear on the GPU only (gpu_user_annotation)" in result["note"]


def test_a_step_named_twice_on_the_cpu_is_one_range(collect, workdir):
    # older PyTorch records ProfilerStep#N as a cpu_op and again as a user_annotation
    events = [step("ProfilerStep#9", 1000, 400, "cpu_op"), step("ProfilerStep#9", 1001, 420)]
    events += launch_and_kernel(1, 1410, "ampere_sgemm_128x64_nn", 250)  # inside the longer of the two
    done = collect("torch-profile", "--trace", write(workdir, "twice.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert (result["iterations"], result["profiled_total_ms"]) == (1, 0.25)
    assert "outside any ProfilerStep" not in result["note"]


def test_a_step_named_twice_takes_the_earlier_start(collect, workdir):
    # the second record of the step starts 1 µs earlier: the union starts there
    events = [step("ProfilerStep#9", 1001, 420, "cpu_op"), step("ProfilerStep#9", 1000, 400)]
    events += launch_and_kernel(1, 1000, "ampere_sgemm_128x64_nn", 250)  # launched at the union's first µs
    done = collect("torch-profile", "--trace", write(workdir, "earlier.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert (result["iterations"], result["profiled_total_ms"]) == (1, 0.25)
    assert "outside any ProfilerStep" not in result["note"]


def test_a_driver_launch_places_its_kernel_in_its_step(collect, workdir):
    # cuLaunchKernel (category cuda_driver) inside the step; the kernel runs 30 ms later, after the step
    events = [step("ProfilerStep#1", 1000, 500)]
    events += [dict(e, cat="cuda_driver", name="cuLaunchKernel") if e["cat"] == "cuda_runtime" else e
               for e in launch_and_kernel(7, 1200, "ampere_sgemm_128x64_nn", 80)]
    done = collect("torch-profile", "--trace", write(workdir, "driver.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert (result["iterations"], result["profiled_total_ms"]) == (1, 0.08)
    assert [p["label"] for p in result["per_iteration"]] == ["ProfilerStep#1"]


def unlaunched_kernel(correlation, ts, name, dur, device=0):
    """A kernel event whose launch (runtime event of its correlation id) the trace does not hold."""
    return {"ph": "X", "cat": "kernel", "name": name, "ts": ts, "dur": dur, "pid": device, "tid": 0,
            "args": {"device": device, "correlation": correlation}}


@pytest.mark.parametrize("queued_ids, words", [
    ((3, 4), "launched before the first profiled step, no launch event in the trace"),
    # one id above the first launch's (10): a launch dropped from the trace, so none is said to be queued early
    ((3, 12), "whose launch event is missing from the trace (their step is unknown)"),
])
def test_a_kernel_without_its_launch_is_in_no_step(collect, workdir, queued_ids, words):
    # two kernels without a launch run on the GPU inside the steps' CPU ranges (at 1050 and 1700 µs): by
    # their own start they would add 200 µs to step 1 and 100 µs to step 2
    events = [step("ProfilerStep#1", 1000, 500), step("ProfilerStep#2", 1600, 500)]
    events += launch_and_kernel(10, 1100, "ampere_sgemm_128x64_nn", 300, kernel_delay=300)  # runs 1400-1700
    events += launch_and_kernel(11, 1700, "ampere_sgemm_128x64_nn", 80, kernel_delay=400)  # runs 2100-2180
    events += [unlaunched_kernel(queued_ids[0], 1050, "ampere_sgemm_128x64_nn", 200),
               unlaunched_kernel(queued_ids[1], 1700, "vectorized_elementwise_kernel<add>", 100)]
    done = collect("torch-profile", "--trace", write(workdir, "queued.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#1", 0.3), ("ProfilerStep#2", 0.08)]
    assert (result["iterations"], result["profiled_total_ms"]) == (2, 0.19)
    assert gpu_groups(result) == {"GEMM/MatMul": 0.19}
    line = f"queued.json: 2 kernels (0.3 ms) {words}: left out"
    assert line in done.record["provenance"]["notes"] and done.err == f"studygen: warning: {line}\n"
    assert "outside any ProfilerStep" not in result["note"]


def test_a_trace_holding_no_launch_matches_kernels_by_their_own_start(collect, workdir):
    # no runtime event at all: nothing tells a queued kernel apart, so the kernels' own start places them
    events = [step("ProfilerStep#1", 1000, 500), step("ProfilerStep#2", 1600, 500),
              unlaunched_kernel(1, 1050, "ampere_sgemm_128x64_nn", 200),
              unlaunched_kernel(2, 1700, "ampere_sgemm_128x64_nn", 100),
              unlaunched_kernel(3, 2500, "ampere_sgemm_128x64_nn", 40)]
    done = collect("torch-profile", "--trace", write(workdir, "no-launch.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#1", 0.2), ("ProfilerStep#2", 0.1)]
    assert "1 kernel launches outside any ProfilerStep range are left out" in result["note"]
    assert result["note"].endswith("; the trace holds no kernel's launch (runtime event of its correlation id): "
                                   "kernels matched to steps by their own start")
    assert done.err == "" and not any("no launch event" in n for n in done.record["provenance"]["notes"])


def test_a_trace_without_steps_counts_a_kernel_without_its_launch_and_says_so(collect, workdir):
    events = launch_and_kernel(10, 100, "ampere_sgemm_128x64_nn", 300) + [
        unlaunched_kernel(4, 50, "ampere_sgemm_128x64_nn", 25)]
    done = collect("torch-profile", "--trace", write(workdir, "whole.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert "iterations" not in result and result["profiled_total_ms"] == 0.325  # 300 + 25 µs, as before
    line = ("whole.json: 1 kernel (0.025 ms) launched before profiling began (no launch event in the trace): counted "
            "in the whole-trace totals")
    assert line in done.record["provenance"]["notes"] and done.err == f"studygen: warning: {line}\n"


@pytest.mark.parametrize("top, platform", [
    ({"cupti_version": 24}, "CUDA, CUPTI"), ({"cuda_runtime_version": 12040}, "CUDA, CUPTI"),
    ({"hip_runtime_version": 60443483}, "ROCm, roctracer"), ({"roctracer_version": 4.1}, "ROCm, roctracer"),
])
def test_platform_named_by_any_one_of_its_version_fields(collect, workdir, top, platform):
    trace = dict(top, traceEvents=launch_and_kernel(1, 10, "ampere_sgemm_128x64_nn", 25))
    done = collect("torch-profile", "--trace", write(workdir, "platform.json", trace))
    assert done.exit_code == 0, done.err
    assert done.results[0]["profiler"] == f"torch.profiler (Kineto trace, {platform}; GPU kernel events, dur in µs)"


@pytest.mark.parametrize("text, message", [
    ("\n  {}", 'no "traceEvents" list: not a Chrome trace'),
    ('{1: []}', "Expecting a key and ':'"),
    ("42", "not a Chrome trace: expected an object with traceEvents or an event array"),
    ('{"deviceProperties": [1,], "traceEvents": []}', "top.json:1: malformed JSON"),
    ('{"traceEvents" []}', "Expecting a key and ':'"),
])
def test_malformed_top_level_named(collect, workdir, text, message):
    assert_refused(collect("torch-profile", "--trace", write(workdir, "top.json", text)), "top.json", message)


def test_steps_without_kernels_leave_the_totals_and_say_so(collect, workdir):
    events = [step("ProfilerStep#1", 1000, 100)] + launch_and_kernel(1, 5000, "ampere_sgemm_128x64_nn", 250)
    done = collect("torch-profile", "--trace", write(workdir, "empty-steps.json", {"traceEvents": events}))
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert "iterations" not in result and result["profiled_total_ms"] == 0.25
    assert "no kernel falls in the trace's 1 ProfilerStep ranges: times are totals over the whole trace" in result["note"]


def test_many_steps_are_assigned_in_one_pass():
    # 12,500 steps of 2 kernels each (issue 16: such a trace took 6.9 s when each step scanned every kernel)
    ranges = [(i * 100.0, i * 100.0 + 50.0, f"ProfilerStep#{i}") for i in range(12500)]
    times = [t for i in range(12500) for t in (i * 100.0 + 10.0, i * 100.0 + 60.0)]  # inside, then between steps
    labels = assign_steps(times, ranges)
    assert labels[0::2] == [f"ProfilerStep#{i}" for i in range(12500)]
    assert labels[1::2] == [None] * 12500
    assert assign_steps([5.0, 49.9, 50.0, 50.1], [(0.0, 50.0, "a")]) == ["a", "a", "a", None]
    assert assign_steps([1.0], []) == [None]


class CountedTime(float):
    """A time (µs) that counts the comparisons made with it: the cost bound of
    step assignment as a budget of comparisons, not a wall-clock figure."""

    comparisons = 0

    def _counted(op):  # noqa: N805 (a factory used in the class body)
        def compare(self, other):
            CountedTime.comparisons += 1
            return op(float(self), float(other))
        return compare

    __lt__ = _counted(float.__lt__)
    __le__ = _counted(float.__le__)
    __gt__ = _counted(float.__gt__)
    __ge__ = _counted(float.__ge__)


def test_step_assignment_costs_steps_plus_kernels_comparisons():
    # 1000 steps of 4 kernels given in reverse order: one scan per step would cost 4000 x 1000 comparisons
    ranges = [(i * 100.0, i * 100.0 + 50.0, f"ProfilerStep#{i}") for i in range(1000)]
    times = [CountedTime(i * 100.0 + offset) for i in reversed(range(1000)) for offset in (5.0, 20.0, 45.0, 70.0)]
    CountedTime.comparisons = 0
    labels = assign_steps(times, ranges)
    # sorting 4000 times (about n log2 n = 48,000) plus one pass over both lists (about 2 x 4000 + 1000)
    assert CountedTime.comparisons <= 4000 * 12 + 2 * 4000 + 1000
    assert labels[:4] == ["ProfilerStep#999"] * 3 + [None]
    assert labels[-4:] == ["ProfilerStep#0"] * 3 + [None]


def test_many_steps_mean_per_iteration(workdir):
    events = []
    for i in range(12500):
        events.append(step(f"ProfilerStep#{i}", i * 100, 50))
        events += launch_and_kernel(i, i * 100 + 10, "ampere_sgemm_128x64_nn", 4 + i % 2, kernel_delay=20)
    trace = parse_trace(write(workdir, "many.json", {"traceEvents": events}))
    result = kernel_time_result(trace, default_rules(), {"kind": None, "variant": "v"})
    assert result["iterations"] == 12500 and len(result["per_iteration"]) == 12500
    # (4 + 5) / 2 µs = 4.5 µs, written at the trace's 1 µs (whole µs durations: 3 decimals of a ms), half up
    assert result["profiled_total_ms"].source == "0.005"
    assert result["per_iteration"][12499] == {"label": "ProfilerStep#12499", "profiled_total_ms": 0.005,
                                              "groups": {"GEMM/MatMul": 0.005}}


# --- GPU names ------------------------------------------------------------------------------

@pytest.mark.parametrize("devices, gpu", [
    ([{"id": 0, "name": "AMD Instinct MI300X VF"}], "AMD Instinct MI300X VF"),  # one model: it names the device
    ([{"id": 0, "name": "NVIDIA H100"}, {"id": 1, "name": "NVIDIA A100"}], None),  # two models: unknown
])
def test_gpu_name_for_a_device_the_trace_does_not_list(collect, workdir, devices, gpu):
    trace = {"traceEvents": launch_and_kernel(1, 10, "ampere_sgemm_128x64_nn", 25, device=3),
             "deviceProperties": devices}
    done = collect("torch-profile", "--trace", write(workdir, "device3.json", trace))
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == gpu


# --- traces without kernels: the right reason ---------------------------------------------------

@pytest.mark.parametrize("categories, top, reason", [
    (["cuda_runtime", "cpu_op"], {"roctracer_version": 4.1, "hip_runtime_version": 60443483},
     "it holds HIP runtime calls (roctracer, category cuda_runtime) but no kernel activity: the device side was "
     "not recorded"),
    (["mtia_runtime", "mtia_ccp_events", "cpu_op"], {},
     "it is an MTIA trace (its device work is in mtia_* events, not kernel events)"),
    (["hpu_op", "cpu_op"], {}, "it is a Gaudi (HPU) trace (its device work is in hpu_op events, not kernel events)"),
    (["xpu_runtime", "cpu_op"], {}, "it holds xpu_runtime calls but no kernel activity"),
    (["gpu_memcpy", "cpu_op"], {}, "it holds memory copies and sets but no kernel activity"),
    (["gpu_memset", "cpu_op"], {}, "it holds memory copies and sets but no kernel activity"),
    (["driver", "cpu_op"], {}, "it holds driver calls but no kernel activity"),
    (["cpu_op", "user_annotation"], {"deviceProperties": [{"id": 0, "name": "NVIDIA H200"}]},
     "it holds CPU events only, though it lists 1 device(s): profiled without the device activity "
     "(ProfilerActivity.CUDA)"),
    (["cuda_driver", "cpu_op"], {}, "it holds CUDA driver calls but no kernel activity"),
])
def test_no_kernel_events_named_with_the_right_reason(collect, workdir, categories, top, reason):
    events = [{"ph": "X", "cat": cat, "name": f"{cat} event", "ts": i, "dur": 1, "pid": 1, "tid": 1}
              for i, cat in enumerate(categories)]
    done = collect("torch-profile", "--trace", write(workdir, "nokernels.json", dict(top, traceEvents=events)))
    assert_refused(done, "nokernels.json: no GPU kernel events", reason)
    if "CPU events only" not in reason:
        assert "CPU events only" not in done.err


def test_kernels_that_all_last_zero_give_no_kernel_time(collect, workdir):
    events = [dict(e, dur=0) if e["cat"] == "kernel" else e for e in launch_and_kernel(1, 10, "ampere_sgemm", 25)
              + launch_and_kernel(2, 20, "ampere_sgemm", 25)]
    assert_refused(collect("torch-profile", "--trace", write(workdir, "zero.json", {"traceEvents": events})),
                   "studygen: zero.json: every one of its 2 kernel events has dur 0: no kernel time to record")


# --- repeated keys ------------------------------------------------------------------------------

def test_a_repeated_dur_is_refused_not_read(collect, workdir):
    kernel = '{"ph": "X", "cat": "kernel", "name": "ampere_sgemm", "ts": 10, "dur": 5, "dur": 5000, "args": {}}'
    path = write(workdir, "dur.json", '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "x", "ts": 1, '
                                      '"dur": 1}, ' + kernel + "]}")
    assert_refused(collect("torch-profile", "--trace", path),
                   "dur.json:1: malformed JSON: duplicate key 'dur' in one object (the last would silently win)")


def test_a_repeated_event_list_is_refused(collect, workdir):
    events = json.dumps(launch_and_kernel(1, 10, "ampere_sgemm", 25))
    path = write(workdir, "lists.json", f'{{"traceEvents": {events}, "traceEvents": {events}}}')
    assert_refused(collect("torch-profile", "--trace", path), "lists.json:/traceEvents: malformed JSON: duplicate key 'traceEvents'")
    path = write(workdir, "props.json", f'{{"deviceProperties": [], "traceEvents": {events}, "deviceProperties": []}}')
    assert_refused(collect("torch-profile", "--trace", path, job="props"),
                   "props.json:/deviceProperties: malformed JSON: duplicate key 'deviceProperties'")


def test_a_repeated_key_deep_in_an_event_names_its_line(collect, workdir):
    kernel = ('{"ph": "X", "cat": "kernel", "name": "k", "ts": 10, "dur": 5, '
              '"args": {"device": 0, "device": 1}}')
    path = write(workdir, "args.json", '{"traceEvents": [' + kernel + "]}")
    assert_refused(collect("torch-profile", "--trace", path), "args.json:1: malformed JSON: duplicate key 'device' in one object")
