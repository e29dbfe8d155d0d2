"""SG103: a percent-change cell that writes its direction as a word after the
figure ("12.5% lower", "20.0% more", "20.0% faster") is signed by that word,
as prose reads the same word after a figure (studygen.lint.ratio_direction).
Documents of our own: an "After vs before" column over a metric per row.

Before the fix every cell was read as its bare magnitude, so a falling row
("12.5% lower" for 35.0 against 40.0) was reported against a column that the
rising rows defined as (after - before) / before."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text


def _document(rows: list[str]) -> str:
    return ("# Cache\n\n| Metric | After | Before | After vs before |\n|---|---|---|---|\n"
            + "".join(f"| {row} |\n" for row in rows))


RISING = ["Hit rate (%) | 72.0 | 60.0 | 20.0% higher", "Requests per second | 3000 | 2500 | 20.0% more"]


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG103"]


@pytest.mark.parametrize("falling", [
    "Eviction time (ms) | 35.0 | 40.0 | 12.5% lower",
    "Eviction time (ms) | 35.0 | 40.0 | 12.5% less",
    "Cold misses | 35 | 40 | 12.5% fewer",
    "Index size (MB) | 35.0 | 40.0 | 12.5% smaller",
])
def test_a_decrease_word_signs_the_cell(falling):
    assert _sg103(_document([falling, *RISING])) == []


def test_faster_signs_by_the_rows_kind():
    # a faster time is the smaller one: 35.0 against 40.0 ms is -12.5%
    assert _sg103(_document(["Eviction time (ms) | 35.0 | 40.0 | 12.5% faster", *RISING])) == []


def test_a_word_going_the_wrong_way_is_reported():
    found = _sg103(_document(["Eviction time (ms) | 35.0 | 40.0 | 12.5% more", *RISING]))
    assert found == [(5, "row 'Eviction time (ms)': 'After vs before' is '12.5% more' but 'After' and 'Before' give "
                         "(35.0 - 40.0) / 40.0 = -12.5% (-12.73% to -12.27% within the printed digits) "
                         "(its header declares it, its header names 'Before' as the reference, and it fits the "
                         "column's other 2 rows)")]


def test_a_wrong_size_with_the_right_word_is_reported():
    found = _sg103(_document(["Eviction time (ms) | 35.0 | 40.0 | 15.0% lower", *RISING]))
    assert len(found) == 1 and found[0][0] == 5
    assert "'15.0% lower' but 'After' and 'Before' give (35.0 - 40.0) / 40.0 = -12.5%" in found[0][1]
