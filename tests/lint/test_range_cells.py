"""SG101 and cells that hold a range of values ("1.45–1.52", "(3 jobs: 1.20
to 1.31)"): both ends are values of the column, so a prose range summarising
the column must cover them, and either end is found as an endpoint.
Documents of our own; ends read off the tables by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document

# values of 'Step time (ms)': small 1.20 and 1.31 (a note of 3 jobs), large 1.45 and 1.52, medium 1.38
TABLE = """\
| Model | Step time (ms) |
|---|---|
| small | (3 jobs: 1.20 to 1.31) |
| large | 1.45–1.52 |
| medium | 1.38 |

"""


def _sg101(sentence: str, table: str = TABLE) -> list[str]:
    return [f.message for f in lint_text(table + sentence + "\n", "t.md") if f.code == "SG101"]


def test_the_column_keeps_both_ends_of_each_range_cell():
    (series,) = parse_document(TABLE, "t.md").tables[0].series
    assert series.header == "Step time (ms)" and series.unit == "ms" and series.parts == 1
    assert [v and v.text for v in series.values] == [None, None, "1.38"]
    assert [(row, f.text) for row, f in series.figures] == [(0, "1.20"), (0, "1.31"), (1, "1.45"), (1, "1.52"), (2, "1.38")]
    assert series.bounds == (1.20, 1.52)


@pytest.mark.parametrize("sentence, left_out", [
    ("A decode step takes 1.20 to 1.52 ms.", None),
    ("A decode step takes 1.2 to 1.5 ms.", None),          # 1.52 is inside 1.5's 1.45 to 1.55
    ("A decode step takes 1.25 to 1.52 ms.", "row 'small' (1.20 ms)"),  # the low end of the 3 jobs
    ("A decode step takes 1.20 to 1.50 ms.", "row 'large' (1.52 ms)"),  # the high end of the dash range
])
def test_a_prose_range_must_cover_the_ends_of_range_cells(sentence, left_out):
    messages = _sg101(sentence)
    if left_out is None:
        assert messages == []
    else:
        (message,) = messages
        assert left_out in message and "'Step time (ms)'" in message


def test_a_column_of_increases_written_with_to_stays_a_before_and_after():
    # every cell "a to b": a change from a to b, two figure positions, no ranges
    table = "| Kernel | Time (ms) |\n|---|---|\n| gemm | 0.073 to 0.409 |\n| attn | 0.110 to 0.215 |\n\n"
    series = parse_document(table, "t.md").tables[0].series
    assert [s.parts for s in series] == [2, 2] and all(not s.spans for s in series)


def test_a_column_of_dash_ranges_in_every_row_is_read_as_ranges():
    table = "| Model | Step time (ms) |\n|---|---|\n| small | 1.20–1.31 |\n| large | 1.45–1.52 |\n\n"
    (series,) = parse_document(table, "t.md").tables[0].series
    assert sorted(series.spans) == [0, 1]
    (message,) = _sg101("A decode step takes 1.25 to 1.52 ms.", table)
    assert "row 'small' (1.20 ms)" in message
