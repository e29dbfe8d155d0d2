"""trtexec format variants (issue 13, trtexec items 2-4 and 6; issue 16's
non-finite figures): each case is an input of our own, built from a shared
fixture by a small edit or written here in trtexec's layout, and each test
asserts the figure read or the refusal text. Item 1 (TensorRT 7 times) is in
test_trtexec_exports.py, item 7 (the newer fixtures) in test_newer_fixtures.py."""

from __future__ import annotations

import json

import pytest

from tests.collect.conftest import TRTEXEC, assert_refused, gpu_groups

BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"
NO_TRANSFERS_LOG = TRTEXEC / "trt10.16_no-data-transfers.log"
UNSTABLE_86 = TRTEXEC / "trt8.6_unstable-gpu-compute.log"


def edited(workdir, source, name, *replacements, drop=()):
    """``source``'s text with each ``(old, new)`` replaced once and lines holding any of ``drop`` removed."""
    text = source.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    if drop:
        text = "".join(line for line in text.splitlines(keepends=True) if not any(d in line for d in drop))
    path = workdir / name
    path.write_text(text, encoding="utf-8")
    return path


# --- item 2: the version as a bare number -------------------------------------------------------

def test_version_printed_as_a_number_is_decoded_and_its_defaults_apply(collect, workdir):
    # an early 8.0 build prints "TensorRT version: 8003" and no [TensorRT vNNNN] tag; without the
    # Inference Options lines, the timing method comes from the pre-11 defaults, which need the version
    log = edited(workdir, UNSTABLE_86, "trt8003.log", ("TensorRT version: 8.6.0", "TensorRT version: 8003"),
                 ("&&&& RUNNING TensorRT.trtexec [TensorRT v8600]", "&&&& RUNNING TensorRT.trtexec"),
                 ("&&&& PASSED TensorRT.trtexec [TensorRT v8600]", "&&&& PASSED TensorRT.trtexec"),
                 drop=("Data transfers:", "Spin-wait:", "CUDA Graph:", "Separate profiling:"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert done.record["provenance"]["software"]["tensorrt"] == "8.0.3"
    method = done.latency("gpu_compute", batch=4)["method"]
    assert (method["cuda_graph"], method["data_transfers"], method["spin_wait"], method["separate_profile_run"]) == (
        False, True, False, False)


# --- item 3: timestamp resolution and zero timings --------------------------------------------

def times_rows(count, *, start_ms, enqueue_ms, h2d_ms=0.0, d2h_ms=0.0, compute_ms=0.5):
    """--exportTimes rows (TensorRT 8.2+ keys, no endToEndMs) printed as trtexec prints them:
    six significant digits (``%g``), so stamps near ``start_ms`` keep 0.01 ms near 5000 ms."""
    rows = []
    for index in range(count):
        base = start_ms + index * (compute_ms + h2d_ms + d2h_ms + 0.1)
        stamps = {"startEnqMs": base, "endEnqMs": base + enqueue_ms, "startH2dMs": base, "endH2dMs": base + h2d_ms,
                  "startComputeMs": base + h2d_ms, "endComputeMs": base + h2d_ms + compute_ms + index * 1e-3,
                  "startD2hMs": base + h2d_ms + compute_ms, "endD2hMs": base + h2d_ms + compute_ms + d2h_ms}
        row = {key: float(f"{value:g}") for key, value in stamps.items()}
        row.update(h2dMs=h2d_ms, computeMs=float(f"{compute_ms + index * 1e-3:g}"), d2hMs=d2h_ms)
        row["latencyMs"] = float(f"{row['h2dMs'] + row['computeMs'] + row['d2hMs']:g}")
        rows.append(row)
    return rows


def test_enqueue_below_the_resolution_of_its_stamps_is_not_derived(collect, workdir):
    # a 5 µs enqueue from stamps near 5000 ms printed with six digits (0.01 ms): every difference is 0
    rows = times_rows(40, start_ms=5000.0, enqueue_ms=0.005, h2d_ms=0.02, d2h_ms=0.02)
    assert {round(row["endEnqMs"] - row["startEnqMs"], 6) for row in rows} == {0.0, 0.01}
    path = workdir / "late.json"
    path.write_text(json.dumps(rows))
    done = collect("trtexec", "--times", path, "--batch", "1")
    assert done.exit_code == 0, done.err
    timings = {r["timing"] for r in done.kind("latency")}
    assert "enqueue" not in timings and {"host_latency", "gpu_compute"} <= timings
    notes = done.record["provenance"]["notes"]
    assert any(note.startswith("enqueue not derived from late.json array 1: ") and
               "differences endEnqMs − startEnqMs are below the 0.01 ms resolution of its timestamps "
               "(printed with 6 significant digits)" in note for note in notes), notes
    assert all(r["value_ms"] > 0 for r in done.kind("latency"))
    # the same enqueue from stamps between 1 and 26.6 ms is resolved (six digits keep 1e-4 ms below 100 ms)
    early = workdir / "early.json"
    early.write_text(json.dumps(times_rows(40, start_ms=1.0, enqueue_ms=0.005, h2d_ms=0.02, d2h_ms=0.02)))
    # its own records folder: made-up rows of equal durations are one run's figures to studygen
    done = collect("trtexec", "--times", early, "--batch", "1", job="early", measurements=workdir / "m-early")
    assert done.exit_code == 0, done.err
    enqueue = done.latency("enqueue", batch=1)
    assert enqueue["value_ms"] == 0.005
    assert "enqueue is endEnqMs − startEnqMs, resolved to 0.0001 ms by the timestamps' printed digits" in enqueue["note"]


def test_all_zero_transfer_arrays_are_not_latencies(collect, workdir):
    path = workdir / "no-transfers.json"
    path.write_text(json.dumps(times_rows(20, start_ms=1.0, enqueue_ms=0.25)))  # h2dMs and d2hMs 0 throughout
    done = collect("trtexec", "--times", path)
    assert done.exit_code == 0, done.err
    assert sorted(r["timing"] for r in done.kind("latency")) == ["enqueue", "gpu_compute", "host_latency"]
    notes = done.record["provenance"]["notes"]
    assert ("h2dMs of no-transfers.json array 1 is 0 in every iteration: data transfers were off, not a latency"
            in notes)
    assert "d2hMs of no-transfers.json array 1 is 0 in every iteration: data transfers were off, not a latency" in notes


def test_a_summary_median_of_zero_is_never_recorded(collect, workdir):
    log = edited(workdir, BUILD_LOG, "zero-h2d.log", (
        "H2D Latency: min = 0.00341797 ms, max = 0.108398 ms, mean = 0.00395853 ms, median = 0.00378418 ms, "
        "percentile(90%) = 0.00439453 ms, percentile(95%) = 0.00488281 ms, percentile(99%) = 0.00537109 ms",
        "H2D Latency: min = 0 ms, max = 0 ms, mean = 0 ms, median = 0 ms, percentile(90%) = 0 ms, "
        "percentile(95%) = 0 ms, percentile(99%) = 0 ms"))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert "h2d" not in {r["timing"] for r in done.kind("latency")}
    assert ("zero-h2d.log:571: h2d left out: its median is 0 ms (below the timer's resolution, or data transfers "
            "off), not a latency") in done.record["provenance"]["notes"]


# --- item 4: wrappers, batch from shapes, pre-8.6 tables ------------------------------------------

@pytest.mark.parametrize("wrapper", ["[INFO] ", "2026-07-07T02:10:58.1234567Z ", "    ", "> "])
def test_wrapped_log_lines_are_read(collect, workdir, wrapper):
    lines = BUILD_LOG.read_text(encoding="utf-8").splitlines(keepends=True)
    path = workdir / "wrapped.log"
    stamp = 0

    def wrap(line):
        nonlocal stamp
        stamp += 1  # a CI timestamp differs from line to line; the wrapper's shape does not
        return wrapper.replace("1234567", f"{stamp:07d}") + line

    path.write_text("runner: starting job\n" + "".join(wrap(line) for line in lines), encoding="utf-8")
    done = collect("trtexec", "--log", path)
    assert done.exit_code == 0, done.err
    # line 572 of the fixture: GPU Compute Time ... median = 0.0361328 ms; now on line 573, after the runner's line
    gpu = done.latency("gpu_compute", batch=1)
    assert gpu["value_ms"] == 0.0361328 and gpu["source_locator"] == "wrapped.log:573"
    assert done.record["provenance"]["software"]["tensorrt"] == "10.16.1"


def test_a_run_cut_short_quotes_its_last_line_whole(collect, workdir):
    text = BUILD_LOG.read_text().splitlines(keepends=True)
    cut = workdir / "cut.log"
    cut.write_text("".join(text[:200]) + "Killed\n")  # the shell's word for a SIGKILL, 6 characters
    assert_refused(collect("trtexec", "--log", cut), "cut.log:201: run 1 (line 1) has no '&&&& PASSED' line: it ends "
                   "with 'Killed', which trtexec did not log (it crashed or was killed?); nothing recorded")


def test_batch_from_explicit_shapes_and_a_contradicting_batch_refused(collect):
    # line 1 "--shapes=x:4x1x28x28", line 18 "Input inference shape : x=4x1x28x28", line 17 "Batch: Explicit"
    done = collect("trtexec", "--log", NO_TRANSFERS_LOG)
    assert done.exit_code == 0, done.err
    assert {r["batch"] for r in done.results} == {4}
    refused = collect("trtexec", "--log", NO_TRANSFERS_LOG, "--batch", "1", job="contradicted")
    assert_refused(refused, "--batch 1 but ", "trt10.16_no-data-transfers.log says batch 4 for run 1 (line 1) "
                   "(the leading dimension of its input shapes x=4x1x28x28)")


def test_batch_from_the_shapes_flag_when_the_log_prints_none(collect, workdir):
    log = edited(workdir, UNSTABLE_86, "flag-only.log", drop=("Input inference shape",))
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute", batch=4)["value_ms"] == 0.0439453  # from "--shapes=tensor-0:4x1x28x28"


@pytest.mark.parametrize("shapes", ["x=4x3x8x8, mask=2x8", "x=4x3x8x8, y=-1x8"])
def test_inputs_that_disagree_state_no_batch(collect, workdir, shapes):
    log = edited(workdir, UNSTABLE_86, "two-inputs.log", ("Input inference shape: tensor-0=4x1x28x28",
                                                          f"Input inference shape: {shapes}"))
    done = collect("trtexec", "--log", log, "--batch", "2")
    assert done.exit_code == 0, done.err
    assert {r["batch"] for r in done.results} == {2}  # the log states none, so the option labels the run


OLD_TABLE_LOG = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v8003] # trtexec --loadEngine=det.plan --dumpProfile --batch=2
[03/01/2022-10:00:00] [I] === Inference Options ===
[03/01/2022-10:00:00] [I] Batch: 2
[03/01/2022-10:00:05] [I]
[03/01/2022-10:00:05] [I] === Profile (120 iterations ) ===
[03/01/2022-10:00:05] [I]                        Layer   Time (ms)   Avg. Time (ms)   Time %
[03/01/2022-10:00:05] [I]                    Conv_0 + Relu_1       36.00           0.3000     40.0
[03/01/2022-10:00:05] [W] [TRT] a warning printed in the middle of the table
[03/01/2022-10:00:05] [I]                         MatMul_7 12       30.00           0.2500     33.3
[03/01/2022-10:00:05] [I]               Softmax_9 output 0       24.00           0.2000     26.7
[03/01/2022-10:00:05] [I]                              Total       90.00           0.7500    100.0
&&&& PASSED TensorRT.trtexec [TensorRT v8003] # trtexec --loadEngine=det.plan --dumpProfile --batch=2
"""


def test_pre_8_6_table_without_a_median_column(collect, workdir):
    log = workdir / "old-table.log"
    log.write_text(OLD_TABLE_LOG)
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    assert (kernel["iterations"], kernel["profiled_total_ms"], kernel["batch"]) == (120, 0.75, 2)
    # names that end in a number keep it; the warning between two rows is no row
    assert gpu_groups(kernel) == {"Conv": 0.3, "GEMM/MatMul": 0.25, "normalization and elementwise": 0.2}
    names = [k["name"] for g in kernel["groups"] for k in g["kernels"]]
    assert names == ["Conv_0 + Relu_1", "MatMul_7 12", "Softmax_9 output 0"]
    assert done.record["provenance"]["software"]["tensorrt"] == "8.0.3"


def test_a_table_without_its_total_row_is_refused(collect, workdir):
    log = workdir / "no-total.log"
    log.write_text(OLD_TABLE_LOG.replace(
        "[03/01/2022-10:00:05] [I]                              Total       90.00           0.7500    100.0\n", ""))
    assert_refused(collect("trtexec", "--log", log), "no-total.log:5: the --dumpProfile table of run 1 (line 1) has "
                   "no Total row (the log is cut?); nothing recorded")


DLA_LOG = """\
&&&& RUNNING TensorRT.trtexec [TensorRT v8502] # trtexec --loadEngine=det_dla.plan --useDLACore=0 --dumpProfile --separateProfileRun
[05/02/2023-08:00:00] [I] TensorRT version: 8.5.2
[05/02/2023-08:00:09] [I] === Profile (400 iterations ) ===
[05/02/2023-08:00:09] [I]                                 Layer   Time (ms)   Avg. Time (ms)   Median Time (ms)   Time %
[05/02/2023-08:00:09] [I]                          images to nvm       30.40           0.0760             0.0750      1.0
[05/02/2023-08:00:09] [I]     {ForeignNode[Conv_3...Sigmoid_88]}        3.20           0.0080             0.0080      0.1
[05/02/2023-08:00:09] [I]                       boxes from nvm     2880.00           7.2000             7.1900     97.1
[05/02/2023-08:00:09] [I]                    images copy finish        0.80           0.0020             0.0020      0.0
[05/02/2023-08:00:09] [I]                     boxes copy finish        1.20           0.0030             0.0030      0.0
[05/02/2023-08:00:09] [I]                             NMS_plugin       49.60           0.1240             0.1230      1.7
[05/02/2023-08:00:09] [I]                                  Total     2965.20           7.4130             7.4010    100.0
&&&& PASSED TensorRT.trtexec [TensorRT v8502] # trtexec --loadEngine=det_dla.plan --useDLACore=0 --dumpProfile --separateProfileRun
"""


def test_dla_transfers_and_the_wait_for_the_dla_are_their_own_group(collect, workdir):
    log = workdir / "dla.log"
    log.write_text(DLA_LOG)
    done = collect("trtexec", "--log", log)
    assert done.exit_code == 0, done.err
    (kernel,) = done.kind("kernel_time")
    # trtexec charges the DLA's run to the copy of its output back ("boxes from nvm"), beside the NvMedia
    # transfers: 0.0760 + 7.2000 + 0.0020 + 0.0030
    groups = gpu_groups(kernel)
    assert groups["DLA"] == 7.281
    # NMS_plugin (0.1240): no rule names it; the DLA subgraph's submission {ForeignNode[Conv_3...Sigmoid_88]}
    # (0.0080) names two of its members only: untold, not the convolution its first member is
    assert groups["other"] == 0.132 and kernel["unclassified_ms"] == 0.132
    assert "Conv" not in groups
    assert kernel["profiled_total_ms"] == 7.413 and kernel["iterations"] == 400
    dla = next(g for g in kernel["groups"] if g["group"] == "DLA")
    assert [k["name"] for k in dla["kernels"]] == ["boxes from nvm", "images to nvm", "boxes copy finish",
                                                   "images copy finish"]


# --- issue 16: figures no double holds ------------------------------------------------------------

@pytest.mark.parametrize("figure", ["nan", "inf", "-inf", "1e400", "1e-400"])
def test_non_finite_summary_figure_is_refused_with_its_line(collect, workdir, figure):
    log = edited(workdir, BUILD_LOG, "hostile.log", ("median = 0.0361328 ms", f"median = {figure} ms"))
    assert_refused(collect("trtexec", "--log", log),
                   f"hostile.log:572: the GPU Compute Time median is '{figure}', which is not a finite figure")


@pytest.mark.parametrize("line, where", [
    ("median: 3.03919 ms", "line 174: the gpu_compute median is 'nan'"),
    ("percentile: 3.4563 ms at 99% (end to end 3.47168 ms at 99%)", "line 163: the end_to_end p99 is 'nan'"),
])
def test_non_finite_tensorrt_7_figure_is_refused(collect, workdir, line, where):
    hostile = line.replace("3.03919", "nan") if "median" in line else line.replace("3.47168", "nan")
    log = edited(workdir, TRTEXEC / "trt7_resnet50-int8_console.log", "trt7.log", (line, hostile))
    done = collect("trtexec", "--log", log)
    assert_refused(done, "trt7.log:" + where.split(": ", 1)[0].removeprefix("line ") + ": " + where.split(": ", 1)[1])


def test_non_finite_profile_row_and_throughput_are_refused(collect, workdir):
    log = workdir / "nan-row.log"
    log.write_text(OLD_TABLE_LOG.replace("0.2500     33.3", "nan     33.3"))
    assert_refused(collect("trtexec", "--log", log), "nan-row.log:9: the profile row 'MatMul_7 12' is 'nan'")
    log = edited(workdir, BUILD_LOG, "inf-qps.log", ("Throughput: 15374.3 qps", "Throughput: inf qps"))
    assert_refused(collect("trtexec", "--log", log, job="qps"), "inf-qps.log:568: the throughput is 'inf'")


def test_underflowing_export_figures_are_refused(collect, workdir):
    rows = times_rows(3, start_ms=1.0, enqueue_ms=0.25, h2d_ms=0.02, d2h_ms=0.02)
    text = json.dumps(rows).replace('"computeMs": 0.501', '"computeMs": 1e-400', 1)
    path = workdir / "tiny.json"
    path.write_text(text)
    assert_refused(collect("trtexec", "--times", path),
                   "tiny.json:/1/computeMs: number 1e-400 is out of range: not a finite double (it would read as 0)")


# --- item 6: repeated keys in every JSON input --------------------------------------------------

@pytest.mark.parametrize("option, text, where, key", [
    ("--times", '[{"startEnqMs": 0, "endEnqMs": 0.5, "startH2dMs": 0.5, "endH2dMs": 0.6, "startComputeMs": 0.6,'
                ' "endComputeMs": 1.6, "startD2hMs": 1.6, "endD2hMs": 1.7, "h2dMs": 0.1, "computeMs": 1,'
                ' "d2hMs": 0.1, "latencyMs": 1.2, "computeMs": 999}]', "/0/computeMs", "computeMs"),
    ("--profile", '[{"count": 10}, {"name": "a", "averageMs": 0.5, "averageMs": 5}]', "/1/averageMs", "averageMs"),
    ("--profile", '[{"count": 10, "count": 20}, {"name": "a", "averageMs": 0.5}]', "/0/count", "count"),
    ("--layer-info", '{"Layers": ["a"], "Bindings": ["x"], "Layers": ["b", "c"]}', "/Layers", "Layers"),
])
def test_repeated_keys_are_refused_at_their_line(collect, workdir, option, text, where, key):
    # every collector input words a repeated key alike: the line of the repeat (a one-line file: line 1;
    # ``where`` is the repeated key's JSON pointer, kept for the reader of the case)
    path = workdir / "repeated.json"
    path.write_text(text)
    assert_refused(collect("trtexec", option, path, "--batch", "1"),
                   f"repeated.json:1: malformed JSON: duplicate key {key!r} in one object (the last would silently win)")
