"""SG103 and clauses: a ratio after ", and" (or ";") is a new clause with its
own operands, not the ratio of the figures before it (trial case: a latency
range, then a speedup at one batch, reported against the range's ends)."""

from __future__ import annotations

from studygen.lint import lint_text

TABLE = """
| batch | BF16 (ms) | W8A8 (ms) |
| --- | --- | --- |
| 1 | 1.20 | 0.64 |
| 16 | 4.40 | 2.00 |
| 64 | 15.30 | 6.12 |
"""


def sg103(text: str) -> list:
    return [f for f in lint_text(text, "doc.md") if f.code == "SG103"]


def test_a_ratio_in_the_next_clause_is_not_derived_from_the_range_before_it():
    # 4.40 / 2.00 = 2.2x at batch 16; 6.12 / 0.64 = 9.6x is not what it says
    text = "W8A8 latency spans from 0.64 to 6.12 ms, and W8A8 is 2.2x faster than BF16 at batch 16.\n" + TABLE
    assert sg103(text) == []
    text = "W8A8 latency spans from 0.64 to 6.12 ms; W8A8 is 2.2x faster than BF16 at batch 16.\n" + TABLE
    assert sg103(text) == []


def test_the_next_clause_is_still_checked_against_the_table():
    text = "W8A8 latency spans from 0.64 to 6.12 ms, and W8A8 is 3.0x faster than BF16 at batch 16.\n" + TABLE
    (finding,) = sg103(text)
    assert "2.20x" in finding.message and finding.line == 1


def test_a_ratio_right_after_the_pair_is_still_its_ratio():
    # 6.12 / 0.64 = 9.5625: 9.6x follows, 7.0x does not; "and" without a comma keeps one clause
    assert sg103("Latency grows from 0.64 to 6.12 ms, a 9.6x rise.\n") == []
    (wrong,) = sg103("Latency grows from 0.64 to 6.12 ms, a 7.0x rise.\n")
    assert "7.0x does not follow from 0.64 and 6.12 ms" in wrong.message
    (joined,) = sg103("Latency grows from 0.64 to 6.12 ms and is 7.0x higher.\n")
    assert "0.64 and 6.12 ms" in joined.message


def test_a_ratio_far_after_the_pair_or_past_a_semicolon_is_not_its_ratio():
    # 12.0 / 4.0 = 3.0x: a 2.0x right after the pair is wrong; 2.0x over 30 characters later, or after ';', is another figure
    near = "Compiled, latency drops from 12.0 to 4.0 ms, 2.0x overall.\n"
    (finding,) = sg103(near)
    assert finding.message.startswith("2.0x does not follow from 12.0 and 4.0 ms: 12.0 / 4.0 = 3.0x")
    assert sg103("Compiled, latency drops from 12.0 to 4.0 ms over the whole evaluation sweep of images, 2.0x overall.\n") == []
    assert sg103("Compiled, latency drops from 12.0 to 4.0 ms; 2.0x overall.\n") == []
