"""Every case document of tests/cases/lint/ lints to exactly its expected findings."""

from __future__ import annotations

import pytest

from studygen.findings import CODES
from studygen.lint import lint_text

from .cases import CHECK_CODES, all_cases, load_case, CASES

CASE_PATHS = sorted(CASES.glob("*.md"))


@pytest.mark.parametrize("path", CASE_PATHS, ids=[p.stem for p in CASE_PATHS])
def test_case_lints_to_its_expected_findings(path):
    case = load_case(path)
    assert case.kind, f"{path.name}: no 'case:' line saying what it exercises"
    findings = lint_text(case.text, path.name)
    got = sorted((f.code, f.line) for f in findings)
    want = sorted((e.code, e.line) for e in case.expected)
    shown = "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings)
    assert got == want, f"{path.name}: findings differ\n{shown}"
    unused = list(findings)
    for expected in case.expected:
        # several findings may share a line: each expectation takes one whose message holds all its fragments
        on_line = [f for f in unused if (f.code, f.line) == (expected.code, expected.line)]
        finding = next((f for f in on_line if all(fragment in f.message for fragment in expected.fragments)), on_line[0])
        for fragment in expected.fragments:
            assert fragment in finding.message, f"{path.name}:{expected.line}: {fragment!r} not in {finding.message!r}"
        unused.remove(finding)
        assert finding.severity == CODES[expected.code][0]
        assert finding.hint, "every finding says how to fix it"
        assert finding.file == path.name
    for fragment in case.absent:
        assert all(fragment not in f.message for f in findings), f"{path.name}: {fragment!r} should not be named"


def test_each_check_has_three_positive_and_three_negative_cases():
    cases = all_cases()
    for code in CHECK_CODES:
        positive = [c.path.name for c in cases if code in c.positive_for]
        negative = [c.path.name for c in cases if code in c.negative_for and not c.expected]
        assert len(positive) >= 3, f"{code}: positive cases {positive}"
        assert len(negative) >= 3, f"{code}: negative cases {negative}"


def test_cases_with_constructed_rows_say_so():
    """Where the seed gives only ranges, the case constructs rows and says so."""
    seed = load_case(CASES / "sg101_seed_as_submitted.md")
    assert "constructed rows:" in seed.text and "synthetic" in seed.text
