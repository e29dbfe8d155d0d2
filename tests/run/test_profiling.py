"""Kernel time per forward from torch.profiler, grouped by the study's rules, and the FP8 evidence
(figures computed by hand from the events and items given)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from torch.autograd import DeviceType
from torch.autograd.profiler_util import FunctionEvent

from studygen.collect.kernel_groups import KernelItem, compile_rules
from tests.conftest import REPO
from studygen.collect.run.profiling import (CPU_PROFILER, Profile, _cpu_tally, _device_tally, fp8_evidence,
                                            kernel_time_result, launch_configs, per_forward_items, profile_forwards,
                                            tf32_kernel_note, _traced_launches)
from studygen.collect.run.latency_stage import note_tf32
from studygen.collect.run.spec import DEFAULT_RUN, Cell

GEMM_PATTERN = DEFAULT_RUN["fp8_gemm_kernel_pattern"]
FAKE_PATTERN = DEFAULT_RUN["fake_quant_kernel_pattern"]


def test_items_are_time_and_calls_per_forward_largest_first():
    # 3 forwards: 3000 us over 6 launches -> 1 ms and 2 calls per forward; 500 us over 5 launches ->
    # 0.166667 ms (rounded to 1 ns) and no whole number of calls; 4.5 us over 3 -> 0.0015 ms, 1 call
    items = per_forward_items({"b": 500.0, "a": 3000.0, "c": 4.5}, {"a": 6, "b": 5, "c": 3}, 3)
    assert items == [KernelItem("a", 1.0, 2), KernelItem("b", 0.166667, None), KernelItem("c", 0.0015, 1)]
    assert type(items[0].calls) is int  # the record says "calls": 2, not 2.0


def averaged(key, count, self_us):
    """A ``key_averages()`` row as torch.profiler gives it (FunctionEventAvg's fields read here)."""
    return SimpleNamespace(key=key, count=count, self_cpu_time_total=self_us)


def test_cpu_operators_without_self_time_are_left_out_and_split_rows_add_up():
    # key_averages() keeps one row per name and device, so an operator may come in two rows
    totals, counts, launched = _cpu_tally([averaged("aten::mm", 4, 30.0), averaged("aten::mm", 2, 10.0),
                                           averaged("aten::linear", 4, 0.0), averaged("aten::t", 4, 0.5)])
    assert (dict(totals), dict(counts), launched) == ({"aten::mm": 40.0, "aten::t": 0.5}, {"aten::mm": 6, "aten::t": 4},
                                                      set())


def cuda_event(name, start_us, end_us):
    return FunctionEvent(id=start_us, name=name, thread=0, start_us=start_us, end_us=end_us,
                         device_type=DeviceType.CUDA)


def test_device_events_are_summed_per_name_and_scaled_mm_kernels_named():
    scaled_mm = FunctionEvent(id=1, name="aten::_scaled_mm", thread=0, start_us=0, end_us=9)
    scaled_mm.append_kernel("nvjet_sm90_qqtst_128x128", 0, 4)
    scaled_mm.append_kernel("triton_poi_fused_abs_amax_to_copy_0", 0, 1)
    other_cpu = FunctionEvent(id=2, name="aten::mm", thread=0, start_us=0, end_us=50)
    other_cpu.append_kernel("ampere_sgemm_128x64_tn", 0, 30)
    events = [scaled_mm, other_cpu, cuda_event("nvjet_sm90_qqtst_128x128", 100, 104),
              cuda_event("nvjet_sm90_qqtst_128x128", 200, 206), cuda_event("Memset (Device)", 300, 301),
              cuda_event("ampere_sgemm_128x64_tn", 400, 430)]
    totals, counts, launched = _device_tally(events, DeviceType.CUDA)
    assert dict(totals) == {"nvjet_sm90_qqtst_128x128": 10.0, "Memset (Device)": 1.0, "ampere_sgemm_128x64_tn": 30.0}
    assert dict(counts) == {"nvjet_sm90_qqtst_128x128": 2, "Memset (Device)": 1, "ampere_sgemm_128x64_tn": 1}
    # the CPU-side operators' own times are not device time; only _scaled_mm's kernels are named
    assert launched == {"nvjet_sm90_qqtst_128x128", "triton_poi_fused_abs_amax_to_copy_0"}


def test_cpu_profile_counts_each_operator_once_per_forward_after_the_warmup():
    left, right = torch.ones(32, 48), torch.ones(48, 16)
    calls = []

    def forward(i):
        calls.append(i)
        return torch.mm(left, right)

    profile = profile_forwards(forward, iterations=4, warmup=3, cuda=False)
    assert calls == [0, 1, 2, 0, 1, 2, 3]  # warm-up indexes, then the profiled ones
    assert profile.iterations == 4 and profile.profiler == CPU_PROFILER and profile.scaled_mm_kernels == set()
    by_name = {item.name: item for item in profile.items}
    assert by_name["aten::mm"].calls == 1 and by_name["aten::mm"].time_ms > 0
    assert all(item.time_ms > 0 for item in profile.items)
    assert [item.time_ms for item in profile.items] == sorted((item.time_ms for item in profile.items), reverse=True)


def test_kernel_time_result_groups_the_items_by_the_rules():
    rules = compile_rules([("gemm|mm$", "GEMM/MatMul"), ("grid_sampler", "GridSample")], source="s.yaml")
    profile = Profile(items=[KernelItem("aten::mm", 0.5000004, 2), KernelItem("grid_sampler_2d_kernel", 0.25, 1),
                             KernelItem("sm90_gemm_bf16", 0.1250003, None), KernelItem("aten::add", 0.1250002, 3)],
                      profiler=CPU_PROFILER, scaled_mm_kernels=set(), iterations=5)
    result = kernel_time_result(profile, rules)
    # GEMM 0.5000004 + 0.1250003; the add matches no rule
    assert [(g["group"], g["time_ms"]) for g in result["groups"]] == [("GEMM/MatMul", 0.6250007), ("GridSample", 0.25),
                                                                    ("other", 0.1250002)]
    # total 1.0000009 and unclassified 0.1250002 at 1 ns: 1.000001 and 0.125; share 0.1250002 / 1.0000009
    assert (result["profiled_total_ms"], result["unclassified_ms"], result["unclassified_share"]) == (1.000001, 0.125,
                                                                                                      0.125)
    assert (result["iterations"], result["profiler"], result["rows_listed"]) == (5, CPU_PROFILER, True)


def test_cpu_profile_keeps_each_forward_apart():
    left = torch.ones(64, 64)
    calls = []

    def forward(i):
        calls.append(i)
        product = torch.mm(left, left)
        return torch.mm(product, left) if i == 1 else product  # forward 1 (the second profiled) runs mm twice

    profile = profile_forwards(forward, iterations=3, warmup=1, cuda=False)
    assert calls == [0, 0, 1, 2]
    assert len(profile.per_iteration) == 3
    mm = [{item.name: item for item in items}["aten::mm"] for items in profile.per_iteration]
    assert [item.calls for item in mm] == [1, 2, 1]
    # the per-forward mean is the sum of the forwards' times over 3 (each rounded to 1 ns)
    mean = {item.name: item for item in profile.items}["aten::mm"]
    assert mean.time_ms == pytest.approx(sum(item.time_ms for item in mm) / 3, abs=2e-6)
    assert mean.calls is None  # 4 calls over 3 forwards is no whole number per forward
    # on the CPU the trace holds no kernel events: no launch configurations, and no note (the trace was read)
    assert profile.launches == {} and profile.launch_note is None


def test_kernel_time_result_keeps_each_forward_and_the_launch_configurations():
    rules = compile_rules([("grid_sampler", "GridSample"), ("gemm", "GEMM/MatMul")], source="s.yaml")
    first = [KernelItem("triton_poi_fused_grid_sampler_2d_0", 6.4, 6), KernelItem("sm90_gemm", 0.5, 12),
             KernelItem("triton_poi_fused_add_1", 0.1000004, 1)]
    second = [KernelItem("triton_poi_fused_grid_sampler_2d_0", 6.6, 6), KernelItem("sm90_gemm", 0.5, 12)]
    profile = Profile(items=[KernelItem("triton_poi_fused_grid_sampler_2d_0", 6.5, 6), KernelItem("sm90_gemm", 0.5, 12),
                             KernelItem("triton_poi_fused_add_1", 0.05, None)],
                      profiler="p", scaled_mm_kernels=set(), iterations=2, per_iteration=[first, second],
                      launches={"triton_poi_fused_grid_sampler_2d_0": {"grid": [5000, 1, 1], "block": [256, 1, 1]}})
    result = kernel_time_result(profile, rules)
    assert result["per_iteration"] == [
        # 6.4 + 0.5 + 0.1000004 = 7.0000004 -> 7.0 at 1 ns; the add is unclassified ("other")
        {"label": "forward 1", "profiled_total_ms": 7.0,
         "groups": {"GridSample": 6.4, "GEMM/MatMul": 0.5, "other": 0.1}},
        {"label": "forward 2", "profiled_total_ms": 7.1, "groups": {"GridSample": 6.6, "GEMM/MatMul": 0.5}}]
    grid = result["groups"][0]
    assert grid["group"] == "GridSample" and grid["kernels"] == [
        {"name": "triton_poi_fused_grid_sampler_2d_0", "time_ms": 6.5, "calls": 6, "grid": [5000, 1, 1],
         "block": [256, 1, 1]}]
    assert result["groups"][1]["kernels"] == [{"name": "sm90_gemm", "time_ms": 0.5, "calls": 12}]
    assert "note" not in result
    profile.launch_note = "no launch configurations: the profiler trace could not be written or read (OSError)"
    assert kernel_time_result(profile, rules)["note"] == profile.launch_note


def test_kernel_time_result_flags_forwards_that_disagree():
    # a user's collect run --cpu profile (tinyres fp32 64x64, job laptop-1): two forwards stalled by the host
    rules = compile_rules([("conv", "Conv")], source="s.yaml")
    totals = [0.397784, 0.373937, 7.046788, 22.576559, 0.396467]
    per_iteration = [[KernelItem("aten::mkldnn_convolution", total, 1)] for total in totals]
    stalled = Profile(items=[KernelItem("aten::mkldnn_convolution", 6.158307, 1)], profiler=CPU_PROFILER,
                      scaled_mm_kernels=set(), iterations=5, per_iteration=per_iteration)
    result = kernel_time_result(stalled, rules)
    assert result["unstable"] is True
    assert result["unstable_reason"] == ("the totals of its 5 profiled iterations disagree: forward 4's 22.576559 ms is "
                                         "60.4 times forward 2's 0.373937 ms (limit 1.5 times)")
    steady = Profile(items=[KernelItem("aten::mkldnn_convolution", 0.389396, 1)], profiler=CPU_PROFILER,
                     scaled_mm_kernels=set(), iterations=3, per_iteration=per_iteration[:2] + per_iteration[4:])
    result = kernel_time_result(steady, rules)
    assert result["unstable"] is False and "unstable_reason" not in result


def test_launch_configurations_are_read_from_a_public_kineto_trace():
    import gzip
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / ".." / "shared" / "fixtures" / "public" / "hta_triton_example_triton_example.json.gz"
    trace = json.loads(gzip.decompress(path.read_bytes()))
    # its one kernel event, read off the file: grid 1x1x1, 128 threads, 16 registers, no shared memory
    assert launch_configs(trace) == {"triton_poi_fused_add_cos_sin_0": {
        "grid": [1, 1, 1], "block": [128, 1, 1], "registers_per_thread": 16, "shared_memory_bytes": 0}}


class _Exporter:
    """What ``_traced_launches`` asks of a finished torch.profiler session: ``export_chrome_trace(path)``."""

    def __init__(self, events=None, error=None):
        self.events, self.error, self.paths = events, error, []

    def export_chrome_trace(self, path):
        self.paths.append(path)
        if self.error:
            raise self.error
        Path(path).write_text(json.dumps({"traceEvents": self.events}), encoding="utf-8")


def test_the_trace_is_written_read_and_removed_and_a_failure_is_a_note():
    kernel = {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_grid_sampler_2d_68", "ts": 0, "dur": 9,
              "args": {"grid": [26588, 1, 1], "block": [256, 1, 1], "registers per thread": 59}}
    exporter = _Exporter([kernel])
    assert _traced_launches(exporter) == ({"triton_poi_fused_grid_sampler_2d_68": {
        "grid": [26588, 1, 1], "block": [256, 1, 1], "registers_per_thread": 59}}, None)
    (path,) = exporter.paths
    assert not Path(path).exists() and not Path(path).parent.exists()  # nothing left behind
    failing = _Exporter(error=OSError("disk full"))
    assert _traced_launches(failing) == ({}, "no launch configurations: the profiler trace could not be written or "
                                             "read (OSError)")
    assert not Path(failing.paths[0]).parent.exists()


class _UntidyExporter(_Exporter):
    """An exporter that leaves a file of its own beside the trace (a writer's partial copy)."""

    def export_chrome_trace(self, path):
        Path(path + ".partial").write_text("{", encoding="utf-8")
        super().export_chrome_trace(path)


def test_the_trace_folder_goes_with_what_the_exporter_left_in_it():
    kernel = {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 0, "dur": 9, "args": {"grid": [4, 1, 1], "block": [64, 1, 1]}}
    untidy = _UntidyExporter([kernel])
    assert _traced_launches(untidy) == ({"gemm": {"grid": [4, 1, 1], "block": [64, 1, 1]}}, None)
    assert not Path(untidy.paths[0]).parent.exists()
    failing = _UntidyExporter(error=ValueError("bad trace"))
    assert _traced_launches(failing)[1].endswith("(ValueError)")
    assert not Path(failing.paths[0]).parent.exists()


def test_a_kernel_launched_with_two_configurations_gets_none_and_bad_args_are_skipped():
    def kernel(name, **args):
        return {"ph": "X", "cat": "kernel", "name": name, "ts": 0, "dur": 1, "args": args}

    events = [kernel("k", grid=[4, 1, 1], block=[128, 1, 1]), kernel("k", grid=[8, 1, 1], block=[128, 1, 1]),
              kernel("same", grid=[2, 2, 1], block=[64, 1, 1], **{"shared memory": 1024}),
              kernel("same", grid=[2, 2, 1], block=[64, 1, 1], **{"shared memory": 1024}),
              kernel("odd", grid=[2, 1], block=[1.5, 1, 1], **{"registers per thread": True}),
              {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "args": {"grid": [1, 1, 1]}},
              kernel("neg", grid=[-1, 1, 1], **{"registers per thread": 32.0})]
    assert launch_configs(events) == {"same": {"grid": [2, 2, 1], "block": [64, 1, 1], "shared_memory_bytes": 1024},
                                      "neg": {"registers_per_thread": 32}}
    assert launch_configs({"traceEvents": "not a list"}) == {} and launch_configs({"traceEvents": [3, None]}) == {}


def fp8_profile():
    items = [KernelItem("nvjet_sm90_qqtst_128x256_64x4_2x1_v_bz_TNT", 0.4000004, 12),
             KernelItem("SM90_XMMA_GEMM_E4M3F16_E4M3F32_F32_TN_N", 0.07, None),
             KernelItem("triton_poi_fused_abs_amax_to_copy_0", 0.03, 12),
             KernelItem("Memset (Device)", 0.001, 12),
             KernelItem("ampere_fp16_s16816gemm_fp16_128x128", 0.9, 4),
             KernelItem("fake_e4m3fy_kernel", 0.0200004, 3),
             KernelItem("FAKE_TENSOR_QUANT_E4M3", 0.01, None)]
    launched = {"nvjet_sm90_qqtst_128x256_64x4_2x1_v_bz_TNT", "triton_poi_fused_abs_amax_to_copy_0", "Memset (Device)"}
    return Profile(items=items, profiler="p", scaled_mm_kernels=launched, iterations=2)


def test_fp8_evidence_lists_fp8_gemms_their_companions_and_fake_quantization():
    evidence = fp8_evidence(fp8_profile(), GEMM_PATTERN, FAKE_PATTERN)
    assert evidence == {
        "kernels": [
            # times at 1 ns
            {"name": "nvjet_sm90_qqtst_128x256_64x4_2x1_v_bz_TNT", "time_ms": 0.4, "calls": 12,
             "launched_by_scaled_mm": True},
            # matched by name (case does not matter), not linked to a _scaled_mm call, no whole calls per forward
            {"name": "SM90_XMMA_GEMM_E4M3F16_E4M3F32_F32_TN_N", "time_ms": 0.07, "launched_by_scaled_mm": False},
        ],
        # a fake-quantization kernel counts as such even when its name also says e4m3 (in any case);
        # one without calls per forward counts once; 0.0200004 + 0.01 ms at 1 ns
        "fake_quant_kernels": 4, "fake_quant_ms": 0.03,
        "gemm_kernel_pattern": GEMM_PATTERN,
        "scaled_mm_companion_kernels": [{"name": "triton_poi_fused_abs_amax_to_copy_0", "time_ms": 0.03, "calls": 12},
                                        {"name": "Memset (Device)", "time_ms": 0.001, "calls": 12}],
    }


def test_fp8_evidence_of_a_profile_without_fp8_is_empty():
    profile = Profile(items=[KernelItem("ampere_fp16_s16816gemm_fp16_128x128", 0.9, 4)], profiler="p",
                      scaled_mm_kernels=set(), iterations=1)
    assert fp8_evidence(profile, GEMM_PATTERN, FAKE_PATTERN) == {
        "kernels": [], "fake_quant_kernels": 0, "fake_quant_ms": 0.0, "gemm_kernel_pattern": GEMM_PATTERN,
        "scaled_mm_companion_kernels": []}


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (the GPU machine)")
def test_cuda_profile_holds_the_matmul_kernel_once_per_forward():
    left = torch.ones(256, 256, device="cuda", dtype=torch.float16)
    profile = profile_forwards(lambda i: left @ left, iterations=3, warmup=2, cuda=True)
    assert profile.profiler.startswith("torch.profiler (Kineto/CUPTI)")
    gemms = [item for item in profile.items if "gemm" in item.name.lower() or "nvjet" in item.name.lower()]
    assert gemms and all(item.calls == 1 and item.time_ms > 0 for item in gemms)
    # each forward apart, and the GEMM's launch configuration from the trace (three whole numbers each)
    assert len(profile.per_iteration) == 3 and profile.launch_note is None
    launched = [profile.launches[item.name] for item in gemms if item.name in profile.launches]
    assert launched and all(len(c["grid"]) == 3 and len(c["block"]) == 3 for c in launched)


def test_a_cpu_profile_leaves_stderr_to_studygen_unless_the_user_asks_for_kinetos_log():
    # trial s21: collect run --cpu --quiet printed two Kineto tracing marks a profiled forward and a failed GPU
    # count; Kineto reads its level at its first session, so each case runs in a fresh interpreter
    import os
    import subprocess
    import sys

    script = ("import torch\nfrom studygen.collect.run.profiling import profile_forwards\n"
              "left = torch.ones(8, 8)\nprofile_forwards(lambda i: torch.mm(left, left), iterations=3, warmup=1, "
              "cuda=False)\nprint('profiled')\n")
    env = {name: value for name, value in os.environ.items() if name != "KINETO_LOG_LEVEL"}
    env["PYTHONPATH"] = str(REPO)
    quiet = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stdout == "profiled\n", quiet.stderr
    assert "USDT" not in quiet.stderr and "gpuGetDeviceCount" not in quiet.stderr, quiet.stderr
    asked = subprocess.run([sys.executable, "-c", script], env=dict(env, KINETO_LOG_LEVEL="5"), capture_output=True,
                           text=True, timeout=300)
    assert asked.returncode == 0 and asked.stderr.count("profiler_start") == 3  # one session a profiled forward


# An fp32 ResNet profiled by collect run on an H100 (per forward): a TF32 xmma convolution once and cuBLAS's
# CUTLASS TF32 GEMM (s1688gemm, no 16-bit input) 8 times beside FP32 ffma convolutions; figures made up here.
TF32_CONV = ("sm80_xmma_fprop_implicit_gemm_indexed_wo_smem_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x32x16_stage1"
             "_warpsize4x1x1_g1_tensor16x8x8_aligna4_alignc8_execute_kernel__5x_cudnn")
TF32_GEMM = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>(Params)"
FP32_CONV = "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize32x32x8_stage3_g1_ffma_aligna4"


def resnet_profile(profiler="torch.profiler (Kineto/CUPTI): device kernels, memcpy and memset, ms per forward"):
    return {"kind": "kernel_time", "variant": "fp32", "profiler": profiler, "profiled_total_ms": 0.2,
            "groups": [{"group": "Conv", "time_ms": 0.07, "kernels": [
                {"name": FP32_CONV, "time_ms": 0.06, "calls": 8}, {"name": TF32_CONV, "time_ms": 0.01, "calls": 1}]},
                {"group": "GEMM/MatMul", "time_ms": 0.03, "kernels": [{"name": TF32_GEMM, "time_ms": 0.03, "calls": 8}]},
                {"group": "other", "time_ms": 0.1, "kernels": [{"name": "void cudnn::bn_fw_inf", "time_ms": 0.1,
                                                                "calls": 19}]}]}


def test_an_fp32_profile_with_tf32_kernels_is_noted_with_launches_time_and_share():
    note = tf32_kernel_note(resnet_profile(), "fp32", "fp32", "224x224, batch 1, eager")
    # 1 + 8 launches; 0.01 + 0.03 = 0.04 ms of 0.2 ms: 20 %; the GEMM's 0.03 ms is the largest
    assert note.startswith("fp32 at 224x224, batch 1, eager: 9 kernel launches per profiled forward ran TF32 "
                           f"tensor-core math by their names (0.04 ms per forward, 20% of the kernel time; largest: "
                           f"{TF32_GEMM}), while variant 'fp32' is declared fp32")
    assert note.endswith("these figures are not full-FP32 arithmetic")


@pytest.mark.parametrize("case, kernel, precision", [
    ("declared fp16", resnet_profile(), "fp16"),
    ("a CPU profile", resnet_profile(profiler=CPU_PROFILER), "fp32"),
    ("FP32 kernels only", {**resnet_profile(), "groups": [{"group": "Conv", "time_ms": 0.06, "kernels": [
        {"name": FP32_CONV, "time_ms": 0.06, "calls": 8}]}]}, "fp32"),
    ("3xTF32 keeps FP32 accuracy", {**resnet_profile(), "groups": [{"group": "GEMM/MatMul", "time_ms": 0.02,
                                    "kernels": [{"name": "cutlass_80_tensorop_s1688gemm_3xtf32_64x64", "time_ms": 0.02,
                                                 "calls": 2}]}]}, "fp32"),
])
def test_no_tf32_note_where_nothing_claims_fp32_that_ran_tf32(case, kernel, precision):
    assert tf32_kernel_note(kernel, "v", precision, "224x224, batch 1, eager") is None, case


def test_note_tf32_adds_each_fp32_cells_note_to_the_record_and_logs_it():
    notes, logged = [], []
    run = SimpleNamespace(plan=SimpleNamespace(precision={"fp32": "fp32", "half": "fp16"}.get),
                          settings={"batch": 4}, sink=SimpleNamespace(add_notes=notes.extend),
                          progress=SimpleNamespace(log=logged.append))
    latency = {"kind": "latency", "variant": "fp32"}
    note_tf32(run, Cell("compile", "320x320", "fp32"), [latency, {**resnet_profile(), "batch": 4}])
    note_tf32(run, Cell("eager", "320x320", "half"), [latency, {**resnet_profile(), "variant": "half"}])
    assert len(notes) == 1 and notes == logged
    assert notes[0].startswith("fp32 at 320x320, batch 4, compile: 9 kernel launches per profiled forward")
