"""Ranges over every pair of compilations of two compiled cells, taken from
the cells' ends: a ratio's least and most (``PooledCell.ratio_bounds``), the
gaps of compiled_comparison and the group changes of group_change are the
floats the pairs give, and nothing is kept per pair. Attack case (made-up
figures): two cells of 10,000 compilations each, within the record schema's
limit, made the generic table's ratio cell build 10**8 ratios, 4 GB and 7 s
of check for one cell."""

from __future__ import annotations

import random
import statistics
import tracemalloc

from studygen.study.compilations import Compilation, PooledCell

from .test_host_bound_cells import _pooled_view, torch_latency


def _cell(medians: list[float]) -> PooledCell:
    return PooledCell((), tuple(Compilation("job", i, m, None) for i, m in enumerate(medians, 1)))


def test_ratio_bounds_are_the_least_and_most_quotient_of_every_pair():
    rng = random.Random(7)
    for _ in range(200):
        a = [rng.uniform(0.001, 50.0) for _ in range(rng.randint(1, 6))]
        b = [rng.uniform(0.001, 50.0) for _ in range(rng.randint(1, 6))]
        quotients = [x / y for x in a for y in b]
        assert _cell(a).ratio_bounds(_cell(b)) == (min(quotients), max(quotients))
    # 5.0 and 5.6 ms over 4.0 ms: 1.25x and 1.4x
    assert _cell([5.0, 5.6]).ratio_bounds(_cell([4.0])) == (1.25, 1.4)


def test_a_ratio_cell_of_a_thousand_compilations_a_side_keeps_no_ratio_per_pair(tmp_path):
    # fp32 at 5.000 to 5.999 ms, fp16 at 3.000 to 3.999 ms, a thousand compilations each (medians 5.4995, 3.4995)
    fp32 = [round(5 + i / 1000, 3) for i in range(1000)]
    fp16 = [round(3 + i / 1000, 3) for i in range(1000)]
    view, rows = _pooled_view(tmp_path, [
        torch_latency("fp32", "compile", statistics.median(fp32), 1.0, fp32),
        torch_latency("fp16", "compile", statistics.median(fp16), 1.0, fp16)])
    tracemalloc.start()
    try:
        cell = view._pooled_table_ratio(rows["fp32", "latency"], rows["fp16", "latency"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # 5.4995 / 3.4995 = 1.5715; 5.000 / 3.999 = 1.2503, 5.999 / 3.000 = 1.9997
    assert cell == "1.57x (1000000 pairs of compilations: 1.25x to 2.00x)"
    assert peak < 2_000_000  # a list of the million ratios alone holds about 32 MB


def _kernels(variant: str, gemm_ms: list[float]) -> dict:
    from .test_host_bound_cells import kernels

    result = kernels(variant, "compile", gemm_ms[0])
    result["compilations"] = [{"compilation": i, "profiled_total_ms": ms, "groups": {"GEMM/MatMul": ms}}
                              for i, ms in enumerate(gemm_ms, 1)]
    return result


def test_gaps_and_group_changes_span_every_pair_of_compilations(tmp_path):
    # fp32 compiled at 5.0 and 5.6 ms, fp16 at 3.0 and 3.4: fp16 faster by 5.0 - 3.4 = 1.6 to 5.6 - 3.0 = 2.6 ms;
    # GEMM 2.0 and 2.5 ms against 1.0 and 1.25: fp16 minus fp32 from 1.25 - 2.0 = -0.75 to 1.0 - 2.5 = -1.5
    view, _ = _pooled_view(tmp_path, [torch_latency("fp32", "compile", 5.3, 1.0, [5.0, 5.6]),
                                      torch_latency("fp16", "compile", 3.2, 1.0, [3.0, 3.4]),
                                      _kernels("fp32", [2.0, 2.5]), _kernels("fp16", [1.0, 1.25])])
    assert view.compiled_comparison("fp32", "fp16") == [
        "At 224 x 224, compiled, each of the 2 compilations of fp16 was faster than each of the 2 compilations of "
        "fp32, by 1.600 to 2.600 ms; the medians are 3.200 and 5.300 ms, fp16 minus fp32 -2.100 ms."]
    assert view.compiled_comparison("fp16", "fp32")[0].startswith(
        "At 224 x 224, compiled, each of the 2 compilations of fp32 was slower than each of the 2 compilations of "
        "fp16, by 1.600 to 2.600 ms;")
    assert view.group_change("GEMM/MatMul", "fp32", "fp16") == "0.750 to 1.500 ms less"
    assert view.group_change("GEMM/MatMul", "fp16", "fp32") == "0.750 to 1.500 ms more"
