"""``studygen collect trtexec --log``: every console log in ../shared/fixtures/trtexec.

Figures below were read off the log files by hand (line numbers given), not
from our own parser's output.
"""

from __future__ import annotations

from tests.collect.conftest import TRTEXEC, gpu_groups


def test_trt10_16_build_and_run_summary_cv_warning_and_provenance(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "fp32", "--shape", "28x28")
    # line 132: "... Automatically overriding shape to: 1x1x28x28": batch 1 at 28 x 28, as --shape says
    assert done.exit_code == 0, done.err
    assert "6 result(s) added (new record)" in done.out
    provenance = done.record["provenance"]
    # line 116 "TensorRT version: 10.16.1" and the tag [TensorRT v101601]; line 103 "Selected Device: NVIDIA H100 PCIe"
    assert provenance["software"] == {"tensorrt": "10.16.1"}
    assert provenance["gpu"] == "NVIDIA H100 PCIe"
    assert provenance["collector"]["name"] == "studygen collect trtexec"
    assert provenance["checkpoint"] == {"id": "unknown", "revision": None, "weights": "pretrained"}
    assert provenance["conversion_machine"]["gpu"] is None  # this machine converted; it has no GPU
    # line 572: GPU Compute Time: min = 0.0331421 ms, max = 0.140381 ms, mean = 0.0359588 ms,
    # median = 0.0361328 ms, percentile(90%) = 0.0368652 ms, percentile(95%) = 0.0371094 ms, percentile(99%) = 0.041748 ms
    gpu = done.latency("gpu_compute", batch=1)
    assert gpu["statistic"] == "median"
    assert gpu["value_ms"] == 0.0361328
    assert gpu["statistics_ms"] == {"min": 0.0331421, "max": 0.140381, "mean": 0.0359588, "median": 0.0361328,
                                    "p90": 0.0368652, "p95": 0.0371094, "p99": 0.041748}
    # line 576: "* GPU compute time is unstable, with coefficient of variance = 6.58751%."
    assert gpu["unstable"] is True
    # the figure is the cv field's (a README prints it by its cv_percent rule); the reason says who flagged it, where
    assert gpu["unstable_reason"] == "trtexec flagged the GPU compute time as unstable (trt10.16_build-and-run.log:576)"
    assert gpu["distribution"]["cv"] == 0.0658751
    # line 161: "Timing trace has 46125 queries", line 160: "Warmup completed 3057 queries"
    assert gpu["distribution"]["samples"] == 46125
    assert gpu["distribution"]["warmup_iterations"] == 3057
    assert gpu["source_locator"] == "trt10.16_build-and-run.log:572"
    # line 569: Latency (host latency) median = 0.0440674 ms, p99 0.0512695 ms; line 568 Throughput 15374.3 qps
    host = done.latency("host_latency", batch=1)
    assert host["value_ms"] == 0.0440674
    assert host["statistics_ms"]["p99"] == 0.0512695
    assert host["throughput_qps"] == 15374.3
    assert "unstable" not in host  # the warning is about GPU compute time only
    assert done.latency("enqueue", batch=1)["value_ms"] == 0.0267334
    assert done.latency("h2d", batch=1)["value_ms"] == 0.00378418
    assert done.latency("d2h", batch=1)["value_ms"] == 0.00415039
    # "=== Inference Options ===": Data transfers: Enabled, Spin-wait: Disabled, CUDA Graph: Disabled
    assert gpu["method"]["data_transfers"] is True
    assert gpu["method"]["spin_wait"] is False
    assert gpu["method"]["cuda_graph"] is False
    assert gpu["method"]["command"].startswith("trtexec --onnx=")
    assert all(r["shape"] == "28x28" and r["variant"] == "fp32" and r["backend"] == "tensorrt" for r in done.results)
    # line 148: "Created engine with size: 12.5744 MiB"
    plan = done.kind("plan_size")
    assert len(plan) == 1 and plan[0]["value_mib"] == 12.5744 and "value_bytes" not in plan[0]


def test_trt10_16_no_data_transfers_flags(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_no-data-transfers.log", "--batch", "4")
    assert done.exit_code == 0, done.err
    gpu = done.latency("gpu_compute", batch=4)
    # line 549: GPU Compute Time median = 0.0388184 ms, equal to Latency (no transfers)
    assert gpu["value_ms"] == 0.0388184
    assert done.latency("host_latency", batch=4)["value_ms"] == 0.0388184
    method = gpu["method"]
    assert (method["data_transfers"], method["spin_wait"], method["cuda_graph"]) == (False, True, True)
    assert method["flags"] == ["--shapes=x:4x1x28x28", "--noDataTransfers", "--useSpinWait", "--useCudaGraph"]
    assert method["input_shapes"] == "x=4x1x28x28"
    # H2D and D2H are 0 by construction with --noDataTransfers: not recorded as measurements
    timings = {r["timing"] for r in done.kind("latency")}
    assert timings == {"host_latency", "enqueue", "gpu_compute"}
    assert "unstable" not in gpu  # this log prints no CV warning
    assert gpu["distribution"]["samples"] == 74692


def test_trt10_16_dump_profile_table_grouped(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_dump-profile.log")
    assert done.exit_code == 0, done.err
    assert done.kind("latency") == []  # the log has no performance summary
    (kernel,) = done.kind("kernel_time")
    # "=== Profile (18362 iterations ) ===" and the Total row: 1529.13 0.0833 0.0804 100.0 Total
    assert kernel["iterations"] == 18362
    assert kernel["profiled_total_ms"] == 0.0833
    groups = gpu_groups(kernel)
    # Avg.(ms) column, summed by hand: conv2d 0.0105 + 0.0114; linear 0.0112 + 0.0106;
    # __myl_ Resh/MaxrSubExpSum/DivMulTopk/CastReshCast/Cast 0.0042 + 0.0044 + 0.0044 + 0.0036 + 0.0036;
    # other: max_pool 0.0045 + 0.0045, reformat 0.0056, and three __mye… nodes no rule names 0.0017 + 0.0016 + 0.0015
    assert groups == {"Conv": 0.0219, "GEMM/MatMul": 0.0218, "normalization and elementwise": 0.0202, "other": 0.0194}
    assert kernel["unclassified_ms"] == 0.0048
    assert abs(kernel["unclassified_share"] - 0.0048 / 0.0833) < 1e-9
    assert done.record["provenance"]["software"]["tensorrt"] == "10.16.1"


def test_trt10_16_export_layer_info_log_is_layer_info_not_a_log(collect):
    wrong = collect("trtexec", "--log", TRTEXEC / "trt10.16_export-layer-info.log")
    assert wrong.exit_code == 2
    assert "trt10.16_export-layer-info.log: this is trtexec --exportLayerInfo JSON, not a console log" in wrong.err
    assert not wrong.path.exists()
    done = collect("trtexec", "--layer-info", TRTEXEC / "trt10.16_export-layer-info.log")
    assert done.exit_code == 0, done.err
    (layers,) = done.kind("engine_layers")
    assert layers["layer_count"] == 9 and layers["detailed"] is True
    assert layers["bindings"] == ["x", "y", "z"]
    first = layers["layers"][0]
    assert first["name"] == "node_conv2d + node_relu"
    assert first["layer_type"] == "CaskConvolution"
    assert first["tactic"].startswith("sm80_xmma_fprop_implicit_gemm_f32f32")
    assert first["origin"] == "[ONNX Layer: node_conv2d]\u001e[ONNX Layer: node_relu]"
    # no log: GPU and TensorRT unknown, said so
    provenance = done.record["provenance"]
    assert provenance["gpu"] is None and provenance["software"]["tensorrt"] is None
    assert any("no trtexec log given" in note for note in provenance["notes"])


def test_trt8_6_unstable_gpu_compute(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt8.6_unstable-gpu-compute.log")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    # "[TensorRT v8600]" and "TensorRT version: 8.6.0"; "Selected Device: NVIDIA GeForce RTX 3090"
    assert provenance["software"]["tensorrt"] == "8.6.0"
    assert provenance["gpu"] == "NVIDIA GeForce RTX 3090"
    # line 50 "Input inference shape: tensor-0=4x1x28x28": an explicit batch of 4
    gpu = done.latency("gpu_compute", batch=4)
    # line 6471: median = 0.0439453 ms, p99 0.0521851 ms; line 6475: coefficient of variance = 44.3558%
    assert gpu["value_ms"] == 0.0439453
    assert gpu["statistics_ms"]["p99"] == 0.0521851
    assert gpu["unstable"] is True
    assert gpu["distribution"]["cv"] == 0.443558
    assert gpu["unstable_reason"] == "trtexec flagged the GPU compute time as unstable (trt8.6_unstable-gpu-compute.log:6475)"
    host = done.latency("host_latency", batch=4)
    assert host["value_ms"] == 0.0517578 and host["statistics_ms"]["max"] == 0.617065
    assert host["method"]["flags"] == ["--shapes=tensor-0:4x1x28x28"]
    assert host["method"]["input_shapes"] == "tensor-0=4x1x28x28"
    assert done.kind("plan_size") == []  # the engine was loaded, not built: no size printed


def test_trt7_console_seven_runs_keyed_by_batch(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt7_resnet50-int8_console.log", "--variant", "int8")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    # TensorRT 7 log: no version line, no version tag, no device name → unknown, never guessed
    assert provenance["software"] == {"tensorrt": None}
    assert provenance["gpu"] is None
    assert any("states no TensorRT version" in note for note in provenance["notes"])
    host = done.kind("latency")
    batches = sorted({r["batch"] for r in host})
    assert batches == [1, 4, 8, 16, 32, 64, 128]
    # run 1 (lines 155-176): Host Latency median 3.09796 ms (end to end 3.10852 ms),
    # percentile 3.4563 ms at 99%; GPU Compute median 3.03919 ms, percentile 3.41711 ms at 99%
    first = done.latency("host_latency", batch=1)
    assert first["value_ms"] == 3.09796
    assert first["statistics_ms"] == {"min": 3.05505, "max": 5.60945, "mean": 3.1141, "median": 3.09796, "p99": 3.4563}
    assert done.latency("end_to_end", batch=1)["value_ms"] == 3.10852
    assert done.latency("gpu_compute", batch=1)["statistics_ms"]["p99"] == 3.41711
    # Enqueue Time block has min, max and median only
    assert done.latency("enqueue", batch=1)["statistics_ms"] == {"min": 3.02222, "max": 5.35538, "median": 3.05493}
    # last run (batch 128): GPU Compute median 247.036 ms
    assert done.latency("gpu_compute", batch=128)["value_ms"] == 247.036
    # "--batch=1 … --useSpinWait" in the command; "Spin-wait: Enabled", "CUDA Graph: Disabled";
    # no "Data transfers" line and no version: data transfers unknown
    method = first["method"]
    assert method["flags"] == ["--int8", "--batch=1", "--useSpinWait"]
    assert (method["spin_wait"], method["cuda_graph"], method["data_transfers"]) == (True, False, None)
    # "Timing trace has 958 queries", "Warmup completed 55 queries" at batch 1;
    # batch 4: 1792 and 116 queries = 448 and 29 iterations of 4
    assert first["distribution"] == {"samples": 958, "warmup_iterations": 55}
    assert done.latency("host_latency", batch=4)["distribution"] == {"samples": 448, "warmup_iterations": 29}


def test_a_log_naming_no_gpu_or_version_notes_where_the_given_ones_came_from(collect):
    # issue 22 (the Jetson GoogLeNet family): a TensorRT 7 console log names neither device nor version;
    # with --gpu and --software tensorrt= the record holds those, and its notes must say so, not "unknown"
    done = collect("trtexec", "--log", TRTEXEC / "trt7_resnet50-int8_console.log", "--variant", "int8",
                   "--gpu", "NVIDIA Jetson AGX Xavier", "--software", "tensorrt=7.1.3")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    assert provenance["gpu"] == "NVIDIA Jetson AGX Xavier" and provenance["software"] == {"tensorrt": "7.1.3"}
    notes = provenance["notes"]
    assert ("trt7_resnet50-int8_console.log names no device (no 'Selected Device:' line): "
            "GPU recorded from --gpu 'NVIDIA Jetson AGX Xavier'") in notes
    assert ("trt7_resnet50-int8_console.log states no TensorRT version (no 'TensorRT version:' line or "
            "[TensorRT vNNNN] tag): recorded from --software tensorrt=7.1.3") in notes
    assert not any("unknown" in note for note in notes)
