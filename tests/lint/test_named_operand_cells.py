"""SG103 and a derived column whose cells name the column each was computed
against (studygen.lint.named_operands).

An unseen benchmark printed a "Best Speedup" column: the baseline time over
whichever candidate was fastest in that row, the candidate named after the
figure ("3.20x (Flash)"). Lint took the pair of columns that gave two of the
three rows as the column's definition and reported every row naming the
other candidate: fifteen false errors on a right document. Our own tables
below: eager over the named column gives every row (2.00 / 1.00, 4.00 /
1.00, 6.00 / 2.40).
"""

from __future__ import annotations

from studygen.lint import lint_text

TABLE = """# Kernels

| Pass | eager (ms) | compiled (ms) | fused (ms) | Best speedup |
|---|---|---|---|---|
| Forward | 2.00 | 1.60 | 1.00 | {forward} (fused) |
| Backward | 4.00 | 1.00 | 2.00 | {backward} (compiled) |
| Total | 6.00 | 2.40 | 3.00 | {total} (compiled) |
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


def test_cells_naming_their_operand_column_are_each_read_against_it():
    assert _sg103(TABLE.format(forward="2.00x", backward="4.00x", total="2.50x")) == []


def test_a_row_its_named_column_does_not_give_is_reported_against_that_column():
    assert _sg103(TABLE.format(forward="2.60x", backward="4.00x", total="2.50x")) == [
        (5, "row 'Forward': 'Best speedup' is 2.60x but 'eager (ms)' and 'the column its cell names' give "
            "2.00 / 1.00 = 2.00x (1.985x to 2.015x within the printed digits) (that formula fits the column's other 2 rows)"),
    ]


def test_a_row_naming_the_majority_pair_is_still_reported():
    assert [line for line, _ in _sg103(TABLE.format(forward="2.00x", backward="4.60x", total="2.50x"))] == [6]


def test_cells_that_all_name_one_column_add_nothing():
    # one named column throughout is an ordinary pair: eager over fused, and the last row is wrong
    text = TABLE.replace("(compiled)", "(fused)").format(forward="2.00x", backward="2.00x", total="2.50x")
    assert [line for line, _ in _sg103(text)] == [7]


def test_words_after_the_figure_that_name_two_columns_name_none():
    # "fused vs compiled" names two columns: no cell names its operand, and the majority pair is reported as before
    text = TABLE.replace("(fused)", "(fused vs compiled)").format(forward="2.00x", backward="4.00x", total="2.50x")
    assert [line for line, _ in _sg103(text)] == [5]
