"""SG101 on a range wider than every row it summarises (studygen.lint.range_width).

Before, SG101 reported only rows a range leaves out: "1.2 to 3.0x" over rows
of 1.31, 1.75 and 2.08x covered them all and passed, though no row is near
either end. Invented table below; the sentences vary the wording.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLE = """# Kernel study

## Speedup

| Model | Speedup (x) |
|---|---:|
| resnet | 1.31 |
| vit | 1.75 |
| bert | 2.08 |

{sentence}
"""


def _sg101(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE.format(sentence=sentence), "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("sentence, shown", [
    ("The speedup ranges from 1.2 to 3.0x across models.", "1.2 to 3.0x"),
    ("Speedups of 1.2-3.0x were measured on the three models.", "1.2-3.0x"),
    ("Across models the speedup spans 1.25x to 2.50x.", "1.25x to 2.50x"),
    ("The three models gain 1.20x-2.60x in speed.", "1.20x-2.60x"),
])
def test_a_range_beyond_both_ends_of_the_rows_is_reported(sentence, shown):
    findings = _sg101(sentence)
    assert len(findings) == 1
    line, message = findings[0]
    assert line == 11
    assert message.startswith(f"range {shown} is wider than every row of 'Speedup (x)' in the table at line 5")
    assert "its 3 rows run 1.31 to 2.08x ('resnet' to 'bert')" in message


@pytest.mark.parametrize("sentence", [
    "The speedup runs 1.31-2.08x across models.",  # the rows' own extremes
    "The speedup runs 1.3-2.1x across models.",  # the extremes rounded
    "Speedups of 1.30-2.10x were measured.",  # 2.10 is within 5% of 2.08: a rounding
    "The speedup is 0-3x across models.",  # a round bound, no decimals
    "The speedup is about 1.2-3.0x across models.",  # hedged
    "Speedups stay within 1.2-3.0x on every model.",  # a bound the rows stay inside
    "The target band is 1.2-3.0x for every model.",
    "The speedup is under 1.0-3.0x for the small models.",
])
def test_ranges_at_the_rows_rounded_or_worded_as_bounds_stay_silent(sentence):
    assert _sg101(sentence) == []


def test_a_range_holding_one_row_figure_is_read_with_its_other_end():
    # 1.31 is a row's value, but 3.0 lies 44% beyond the largest row (2.08x): the range still
    # misstates that column's extremes (once silent: only ranges with both ends beyond the rows were read)
    (finding,) = _sg101("The speedup ranges from 1.31 to 3.0x across models.")
    assert finding[0] == 11
    assert "its 3 rows run 1.31 to 2.08x ('resnet' to 'bert')" in finding[1]
    # its other end within 5% of the largest row is a rounding
    assert _sg101("The speedup ranges from 1.31 to 2.1x across models.") == []


def test_a_range_leaving_rows_out_keeps_the_leave_out_finding():
    findings = _sg101("The speedup ranges from 1.5 to 3.0x across models.")
    assert len(findings) == 1
    assert "leaves out row 'resnet' (1.31x)" in findings[0][1]
