"""SG107 best-of claims over variants as columns (studygen/lint/best_columns.py): "int8 is the fastest at
2.40 ms" where int8 is a column header and the figure one of its cells, ranked across that cell's row.
Documents and numbers of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# a row per configuration, a column per variant, then a ratio and a percentage column (as the generic
# template prints them); at batch 1 bf16 (3.05 ms) beats int8 (3.40 ms), at batch 16 int8 is the fastest
BOARD = """\
### Decoder step time

| GPU / batch | bf16 (ms) | int8 (ms) | bf16 / int8 | int8 saves |
|---|---:|---:|---:|---:|
| L40S / 1 | 3.05 | 3.40 | 0.90x | -11% |
| L40S / 16 | 11.8 | 7.25 | 1.63x | 39% |

"""


def _sg107(sentence: str, table: str = BOARD) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    "int8 is the fastest at 3.40 ms.",
    "The fastest is int8 at 3.40 ms.",
    "On the L40S, int8 leads at 3.40 ms.",
])
def test_a_winner_named_by_its_column_is_ranked_across_the_figures_row(sentence):
    (message,) = _sg107(sentence)
    assert ("names 'int8 (ms)' the smallest of 2 variant columns in row 'L40S / 1' of the table at line 3, "
            "but 'bf16 (ms)' has 3.05") in message


def test_variants_of_one_letter_are_counted_once():
    # a header of no keyword ("A (ms)") is still one column of the row's three, not its own peer
    table = ("| shape | A (ms) | B (ms) | C (ms) |\n|---|---:|---:|---:|\n| 512 | 3.40 | 3.10 | 4.25 |\n"
             "| 1024 | 9.80 | 11.2 | 10.5 |\n\n")
    (message,) = _sg107("B is the fastest at 11.2 ms.", table)
    assert message.endswith("'B (ms)' the smallest of 3 variant columns in row '1024' of the table at line 1, "
                            "but 'A (ms)' has 9.80; 'C (ms)' has 10.5")


def test_the_trials_shape_is_reported():
    # fp32 quoted as the fastest where fp16's cell of the same row is a tenth of a microsecond lower
    table = ("| GPU / shape / batch | fp32 (ms) | fp16 (ms) | fp32 / fp16 |\n|---|---:|---:|---:|\n"
             "| RTX 2060 / 32 x 32 / 1 | 0.2814 | 0.2807 | 1.00x |\n| RTX 2060 / 32 x 32 / 4 | 0.6120 | 0.4475 | 1.37x |\n\n")
    (message,) = _sg107("fp32 is the fastest at 0.2814 ms.", table)
    assert "names 'fp32 (ms)' the smallest of 2 variant columns in row 'RTX 2060 / 32 x 32 / 1'" in message
    assert message.endswith("but 'fp16 (ms)' has 0.2807")
    assert _sg107("fp16 is the fastest at 0.2807 ms.", table) == []


@pytest.mark.parametrize("sentence", [
    "int8 is the fastest at 7.25 ms.",  # batch 16: int8 does beat bf16's 11.8 ms
    "bf16 is the fastest at 3.05 ms.",
    "The lowest step time is bf16's 3.05 ms.",
])
def test_a_right_claim_is_not_reported(sentence):
    assert _sg107(sentence) == []


def test_a_tie_within_the_rounding_is_no_contradiction():
    # fp16's 4.1 stands for 4.05 to 4.15 ms, which holds fp8's 4.12: lower as printed, not beyond the digits
    table = "| model | fp16 (ms) | fp8 (ms) |\n|---|---:|---:|\n| vit-b | 4.1 | 4.12 |\n| vit-l | 9.90 | 8.75 |\n\n"
    assert _sg107("fp8 is the fastest at 4.12 ms.", table) == []
    (message,) = _sg107("fp16 is the fastest at 9.90 ms.", table)
    assert "'fp8 (ms)' has 8.75" in message


def test_ratio_percentage_and_derived_columns_are_no_variants():
    # the ratio (0.90x), the percentage (-11%), the two differences in ms (-0.35, 0.35) and the launch latency
    # (0.12 ms) are all below bf16's 3.05 ms; none of them is a variant's time
    table = ("| GPU / batch | bf16 (ms) | int8 (ms) | bf16 / int8 | int8 saves | saved (ms) | int8-bf16 (ms) | "
             "launch latency (ms) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
             "| L40S / 1 | 3.05 | 3.40 | 0.90x | -11% | -0.35 | 0.35 | 0.12 |\n"
             "| L40S / 16 | 11.8 | 7.25 | 1.63x | 39% | 4.55 | -4.55 | 0.13 |\n\n")
    assert _sg107("bf16 is the fastest at 3.05 ms.", table) == []
    (message,) = _sg107("int8 is the fastest at 3.40 ms.", table)
    assert "of 2 variant columns" in message and "'bf16 (ms)' has 3.05" in message
    assert "saved" not in message and "0.90" not in message


def test_a_column_of_another_unit_is_no_peer():
    # a throughput column beside the times (410 img/s), and a time in seconds whose figure (0.0042) is smaller
    # than 3.40 though it stands for 4.2 ms: neither is ranked against the milliseconds
    table = ("| GPU | int8 (ms) | fp8 (ms) | fp8 (img/s) | fp4 (s) |\n|---|---:|---:|---:|---:|\n"
             "| L40S | 3.40 | 3.95 | 410 | 0.0042 |\n| A10 | 6.10 | 6.70 | 240 | 0.0071 |\n\n")
    assert _sg107("int8 is the fastest at 3.40 ms.", table) == []


def test_a_cell_of_two_figures_is_neither_ranked_nor_a_peer():
    # "2.95 / 3.80" does not say which figure is the variant's (a mean and a p99, two runs)
    table = ("| GPU | int8 (ms) | fp16 (ms) | fp8 (ms) |\n|---|---:|---:|---:|\n| L40S | 3.40 | 2.95 / 3.80 | 2.80 |\n"
             "| A10 | 6.10 | 5.60 / 6.90 | 5.95 |\n\n")
    assert _sg107("fp16 is the fastest at 2.95 ms.", table) == []
    (message,) = _sg107("int8 is the fastest at 3.40 ms.", table)
    assert "of 2 variant columns" in message and message.endswith("but 'fp8 (ms)' has 2.80")


def test_a_range_cell_beats_the_figure_only_with_both_ends():
    # the generic template prints two jobs' figures as a range: 3.10 to 3.60 straddles int8's 3.40
    table = ("| GPU | int8 (ms) | fp6 (ms) |\n|---|---:|---:|\n| L40S | 3.40 | 3.10 to 3.60 (2 jobs: a, b) |\n"
             "| A10 | 6.10 | 5.45 to 5.90 (2 jobs: c, d) |\n\n")
    assert _sg107("int8 is the fastest at 3.40 ms.", table) == []
    (message,) = _sg107("int8 is the fastest at 6.10 ms.", table)
    assert message.endswith("in row 'A10' of the table at line 1, but 'fp6 (ms)' has 5.45 to 5.90")


def test_a_figure_printed_in_two_rows_of_the_column_needs_the_row_named():
    # 5.20 ms stands in int8's column at batch 1 and at batch 2; at batch 1 fp16 is faster
    table = ("| batch | fp16 (ms) | int8 (ms) |\n|---:|---:|---:|\n| 1 | 4.90 | 5.20 |\n| 2 | 6.05 | 5.20 |\n"
             "| 4 | 9.30 | 8.80 |\n| 8 | 12.1 | 12.6 |\n\n")
    assert _sg107("int8 is the fastest at 5.20 ms.", table) == []
    (message,) = _sg107("At batch 1, int8 is the fastest at 5.20 ms.", table)
    assert "in row '1'" in message and "'fp16 (ms)' has 4.90" in message
    assert _sg107("At batch 2, int8 is the fastest at 5.20 ms.", table) == []
    # a row named that is not the figure's own (12.6 ms is batch 8's): which row is meant is unclear
    assert _sg107("At batch 4, int8 is the fastest at 12.6 ms.", table) == []


@pytest.mark.parametrize("sentence", [
    "int8 is one of the fastest at 3.40 ms.",  # hedged
    "int8 is not the fastest at 3.40 ms.",  # denied
    "Among the quantized builds, int8 is the fastest at 3.40 ms.",  # a restricted set
    "int8 is the fastest at 3.40 ms once warm-up is counted.",  # a judged set
    "int8 is the fastest at 7.25 ms; bf16 trails.",
    "bf16 is the fastest at 3.40 ms.",  # int8's figure: the claim names another column than the one printing it
    "bf16 is the fastest at 11.8 ms vs int8.",  # a second variant named: its part in the set is left unread
])
def test_what_the_row_reading_leaves_unread_stays_unread(sentence):
    assert _sg107(sentence) == []


def test_a_peak_keeps_its_column_and_is_read_down_it():
    # "peaks" ranks int8's rows (the largest time is batch 16's), never the row's other variants
    (message,) = _sg107("int8 peaks at 3.40 ms.")
    assert "names row 'L40S / 1' the largest 'int8 (ms)' of 2 rows" in message and "row 'L40S / 16' has 7.25" in message
    assert "variant columns" not in message


def test_a_per_row_extreme_column_is_neither_ranked_nor_a_peer():
    table = ("| GPU | fp16 (ms) | int8 (ms) | best of 5 (ms) |\n|---|---:|---:|---:|\n| A10 | 8.10 | 7.20 | 6.95 |\n"
             "| L4 | 9.40 | 8.60 | 8.15 |\n\n")
    assert _sg107("int8 is the fastest at 7.20 ms.", table) == []
