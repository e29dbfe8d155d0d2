"""The shipped seed study: every figure of the seed in its table cell of the rendered README.

Expected values are read by hand off ../shared/seed/deformable_detr_fp8_study_pr.md.
"""

from __future__ import annotations

import pytest

from tests.conftest import REPO
from tests.foundation.tables import find_row, readme_tables

README = REPO / "families" / "deformable_detr" / "README.md"

# (GPU, TensorRT, shape) -> (fp16 ms, FP8 ms, fp16/FP8), from the seed's results table. The seed prints
# TensorRT 11.4 and 11.1; the README prints each version as the records give it (11.4.0.106, 11.1.0.106)
LATENCY = {
    ("B200", "11.4.0.106", "800 x 800"): ("5.889", "5.850", "1.01x"),
    ("B200", "11.4.0.106", "800 x 1067"): ("14.747", "15.230", "0.97x"),
    ("B300", "11.4.0.106", "800 x 800"): ("5.816", "5.764", "1.01x"),
    ("B300", "11.4.0.106", "800 x 1067"): ("14.487", "14.861", "0.97x"),
    ("B200", "11.1.0.106", "800 x 800"): ("5.889", "5.841", "1.01x"),
    ("B200", "11.1.0.106", "800 x 1067"): ("14.766", "15.223", "0.97x"),
}
PLAN_MIB = {("B200", "11.4.0.106"): ("83.0", "75.8"), ("B300", "11.4.0.106"): ("84.9", "78.0"), ("B200", "11.1.0.106"): ("82.8", "76.3")}
AP = {("B200", "11.4.0.106"): ("0.4644", "0.4625"), ("B300", "11.4.0.106"): ("0.4641", "0.4619"), ("B200", "11.1.0.106"): ("0.4636", "0.4620")}


@pytest.fixture(scope="module")
def tables():
    return readme_tables(README.read_text(encoding="utf-8"))


@pytest.mark.parametrize("labels", sorted(LATENCY))
def test_latency_cells(tables, labels):
    gpu, trt, shape = labels
    row = find_row(tables["Latency (ms)"], **{"GPU": gpu, "TensorRT": trt, "Shape HxW": shape})
    fp16, fp8, ratio = LATENCY[labels]
    assert (row["fp16"], row["FP8 (72 linears)"], row["fp16 / FP8"]) == (fp16, fp8, ratio)


@pytest.mark.parametrize("labels", sorted(PLAN_MIB))
def test_plan_size_cells_stay_in_mib(tables, labels):
    row = find_row(tables["Engine plan size (MiB)"], GPU=labels[0], TensorRT=labels[1])
    assert (row["fp16"], row["FP8 (72 linears)"]) == PLAN_MIB[labels]


def test_plan_reduction_is_computed_per_row(tables):
    rows = tables["Engine plan size (MiB)"]
    # (83.0 - 75.8) / 83.0 = 8.67 %, (84.9 - 78.0) / 84.9 = 8.13 %, (82.8 - 76.3) / 82.8 = 7.85 %
    assert [r["FP8 smaller by"] for r in rows] == ["9%", "8%", "8%"]


@pytest.mark.parametrize("labels", sorted(AP))
def test_ap_cells(tables, labels):
    row = find_row(tables["COCO AP"], GPU=labels[0], TensorRT=labels[1])
    fp16, fp8 = AP[labels]
    assert row["fp16"].split()[0] == fp16
    assert row["FP8 (72 linears)"].split()[0] == fp8


def test_ap_cells_show_job_to_job_spread(tables):
    row = find_row(tables["COCO AP"], GPU="B200", TensorRT="11.4.0.106")
    assert row["fp16"] == "0.4644 (2 jobs: 0.4639 to 0.4644)"
    assert row["FP8 (72 linears)"] == "0.4625 (2 jobs: 0.4625 to 0.4637)"
    # (0.4625 - 0.4644) * 100 = -0.19 points
    assert row["FP8 minus fp16 (points)"] == "-0.19"


def test_per_part_pair(tables):
    row = find_row(tables["Per-part quality (separate job)"], Job="b200-trt11.4-per-part")
    assert row["fp16"].split()[0] == "0.4639"
    assert row["FP8 (72 linears)"].split()[0] == "0.4637"


def test_agreement_figures(tables):
    rows = {r["Metric"]: r["Value (unit in Metric)"] for r in tables["Agreement of FP8 with the fp16 engine"]}
    assert rows["logit correlation (Pearson r)"] == "0.9991"
    assert rows["detection precision (fraction)"].startswith("0.984 to 0.986")
    assert rows["detection recall (fraction)"].startswith("0.974 to 0.975")
    assert rows["non-finite outputs (count)"] == "0"


def test_gemm_pair_b200_trt11_1(tables):
    rows = tables["Kernel time per group (ms)"]
    fp16 = find_row(rows, Job="b200-trt11.1", **{"Shape HxW": "800 x 1067", "Variant": "fp16", "Kernel group": "GEMM/MatMul"})
    fp8 = find_row(rows, Job="b200-trt11.1", **{"Shape HxW": "800 x 1067", "Variant": "FP8 (72 linears)", "Kernel group": "GEMM/MatMul"})
    assert (fp16["Value"], fp8["Value"]) == ("0.409", "0.073")


def test_side_finding_latencies(tables):
    rows = tables["Side findings"]
    b200 = find_row(rows, GPU="B200", TensorRT="11.4.0.106", **{"Shape HxW": "800 x 1067"})
    b300 = find_row(rows, GPU="B300", TensorRT="11.4.0.106", **{"Shape HxW": "800 x 1067"})
    assert (b200["fp32"], b200["fp16"]) == ("13.99", "14.747")
    assert (b300["fp32"], b300["fp16"]) == ("13.62", "14.487")


def test_pytorch_reference_ap_in_prose():
    text = README.read_text(encoding="utf-8")
    assert "fp32 under PyTorch reaches AP 0.4653" in text


def test_side_finding_fp16_latency_recorded_once():
    """The seed's side finding quotes 14.75 ms; it is the table's 14.747 ms, kept in one record only."""
    import json

    hits = []
    for path in sorted((REPO / "measurements" / "deformable_detr").glob("*.json")):
        for result in json.loads(path.read_text())["results"]:
            if result.get("value_ms") in (14.747, 14.75):
                hits.append((path.name, result["variant"]))
    assert hits == [("b200-trt11.4.json", "fp16")]


def test_plan_sizes_have_no_invented_bytes():
    import json

    for path in sorted((REPO / "measurements" / "deformable_detr").glob("*.json")):
        for result in json.loads(path.read_text())["results"]:
            if result["kind"] == "plan_size":
                assert "value_bytes" not in result and "value_mib" in result, path.name
