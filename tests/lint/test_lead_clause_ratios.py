"""Ratios between two serving modes whose rows a leading place clause names,
judged against the quantity the claim names (SG103, studygen/lint/joined_ratios.py).

A new user's page printed a throughput table and a latency table over the
same two configs on two GPUs. "On the A100, chunked is 1.2x faster than
baseline" passed because the H100's pair gave 1.2x (the opening phrase named
no rows), a throughput claim was cleared by a TPOT pair, and a finding said
"1.0x (1.03x to 1.04x ...)" of figures that went the other way. A document of
our own, with figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.derived import derivation
from studygen.lint.figures import Figure

PAGE = """\
# Decode study: paged vs eager

Two serving modes, `eager` and `paged`, on an L40S and an RTX 6000.

## Throughput (tok/s)

| GPU | Mode | Throughput (tok/s) |
| --- | --- | --- |
| L40S | eager | 800 |
| L40S | paged | 1040 |
| RTX 6000 | eager | 640 |
| RTX 6000 | paged | 610 |

## Latency (ms)

| GPU | Mode | TTFT (ms) | TPOT (ms) |
| --- | --- | --- | --- |
| L40S | eager | 90 | 16.0 |
| L40S | paged | 72 | 12.5 |
| RTX 6000 | eager | 150 | 25.0 |
| RTX 6000 | paged | 140 | 26.0 |

## Claims

{claim}
"""
CLAIM_LINE = 25
_RTX_THROUGHPUT = ("row 'RTX 6000 / paged' in 'Throughput (tok/s)' (line 12) and row 'RTX 6000 / eager' in "
                   "'Throughput (tok/s)' (line 11)")


def _sg103(claim: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(PAGE.format(claim=claim), "page.md") if f.code == "SG103"]


@pytest.mark.parametrize("claim", [
    # the L40S's own figures: 1040 / 800 = 1.30x throughput, 90 / 72 = 1.25x TTFT, 16.0 / 12.5 = 1.28x TPOT
    "On the L40S, paged is 1.3x faster than eager in throughput.",
    "For the L40S, paged has 1.3x higher throughput than eager.",
    "Paged is 1.3x faster than eager in throughput on the L40S.",
    "On the L40S, paged is 1.25x faster than eager in TTFT.",
    "Paged is 1.28x faster than eager in TPOT on the L40S.",
])
def test_a_right_ratio_stays_quiet(claim):
    assert _sg103(claim) == []


@pytest.mark.parametrize("claim, words", [
    # the L40S's 1.30x once cleared it: the opening phrase now names the RTX 6000 rows as a trailing one does
    ("On the RTX 6000, paged is 1.3x faster than eager in throughput.", "1.3x faster"),
    ("For the RTX 6000, paged has 1.3x higher throughput than eager.", "1.3x higher"),
    ("At the RTX 6000, paged is 1.3x faster than eager in throughput.", "1.3x faster"),
    # the trailing place, read as before (the message now says the figures go the other way)
    ("Paged is 1.3x faster than eager in throughput on the RTX 6000.", "1.3x faster"),
])
def test_a_leading_place_names_the_rows_and_the_wrong_way_is_said(claim, words):
    assert _sg103(claim) == [(CLAIM_LINE, (
        f"1.3x between 'paged' and 'eager' does not follow from the figures that pair them: {_RTX_THROUGHPUT} go "
        f"the other way: paged's 610 tokens/s is lower than eager's 640 tokens/s: 610 / 640 = 0.95x, not {words}"))]


def test_a_time_the_other_way_is_divided_reference_over_subject():
    # on the RTX 6000 paged's TPOT is the longer: "faster" wants eager's 25.0 ms over paged's 26.0 ms
    assert _sg103("On the RTX 6000, paged is 1.2x faster than eager in TPOT.") == [(CLAIM_LINE, (
        "1.2x between 'paged' and 'eager' does not follow from the figures that pair them: row 'RTX 6000 / paged' "
        "in 'TPOT (ms)' (line 21) and row 'RTX 6000 / eager' in 'TPOT (ms)' (line 20) go the other way: paged's "
        "26.0 ms is higher than eager's 25.0 ms: 25.0 / 26.0 = 0.96x (0.96x to 0.97x within the printed digits), "
        "not 1.2x faster"))]


def test_the_named_column_is_judged_not_another_of_its_kind():
    # 1.28x is the L40S's TPOT ratio, not its TTFT one (90 / 72 = 1.25x): TPOT no longer clears a TTFT claim
    assert _sg103("On the L40S, paged is 1.28x faster than eager in TTFT.") == [(CLAIM_LINE, (
        "1.28x between 'paged' and 'eager' does not follow from the figures that pair them: row 'L40S / paged' in "
        "'TTFT (ms)' (line 19) and row 'L40S / eager' in 'TTFT (ms)' (line 18) give 90 / 72 = 1.25x "
        "(1.234x to 1.266x within the printed digits)"))]


def _figure(text: str, unit: str | None = None) -> Figure:
    value = float(text)
    decimals = len(text.split(".")[1]) if "." in text else 0
    return Figure(value=value, text=text, unit=unit, decimals=decimals, start=0, end=len(text))


def test_a_recomputed_ratio_is_printed_at_the_digits_of_its_interval():
    # 1500 / 1450 = 1.0345: "1.0x" beside "(1.03x to 1.04x …)" contradicted itself
    assert derivation("ratio", _figure("1500"), _figure("1450"), _figure("1.2", "x")) == \
        "1500 / 1450 = 1.03x (1.03x to 1.04x within the printed digits)"
    # a value its digits already place inside the interval keeps them
    assert derivation("ratio", _figure("7.53"), _figure("3.20"), _figure("2.24", "x")) == \
        "7.53 / 3.20 = 2.35x (2.348x to 2.358x within the printed digits)"
