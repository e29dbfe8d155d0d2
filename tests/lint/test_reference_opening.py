"""SG101: a reference named in the sentence's opening phrase ("Against fp16,
...") is the comparison's baseline for every clause, so its own 1.00x row is
not left out of a range of ratios (found by a mutation-test helper: the
opening phrase was not read)."""

from __future__ import annotations

from studygen.lint import lint_text

TABLE = """
| engine | median (ms) | vs bf16 |
| --- | --- | --- |
| bf16 | 12.0 | 1.00x |
| w8a8 | 7.2 | 0.60x |
| nvfp4 | 5.4 | 0.45x |
"""


def sg101(sentence: str) -> list:
    return [f for f in lint_text(sentence + "\n" + TABLE, "doc.md") if f.code == "SG101"]


def test_an_opening_reference_makes_its_row_the_baseline():
    assert sg101("Against bf16, the quantized engines take 0.45-0.60x.") == []
    assert sg101("Relative to the bf16 engine, the others take 0.45-0.60x.") == []
    assert sg101("Compared with bf16: the others take 0.45-0.60x.") == []


def test_the_other_rows_are_still_held_to_the_range():
    (finding,) = sg101("Against bf16, the quantized engines take 0.50-0.60x.")
    assert "leaves out row 'nvfp4' (0.45x)" in finding.message


def test_without_a_named_reference_the_identity_row_is_left_out():
    (finding,) = sg101("The engines take 0.45-0.60x.")
    assert "leaves out row 'bf16' (1.00x)" in finding.message
    (finding,) = sg101("Against expectations, the engines take 0.45-0.60x.")  # names no row
    assert "row 'bf16'" in finding.message
