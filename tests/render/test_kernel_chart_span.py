"""The kernel-time figure when its bars' totals lie far apart (issue 22 leftover, generic-defects 9 and 10):
a batch-1 profile of 1.96 ms beside a batch-128 one of 92.3 ms on one linear axis left the small bars a
sliver. Beyond SPAN_LIMIT the figure shows each group's share of its bar's total, the totals printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from studygen.checks import run_checks
from studygen.render.charts import SPAN_LIMIT, kernel_chart, three_digits
from studygen.render.drawing import draw_kernel_times
from studygen.render.engine import render_study, write_rendered
from studygen.render.share_bars import draw_kernel_shares
from studygen.study import load_study

from ..checks.studies import kernel_time, record
from .test_generic_issue22 import generic

REPO = Path(__file__).resolve().parents[2]


def test_the_jetson_batches_are_drawn_as_shares_with_their_totals():
    study = load_study(REPO / "families" / "jetson_trt7_googlenet", REPO)
    chart = kernel_chart(study)
    assert chart.draw.func is draw_kernel_shares
    bars, groups, totals = chart.draw.args
    # the "total" rows of the README's kernel table: 1.96335148, 4.31349179, 7.10382728, 12.9110432,
    # 24.2973083, 46.9859961, 92.2963383 ms
    assert totals == ["1.96 ms", "4.31 ms", "7.10 ms", "12.9 ms", "24.3 ms", "47.0 ms", "92.3 ms"]
    assert [label.rsplit(" ", 1)[1] for label, _ in bars] == ["1", "4", "8", "16", "32", "64", "128"]
    batch1 = bars[0][1]
    assert sum(batch1.values()) == pytest.approx(100)
    assert batch1["convolution"] == pytest.approx(100 * 1.2823319 / 1.96335148)  # 65.31 %
    # pooling grows with the batch: 0.2847513 of 1.96335148 ms at batch 1, 22.340615 of 92.2963383 ms at 128
    assert batch1["pooling"] == pytest.approx(100 * 0.2847513 / 1.96335148)  # 14.50 %
    assert bars[6][1]["pooling"] == pytest.approx(100 * 22.340615 / 92.2963383)  # 24.21 %
    assert chart.alt == ("Kernel time per group as a percentage of each run's total, stacked per variant, for 7 "
                         "profiled runs whose totals (1.96 to 92.3 ms, printed above the bars) differ more than "
                         "10-fold; groups: LRN, classifier, concat copy, convolution, pooling, reformat, softmax")


@pytest.mark.parametrize("family", ["jetson_trt7_googlenet", "bert_small_h100_mi300x", "deformable_detr_h200_torch"])
def test_the_committed_kernel_figures_are_current(family):
    # the bert (totals 1.26 times apart) and H200 (2.84 times) figures stay in ms, byte for byte
    study = load_study(REPO / "families" / family, REPO)
    chart = kernel_chart(study)
    assert chart.is_current((study.study_dir / "figures" / "kernel_time.svg").read_bytes())
    assert (chart.draw.func is draw_kernel_shares) == (family == "jetson_trt7_googlenet")


def bars_of(tmp_path, totals):
    results = [kernel_time("fp16", {"Conv": 0.75 * t, "other": 0.25 * t}, "224x224", batch=b)
               for b, t in zip((1, 128), totals)]
    return kernel_chart(generic(tmp_path, [record("xavier", results)]))


def test_totals_exactly_at_the_limit_stay_in_ms(tmp_path):
    chart = bars_of(tmp_path, (2.0, 2.0 * SPAN_LIMIT))
    assert chart.draw.func is draw_kernel_times
    assert [timed for _, timed in chart.draw.args[0]] == [{"Conv": 1.5, "other": 0.5}, {"Conv": 15.0, "other": 5.0}]
    assert chart.alt.startswith("Kernel time per group, stacked per variant, for 2 profiled runs;")


def test_totals_past_the_limit_become_shares(tmp_path):
    chart = bars_of(tmp_path, (2.0, 2.0 * SPAN_LIMIT + 0.5))
    assert chart.draw.func is draw_kernel_shares
    assert [shares for _, shares in chart.draw.args[0]] == [{"Conv": 75.0, "other": 25.0}] * 2
    assert chart.draw.args[2] == ["2.00 ms", "20.5 ms"]
    assert "(2.00 to 20.5 ms, printed above the bars) differ more than 10-fold" in chart.alt


def test_a_run_with_no_kernel_time_beside_one_with_some_is_a_share_chart(tmp_path):
    results = [kernel_time("fp16", {"Conv": 0.0, "other": 0.0}, "224x224", batch=1),
               kernel_time("fp16", {"Conv": 3.0, "other": 1.0}, "224x224", batch=8)]
    chart = kernel_chart(generic(tmp_path, [record("x", results)]))
    assert chart.draw.func is draw_kernel_shares
    assert [shares for _, shares in chart.draw.args[0]] == [{"Conv": 0.0, "other": 0.0}, {"Conv": 75.0, "other": 25.0}]
    assert chart.draw.args[2] == ["0 ms", "4.00 ms"]


@pytest.mark.parametrize("ms, text", [(92.2963383, "92.3"), (1.96335148, "1.96"), (0.307197, "0.307"),
                                      (12.9110432, "12.9"), (7.1, "7.10"), (1234.5, "1235"), (0.0, "0"),
                                      # rounding up across a power of ten keeps three digits, not four
                                      (9.996, "10.0"), (0.9996, "1.00"), (99.96, "100")])
def test_three_significant_digits(ms, text):
    assert three_digits(ms) == text


def test_the_share_chart_draws_percentages_and_totals(tmp_path):
    svg = draw_kernel_shares([("a", {"Conv": 75.0, "other": 25.0}), ("b", {"Conv": 40.0, "other": 60.0})],
                             ["Conv", "other"], ["2.00 ms", "92.3 ms"])
    assert svg.startswith(b"<?xml") and b"<svg" in svg
    # matplotlib writes each text drawn as paths after a comment holding it: the y-axis in percent up to 100,
    # one total above each bar, in the bars' order
    texts = re.findall(rb"<!-- (.*?) -->", svg)
    assert [b"0", b"20", b"40", b"60", b"80", b"100"] == [t for t in texts if t.isdigit()]
    assert texts.index(b"2.00 ms") < texts.index(b"92.3 ms") and b"share of the run's kernel time (%)" in texts
    again = draw_kernel_shares([("a", {"Conv": 75.0, "other": 25.0}), ("b", {"Conv": 40.0, "other": 60.0})],
                               ["Conv", "other"], ["2.00 ms", "92.3 ms"])
    assert svg == again  # deterministic bytes, as the stamp needs


def test_the_generated_readme_of_a_share_chart_draws_no_finding(tmp_path):
    results = [kernel_time("fp16", {"Conv": 1.5, "other": 0.46}, "224x224", batch=1, profiled_total_ms=1.96),
               kernel_time("fp16", {"Conv": 70.0, "other": 22.3}, "224x224", batch=128, profiled_total_ms=92.3)]
    study = generic(tmp_path, [record("xavier", results)])
    write_rendered(render_study(study))
    assert "totals (1.96 to 92.3 ms, printed above the bars)" in study.readme_path.read_text()
    readme = study.rel(study.readme_path)
    assert [(f.code, f.message) for f in run_checks(study) if f.file == readme] == []
