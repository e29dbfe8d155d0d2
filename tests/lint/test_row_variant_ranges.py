"""A range of ratios or differences between two variants that a table writes as row labels, one row per
network and mode, is read against the per-network pairs of those rows (SG101, studygen.lint.row_variant_pairs):
"INT8 runs 1.7-1.8x faster than FP16" over frame times whose FP16 / INT8 ratios are 1.75, 1.50 and 1.80
leaves out the small network. Before, only two columns (``INT8 (ms)``, ``FP16 (ms)``) were paired, so a
range over such a table was never read. Numbers are invented; each ratio and difference is worked by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# FP16 / INT8 frame time: 21.0 / 12.0 = 1.75, 24.0 / 16.0 = 1.50, 39.6 / 22.0 = 1.80
# INT8 - FP16 RSS: 610 - 500 = 110, 640 - 540 = 100, 700 - 570 = 130
_ROWS = """\
| tiny | INT8 | 12.0 | 610 |
| small | INT8 | 16.0 | 640 |
| base | INT8 | 22.0 | 700 |
| tiny | FP16 | 21.0 | 500 |
| small | FP16 | 24.0 | 540 |
| base | FP16 | 39.6 | 570 |
"""

_DOC = """\
# Detector on an edge board

## Measurements

| Network | Mode | Frame time (ms) | RSS (MB) |
| --- | --- | ---: | ---: |
{rows}
## Takeaways

- {claim}
"""


def _sg101(claim: str, rows: str = _ROWS) -> list[str]:
    return [f"{f.line}: {f.message}" for f in lint_text(_DOC.format(rows=rows, claim=claim), "x.md") if f.code == "SG101"]


def test_a_ratio_range_over_row_variants_names_the_pair_it_leaves_out():
    # before: no finding (a label column of precisions gave no column pair)
    assert _sg101("INT8 runs 1.7-1.8x faster than FP16.") == [
        "16: range 1.7-1.8x leaves out row 'small / INT8' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of int8' and 'Frame time (ms) of fp16' in the table at line 5"]


def test_a_difference_range_over_row_variants_names_the_pair_it_leaves_out():
    assert _sg101("INT8 holds 110-130 MB more RSS than FP16.") == [
        "16: range 110-130 MB leaves out row 'small / INT8' (640 - 540 = 100 MB) of a difference of"
        " 'RSS (MB) of int8' and 'RSS (MB) of fp16' in the table at line 5"]


def test_one_named_variant_is_enough_when_the_column_holds_two():
    # "faster" over frame times: FP16's time over INT8's, the other label of the Mode column
    assert _sg101("INT8 gives ~1.7-1.8x faster detection.") == [
        "16: range 1.7-1.8x leaves out row 'small / INT8' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of int8' and 'Frame time (ms) of fp16' in the table at line 5"]


@pytest.mark.parametrize("claim", [
    "INT8 runs 1.5-1.8x faster than FP16.",  # covers 1.50, 1.75 and 1.80
    "INT8 holds 100-130 MB more RSS than FP16.",  # covers 100, 110 and 130
    "Quantized runs are 1.7-1.8x faster.",  # names no label of the table
    "INT8 scores 1.7-1.8x on the board's index.",  # names a label, but no speed and no header word
])
def test_covering_or_untied_ranges_are_quiet(claim):
    assert _sg101(claim) == []


def test_networks_named_in_an_earlier_clause_scope_the_range_too():
    # tiny and base give 610 - 500 = 110 and 700 - 570 = 130, inside 110-130; small's 100 is not claimed
    assert _sg101("INT8 runs 1.7-1.8x faster than FP16 on tiny and base, and holds 110-130 MB more RSS.") == []


def test_a_mode_column_of_three_labels_pairs_nothing():
    # with FP32 rows too, which two modes the range compares is not read from one sentence
    rows = _ROWS + "| tiny | FP32 | 30.0 | 800 |\n| small | FP32 | 35.0 | 900 |\n| base | FP32 | 50.0 | 990 |\n"
    assert _sg101("INT8 runs 1.7-1.8x faster than FP16.", rows) == []


def test_rows_that_share_no_network_pair_nothing():
    # INT8 measured on tiny and small only, FP16 on base and large only: no network has both
    rows = ("| tiny | INT8 | 12.0 | 610 |\n| small | INT8 | 16.0 | 640 |\n"
            "| base | FP16 | 39.6 | 570 |\n| large | FP16 | 60.0 | 900 |\n")
    assert _sg101("INT8 runs 1.7-1.8x faster than FP16.", rows) == []
