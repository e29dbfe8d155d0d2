"""Precision: well-formed documents whose prose matches their tables lint clean.

These are real documents of this repository (its README, the study guide,
the rendered family READMEs) and a large generated study document
(benchmarks/lint_bench.py) whose summaries are computed from its tables.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from studygen.lint import lint_text

REPO = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    [p for p in [REPO / "README.md"] if p.is_file()]
    + sorted((REPO / "docs").glob("*.md"))
    + sorted((REPO / "families").glob("*/README.md"))
)


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(REPO)) for p in DOCUMENTS])
def test_repository_document_lints_clean(path):
    findings = lint_text(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert findings == [], "\n".join(f"{f.place}: {f.code} {f.message}" for f in findings)


def test_there_are_repository_documents_to_lint():
    assert any(p.name == "README.md" and p.parent.parent.name == "families" for p in DOCUMENTS)


def _bench_module():
    spec = importlib.util.spec_from_file_location("lint_bench", REPO / "benchmarks" / "lint_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_consistent_study_lints_clean():
    text = _bench_module().build_document(60_000, seed=3)
    assert text.count("\n## Model ") >= 20
    assert lint_text(text, "bench.md") == []


def test_generated_study_with_one_wrong_summary_gives_one_finding():
    text = _bench_module().build_document(60_000, seed=3)
    start = text.index("On TensorRT 11.4 the fp16 GEMMs take ")
    wrong = text[:start] + text[start:].replace("On TensorRT 11.4 the fp16 GEMMs", "The fp16 GEMMs", 1)
    findings = lint_text(wrong, "bench.md")
    line = text[:start].count("\n") + 1
    assert findings and {(f.code, f.line) for f in findings} == {("SG101", line)}
    gemm = [f for f in findings if "'GEMM ms fp16 → FP8'" in f.message or "of 'GEMM ms fp16'" in f.message]
    assert len(gemm) == 1 and "/ 11.1 /" in gemm[0].message


def test_generated_consistent_prose_lints_clean():
    # the prose-heavy benchmark document: every ratio, range and verdict follows from its section's table,
    # and the verdicts carry their evidence ("less than the spread of 10 runs": a repeat count)
    text = _bench_module().build_document(60_000, seed=3, kind="prose")
    assert text.count("\n## Model ") >= 10
    assert lint_text(text, "bench.md") == []


def test_generated_prose_with_one_wrong_ratio_gives_one_finding():
    text = _bench_module().build_document(60_000, seed=3, kind="prose")
    end = text.index("x faster than fp16", text.index("## Model 4"))
    start = text.rindex("FP8 is ", 0, end)
    ratio = text[start + len("FP8 is "):end]
    wrong = f"{float(ratio) + 0.30:.2f}"  # 0.30 off: beyond the rounding of any printed pair of the section
    findings = lint_text(text[:start] + text[start:].replace(f"FP8 is {ratio}x", f"FP8 is {wrong}x", 1), "bench.md")
    line = text[:start].count("\n") + 1
    assert [(f.code, f.line) for f in findings] == [("SG103", line)]
    assert f"{wrong}x vs fp16 does not follow from the table at line" in findings[0].message
