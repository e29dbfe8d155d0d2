"""SG107 and cells that hold a range of values, as the generic template
prints a measurement several jobs report ("0.84 to 0.91 (2 jobs: a, b)").
Such a cell holds two figures, its ends: a claim about every row is judged
at both, so one end going against it contradicts it, and a claim whose only
comparisons are range cells is neither passed unread nor called one that
compares nothing.

Case (a new user's trial): "INT8 is faster than fp32 on every GPU" over
tables in which no GPU had both variants was reported as comparing nothing,
until a second fp32 job turned that GPU's fp32 cell into a range; the claim
then passed with no finding. Documents and figures of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text, parse_document
from studygen.lint.restriction import TextView
from studygen.lint.table_joins import pick

# one table, both variants in columns; the L4 fp16 cell is a range over two jobs
ONE_TABLE = """\
# Encoder

| GPU | fp16 (ms) | bf16 (ms) |
|---|---|---|
| L4 | {l4} | 0.93 |
| T4 | {t4} | {t4_bf16} |

{claim}
"""
CLAIM = "fp16 is faster than bf16 on every GPU."


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_a_range_cell_true_at_both_ends_backs_the_claim_in_one_table():
    # the only row with both figures holds a range: 0.84 and 0.91 are each below 0.93
    text = ONE_TABLE.format(l4="0.84 to 0.91 (2 jobs: l4-a, l4-b)", t4="1.70", t4_bf16="", claim=CLAIM)
    assert _sg107(text) == []
    table = parse_document(text, "t.md").tables[0]
    assert [f.text for f in table.series[0].ends(0)] == ["0.84", "0.91"]
    assert table.series[0].ends(1)[0].text == "1.70" and table.series[1].ends(1) == ()


@pytest.mark.parametrize("l4, shown", [
    ("0.88 to 0.97 (2 jobs: l4-a, l4-b)", "0.88 to 0.97"),  # the high end is slower than bf16's 0.93
    ("0.86 to 0.93 (2 jobs: l4-a, l4-b)", "0.86 to 0.93"),  # the high end ties it: no "faster" there
])
def test_one_end_going_against_the_claim_contradicts_it_in_one_table(l4, shown):
    # the T4 row bears the claim out; only the L4 range cell can contradict it
    text = ONE_TABLE.format(l4=l4, t4="1.70", t4_bf16="1.95", claim=CLAIM)
    ((line, message),) = _sg107(text)
    assert line == 8
    tie = " (a tie as printed)" if shown.endswith("0.93") else ""
    assert message == ("'fp16 is faster than bf16 on every GPU' is contradicted by the table at line 3 "
                       f"('fp16 (ms)' against 'bf16 (ms)', 2 rows named): row 'L4' has {shown} against 0.93{tie}")


# each variant alone in its table, as the generic template prints variants timed in different ways; the fp32
# table and the RTX 4080 int8 table are timed alike, so figures of one GPU in them pair
GENERIC = """\
# Classifier

## Summary and decision

{claim}

## Results

Timed as TensorRT engine, GPU compute time, CUDA graphs off:

| GPU | Batch | int8 (ms) |
| --- | --- | --- |
| Orin NX | 1 | 2.406 |
| Orin NX | 8 | 9.118 |

Timed as TensorRT engine, GPU compute time, CUDA graphs on:

| GPU | fp32 (ms) |
| --- | --- |
| {fp32_gpu} | {fp32} |

Timed as TensorRT engine, GPU compute time, CUDA graphs on:

| GPU | int8 (ms) |
| --- | --- |
| RTX 4080 | 0.3127 |
"""
INT8_CLAIM = "INT8 is faster than fp32 on every GPU."


def test_a_range_cell_on_a_gpu_the_other_variant_never_ran_on_compares_nothing():
    text = GENERIC.format(claim=INT8_CLAIM, fp32_gpu="RTX 3060", fp32="1.611 to 1.702 (2 jobs: r3060, r3060-b)")
    ((line, message),) = _sg107(text)
    assert line == 5
    assert message.startswith(
        "'INT8 is faster than fp32 on every GPU' compares nothing: no figure of 'int8 (ms)' (3 in the tables at "
        "lines 11 and 24) stands beside one of 'fp32 (ms)' (1 in the table at line 18) with nothing else different")
    # the same table with one job's figure in the cell is reported the same way
    single = GENERIC.format(claim=INT8_CLAIM, fp32_gpu="RTX 3060", fp32="1.611")
    assert [m for _, m in _sg107(single)] == [message]


@pytest.mark.parametrize("fp32, shown", [
    ("0.3021 to 0.3344 (2 jobs: r4080, r4080-b)", "0.3021 to 0.3344"),  # the low end beats int8's 0.3127
    ("0.2950 to 0.3010 (2 jobs: r4080, r4080-b)", "0.2950 to 0.3010"),  # both ends do
])
def test_a_range_cell_paired_across_tables_is_judged_at_either_end(fp32, shown):
    text = GENERIC.format(claim=INT8_CLAIM, fp32_gpu="RTX 4080", fp32=fp32)
    ((line, message),) = _sg107(text)
    assert line == 5
    assert message.startswith("'INT8 is faster than fp32 on every GPU' is contradicted by the tables at lines 18 "
                              "and 24 ('int8 (ms)' against 'fp32 (ms)', 1 pair(s) of figures paired by 'GPU')")
    assert message.endswith(f"row 'RTX 4080' in 'int8 (ms)' (line 26) has 0.3127 against {shown} at line 20")


def test_a_range_cell_paired_across_tables_true_at_both_ends_passes():
    text = GENERIC.format(claim=INT8_CLAIM, fp32_gpu="RTX 4080", fp32="0.3402 to 0.3517 (2 jobs: r4080, r4080-b)")
    assert _sg107(text) == []
    document = parse_document(text, "t.md")
    block = next(b for b in document.prose if "INT8" in b.text)
    joined = pick(document, "time", "INT8 is", "fp32 on every GPU.", TextView("", frozenset()), block, ranges=True)
    ((_, xs, ys),) = joined.ends()
    assert [f.text for f in xs] == ["0.3127"] and [f.text for f in ys] == ["0.3402", "0.3517"]
    # SG103's reading asks for no ranges: the range cell is not one of its figures
    assert pick(document, "time", "INT8 is", "fp32 on every GPU.", TextView("", frozenset()), block) is None
