"""SG101 and SG107 over tables shaped as the generic template prints them.
Cases (a new user's `studygen check` of a COCO and profiler-trace study):

- a cell of several jobs' figures, "0.457 to 0.92 (3 jobs: a, b, c)", is a
  range cell: its two ends are values of the column for SG101, SG107
  judges the row at both ends (a later trial's replica job had turned a
  cell into such a range and switched the claim's check off), and the
  column's other rows are still read (such cells in most rows had split
  the column into two figure positions, leaving every single-figure row
  out of both checks);
- a COCO AP table carries a difference column "fp16 minus fp32 (AP
  points)": it names both variants, yet is no variant, so SG107 ties
  "fp16 ... than fp32" to the two AP columns (it had found three and
  given up);
- "AP ranges from A to B across the variants" is read against every
  variant column of the unit together (it had passed since the fp16 column
  alone fits it).

Tables, numbers and sentences of our own; expected rows read off by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.text import difference_header

# Pooling: two rows of several jobs, one single figure (A100 0.300, under elementwise's 0.410)
KERNELS = """\
# Kernels

| GPU | Pooling (ms) | Elementwise (ms) |
|---|---|---|
| H100 | 0.457 to 0.92 (3 jobs: h100-a, h100-b, h100-c) | 0.410 |
| H200 | 0.51 to 0.60 (2 jobs: h200-a, h200-b) | 0.41 to 0.43 (2 jobs: h200-a, h200-b) |
| A100 | 0.300 | 0.410 |

{claim}
"""

# fp16: 10.69 to 10.71 and 10.70 to 10.71 over two jobs each, 10.73 and 5.320 single
LATENCY = """\
# Latency

| GPU | fp16 (ms) | fp32 (ms) |
|---|---|---|
| H100 | 10.69 to 10.71 (2 jobs: h100-a, h100-b) | 20.10 to 20.30 (2 jobs: h100-a, h100-b) |
| H200 | 10.70 to 10.71 (2 figures of 1 job: h200-a) | 20.10 |
| A100 | 10.73 | 21.20 |
| L4 | 5.320 | 9.900 |

{claim}
"""

# the generic template's COCO AP table: fp32 above fp16 on both GPUs
COCO = """\
# Detection quality

## COCO AP

AP: precision averaged over IoU 0.50 to 0.95, objects of every area, up to 100 detections per image:

| GPU | fp32 (AP) | fp16 (AP) | fp16 minus fp32 (AP points) |
|---|---|---|---|
| A100 | 0.7347 | 0.6137 | -12.10 |
| H100 | 0.7312 | 0.6201 | -11.11 |

{claim}
"""


def _messages(document: str, claim: str, code: str) -> list[str]:
    return [f.message for f in lint_text(document.format(claim=claim), "t.md") if f.code == code]


def test_a_jobs_note_after_a_range_makes_a_range_cell():
    table = parse_document(LATENCY.format(claim=""), "t.md").tables[0]
    fp16, fp32 = table.series
    assert (fp16.header, fp16.parts) == ("fp16 (ms)", 1)
    assert [v and v.text for v in fp16.values] == [None, None, "10.73", "5.320"]
    assert {row: (lo.text, hi.text) for row, (lo, hi) in fp16.spans.items()} == {0: ("10.69", "10.71"),
                                                                               1: ("10.70", "10.71")}
    assert [v and v.text for v in fp32.values] == [None, "20.10", "21.20", "9.900"]
    assert fp32.bounds == (9.9, 21.2)


def test_a_single_figure_row_still_contradicts_a_universal_claim():
    (message,) = _messages(KERNELS, "Pooling is slower than elementwise on every GPU.", "SG107")
    assert message == ("'Pooling is slower than elementwise on every GPU' is contradicted by the table at line 3 "
                       "('Pooling (ms)' against 'Elementwise (ms)', 3 rows named): row 'A100' has 0.300 against 0.410")


def test_range_rows_are_judged_at_both_ends():
    # A100 0.300 < 0.410 supports the claim; the H100 and H200 jobs give pooling times above elementwise's
    (message,) = _messages(KERNELS, "Pooling is faster than elementwise on every GPU.", "SG107")
    assert message == ("'Pooling is faster than elementwise on every GPU' is contradicted by the table at line 3 "
                       "('Pooling (ms)' against 'Elementwise (ms)', 3 rows named): row 'H100' has 0.457 to 0.92 "
                       "against 0.410; row 'H200' has 0.51 to 0.60 against 0.41 to 0.43")


def test_a_prose_range_must_cover_the_single_rows_beside_range_cells():
    (message,) = _messages(LATENCY, "The fp16 latency ranges from 10.69 to 10.71 ms.", "SG101")
    assert message == ("range 10.69 to 10.71 ms leaves out 2 rows: 'A100' (10.73 ms), 'L4' (5.320 ms) "
                       "of 'fp16 (ms)' in the table at line 3")


@pytest.mark.parametrize("claim", [
    "The fp16 latency ranges from 5.320 to 10.73 ms.",
    "The fp16 latency ranges from 10.69 to 10.73 ms on the H100, H200 and A100.",
])
def test_a_prose_range_covering_the_ends_and_the_single_rows_passes(claim):
    assert _messages(LATENCY, claim, "SG101") == []


def test_a_range_that_misses_an_end_of_a_range_cell_is_reported():
    (message,) = _messages(LATENCY, "The fp16 latency ranges from 5.320 to 10.70 ms.", "SG101")
    assert "'H100' (10.71 ms)" in message and "'H200' (10.71 ms)" in message and "'A100' (10.73 ms)" in message


def test_a_difference_column_is_no_variant():
    assert difference_header("fp16 minus fp32 (AP points)") and difference_header("FP8 - fp16 (points)")
    assert difference_header("Saving (ms)")
    assert not difference_header("fp16 (AP)") and not difference_header("fp32 (ms)")


@pytest.mark.parametrize("claim", [
    "fp16 scores a higher AP than fp32 on every GPU.",
    "fp16 is more accurate than fp32 on every GPU.",
    "fp16 beats fp32 in AP on all GPUs.",
])
def test_an_ap_claim_against_the_generic_coco_table(claim):
    (message,) = _messages(COCO, claim, "SG107")
    assert message == (f"'{claim[:-1]}' is contradicted by the table at line 7 ('fp16 (AP)' against 'fp32 (AP)', "
                       "2 rows named): row 'A100' has 0.6137 against 0.7347; row 'H100' has 0.6201 against 0.7312")


@pytest.mark.parametrize("claim", [
    "fp32 scores a higher AP than fp16 on every GPU.",
    "fp16 is less accurate than fp32 on every GPU.",
])
def test_an_ap_claim_the_coco_table_supports_passes(claim):
    assert _messages(COCO, claim, "SG107") == []


def test_a_range_across_the_variants_reads_every_variant_column():
    (message,) = _messages(COCO, "AP ranges from 0.6137 to 0.7000 across the variants.", "SG101")
    assert message == ("range 0.6137 to 0.7000 leaves out 2 rows: 'A100' (AP 0.7347), 'H100' (AP 0.7312) "
                       "of 'fp32 (AP)' and 'fp16 (AP)' in the table at line 7")


@pytest.mark.parametrize("claim", [
    "AP ranges from 0.6137 to 0.7347 across the variants.",
    "AP lies between 0.61 and 0.74 for both precisions.",
    "fp16 AP ranges from 0.6137 to 0.6201.",  # one variant's column, no claim across the variants
])
def test_a_range_the_variant_columns_support_passes(claim):
    assert _messages(COCO, claim, "SG101") == []


def test_a_range_across_the_variants_in_another_section_reads_the_table():
    document = "# Study\n\n## Summary\n\n{claim}\n\n" + COCO.split("\n", 2)[2].replace("{claim}", "")
    (message,) = _messages(document, "AP ranges from 0.6137 to 0.7000 across the variants.", "SG101")
    assert "'A100' (AP 0.7347), 'H100' (AP 0.7312) of 'fp32 (AP)' and 'fp16 (AP)'" in message


def test_for_every_variant_over_variants_as_rows_claims_the_rows_not_the_columns():
    # columns of batch sizes, variants as rows: "for every variant" is about the batch 1 rows
    document = ("# ITL\n\n| variant | batch 1 ms | batch 64 ms |\n|---|---|---|\n| bf16 | 6.71 | 12.6 |\n"
                "| fp8 | 7.05 | 10.1 |\n\n{claim}\n")
    assert _messages(document, "At batch 1 the latency is between 6.71 and 7.05 ms for every variant.", "SG101") == []
