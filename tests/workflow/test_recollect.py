"""Issue 14 item 4: collecting the same inputs again adds nothing; the same
log line under other options is refused, not stored twice."""

from __future__ import annotations

import json

from ..conftest import FIXTURES

LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"
LAYER_INFO = FIXTURES / "trtexec" / "trt10.16_export-layer-info.log"


def _collect(run_cli, root, *extra):
    return run_cli("collect", "trtexec", "--family", "demo", "--job", "h100", "--variant", "fp16",
                   "--measurements", root / "m", *extra)


def test_the_same_inputs_again_change_nothing(tmp_path, run_cli):
    first = _collect(run_cli, tmp_path, "--log", LOG)
    assert first.exit_code == 0, first.err
    assert "note:" not in first.out  # a new record: nothing was recorded already
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    again = _collect(run_cli, tmp_path, "--log", LOG)
    assert again.exit_code == 0, again.err
    shown = first.out.split(":")[0].removeprefix("wrote ")
    assert shown.endswith("m/demo/h100.json")
    assert again.out == (f"{shown}: nothing new, the record is unchanged\n"
                         "  note: all 6 result(s) are recorded already, as read now: nothing written\n")
    assert path.read_bytes() == before


def test_new_inputs_next_to_recorded_ones_add_only_the_new(tmp_path, run_cli):
    assert _collect(run_cli, tmp_path, "--log", LOG).exit_code == 0
    both = _collect(run_cli, tmp_path, "--log", LOG, "--layer-info", LAYER_INFO)
    assert both.exit_code == 0, both.err
    assert both.out.count("note:") == 1 and "1 result(s) added (record extended)" in both.out
    assert "6 result(s) recorded already, as read now: kept as they were" in both.out
    record = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())
    assert [r["kind"] for r in record["results"]] == ["latency"] * 5 + ["plan_size", "engine_layers"]


def test_the_same_line_under_another_shape_is_refused(tmp_path, run_cli):
    assert _collect(run_cli, tmp_path, "--log", LOG).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    fixed = _collect(run_cli, tmp_path, "--log", LOG, "--shape", "28x28")
    assert fixed.exit_code == 2
    assert fixed.err.count("\n") == 1
    assert ("trt10.16_build-and-run.log:569 is already recorded at " in fixed.err
            and "/m/demo/h100.json:/results/0 (latency host_latency median, variant fp16); collecting it again as "
                "latency host_latency median, variant fp16, 28x28 would record one measurement twice" in fixed.err)
    assert path.read_bytes() == before


def test_replace_swaps_what_the_job_took_from_that_log_and_records_why(tmp_path, run_cli):
    assert _collect(run_cli, tmp_path, "--log", LOG).exit_code == 0
    assert _collect(run_cli, tmp_path, "--layer-info", LAYER_INFO).exit_code == 0
    fixed = _collect(run_cli, tmp_path, "--log", LOG, "--shape", "28x28", "--replace", "the first  collect had no --shape")
    assert fixed.exit_code == 0, fixed.err
    assert "6 result(s) added (record extended)" in fixed.out
    assert "note: replaced 6 result(s) read from trt10.16_build-and-run.log: the first collect had no --shape" in fixed.out
    record = json.loads((tmp_path / "m" / "demo" / "h100.json").read_text())
    # the layer list (another file) stays; the log's six results now carry the shape, once
    assert [(r["kind"], r.get("shape")) for r in record["results"]] == [("engine_layers", None)] + \
        [("latency", "28x28")] * 5 + [("plan_size", "28x28")]
    assert record["provenance"]["notes"][-1] == ("replaced 6 result(s) read from trt10.16_build-and-run.log: "
                                                 "the first collect had no --shape")
    gpu_compute = next(r for r in record["results"] if r.get("timing") == "gpu_compute")
    assert gpu_compute["value_ms"] == 0.0361328 and gpu_compute["source_locator"] == "trt10.16_build-and-run.log:572"


def test_replace_needs_a_reason_and_a_source_it_can_match(tmp_path, run_cli):
    assert _collect(run_cli, tmp_path, "--log", LOG).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    before = path.read_bytes()
    blank = _collect(run_cli, tmp_path, "--log", LOG, "--replace", "  ")
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
    document = {"results": [{"source_locator": "a.log:3"}, {"source_locator": "b.log:4"}, {}], "provenance": {}}
    note = replace_sources(document, [NewResult({"source_locator": "a.log:9"}, "a.log:9")], "rerun", "r.json")
    assert note == "replaced 1 result(s) read from a.log: rerun"
    assert document["results"] == [{"source_locator": "b.log:4"}, {}] and document["provenance"]["notes"] == [note]
    with pytest.raises(UsageError, match=r"^--replace: dt.json \(AP\) names no source file, so no recorded result "
                                         r"can be matched to it; r.json is left as it was$"):
        replace_sources(document, [NewResult({"kind": "coco_ap"}, "dt.json (AP)")], "rerun", "r.json")


def test_the_same_inputs_with_a_commit_fill_in_the_provenance_and_write_only_that(tmp_path, run_cli):
    # found by a new user: the note said the commit was filled in while nothing was written
    assert _collect(run_cli, tmp_path, "--log", LOG).exit_code == 0
    path = tmp_path / "m" / "demo" / "h100.json"
    assert "repository_commit" not in json.loads(path.read_text())["provenance"]
    results_before = json.loads(path.read_text())["results"]
    filled = _collect(run_cli, tmp_path, "--log", LOG, "--commit", "abcdef1")
    assert filled.exit_code == 0, filled.err
    shown = filled.out.split(":")[0].removeprefix("wrote ")
    assert filled.out.startswith(f"wrote {shown}: no new result, provenance filled in\n")
    assert "  note: provenance.repository_commit filled in: abcdef1\n" in filled.out
    assert filled.out.endswith("  note: all 6 result(s) are recorded already, as read now: only the provenance was written\n")
    record = json.loads(path.read_text())
    assert record["provenance"]["repository_commit"] == "abcdef1" and record["results"] == results_before
    again = _collect(run_cli, tmp_path, "--log", LOG, "--commit", "abcdef1")
    assert again.out.startswith(f"{shown}: nothing new, the record is unchanged\n")
