"""SG103 on a serving table: a percent change that names its statistic among
columns of one metric, and a ratio written "N x lower TTFT". Tables of our own.

- Batching: the L4's TTFT p50 falls (320.0 - 240.0) / 320.0 = 25%, its p99
  (800.0 - 480.0) / 800.0 = 40%; the A10G's p50 10%, its p99 20%. The row
  reader (studygen.lint.row_variants.measured_series) saw two TTFT columns
  and read neither, though the clause says "p50" or "p99".
- Graphs: the L4's TTFT gives 240 / 160 = 1.5x, the A10G's 300 / 250 = 1.2x;
  the A10G's TPOT rises from 40.0 to 41.0 ms. "N x lower TTFT" named no kind
  the joined-ratio reader knew ("lower" allows any, "TTFT" is no quantity
  word), so it was never read."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

BATCHING = ("# Batching\n\n| GPU | Batching | TTFT p50 (ms) | TTFT p99 (ms) | TPOT p50 (ms) |\n|---|---|---|---|---|\n"
            "| L4 | static | 320.0 | 800.0 | 40.0 |\n| L4 | dynamic | 240.0 | 480.0 | 36.0 |\n"
            "| A10G | static | 500.0 | 900.0 | 50.0 |\n| A10G | dynamic | 450.0 | 720.0 | 45.0 |\n\n")
GRAPHS = ("# Graphs\n\n| GPU | Mode | TTFT (ms) | TPOT (ms) |\n|---|---|---|---|\n"
          "| L4 | eager | 240 | 30.0 |\n| L4 | graphs | 160 | 24.0 |\n"
          "| A10G | eager | 300 | 40.0 |\n| A10G | graphs | 250 | 41.0 |\n\n")


def _sg103(table: str, sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence", [
    "On the L4, dynamic batching cuts the p50 TTFT by 25% compared to static.",
    "On the L4, dynamic TTFT p99 is 40% lower than static.",
    "On the A10G, the dynamic median TTFT is 10% lower than static.",
    # no statistic, or two: which TTFT column is meant is unclear, and nothing is read
    "On the L4, dynamic TTFT is 30% lower than static.",
    "On the L4, dynamic TTFT p50 and p99 are 30% lower than static.",
    # a statistic no column holds
    "On the L4, dynamic TTFT p90 is 30% lower than static.",
])
def test_a_right_or_unclear_statistic_change_is_quiet(sentence):
    assert _sg103(BATCHING, sentence) == []


def test_the_p50_is_read_not_the_p99():
    # 40% is the p99's fall: right for the other column, wrong for the one named
    assert _sg103(BATCHING, "On the L4, dynamic batching cuts the p50 TTFT by 40% compared to static.") == [
        (10, "'cuts the p50 TTFT by 40%' does not follow from the table at line 3: ('static' - 'dynamic') / "
             "'static' of 'TTFT p50 (ms)' gives L4 / dynamic 25.0% (1 row)")]


def test_the_p99_is_read_not_the_p50():
    assert _sg103(BATCHING, "On the A10G, dynamic TTFT p99 is 10% lower than static.") == [
        (10, "'10% lower' does not follow from the table at line 3: ('static' - 'dynamic') / 'static' of "
             "'TTFT p99 (ms)' gives A10G / dynamic 20.0% (1 row)")]


@pytest.mark.parametrize("sentence", [
    "On the L4, graphs has 1.5x lower TTFT than eager.",
    "On the L4, graphs has 1.5x smaller TTFT than eager.",
    "On the A10G, graphs has 1.2x less TTFT than eager.",
    "On the A10G, eager has 1.2x higher TTFT than graphs.",
])
def test_a_right_lower_ratio_is_quiet(sentence):
    assert _sg103(GRAPHS, sentence) == []


def test_a_lower_ratio_of_another_gpu_is_caught():
    # 1.5x is the L4's ratio, said of the A10G
    assert _sg103(GRAPHS, "On the A10G, graphs has 1.5x lower TTFT than eager.") == [
        (10, "1.5x between 'graphs' and 'eager' does not follow from the figures that pair them: row 'A10G / "
             "graphs' in 'TTFT (ms)' (line 8) and row 'A10G / eager' in 'TTFT (ms)' (line 7) give 300 / 250 = 1.2x")]


def test_a_smaller_ratio_reads_the_metric_not_a_size():
    assert _sg103(GRAPHS, "On the L4, graphs has 1.2x smaller TTFT than eager.") == [
        (10, "1.2x between 'graphs' and 'eager' does not follow from the figures that pair them: row 'L4 / "
             "graphs' in 'TTFT (ms)' (line 6) and row 'L4 / eager' in 'TTFT (ms)' (line 5) give 240 / 160 = 1.5x "
             "(1.49x to 1.51x within the printed digits)")]


def test_a_lower_ratio_against_the_figures_direction_is_caught():
    # graphs' TPOT is the higher one on the A10G: 41.0 / 40.0 fits the size, not "lower"
    assert _sg103(GRAPHS, "On the A10G, graphs has 1.02x lower TPOT than eager.") == [
        (10, "1.02x between 'graphs' and 'eager' does not follow from the figures that pair them: row 'A10G / "
             "graphs' in 'TPOT (ms)' (line 8) and row 'A10G / eager' in 'TPOT (ms)' (line 7) give 41.0 / 40.0 = "
             "1.025x (1.022x to 1.028x within the printed digits), the other way round than 'lower' says")]
