"""Rate units (studygen.lint.figures.RATE_UNITS): requests, queries,
samples, sequences and iterations per second and the bandwidths are read as
figures of a rate, higher being the better as for tokens/s; ``GB/s`` is a
bandwidth, never the size ``GB``. And the direction of a speedup row's
recomputed ratio in a table whose rows are metrics: a time's speedup is
old / new, a rate's new / old.

Figures worked out by hand: 8.00 / 6.40 req/s is +25.0%, not +20.0%;
55.0 / 44.0 GB/s is 1.25x; a speedup of 820 / 410 ms is 2.00x and of
615 / 410 tok/s is 1.50x.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import RATE_UNITS, commensurable_units, figures_of
from studygen.lint.variant_pairs import SIZE, THROUGHPUT, kind_of_unit

# A load test whose rows are metrics, each cell printing its own unit; the request rate's change is wrong.
RATE_ROW = """# Gateway load test

| Metric | Baseline | Tuned | Change |
|---|---|---|---|
| Mean latency | 240 ms | 180 ms | -25.0% |
| Request rate | 6.40 req/s | 8.00 req/s | +20.0% |
| Peak memory | 30.0 GB | 33.0 GB | +10.0% |
"""
# A step time and a throughput under one speedup column; the throughput's speedup is wrong.
MIXED_SPEEDUPS = """# Serving check

| Metric | Before | After | Speedup |
|---|---|---|---|
| Step time | 820 ms | 410 ms | 2.00x |
| Throughput | 410 tok/s | 615 tok/s | 1.70x |
"""
# The same rows with the step time's speedup wrong and the throughput's right.
MIXED_TIME_WRONG = MIXED_SPEEDUPS.replace("2.00x", "2.40x").replace("1.70x", "1.50x")
# The same rows under a column that names its ratio: after over before on every row, whatever the row measures.
NAMED_RATIO = MIXED_SPEEDUPS.replace("| Speedup |", "| After / Before |").replace("2.00x", "0.50x")
# Three times, the last speedup wrong (90 / 60 = 1.50x): rows of one direction are recomputed as the column is.
TIMES_ONLY = """# Serving check

| Metric | Before | After | Speedup |
|---|---|---|---|
| Step time | 820 ms | 410 ms | 2.00x |
| Prefill time | 300 ms | 200 ms | 1.50x |
| Decode time | 90 ms | 60 ms | 1.20x |
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_rate_units_are_read_with_their_unit():
    text = "4.0 req/s, 1200 QPS, 300 samples/s, 64 seq/s, 7.5 it/s, 5 GB/s, 2.5 TB/s, 12 tokens/sec and 30 GB"
    assert [(f.text, f.unit) for f in figures_of(text)] == [
        ("4.0", "requests/s"), ("1200", "queries/s"), ("300", "samples/s"), ("64", "sequences/s"),
        ("7.5", "iterations/s"), ("5", "GB/s"), ("2.5", "TB/s"), ("12", "tokens/s"), ("30", "GB"),
    ]


def test_every_rate_is_a_throughput_and_a_bandwidth_no_size():
    assert {"tokens/s", "images/s", "requests/s", "queries/s", "GB/s", "TB/s"} <= RATE_UNITS
    assert {kind_of_unit(unit) for unit in RATE_UNITS} == {THROUGHPUT}
    assert kind_of_unit("GB") == SIZE
    assert commensurable_units("GB/s") == ("MB/s", "TB/s")


def test_a_wrong_change_on_a_request_rate_row_is_found():
    assert _sg103(RATE_ROW) == [(6, "row 'Request rate': 'Change' is +20.0% but 'Tuned' and 'Baseline' give "
                                    "(8.00 - 6.40) / 6.40 = 25.0% (24.82% to 25.18% within the printed digits) "
                                    "(the table's layout declares it, the column before it against the first of "
                                    "its column group, and it fits the column's other 2 rows)")]
    assert _sg103(RATE_ROW.replace("+20.0%", "+25.0%")) == []


@pytest.mark.parametrize("ratio, found", [("1.40x", True), ("1.25x", False)])
def test_a_bandwidth_speedup_in_prose_is_read_against_its_rates(ratio, found):
    text = f"# Copy engine\n\nThe new copy kernel moves 55.0 GB/s against 44.0 GB/s before, {ratio} faster.\n"
    expected = [(3, "1.40x does not follow from 55.0 and 44.0 GB/s: 55.0 / 44.0 = 1.25x (1.247x to 1.253x within "
                    "the printed digits) or 44.0 / 55.0 = 0.80x (0.798x to 0.802x within the printed digits)")]
    assert _sg103(text) == (expected if found else [])


def test_a_rate_rows_speedup_is_recomputed_new_over_old():
    assert _sg103(MIXED_SPEEDUPS) == [(6, "row 'Throughput': 'Speedup' is 1.70x but 'Before' and 'After' give "
                                          "615 / 410 = 1.50x (1.497x to 1.503x within the printed digits) (the "
                                          "table's layout declares it, the column before it against the first of "
                                          "its column group, and it fits the column's other row)")]
    assert _sg103(MIXED_SPEEDUPS.replace("1.70x", "1.50x")) == []


def test_a_time_rows_speedup_under_rate_rows_is_recomputed_old_over_new():
    assert _sg103(MIXED_TIME_WRONG) == [(5, "row 'Step time': 'Speedup' is 2.40x but 'After' and 'Before' give "
                                            "820 / 410 = 2.00x (1.996x to 2.004x within the printed digits) (the "
                                            "table's layout declares it, the column before it against the first "
                                            "of its column group, and it fits the column's other row)")]


def test_a_column_naming_its_ratio_recomputes_every_row_as_named():
    assert _sg103(NAMED_RATIO) == [(6, "row 'Throughput': 'After / Before' is 1.70x but 'After' and 'Before' give "
                                       "615 / 410 = 1.50x (1.497x to 1.503x within the printed digits) (its header "
                                       "declares it, its header names both columns, and it fits the column's other "
                                       "row)")]


def test_a_speedup_row_of_the_columns_own_direction_is_recomputed_as_the_column_is():
    assert _sg103(TIMES_ONLY) == [(7, "row 'Decode time': 'Speedup' is 1.20x but 'Before' and 'After' give "
                                      "90 / 60 = 1.50x (1.479x to 1.521x within the printed digits) (the table's "
                                      "layout declares it, the column before it against the first of its column "
                                      "group, and it fits the column's other 2 rows)")]
