"""studygen.render.github_table: tabulate's ``github`` layout, character for
character, without tabulate (its import and per-cell work were a tenth of
rendering a family). Equal to tabulate's own text, not merely formatted
alike: a template may put a table where it does not parse as one, and the
padding is then README text."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from studygen.render import github_table as layout
from studygen.render.escaping import escape_cell, escape_label
from studygen.render.github_table import github_table
from tests.conftest import REPO


def tabulated(body, headers) -> str:
    """What render/tables.py wrote before: tabulate's own call."""
    return tabulate(body, headers=headers, tablefmt="github", disable_numparse=True)


def test_a_table_read_off_by_hand():
    # widths: "Variant" is 7, so its column 9 (two more); a CJK character is two columns wide; "ms" 2 -> 4
    assert github_table([["fp16", "8.19"], ["界", ""]], ["Variant", "ms"]) == (
        "| Variant   | ms   |\n"
        "|-----------|------|\n"
        "| fp16      | 8.19 |\n"
        "| 界        |      |")


def test_cells_are_stripped_and_headers_are_not():
    assert github_table([[" a\u3000"], [None]], [" h "]) == "|  h    |\n|-------|\n| a     |\n|       |"
    assert github_table([], ["GPU", "x"]) == "| GPU   | x   |\n|-------|-----|"


# Characters whose width or handling differs: pipes and backslashes (escaped or not), wide CJK, emoji
# with and without joiners and selectors, zero-width and combining marks, Unicode blanks that
# str.strip removes, controls wcswidth cannot measure, tabulate's separating-line mark, an escape
# sequence (tabulate measures colour codes as invisible), line breaks (tabulate writes several lines),
# and words tabulate reads as booleans.
PIECES = ["a", "B", "5.850", " ", "  ", "\t", "|", "\\|", "\\", "`", "*", "-", ":", "界", "😀", "👩\u200d💻",
          "\u2764\ufe0f", "\U0001f1fa\U0001f1f8", "\u200b", "\u200d", "\u2060", "\u0301", "\u00ad", "\u1160",
          "\u00a0", "\u3000", "\u2028", "\x85", "\x1c", "\x00", "\x7f", "\x01", "\x1b[31m", "\n", "\r\n", "\r",
          "True", "False", "—", "±", "×"]
TEXT = st.lists(st.sampled_from(PIECES), max_size=6).map("".join)
CELL = st.one_of(TEXT, TEXT.map(escape_cell), TEXT.map(escape_label), st.none(), st.sampled_from([5, 5.85, True]))


@st.composite
def tables(draw):
    columns = draw(st.integers(1, 4))
    headers = draw(st.lists(st.one_of(TEXT, TEXT.map(escape_label)), min_size=columns, max_size=columns))
    rows = draw(st.lists(st.lists(CELL, min_size=columns, max_size=columns), max_size=4))
    if rows and draw(st.booleans()) and draw(st.booleans()):  # now and then a row of another length
        rows[-1] = rows[-1][:-1] or [*rows[-1], "x"]
    return rows, headers


@settings(max_examples=max(400, settings.default.max_examples))
@given(tables())
@example(([["a\u200d"], ["bcd"]], [""]))  # a joiner takes the space after it: tabulate's second measure
@example(([["\x07"], ["\x07\x07"]], ["h"]))  # a column wcswidth cannot measure: its header's width
def test_every_table_is_tabulates(table):
    body, headers = table
    assert github_table(body, headers) == tabulated(body, headers)


def test_tabulate_is_imported_only_for_a_table_the_own_layout_does_not_cover(monkeypatch):
    import sys

    covered = ([["a", None, "\x01"], ["\u200b", "b\x07", ""]], ["x", "y", "z"])  # the mark in a third cell is text
    expected = tabulated(*covered)
    monkeypatch.setitem(sys.modules, "tabulate", None)  # importing it fails now
    assert github_table(*covered) == expected
    for body, headers in (([["a\nb"]], ["x"]), ([["a"]], ["x\r"]), ([["\x1b[1m"]], ["x"]), ([[5]], ["x"]),
                          ([[" \x01 "]], ["x"]), ([["a", "\x01"]], ["x", "y"]), ([["a"]], []), ([["a", "b"]], ["x"]),
                          ((["a"],), ["x"]), ([{"x": "a"}], ["x"]), ([["a"]], [5]), ([["a"]], "x")):
        with pytest.raises(ImportError):
            github_table(body, headers)


def test_headers_given_otherwise_than_as_a_list_are_tabulates_to_read():
    # tabulate reads "keys" as "number the columns", and a header that is no text through str()
    for body, headers in (([["a", "b", "c", "d"]], "keys"), ([["a", "b"]], ("x", "y")), ([["a"]], [5])):
        assert github_table(body, headers) == tabulated(body, headers)
    assert github_table([["a", "b", "c", "d"]], "keys").startswith("| 0   | 1   | 2   | 3   |\n")


def test_record_strings_take_the_layout_of_their_own():
    # escaped record strings (no line break or escape character is left in them) never need tabulate
    for text in PIECES:
        body, headers = [[escape_cell(text), escape_label(text + "x")]], [escape_label(text), "v"]
        if text not in ("\x01",):
            assert layout._rows(body, headers) is not None, repr(text)
        assert github_table(body, headers) == tabulated(body, headers)


def test_every_table_of_the_shipped_families_takes_the_own_layout_and_is_tabulates(monkeypatch):
    from studygen.render import engine, tables as table_helpers
    from studygen.study import family_dirs, load_study

    seen = []

    def compared(body, headers):
        assert layout._rows(body, headers) is not None
        seen.append((body, headers))
        return github_table(body, headers)

    monkeypatch.setattr(table_helpers, "github_table", compared)
    for study_dir in family_dirs(REPO):
        study = load_study(study_dir, REPO)
        assert engine.render_study(study).files[study.readme_path] == study.readme_path.read_bytes()
    assert len(seen) == 30  # the shipped READMEs' tables, every one
    assert all(github_table(body, headers) == tabulated(body, headers) for body, headers in seen)
