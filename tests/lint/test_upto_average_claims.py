"""An "up to" ratio between two named variants held to the largest of their
paired rows (SG103, studygen/lint/joined_ratios.py), and a prose average of
one column held to that column's mean (SG103, studygen/lint/averages.py).

A new user's serving page wrote "up to 2x higher throughput" over a plain
table whose pairs gave at most 1.29x, and "average peak memory ... is 68 GB"
over a column averaging 65.75 GB; both passed. A document of our own, with
figures of our own: fused against split gives 900 / 500 = 1.80x on the L4
and 420 / 300 = 1.40x on the T4; peak memory averages 10.50 GB."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

PAGE = """\
# Prefill study: fused vs split

Two kernels, `split` and `fused`, on an L4 and a T4.

## Throughput (tok/s)

| GPU | Kernel | Throughput (tok/s) |
| --- | --- | --- |
| L4 | split | 500 |
| L4 | fused | 900 |
| T4 | split | 300 |
| T4 | fused | 420 |

## Memory

| GPU | Kernel | Peak memory (GB) |
| --- | --- | --- |
| L4 | split | 10.0 |
| L4 | fused | 12.0 |
| T4 | split | 9.0 |
| T4 | fused | 11.0 |

## Claims

{claim}
"""
CLAIM_LINE = 25
_L4_PAIR = "row 'L4 / fused' in 'Throughput (tok/s)' (line 10) and row 'L4 / split' in 'Throughput (tok/s)' (line 9)"
_MEMORY = ("is no mean of 'Peak memory (GB)' in the table at line 16: its 4 rows (10.0, 12.0, 9.0, 11.0) average "
           "10.50 GB, median 10.50 GB")


def _sg103(claim: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(PAGE.format(claim=claim), "page.md") if f.code == "SG103"]


@pytest.mark.parametrize("claim", [
    "Fused gives up to 1.8x higher throughput than split.",
    "Fused is up to 1.8x faster than split.",
    "Fused is as much as 1.8x faster than split.",
    "Average peak memory across the four runs is 10.5 GB.",
    "The mean peak memory is 10.5 GB.",
    "The mean peak memory is about 12 GB.",  # hedged: not read
    "On the L4, the mean peak memory is 11.0 GB.",  # names rows: not read as the whole column's mean
    "Fused is 1.4x faster than split on the T4.",
])
def test_right_claims_are_quiet(claim):
    assert _sg103(claim) == []


@pytest.mark.parametrize(("claim", "message"), [
    ("Fused gives up to 2.5x higher throughput than split.",
     f"up to 2.5x between 'fused' and 'split' exceeds every pair of their figures (2 pairs): the largest, {_L4_PAIR}, "
     "gives 900 / 500 = 1.80x"),
    ("Fused is as much as 3x faster than split.",
     f"as much as 3x between 'fused' and 'split' exceeds every pair of their figures (2 pairs): the largest, "
     f"{_L4_PAIR}, gives 900 / 500 = 1.80x"),
    # 1.4x is the T4's pair, not the largest: "up to" names the largest
    ("Fused is up to 1.4x faster than split.",
     "up to 1.4x between 'fused' and 'split' is below the largest pair of their figures (2 pairs), and 'up to' "
     f"names the largest: {_L4_PAIR} give 900 / 500 = 1.80x"),
    ("Fused is up to 1.75x faster than split.",
     "up to 1.75x between 'fused' and 'split' is below the largest pair of their figures (2 pairs), and 'up to' "
     f"names the largest: {_L4_PAIR} give 900 / 500 = 1.80x (1.797x to 1.803x within the printed digits)"),
    ("Average peak memory across the four runs is 12 GB.", f"12 GB {_MEMORY}"),
    ("The mean peak memory is 12 GB.", f"12 GB {_MEMORY}"),
])
def test_wrong_claims_are_caught(claim, message):
    assert _sg103(claim) == [(CLAIM_LINE, message)]


def test_up_to_percent_is_left_to_the_percent_change_reader():
    # one finding, the percent-change reader's: the ratio reader does not read "up to 40%" a second time
    assert _sg103("Fused gives up to 40% higher throughput than split.") == [(
        CLAIM_LINE, "'40% higher', read as the largest row does not follow from the table at line 7: "
                    "('fused' - 'split') / 'split' of 'Throughput (tok/s)' gives L4 / fused 80.0%, T4 / fused 40.0% "
                    "(2 rows)")]
