"""SG101 reads a range written in words in a summary table's cell ("Decode step | 10-20% faster") as it reads
one in a sentence: the header and the row label around it name the subject and the quantity. Seen on a
serving report (session 24's unseen set): an executive summary's "TPOT | 15-25% faster" cell over per-load
TPOT gains that ran up to 31.8% passed, while the same words in a paragraph would not have. Documents and
figures of our own; the gains worked out by hand: (Q - K) / Q = 1 / 10 = 10.0%, 2 / 14 = 14.3%, 5 / 20 = 25.0%."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document

SUMMARY = """\
# Serving comparison

## Summary

| Metric | Engine K lead | Engine Q lead |
|---|---|---|
| Decode step | {cell} | - |
| Peak memory | {other} | - |

## Decode step time

| Batch | Engine K (ms) | Engine Q (ms) | K lead |
|---|---|---|---|
| 1 | 9.0 | 10.0 | 10.0% faster |
| 8 | 12.0 | 14.0 | 14.3% faster |
| 32 | 15.0 | 20.0 | 25.0% faster |
"""


def _sg101(cell: str, other: str = "5-8% lower") -> list[tuple[int, str]]:
    text = SUMMARY.format(cell=cell, other=other)
    return [(f.line, f.message) for f in lint_text(text, "s.md") if f.code == "SG101"]


def test_a_summary_cell_range_that_leaves_out_a_row_is_reported():
    # fails before: no finding (table cells were never read as claims)
    assert _sg101("10-20% faster") == [
        (7, "range 10-20% leaves out row '32' (25.0%) of 'K lead' in the table at line 12")]


@pytest.mark.parametrize("cell, other", [
    ("10-25% faster", "5-8% lower"),       # the range covers 10.0, 14.3 and 25.0
    ("10 to 25% faster", "5-8% lower"),
    # a figure besides the range in the cell says where it holds: not read
    ("10-20% faster at 8 users", "5-8% lower"),
])
def test_covered_or_not_a_summary_cell_is_quiet(cell, other):
    assert _sg101(cell, other) == []


def test_the_cell_reads_as_header_label_and_cell_at_its_own_line():
    from studygen.lint.cell_claims import cell_blocks  # here, so the quiet cases run on code without the module

    document = parse_document(SUMMARY.format(cell="10-20% faster", other="5-8% lower"), "s.md")
    assert [(b.kind, b.line, b.text) for b in cell_blocks(document)] == [
        ("cell", 7, "Engine K lead Decode step 10-20% faster"),
        ("cell", 8, "Engine K lead Peak memory 5-8% lower"),
    ]
    # the blocks are SG101's alone: the document's prose is unchanged
    assert all(block.kind != "cell" for block in document.prose)


def test_a_table_with_a_measured_column_is_no_summary():
    # an estimate in words beside measured times is a result of that table, read as its cells are
    text = SUMMARY.format(cell="10-20% faster", other="5-8% lower").replace(
        "| Metric | Engine K lead | Engine Q lead |\n|---|---|---|\n| Decode step | 10-20% faster | - |\n"
        "| Peak memory | 5-8% lower | - |",
        "| Metric | Step (ms) | Engine K lead |\n|---|---|---|\n| Decode step | 12.0 | 10-20% faster |\n"
        "| Peak memory | 9.5 | 5-8% lower |")
    assert "| Step (ms) |" in text
    assert [f for f in lint_text(text, "s.md") if f.code == "SG101"] == []


def test_a_table_of_measured_ranges_gives_no_cell_claim():
    from studygen.lint.cell_claims import cell_blocks

    # "9-12" under a unit header is a measurement (a range cell of a series), and a note of words no claim
    table = "| Model | Step (ms) | Note |\n|---|---|---|\n| a | 9-12 | stable |\n| b | 10-14 | slow start |\n"
    assert cell_blocks(parse_document(table, "m.md")) == []
