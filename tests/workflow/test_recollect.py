"""Issue 14 item 4: collecting the same inputs again adds nothing; the same
log line under other options is refused, not stored twice."""

from __future__ import annotations

import json

import pytest

from ..conftest import FIXTURES, shapeless_build_log

LAYER_INFO = FIXTURES / "trtexec" / "trt10.16_export-layer-info.log"


@pytest.fixture
def log(tmp_path):
    """The build-and-run log without the line that states its shape: a first collect records none."""
    folder = tmp_path / "logs"
    folder.mkdir()
    return shapeless_build_log(folder)


def _collect(run_cli, root, *extra):
    return run_cli("collect", "trtexec", "--family", "demo", "--job", "h100", "--variant", "fp16",
                   "--measurements", root / "m", *extra)


def test_the_same_inputs_again_change_nothing(tmp_path, run_cli, log):
    first = _collect(run_cli, tmp_path, "--log", log)
    assert first.exit_code == 0, first.err
    assert "note:" not in first.out  # a new record: nothing was recorded already
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    again = _collect(run_cli, tmp_path, "--log", log)
    assert again.exit_code == 0, again.err
    shown = first.out.split(":")[0].removeprefix("wrote ")
    assert shown.endswith("m/demo/h100.json")
    assert again.out == (f"{shown}: nothing new, the record is unchanged\n"
                         "  note: all 6 result(s) are recorded already, as read now: nothing written\n")
    assert path.read_bytes() == before


def test_new_inputs_next_to_recorded_ones_add_only_the_new(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    both = _collect(run_cli, tmp_path, "--log", log, "--layer-info", LAYER_INFO)
    assert both.exit_code == 0, both.err
    assert both.out.count("note:") == 1 and "1 result(s) added (record extended)" in both.out
    assert "6 result(s) recorded already, as read now: kept as they were" in both.out
    record = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())
    assert [r["kind"] for r in record["results"]] == ["latency"] * 5 + ["plan_size", "engine_layers"]


def test_the_same_line_under_another_shape_is_refused(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    fixed = _collect(run_cli, tmp_path, "--log", log, "--shape", "28x28")
    assert fixed.exit_code == 2
    assert fixed.err.count("\n") == 1
    assert ("trt10.16_build-and-run.log:569 is already recorded at " in fixed.err
            and "/m/demo/h100.json:/results/0 (latency host_latency median, variant fp16); collecting it again as "
                "latency host_latency median, variant fp16, 28x28 would record one measurement twice" in fixed.err)
    assert path.read_bytes() == before


def test_replace_swaps_what_the_job_took_from_that_log_and_records_why(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    assert _collect(run_cli, tmp_path, "--layer-info", LAYER_INFO).exit_code == 0
    fixed = _collect(run_cli, tmp_path, "--log", log, "--shape", "28x28", "--replace", "the first  collect had no --shape")
    assert fixed.exit_code == 0, fixed.err
    assert "/m/demo/h100.json: 6 result(s) added in place of 6 (record rewritten)\n" in fixed.out
    assert "note: replaced 6 result(s) read from trt10.16_build-and-run.log: the first collect had no --shape" in fixed.out
    record = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())
    # the layer list (another file) stays; the log's six results now carry the shape, once
    assert [(r["kind"], r.get("shape")) for r in record["results"]] == [("engine_layers", None)] + \
        [("latency", "28x28")] * 5 + [("plan_size", "28x28")]
    assert record["provenance"]["notes"][-1] == ("replaced 6 result(s) read from trt10.16_build-and-run.log: "
                                                 "the first collect had no --shape")
    gpu_compute = next(r for r in record["results"] if r.get("timing") == "gpu_compute")
    assert gpu_compute["value_ms"] == 0.0361328 and gpu_compute["source_locator"] == "trt10.16_build-and-run.log:572"


def test_replace_needs_a_reason_and_a_source_it_can_match(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    blank = _collect(run_cli, tmp_path, "--log", log, "--replace", "  ")
    assert (blank.exit_code, blank.err) == (2, "studygen: --replace needs a reason (why the earlier results are "
                                               "wrong), e.g. --replace 'wrong --shape'\n")
    assert path.read_bytes() == before


def test_a_result_without_source_cannot_replace_anything():
    import pytest

    from studygen.records.result import NewResult
    from studygen.errors import UsageError
    from studygen.records.sources import replace_sources, source_file

    assert source_file({"source_locator": "times.json:line 3"}) == "times.json"
    assert source_file({"source_locator": "model.plan"}) == "model.plan" and source_file({}) is None
    # b.log's and the sourceless result measure another variant: no rerun of what a.log gives
    fp16, int8 = {"kind": "plan_size", "variant": "fp16"}, {"kind": "plan_size", "variant": "int8"}
    document = {"results": [dict(fp16, source_locator="a.log:3"), dict(int8, source_locator="b.log:4"), int8],
                "provenance": {}}
    note = replace_sources(document, [NewResult(dict(fp16, source_locator="a.log:9"), "a.log:9")], "rerun", "r.json")
    assert note == "replaced 1 result(s) read from a.log: rerun"
    assert document["results"] == [dict(int8, source_locator="b.log:4"), int8]
    assert document["provenance"]["notes"] == [note]
    with pytest.raises(UsageError, match=r"^--replace: dt.json \(AP\) names no source file, so no recorded result "
                                         r"can be matched to it; r.json is left as it was$"):
        replace_sources(document, [NewResult({"kind": "coco_ap"}, "dt.json (AP)")], "rerun", "r.json")


def test_the_same_inputs_with_a_commit_fill_in_the_provenance_and_write_only_that(tmp_path, run_cli, log):
    # found by a new user: the note said the commit was filled in while nothing was written
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    assert "repository_commit" not in json.loads(path.read_text())["provenance"]
    results_before = json.loads(path.read_text())["results"]
    filled = _collect(run_cli, tmp_path, "--log", log, "--commit", "abcdef1")
    assert filled.exit_code == 0, filled.err
    shown = filled.out.split(":")[0].removeprefix("wrote ")
    assert filled.out.startswith(f"wrote {shown}: no new result, provenance filled in\n")
    assert "  note: provenance.repository_commit filled in: abcdef1\n" in filled.out
    assert filled.out.endswith("  note: all 6 result(s) are recorded already, as read now: only the provenance was written\n")
    record = json.loads(path.read_text())
    assert record["provenance"]["repository_commit"] == "abcdef1" and record["results"] == results_before
    again = _collect(run_cli, tmp_path, "--log", log, "--commit", "abcdef1")
    assert again.out.startswith(f"{shown}: nothing new, the record is unchanged\n")


# --- found by a new user: one run under two jobs, a re-read after kernel_groups changed, a false default ---

RESNET = FIXTURES / "trtexec" / "trt8.6_resnet50-int8_separate-profile-run.log"
RESNET_PROFILE = FIXTURES / "trtexec" / "trt8.6_resnet50-int8_profile.json"
RESNET_LAYERS = FIXTURES / "trtexec" / "trt8.6_resnet50-int8_layer-info-detailed.json"


def _project(run_cli, root):
    made = run_cli("new", "rn", "--variants", "int8", "--root", root)
    assert made.exit_code == 0, made.err
    return root / "measurements" / "rn"


def _resnet(run_cli, root, job, *extra):
    return run_cli("collect", "trtexec", "--family", "rn", "--job", job, "--variant", "int8", "--root", root,
                   "--log", RESNET, "--profile", RESNET_PROFILE, "--layer-info", RESNET_LAYERS, *extra)


def test_one_log_under_a_second_job_is_refused_naming_the_job_that_holds_it(tmp_path, run_cli):
    records = _project(run_cli, tmp_path)
    assert _resnet(run_cli, tmp_path, "rtx3080-trt8.6.1").exit_code == 0
    again = _resnet(run_cli, tmp_path, "rtx3080-again")
    assert again.exit_code == 2 and again.err.count("\n") == 1
    # /results/0 is the log's host latency, median 0.275391 ms (line 1184)
    assert again.err.startswith(f"studygen: {records}/rtx3080-trt8.6.1.json:/results/0: ")
    assert again.err.endswith("trt8.6_resnet50-int8_separate-profile-run.log:line 1184 is already recorded in job "
                              "rtx3080-trt8.6.1 as latency host_latency median, variant int8, batch 1, 224x224 (here): "
                              "one run "
                              "under two jobs would count as two measurements that agree; to add to it, collect with "
                              "--job rtx3080-trt8.6.1; nothing written\n")
    assert sorted(p.name for p in records.iterdir()) == ["rtx3080-trt8.6.1.json"]
    # the same run under other options (a shape) or with only its profile is still the same run
    shaped = _resnet(run_cli, tmp_path, "other", "--shape", "224x224")
    assert shaped.exit_code == 2 and "is already recorded in job rtx3080-trt8.6.1 as latency host_latency median, " \
        "variant int8, batch 1, 224x224 (here)" in shaped.err  # 224x224: the log's input binding (line 151) states it
    profile = run_cli("collect", "trtexec", "--family", "rn", "--job", "other", "--variant", "int8", "--root", tmp_path,
                      "--profile", RESNET_PROFILE)
    assert profile.exit_code == 2 and profile.err.startswith(
        f"studygen: {records}/rtx3080-trt8.6.1.json:/results/3: {RESNET_PROFILE}:array 1 is already recorded in job "
        "rtx3080-trt8.6.1 as kernel_time, variant int8, batch 1, 224x224 (here)")  # that job's: this gave neither
    # another run (another log) goes into another job
    other = run_cli("collect", "trtexec", "--family", "rn", "--job", "other", "--variant", "int8", "--root", tmp_path,
                    "--log", FIXTURES / "trtexec" / "trt7_resnet50-int8_console.log")
    assert other.exit_code == 0, other.err
    assert sorted(p.name for p in records.iterdir()) == ["other.json", "rtx3080-trt8.6.1.json"]


def test_a_re_read_after_kernel_groups_changed_says_what_differs_and_names_replace(tmp_path, run_cli):
    records = _project(run_cli, tmp_path)
    assert _resnet(run_cli, tmp_path, "rtx3080-trt8.6.1").exit_code == 0
    path = records / "rtx3080-trt8.6.1.json"
    before = path.read_bytes()
    study = tmp_path / "families" / "rn" / "study.yaml"
    study.write_text(study.read_text() + "kernel_groups:\n- {pattern: 'Conv', group: convolution}\n")
    again = _resnet(run_cli, tmp_path, "rtx3080-trt8.6.1")
    assert again.exit_code == 2 and again.err.count("\n") == 1
    assert again.err.startswith(f"studygen: {path}: kernel_time, variant int8, batch 1, 224x224 from ")
    assert again.err.endswith(
        f"trt8.6_resnet50-int8_profile.json:array 1 is already recorded at {path}:"
        "/results/3 from trt8.6_resnet50-int8_profile.json:line 1, and reading it now gives other values of groups, "
        "note, unclassified_ms, unclassified_share (the study file's kernel_groups changed since it was recorded?): "
        'a result is never overwritten; to re-read it, collect with --replace "REASON"; for another measurement use '
        "another --job, --variant, --shape or --batch; nothing written\n")
    assert path.read_bytes() == before
    replaced = _resnet(run_cli, tmp_path, "rtx3080-trt8.6.1", "--replace", "kernel_groups added")
    assert replaced.exit_code == 0, replaced.err
    (kernel,) = [r for r in json.loads(path.read_text())["results"] if r["kind"] == "kernel_time"]
    assert kernel["groups"][0]["group"] == "convolution" and "families/rn/study.yaml kernel_groups" in kernel["note"]


def test_a_changed_reading_of_another_file_kind_names_the_file_or_collector(tmp_path):
    import pytest

    from studygen.errors import ConflictError
    from studygen.records.result import NewResult
    from studygen.records.sources import refuse_changed_reading

    recorded = {"kind": "plan_size", "value_bytes": 10, "source_locator": "a.plan"}
    refuse_changed_reading(recorded, NewResult({**recorded, "source_locator": "b.plan"}, "b.plan"), "r:/results/0",
                           "r.json", str)  # another source: left to the caller
    with pytest.raises(ConflictError, match=r"other values of value_bytes \(the file or the collector changed since"):
        refuse_changed_reading(recorded, NewResult({**recorded, "value_bytes": 11}, "a.plan"), "r:/results/0",
                               "r.json", str)


def test_a_no_op_re_collect_adds_no_default_note_over_explicit_weights(tmp_path, run_cli):
    records = _project(run_cli, tmp_path)
    assert _resnet(run_cli, tmp_path, "j", "--weights", "pretrained").exit_code == 0
    path = records / "j.json"
    # the log loads a built plan: its note says int8 rests on the collector's word (not the weights); the other
    # note says where the shape was read
    shape_note, note = json.loads(path.read_text())["provenance"]["notes"]
    assert "loads a built plan" in note and "weights" not in note
    assert "shape 224x224 read from its input shapes input0=1x3x224x224 (input binding, line 151)" in shape_note
    filled = _resnet(run_cli, tmp_path, "j", "--commit", "abcdef1")
    assert filled.exit_code == 0, filled.err
    assert "weights not given" not in filled.out
    provenance = json.loads(path.read_text())["provenance"]
    assert provenance["repository_commit"] == "abcdef1" and provenance["checkpoint"]["weights"] == "pretrained"
    assert "notes" not in provenance or not any("weights not given" in note for note in provenance["notes"])
    # a record that got the default says so, once, also after a re-collect
    other = _project(run_cli, tmp_path / "d")
    assert _resnet(run_cli, tmp_path / "d", "k").exit_code == 0
    assert _resnet(run_cli, tmp_path / "d", "k", "--commit", "abcdef1").exit_code == 0
    notes = json.loads((other / "k.json").read_text())["provenance"]["notes"]
    assert notes.count("weights not given on the command line: recorded as pretrained (the default)") == 1


def _trace(run_cli, root, job, variant, *extra):
    return run_cli("collect", "torch-profile", "--family", "tp", "--job", job, "--variant", variant, "--root", root,
                   "--trace", PUBLIC_TRACE, "--mode", "eager", "--batch", "1", *extra)


PUBLIC_TRACE = FIXTURES / "public" / "kineto-00a807b7_docs_traces_after_fix_trace.json"


def test_a_trace_held_under_another_variant_is_answered_with_a_way_out_not_a_circle(tmp_path, run_cli):
    # the trace went in as fp16 but was the bf16 run: each refusal's advice, followed, must end in a record
    assert run_cli("new", "tp", "--variants", "fp16,bf16", "--root", tmp_path).exit_code == 0
    records = tmp_path / "measurements" / "tp"
    assert _trace(run_cli, tmp_path, "a", "fp16").exit_code == 0
    elsewhere = _trace(run_cli, tmp_path, "b", "bf16")
    assert elsewhere.exit_code == 2 and elsewhere.err.count("\n") == 1
    assert elsewhere.err.endswith(
        "is already recorded in job a as kernel_time, variant fp16, batch 1 (here): one run under two jobs would count as two measurements that agree; "
        'if the run was of variant bf16 (not variant fp16), collect it with --job a and --replace "REASON" (what the '
        "job took from that file is dropped first); for variant bf16 as well, collect a file of a run of its own; "
        "nothing written\n")
    here = _trace(run_cli, tmp_path, "a", "bf16")
    assert here.exit_code == 2 and "--job" not in here.err  # another job is what the first refusal ruled out
    assert here.err.endswith("would record one measurement twice; if the run was of variant bf16 (not variant fp16), "
                             'collect it again with --replace "REASON" (what the job took from that file is dropped '
                             "first); for variant bf16 as well, collect a file of a run of its own; nothing written\n")
    followed = _trace(run_cli, tmp_path, "a", "bf16", "--replace", "it was the bf16 run")
    assert followed.exit_code == 0, followed.err
    record = json.loads((records / "a.json").read_text())
    assert [r["variant"] for r in record["results"]] == ["bf16"]
    assert sorted(p.name for p in records.iterdir()) == ["a.json"]
    # the same configuration under another job still says to add to the job that holds it
    again = _trace(run_cli, tmp_path, "b", "bf16")
    assert again.exit_code == 2 and again.err.endswith("to add to it, collect with --job a; nothing written\n")


# ---- a rerun saved under another file name (a new user's case) ----------------------------------

def _rerun_of(log, name):
    """``log`` as a rerun saved as ``name``: the same run lines, the GPU compute median 0.0361328 -> 0.036377 ms."""
    path = log.parent / name
    path.write_text(log.read_text(encoding="utf-8").replace("median = 0.0361328 ms", "median = 0.036377 ms"),
                    encoding="utf-8")
    return path


def test_a_rerun_under_a_new_file_name_is_refused_with_what_replace_would_drop(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log, "--shape", "28x28").exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    refused = _collect(run_cli, tmp_path, "--log", _rerun_of(log, "rerun-driver-580.log"), "--shape", "28x28")
    assert refused.exit_code == 2 and refused.err.count("\n") == 1
    assert ("/m/demo/h100.json:/results/0 (read from trt10.16_build-and-run.log); a result is never overwritten: if "
                "this is a rerun of that measurement, collect it with --replace \"REASON\", which drops what the job "
                "read from the same file name and its run of variant fp16, shape 28x28, backend tensorrt, "
                "mode engine from trt10.16_build-and-run.log; if it measured something else, use another --job, "
                "--variant, --shape or --batch; nothing written" in refused.err)
    assert path.read_bytes() == before


def test_replace_takes_a_rerun_under_a_new_file_name_in_place_of_the_first_run(tmp_path, run_cli, log):
    assert _collect(run_cli, tmp_path, "--log", log, "--shape", "28x28").exit_code == 0
    assert _collect(run_cli, tmp_path, "--layer-info", LAYER_INFO).exit_code == 0
    rerun = _rerun_of(log, "rerun-driver-580.log")
    replaced = _collect(run_cli, tmp_path, "--log", rerun, "--shape", "28x28", "--replace", "driver 580")
    assert replaced.exit_code == 0, replaced.err
    # the first log's note (its shape taken from --shape) goes with its results; the rerun's own takes its place
    assert ("note: replaced 6 result(s) read from trt10.16_build-and-run.log and 1 provenance note(s) about them: "
            "driver 580") in replaced.out
    record = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())
    shape_notes = [note for note in record["provenance"]["notes"] if "taken from --shape" in note]
    assert shape_notes == ["rerun-driver-580.log run 1 (line 1): shape 28x28 taken from --shape: the input states none"]
    assert [(r["kind"], r["source_locator"].split(":")[0]) for r in record["results"]] == \
        [("engine_layers", LAYER_INFO.name)] + [("latency", rerun.name)] * 5 + [("plan_size", rerun.name)]
    gpu_compute = next(r for r in record["results"] if r.get("timing") == "gpu_compute")
    assert gpu_compute["value_ms"] == 0.036377


def test_replace_drops_only_the_rerun_configuration_of_a_file_holding_several():
    from studygen.records.result import NewResult
    from studygen.records.sources import replace_sources

    def result(kind, batch, where, **extra):
        return {"kind": kind, "variant": "fp16", "shape": "640x640", "batch": batch, "backend": "tensorrt",
                "mode": "engine", "source_locator": where, **extra}
    b1 = result("latency", 1, "runs.log:30", timing="gpu_compute", statistic="median")
    plan_b1 = result("plan_size", 1, "runs.log:12")
    b8 = result("latency", 8, "runs.log:80", timing="gpu_compute", statistic="median")
    int8 = dict(result("latency", 1, "int8.log:30", timing="gpu_compute", statistic="median"), variant="int8")
    document = {"results": [b1, plan_b1, b8, int8], "provenance": {}}
    new = NewResult(result("latency", 1, "b1-again.log:31", timing="gpu_compute", statistic="median"), "b1-again.log")
    note = replace_sources(document, [new], "rerun of batch 1", "r.json")
    assert note == "replaced 2 result(s) read from runs.log: rerun of batch 1"
    assert document["results"] == [b8, int8]
    # nothing of that configuration recorded: nothing dropped, and the record gets no note saying otherwise
    fresh = NewResult(result("latency", 16, "b16.log:31", timing="gpu_compute", statistic="median"), "b16.log")
    assert replace_sources(document, [fresh], "first run", "r.json") == (
        "--replace: the record holds nothing read from b16.log nor an earlier run of what it measures: no result "
        "replaced")
    assert document["results"] == [b8, int8]
    assert document["provenance"]["notes"] == ["replaced 2 result(s) read from runs.log: rerun of batch 1"]


def test_replace_that_only_corrects_the_provenance_notes_no_replacement(tmp_path, run_cli, log):
    # a trial's record said "replaced 0 result(s) read from ...log: REASON" beside the correction its --replace made
    assert _collect(run_cli, tmp_path, "--log", log).exit_code == 0
    fixed = _collect(run_cli, tmp_path, "--layer-info", LAYER_INFO, "--software", "tensorrt=10.16.2",
                     "--replace", "the version was typed wrong")
    assert fixed.exit_code == 0, fixed.err
    notes = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())["provenance"]["notes"]
    assert "provenance.software.tensorrt corrected from 10.16.1 to 10.16.2: the version was typed wrong" in notes
    assert not [note for note in notes if note.startswith("replaced")]
    assert ("note: --replace: the record holds nothing read from trt10.16_export-layer-info.log nor an earlier run of "
            "what it measures: no result replaced") in fixed.out


# --- trial s20: a profiler trace's steps hold group times too ---

SAMPLED_TRACE = FIXTURES / "public" / "hta_timeline_analysis_sampled_rank-0.json.gz"


def test_a_trace_re_read_after_kernel_groups_changed_names_kernel_groups_not_the_file(tmp_path, run_cli):
    # a Kineto trace of two ProfilerSteps (#551, #552): each step's group times change with the rules as well
    made = run_cli("new", "dlrm", "--variants", "fp32", "--root", tmp_path)
    assert made.exit_code == 0, made.err

    def collect(*extra):
        return run_cli("collect", "torch-profile", "--family", "dlrm", "--job", "rank0", "--variant", "fp32",
                       "--mode", "eager", "--root", tmp_path, "--trace", SAMPLED_TRACE, *extra)

    assert collect().exit_code == 0
    path = tmp_path / "measurements" / "dlrm" / "rank0.json"
    steps = json.loads(path.read_text())["results"][0]["per_iteration"]
    assert [(s["label"], s["profiled_total_ms"]) for s in steps] == [("ProfilerStep#551", 301.579),
                                                                     ("ProfilerStep#552", 304.94)]
    study = tmp_path / "families" / "dlrm" / "study.yaml"
    study.write_text(study.read_text() + "kernel_groups:\n- {pattern: 'nccl', group: NCCL}\n")
    before = path.read_bytes()
    again = collect()
    assert again.exit_code == 2 and again.err.count("\n") == 1
    assert ("other values of groups, note, per_iteration, unclassified_ms, unclassified_share (the study file's "
            "kernel_groups changed since it was recorded?)") in again.err
    assert path.read_bytes() == before


def test_steps_with_another_total_are_no_regrouping(tmp_path):
    from studygen.errors import ConflictError
    from studygen.records.result import NewResult
    from studygen.records.sources import refuse_changed_reading

    recorded = {"kind": "kernel_time", "source_locator": "t.json", "groups": [{"group": "other", "time_ms": 3.5}],
                "per_iteration": [{"label": "ProfilerStep#7", "profiled_total_ms": 3.5, "groups": {"other": 3.5}}]}
    regrouped = {**recorded, "groups": [{"group": "GEMM", "time_ms": 3.5}],
                 "per_iteration": [{"label": "ProfilerStep#7", "profiled_total_ms": 3.5, "groups": {"GEMM": 3.5}}]}
    with pytest.raises(ConflictError, match=r"\(the study file's kernel_groups changed since"):
        refuse_changed_reading(recorded, NewResult(regrouped, "t.json"), "r:/results/0", "r.json", str)
    # a step whose total moved was read from another file (or by another collector), whatever its groups
    retimed = {**regrouped, "per_iteration": [{**regrouped["per_iteration"][0], "profiled_total_ms": 3.6}]}
    with pytest.raises(ConflictError, match=r"\(the file or the collector changed since"):
        refuse_changed_reading(recorded, NewResult(retimed, "t.json"), "r:/results/0", "r.json", str)
