"""The twelve newer files in ../shared/fixtures (SOURCES.md: TensorRT 8.4 to
8.6 logs, pre-8.6 profile tables, ROCm and H100 traces), each collected
through ``studygen collect`` and checked against figures read off the file
by hand: the comment above each assertion names the line (logs) or the
events (traces) it comes from. Trace figures that are sums over hundreds of
events are recomputed here with plain ``json`` and loops, never with studygen.
"""

from __future__ import annotations

import collections
import gzip
import json
import math

from tests.collect.conftest import TORCH, TRTEXEC, gpu_groups

HASH_84 = TRTEXEC / "trt8.4_hash-prefixed-log_in-python-file.py.txt"
ORIN_84 = TRTEXEC / "trt8.4_orin_verbose_build-crash.log"
QAT_85 = TRTEXEC / "trt8.5_qat-resnet18_dump-profile_separate-profile-run.log"
PLUGIN_85 = TRTEXEC / "trt8.5_build-with-plugin_h2d-bound.log"
NO_E2E_853 = TRTEXEC / "trt8.5.3_dump-profile_no-e2e-timing.log"
RESNET_86 = TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log"
RESNET_86_PROFILE = TRTEXEC / "trt8.6_resnet50-int8_profile.json"
RESNET_86_LAYERS = TRTEXEC / "trt8.6_resnet50-int8_layer-info-detailed.json"
MI300X_RESNET = TORCH / "rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz"
MI300X_BERT = TORCH / "rocm-mi300x_bert-small_profilerstep6_kineto_trace.json.gz"
H100_BERT = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
MI210 = TORCH / "rocm-mi210_gpu-only_kineto_trace.json.gz"
HTA_TRIMMED = TORCH.parent / "public" / "hta_trace_compare_base_base.json.gz"


def events(path):
    return json.loads(gzip.decompress(path.read_bytes()))["traceEvents"]


# --- TensorRT logs ----------------------------------------------------------------------------

def test_trt8_4_log_inside_a_python_file_with_hash_prefixes(collect):
    done = collect("trtexec", "--log", HASH_84)
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    # line 187 "# [..] [I] TensorRT version: 8.4.3"; line 178 "# [..] [I] Selected Device: NVIDIA GeForce GTX 1080 Ti"
    assert provenance["software"]["tensorrt"] == "8.4.3"
    assert provenance["gpu"] == "NVIDIA GeForce GTX 1080 Ti"
    host = done.latency("host_latency", batch=1)
    # line 304: Latency: min = 5.79297 ms, max = 24.5749 ms, mean = 5.98386 ms, median = 5.94467 ms,
    # percentile(99%) = 6.12769 ms -- the 99th percentile only
    assert host["statistics_ms"] == {"min": 5.79297, "max": 24.5749, "mean": 5.98386, "median": 5.94467, "p99": 6.12769}
    assert host["throughput_qps"] == 181.088  # line 303
    # lines 242-243: "Warmup completed 37 queries", "Timing trace has 546 queries"
    assert host["distribution"] == {"samples": 546, "warmup_iterations": 37}
    assert host["source_locator"] == "trt8.4_hash-prefixed-log_in-python-file.py.txt:304"
    gpu = done.latency("gpu_compute", batch=1)
    assert gpu["value_ms"] == 5.46616  # line 307: GPU Compute Time ... median = 5.46616 ms
    assert gpu["unstable"] is True and gpu["distribution"]["cv"] == 0.145636  # line 311: 14.5636%
    assert done.latency("enqueue", batch=1)["value_ms"] == 2.92749  # line 305
    assert done.latency("h2d", batch=1)["value_ms"] == 0.464874  # line 306
    assert done.latency("d2h", batch=1)["value_ms"] == 0.0178223  # line 308
    # lines 158-162: Data transfers: Enabled, Spin-wait: Disabled, CUDA Graph: Disabled, Separate profiling: Disabled
    assert {k: gpu["method"][k] for k in ("data_transfers", "spin_wait", "cuda_graph", "separate_profile_run")} == {
        "data_transfers": True, "spin_wait": False, "cuda_graph": False, "separate_profile_run": False}
    # line 150 "Batch: Explicit", line 151 "Input inference shapes: model": only the input binding states them,
    # line 232 "Created input binding for onnx::Cast_0 with dimensions 1x3x640x640"
    assert (gpu["batch"], gpu["shape"]) == (1, "640x640")


def test_trt8_4_orin_build_that_crashed_is_refused_at_its_assertion(collect):
    done = collect("trtexec", "--log", ORIN_84)
    assert done.exit_code == 2
    assert done.err.count("\n") == 1 and "Traceback" not in done.err
    # line 1 "&&&& RUNNING ... [TensorRT v8410]", no "&&&& PASSED"; line 348 is Myelin's failed assertion
    assert done.err.startswith("studygen: ")
    assert "trt8.4_orin_verbose_build-crash.log:348: run 1 (line 1) has no " in done.err
    assert "'&&&& PASSED' line: it ends with 'trtexec: /root/gpgpu/MachineLearning/myelin/src/compiler/ir/graph.cpp" \
        in done.err
    assert "which trtexec did not log (it crashed or was killed?); nothing recorded" in done.err
    # line 348 is 252 characters: quoted as its first 157 and "..."
    last = ORIN_84.read_text().splitlines()[347]
    assert len(last) == 252 and f"it ends with {last[:157] + '...'!r}, which" in done.err
    assert not done.path.exists()


def test_trt8_5_qat_summary_without_transfers_and_pre_8_6_profile_table(collect):
    done = collect("trtexec", "--log", QAT_85)
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["software"]["tensorrt"] == "8.5.10"  # line 77, tag [TensorRT v8510]
    assert done.record["provenance"]["gpu"] == "NVIDIA RTX 2000 Ada Generation Laptop GPU"  # line 68
    # line 46 "Data transfers: Disabled": the all-zero H2D and D2H lines (8786, 8788) are no latencies
    assert sorted(r["timing"] for r in done.kind("latency")) == ["enqueue", "gpu_compute", "host_latency"]
    gpu = done.latency("gpu_compute", batch=1)
    # line 8787: min = 0.133057 ms, max = 0.690186 ms, mean = 0.134851 ms, median = 0.134155 ms,
    # percentile(90%) = 0.135132 ms, percentile(95%) = 0.135193 ms, percentile(99%) = 0.135254 ms
    assert gpu["statistics_ms"] == {"min": 0.133057, "max": 0.690186, "mean": 0.134851, "median": 0.134155,
                                    "p90": 0.135132, "p95": 0.135193, "p99": 0.135254}
    assert gpu["distribution"]["cv"] == 0.0769863  # line 8791: coefficient of variance = 7.69863%
    assert gpu["distribution"]["samples"] == 21990 and gpu["distribution"]["warmup_iterations"] == 1257  # 6577-6578
    assert done.latency("enqueue", batch=1)["value_ms"] == 0.00357056  # line 8785
    assert done.latency("host_latency", batch=1)["throughput_qps"] == 7329.45  # line 8783
    (kernel,) = done.kind("kernel_time")
    # line 8811 "=== Profile (7477 iterations ) ===", line 8812 "Layer  Time (ms)  Avg. Time (ms)  Median Time (ms)
    # Time %" (the layer first), line 8837 "Total  2689.67  0.3597  0.3074  100.0"
    assert (kernel["iterations"], kernel["profiled_total_ms"]) == (7477, 0.3597)
    # line 38 "Batch: Explicit", line 39 "Input inference shapes: model": only the input binding states them,
    # line 6541 "Created input binding for inputs.1 with dimensions 1x3x224x224"
    assert (gpu["batch"], gpu["shape"]) == (kernel["batch"], kernel["shape"]) == (1, "224x224")
    assert kernel["source_locator"] == "trt8.5_qat-resnet18_dump-profile_separate-profile-run.log:8811"
    assert kernel["profiler"] == "trtexec --dumpProfile (Avg. Time (ms): mean per iteration; total from its Total row)"
    # the Avg. Time column of lines 8814-8833, every "...Conv_N" row (20 of them)
    conv_rows = [0.0172, 0.0114, 0.0147, 0.0221, 0.0166, 0.0130, 0.0134, 0.0144, 0.0141, 0.0166,
                 0.0135, 0.0119, 0.0159, 0.0157, 0.0166, 0.0159, 0.0115, 0.0180, 0.0171, 0.0179]
    assert gpu_groups(kernel) == {
        "Conv": round(math.fsum(conv_rows), 12),  # 0.3075
        "GEMM/MatMul": 0.0131,  # line 8835 "fc.weight + QuantizeLinear_309 + ... Gemm_311 ..."
        "Quantize/Dequantize": 0.0115,  # line 8813 "QuantizeLinear_2"
        "normalization and elementwise": 0.0145,  # line 8836 "Softmax_312"
        "other": 0.0134,  # line 8834 "GlobalAveragePool_300"
    }
    assert gpu_groups(kernel)["Conv"] == 0.3075
    assert kernel["unclassified_ms"] == 0.0
    assert kernel["note"].startswith("24 layers (0 with zero time)")


def test_trt8_5_plugin_run_bound_by_host_transfers(collect):
    done = collect("trtexec", "--log", PLUGIN_85)
    assert done.exit_code == 0, done.err
    host = done.latency("host_latency")
    # line 417: Latency ... median = 12.908 ms; line 420: GPU Compute Time ... median = 0.453613 ms
    assert host["value_ms"] == 12.908 and host["statistics_ms"]["p99"] == 12.9889
    assert done.latency("gpu_compute")["value_ms"] == 0.453613
    assert done.latency("h2d")["value_ms"] == 6.22552  # line 419
    assert done.latency("d2h")["value_ms"] == 6.21509  # line 421
    # lines 424 and 426: "* Throughput may be bound by host-to-device transfers for the inputs rather than GPU
    # Compute and the GPU may be under-utilized." and the device-to-host one
    assert host["note"] == (
        "trtexec: throughput may be bound by host-to-device transfers for the inputs rather than GPU Compute and "
        "the GPU may be under-utilized (trt8.5_build-with-plugin_h2d-bound.log:424); trtexec: throughput may be "
        "bound by device-to-host transfers for the outputs rather than GPU Compute and the GPU may be under-utilized "
        "(trt8.5_build-with-plugin_h2d-bound.log:426)")
    assert done.latency("gpu_compute")["distribution"] == {"samples": 225, "warmup_iterations": 4, "cv": 0.0308398}
    assert "note" not in done.latency("gpu_compute")


def test_trt8_5_3_profile_table_without_a_summary(collect):
    done = collect("trtexec", "--log", NO_E2E_853)
    assert done.exit_code == 0, done.err
    assert done.kind("latency") == []
    provenance = done.record["provenance"]
    assert provenance["software"]["tensorrt"] == "8.5.3" and provenance["gpu"] == "NVIDIA GeForce RTX 3090"
    # line 153: "The e2e network timing is not reported since it is inaccurate due to the extra synchronizations..."
    assert ("trt8.5.3_dump-profile_no-e2e-timing.log run 1 (line 1): no latency, trtexec did not report the "
            "end-to-end timing (line 153: the profiler was on without --separateProfileRun)") in provenance["notes"]
    (kernel,) = done.kind("kernel_time")
    # line 156 "=== Profile (523 iterations ) ===", line 209 "Total 2832.23 5.4153 5.1343 100.0"
    assert (kernel["iterations"], kernel["profiled_total_ms"], kernel["batch"]) == (523, 5.4153, 1)  # line 37 "Batch: 1"
    groups = gpu_groups(kernel)
    assert groups["GEMM/MatMul"] == 0.1678  # "MatMul_1118  87.78  0.1678  0.0184  3.1"
    assert groups["Conv"] == 0.0316  # "Conv_70 ... 0.0162" + "Conv_71 + Relu_72 ... 0.0154"
    assert kernel["note"].startswith("51 layers (0 with zero time)")
    # two Myelin nodes whose members TensorRT elides: line 161 "{ForeignNode[Cast_416...Slice_1070]} 21.61 0.0413"
    # and line 197 "{ForeignNode[onnx::Gather_426...Squeeze_3019]} 2512.68 4.8044" (88.7%): untold, 0.0413 +
    # 4.8044 = 4.8457 ms unclassified (before, the first read as a Cast, elementwise, and the second as a Gather)
    assert kernel["unclassified_ms"] == 4.8457
    # main: elementwise 0.0954 and other 5.1206; the 0.0413 ms node moves from the one to the other
    assert (groups["normalization and elementwise"], groups["other"]) == (0.0541, 5.1619)
    assert kernel["unclassified_share"] == round(4.8457 / 5.4153, 12)
    other = {k["name"]: k["time_ms"] for k in next(g for g in kernel["groups"] if g["group"] == "other")["kernels"]}
    assert other["{ForeignNode[onnx::Gather_426...Squeeze_3019]}"] == 4.8044
    assert other["{ForeignNode[Cast_416...Slice_1070]}"] == 0.0413
    assert kernel["note"].endswith("2 layers matched no rule (counted in 'other'); 2 of them are Myelin nodes whose "
                                   "members TensorRT elides ({ForeignNode[first...last]}): their work cannot be told "
                                   "from the names, so they are unclassified")
    # the elementwise group is the four PWN(Sin|Cos_…) fusions of lines 169-176 (0.0072 + 0.0084 + 0.0082 +
    # 0.0079 = 0.0317) and the other elementwise layers, without the 0.0413 ms node
    elementwise = next(g for g in kernel["groups"] if g["group"] == "normalization and elementwise")
    assert {"PWN(Sin_1071)", "PWN(Cos_1077)", "PWN(Sin_1096)", "PWN(Cos_1102)"} <= {k["name"] for k in elementwise["kernels"]}
    assert "{ForeignNode[Cast_416...Slice_1070]}" not in {k["name"] for k in elementwise["kernels"]}


def test_trt8_6_resnet50_log_profile_and_layer_info_together(collect):
    done = collect("trtexec", "--log", RESNET_86, "--profile", RESNET_86_PROFILE, "--layer-info", RESNET_86_LAYERS,
                   "--variant", "int8")
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=1)  # line 53 "Batch: 1"
    # line 1187: GPU Compute Time: min = 0.273193 ms, max = 0.976898 ms, mean = 0.292246 ms, median = 0.275391 ms,
    # percentile(90%) = 0.276611 ms, percentile(95%) = 0.468018 ms, percentile(99%) = 0.624634 ms
    assert gpu["value_ms"] == 0.275391 and gpu["statistics_ms"]["p99"] == 0.624634
    assert gpu["distribution"] == {"samples": 10220, "warmup_iterations": 644, "cv": 0.228235}  # 154-155, 1191
    assert done.latency("enqueue", batch=1)["value_ms"] == 0.00512695  # line 1185
    assert done.latency("host_latency", batch=1)["throughput_qps"] == 3406.14  # line 1183
    (kernel,) = done.kind("kernel_time")
    rows = json.loads(RESNET_86_PROFILE.read_text())
    assert rows[0] == {"count": 6402} and len(rows) == 60
    assert kernel["iterations"] == 6402 and kernel["batch"] == 1
    assert kernel["profiled_total_ms"] == round(math.fsum(r["averageMs"] for r in rows[1:]), 12) == 0.45265544
    # the layer info's types decide: 52 CaskConvolution layers named ".../Conv", the stem's CaskConvActPool, and
    # "/backbone/fc/Gemm", whose LayerType is CaskConvolution too (TensorRT runs the FC as a 1x1 convolution)
    types = {layer["Name"]: layer["LayerType"] for layer in json.loads(RESNET_86_LAYERS.read_text())["Layers"]}
    conv = [r["averageMs"] for r in rows[1:] if types[r["name"]] in ("CaskConvolution", "CaskConvActPool")]
    assert len(conv) == 54 and gpu_groups(kernel)["Conv"] == round(math.fsum(conv), 12) == 0.43802898
    assert "GEMM/MatMul" not in gpu_groups(kernel)
    assert kernel["note"].endswith("56 layers grouped by their --exportLayerInfo type")
    # without the layer info the names decide: "/backbone/fc/Gemm" is the one GEMM
    names_only = collect("trtexec", "--log", RESNET_86, "--profile", RESNET_86_PROFILE, "--variant", "int8",
                         job="names", measurements=done.measurements.parent / "names-only")  # one log, one job a family
    (by_name,) = names_only.kind("kernel_time")
    named_conv = [r["averageMs"] for r in rows[1:] if "/Conv" in r["name"] and not r["name"].startswith("Reformatting")]
    assert len(named_conv) == 53 and gpu_groups(by_name)["Conv"] == round(math.fsum(named_conv), 12) == 0.42674998
    assert gpu_groups(by_name)["GEMM/MatMul"] == next(r["averageMs"] for r in rows if r.get("name") == "/backbone/fc/Gemm")
    (layers,) = done.kind("engine_layers")
    assert (layers["layer_count"], layers["detailed"], layers["bindings"]) == (59, True, ["input0", "output0"])


# --- Kineto traces ----------------------------------------------------------------------------

def test_mi300x_resnet_steps_on_cpu_and_gpu_counted_once(collect):
    done = collect("torch-profile", "--trace", MI300X_RESNET, "--mode", "eager")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    trace = events(MI300X_RESNET)
    cpu_steps = {e["name"]: (e["ts"], e["ts"] + e["dur"]) for e in trace
                 if e.get("cat") == "user_annotation" and e["name"].startswith("ProfilerStep#")}
    gpu_steps = [e["name"] for e in trace if e.get("cat") == "gpu_user_annotation" and e["name"].startswith("Profiler")]
    assert sorted(cpu_steps) == sorted(gpu_steps) == ["ProfilerStep#15", "ProfilerStep#16", "ProfilerStep#17"]
    # by hand: each kernel to the CPU step containing its HIP launch (cuda_runtime event of the same
    # correlation); a kernel whose launch is not in the trace was queued before the profiler's window
    launch = {e["args"]["correlation"]: e["ts"] for e in trace if e.get("cat") == "cuda_runtime"
              and "correlation" in (e.get("args") or {})}
    per_step, unlaunched = collections.Counter(), []
    for e in trace:
        if e.get("cat") == "kernel":
            at = launch.get(e["args"]["correlation"])
            if at is None:
                unlaunched.append(e)
            else:
                per_step[next(n for n, (start, end) in cpu_steps.items() if start <= at <= end)] += e["dur"]
    # 757 kernels (correlation ids 4066-5178, below the first launch's 5179) run in step 15's first 30 ms
    assert len(unlaunched) == 757 and round(math.fsum(e["dur"] for e in unlaunched), 3) == 30821.422
    ids = [e["args"]["correlation"] for e in unlaunched]
    assert (min(ids), max(ids), min(launch)) == (4066, 5178, 5179)
    assert [round(per_step[n] / 1000, 9) for n in sorted(per_step)] == [22.299043, 22.264198, 21.871163]
    assert result["iterations"] == 3
    # matched by their GPU start, the queued kernels gave 42.235168, 33.149495 and 21.871163 ms
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#15", 22.299043), ("ProfilerStep#16", 22.264198), ("ProfilerStep#17", 21.871163)]
    # the mean, 22.14480133... ms, at the trace's resolution (dur to the ns: 6 decimals of a ms)
    assert round((22.299043 + 22.264198 + 21.871163) / 3, 6) == 22.144801
    assert done.path.read_text(encoding="utf-8").count('"profiled_total_ms": 22.144801,') == 1
    line = ("rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz: 757 kernels (30.8 ms) launched "
            "before the first profiled step, no launch event in the trace: left out")
    assert line in done.record["provenance"]["notes"] and done.err == f"studygen: warning: {line}\n"
    assert "outside any ProfilerStep" not in result["note"]
    assert "each step counted once, by its CPU range" in result["note"]
    assert result["profiler"] == "torch.profiler (Kineto trace, ROCm, roctracer; GPU kernel events, dur in µs)"
    # 17 ncclDevKernel_Generic calls, 71516.523 µs in all, name no rule: unclassified; 5 of them (24316.213 µs)
    # were queued before the window, the 12 launched in the steps take 47200.31 µs
    nccl = [e for e in trace if e.get("cat") == "kernel" and e["name"].startswith("ncclDevKernel")]
    assert (len(nccl), round(math.fsum(e["dur"] for e in nccl), 6)) == (17, 71516.523)
    launched = [e["dur"] for e in nccl if e["args"]["correlation"] in launch]
    assert (len(launched), round(math.fsum(launched), 6)) == (12, 47200.31)
    assert result["unclassified_ms"] >= round(47.20031 / 3, 6)
    provenance = done.record["provenance"]
    # deviceProperties lists 8 x "AMD Instinct MI300X"; every kernel event has "device": 2
    assert (provenance["gpu"], provenance["gpu_count"]) == ("AMD Instinct MI300X", 1)


def test_hta_trimmed_trace_leaves_kernels_without_their_launch_out(collect):
    # HTA's trace_compare test data keeps 6 of a run's kernels and few runtime events: read off the file, the
    # kernels of correlation 1954286 and 1972583 (4 µs each) have their cudaLaunchKernel, at ts ...365315 (in
    # ProfilerStep#1009, ts ...265087 + 100298 µs) and ...487511 (in ProfilerStep#1010, ...365430 + 122149 µs);
    # 1930734 (5 µs), 1936855 (4), 1937342 (208) and 1954821 (207) have none, and two of their ids lie above the
    # first launch recorded (cudaEventQuery 1936889): launches dropped, not work queued before the window
    done = collect("torch-profile", "--trace", HTA_TRIMMED, "--mode", "eager")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    # matched by their GPU start, the four gave 0.221 and 0.211 ms
    assert [(p["label"], p["profiled_total_ms"]) for p in result["per_iteration"]] == [
        ("ProfilerStep#1009", 0.004), ("ProfilerStep#1010", 0.004)]
    line = ("hta_trace_compare_base_base.json.gz: 4 kernels (0.424 ms) whose launch event is missing from the trace "
            "(their step is unknown): left out")
    assert line in done.record["provenance"]["notes"] and done.err == f"studygen: warning: {line}\n"


def test_mi300x_bert_gpu_named_for_device_2_and_hipblaslt_gemms(collect):
    done = collect("torch-profile", "--trace", MI300X_BERT, "--mode", "eager")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    trace = events(MI300X_BERT)
    kernels = [e for e in trace if e.get("cat") == "kernel"]
    assert {e["args"]["device"] for e in kernels} == {2}
    provenance = done.record["provenance"]
    # "deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X VF", ...}] only
    assert provenance["gpu"] == "AMD Instinct MI300X VF"
    assert not any("has no deviceProperties name" in note for note in provenance["notes"])
    assert ("the kernels ran on device 2, which deviceProperties does not list; it names one model only "
            "(AMD Instinct MI300X VF, device 0): recorded as that model") in result["note"]
    # 26 hipBLASLt launches named Cijk_Alik_Bljk_... : 85.736 + 33.794 + 29.063 + 25.537 µs
    cijk = [e["dur"] for e in kernels if e["name"].startswith("Cijk_")]
    assert len(cijk) == 26 and round(math.fsum(cijk), 6) == 174.13
    assert gpu_groups(result)["GEMM/MatMul"] == 0.17413
    assert result["iterations"] == 1 and result["profiled_total_ms"] == 0.388344  # 388.344 µs of 60 kernels
    # AOTriton's "attn_fwd" (4 calls, 113.656 µs) is the attention group's (it named no rule before the group)
    assert gpu_groups(result)["attention"] == 0.113656
    assert result["unclassified_ms"] == 0.0


def test_h100_bert_the_same_step_on_cuda(collect):
    done = collect("torch-profile", "--trace", H100_BERT, "--mode", "eager")
    assert done.exit_code == 0, done.err
    (result,) = done.results
    # one CPU ProfilerStep#6 (4426.114 µs) and its GPU twin: one iteration
    assert result["iterations"] == 1 and len(result["per_iteration"]) == 1
    # 60 kernels, 307.197 µs; cutlass/xmma GEMMs 98.718 + 41.28 + 33.089 + 24.511 µs; the FlashAttention
    # kernel (37.408 µs, "cutlass::bfloat16_t" in its name) is attention, no GEMM (0.235006 ms with it before)
    assert result["profiled_total_ms"] == 0.307197
    assert gpu_groups(result)["GEMM/MatMul"] == 0.197598
    assert gpu_groups(result)["attention"] == 0.037408
    assert result["unclassified_ms"] == 0.0
    assert done.record["provenance"]["gpu"] == "NVIDIA H100 80GB HBM3"  # deviceProperties[0], the kernels' device 0
    assert result["profiler"] == "torch.profiler (Kineto trace, CUDA, CUPTI; GPU kernel events, dur in µs)"


def test_mi210_gpu_only_trace_without_steps(collect):
    done = collect("torch-profile", "--trace", MI210)
    assert done.exit_code == 0, done.err
    (result,) = done.results
    kernels = [e for e in events(MI210) if e.get("cat") == "kernel"]
    assert len(kernels) == 562 and {e["args"]["device"] for e in kernels} == {1}
    # no ProfilerStep ranges: the total over the trace, 5343.422 µs
    assert result["profiled_total_ms"] == round(math.fsum(e["dur"] for e in kernels) / 1000, 9) == 5.343422
    assert "iterations" not in result and "no ProfilerStep#N ranges" in result["note"]
    assert "ProfilerStep ranges appear" not in result["note"]
    # deviceProperties lists 4 x "AMD Instinct MI210" (ids 0-3); the kernels' device 1 is one of them
    assert done.record["provenance"]["gpu"] == "AMD Instinct MI210"
    # the MIOpen implicit-GEMM convolutions (igemm_fwd/bwd/wrw_gtcx2_...) are convolutions, not GEMMs
    igemm = [e["dur"] for e in kernels if e["name"].startswith("igemm_")]
    cijk = [e["dur"] for e in kernels if e["name"].startswith("Cijk_")]
    assert gpu_groups(result)["Conv"] == round(math.fsum(igemm) / 1000, 9)
    assert gpu_groups(result)["GEMM/MatMul"] == round(math.fsum(cijk) / 1000, 9)
