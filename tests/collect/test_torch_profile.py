"""``studygen collect torch-profile``: the Kineto traces in
../shared/fixtures/torch_profiler and small traces built here."""

from __future__ import annotations

import collections
import gzip
import json
import math

import pytest

from studygen.collect.torch_profile import parse_trace
from studygen.errors import InputError
from tests.collect.conftest import TORCH, gpu_groups

ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"


def alexnet_kernels():
    """GPU kernel events of the alexnet trace, read with plain json."""
    document = json.loads(gzip.decompress(ALEXNET.read_bytes()))
    return [e for e in document["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "kernel"]


def test_alexnet_kernel_totals(collect):
    done = collect("torch-profile", "--trace", ALEXNET, "--mode", "eager", "--variant", "fp32")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    kernels = alexnet_kernels()
    assert len(kernels) == 79
    total_us = sum(e["dur"] for e in kernels)
    assert total_us == 10692  # integer microseconds in this trace
    assert result["profiled_total_ms"] == 10.692
    assert result["backend"] == "pytorch" and result["mode"] == "eager"
    assert "iterations" not in result and "no ProfilerStep#N ranges" in result["note"]
    by_name = collections.Counter()
    for e in kernels:
        by_name[e["name"]] += e["dur"]
    # read off the trace: ampere_sgemm_32x32_sliced1x4_tn 2621 µs, ampere_gcgemm_64x64_nt 646 µs,
    # cublasLt epilogue 39 µs; cudnn scudnn 2069 µs + xmma fprop 1814 µs + FFT 290 + 137 + 130 µs
    assert by_name["ampere_sgemm_32x32_sliced1x4_tn"] == 2621 and by_name["ampere_gcgemm_64x64_nt"] == 646
    assert by_name["cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1"] == 2069
    groups = gpu_groups(result)
    assert groups == {"Conv": 4.44, "GEMM/MatMul": 3.306, "normalization and elementwise": 1.746, "other": 1.2}
    assert math.isclose(sum(groups.values()), 10.692, rel_tol=1e-12)
    # cask_cudnn::computeOffsetsKernel (2 calls, 4 µs each) is the only kernel no rule names
    assert result["unclassified_ms"] == 0.008
    assert math.isclose(result["unclassified_share"], 0.008 / 10.692, rel_tol=1e-9)
    gemm = next(g for g in result["groups"] if g["group"] == "GEMM/MatMul")
    assert gemm["kernels"][0] == {"name": "ampere_sgemm_32x32_sliced1x4_tn", "time_ms": 2.621, "calls": 6}
    provenance = done.record["provenance"]
    assert provenance["gpu"] == "NVIDIA A100-PG509-200"  # deviceProperties[0].name, the kernels' device 0
    assert provenance["gpu_count"] == 1
    assert provenance["collector"]["name"] == "studygen collect torch-profile"


def test_cpu_only_trace_is_an_error_not_zeros(collect):
    done = collect("torch-profile", "--trace", TORCH / "cpu-only_kineto_trace.json.gz")
    assert done.exit_code == 2
    assert "cpu-only_kineto_trace.json.gz: no GPU kernel events" in done.err
    assert "it holds CPU events only" in done.err
    assert "user_annotation 11, cpu_op 4" in done.err
    assert not done.path.exists()


def test_cupti_counters_trace_is_an_error_not_zeros(collect):
    done = collect("torch-profile", "--trace", TORCH / "cupti-counters_kineto_trace.json.gz")
    assert done.exit_code == 2
    assert "cupti-counters_kineto_trace.json.gz: no GPU kernel events" in done.err
    assert "77 cuda_profiler_range events: recorded with CUPTI counters" in done.err
    assert not done.path.exists()


def step_trace(display_time_unit="ms"):
    """Two ProfilerStep ranges; kernels launched inside them run later on the
    GPU (their own ts lies after the step ends), plus one kernel launched
    outside any step."""
    events = [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#7", "ts": 1000, "dur": 100, "pid": 1, "tid": 1},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#8", "ts": 1200, "dur": 100, "pid": 1, "tid": 1},
    ]
    launches = [(1, 1010, "ampere_fp16_gemm_kernel", 300), (2, 1020, "grid_sampler_2d_kernel", 500),
                (3, 1030, "vectorized_elementwise_kernel<add>", 40),
                (4, 1210, "ampere_fp16_gemm_kernel", 320), (5, 1220, "grid_sampler_2d_kernel", 700),
                (6, 1500, "ampere_fp16_gemm_kernel", 999)]
    for correlation, launch_ts, name, dur in launches:
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": launch_ts, "dur": 5,
                       "args": {"correlation": correlation}})
        events.append({"ph": "X", "cat": "kernel", "name": name, "ts": launch_ts + 2000, "dur": dur,
                       "args": {"device": 0, "correlation": correlation}})
    return {"displayTimeUnit": display_time_unit, "deviceProperties": [{"id": 0, "name": "NVIDIA H200"}],
            "traceEvents": events}


def test_profiler_steps_give_mean_per_iteration(collect, workdir):
    path = workdir / "steps.json"
    path.write_text(json.dumps(step_trace()))
    done = collect("torch-profile", "--trace", path, "--mode", "compile", "--shape", "800x800", "--batch", "1")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    # step 7: 300 + 500 + 40 µs; step 8: 320 + 700 µs; the kernel launched at 1500 is outside both.
    # dur is µs although displayTimeUnit says "ms".
    assert result["iterations"] == 2
    assert result["profiled_total_ms"] == 0.93  # (0.84 + 1.02) / 2
    assert gpu_groups(result) == {"GridSample": 0.6, "GEMM/MatMul": 0.31, "normalization and elementwise": 0.02}
    assert result["per_iteration"] == [
        {"label": "ProfilerStep#7", "profiled_total_ms": 0.84,
         "groups": {"GridSample": 0.5, "GEMM/MatMul": 0.3, "normalization and elementwise": 0.04}},
        {"label": "ProfilerStep#8", "profiled_total_ms": 1.02, "groups": {"GridSample": 0.7, "GEMM/MatMul": 0.32}},
    ]
    assert "1 kernel launches outside any ProfilerStep range are left out" in result["note"]
    assert done.record["provenance"]["gpu"] == "NVIDIA H200"


def test_study_kernel_groups_replace_the_defaults(collect, workdir):
    project = workdir / "project"
    (project / "families" / "demo").mkdir(parents=True)
    (project / "families" / "demo" / "study.yaml").write_text(
        "schema_version: 1\nfamily: demo\ntitle: Demo\ntemplate: demo.md.j2\nmodel: {id: demo/model}\n"
        "decision: {shipped: false, summary: not yet}\n"
        "variants:\n  - {name: fp16, precision: fp16}\n  - {name: fp8, precision: fp8}\n"
        "kernel_groups:\n  - {pattern: 'grid_sampler', group: deformable sampling}\n"
        "  - {pattern: '(?-i:gemm)', group: matmul}\n")
    path = workdir / "steps.json"
    path.write_text(json.dumps(step_trace()))
    import os

    os.chdir(project)
    done = collect("torch-profile", "--trace", path, "--variant", "fp8",
                   measurements=project / "measurements")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    assert gpu_groups(result) == {"deformable sampling": 0.6, "matmul": 0.31, "other": 0.02}
    assert result["unclassified_ms"] == 0.02
    assert "groups by families/demo/study.yaml kernel_groups rules" in result["note"]
    unknown = collect("torch-profile", "--trace", path, "--variant", "int4", measurements=project / "measurements",
                      job="job2")
    assert unknown.exit_code == 2
    assert "unknown variant 'int4': families/demo/study.yaml defines fp16, fp8" in unknown.err
    missing = collect("torch-profile", "--trace", path, measurements=project / "measurements", job="job3")
    assert missing.exit_code == 2 and "give --variant: families/demo/study.yaml defines fp16, fp8" in missing.err


def test_invalid_study_regex_names_the_pointer(collect, workdir):
    project = workdir / "project"
    (project / "families" / "demo").mkdir(parents=True)
    (project / "families" / "demo" / "study.yaml").write_text(
        "schema_version: 1\nfamily: demo\ntitle: Demo\ntemplate: demo.md.j2\nmodel: {id: demo/model}\n"
        "decision: {shipped: false, summary: not yet}\nvariants:\n  - {name: fp16, precision: fp16}\n"
        "kernel_groups:\n  - {pattern: 'gemm(', group: GEMM}\n")
    path = workdir / "steps.json"
    path.write_text(json.dumps(step_trace()))
    import os

    os.chdir(project)
    done = collect("torch-profile", "--trace", path, measurements=project / "measurements")
    assert done.exit_code == 2
    # at the study file's line of the pattern, the pointer in the message, as check and render say it
    assert done.err == ("studygen: families/demo/study.yaml:10: invalid regular expression 'gemm(': missing ), "
                        "unterminated subpattern at position 4 (/kernel_groups/0/pattern)\n")
    assert not done.path.exists()


def test_bare_event_array_trace(collect, workdir):
    events = step_trace()["traceEvents"]
    path = workdir / "array.json"
    path.write_text(json.dumps(events))
    done = collect("torch-profile", "--trace", path)
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] is None  # no deviceProperties: unknown
    assert any("has no deviceProperties name" in note for note in done.record["provenance"]["notes"])


def test_not_a_trace(collect, workdir):
    path = workdir / "x.json"
    path.write_text('{"foo": 1}')
    done = collect("torch-profile", "--trace", path)
    assert done.exit_code == 2 and "x.json:/traceEvents: no \"traceEvents\" list" in done.err


def test_kernel_event_without_duration(collect, workdir):
    trace = step_trace()
    del trace["traceEvents"][3]["dur"]  # the first kernel event
    path = workdir / "nodur.json"
    path.write_text(json.dumps(trace))
    done = collect("torch-profile", "--trace", path)
    assert done.exit_code == 2
    assert "nodur.json:/traceEvents/3: kernel event without a non-negative dur and a ts" in done.err


def test_runtime_calls_without_kernels_are_named_as_such(collect, workdir):
    # seven categories: the message names the six most common, most common first
    events = [{"ph": "X", "cat": cat, "name": f"{cat} event", "ts": 10 * i, "dur": 1, "pid": 1, "tid": 1}
              for i, (cat, count) in enumerate([("cuda_runtime", 7), ("cpu_op", 6), ("user_annotation", 5),
                                                ("python_function", 4), ("gpu_memcpy", 3), ("ac2g", 2), ("Trace", 1)])
              for _ in range(count)]
    path = workdir / "runtime-only.json"
    path.write_text(json.dumps({"traceEvents": events}))
    done = collect("torch-profile", "--trace", path)
    assert done.exit_code == 2
    assert done.err == ("studygen: runtime-only.json: no GPU kernel events (\"cat\": \"kernel\"), so no kernel time: "
                        "it holds CUDA runtime calls but no kernel activity; event categories: cuda_runtime 7, "
                        "cpu_op 6, user_annotation 5, python_function 4, gpu_memcpy 3, ac2g 2\n")
    assert not done.path.exists()


def test_data_after_the_trace_is_refused_at_its_line(collect, workdir):
    path = workdir / "trailing.json"
    path.write_text(json.dumps(step_trace()) + "\n\n  ]\n")
    done = collect("torch-profile", "--trace", path)
    assert done.exit_code == 2
    assert done.err == "studygen: trailing.json:3: malformed JSON: Extra data after the trace (column 3)\n"


def test_device_entries_without_an_integer_id_and_a_name_are_not_read(workdir):
    trace = step_trace()
    trace["deviceProperties"] = ["NVIDIA H200", {"id": "0", "name": "NVIDIA H200"}, {"id": 1}]
    path = workdir / "devices.json"
    path.write_text(json.dumps(trace))
    parsed = parse_trace(path, "devices.json")
    assert parsed.devices == {} and parsed.gpu is None  # the kernels' device 0 is not named by any entry


def test_events_without_a_comma_between_them_are_refused_at_the_place(workdir):
    path = workdir / "comma.json"
    path.write_text('{"traceEvents": [{"ph": "i"}\n {"ph": "i"}]}')
    with pytest.raises(InputError) as raised:
        parse_trace(path, "comma.json")
    assert raised.value.line() == "comma.json:2: malformed JSON: Expecting ',' delimiter (column 2)"
