"""What studygen.study.spread adds for studygen diff: a spread's width, the spread between
compilations, every spread a figure has, and the study file's tolerance (moved from SG203).

The compilation figures are read off measurements/deformable_detr_h200_torch/h200-compile-800x800.json
by hand (the fp16 800 x 800 results)."""

from __future__ import annotations

from pathlib import Path

import pytest

from studygen.study import load_study
from studygen.study.spread import COMPILATIONS, REPEAT_MEDIANS, Spread, compilation_spread, measured_spreads, tolerance
from tests.checks.studies import coco_ap, kernel_time, latency, load, record, spec

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def h200():
    return load_study(REPO / "families" / "deformable_detr_h200_torch", REPO)


def one(study, **fields):
    rows = [r for r in study.rows if all(getattr(r, k) == v for k, v in fields.items())]
    assert len(rows) == 1, rows
    return rows[0]


def test_width_is_high_minus_low():
    spread = Spread((8.2, 8.1, 8.35), REPEAT_MEDIANS)
    assert (spread.low, spread.high, spread.width) == (8.1, 8.35, pytest.approx(0.25))


def test_a_compiled_latency_has_the_spread_of_its_compilation_medians(h200):
    row = one(h200, kind="latency", variant="fp16", shape="800x800", mode="compile")
    spread = compilation_spread(row)
    assert spread == Spread((8.841216, 8.319216, 8.220528, 8.873408, 8.235072, 8.290688), COMPILATIONS)
    assert spread.width == pytest.approx(0.65288)  # 8.873408 - 8.220528
    # and its own: 30 repeat medians, 8.220016 to 8.879152
    spreads = measured_spreads(row)
    assert [s.source for s in spreads] == [REPEAT_MEDIANS, COMPILATIONS]
    assert len(spreads[0].values) == 30 and (spreads[0].low, spreads[0].high) == (8.220016, 8.879152)


def test_a_compiled_kernel_group_and_its_total_have_the_spread_of_their_compilations(h200):
    group = one(h200, kind="kernel_time", variant="fp16", shape="800x800", mode="compile", group="GridSample")
    assert compilation_spread(group).values == (7.056938, 6.419763, 6.356912, 7.098933, 6.390695, 6.407668)
    total = one(h200, kind="kernel_time", variant="fp16", shape="800x800", mode="compile", group="total")
    assert compilation_spread(total).values == (8.930337, 8.406361, 8.29936, 8.968005, 8.313543, 8.372647)
    # a group some compilation lacks (fp16 runs no FP8 input cast) has no complete set
    assert not [r for r in h200.rows if r.kind == "kernel_time" and r.variant == "fp16"
                and r.mode == "compile" and r.group == "Quantize/Dequantize"]


def test_eager_rows_have_no_compilation_spread(h200):
    latency_row = one(h200, kind="latency", variant="fp16", shape="800x800", mode="eager")
    assert compilation_spread(latency_row) is None
    assert [s.source for s in measured_spreads(latency_row)] == [REPEAT_MEDIANS]
    kernel_row = one(h200, kind="kernel_time", variant="fp16", shape="800x800", mode="eager", group="GridSample")
    assert measured_spreads(kernel_row) == []  # one time per group, no iterations kept


def test_fewer_than_two_compilations_give_no_spread_and_a_missing_group_counts_0_ms(tmp_path):
    single = kernel_time("fp16", {"GEMM": 0.5, "other": 0.1}, total=0.6,
                         compilations=[{"compilation": 1, "profiled_total_ms": 0.6, "groups": {"GEMM": 0.5, "other": 0.1}}])
    gap = kernel_time("fp8", {"GEMM": 0.4, "other": 0.1}, total=0.5,
                      compilations=[{"compilation": 1, "profiled_total_ms": 0.5, "groups": {"GEMM": 0.4, "other": 0.1}},
                                    {"compilation": 2, "profiled_total_ms": 0.52, "groups": {"GEMM": 0.42}}])
    study = load(tmp_path, records=[record("main", [single, gap])])
    assert compilation_spread(one(study, variant="fp16", group="GEMM")) is None
    assert compilation_spread(one(study, variant="fp8", group="GEMM")).values == (0.4, 0.42)
    # compilation 2 ran no kernel of "other" (the collectors leave such a group out): 0 ms there
    assert compilation_spread(one(study, variant="fp8", group="other")).values == (0.1, 0.0)
    assert compilation_spread(one(study, variant="fp8", group="total")).values == (0.5, 0.52)


def test_tolerance_is_looked_up_by_metric_then_kind_then_kind_and_unit(tmp_path):
    rows = [latency("fp16", 5.0), coco_ap("fp16", 0.46)]
    def tol(table):
        study = load(tmp_path / str(len(list(tmp_path.iterdir()))), records=[record("main", rows)], study=spec(tolerances=table))
        return tolerance(study, one(study, kind="latency")), tolerance(study, one(study, kind="coco_ap"))
    assert tol({}) == (0.0, 0.0)
    assert tol({"latency_ms": 0.3}) == (0.3, 0.0)
    assert tol({"latency_ms": 0.3, "latency": 0.2}) == (0.2, 0.0)
    assert tol({"latency_ms": 0.3, "latency": 0.2, "gpu_compute": 0.1, "coco": 0.001}) == (0.1, 0.001)
