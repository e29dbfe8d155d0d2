"""SG102 details on small inputs of our own (studygen.lint.sg102_statistic_order):
a column of differences (Δ) under statistic rows, a statistic named twice in
one list, two lists in one sentence, exactly two figures, a statistic word
after the last figure, a slash list after one that does not fit, and the
three rows that decide whether a label column names statistics."""

from __future__ import annotations

from studygen.lint import lint_text


def _sg102(text: str):
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG102"]


def test_a_difference_column_under_statistic_rows_needs_no_order():
    # the Δ column (0.9, 0.2, 0.4) is no distribution; the fp16 column beside it is in order
    table = "# Stats\n\n| statistic | Δ ms | fp16 ms |\n|---|---|---|\n| min | 0.9 | 5.1 |\n| median | 0.2 | 5.3 |\n| p99 | 0.4 | 5.9 |\n"
    assert _sg102(table) == []
    assert _sg102(table.replace("| 5.9 |", "| 5.0 |")) == [
        (7, "'fp16 ms': median 5.3 ms (line 6) exceeds p99 5.0 ms (line 7)")]


def test_a_statistic_named_twice_does_not_stop_the_comparisons_of_the_first():
    assert _sg102("# S\n\nOver two runs: min 6.0 ms, min 5.0 ms and median 5.5 ms.\n") == [
        (3, "min 6.0 ms exceeds median 5.5 ms")]
    # two "min" rows of one quantity: the first is still compared with the median after the second
    table = "# S\n\n| statistic | fp16 ms |\n|---|---|\n| min | 6.0 |\n| min | 5.0 |\n| median | 5.5 |\n"
    assert _sg102(table) == [(7, "'fp16 ms': min 6.0 ms (line 5) exceeds median 5.5 ms (line 7)")]


def test_a_statistic_word_without_a_figure_does_not_end_the_list_after_it():
    assert _sg102("# S\n\nThe median is stable: median 5.3 ms and p99 5.0 ms.\n") == [(3, "median 5.3 ms exceeds p99 5.0 ms")]


def test_each_list_of_a_sentence_is_compared_on_its_own():
    # batch 1's list is out of order; batch 8's (9.0 then 9.5) is not, and batch 1's 5.0 is not compared with 9.0
    assert _sg102("# S\n\nAt batch 1 median 5.3 ms and p99 5.0 ms, while at batch 8 the median 9.0 ms and p99 9.5 ms.\n") == [
        (3, "median 5.3 ms exceeds p99 5.0 ms")]


def test_two_figures_are_enough_for_a_list():
    assert _sg102("# S\n\nThe median 5.3 ms and p99 5.0 ms.\n") == [(3, "median 5.3 ms exceeds p99 5.0 ms")]


def test_a_statistic_word_after_the_last_figure_names_none_of_them():
    assert _sg102("# S\n\nRuns of 5.3 ms and 5.9 ms bound the median.\n") == []


def test_a_slash_list_after_one_that_does_not_fit_is_still_read():
    # "min/max 5.1 ms" names two statistics but gives one figure; the second list is read whole
    assert _sg102("# S\n\nmin/max 5.1 ms, and min/median/max 5.1/5.9/5.3 ms.\n") == [
        (3, "median 5.9 ms exceeds max 5.3 ms")]


def test_a_label_column_names_statistics_only_when_its_first_three_rows_do():
    rows = "| warm | 7.0 |\n| cold | 8.0 |\n| idle | 1.0 |\n| min | 6.0 |\n| median | 5.0 |\n"
    assert _sg102("# S\n\n| row | fp16 ms |\n|---|---|\n" + rows) == []
    # the same rows, "min" among the first three: min 6.0 above median 5.0 is out of order
    moved = "| warm | 7.0 |\n| min | 6.0 |\n| cold | 8.0 |\n| median | 5.0 |\n"
    assert _sg102("# S\n\n| row | fp16 ms |\n|---|---|\n" + moved) == [
        (8, "'fp16 ms': min 6.0 ms (line 6) exceeds median 5.0 ms (line 8)")]


def test_a_pair_within_rounding_does_not_end_the_comparisons_of_its_first_figure():
    # median and p90 print alike (in order within rounding); both still exceed p99
    assert _sg102("# S\n\nThe median 5.3 ms, p90 5.3 ms and p99 5.0 ms.\n") == [
        (3, "median 5.3 ms exceeds p99 5.0 ms; p90 5.3 ms exceeds p99 5.0 ms")]


# A serving page's table by concurrency: rows P1 to P128 count concurrent requests, and TTFT falling from one
# to the next (a queue drained between runs) is no percentile out of order (a public page got a false SG102 for
# each such pair)
CONCURRENCY = ("# Serving\n\n| Concurrency | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| P1 | 52 | 9.1 |\n"
               "| P8 | 3,940 | 21.4 |\n| P32 | 2,810 | 30.2 |\n| P64 | 4,770 | 28.9 |\n| P128 | 9,905 | 47.5 |\n")


def test_a_column_of_p_numbers_past_100_counts_something_else():
    assert _sg102(CONCURRENCY) == []
    # without the P128 row, p1 to p64 alone name no distribution (no min, max, mean, median or p90 and up)
    assert _sg102(CONCURRENCY.replace("| P128 | 9,905 | 47.5 |\n", "")) == []
    # concurrency 16, 50, 100 and 200 (TTFT falling from 16 to 50): P16 and P50 read alone as a percentile and a
    # median out of order; P200 says they are concurrency levels
    levels = ("# Serving\n\n| Concurrency | TTFT (ms) |\n|---|---|\n| P16 | 2,100 |\n| P50 | 1,920 |\n"
              "| P100 | 1,480 |\n| P200 | 6,300 |\n")
    assert _sg102(levels) == []


def test_percentile_rows_with_a_high_percentile_are_still_compared():
    table = "# S\n\n| statistic | fp16 ms |\n|---|---|\n| p25 | 5.0 |\n| p75 | 5.6 |\n| p99 | 5.4 |\n"
    assert _sg102(table) == [(7, "'fp16 ms': p75 5.6 ms (line 6) exceeds p99 5.4 ms (line 7)")]
