"""SG101 ranges of ratios and relative differences read against two columns
(studygen.lint.column_pairs): each reading, in either column order, prints
its own arithmetic (worked out by hand: 10.0 / 8.0 = 1.25, 2.0 / 10.0 = 20%,
2.0 / 8.0 = 25%)."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.column_pairs import pairs
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
