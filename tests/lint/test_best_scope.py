"""SG107 and a best-of claim over every row of the document ("the largest
speedup of any shape so far (5.00x)") where a table other than the figure's
own, of the same layout and column, holds a larger one
(studygen.lint.best_scope).

Before, such a claim was read against its own table only: a public DSP
kernel log (session 28) called a 5.81x the largest speedup "of any shape
covered so far" two tables after one of 8.65x, in a relative clause ("...
case (...), which got the largest ...") with a concession after its figure
("despite ... not ..."), and lint said nothing. Our tables: shapes s1, s2
(6.50x, 3.00x) then s3, s4 (5.00x, 2.00x); the claim names s3.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

TABLES = """# Kernel coverage

## First batch

| Shape | Baseline | Kernel | {header} |
|---|---|---|---|
| s1 | 2.00 | 13.0 | 6.50x |
| s2 | 4.00 | 12.0 | 3.00x |

## Second batch

| {first} | Stride | Baseline | Kernel | Speedup |
|---|---|---|---|---|
| s3 | 2 | 3.00 | 15.0 | 5.00x |
| s4 | 1 | 5.00 | 10.0 | 2.00x |

{sentence}
"""


def _sg107(sentence: str, header: str = "Speedup", first: str = "Shape") -> list[tuple[int, str]]:
    text = TABLES.format(sentence=sentence, header=header, first=first)
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    "Shape s3 got the largest speedup of any shape so far (5.00x).",
    "Shape s3 has the highest speedup of all shapes measured (5.00x).",
    "The stride-2 case (s3), which got the largest speedup of any shape so far (5.00x) despite not being cheap, "
    "ends the batch.",
])
def test_claim_over_every_row_is_read_against_the_other_tables(sentence):
    found = _sg107(sentence)
    assert [line for line, _ in found] == [17]
    assert "row 's1' has 6.50 (table at line 5)" in found[0][1]
    assert "row 's2'" not in found[0][1]  # 3.00x is below the quoted 5.00x


@pytest.mark.parametrize("sentence", [
    "Shape s3 got the largest speedup in this batch (5.00x).",  # no claim over every row: its table holds
    "Shape s1 got the largest speedup of any shape so far (6.50x).",  # true
    "Shape s3 got about the largest speedup of any shape so far (~5.00x).",  # approximate
])
def test_claim_that_holds_or_claims_less_is_silent(sentence):
    assert _sg107(sentence) == []


def test_other_column_or_other_rows_are_not_compared():
    sentence = "Shape s3 got the largest speedup of any shape so far (5.00x)."
    assert _sg107(sentence, header="Memory saving") == []  # another quantity in the first table
    assert _sg107(sentence, first="Model") == []  # the second table's rows are other things


def test_so_far_leaves_out_the_tables_below():
    text = """# Kernel coverage

| Shape | Baseline | Kernel | Speedup |
|---|---|---|---|
| s3 | 3.00 | 15.0 | 5.00x |
| s4 | 5.00 | 10.0 | 2.00x |

Shape s3 got the largest speedup of any shape so far (5.00x).

Shape s3 got the largest speedup of any shape (5.00x).

| Shape | Baseline | Kernel | Speedup |
|---|---|---|---|
| s1 | 2.00 | 13.0 | 6.50x |
| s2 | 4.00 | 12.0 | 3.00x |
"""
    assert [f.line for f in lint_text(text, "x.md") if f.code == "SG107"] == [10]


def test_smallest_over_every_row():
    text = TABLES.format(sentence="Shape s4 had the lowest speedup of all shapes (2.00x).", header="Speedup",
                         first="Shape").replace("| s2 | 4.00 | 12.0 | 3.00x |", "| s2 | 8.00 | 12.0 | 1.50x |")
    found = [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG107"]
    assert [line for line, _ in found] == [17]
    assert "the smallest 'Speedup'" in found[0][1] and "row 's2' has 1.50 (table at line 5)" in found[0][1]


def test_relative_clause_claim_over_every_row_in_one_table():
    # "which" opens the claim: the words before it name the row the quoted figure gives
    found = _sg107("We keep s4, which got the largest speedup of any shape in its batch (2.00x).")
    assert [line for line, _ in found] == [17]
    assert "row 's3' has 5.00" in found[0][1]


def test_tables_of_the_same_rows_under_other_conditions_are_not_compared():
    text = """# Speedup per GPU

## Board A

| Model | Baseline | Kernel | Speedup |
|---|---|---|---|
| m1 | 2.00 | 13.0 | 6.50x |
| m2 | 4.00 | 12.0 | 3.00x |

## Board B

| Model | Baseline | Kernel | Speedup |
|---|---|---|---|
| m1 | 3.00 | 15.0 | 5.00x |
| m2 | 5.00 | 10.0 | 2.00x |

Model m1 got the largest speedup of any model (5.00x).
"""
    assert [f for f in lint_text(text, "x.md") if f.code == "SG107"] == []


def test_relative_clause_claiming_less_than_every_row_is_not_read():
    # the row the claim is said of (v2) stands before "which": read from the pronoun, "at batch 8" would
    # pass for its subject and v2's batch-1 row for a rival
    text = """# Latency per batch

| Variant | Batch | Latency (ms) |
|---|---|---|
| v1 | 1 | 3.0 |
| v2 | 1 | 4.0 |
| v1 | 8 | 9.0 |
| v2 | 8 | 8.0 |

We kept v2, which has the lowest latency (8.0 ms) at batch 8.
"""
    assert [f for f in lint_text(text, "x.md") if f.code == "SG107"] == []


def test_concession_after_a_claim_of_fewer_rows_still_leaves_it_unread():
    # "although not on board B" grants an exception: only a claim over every row has its concession cut off
    text = """# Latency per board

| Variant | Board | Latency (ms) |
|---|---|---|
| v1 | A | 3.0 |
| v2 | A | 4.0 |
| v1 | B | 9.0 |
| v2 | B | 8.0 |

v1 is the fastest variant at 3.0 ms, although not on board B.
"""
    assert [f for f in lint_text(text, "x.md") if f.code == "SG107"] == []
