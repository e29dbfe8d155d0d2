"""Tables of one layout read as one column by SG101 (studygen.lint.repeated_tables):
a range summed up over several identical tables ("5-18% faster across all
boards") is held to the joined column when no one table holds both its
endpoints; a word naming some of the tables' headings ("small") keeps those
only. Document and figures of our own: each gain is old / new, 11.0 / 10.0 =
1.10x ... 12.5 / 10.0 = 1.25x; 5-18% faster reads 1.05x to 1.18x.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.repeated_tables import _groups, _joined

_TABLE = """| Metric | Old driver | New driver | Speedup |
| --- | --- | --- | --- |
| Read time | {a} ms | 10.0 ms | {ga}x |
| Open time | {b} ms | 5.0 ms | {gb}x |
"""


def _document(claim: str) -> str:
    parts = ["# Driver check", "## Results"]
    for board, values in (("Small", (("11.0", "1.10", "5.7", "1.14"), ("11.8", "1.18", "6.25", "1.25"))),
                          ("Large", (("10.5", "1.05", "5.35", "1.07"), ("10.6", "1.06", "5.45", "1.09")))):
        parts.append(f"### {board} board")
        for kind, (a, ga, b, gb) in zip(("Reads", "Writes"), values):
            parts += [f"#### {kind}", _TABLE.format(a=a, ga=ga, b=b, gb=gb)]
    parts += ["## Summary", claim]
    return "\n\n".join(parts) + "\n"


def _sg101(claim: str) -> list[str]:
    return [f.message for f in lint_text(_document(claim), "x.md") if f.code == "SG101"]


def test_a_range_over_all_the_tables_is_held_to_their_joined_column():
    (message,) = _sg101("Across all boards the new driver is 5-18% faster.")
    assert message.startswith("range 5-18% leaves out row 'Open time (line 20)' (1.25x) of 'Speedup'")


def test_a_word_naming_some_tables_headings_keeps_those_only():
    (message,) = _sg101("On the small board the new driver is 10-18% faster.")
    assert message.startswith("range 10-18% leaves out row 'Open time (line 20)' (1.25x) of 'Speedup'")
    # the large board's gains are 1.05x to 1.09x: the small board's 1.10x to 1.25x are not its rows
    assert _sg101("On the large board the new driver is 5-9% faster.") == []


@pytest.mark.parametrize("claim", [
    "Across all boards the new driver is 5-25% faster.",  # every gain inside
    "On the small board reads are 10-14% faster.",  # one table holds both ends: read as that table's column
])
def test_a_covered_range_or_one_table_s_range_is_no_finding(claim):
    assert _sg101(claim) == []


def test_tables_whose_key_repeats_are_not_joined():
    # "tok" heads no label by its name: a column of distinct whole numbers is the table's key, not once it repeats
    text = "".join(f"## Run {n}\n\n| tok | Time (ms) |\n| --- | --- |\n| 512 | {t} |\n| 1024 | {u} |\n| 2048 | {v} |\n\n"
                   for n, t, u, v in ((1, "2.0", "9.0", "17.0"), (2, "2.1", "9.2", "17.5")))
    document = parse_document(text, "x.md")
    (group,) = _groups(document)
    assert [t.label_columns for t in group.tables] == [[0], [0]]
    assert _joined(group.tables, frozenset()) is None


def test_only_tables_of_one_header_row_join():
    """A table of another header row ("Baseline" for "Old driver") between them is no part of the join: its 0.50x
    gain is below the range and would be a row the range leaves out. Killed mutants: one group for every table."""
    other = "#### Other\n\n| Metric | Baseline | New driver | Speedup |\n| --- | --- | --- | --- |\n" \
            "| Seek time | 5.0 ms | 10.0 ms | 0.50x |\n| Close time | 4.0 ms | 8.0 ms | 0.50x |\n"
    text = _document("Across all boards the new driver is 5-18% faster.").replace("## Summary", other + "\n## Summary")
    messages = [f.message for f in lint_text(text, "x.md") if f.code == "SG101"]
    assert len(messages) == 1 and "'Open time (line 20)' (1.25x)" in messages[0] and "0.50x" not in messages[0]
    groups = _groups(parse_document(text, "x.md"))
    assert [len(group.tables) for group in groups] == [4]


def test_a_range_with_an_end_in_no_table_is_not_held_to_the_join():
    """5-30%: 1.30x is no gain of any table, so the joined column is not the range's column (one end found is not
    both). Killed mutants: a join offered with one endpoint, or with none."""
    assert _sg101("Across all boards the new driver is 5-30% faster.") == []
    assert _sg101("Across all boards the new driver is 2-30% faster.") == []


def test_each_joined_row_keeps_its_line_and_a_numeric_label_stays_as_printed():
    document = parse_document(_document("x"), "x.md")
    (group,) = _groups(document)
    joined = _joined(group.tables, frozenset())
    # the document's lines, numbered by hand: each table's two rows two lines below its header
    assert [row.cells[0] for row in joined.rows] == [
        "Read time (line 11)", "Open time (line 12)", "Read time (line 19)", "Open time (line 20)",
        "Read time (line 29)", "Open time (line 30)", "Read time (line 37)", "Open time (line 38)"]
    assert [row.line for row in joined.rows] == [row.line for table in group.tables for row in table.rows]
    assert [row.index for row in joined.rows] == list(range(len(joined.rows)))
    assert (joined.line, joined.end_line, joined.section) == (group.tables[0].line, group.tables[-1].end_line,
                                                              group.tables[0].section)
    numeric = "".join(f"## Run {n}\n\n| Batch | Time (ms) |\n| --- | --- |\n| 1 | {t} |\n| 8 | {u} |\n\n"
                      for n, t, u in ((1, "2.0", "9.0"), (2, "2.1", "9.2")))
    (group,) = _groups(parse_document(numeric, "x.md"))
    joined = _joined(group.tables, frozenset())
    assert group.tables[0].numeric_labels == {0: "batch"}  # a batch column: numeric labels, named by the header
    assert [row.cells for row in joined.rows] == [["1", "2.0"], ["8", "9.0"], ["1", "2.1"], ["8", "9.2"]]
