"""The latency figure's alt text gives a range per shape, and per batch where
one timing method holds several: a new user's study read "0.03613 to 0.1547
ms" over a batch-1 figure and a batch-4 one, one range over two different
workloads, as if it were the spread of one measurement.

Figures are made up; each expected text is read off the records written here
(the tables print four significant digits, as the alt text does)."""

from __future__ import annotations

from studygen.render.charts import latency_chart

from ..checks.studies import collected_provenance, latency, record
from .test_generic_issue22 import generic


def test_batches_of_one_shape_each_get_their_own_figure(tmp_path):
    # the trial's case: fp32 at batch 1 on the H200, fp16 at batch 4 on a GTX 1070, one method, one shape
    a = record("a", [latency("fp32", 0.03613)])
    b = record("b", [latency("fp16", 0.1547, batch=4)], collected_provenance(gpu="NVIDIA GeForce GTX 1070"))
    assert latency_chart(generic(tmp_path, [a, b])).alt == (
        "Median GPU compute time per variant at 800 x 800: 0.03613 ms at batch 1, 0.1547 ms at batch 4 (2 results)")


def test_a_batch_with_several_figures_gives_their_range_and_batches_go_in_order(tmp_path):
    a = record("a", [latency("fp32", 12.5, batch=8), latency("fp16", 7.25, batch=8), latency("fp32", 2.125),
                     latency("fp16", 1.5)])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 1.5 to 2.125 ms at batch 1, 7.25 to 12.5 ms at batch 8 "
        "(4 results)")


def test_shapes_each_get_their_own_range(tmp_path):
    a = record("a", [latency("fp32", 5.875), latency("fp16", 5.75), latency("fp32", 15.25, "800x1067"),
                     latency("fp16", 13.5, "800x1067")])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 5.75 to 5.875 ms over 2 results; "
        "800 x 1067: 13.5 to 15.25 ms over 2 results")


def test_shapes_and_batches_together(tmp_path):
    a = record("a", [latency("fp32", 5.875), latency("fp32", 15.25, "800x1067", batch=2),
                     latency("fp32", 9.5, "800x1067")])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 5.875 ms at batch 1 (1 result); "
        "800 x 1067: 9.5 ms at batch 1, 15.25 ms at batch 2 (2 results)")


def test_one_shape_and_one_batch_keep_one_range(tmp_path):
    a = record("a", [latency("fp32", 7.5, batch=4), latency("fp16", 5.0, batch=4)])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 5.0 to 7.5 ms over 2 results")


def test_shapes_go_by_their_numbers_not_by_row_order(tmp_path):
    a = record("a", [latency("fp32", 15.25, "800x1067"), latency("fp32", 5.875)])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 5.875 ms over 1 result; "
        "800 x 1067: 15.25 ms over 1 result")


def test_a_figure_without_a_batch_says_so(tmp_path):
    unbatched = {name: value for name, value in latency("fp16", 6.5).items() if name != "batch"}
    a = record("a", [latency("fp32", 5.875), unbatched])
    assert latency_chart(generic(tmp_path, [a])).alt == (
        "Median GPU compute time per variant at 800 x 800: 5.875 ms at batch 1, 6.5 ms at batch not stated "
        "(2 results)")
