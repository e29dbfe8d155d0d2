"""A speedup column over metric rows of both directions: a time row's gain is
old / new and a rate row's new / old, so a rate row printing new / old among
time rows fits the column and is no finding (it was reported with the very
ratio it prints: "is 1.20x but ... give 96.0 / 80.0 = 1.200x"). A rate row
whose figure neither reading gives is still reported, and a header naming its
operands ("Old / New") still holds every row to that order.

Figures worked out by hand: 12.0 / 10.0 = 1.20, 15.0 / 12.0 = 1.25,
96.0 / 80.0 = 1.20, 9.0 / 6.0 = 1.50; 1.30x is neither 96.0 / 80.0 nor
80.0 / 96.0 = 0.83.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# three time rows and one rate row, each gain printed the way the row improves
GAINS = """# Build check

| Metric | Old build | New build | {header} |
| --- | --- | --- | --- |
| Mean step | 12.0 ms | 10.0 ms | 1.20x{word} |
| P99 step | 15.0 ms | 12.0 ms | 1.25x{word} |
| Batch rate | 80.0 img/s | 96.0 img/s | {rate}x{word} |
| Load time | 9.0 s | 6.0 s | 1.50x{word} |
"""


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("header, word", [("Gain", " faster"), ("Speedup", ""), ("Improvement", " better")])
def test_a_rate_rows_gain_new_over_old_among_time_rows_is_no_finding(header, word):
    assert _sg103(GAINS.format(header=header, word=word, rate="1.20")) == []


@pytest.mark.parametrize("header, word", [("Gain", " faster"), ("Speedup", "")])
def test_a_rate_rows_gain_that_neither_order_gives_is_found(header, word):
    assert _sg103(GAINS.format(header=header, word=word, rate="1.30")) == [
        (7, f"row 'Batch rate': '{header}' is 1.30x but 'Old build' and 'New build' give 96.0 / 80.0 = 1.20x "
            "(1.199x to 1.201x within the printed digits) (the table's layout declares it, the column before it "
            "against the first of its column group, and it fits the column's other 3 rows)")]


def test_a_time_row_wrong_beside_a_right_rate_row_is_still_found():
    # two more time rows (4.0 / 2.0 = 2.00x, 30 / 24 = 1.25x) keep four of the six rows fitting old / new
    text = GAINS.format(header="Gain", word="", rate="1.20").replace("1.25x", "1.40x")
    text += "| Warmup time | 4.0 s | 2.0 s | 2.00x |\n| Save time | 30 s | 24 s | 1.25x |\n"
    ((line, message),) = _sg103(text)
    assert line == 6
    assert message.startswith("row 'P99 step': 'Gain' is 1.40x but 'Old build' and 'New build' give 15.0 / 12.0 = 1.25x")


def test_a_header_naming_its_operands_holds_the_rate_row_to_them():
    # "Old / New" names the order: 80.0 / 96.0 = 0.83x, so the rate row's 1.20x is reported
    text = GAINS.format(header="Old / New", word="", rate="1.20")
    ((line, message),) = _sg103(text)
    assert line == 7
    assert "80.0 / 96.0 = 0.833x" in message
