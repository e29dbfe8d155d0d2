"""SG103: a percent change between two rows of a table in the one column the
clause names, where the table has a second column of the same kind ("Cache
per node" beside "Total cache"). Documents of our own: beta's total cache
is (480.0 - 384.0) / 480.0 = 20.0% smaller than alpha's.

The column-pair reader (studygen.lint.prose_changes) used to take the named
column against the table's other column of its kind, and the row reader
(studygen.lint.prose_rows) saw a word of each header ("node" of "Cache per
node", "total" of "Total cache") and read neither: the clause was reported as
total cache against cache per node."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = ("# Cache (8 nodes)\n\n| Runtime | Cache per node | Total cache |\n|---|---|---|\n"
         "| alpha | 60.0 GB | 480.0 GB |\n| beta | 48.0 GB | 384.0 GB |\n\n")


def _sg103(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE + sentence + "\n", "t.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence", [
    "**beta holds 20.0% less total node cache memory** than alpha.",
    "beta needs 20.0% less total cache memory across nodes than alpha.",
    "alpha needs 25.0% more total node memory than beta.",
])
def test_two_rows_in_the_named_column_are_read(sentence):
    assert _sg103(sentence) == []


def test_a_wrong_figure_names_the_two_rows():
    found = _sg103("beta holds 30.0% less total node cache memory than alpha.")
    assert found == [(8, "30.0% between row 'beta' and row 'alpha' does not follow from 'Total cache' of the "
                         "table at line 3: (384.0 - 480.0) / 384.0 = -25.0% (-25.03% to -24.97% within the printed "
                         "digits) or (480.0 - 384.0) / 480.0 = 20.0% (19.98% to 20.02% within the printed digits)")]


def test_a_comparison_of_the_two_columns_is_still_read():
    # no row named: the clause compares the columns, total against per node, in every row ((480 - 60) / 60 = 700%)
    assert _sg103("The total cache memory is 700% more than the per-node cache memory.") == []
    found = _sg103("The total cache memory is 600% more than the per-node cache memory.")
    assert len(found) == 1 and "'Total cache'" in found[0][1] and "'Cache per node'" in found[0][1]
