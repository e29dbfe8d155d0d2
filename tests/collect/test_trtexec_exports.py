"""``collect trtexec --times/--profile/--layer-info/--plan`` on the shared
fixtures and on small files built here; extending a record; conflicts."""

from __future__ import annotations

import json
import math
import statistics

from tests.collect.conftest import TRTEXEC, gpu_groups

TRT7_LOG = TRTEXEC / "trt7_resnet50-int8_console.log"
TRT7_TIMES = TRTEXEC / "trt7_resnet50-int8_times-concatenated.json"
TRT7_PROFILE = TRTEXEC / "trt7_resnet50-int8_profile-concatenated.json"


def concatenated_arrays(path):
    """The JSON arrays of a concatenated trtexec export, read independently of studygen."""
    text, decoder, pos, arrays = path.read_text(), json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return arrays
        value, pos = decoder.raw_decode(text, pos)
        arrays.append(value)


def computing_from(item, start_ms):
    """A TensorRT 7 iteration whose compute starts at ``start_ms``, its end moved along (a file that agrees with itself)."""
    return dict(item, startComputeMs=start_ms, endComputeMs=start_ms + item["computeMs"])


def computing_longer(item, extra_ms):
    """A TensorRT 7 iteration that spent ``extra_ms`` more computing and as much less copying in (the input copy
    shorter, the compute end later): its host latency and end-to-end time stay, and it still agrees with itself."""
    def printed(value):  # as trtexec prints: six significant digits
        return float(f"{value:g}")
    in_ms = printed(item["inMs"] - extra_ms)
    # TensorRT 7 writes the input copy's stamps as startEnqMs/endEnqMs (see studygen.collect.trtexec.times)
    return dict(item, inMs=in_ms, endEnqMs=printed(item["startEnqMs"] + in_ms),
                computeMs=printed(item["computeMs"] + extra_ms), endComputeMs=printed(item["endComputeMs"] + extra_ms))


def without_warmup(array, warmup_ms=200):
    """trtexec's warm-up rule, applied by hand: the warm-up ends at the first
    iteration whose compute starts at or after the warm-up duration."""
    first_timed = next(i for i, item in enumerate(array) if item["startComputeMs"] >= warmup_ms)
    return array[first_timed:]


def test_trt7_times_one_result_per_batch_never_pooled(collect):
    done = collect("trtexec", "--log", TRT7_LOG, "--times", TRT7_TIMES, "--variant", "int8")
    assert done.exit_code == 0, done.err
    host = sorted(done.kind("latency"), key=lambda r: r["batch"])
    host = [r for r in host if r["timing"] == "host_latency"]
    assert [r["batch"] for r in host] == [1, 4, 8, 16, 32, 64, 128]  # 7 results, one per run
    first = host[0]
    arrays = concatenated_arrays(TRT7_TIMES)
    assert len(arrays[0]) == 1013  # 958 timed + 55 warm-up iterations (log lines 60-61)
    timed = without_warmup(arrays[0])
    assert len(timed) == 958
    latencies = sorted(item["latencyMs"] for item in timed)
    distribution = first["distribution"]
    assert distribution["samples"] == 958 and distribution["warmup_iterations"] == 55
    # the log's own summary, reproduced (lines 162-163): median 3.09796 ms, "percentile: 3.4563 ms at 99%"
    assert distribution["median_ms"] == 3.09796 == statistics.median(latencies)
    assert distribution["p99_ms"] == 3.4563 == latencies[948]  # trtexec: n - 1 - floor(0.01 n) = 958 - 1 - 9
    assert math.isclose(distribution["mean_ms"], statistics.fmean(latencies), rel_tol=1e-11)
    assert math.isclose(distribution["mean_ms"], 3.1141, rel_tol=2e-6)  # the log's "mean: 3.1141 ms"
    assert math.isclose(distribution["cv"], statistics.pstdev(latencies) / statistics.fmean(latencies), rel_tol=1e-10)
    # the headline stays the log's figure: "median: 3.09796 ms"
    assert first["value_ms"] == 3.09796
    assert "its first 55 iterations are the warm-up the log counts and are left out" in first["note"]
    # batch 4: "Warmup completed 116 queries" = 29 iterations of 4, "Timing trace has 1792 queries" = 448
    four = host[1]
    assert (four["distribution"]["samples"], four["distribution"]["warmup_iterations"]) == (448, 29)
    assert len(arrays[1]) - len(without_warmup(arrays[1])) == 29
    assert four["distribution"]["p99_ms"] == 7.79907  # line 289: "percentile: 7.79907 ms at 99%"
    # batch 128: the 7th array, 15 iterations of which the first is the warm-up
    last = host[-1]
    assert last["distribution"]["samples"] == len(without_warmup(arrays[6])) == 14
    assert last["distribution"]["median_ms"] == statistics.median(i["latencyMs"] for i in without_warmup(arrays[6]))
    assert last["value_ms"] == 250.573  # line 749 "median: 250.573 ms"
    assert "its first iteration is the warm-up the log counts and is left out" in last["note"]
    # timings the TensorRT 7 log does not summarise come from the times file alone (inMs → h2d)
    h2d = done.latency("h2d", batch=1)
    assert h2d["value_ms"] == statistics.median(item["inMs"] for item in timed)
    assert h2d["source_locator"] == "trt7_resnet50-int8_times-concatenated.json:line 1"


def test_trt7_enqueue_is_the_swapped_stamp_pair(collect):
    done = collect("trtexec", "--log", TRT7_LOG, "--times", TRT7_TIMES, "--variant", "int8")
    assert done.exit_code == 0, done.err
    timed = without_warmup(concatenated_arrays(TRT7_TIMES)[0])
    # the writer swaps the stamps: endEnqMs - startEnqMs is the H2D time (inMs), to the printed digits
    assert all(abs((i["endEnqMs"] - i["startEnqMs"]) - i["inMs"]) <= 0.011 for i in timed)
    enqueue = done.latency("enqueue", batch=1)
    # the log's Enqueue Time block (lines 166-169): median 3.05493 ms, min 3.02222, max 5.35538
    assert enqueue["value_ms"] == 3.05493
    by_hand = sorted(round(i["endInMs"] - i["startInMs"], 2) for i in timed)
    distribution = enqueue["distribution"]
    assert distribution["samples"] == 958
    assert abs(distribution["median_ms"] - 3.05493) <= 0.01  # within the 0.01 ms the stamps near 3200 ms carry
    assert distribution["p99_ms"] == by_hand[948] == 3.4
    assert "enqueue is endInMs − startInMs: this writer swaps the enqueue and input stamps" in enqueue["note"]
    assert "resolved to 0.01 ms by the timestamps' printed digits" in enqueue["note"]


def test_trt7_times_without_the_log_are_refused(collect, workdir):
    (workdir / "one.json").write_text(json.dumps(concatenated_arrays(TRT7_TIMES)[0]))
    done = collect("trtexec", "--times", workdir / "one.json")
    assert done.exit_code == 2
    assert ("one.json:1: array 1 has TensorRT 7 keys with endToEndMs: its writer exports the warm-up iterations too, "
            "and only the console log says how many") in done.err
    assert not done.path.exists()


def test_times_of_another_run_are_refused(collect, workdir):
    arrays = concatenated_arrays(TRT7_TIMES)
    # the batch 4 and batch 1 arrays swapped: counts disagree with the log's runs
    swapped = workdir / "swapped.json"
    swapped.write_text("\n".join(json.dumps(a) for a in [arrays[1], arrays[0], *arrays[2:]]))
    done = collect("trtexec", "--log", TRT7_LOG, "--times", swapped)
    assert done.exit_code == 2
    assert ("swapped.json:1: array 1 does not come from run 1 (line 1) of " in done.err
            and "it holds 477 iterations, the run timed 958 (or 1013 with its 55 warm-up iterations)" in done.err)
    # the same count, other figures: every computeMs 0.02 ms longer than the run measured
    slower = [computing_longer(item, 0.02) for item in arrays[0]]
    other = workdir / "other.json"
    other.write_text("\n".join(json.dumps(a) for a in [slower, *arrays[1:]]))
    done = collect("trtexec", "--log", TRT7_LOG, "--times", other)
    assert done.exit_code == 2
    assert "its gpu_compute min is 3.02146 ms, the log prints 3.00146 ms (line 171)" in done.err
    assert "a times file from another run? nothing recorded" in done.err and not done.path.exists()


def test_times_without_log_cannot_tell_runs_apart(collect):
    done = collect("trtexec", "--times", TRT7_TIMES)
    assert done.exit_code == 2
    assert "holds 7 runs (concatenated arrays) but nothing tells them apart" in done.err
    assert not done.path.exists()


def test_times_runs_must_match_log_runs(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--times", TRT7_TIMES)
    assert done.exit_code == 2
    assert "holds 7 run(s) but the log" in done.err and "has 1" in done.err
    assert not done.path.exists()


def test_trt7_profile_concatenated_rows_without_median(collect):
    done = collect("trtexec", "--log", TRT7_LOG, "--profile", TRT7_PROFILE, "--variant", "int8")
    assert done.exit_code == 0, done.err
    kernels = sorted(done.kind("kernel_time"), key=lambda r: r["batch"])
    arrays = concatenated_arrays(TRT7_PROFILE)
    assert [r["iterations"] for r in kernels] == [a[0]["count"] for a in arrays] == [1013, 477, 282, 146, 80, 45, 15]
    first = kernels[0]
    assert first["batch"] == 1
    assert first["profiled_total_ms"] == round(math.fsum(row["averageMs"] for row in arrays[0][1:]), 12) == 3.03192785
    groups = gpu_groups(first)
    assert groups["Conv"] == 0.0652426  # "conv1 + conv1_relu + pool1"
    assert groups["GEMM/MatMul"] == 0.18455  # "fc1000"
    # Caffe names such as "res2a_branch2a + res2a_branch2a_relu" name no operation: unclassified, said so
    unnamed = [row for row in arrays[0][1:] if row["name"].startswith("res") or row["name"] == "prob"]
    assert len(unnamed) == 53
    assert first["unclassified_ms"] == round(math.fsum(row["averageMs"] for row in unnamed), 12)
    assert math.isclose(first["unclassified_share"], first["unclassified_ms"] / 3.03192785, rel_tol=1e-9)
    assert "53 layers matched no rule" in first["note"]


def test_detr_profile_and_layer_info(collect):
    done = collect("trtexec", "--profile", TRTEXEC / "detr-r50_profile.json", "--layer-info",
                   TRTEXEC / "detr-r50_layer-info.json", "--gpu", "NVIDIA A100", "--software", "tensorrt=8.6.1")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    rows = json.loads((TRTEXEC / "detr-r50_profile.json").read_text())
    assert rows[0] == {"count": 641}
    assert kernel["iterations"] == 641
    assert kernel["profiled_total_ms"] == round(math.fsum(r["averageMs"] for r in rows[1:]), 12) == 4.16160691
    layers = rows[1:]

    def summed(select):
        return round(math.fsum(r["averageMs"] for r in layers if select(r["name"])), 12)

    copies = ("Reformatting CopyNode", "reshape_before_", "reshape_after_")
    groups = gpu_groups(kernel)
    # every ONNX Conv (fused with its BatchNorm Mul/Add and Relu) and nothing else
    assert groups["Conv"] == summed(lambda n: "/Conv" in n and not n.startswith(copies))
    # every MatMul layer, copies around them excluded
    assert groups["GEMM/MatMul"] == summed(lambda n: "MatMul" in n and not n.startswith(copies))
    assert kernel["note"].startswith("840 layers (340 with zero time)")
    (info,) = done.kind("engine_layers")
    assert info["layer_count"] == 840 and info["detailed"] is False
    assert info["bindings"] == ["image", "boxes", "logits", "classes"]
    assert info["layers"][0] == {"name": "/model/model/Transpose_1_output_0"}
    provenance = done.record["provenance"]
    assert provenance["gpu"] == "NVIDIA A100" and provenance["software"]["tensorrt"] == "8.6.1"


def test_plan_size_in_bytes(collect, workdir):
    plan = workdir / "model.plan"
    plan.write_bytes(b"\x01" * 12345)
    done = collect("trtexec", "--plan", plan, "--variant", "fp16", "--shape", "800x1067")
    assert done.exit_code == 0, done.err
    (size,) = done.kind("plan_size")
    assert size["value_bytes"] == 12345 and size["shape"] == "800x1067" and size["variant"] == "fp16"


def test_plan_replaces_the_logs_mib_figure(collect, workdir):
    plan = workdir / "model.plan"
    plan.write_bytes(b"\x02" * 4096)
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--plan", plan)
    assert done.exit_code == 0, done.err
    (size,) = done.kind("plan_size")
    assert size == {"kind": "plan_size", "variant": "unnamed", "backend": "tensorrt", "mode": "engine",
                    "value_bytes": 4096, "source_locator": "model.plan"}


def test_times_tensorrt_8_2_keys_statistics_by_hand(collect, workdir):
    latencies = [1.0, 2.0, 3.0, 4.0, 10.0]
    rows = []
    for index, latency in enumerate(latencies):
        start = 20.0 * index
        rows.append({"startEnqMs": start, "endEnqMs": start + 0.5, "startH2dMs": start + 0.5, "endH2dMs": start + 0.6,
                     "startComputeMs": start + 0.6, "endComputeMs": start + latency + 0.3, "startD2hMs": start + latency + 0.3,
                     "endD2hMs": start + latency + 0.5, "h2dMs": 0.1, "computeMs": latency - 0.3, "d2hMs": 0.2,
                     "latencyMs": latency})
    times = workdir / "times.json"
    times.write_text(json.dumps(rows, indent=1))
    done = collect("trtexec", "--times", times, "--batch", "2")
    assert done.exit_code == 0, done.err
    host = done.latency("host_latency", batch=2)
    # median 3; mean 4; population std sqrt((9 + 4 + 1 + 0 + 36) / 5) = sqrt(10); p90 and p99 = the largest of 5
    assert host["value_ms"] == 3.0
    distribution = host["distribution"]
    assert distribution["mean_ms"] == 4.0
    assert math.isclose(distribution["std_ms"], math.sqrt(10), rel_tol=1e-11)
    assert math.isclose(distribution["cv"], math.sqrt(10) / 4, rel_tol=1e-11)
    assert distribution["p90_ms"] == 10.0 and distribution["p99_ms"] == 10.0
    assert host["statistics_ms"]["min"] == 1.0 and host["statistics_ms"]["max"] == 10.0
    assert done.latency("enqueue", batch=2)["value_ms"] == 0.5
    assert done.latency("d2h", batch=2)["value_ms"] == 0.2
    assert math.isclose(done.latency("gpu_compute", batch=2)["value_ms"], 2.7, rel_tol=1e-12)


def test_even_count_median_is_the_mean_of_the_middle_pair(collect, workdir):
    keys = {"startEnqMs": 0, "endEnqMs": 0.5, "startH2dMs": 0.5, "endH2dMs": 0.6, "startComputeMs": 0.6,
            "h2dMs": 0.1, "d2hMs": 0.1}
    rows = [dict(keys, computeMs=c, latencyMs=c + 0.2, endComputeMs=0.6 + c, startD2hMs=0.6 + c, endD2hMs=0.7 + c)
            for c in (1.0, 2.0, 3.0, 7.0)]
    times = workdir / "times82.json"
    times.write_text(json.dumps(rows))
    done = collect("trtexec", "--times", times)
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["value_ms"] == 2.5
    assert done.latency("host_latency")["value_ms"] == 2.7


def test_extend_record_then_conflicts_name_both_and_write_nothing(collect, workdir):
    first = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", job="h100")
    assert first.exit_code == 0, first.err
    second = collect("trtexec", "--layer-info", TRTEXEC / "trt10.16_export-layer-info.log", job="h100")
    assert second.exit_code == 0, second.err
    assert "1 result(s) added (record extended)" in second.out
    record = second.record
    assert len(record["results"]) == 7
    assert record["provenance"]["gpu"] == "NVIDIA H100 PCIe"  # kept from the first collection
    before = second.path.read_bytes()
    same = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", job="h100")
    assert same.exit_code == 0 and "nothing new, the record is unchanged" in same.out  # idempotent
    rerun = workdir / "trt10.16_build-and-run.log"  # the same run's log with another host latency median
    rerun.write_text((TRTEXEC / "trt10.16_build-and-run.log").read_text().replace(
        "median = 0.0440674 ms", "median = 0.0445674 ms"))
    again = collect("trtexec", "--log", rerun, job="h100")
    assert again.exit_code == 2
    assert again.err.count("\n") == 1 and again.err.startswith("studygen: ")
    assert "latency host_latency median, variant unnamed, batch 1, 28x28 from" in again.err
    assert "is already recorded at measurements/demo/h100.json:/results/0" in again.err
    other_gpu = collect("trtexec", "--log", TRTEXEC / "trt8.6_unstable-gpu-compute.log", job="h100")
    assert other_gpu.exit_code == 2
    assert "the record says gpu 'NVIDIA H100 PCIe', the new input says 'NVIDIA GeForce RTX 3090'" in other_gpu.err
    assert second.path.read_bytes() == before
    # the same log lines as another variant would record one measurement twice
    twice = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "fp16", job="h100")
    assert twice.exit_code == 2 and "would record one measurement twice" in twice.err
    assert second.path.read_bytes() == before
    # another log of a different variant of the same job is a different measurement
    fp16 = collect("trtexec", "--log", TRTEXEC / "trt10.16_no-data-transfers.log", "--variant", "fp16", job="h100")
    assert fp16.exit_code == 0, fp16.err
    assert len(fp16.record["results"]) == 10


def test_gpu_option_disagreeing_with_log_is_refused(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--gpu", "NVIDIA B200")
    assert done.exit_code == 2
    assert "--gpu 'NVIDIA B200' but the input names the GPU 'NVIDIA H100 PCIe'" in done.err
    assert not done.path.exists()


def test_batch_option_disagreeing_with_log_is_refused(collect):
    done = collect("trtexec", "--log", TRT7_LOG, "--batch", "2")
    assert done.exit_code == 2
    assert "--batch 2 but" in done.err and "says batch 1 for run 1 (line 1)" in done.err


def test_checkpoint_and_weights_options(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--checkpoint",
                   "SenseTime/deformable-detr@83ecd26945199939cb82806f988debdb71e6f43e", "--weights", "random-init")
    assert done.exit_code == 0, done.err
    provenance = done.record["provenance"]
    assert provenance["checkpoint"] == {"id": "SenseTime/deformable-detr",
                                        "revision": "83ecd26945199939cb82806f988debdb71e6f43e", "weights": "random-init"}
    assert not any("weights not given" in note for note in provenance.get("notes", []))
    assert "--checkpoint SenseTime/deformable-detr@83ecd26945199939cb82806f988debdb71e6f43e" in provenance["collector"]["command"]


def test_a_host_latency_warning_and_its_distribution_share_the_note(collect, workdir):
    # run 1 of the TensorRT 7 log given a "Throughput may be bound" warning (an edited copy): the host
    # latency result keeps the warning and adds the times file's distribution after it
    lines = TRT7_LOG.read_text().split("\n")
    assert lines[5].startswith("[02/22/2021-15:13:11] [I] ")
    lines.insert(6, "[02/22/2021-15:13:11] [I] * Throughput may be bound by Enqueue Time rather than GPU Compute.")
    log = workdir / "bound.log"
    log.write_text("\n".join(lines))
    done = collect("trtexec", "--log", log, "--times", TRT7_TIMES)
    assert done.exit_code == 0, done.err
    note = done.latency("host_latency", batch=1)["note"]
    assert note.startswith("trtexec: throughput may be bound by Enqueue Time rather than GPU Compute (bound.log:7); "
                           "distribution: 958 per-iteration timings of ")
