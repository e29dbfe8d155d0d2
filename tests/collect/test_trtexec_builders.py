"""The trtexec kernel-time builder on small inputs written here: the total a
``--dumpProfile`` table prints, layer details that group a layer its name
does not, batch labels without a log, and where a result came from."""

from __future__ import annotations

import json

from tests.collect.conftest import TRTEXEC, gpu_groups
from tests.conftest import shapeless_build_log
from tests.collect.test_trtexec_formats import edited, times_rows

# A --dumpProfile table as TensorRT 10.16 prints it, whose Total row (0.0100 ms a
# query) is not the sum of its rows (0.0050 + 0.0049 = 0.0099): trtexec rounds each.
DUMP_LOG = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --loadEngine=a.plan --dumpProfile
[07/07/2026-02:11:43] [I] === Profile (100 iterations ) ===
[07/07/2026-02:11:43] [I]    Time(ms)     Avg.(ms)   Median(ms)   Time(%)   Layer
[07/07/2026-02:11:43] [I]        0.50       0.0050       0.0050      50.5   node_conv2d
[07/07/2026-02:11:43] [I]        0.49       0.0049       0.0048      49.5   __mye7_0_myl0_0
[07/07/2026-02:11:43] [I]        1.00       0.0100       0.0100     100.0   Total
&&&& PASSED TensorRT.trtexec [TensorRT v101601] [b11] # trtexec --loadEngine=a.plan --dumpProfile
"""
LAYER_INFO = {"Layers": [{"Name": "node_conv2d", "LayerType": "CaskConvolution"},
                         {"Name": "__mye7_0_myl0_0", "LayerType": "CaskConvolution", "TacticName": "sm80_xmma_fprop",
                          "Metadata": "[ONNX Layer: node_conv2d_1]"}],
              "Bindings": ["x", "y"]}


def test_dump_profile_total_is_the_tables_total_row(collect, workdir):
    log = workdir / "dump.log"
    log.write_text(DUMP_LOG)
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert kernel["profiled_total_ms"] == 0.01  # the Total row, not 0.0099
    assert gpu_groups(kernel) == {"Conv": 0.005, "other": 0.0049}
    assert kernel["unclassified_ms"] == 0.0049 and kernel["unclassified_share"] == 0.49  # 0.0049 / 0.0100
    assert kernel["iterations"] == 100 and kernel["source_locator"] == "dump.log:2"
    assert kernel["profiler"] == "trtexec --dumpProfile (Avg.(ms): mean per iteration; total from its Total row)"
    assert kernel["note"] == ("2 layers (0 with zero time); groups by default kernel_groups rules; each group lists "
                              "at most its 20 largest layers; 1 layer matched no rule (counted in 'other')")


def test_layer_details_group_a_layer_its_name_does_not(collect, workdir):
    log = workdir / "dump.log"
    log.write_text(DUMP_LOG)
    info = workdir / "layers.json"
    info.write_text(json.dumps(LAYER_INFO))
    done = collect("trtexec", "--log", log, "--layer-info", info)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    # "__mye7_0_myl0_0" names no operation; its layer type CaskConvolution does
    assert gpu_groups(kernel) == {"Conv": 0.0099} and kernel["unclassified_ms"] == 0.0
    assert kernel["note"].endswith("each group lists at most its 20 largest layers; 2 layers grouped by their "
                                   "--exportLayerInfo type")
    (layers,) = done.kind("engine_layers")
    assert (layers["layer_count"], layers["detailed"], layers["bindings"]) == (2, True, ["x", "y"])


def test_profile_without_log_takes_the_batch_option_and_names_its_array(collect, workdir):
    profile = workdir / "profile.json"
    profile.write_text(json.dumps([{"count": 10}, {"name": "__mye1", "averageMs": 0.25, "timeMs": 2.5}]))
    info = workdir / "layers.json"
    info.write_text(json.dumps({"Layers": [{"Name": "__mye1", "LayerType": "gemm"}]}))
    done = collect("trtexec", "--profile", profile, "--layer-info", info, "--batch", "4")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert (kernel["batch"], kernel["iterations"], gpu_groups(kernel)) == (4, 10, {"GEMM/MatMul": 0.25})
    assert kernel["profiler"] == "trtexec --exportProfile (profile.json; averageMs: mean per iteration)"
    again = collect("trtexec", "--profile", profile, "--batch", "4")
    assert again.exit_code == 2
    assert "kernel_time, variant unnamed, batch 4 from profile.json:array 1 is already recorded at" in again.err


def test_dump_profile_result_names_its_line_in_a_conflict(collect, workdir):
    log = workdir / "dump.log"
    log.write_text(DUMP_LOG)
    assert collect("trtexec", "--log", log).exit_code == 0
    assert collect("trtexec", "--log", log).exit_code == 0  # the same log again: nothing new
    log.write_text(DUMP_LOG.replace("0.50       0.0050", "0.60       0.0060"))  # another run, other times
    again = collect("trtexec", "--log", log)
    assert again.exit_code == 2 and "kernel_time, variant unnamed from dump.log:line 2 is already recorded at" in again.err


def test_a_dump_profile_of_a_log_run_is_labelled_with_its_batch(collect, workdir):
    # line 76 "Input binding for x with dimensions 1x1x28x28 and type fp32 is created." states batch 1: the option's
    # 3 is refused; the same log without that line states no batch, and the option labels the run
    real = TRTEXEC / "trt10.16_dump-profile.log"
    refused = collect("trtexec", "--log", real, "--batch", "3")
    assert refused.exit_code == 2 and "--batch 3 but " in refused.err
    assert "says batch 1 for run 1 (line 1) (the leading dimension of its input shapes x=1x1x28x28 (input binding, " \
           "line 76))" in refused.err
    unbound = workdir / real.name
    unbound.write_text(real.read_text(encoding="utf-8").replace(
        "Input binding for x with dimensions 1x1x28x28 and type fp32 is created.", "a line a test took out"))
    done = collect("trtexec", "--log", unbound, "--batch", "3")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert kernel["batch"] == 3


def test_latency_method_as_the_log_prints_it(collect):
    # "Data transfers: Disabled", "Spin-wait: Enabled", "CUDA Graph: Enabled", "Separate profiling: Enabled"
    # (lines 61-65) and the command line of "&&&& RUNNING ... [TensorRT v8601]"
    done = collect("trtexec", "--log", TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log")
    assert done.exit_code == 0, done.err
    method = done.latency("gpu_compute", batch=1)["method"]
    assert {name: method[name] for name in ("timer", "cuda_graph", "data_transfers", "spin_wait",
                                             "separate_profile_run")} == {
        "timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True,
        "separate_profile_run": True}
    assert method["flags"] == ["--noDataTransfers", "--useCudaGraph", "--separateProfileRun", "--useSpinWait"]
    assert method["command"].startswith("trtexec --verbose --noDataTransfers") and "input_shapes" not in method


def test_plan_size_from_the_log_is_labelled_and_located(collect, workdir):
    done = collect("trtexec", "--log", shapeless_build_log(workdir), "--batch", "2")
    assert done.exit_code == 0, done.err
    (plan,) = done.kind("plan_size")
    # "Created engine with size: 12.5744 MiB" (line 148); the log states no batch: the option labels it
    assert (plan["value_mib"], plan["batch"], plan["source_locator"]) == (12.5744, 2, "trt10.16_build-and-run.log:148")
    assert plan["note"] == "as trtexec printed it when building the engine (MiB); give --plan for the size in bytes"


def test_plan_file_takes_the_batch_option(collect, workdir):
    plan = workdir / "model.plan"
    plan.write_bytes(b"\0" * 2048)
    done = collect("trtexec", "--plan", plan, "--batch", "8")
    assert done.exit_code == 0, done.err
    assert [(r["value_bytes"], r["batch"], r["source_locator"]) for r in done.kind("plan_size")] == [
        (2048, 8, "model.plan")]


def test_times_notes_name_their_array(collect):
    done = collect("trtexec", "--log", TRTEXEC / "trt7_resnet50-int8_console.log", "--times",
                   TRTEXEC / "trt7_resnet50-int8_times-concatenated.json")
    assert done.exit_code == 0, done.err
    last = done.latency("host_latency", batch=128)
    # the 7th array holds 15 iterations, the first of them the warm-up ("Warmup completed 128 queries" at batch 128)
    assert last["note"] == ("distribution: 14 per-iteration timings of trt7_resnet50-int8_times-concatenated.json "
                            "(array 7, TensorRT 7 keys); its first iteration is the warm-up the log counts and is left out")


def joined(workdir, name, *logs):
    """One console log holding the runs of ``logs`` in turn (a job script running trtexec twice)."""
    path = workdir / name
    path.write_text("".join(log.read_text(encoding="utf-8") for log in logs), encoding="utf-8")
    return path


def test_a_run_without_a_profile_table_before_one_with_it_is_skipped(collect, workdir):
    log = joined(workdir, "two.log", TRTEXEC / "trt10.16_no-data-transfers.log", TRTEXEC / "trt10.16_dump-profile.log")
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert kernel["source_locator"] == "two.log:648" and kernel["iterations"] == 18362  # 565 + line 83


def test_a_run_that_built_no_engine_before_one_that_did_is_skipped(collect, workdir):
    log = joined(workdir, "two.log", TRTEXEC / "trt10.16_dump-profile.log", TRTEXEC / "trt10.16_build-and-run.log")
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (plan,) = done.kind("plan_size")
    assert (plan["value_mib"], plan["source_locator"]) == (12.5744, "two.log:250")  # 102 + line 148


def test_a_plan_size_names_its_file_or_log_line_in_a_conflict(collect, workdir):
    (workdir / "a.plan").write_bytes(b"\0" * 3000)
    assert collect("trtexec", "--plan", workdir / "a.plan").exit_code == 0
    (workdir / "a.plan").write_bytes(b"\0" * 4000)  # rebuilt: another size
    again = collect("trtexec", "--plan", workdir / "a.plan")
    assert again.exit_code == 2 and "plan_size, variant unnamed from a.plan is already recorded at" in again.err
    log = workdir / "build.log"
    log.write_text((TRTEXEC / "trt10.16_build-and-run.log").read_text(), encoding="utf-8")
    assert collect("trtexec", "--log", log, job="logged").exit_code == 0
    log.write_text(log.read_text().replace("size: 12.5744 MiB", "size: 12.6 MiB"), encoding="utf-8")
    again = collect("trtexec", "--log", log, job="logged")
    assert again.exit_code == 2 and "from build.log:line 148 is already recorded at" in again.err


def test_engine_layers_name_their_file_in_a_conflict(collect, workdir):
    info = workdir / "layers.json"
    info.write_text(json.dumps(LAYER_INFO))
    assert collect("trtexec", "--layer-info", info).exit_code == 0
    info.write_text(json.dumps(dict(LAYER_INFO, Layers=LAYER_INFO["Layers"][:1])))  # another engine
    again = collect("trtexec", "--layer-info", info)
    assert again.exit_code == 2 and "from layers.json is already recorded at" in again.err


def test_times_of_a_run_without_transfers_and_without_a_summary_give_every_other_timing(collect, workdir):
    # the log's summary left out (as when the profiler ran without --separateProfileRun), transfers off:
    # the times file gives host latency, GPU compute and enqueue; its zero H2D and D2H are no latency
    log = edited(workdir, TRTEXEC / "trt10.16_no-data-transfers.log", "nosummary.log",
                 drop=("=== Performance summary ===", "Timing trace has"))
    path = workdir / "times.json"
    path.write_text(json.dumps(times_rows(20, start_ms=1.0, enqueue_ms=0.25)))
    done = collect("trtexec", "--log", log, "--times", path)
    assert done.exit_code == 0, done.err
    assert sorted(r["timing"] for r in done.kind("latency")) == ["enqueue", "gpu_compute", "host_latency"]
    assert done.latency("gpu_compute", batch=4)["value_ms"] == 0.5095  # the mean of the 10th and 11th computeMs
