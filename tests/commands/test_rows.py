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
    # The compiled fp16 latency at 800 x 800 of job h200-compile-800x800, as its record states it.
    (fp16,) = [r for r in rows if r["job_id"] == "h200-compile-800x800" and r["kind"] == "latency"
               and r["variant"] == "fp16" and r["shape"] == "800x800"]
    assert fp16["value"] == 8.304952 and fp16["metric"] == "gpu_compute" and fp16["mode"] == "compile"
    # five repeat medians of each of its six compilations, in compilation order
    assert fp16["repeat_medians_ms"] == [
        8.841376, 8.840128, 8.840336, 8.84152, 8.841264, 8.317984, 8.320528, 8.325824, 8.319008, 8.31912,
        8.221664, 8.220064, 8.22016, 8.220016, 8.220304, 8.870976, 8.872656, 8.873088, 8.871712, 8.879152,
        8.232848, 8.234528, 8.237504, 8.23904, 8.23536, 8.293312, 8.2868, 8.287648, 8.292288, 8.291568]


def test_filters_narrow_and_the_text_lists_shared_fields_once(tmp_path, run_cli):
    root = copy_project(tmp_path, families=(FAMILY,))
    result = run_cli("rows", FAMILY, "kind=latency", "mode=compile", "shape=800x800", "--root", root)
    assert result.exit_code == 0, result.err
    lines = result.out.splitlines()
    # one compiled job (h200-compile-800x800, median over its six compilations) x fp16 and FP8
    assert lines[0] == "2 row(s); the same in every row:"
    assert "  kind: latency" in lines and "  mode: compile" in lines and "  gpu: NVIDIA H200" in lines
    # one job: its id is a shared field, so the table starts at the variant
    assert "  job_id: h200-compile-800x800" in lines and "  repeat_medians_ms: [30 values]" in lines
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
    assert (none.exit_code, none.out) == (2, "")  # a value no row has: the values are listed, as fields are
    assert none.err == ("studygen: no row has kind 'nothing'; kind values: agreement, kernel_time, latency, "
                        "not_measured, quantization\n")
