"""Small edges of the lint model and of SG103's table check, on inputs of our
own: a numeric column without a header, a line index past the end, and a
derived column's finding with its hint (studygen.lint.columns,
studygen.lint.document, studygen.lint.sg103_derived_figures)."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document


def test_a_numeric_column_without_a_header_is_named_by_its_position():
    document = parse_document("# T\n\n| gpu |  |\n|---|---|\n| b200 | 8.0 |\n| h100 | 9.0 |\n", "x.md")
    (series,) = document.tables[0].series
    assert series.header == "column 2"
    assert [value.text for value in series.values] == ["8.0", "9.0"]


def test_a_line_index_past_the_end_is_refused_like_a_list_would():
    lines = parse_document("# T\n\none\ntwo", "x.md").lines
    assert (len(lines), lines[3], lines[-1]) == (4, "two", "two")
    with pytest.raises(IndexError, match="^line index out of range$"):
        lines[4]
    with pytest.raises(IndexError, match="^line index out of range$"):
        lines[-5]


def test_a_derived_column_finding_names_the_formula_and_gives_the_hint():
    # speedup = fp16 / int8 fits b200 (8.0 / 4.0) and l40s (6.0 / 2.0); h100 prints 2.0x for 9.0 / 3.0
    table = ("# T\n\n| gpu | fp16 ms | int8 ms | speedup |\n|---|---|---|---|\n| b200 | 8.0 | 4.0 | 2.0x |\n"
             "| h100 | 9.0 | 3.0 | 2.0x |\n| l40s | 6.0 | 2.0 | 3.0x |\n")
    (finding,) = [f for f in lint_text(table, "x.md") if f.code == "SG103"]
    assert (finding.line, finding.message) == (
        6, "row 'h100': 'speedup' is 2.0x but 'fp16 ms' and 'int8 ms' give 9.0 / 3.0 = 3.0x "
           "(2.93x to 3.07x within the printed digits) (the table's layout declares it, the column before it against the "
           "first of its column group, and it fits the column's other 2 rows)")  # 8.95 / 3.05, 9.05 / 2.95
    assert finding.hint == "recompute the figure from the row's own values, or say in the header what it is computed from"
