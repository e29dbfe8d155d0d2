"""A times file held against its log (trtexec's warm-up rule, the log's own
summary, run counts) and the edges of the times reader: each case edits the
TensorRT 7 fixture or writes a small array in trtexec's layout, and asserts
the figure or the whole refusal line."""

from __future__ import annotations

import json

from studygen.collect.trtexec.times import parse_times
from tests.collect.conftest import TRTEXEC, assert_refused
from tests.collect.test_trtexec_exports import computing_from, computing_longer, concatenated_arrays
from tests.collect.test_trtexec_formats import OLD_TABLE_LOG, edited, times_rows

TRT7_LOG = TRTEXEC / "trt7_resnet50-int8_console.log"
TRT7_TIMES = TRTEXEC / "trt7_resnet50-int8_times-concatenated.json"
BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"
UNSTABLE_86 = TRTEXEC / "trt8.6_unstable-gpu-compute.log"


def write_arrays(workdir, name, arrays):
    path = workdir / name
    path.write_text("\n".join(json.dumps(array) for array in arrays))
    return path


def test_a_warm_up_that_trtexecs_rule_does_not_find_is_another_run(collect, workdir):
    arrays = concatenated_arrays(TRT7_TIMES)
    # iteration 56 of batch 1 starts computing at 199 ms: the rule then finds 56 warm-up iterations, the log 55
    arrays[0][55] = computing_from(arrays[0][55], 199.0)
    path = write_arrays(workdir, "shifted.json", arrays)
    done = collect("trtexec", "--log", TRT7_LOG, "--times", path)
    assert_refused(done, f"studygen: {path.name}:1: array 1 does not come from run 1 (line 1) of ",
                   "trt7_resnet50-int8_console.log: 56 iterations start computing before the 200 ms warm-up, the "
                   "log counts 55 warm-up iterations; a times file from another run? nothing recorded\n")


def test_a_warm_up_that_holds_every_iteration_is_another_run(collect, workdir):
    # every iteration of batch 1 starts computing at 0 ms, before the 200 ms warm-up ends: the rule finds 1013
    arrays = concatenated_arrays(TRT7_TIMES)
    arrays[0] = [computing_from(item, 0.0) for item in arrays[0]]
    path = write_arrays(workdir, "early.json", arrays)
    assert_refused(collect("trtexec", "--log", TRT7_LOG, "--times", path),
                   "trt7_resnet50-int8_console.log: 1013 iterations start computing before the 200 ms warm-up, the "
                   "log counts 55 warm-up iterations")


def test_without_compute_starts_the_logged_warm_up_count_is_dropped(collect, workdir):
    # no startComputeMs to apply trtexec's rule to: the count the log states decides alone
    arrays = [[{k: v for k, v in item.items() if k != "startComputeMs"} for item in array]
              for array in concatenated_arrays(TRT7_TIMES)]
    path = write_arrays(workdir, "nostarts.json", arrays)
    done = collect("trtexec", "--log", TRT7_LOG, "--times", path)
    assert done.exit_code == 0, done.err
    host = done.latency("host_latency", batch=1)
    assert host["distribution"]["samples"] == 958 and host["value_ms"] == 3.09796
    assert "its first 55 iterations are the warm-up the log counts and are left out" in host["note"]


def test_the_summary_is_checked_past_a_timing_the_times_file_lacks(collect, workdir):
    arrays = concatenated_arrays(TRT7_TIMES)
    # enqueue unresolved (one warm-up iteration's input stamps equal), and every computeMs 0.02 ms longer
    first = [computing_longer(item, 0.02) for item in arrays[0]]
    first[0] = dict(first[0], endInMs=first[0]["startInMs"])
    path = write_arrays(workdir, "slower.json", [first, *arrays[1:]])
    done = collect("trtexec", "--log", TRT7_LOG, "--times", path)
    assert_refused(done, f"studygen: {path.name}:1: array 1 does not come from run 1 (line 1) of ",
                   "trt7_resnet50-int8_console.log: its gpu_compute min is 3.02146 ms, the log prints 3.00146 ms "
                   "(line 171); a times file from "
                   "another run? nothing recorded\n")


def test_a_count_mismatch_without_a_logged_warm_up_names_the_timed_count(collect, workdir):
    log = edited(workdir, BUILD_LOG, "no-warmup.log", drop=("Warmup completed",))
    rows = times_rows(30, start_ms=1.0, enqueue_ms=0.25, h2d_ms=0.02, d2h_ms=0.02)
    path = write_arrays(workdir, "thirty.json", [rows])
    done = collect("trtexec", "--log", log, "--times", path)
    assert_refused(done, "thirty.json:1: array 1 does not come from run 1 (line 1) of ",
                   "no-warmup.log: it holds 30 iterations, the run timed 46125; a times file from another run?")
    assert "(or " not in done.err


def test_two_arrays_without_a_log_are_refused(collect, workdir):
    rows = times_rows(10, start_ms=1.0, enqueue_ms=0.25)
    path = write_arrays(workdir, "two.json", [rows, rows])
    assert_refused(collect("trtexec", "--times", path),
                   "studygen: two.json: holds 2 runs (concatenated arrays) but nothing tells them apart: give the "
                   "--log that produced them, so each run gets its batch\n")


def test_arrays_and_runs_counted_apart_name_the_times_file(collect, workdir):
    rows = times_rows(10, start_ms=1.0, enqueue_ms=0.25)
    path = write_arrays(workdir, "three.json", [rows, rows, rows])
    done = collect("trtexec", "--log", BUILD_LOG, "--times", path)
    assert_refused(done, "studygen: three.json: holds 3 run(s) but the log ",
                   "trt10.16_build-and-run.log has 1: the arrays of a times file are matched to the log's runs in "
                   "order, so the counts must agree\n")


def test_tensorrt_7_times_without_their_log_name_the_warm_up_line(collect, workdir):
    path = write_arrays(workdir, "alone.json", [concatenated_arrays(TRT7_TIMES)[0]])
    assert_refused(collect("trtexec", "--times", path),
                   "studygen: alone.json:1: array 1 has TensorRT 7 keys with endToEndMs: its writer exports the "
                   "warm-up iterations too, and only the console log says how many (Warmup completed N queries); give "
                   "--log, or the percentiles would include them\n")


def test_a_median_of_zero_from_the_times_file_is_left_out(collect, workdir):
    rows = times_rows(11, start_ms=1.0, enqueue_ms=0.25, d2h_ms=0.0)
    for row in rows[:5]:  # 5 of 11 iterations with a 1 µs copy back: not all zero, median 0
        row.update(d2hMs=0.001, endD2hMs=float(f"{row['startD2hMs'] + 0.001:g}"), latencyMs=row["latencyMs"] + 0.001)
    path = write_arrays(workdir, "d2h.json", [rows])
    done = collect("trtexec", "--times", path)
    assert done.exit_code == 0, done.err
    assert "d2h" not in {r["timing"] for r in done.kind("latency")}
    assert ("d2h of d2h.json array 1 left out: its median is 0 ms (below the timer's resolution), not a latency"
            in done.record["provenance"]["notes"])


def test_a_compute_time_of_zero_throughout_is_no_latency(collect, workdir):
    rows = times_rows(10, start_ms=1.0, enqueue_ms=0.25, h2d_ms=0.02, d2h_ms=0.02)
    for row in rows:
        row.update(computeMs=0, endComputeMs=row["startComputeMs"], latencyMs=0.04)
    path = write_arrays(workdir, "nocompute.json", [rows])
    done = collect("trtexec", "--times", path)
    assert done.exit_code == 0, done.err
    assert "gpu_compute" not in {r["timing"] for r in done.kind("latency")}
    assert ("computeMs of nocompute.json array 1 is 0 in every iteration: not a latency"
            in done.record["provenance"]["notes"])


def test_a_missing_stamp_is_refused_at_its_iteration(collect, workdir):
    rows = times_rows(8, start_ms=1.0, enqueue_ms=0.25)
    del rows[3]["endEnqMs"]
    done = collect("trtexec", "--times", write_arrays(workdir, "nostamp.json", [rows]))
    assert_refused(done, "studygen: nostamp.json:/3: startEnqMs/endEnqMs missing or not numbers\n")


def test_a_bad_input_stamp_of_tensorrt_7_names_the_file(collect, workdir):
    arrays = concatenated_arrays(TRT7_TIMES)
    arrays[0][4] = dict(arrays[0][4], startInMs="late")
    path = write_arrays(workdir, "instamp.json", arrays)
    assert_refused(collect("trtexec", "--log", TRT7_LOG, "--times", path),
                   "studygen: instamp.json:/0/4: startInMs/endInMs missing or not numbers\n")


def test_the_warm_up_left_out_keeps_what_the_array_holds():
    runs = parse_times(TRT7_TIMES)
    first = runs[0]
    timed = first.without_first(55)
    assert timed.iterations == 1013 - 55 and timed.warmup_dropped == 55
    assert timed.compute_starts == first.compute_starts[55:] and timed.compute_starts[0] >= 200
    assert timed.timings["h2d"] == first.timings["h2d"][55:]
    assert (timed.left_out, timed.derivation, timed.resolution_ms) == (
        first.left_out, first.derivation, first.resolution_ms)
    assert timed.derivation["enqueue"].startswith("endInMs − startInMs: this writer swaps")
    assert timed.resolution_ms["enqueue"] == 0.01


def test_an_input_name_holding_the_separator_keeps_its_dims(collect, workdir):
    # TensorFlow-style names ("input:0"): the dims follow the last ':' of --shapes=input:0:4x1x28x28
    log = edited(workdir, UNSTABLE_86, "tf-name.log", ("--shapes=tensor-0:4x1x28x28", "--shapes=input:0:4x1x28x28"),
                 ("--shapes=tensor-0:4x1x28x28", "--shapes=input:0:4x1x28x28"), drop=("Input inference shape",))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert {r["batch"] for r in done.results} == {4}


def test_export_results_carry_the_batch_option_and_list_their_rows(collect):
    done = collect("trtexec", "--profile", TRTEXEC / "detr-r50_profile.json", "--layer-info",
                   TRTEXEC / "detr-r50_layer-info.json", "--batch", "8")
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    (layers,) = done.kind("engine_layers")
    assert (kernel["batch"], layers["batch"]) == (8, 8)
    assert kernel["rows_listed"] is True


def test_a_profile_of_zeros_gives_no_kernel_time(collect, workdir):
    rows = [{"count": 50}, {"name": "conv1", "timeMs": 0, "averageMs": 0, "medianMs": 0, "percentage": 0},
            {"name": "fc", "timeMs": 0, "averageMs": 0, "medianMs": 0, "percentage": 0}]
    assert_refused(collect("trtexec", "--profile", write_arrays(workdir, "zeros.json", [rows])),
                   "studygen: zeros.json:1: every one of its 2 layers takes 0 ms: no kernel time to record (a "
                   "profile of nothing, or times below the printed digits)\n")


def test_a_dump_table_whose_total_is_zero_gives_no_kernel_time(collect, workdir):
    log = workdir / "zero-table.log"
    log.write_text(OLD_TABLE_LOG.replace("0.3000", "0.0000").replace("0.2500", "0.0000").replace(
        "0.2000", "0.0000").replace("0.7500", "0.0000"))
    assert_refused(collect("trtexec", "--log", log),
                   "studygen: zero-table.log:5: every one of its 3 layers takes 0 ms: no kernel time to record")


def test_the_log_plan_size_carries_the_runs_batch(collect, workdir):
    # the build log run with an explicit shape of batch 4 (its line 68 "Input inference shapes: model")
    log = edited(workdir, BUILD_LOG, "shaped.log", ("Input inference shapes: model", "Input inference shapes: x=4x1x28x28"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (plan,) = done.kind("plan_size")
    assert plan["batch"] == 4


def test_input_shapes_on_separate_lines_give_one_batch(collect, workdir):
    log = edited(workdir, UNSTABLE_86, "two-lines.log", (
        "[I] Input inference shape: tensor-0=4x1x28x28",
        "[I] Input inference shape: tensor-0=4x1x28x28\n[03/25/2023-07:13:23] [I] Input inference shape: mask=4x28"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert {r["batch"] for r in done.results} == {4}


def test_timed_queries_that_are_no_multiple_of_the_batch_are_counted_as_printed(collect, workdir):
    # batch 4 of the TensorRT 7 log: "Timing trace has 1792 queries" is 448 iterations; 1793 is no multiple of 4
    log = edited(workdir, TRT7_LOG, "odd.log", ("Timing trace has 1792 queries", "Timing trace has 1793 queries"))
    assert_refused(collect("trtexec", "--log", log, "--times", TRT7_TIMES),
                   "array 2 does not come from run 2 ", "it holds 477 iterations, the run timed 1793 (or 1822 with its "
                   "29 warm-up iterations)")


def test_an_enqueue_of_exactly_one_step_is_resolved(collect, workdir):
    # stamps near 5000 ms carry 0.01 ms; a 0.01 ms enqueue is one step: derived, not left out
    rows = times_rows(20, start_ms=5000.0, enqueue_ms=0.01, h2d_ms=0.02, d2h_ms=0.02)
    assert {round(row["endEnqMs"] - row["startEnqMs"], 6) for row in rows} == {0.01}
    done = collect("trtexec", "--times", write_arrays(workdir, "step.json", [rows]))
    assert done.exit_code == 0, done.err
    assert done.latency("enqueue")["value_ms"] == 0.01


def test_a_left_out_timing_stays_left_out_after_the_warm_up(workdir):
    arrays = concatenated_arrays(TRT7_TIMES)
    path = write_arrays(workdir, "no-out.json", [[dict(item, outMs=0, endOutMs=item["startOutMs"], latencyMs=round(item["inMs"] + item["computeMs"], 6),
                                                     endToEndMs=round(item["startOutMs"] - item["startEnqMs"], 6))
                                                for item in arrays[0]]])
    (run,) = parse_times(path)
    assert run.left_out == {"d2h": "outMs of no-out.json array 1 is 0 in every iteration: data transfers were off, "
                                   "not a latency"}
    assert run.without_first(55).left_out == run.left_out
