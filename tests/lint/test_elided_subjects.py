"""A range clause that leaves out its subject ("..., but pulls ahead from batch 32 (1.10-1.57x)") opens
with a verb; its subject is the one of the clause before ("nf4 trails at batch 16"). Seen in a public
quantization study: "INT4 is the only miss at bsz=32 (0.95x), but turns decisively faster from bsz>=64
(1.24-2.19x)" was read against the FP16 rows of those batches too, and reported them as left out.
Speedups are the table's own cells."""

from __future__ import annotations

from studygen.lint import lint_text

SWEEP = """# Formats against fp32

| Batch | Format | Speedup vs fp32 |
|---|---|---|
| 16 | bf16 | 1.40x |
| 16 | nf4 | 0.88x |
| 32 | bf16 | 1.72x |
| 32 | nf4 | 1.10x |
| 128 | bf16 | 2.31x |
| 128 | nf4 | 1.57x |

{sentence}
"""


def _sg101(sentence: str):
    return [(f.line, f.message) for f in lint_text(SWEEP.format(sentence=sentence), "x.md") if f.code == "SG101"]


def test_a_clause_opening_with_a_verb_takes_the_subject_of_the_clause_before():
    # fails before: "range 1.10-1.57x leaves out 2 rows: '32 / bf16' (1.72x), '128 / bf16' (2.31x)"
    assert _sg101("nf4 trails at batch 16 (0.88x), but pulls ahead from batch 32 on (1.10-1.57x).") == []
    assert _sg101("nf4 is slower at batch 16 (0.88x); but wins from batch 32 on (1.10-1.57x).") == []
    assert _sg101("nf4 is slower at batch 16 (0.88x); then quickly turns faster from batch 32 on (1.10-1.57x).") == []
    assert _sg101("nf4 is slower at batch 16, and becomes faster from batch 32 on at 1.10-1.57x.") == []


def test_the_subject_s_rows_are_still_checked():
    # 1.57x lies above 1.50x: the nf4 row of batch 128 is left out, the bf16 rows are not named
    ((line, message),) = _sg101("nf4 trails at batch 16 (0.88x), but pulls ahead from batch 32 on (1.10-1.50x).")
    assert line == 12
    assert message.startswith("range 1.10-1.50x leaves out row '128 / nf4' (1.57x)")


def test_a_subject_that_names_no_row_leaves_the_clause_its_own_rows():
    # "Quantizing" names no format: the range still summarises both formats' rows past batch 32
    ((_, message),) = _sg101("Quantizing is slower at batch 16, but pays off from batch 32 on (1.10-1.57x).")
    assert message.startswith("range 1.10-1.57x leaves out 2 rows: '32 / bf16' (1.72x), '128 / bf16' (2.31x)")


def test_a_clause_naming_its_own_subject_keeps_it():
    # "bf16" opens the second clause: it is its subject, not nf4
    ((_, message),) = _sg101("nf4 trails at batch 16, but bf16 leads from batch 32 on (1.80-2.31x).")
    assert message.startswith("range 1.80-2.31x leaves out row '32 / bf16' (1.72x)")
    assert _sg101("nf4 trails at batch 16, but bf16 leads from batch 32 on (1.72-2.31x).") == []


def test_a_clause_after_a_bare_comma_is_not_joined():
    # no "but", "and" or semicolon: "pulling" is no verb of a coordinate clause; read as before
    ((_, message),) = _sg101("nf4 trails at batch 16 (0.88x), pulling ahead from batch 32 on (1.10-1.57x).")
    assert "'32 / bf16' (1.72x)" in message


VERDICTS = """# Formats against fp32, with a verdict column

| Batch | Format | Verdict | Speedup vs fp32 |
|---|---|---|---|
| 16 | bf16 | faster | 1.40x |
| 16 | nf4 | slower | 0.88x |
| 32 | bf16 | faster | 1.72x |
| 32 | nf4 | faster | 1.10x |
| 128 | bf16 | faster | 2.31x |
| 128 | nf4 | faster | 1.57x |

nf4 is the one slower row at batch 16, but turns faster from batch 32 on (1.10-1.57x).
"""


def test_a_verb_clause_naming_another_column_s_label_still_takes_the_subject():
    # "faster" names the verdict column's rows (every bf16 row among them); the subject nf4 narrows them
    # fails before: "... leaves out 2 rows: '32 / bf16 / faster' (1.72x), '128 / bf16 / faster' (2.31x)"
    assert [f.message for f in lint_text(VERDICTS, "x.md") if f.code == "SG101"] == []
