"""Acceptance: the seed's submitted summary against its kernel-time table.

"GEMMs take 0.19 to 0.21 ms" and "FP8 saves 0.04 to 0.11 ms" leave out the
B200 / TensorRT 11.1 / 800 x 1067 row (GEMM 0.409 ms in fp16, 0.073 ms in FP8,
a saving of 0.409 - 0.073 = 0.336 ms): exactly two SG101 findings.
"""

from __future__ import annotations

from studygen.lint import lint_text

from .cases import CASES

SEED_CASE = CASES / "sg101_seed_as_submitted.md"


def test_seed_summary_gives_exactly_two_sg101_findings():
    text = SEED_CASE.read_text(encoding="utf-8")
    findings = lint_text(text, "families/deformable_detr/README.md")
    assert [f.code for f in findings] == ["SG101", "SG101"]
    gemm, saving = findings
    lines = text.split("\n")
    assert "0.19 to 0.21 ms" in lines[gemm.line - 1]
    assert "0.04 to 0.11 ms" in lines[saving.line - 1]
    assert "0.409 ms" in gemm.message and "B200 / 11.1 / 800 x 1067" in gemm.message
    assert "0.336 ms" in saving.message and "0.409 - 0.073" in saving.message
    assert "0.336" not in gemm.message
    assert all(f.severity == "error" for f in findings)
    # the hints give the range that would cover every row
    assert "0.19 to 0.409 ms" in gemm.hint
    assert "0.04 to 0.336 ms" in saving.hint


def test_restricting_the_summary_to_tensorrt_11_4_clears_both_findings():
    text = SEED_CASE.read_text(encoding="utf-8")
    fixed = text.replace(
        "GEMMs take 0.19 to 0.21 ms out of a profiled run of 7.4 to 16.2 ms,",
        "On TensorRT 11.4 GEMMs take 0.19 to 0.21 ms out of a profiled run of 7.4 to 14.9 ms,",
    ).replace("FP8 saves 0.04 to 0.11 ms of GEMM time;", "On TensorRT 11.4 FP8 saves 0.04 to 0.11 ms of GEMM time;")
    assert fixed != text
    assert lint_text(fixed, "README.md") == []


def test_widening_the_summary_to_every_row_clears_both_findings():
    text = SEED_CASE.read_text(encoding="utf-8")
    fixed = text.replace("0.19 to 0.21 ms", "0.19 to 0.409 ms").replace("0.04 to 0.11 ms", "0.04 to 0.336 ms")
    assert lint_text(fixed, "README.md") == []
