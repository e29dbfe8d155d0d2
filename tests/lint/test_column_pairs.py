"""SG101 ranges of ratios and relative differences read against two columns
(studygen.lint.column_pairs): each reading, in either column order, prints
its own arithmetic (worked out by hand: 10.0 / 8.0 = 1.25, 2.0 / 10.0 = 20%,
2.0 / 8.0 = 25%)."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.column_pairs import named_pairs, pairs
from studygen.lint.parse import parse_document

FP8_FIRST = "| GPU | FP8 ms | fp16 ms |\n|---|---|---|\n| B200 | 5.0 | 10.0 |\n| B300 | 6.0 | 10.0 |\n| H100 | 8.0 | 10.0 |\n"
FP16_FIRST = "| GPU | fp16 ms | FP8 ms |\n|---|---|---|\n| B200 | 10.0 | 5.0 |\n| B300 | 10.0 | 6.0 |\n| H100 | 10.0 | 8.0 |\n"


@pytest.mark.parametrize("table, claim, shown, reading", [
    (FP16_FIRST, "FP8 is 1.6x to 2.0x faster than fp16.", "10.0 / 8.0 = 1.25x", "a ratio of 'fp16 ms' and 'FP8 ms'"),
    (FP8_FIRST, "FP8 is 1.6x to 2.0x faster than fp16.", "10.0 / 8.0 = 1.25x", "a ratio of 'FP8 ms' and 'fp16 ms'"),
    (FP16_FIRST, "FP8 cuts latency by 40% to 50% against fp16.", "(10.0 - 8.0) / 10.0 = 20.0%",
     "a relative difference of 'fp16 ms' and 'FP8 ms'"),
    (FP8_FIRST, "FP8 cuts latency by 40% to 50% against fp16.", "(10.0 - 8.0) / 10.0 = 20.0%",
     "a relative difference of 'FP8 ms' and 'fp16 ms'"),
    (FP16_FIRST, "FP8 is 67% to 100% faster than fp16.", "(10.0 - 8.0) / 8.0 = 25.0%",
     "a relative difference of 'fp16 ms' and 'FP8 ms'"),
    (FP8_FIRST, "FP8 is 67% to 100% faster than fp16.", "(10.0 - 8.0) / 8.0 = 25.0%",
     "a relative difference of 'FP8 ms' and 'fp16 ms'"),
])
def test_each_reading_prints_its_arithmetic(table, claim, shown, reading):
    (finding,) = lint_text("# Speed\n\n" + table + "\n" + claim + "\n", "x.md")
    assert finding.code == "SG101" and finding.line == 9
    assert finding.message.endswith(f"leaves out row 'H100' ({shown}) of {reading} in the table at line 3")


def test_a_difference_range_prints_the_subtraction():
    (finding,) = lint_text("# Speed\n\n" + FP16_FIRST + "\nFP8 saves 4.0 to 5.0 ms against fp16.\n", "x.md")
    assert "leaves out row 'H100' (10.0 - 8.0 = 2.0 ms) of a difference of 'fp16 ms' and 'FP8 ms'" in finding.message


def test_two_columns_named_by_one_word_and_their_unit_are_a_pair():
    # "fp16 ms" and "FP8 ms" share only their unit; a saving range names neither column's quantity
    (finding,) = lint_text("# Speed\n\n" + FP16_FIRST + "\nFP8 saves 4.0 to 5.0 ms.\n", "x.md")
    assert "leaves out row 'H100' (10.0 - 8.0 = 2.0 ms) of a difference of 'fp16 ms' and 'FP8 ms'" in finding.message
    assert lint_text("# Speed\n\n" + FP16_FIRST + "\nFP8 saves 2.0 to 5.0 ms.\n", "x.md") == []


def test_a_difference_in_the_other_column_order_prints_its_subtraction():
    (finding,) = lint_text("# Speed\n\n" + FP8_FIRST + "\nFP8 saves 4.0 to 5.0 ms.\n", "x.md")
    assert "leaves out row 'H100' (10.0 - 8.0 = 2.0 ms) of a difference of 'FP8 ms' and 'fp16 ms'" in finding.message


def _pairs_of(table_text: str, unit):
    table = parse_document(table_text, "x.md").tables[0]
    return [(a.header, b.header) for a, b in pairs(table, unit)]


def test_which_columns_pair():
    # medians pair (a p50 is a plain value); max columns do not
    medians = "| GPU | median fp16 ms | median FP8 ms | max fp16 ms |\n|---|---|---|---|\n| B200 | 10.0 | 8.0 | 12.0 |\n| B300 | 9.0 | 7.0 | 11.0 |\n"
    assert _pairs_of(medians, "ms") == [("median fp16 ms", "median FP8 ms")]
    # one word each pairs; one word against two unrelated words does not; a shared word with five others apart does not
    words = ("| GPU | eager ms | compiled graph ms | eager graph warm cold first last ms |\n|---|---|---|---|\n"
             "| B200 | 10.0 | 8.0 | 12.0 |\n| B300 | 9.0 | 7.0 | 11.0 |\n")
    assert _pairs_of(words, "ms") == []
    assert _pairs_of(words.replace("compiled graph", "compiled"), "ms") == [("eager ms", "compiled ms")]


def test_the_figures_of_an_arrow_cell_also_pair_with_a_plain_column():
    # "fp16 → FP8 ms" gives two sub-series; each pairs with the other and with "int8 ms" (one word each)
    arrow_first = "| GPU | fp16 → FP8 ms | int8 ms |\n|---|---|---|\n| B200 | 10.0 → 8.0 | 7.0 |\n| B300 | 9.0 → 7.0 | 6.0 |\n"
    assert _pairs_of(arrow_first, "ms") == [("fp16 ms", "FP8 ms"), ("fp16 ms", "int8 ms"), ("FP8 ms", "int8 ms")]
    plain_first = "| GPU | int8 ms | fp16 → FP8 ms |\n|---|---|---|\n| B200 | 7.0 | 10.0 → 8.0 |\n| B300 | 6.0 | 9.0 → 7.0 |\n"
    assert _pairs_of(plain_first, "ms") == [("int8 ms", "fp16 ms"), ("int8 ms", "FP8 ms"), ("fp16 ms", "FP8 ms")]
    # two arrow columns pair only figure for figure (fp16 with eager, FP8 with compiled); both still pair with int8
    two_arrows = ("| GPU | fp16 → FP8 ms | eager → compiled ms | int8 ms |\n|---|---|---|---|\n"
                  "| B200 | 10.0 → 8.0 | 9.0 → 6.0 | 7.0 |\n| B300 | 9.0 → 7.0 | 8.0 → 5.0 | 6.0 |\n")
    assert _pairs_of(two_arrows, "ms") == [
        ("fp16 ms", "FP8 ms"), ("fp16 ms", "eager ms"), ("fp16 ms", "int8 ms"), ("FP8 ms", "compiled ms"), ("FP8 ms", "int8 ms"),
        ("eager ms", "compiled ms"), ("eager ms", "int8 ms"), ("compiled ms", "int8 ms")]


NAMED = ("# Speed\n\n| GPU | split-K GEMM ms | plain kernel ms | max plain kernel ms | split-K GEMM % | p50 tiled kernel ms |\n"
         "|---|---|---|---|---|---|\n| B200 | 10.0 | 8.0 | 12.0 | 5.0 | 9.0 |\n| B300 | 9.0 | 7.0 | 11.0 | 4.0 | 8.0 |\n\n"
         "The split-K GEMM saves 1.0 to 2.0 ms against the plain kernel and the tiled kernel.\n")


def test_columns_the_sentence_names_pair_beyond_the_header_pairs():
    document = parse_document(NAMED, "x.md")
    table, sentence = document.tables[0], document.prose[0].sentences[0]
    # header pairs: only the two "kernel" columns of plain values (max is a statistic, % another unit)
    assert [(a.header, b.header) for a, b in pairs(table, "ms")] == [("plain kernel ms", "p50 tiled kernel ms")]
    # named: every ms column of plain values or medians whose words the sentence holds, less that header pair
    assert [(a.header, b.header) for a, b in named_pairs(table, "ms", sentence)] == [
        ("split-K GEMM ms", "plain kernel ms"), ("split-K GEMM ms", "p50 tiled kernel ms")]
    assert [(a.header, b.header) for a, b in named_pairs(table, "%", sentence)] == []


def test_a_row_missing_one_figure_is_left_out_of_the_pair_reading():
    # A100 has no FP8 figure: the difference is read on the three other rows (5.0, 4.0, 2.0 ms)
    table = FP16_FIRST.replace("| B300 |", "| A100 | 10.0 | |\n| B300 |")
    (finding,) = lint_text("# Speed\n\n" + table + "\nFP8 saves 4.0 to 5.0 ms against fp16.\n", "x.md")
    assert finding.line == 10
    assert finding.message.endswith("leaves out row 'H100' (10.0 - 8.0 = 2.0 ms) of a difference of 'fp16 ms' and 'FP8 ms'"
                                    " in the table at line 3")


def test_the_reading_with_most_rows_in_range_wins_counting_the_rounding_edge():
    # fp16/FP8: 4.1/2.0 = 2.05 (on the edge 2.0 + 0.05 of "2.0x"), 9.0/5.0 = 1.8, 5.0/9.0 = 0.56, 4.0/10.0 = 0.40: 2 rows in.
    # FP8/fp16: 0.49, 0.56, 9.0/5.0 = 1.8, 10.0/4.0 = 2.5: 1 row in. The fp16/FP8 reading is shown, its ratios to 2 places.
    table = "| GPU | FP8 ms | fp16 ms |\n|---|---|---|\n| B200 | 2.0 | 4.1 |\n| B300 | 5.0 | 9.0 |\n| H100 | 9.0 | 5.0 |\n| A100 | 10.0 | 4.0 |\n"
    (finding,) = lint_text("# Speed\n\n" + table + "\nFP8 is 1.6x to 2.0x faster than fp16.\n", "x.md")
    assert finding.message == ("range 1.6x to 2.0x leaves out 2 rows: 'H100' (5.0 / 9.0 = 0.56x), 'A100' (4.0 / 10.0 = 0.40x)"
                               " of a ratio of 'FP8 ms' and 'fp16 ms' in the table at line 3")
