"""Real public files of ../shared/fixtures/public read in place, and
invented inputs of the same shapes: the values asserted were read off the
files by hand (or summed from their events by a separate script)."""

from __future__ import annotations

import json

from tests.collect.conftest import assert_refused, gpu_groups
from tests.conftest import FIXTURES

PUBLIC = FIXTURES / "public"
TB_PLUGIN_TRACE = PUBLIC / "kineto-301f611b_tb_plugin_test_gpu_metrics_input.json"


def test_a_2021_trace_names_its_gpu_under_compute_properties(collect):
    # the trace lists four "Tesla V100-DGXS-32GB" under computeProperties (no deviceProperties);
    # its 30 kernel events ran on device 0, 48 us in all, inside ProfilerStep#2
    done = collect("torch-profile", "--trace", TB_PLUGIN_TRACE, "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla V100-DGXS-32GB"
    assert not any("deviceProperties" in note for note in done.record["provenance"].get("notes", []))
    (result,) = done.kind("kernel_time")
    assert result["profiled_total_ms"] == 0.048
    assert result["per_iteration"][0]["label"] == "ProfilerStep#2"


def _trace(workdir, name: str, top: dict) -> str:
    kernel = {"ph": "X", "cat": "kernel", "name": "volta_sgemm_128x64_nn", "pid": 1, "tid": 7, "ts": 100, "dur": 250,
              "args": {"device": 1, "stream": 7}}
    path = workdir / name
    path.write_text(json.dumps({**top, "traceEvents": [kernel]}), encoding="utf-8")
    return path


def test_device_properties_win_over_compute_properties_and_either_names_the_kernels_device(collect, workdir):
    older = {"computeProperties": [{"id": 0, "name": "Tesla P100-SXM2-16GB"}, {"id": 1, "name": "Tesla T4"}]}
    done = collect("torch-profile", "--trace", _trace(workdir, "older.json", older), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla T4"  # device 1's name, not device 0's
    assert gpu_groups(done.kind("kernel_time")[0]) == {"GEMM/MatMul": 0.25}
    both = {"deviceProperties": [{"id": 1, "name": "NVIDIA A10"}], **older}
    done = collect("torch-profile", "--trace", _trace(workdir, "both.json", both), "--variant", "fp32", job="job2")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "NVIDIA A10"


def test_an_empty_device_properties_list_gives_way_to_compute_properties_naming_the_gpu(collect, workdir):
    # before: "deviceProperties": [] was taken as the list, the GPU None and the note "has no deviceProperties name"
    empty_first = {"deviceProperties": [], "computeProperties": [{"id": 1, "name": "Tesla T4"}]}
    done = collect("torch-profile", "--trace", _trace(workdir, "empty.json", empty_first), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla T4"
    assert not any("has no deviceProperties name" in note for note in done.record["provenance"].get("notes", []))
    # the real 2021 trace with an empty deviceProperties written beside its computeProperties
    trace = json.loads(TB_PLUGIN_TRACE.read_text(encoding="utf-8"))
    path = workdir / "tb_plugin_empty.json"
    path.write_text(json.dumps({"deviceProperties": [], **trace}), encoding="utf-8")
    done = collect("torch-profile", "--trace", path, "--variant", "fp32", job="job2")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla V100-DGXS-32GB"


def test_the_note_on_an_unlisted_device_names_the_field_the_model_came_from(collect, workdir):
    # the kernel ran on device 1; computeProperties names device 0 only (deviceProperties empty)
    top = {"deviceProperties": [], "computeProperties": [{"id": 0, "name": "Tesla P100-PCIE-12GB"}]}
    done = collect("torch-profile", "--trace", _trace(workdir, "unlisted.json", top), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla P100-PCIE-12GB"
    assert ("the kernels ran on device 1, which computeProperties does not list; it names one model only "
            "(Tesla P100-PCIE-12GB, device 0): recorded as that model") in done.kind("kernel_time")[0]["note"]


def test_of_two_device_lists_the_one_naming_the_kernels_device_names_the_gpu(collect, workdir):
    # the kernel ran on device 1: deviceProperties lists device 0 alone, computeProperties devices 0 and 1. Before:
    # deviceProperties was read (it names a device), the GPU recorded as its one model with a note that device 1 is
    # not listed, though computeProperties names device 1
    top = {"deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB"}],
           "computeProperties": [{"id": 0, "name": "Tesla P4"}, {"id": 1, "name": "Tesla T4"}]}
    done = collect("torch-profile", "--trace", _trace(workdir, "split.json", top), "--variant", "fp32")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "Tesla T4"
    assert "does not list" not in done.kind("kernel_time")[0].get("note", "")
    # both name device 1 and disagree: deviceProperties, Kineto's own key, is read as before
    both = {"deviceProperties": [{"id": 1, "name": "NVIDIA A10"}], "computeProperties": top["computeProperties"]}
    done = collect("torch-profile", "--trace", _trace(workdir, "both.json", both), "--variant", "fp32", job="job2")
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["gpu"] == "NVIDIA A10"


DLA_MARK = PUBLIC / "haxconn_googlenet_dla_mark_at_-1.profile"
DLA_TRANSITION = PUBLIC / "haxconn_googlenet_dla_transition_at_10.profile"


def test_a_dla_subgraph_named_by_its_layers_is_not_convolution(collect):
    # six rows (averageMs): "data to nvm" 0.0360737, "{conv1/7x7_s2,...,loss3/classifier}" 0.157607,
    # "data copy finish" 0.0171656, "{...} output reformatter 0" 3.33194, "{...} output to be reformatted 0 finish"
    # 0.00323427, "prob" 0.00699724. Before: the 57-layer subgraph and its finish row were "Conv" (0.16084127)
    # because "conv1" is its first member's name
    done = collect("trtexec", "--profile", DLA_MARK, "--variant", "int8", "--gpu", "Jetson AGX Xavier")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert gpu_groups(kernel) == {"DLA": 0.05647357, "other": 3.49654424}  # 0.0360737 + 0.0171656 + 0.00323427
    assert kernel["unclassified_ms"] == 0.16460424  # the subgraph 0.157607 and prob 0.00699724
    assert kernel["iterations"] == 11313 and kernel["profiled_total_ms"] == 3.55301781
    assert "1 of them are subgraph nodes named by the list of their layers" in kernel["note"]


def test_the_finish_rows_of_a_mixed_dla_and_gpu_engine_are_dla(collect):
    # "{inception_3a/1x1,...} reformatted input 0 finish" 0.00353825 and "loss3/classifier finish" 0.00321742
    # are the waits for the DLA's tensors; the GPU's own layers keep their groups (conv1 + relu 0.0830909 ...)
    done = collect("trtexec", "--profile", DLA_TRANSITION, "--variant", "int8", "--gpu", "Jetson AGX Xavier")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    groups = gpu_groups(kernel)
    assert groups["DLA"] == 0.00675567
    assert kernel["unclassified_ms"] == 0.01875391  # the subgraph row 0.00998803 and prob 0.00876588
    conv = next(g for g in kernel["groups"] if g["group"] == "Conv")
    assert "conv1/7x7_s2 + conv1/relu_7x7" in {k["name"] for k in conv["kernels"]}


def test_a_layer_table_another_tool_wrote_is_refused_as_no_trtexec_profile(collect):
    # rows {"name", "average_time_ms", "layer_count"}: before, "averageMs is missing or not a non-negative number"
    table = PUBLIC / "haxconn_googlenet_gpu_transition_at_-1_filtered.json"
    assert_refused(collect("trtexec", "--profile", table, "--variant", "int8"),
                   f"{table}:/0: unknown --exportProfile keys ['average_time_ms', 'layer_count', 'name'] (expected name "
                   "with timeMs, averageMs, medianMs, percentage): not a trtexec layer profile")


def test_a_trtexec_row_with_a_bad_average_still_names_the_average(collect, workdir):
    path = workdir / "profile.json"
    path.write_text('[{"count": 3}, {"name": "conv1", "timeMs": 0.9, "averageMs": "0.3"}]', encoding="utf-8")
    assert_refused(collect("trtexec", "--profile", path, "--variant", "int8"),
                   "/1/averageMs: averageMs is missing or not a non-negative number")


def _summary(stamp: str, throughput: str, gpu_median: str) -> str:
    rest = "min = 5.1 ms, max = 6.3 ms, mean = 5.4 ms, median = {} ms, percentile(99%) = 6.1 ms"
    lines = ["=== Performance summary ===", f"Throughput: {throughput} qps", "Latency: " + rest.format("5.5"),
             "Enqueue Time: " + rest.format("0.9"), "H2D Latency: " + rest.format("0.2"),
             "GPU Compute Time: " + rest.format(gpu_median), "D2H Latency: " + rest.format("0.1"),
             "Total Host Walltime: 3.01 s", "Total GPU Compute Time: 2.95 s"]
    return "".join(f"[{stamp}] [I] {line}\n" for line in lines)


def test_two_summaries_without_a_running_line_between_are_refused_as_two_runs(collect, workdir):
    # a README pasting each run's summary under its own shell command: the second summary is another run,
    # whose batch the log does not hold. Before: "run 1 prints its throughput (qps) twice" (or, with equal
    # throughputs, "prints host_latency twice"), which reads as one damaged run
    text = ("```shell\ntrtexec --loadEngine=m.plan --batch=8\n" + _summary("03/02/2024-11:20:05", "1490.2", "5.3")
            + "```\n\n```shell\ntrtexec --loadEngine=m.plan --batch=16\n"
            + _summary("03/02/2024-11:24:40", "1490.2", "10.6") + "```\n")
    path = workdir / "readme.md"
    path.write_text(text, encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "fp16"),
                   "readme.md:16: run 1 (line 3) has a second performance summary (line 16; the first is on line 3) with "
                   "no '&&&& RUNNING' line between them")


OLD_BLOCKS = """\
[06/11/2021-09:14:02] [I] Host Latency
[06/11/2021-09:14:02] [I] min: 7.1 ms (end to end 7.2 ms)
[06/11/2021-09:14:02] [I] max: 9.4 ms (end to end 9.6 ms)
[06/11/2021-09:14:02] [I] mean: 7.5 ms (end to end 7.7 ms)
[06/11/2021-09:14:02] [I] median: {median} ms (end to end 7.6 ms)
[06/11/2021-09:14:02] [I] percentile: 8.8 ms at 99% (end to end 9.1 ms at 99%)
[06/11/2021-09:14:02] [I] throughput: 0 qps
[06/11/2021-09:14:02] [I] walltime: 3.02 s
[06/11/2021-09:14:02] [I] GPU Compute
[06/11/2021-09:14:02] [I] min: 6.9 ms
[06/11/2021-09:14:02] [I] max: 9.2 ms
[06/11/2021-09:14:02] [I] mean: 7.3 ms
[06/11/2021-09:14:02] [I] median: 7.2 ms
[06/11/2021-09:14:02] [I] percentile: 8.6 ms at 99%
[06/11/2021-09:14:02] [I] total compute time: 2.9 s
{passed}"""


def test_a_second_tensorrt_7_summary_without_a_running_line_is_refused_not_dropped(collect, workdir):
    # two TensorRT 7 block summaries pasted one after the other (each as a README shows it, its PASSED line
    # kept or not): before, the first was recorded and the second, 15 lines of figures, dropped without a word
    for name, passed in (("bare.log", ""), ("passed.log", "&&&& PASSED TensorRT.trtexec # trtexec --loadEngine=m.plan\n")):
        path = workdir / name
        path.write_text(OLD_BLOCKS.format(median="7.4", passed=passed) + OLD_BLOCKS.format(median="7.45", passed=passed),
                        encoding="utf-8")
        second = 16 if not passed else 17
        assert_refused(collect("trtexec", "--log", path, "--variant", "fp16"),
                       f"{name}:{second}: run 1 (line 1) has a second performance summary (line {second}; the first is "
                       "on line 1)")


def test_a_summary_pasted_without_trtexec_prefixes_is_named_not_said_to_be_missing(collect, workdir):
    # a README's summary with the '[date] [I] ' prefixes cut and blank lines between (as the YOLOv9 QAT
    # presentation pastes them): before, "no '&&&& RUNNING' line and no performance summary", which is false
    bare = ("## batch 2\n```\n=== Performance summary ===\nThroughput: 212.4 qps\n\n"
            "Latency: min = 4.61 ms, max = 4.98 ms, mean = 4.7 ms, median = 4.69 ms, percentile(99%) = 4.9 ms\n\n"
            "GPU Compute Time: min = 4.61 ms, max = 4.98 ms, mean = 4.7 ms, median = 4.69 ms, percentile(99%) = 4.9 ms\n"
            "```\n")
    path = workdir / "bare.md"
    path.write_text(bare, encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "int8"),
                   "bare.md:3: its performance summary (line 3, '=== Performance summary ===') has no trtexec line "
                   "prefix ('[date-time] [I] ')")
    old = workdir / "old.md"
    old.write_text("Host Latency\nmin: 4.1 ms (end to end 4.2 ms)\nmedian: 4.3 ms (end to end 4.4 ms)\n", encoding="utf-8")
    assert_refused(collect("trtexec", "--log", old, "--variant", "int8"), "old.md:1: its performance summary (line 1, "
                   "'Host Latency') has no trtexec line prefix")
    # TensorRT 7.0 spells the block "Host latency" (sampleReporting.cpp): the same opening, the same refusal
    old.write_text("Host latency\nmin: 4.1 ms (end to end 4.2 ms)\n", encoding="utf-8")
    assert_refused(collect("trtexec", "--log", old, "--variant", "int8"), "old.md:1: its performance summary (line 1, "
                   "'Host latency') has no trtexec line prefix")


def test_a_run_whose_running_and_passed_lines_kept_but_prefixes_cut_names_its_summary(collect, workdir):
    # attack 24: the same summary under its '&&&& RUNNING' and '&&&& PASSED' lines (a whole console copied
    # through a tool that cut the prefixes) was refused as a run that "passed without a performance summary"
    text = ("&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.plan\n"
            "=== Performance summary ===\nThroughput: 212.4 qps\n"
            "Latency: min = 4.61 ms, max = 4.98 ms, mean = 4.7 ms, median = 4.69 ms, percentile(99%) = 4.9 ms\n"
            "&&&& PASSED TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.plan\n")
    path = workdir / "cut.log"
    path.write_text(text, encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "int8"),
                   "cut.log:2: its performance summary (line 2, '=== Performance summary ===') has no trtexec line "
                   "prefix ('[date-time] [I] ')")


def test_a_summary_that_kept_only_the_severity_tag_is_named_as_unprefixed(collect, workdir):
    # a README that cut the date but kept '[I] ' (as a Jetson Nano benchmark README pastes it), lines cut with
    # '...': before, "not a trtexec console log: no '&&&& RUNNING' line and no performance summary", which is false
    path = workdir / "tagged.md"
    path.write_text("[I] === Performance summary ===\n[I] Throughput: 41.7 qps\n"
                    "[I] Latency: min = 23.9 ms, max = 31.2 ms, mean = 24.1 ms, median = 24.0 ms ...\n...\n",
                    encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "fp32"),
                   "tagged.md:1: its performance summary (line 1, '[I] === Performance summary ===') has no trtexec "
                   "line prefix ('[date-time] [I] ')")


def test_a_summary_whose_prefix_was_cut_inside_the_date_is_named_as_unprefixed(collect, workdir):
    # a paste that cut each line inside its date, or only the date's opening bracket (the first tag's '[' gone):
    # before, "not a trtexec console log: ... no performance summary", and with the '&&&& RUNNING' line kept,
    # "run 1 (line 1) passed (line 5) without a performance summary", both false
    body = ["[05/21/2025-11:40:07] [I] === Performance summary ===", "[05/21/2025-11:40:07] [I] Throughput: 88.5 qps",
            "[05/21/2025-11:40:07] [I] Latency: min = 10.1 ms, max = 12.6 ms, mean = 11.2 ms, median = 11.3 ms"]
    mid_date = "\n".join(line[12:] for line in body) + "\n"
    path = workdir / "mid_date.md"
    path.write_text(mid_date, encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "fp32"),
                   "mid_date.md:1: its performance summary (line 1, '11:40:07] [I] === Performance summary ===') has "
                   "no trtexec line prefix ('[date-time] [I] ')")
    bracket_cut = ("&&&& RUNNING TensorRT.trtexec [TensorRT v8601] # trtexec --loadEngine=m.plan\n"
                   + "\n".join(line[1:] for line in body) + "\n&&&& PASSED TensorRT.trtexec [TensorRT v8601] # "
                   "trtexec --loadEngine=m.plan\n")
    path = workdir / "bracket_cut.log"
    path.write_text(bracket_cut, encoding="utf-8")
    assert_refused(collect("trtexec", "--log", path, "--variant", "fp32", job="job2"),
                   "bracket_cut.log:2: its performance summary (line 2, '05/21/2025-11:40:07] [I] === Performance "
                   "summary ===') has no trtexec line prefix ('[date-time] [I] ')")
