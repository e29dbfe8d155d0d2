"""benchmarks/shard_interference.py: which cells of two shards agree with the same cells measured
alone (repeat-median ranges overlap), and how long the shards ran at the same time; figures by hand.
What the benchmark prints for a GPU run is its output, never asserted here."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("shard_interference", REPO / "benchmarks" / "shard_interference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cell(variant, value_ms, repeats=None, shape="800x800"):
    result = {"kind": "latency", "variant": variant, "shape": shape, "mode": "eager", "statistic": "median",
              "timing": "gpu_compute", "value_ms": value_ms}
    if repeats is not None:
        result["distribution"] = {"repeat_medians_ms": repeats}
    return result


def doc(job, results, started="2026-12-01T13:00:00+00:00", wall_s=100.0):
    return {"job_id": job, "results": results, "provenance": {"collected_at": started, "run_wall_s": wall_s}}


def test_cells_agree_when_their_repeat_ranges_overlap(bench):
    shard1 = doc("j-shard1of2", [cell("fp16", 20.6, [20.1, 21.0]), cell("fp32", 21.4, [21.3, 21.5])])
    shard2 = doc("j-shard2of2", [cell("fp16", 27.5, [27.0, 28.0], "800x1067"), cell("bf16", 20.7),
                                 {"kind": "not_measured", "variant": "fp8", "metric": "latency"}])
    alone = doc("alone", [cell("fp16", 21.0, [21.0, 21.2]), cell("fp32", 20.0, [19.5, 21.29]),
                          cell("fp16", 27.0, [26.0, 26.99], "800x1067"), cell("bf16", 20.5, [20.4, 20.6])])
    rows = bench.compare([shard1, shard2], alone)
    assert [(r["job"], r["variant"], r["shape"], r["agrees"]) for r in rows] == [
        ("j-shard1of2", "fp16", "800x800", True),     # 20.1-21.0 against 21.0-21.2: they touch
        ("j-shard1of2", "fp32", "800x800", False),    # 21.3-21.5 against 19.5-21.29
        ("j-shard2of2", "fp16", "800x1067", False),   # 27.0-28.0 against 26.0-26.99
        ("j-shard2of2", "bf16", "800x800", None)]     # no repeat medians in the shard
    assert rows[0]["difference_ms"] == pytest.approx(-0.4) and rows[0]["difference_percent"] == pytest.approx(-40 / 21)
    assert rows[1]["difference_ms"] == pytest.approx(1.4) and rows[1]["difference_percent"] == pytest.approx(7.0)


def test_a_cell_the_alone_run_lacks_is_left_out(bench):
    assert bench.compare([doc("s", [cell("fp8", 9.0, [9.0])])], doc("alone", [cell("fp16", 8.0, [8.0])])) == []
    other_statistic = {**cell("fp16", 8.5, [8.5]), "statistic": "p90"}
    assert bench.compare([doc("s", [other_statistic])], doc("alone", [cell("fp16", 8.0, [8.0])])) == []


def test_the_shards_overlap_in_time(bench):
    first = doc("a", [], "2026-12-01T13:00:00+00:00", 100.0)
    second = doc("b", [], "2026-12-01T13:00:30Z", 100.0)       # 30 s later, 100 s long: 70 s together
    assert bench.overlap_s([first, second]) == pytest.approx(70.0)
    later = doc("c", [], "2026-12-01T13:05:00+00:00", 10.0)
    assert bench.overlap_s([first, later]) == 0.0
    assert bench.overlap_s([first, doc("d", [], None, 5.0)]) is None
    assert bench.overlap_s([first, doc("e", [], "2026-12-01T13:00:00+00:00", None)]) is None
    assert bench.overlap_s([]) is None
