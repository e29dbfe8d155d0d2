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
    assert "1 result(s) added (record extended)" in both.out
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
