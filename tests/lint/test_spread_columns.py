"""SG103 and a column group holding the spread of its measurement
(studygen.lint.table_model.is_spread_column).

An unseen results report printed "| Library | Mean Time (us) | Std Dev (us) |
Relative Performance |", the relative column "1.00x (baseline)" on one row and
the time over that row's time on the others, one of them off by a digit. The
layout read the group's two data columns as a pair (the standard deviation
against the mean) that fits no row, so the column had no definition and the
wrong cell went unreported. A standard deviation, a CV or a confidence
interval is the spread of the column before it, never an operand: the group
skips it. Our own tables below (times in ms: 40.0 / 12.5 = 3.20, 40.0 / 25.0 =
1.60, 40.0 / 8.0 = 5.00).
"""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.table_model import is_spread_column

BASELINE = """# Decoders

| Decoder | Time (ms) | {spread} | Relative |
|---|---|---|---|
| plain | 40.0 | 1.1 | 1.00x (baseline) |
| cached | 25.0 | 0.9 | {cached} |
| fused | 12.5 | 0.4 | 3.20x faster |
"""

PAIRS = """# Precisions

| Layer | fp32 (ms) | fp32 std (ms) | int8 (ms) | int8 std (ms) | Speedup |
|---|---|---|---|---|---|
| conv1 | 40.0 | 1.2 | 8.0 | 0.4 | {conv1} |
| conv2 | 30.0 | 0.9 | 12.0 | 0.5 | 2.50x |
| fc | 12.0 | 0.3 | 6.0 | 0.2 | 2.00x |
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_a_standard_deviation_column_leaves_the_time_against_the_baseline_row():
    assert _sg103(BASELINE.format(spread="Std Dev (ms)", cached="1.70x faster")) == [
        (6, "row 'cached': 'Relative' is 1.70x but 'Time (ms)' against the baseline row 'plain' gives 40.0 / 25.0 = 1.60x "
            "(1.595x to 1.605x within the printed digits) (the table's layout declares it, the column before its spread "
            "column against the 1x row, and it fits the column's other row)"),
    ]


def test_the_right_cells_beside_a_spread_column_are_quiet():
    for spread in ("Std Dev (ms)", "stdev", "CV (%)", "95% CI (ms)", "σ (ms)"):
        assert _sg103(BASELINE.format(spread=spread, cached="1.60x faster")) == [], spread


def test_a_column_group_of_two_measurements_each_with_its_spread_pairs_the_measurements():
    # fp32 over int8: 40.0 / 8.0 = 5.00, 30.0 / 12.0 = 2.50, 12.0 / 6.0 = 2.00; conv1 printed 4.00x is wrong
    assert [line for line, _ in _sg103(PAIRS.format(conv1="4.00x"))] == [5]
    assert _sg103(PAIRS.format(conv1="5.00x")) == []


def test_order_statistics_stay_measurements():
    assert [is_spread_column(h) for h in ("Min (ms)", "max", "p99 (ms)", "Percentile", "Mean (ms)", "Speedup")] == [
        False, False, False, False, False, False]
    assert [is_spread_column(h) for h in ("Std Dev (us)", "stdev", "CV", "95% CI", "IQR", "± (ms)", "Variance")] == [
        True, True, True, True, True, True, True]
