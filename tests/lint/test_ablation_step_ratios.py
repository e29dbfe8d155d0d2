"""A percent change or ratio between two rows of a table whose speedup column rates every row against a third
(an ablation: each step over the plain run) is read against the two rows' own figures (SG103). The column
prints neither row's comparison with the other, so it does not answer for the claim. Seen on a kernel report
(session 26's second unseen set): "5% faster than" the step above, where the two times give 3.7% or 3.8%,
passed because the table had a speedup column. Table and claims of our own; the changes worked out by hand:
6.30 / 5.60 = 1.125, (6.30 - 5.60) / 6.30 = 11.1%, (6.30 - 5.60) / 5.60 = 12.5%."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

ABLATION = """\
# Ablation

| Step | Time | Speedup |
|---|---|---|
| plain | 8.40ms | 1.00x |
| + fused rope | 6.30ms | 1.33x |
| + int8 cache | 5.60ms | {last} |

## What helped

- **Int8 cache**: {claim}
"""


def _sg103(claim: str, last: str = "1.50x") -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(ABLATION.format(claim=claim, last=last), "a.md") if f.code == "SG103"]


@pytest.mark.parametrize("claim, message", [
    # fails before: no finding (a table printing ratios left every pair of its rows unread)
    ("20% faster than fused rope",
     "20% between '+ int8 cache' and '+ fused rope' does not follow from the figures that pair them: row "
     "'+ int8 cache' in 'Time' (line 7) and row '+ fused rope' in 'Time' (line 6) give (6.30 - 5.60) / 6.30 = 11% "
     "(11.0% to 11.3% within the printed digits)"),
    ("1.3x faster than fused rope",
     "1.3x between '+ int8 cache' and '+ fused rope' does not follow from the figures that pair them: row "
     "'+ int8 cache' in 'Time' (line 7) and row '+ fused rope' in 'Time' (line 6) give 6.30 / 5.60 = 1.13x "
     "(1.12x to 1.13x within the printed digits)"),
])
def test_a_change_between_two_steps_the_times_do_not_give_is_reported(claim, message):
    assert _sg103(claim) == [(11, message)]


@pytest.mark.parametrize("claim, last", [
    ("12% faster than fused rope", "1.50x"),     # 12.5% over the faster time, 11.1% of the slower
    ("11% faster than fused rope", "1.50x"),
    ("1.12x faster than fused rope", "1.50x"),   # 1.125 within the printed digits
    # a row printing no ratio may be the column's reference: the comparison is left to the table readers
    ("20% faster than fused rope", "-"),
    # against the plain run the column itself states the comparison: left to the table readers as before
    ("40% faster than plain", "1.50x"),
])
def test_a_change_the_times_give_or_one_the_column_answers_for_is_quiet(claim, last):
    assert _sg103(claim, last) == []


def test_a_speedup_column_with_no_identity_row_may_state_the_comparison_and_is_left_to_the_table_readers():
    # every speedup is against a run the table does not print: it may be the rows against each other
    text = ABLATION.format(claim="20% faster than fused rope", last="1.65x").replace("| 1.00x |", "| 1.10x |")
    assert [f for f in lint_text(text, "a.md") if f.code == "SG103"] == []
