"""Columns of two serving metrics in one unit (``TTFT p50 (ms)``, ``TPOT p50
(ms)``) are never the two operands of a percent change (SG103,
prose_changes and variant_pairs); a change between two configurations that
are rows of the table is read in the column the clause names, in the
direction its words give (row_variants.row_change). Every expected figure
is worked out by hand beside it."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.variant_pairs import kind_of_series, metric_kinds

# TTFT: L40S (250 - 200) / 250 = 20.0%, H200 (80 - 60) / 80 = 25.0% (20 / 60 = 33.3% the wrong way round)
# TPOT: L40S (40.0 - 32.0) / 40.0 = 20.0% (8 / 32 = 25.0% the wrong way round), H200 (10.0 - 9.0) / 10.0 = 10.0%
LATENCY = """\
# Decode scheduling study

| GPU | Scheduler | TTFT p50 (ms) | TPOT p50 (ms) |
| --- | --- | --- | --- |
| L40S | eager | 250 | 40.0 |
| L40S | graphs | 200 | 32.0 |
| H200 | eager | 80 | 10.0 |
| H200 | graphs | 60 | 9.0 |

## Findings

"""


def _sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(LATENCY + sentence + "\n", "x.md") if f.code == "SG103"]


def test_two_metrics_of_one_unit_are_no_pair_of_variants():
    # before: "('TTFT p50 (ms)' - 'TPOT p50 (ms)') / 'TTFT p50 (ms)' gives L40S / graphs 84.0%" beside the right one
    assert _sg103("L40S TPOT falls from 40.0 to 32.0 ms with graphs, a 20% reduction.") == []
    assert _sg103("L40S TPOT falls from 40.0 to 32.0 ms with graphs, a 25% reduction.") == [
        "25% does not follow from 40.0 and 32.0 ms: (40.0 - 32.0) / 40.0 = 20% (19.8% to 20.2% within the printed digits)"]


@pytest.mark.parametrize("sentence", [
    "Graphs cuts L40S TTFT by 20% compared to eager.",
    "The H200 graphs TPOT is 10% lower than eager.",
    "The L40S graphs TPOT is 20% lower than eager.",
])
def test_a_right_change_between_two_row_configs_is_quiet(sentence):
    assert _sg103(sentence) == []


@pytest.mark.parametrize("sentence, message", [
    ("Graphs cuts H200 TTFT by 33% compared to eager.",
     "'cuts H200 TTFT by 33%' does not follow from the table at line 3: ('eager' - 'graphs') / 'eager' of "
     "'TTFT p50 (ms)' gives H200 / graphs 25.0% (1 row)"),
    ("The L40S graphs TPOT is 25% lower than eager.",
     "'25% lower' does not follow from the table at line 3: ('eager' - 'graphs') / 'eager' of "
     "'TPOT p50 (ms)' gives L40S / graphs 20.0% (1 row)"),
])
def test_a_wrong_change_between_two_row_configs_is_read_in_its_direction(sentence, message):
    assert _sg103(sentence) == [message]


def test_serving_metric_names_are_time_quantities():
    table = parse_document(LATENCY, "x.md").tables[0]
    assert [kind_of_series(s) for s in table.series] == ["time", "time"]
    assert metric_kinds("graphs cuts H200 TTFT by 33%") == ("time",)
    assert metric_kinds("graphs gives 10% more goodput") == ("throughput",)
    assert metric_kinds("TTFT and goodput") == ()  # two kinds: none


def test_throughput_and_goodput_columns_are_no_pair():
    text = """\
| GPU | Throughput (tok/s) | Goodput (tok/s) |
| --- | --- | --- |
| L40S | 900 | 600 |

On the L40S, throughput is 10% lower under the SLO.
"""
    # before: "('Goodput (tok/s)' - 'Throughput (tok/s)') / 'Goodput (tok/s)' gives L40S -50.0%", goodput read
    # as the configuration throughput is compared with
    assert [f.message for f in lint_text(text, "x.md") if f.code == "SG103"] == []


def test_rows_of_one_gpu_pair_up_when_no_gpu_is_named():
    # L40S 20.0% and H200 25.0%: a plain figure over both rows lies within their span
    assert _sg103("Graphs cuts TTFT by 22% compared to eager.") == []
    assert _sg103("Graphs cuts TTFT by 30% compared to eager.") == [
        "'cuts TTFT by 30%' does not follow from the table at line 3: ('eager' - 'graphs') / 'eager' of "
        "'TTFT p50 (ms)' gives L40S / graphs 20.0%, H200 / graphs 25.0% (2 rows)"]
