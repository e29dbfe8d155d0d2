"""SG107 best-of claims (studygen/lint/best_rows.py): a sentence that says its quoted figure is the peak,
the highest, the fastest or the best of a column, read against the rows its clause means. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# speedup of three runtimes over two batch sizes; the "fused" rows peak at batch 8 (3.10x), batch 1 is 2.45x
SWEEP = """\
| batch | runtime | latency (ms) | speedup |
|---:|---|---:|---:|
| 1 | eager | 9.80 | 1.00x |
| | fused | 4.00 | 2.45x |
| | graph | 3.50 | 2.80x |
| 8 | eager | 62.0 | 1.00x |
| | fused | 20.0 | 3.10x |
| | graph | 22.1 | 2.81x |

"""


def _sg107(sentence: str, table: str = SWEEP) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG107"]


def test_a_peak_is_read_over_the_subjects_rows_with_its_address_left_out():
    (message,) = _sg107("fused peaks at 2.45x (batch 1).")
    assert "names row '1 / fused' the largest 'speedup' of 2 rows" in message
    assert "row '8 / fused' has 3.10" in message and "graph" not in message


def test_a_winner_is_read_over_the_rows_of_the_same_conditions():
    # at batch 1 graph (3.50 ms) beats fused (4.00 ms); batch 8's rows are other conditions
    (message,) = _sg107("fused is the fastest at 4.00 ms.")
    assert "names row '1 / fused' the smallest 'latency (ms)' of 3 rows" in message
    assert "row '1 / graph' has 3.50" in message and "8 /" not in message
    assert _sg107("fused is the fastest at 20.0 ms.") == []  # batch 8: fused is


@pytest.mark.parametrize("sentence", [
    "fused leads at 2.45x.",  # a speedup column: higher is better
    "The best speedup is fused's 2.45x.",
])
def test_better_goes_the_way_of_the_columns_kind(sentence):
    (message,) = _sg107(sentence)
    assert "row '1 / fused' the largest 'speedup' of 3 rows" in message and "row '1 / graph' has 2.80" in message
    assert _sg107(sentence.replace("fused", "graph").replace("2.45", "2.80")) == []


@pytest.mark.parametrize("sentence", [
    "fused is one of the fastest at 4.00 ms.",
    "fused is among the best at 2.45x.",
    "fused is nearly the fastest at 4.00 ms.",
    "fused could be the fastest at 4.00 ms.",
    "fused is not the fastest at 4.00 ms.",
    "fused peaks at about 2.45x.",
    "fused peaks at 2.46x.",  # no cell prints it
    "graph is the second-best at 2.80x.",
    "For batch 1 and batch 8 fused is the fastest at 4.00 ms, except graph.",
])
def test_hedged_denied_or_unresolved_claims_are_not_read(sentence):
    assert _sg107(sentence) == []


def test_a_bound_the_clause_names_restricts_a_peak():
    assert _sg107("For batch <= 1, fused peaks at 2.45x at batch 1.") == []
    (message,) = _sg107("Up to batch 8, fused peaks at 2.45x at batch 1.")
    assert "row '8 / fused' has 3.10" in message


def test_a_tie_as_printed_is_no_contradiction():
    table = "| backend | throughput (tok/s) |\n|---|---:|\n| a | 1,085 |\n| b | 1,085 |\n| c | 640 |\n\n"
    assert _sg107("The highest throughput is a's 1,085 tok/s.", table) == []
    (message,) = _sg107("The highest throughput is c's 640 tok/s.", table)
    assert "row 'a' has 1,085; row 'b' has 1,085" in message


def test_the_column_header_holding_the_word_is_each_rows_own_statistic():
    table = "| run | peak memory (GB) |\n|---|---:|\n| a | 5.9 |\n| b | 7.3 |\n\n"
    assert _sg107("Run a has a peak memory of 5.9 GB.", table) == []
    assert _sg107("Run a reaches its peak at 5.9 GB.", table) == []


def test_rows_that_label_quantities_are_not_ranked():
    table = "| Metric | A | B |\n|---|---|---|\n| Mean latency | 7.3 ms | 7.5 ms |\n| P95 latency | 6.9 ms | 10.1 ms |\n\n"
    assert _sg107("Lowest latency: 7.3 ms mean latency.", table) == []
