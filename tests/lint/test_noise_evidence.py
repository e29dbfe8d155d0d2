"""SG105: a statistic's name in a paragraph is evidence for a noise verdict
only with a figure beside it (unseen document 11: "caused by evaluation
variance ... within normal benchmark noise" printed no spread at all).
Documents and sentences are ours; lines worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.noise_evidence import measured_evidence

# a table of medians only (no spread, no repeat count), then a paragraph on line 8
TABLE = "| Build | Latency (ms) |\n|---|---:|\n| eager | 10.2 |\n| compiled | 10.1 |\n\nSome words between.\n\n"


def _sg105(paragraph: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE + paragraph + "\n", "t.md") if f.code == "SG105"]


@pytest.mark.parametrize("paragraph", [
    "The gap is caused by evaluation variance and is within normal benchmark noise.",
    "Compiled beats eager by 0.1 ms, within one standard deviation, so the gap is within noise.",
    "Both builds show some variance; the gap is in the noise.",
    "The confidence intervals overlap and the change is within noise.",
    "The H100 has low variance, and the gap is within noise.",             # a GPU's digits are no figure
    "We looked at the spread. The 0.1 ms gap is in the noise.",            # the figure is another sentence's
    "A CV was never computed, but the gap is within run-to-run noise.",
])
def test_a_statistic_named_without_a_figure_is_no_evidence(paragraph):
    found = _sg105(paragraph)
    # "within one standard deviation" is a verdict of its own: one finding for each verdict, all on line 8
    assert found and {line for line, _ in found} == {8}
    assert found[-1][1].endswith("with no spread, repeat count or test stated in the same paragraph")


@pytest.mark.parametrize("paragraph", [
    "The gap is within noise (std 0.2 ms).",
    "With a coefficient of variation of 1.3%, the gap is within noise.",
    "The gap is within noise: 0.3 ms standard deviation on both builds.",
    "The standard deviation across the builds was 0.4 ms, so the gap is within noise.",
    "The gap is within noise; the run-to-run spread was 0.2-0.3 ms.",
    "The gap is within noise (10.1 ± 0.3 ms).",
    "The gap is within noise (p95 of 10.6 ms against a 10.2 ms median).",
    "The 95% CI of the gap, -0.01 to 0.05 ms, holds zero: the gap is within noise.",  # a comma opens the figure
    "The gap is caused by evaluation variance over 5 runs and is within noise.",  # a repeat count is a figure
    "The gap is within noise (Welch t-test).",                                     # a test names what was done
])
def test_a_statistic_with_its_figure_or_other_evidence_clears_the_verdict(paragraph):
    assert _sg105(paragraph) == []


def test_a_table_naming_a_spread_still_counts_without_a_figure_beside_the_word():
    # the header "std ms" heads a column of figures: the paragraph after the table needs nothing more
    table = "| Build | Latency (ms) | std ms |\n|---|---:|---:|\n| eager | 10.2 | 0.30 |\n| compiled | 10.1 | 0.20 |\n\n"
    assert [f.line for f in lint_text(table + "The gap is within noise.\n", "t.md") if f.code == "SG105"] == []


@pytest.mark.parametrize("text, measured", [
    ("caused by evaluation variance", False),
    ("a variance of 0.04", True),
    ("0.04 variance", True),
    ("the 95% CI overlaps", False),                  # the confidence level is part of the name, no figure
    ("the 95% CI is 9.9 to 10.3 ms", True),
    ("the p99 stays flat", False),
    ("min and max overlap", False),
    ("min 9.9, max 10.4 ms", True),
    ("over 5 runs", True),
    ("from a single run", False),
    ("the Llama3 std is low", False),
])
def test_measured_evidence(text, measured):
    assert measured_evidence(text) is measured
