"""SG103 over table cells that print a range ("2.10 to 2.40 (2 jobs: a, b)",
"14-15"): a ratio or percent change read against such a cell is checked
against the interval it takes over the whole range, and a stated direction
only where the ranges do not overlap (studygen.lint.range_operands).

Case (a new user's trial, generic template): with fp32 measured by two jobs
("0.3533 to 0.4667 (2 jobs: ...)") and bf16 slower in both, "bf16 is 3x
faster than fp32" passed, while with one job's record moved away it was
reported as going the other way. Documents and figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text, parse_document
from studygen.lint.range_operands import CellRange, against, cell, computed, interval

# int8 against fp16 as two columns; the batch-1 fp16 cell is filled in per case
COLUMNS = """\
# Detector latency

| GPU | Batch | fp16 (ms) | int8 (ms) |
|---|---|---|---|
| A10 | 1 | {fp16} | 1.20 |
| A10 | 4 | 3.6 | 2.7 |

{claim}
"""
TWO_JOBS = "2.10 to 2.40 (2 jobs: a10-a, a10-b)"

# three builds as rows of one latency column; the baseline cell is written as a dash range
ROWS = """\
# Tokenizer service

| Build | p50 latency (ms) |
|---|---|
| baseline | 14-15 |
| pooled | 9.5 |
| cached | 6.2 |

{claim}
"""

COLUMN_HINT = "recompute the ratio from the table it summarises (to its printed digits), or name the run it comes from"


def _sg103(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG103"]


def test_a_range_cell_is_an_operand_standing_for_its_whole_range():
    table = parse_document(COLUMNS.format(fp16=TWO_JOBS, claim=""), "t.md").tables[0]
    fp16, int8 = (s for s in table.series if s.header in ("fp16 (ms)", "int8 (ms)"))
    wide = cell(fp16, 0)
    assert wide == CellRange(*fp16.spans[0]) and wide.text == "2.10 to 2.40"
    assert cell(int8, 0).text == "1.20" and cell(fp16, 1).text == "3.6"
    # each end widened by its own rounding: 2.095 to 2.405
    assert interval(wide) == pytest.approx((2.095, 2.405))
    # a / b over [a_lo, a_hi] and [b_lo, b_hi] is [a_lo / b_hi, a_hi / b_lo]
    assert computed("ratio", wide, cell(int8, 0)) == pytest.approx((2.095 / 1.205, 2.405 / 1.195))
    # (a - b) / a, the decrease from a, over the ranges
    assert computed("relative_first", wide, cell(int8, 0)) == pytest.approx(
        ((1 - 1.205 / 2.095) * 100, (1 - 1.195 / 2.405) * 100))


def test_a_direction_is_contradicted_only_where_the_ranges_do_not_overlap():
    apart = parse_document(COLUMNS.format(fp16=TWO_JOBS, claim=""), "t.md").tables[0]
    overlapping = parse_document(COLUMNS.format(fp16="1.10 to 1.40 (2 jobs: a, b)", claim=""), "t.md").tables[0]
    high, int8 = cell(apart.series[0], 0), cell(apart.series[1], 0)
    low = cell(overlapping.series[0], 0)
    assert against(high, int8, -1)  # 2.10 to 2.40 is the smaller figure nowhere against 1.20
    assert not against(high, int8, 1)
    assert not against(low, int8, -1) and not against(low, int8, 1)  # 1.10 to 1.40 straddles 1.20 both ways


def test_a_ratio_outside_the_interval_over_the_range_is_reported():
    text = COLUMNS.format(fp16=TWO_JOBS, claim="int8 is 2.6x faster than fp16 at batch 1.")
    assert _sg103(text) == [(8, (
        "2.6x vs fp16 does not follow from the table at line 3: at row 'A10 / 1', (2.10 to 2.40) / 1.20 = "
        "1.74x to 2.01x over the ranges the cells print; 1.20 / (2.10 to 2.40) = 0.50x to 0.58x over the ranges "
        "the cells print"))]
    assert [f.hint for f in lint_text(text, "t.md") if f.code == "SG103"] == [COLUMN_HINT]


def test_a_ratio_inside_the_interval_is_not_reported():
    # 2.0x is reached only near the range's high end (2.40 / 1.20); its low end alone gives 1.75x
    assert _sg103(COLUMNS.format(fp16=TWO_JOBS, claim="int8 is 2.0x faster than fp16 at batch 1.")) == []


@pytest.mark.parametrize("claim", ["int8 is 1.1x faster than fp16 at batch 1.",
                                   "fp16 is 1.1x faster than int8 at batch 1."])
def test_a_ratio_whose_interval_straddles_one_is_not_reported_for_its_direction(claim):
    # fp16 1.10 to 1.40 against int8 1.20: either may be the faster, and 1.1x lies within 0.91x to 1.18x
    assert _sg103(COLUMNS.format(fp16="1.10 to 1.40 (2 jobs: a10-a, a10-b)", claim=claim)) == []


def test_a_direction_every_value_of_the_ranges_contradicts_is_reported():
    text = COLUMNS.format(fp16=TWO_JOBS, claim="fp16 is 1.9x faster than int8 at batch 1.")
    assert _sg103(text) == [(8, (
        "1.9x vs int8 does not follow from the table at line 3: at row 'A10 / 1', (2.10 to 2.40) / 1.20 = "
        "1.74x to 2.01x over the ranges the cells print, the other way round than 'faster' says"))]


@pytest.mark.parametrize("claim, expected", [
    ("int8 cuts the latency by 55% at batch 1.",
     [(8, "'cuts the latency by 55%' does not follow from the table at line 3: ('fp16 (ms)' - 'int8 (ms)') / "
          "'fp16 (ms)' gives A10 / 1 42.5% to 50.3% over the ranges the cells print (1 row)")]),
    ("int8 cuts the latency by 49% at batch 1.", []),  # (2.40 - 1.20) / 2.40 = 50%: within the range's reach
])
def test_a_percent_change_between_two_columns_is_read_over_the_range(claim, expected):
    assert _sg103(COLUMNS.format(fp16=TWO_JOBS, claim=claim)) == expected


@pytest.mark.parametrize("claim, expected", [
    ("pooled is 1.8x faster than baseline.",
     [(9, "1.8x between row 'pooled' and row 'baseline' does not follow from 'p50 latency (ms)' of the table at "
          "line 3: 9.5 / (14 to 15) = 0.61x to 0.71x over the ranges the cells print or (14 to 15) / 9.5 = 1.41x "
          "to 1.64x over the ranges the cells print")]),
    ("pooled is 1.6x faster than baseline.", []),  # 1.6x only near the range's high end: 15 / 9.5
    ("baseline is 1.5x faster than pooled.",
     [(9, "1.5x between row 'baseline' and row 'pooled' goes the wrong way: 'faster' says row 'baseline' is the "
          "better one, but 'p50 latency (ms)' of the table at line 3 has 14 to 15 against 9.5 for row 'pooled' "
          "(ranges the cells print, which do not overlap)")]),
    ("cached cuts latency by 65% compared to baseline.",
     [(9, "65% between row 'cached' and row 'baseline' does not follow from 'p50 latency (ms)' of the table at "
          "line 3: (6.2 - (14 to 15)) / 6.2 = -152.0% to -116.0% over the ranges the cells print or "
          "((14 to 15) - 6.2) / (14 to 15) = 53.7% to 60.3% over the ranges the cells print")]),
    ("cached cuts latency by 60% compared to baseline.", []),  # 60% only near the high end: (15 - 6.2) / 15
])
def test_a_ratio_or_change_between_two_named_rows_is_read_over_the_range(claim, expected):
    assert _sg103(ROWS.format(claim=claim)) == expected


@pytest.mark.parametrize("claim, expected", [
    ("int8 is 2.6x faster than fp16 at batch 1.",
     "2.6x vs fp16 does not follow from the table at line 3: at row 'A10 / 1', 2.25 / 1.20 = 1.88x (1.86x to 1.89x "
     "within the printed digits); 1.20 / 2.25 = 0.53x (0.53x to 0.54x within the printed digits)"),
    ("fp16 is 1.9x faster than int8 at batch 1.",
     "1.9x vs int8 does not follow from the table at line 3: at row 'A10 / 1', 2.25 / 1.20 = 1.88x (1.86x to 1.89x "
     "within the printed digits), the other way round than 'faster' says"),
    ("int8 cuts the latency by 55% at batch 1.",
     "'cuts the latency by 55%' does not follow from the table at line 3: ('fp16 (ms)' - 'int8 (ms)') / "
     "'fp16 (ms)' gives A10 / 1 46.7% (1 row)"),
])
def test_single_figures_are_read_as_before(claim, expected):
    assert _sg103(COLUMNS.format(fp16="2.25", claim=claim)) == [(8, expected)]
