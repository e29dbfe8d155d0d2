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
