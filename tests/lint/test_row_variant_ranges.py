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


def test_the_first_label_named_is_the_subject():
    # FP16 named first: its rows name the pairs, the ratio FP16 over INT8 frame time
    assert _sg101("FP16 runs 1.7-1.8x slower than INT8.") == [
        "16: range 1.7-1.8x leaves out row 'small / FP16' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of fp16' and 'Frame time (ms) of int8' in the table at line 5"]


def test_a_lone_label_named_at_the_end_of_the_sentence_is_the_subject():
    # "FP16" alone, the second label of the column in table order, its rows name the pairs
    assert _sg101("Frames take 1.7-1.8x longer in FP16.") == [
        "16: range 1.7-1.8x leaves out row 'small / FP16' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of fp16' and 'Frame time (ms) of int8' in the table at line 5"]


def test_two_networks_make_two_pairs_and_a_two_label_network_column_is_passed_over():
    # the Network column holds two labels too (tiny, small), named by no word of the claim
    rows = "| tiny | INT8 | 12.0 | 610 |\n| small | INT8 | 16.0 | 640 |\n| tiny | FP16 | 21.0 | 500 |\n| small | FP16 | 24.0 | 540 |\n"
    assert _sg101("INT8 runs 1.7-1.8x faster than FP16.", rows) == [
        "14: range 1.7-1.8x leaves out row 'small / INT8' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of int8' and 'Frame time (ms) of fp16' in the table at line 5"]


_TWO_WORD_DOC = """\
# Detector on an edge board

| Network | Path | Frame time (ms) |
| --- | --- | ---: |
| tiny | batch mode | 12.0 |
| small | batch mode | 16.0 |
| base | batch mode | 22.0 |
| tiny | stream mode | 21.0 |
| small | stream mode | 24.0 |
| base | stream mode | 39.6 |

{claim}
"""


@pytest.mark.parametrize("claim, found", [
    ("Frames come 1.7-1.8x faster in batch mode.", True),  # the two-word label, named last in the sentence
    ("Batch frames come 1.7-1.8x faster.", False),  # one word of it names no label
    ("The batch path is 1.7-1.8x faster, in stream terms.", False),  # each word apart, neither label whole
])
def test_a_label_of_two_words_is_named_whole(claim, found):
    # same section as the table; 21.0 / 12.0 = 1.75, 24.0 / 16.0 = 1.50, 39.6 / 22.0 = 1.80
    lines = [f"{f.line}: {f.message}" for f in lint_text(_TWO_WORD_DOC.format(claim=claim), "x.md") if f.code == "SG101"]
    assert lines == ([
        "12: range 1.7-1.8x leaves out row 'small / batch mode' (24.0 / 16.0 = 1.50x) of a ratio of"
        " 'Frame time (ms) of batch mode' and 'Frame time (ms) of stream mode' in the table at line 3"] if found else [])


def _sections(count: int, paired: int) -> str:
    """``count`` sections of INT8 and FP16 rows; only section ``paired`` measures its networks at both (21.0 /
    12.0 = 1.75, 24.0 / 16.0 = 1.50), the others each network at one mode (no pair). Then the claim, after
    the last section."""
    parts = ["# Boards\n"]
    for i in range(count):
        fp16 = ("a", "b") if i == paired else ("c", "d")
        parts.append(f"## Board {i}\n\n| Network | Mode | Frame time (ms) |\n| --- | --- | ---: |\n"
                     f"| a{i} | INT8 | 12.0 |\n| b{i} | INT8 | 16.0 |\n"
                     f"| {fp16[0]}{i} | FP16 | 21.0 |\n| {fp16[1]}{i} | FP16 | 24.0 |\n")
    parts.append("## Summary\n\nINT8 runs 1.7-1.8x faster than FP16.\n")
    return "\n".join(parts)


@pytest.mark.parametrize("paired, reported", [(9, True), (2, True), (1, False), (0, False)])
def test_only_the_eight_nearest_naming_tables_are_read(paired, reported):
    # ten sections, each naming both modes; the claim sits after section 9: sections 9 down to 2 are the
    # eight nearest, read whether they pair rows or not
    findings = [f.message for f in lint_text(_sections(10, paired), "x.md") if f.code == "SG101"]
    assert [f"row 'b{paired} / INT8' (24.0 / 16.0 = 1.50x)" in m for m in findings] == ([True] if reported else [])


_KERNELS = """\

## Kernel groups

| Group | INT8 ms | FP16 ms |
| --- | ---: | ---: |
| GEMM | 0.41 | 0.47 |
| SoftMax | 0.20 | 0.20 |
"""


def test_a_range_of_what_another_table_holds_is_not_read_against_the_split_rows():
    # a generated H200 README (s27): "FP8's GEMM kernels take 0.060 to 0.068 ms less than fp16's", a kernel group's
    # difference, was read against a table of latencies split by variant, whose rows it left out; here GEMM is a row of
    # the kernel table only, so the frame-time rows are no pair of the claim, while a claim naming no such row is read
    doc = _DOC.format(rows=_ROWS, claim="INT8's GEMM kernels take 6-9 ms less than FP16's.") + _KERNELS
    assert [f for f in lint_text(doc, "x.md") if f.code == "SG101"] == []
    doc = _DOC.format(rows=_ROWS, claim="INT8 frames take 6-9 ms less than FP16's.") + _KERNELS
    assert [f.line for f in lint_text(doc, "x.md") if f.code == "SG101"] == [16]
