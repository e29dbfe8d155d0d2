"""``studygen rows FAMILY``: every row with every field a template filter takes."""

from __future__ import annotations

import json

from studygen.study.rows import ROW_FIELDS

from ..conftest import copy_project

FAMILY = "deformable_detr_h200_torch"


def test_json_rows_carry_every_filter_field(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    result = run_cli("rows", FAMILY, "--root", root, "--format", "json")
    assert result.exit_code == 0, result.err
    rows = json.loads(result.out)
    assert rows and all(list(row) == list(ROW_FIELDS) for row in rows)
    # The compiled fp16 latency at 800 x 800 of job h200-compile, as its record states it.
    (fp16,) = [r for r in rows if r["job_id"] == "h200-compile" and r["kind"] == "latency"
               and r["variant"] == "fp16" and r["shape"] == "800x800"]
    assert fp16["value"] == 8.187952 and fp16["metric"] == "gpu_compute" and fp16["mode"] == "compile"
    # five repeat medians of each of its three compilations, in compilation order
    assert fp16["repeat_medians_ms"] == [8.15704, 8.160208, 8.158976, 8.159648, 8.158256, 8.238448, 8.233008, 8.235888,
                                         8.236688, 8.23416, 8.188752, 8.184816, 8.188048, 8.188352, 8.18832]


def test_filters_narrow_and_the_text_lists_shared_fields_once(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    result = run_cli("rows", FAMILY, "kind=latency", "mode=compile", "shape=800x800", "--root", root)
    assert result.exit_code == 0, result.err
    lines = result.out.splitlines()
    # one compiled job (h200-compile, median over its three compilations) x fp16 and FP8
    assert lines[0] == "2 row(s); the same in every row:"
    assert "  kind: latency" in lines and "  mode: compile" in lines and "  gpu: NVIDIA H200" in lines
    # one job: its id is a shared field, so the table starts at the variant
    assert "  job_id: h200-compile" in lines and "  repeat_medians_ms: [15 values]" in lines
    header = next(line for line in lines if line.startswith("variant"))
    assert header.split()[:4] == ["variant", "recipe", "precision", "value"]
    assert [line.split()[:2] for line in lines if line.startswith(("fp16 ", "fp8 "))] == [["fp16", "fp16"],
                                                                                           ["fp8", "fp8-linears-72"]]


def test_unknown_field_and_bad_filter_list_the_fields(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    result = run_cli("rows", FAMILY, "timing=gpu_compute", "--root", root)
    assert result.exit_code == 2
    assert result.err == f"studygen: unknown field 'timing'; row fields: {', '.join(ROW_FIELDS)}\n"
    result = run_cli("rows", FAMILY, "kind", "--root", root)
    assert (result.exit_code, result.err) == (2, "studygen: filter 'kind' is not FIELD=VALUE\n")
    none = run_cli("rows", FAMILY, "kind=nothing", "--root", root)
    assert (none.exit_code, none.out) == (0, "no rows match\n")
