"""SG103 judges a comparison on the two figures it prints in a parenthesis
after its clause even when a short remark follows them ("(0.2655 against
0.2180 ms, both noisy)"), and states one fault once: where the sentence's
own figures already refute a ratio's direction, the table reading that finds
the same fault in cells printing those same figures stays silent. Case (a
new user's trial): "fp16 is 1.22x faster than fp32 (0.04395 against 0.03613
ms, unstable)" passed over a study whose fp32 and fp16 were measured on
different GPUs. Documents and numbers of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# bf16 measured on one GPU, fp32 on another: no row holds both, the cells still tell whose each figure is
SPLIT = """\
# Engines

## Latency

| GPU | fp32 (ms) | bf16 (ms) |
|---|---|---|
| A100 SXM | 0.2180 | — |
| L4 | — | 0.2655 |

## Decision

{claim}
"""
# one row holds both variants
ONE_ROW = """\
# Engines

## Latency

| GPU | fp32 (ms) | bf16 (ms) |
|---|---|---|
| A100 SXM | {fp32} | {bf16} |

## Decision

{claim}
"""
WRONG_WAY = ("'faster than' goes the wrong way: 0.2655 should be the smaller of the two figures, but 0.2180 ms, "
             "the one it is compared with, is smaller")


def _sg103(document: str, **fields) -> list[str]:
    return [f.message for f in lint_text(document.format(**fields), "t.md") if f.code == "SG103"]


@pytest.mark.parametrize("claim", [
    "bf16 is 1.22x faster than fp32 (0.2655 against 0.2180 ms, both noisy).",
    "bf16 is 1.22x faster than fp32 (0.2655 against 0.2180 ms; the profiler flagged both).",
    "bf16 is faster than fp32 (0.2655 against 0.2180 ms, median of three runs).",
])
def test_a_remark_after_the_pair_leaves_it_the_comparisons_pair(claim):
    assert _sg103(SPLIT, claim=claim) == [WRONG_WAY]


@pytest.mark.parametrize("claim", [
    "bf16 is 1.22x slower than fp32 (0.2655 against 0.2180 ms, both noisy).",
    "fp32 is 1.22x faster than bf16 (0.2180 against 0.2655 ms; the profiler flagged both).",
    "bf16 is slower than fp32 (0.2655 against 0.2180 ms, median of three runs).",
])
def test_a_comparison_its_figures_bear_out_is_no_finding(claim):
    assert _sg103(SPLIT, claim=claim) == []


def test_a_wrong_size_with_a_remark_is_still_reported_on_its_own_figures():
    (finding,) = _sg103(SPLIT, claim="bf16 is 1.5x slower than fp32 (0.2655 against 0.2180 ms, both noisy).")
    assert finding.startswith("1.5x does not follow from 0.2655 and 0.2180 ms: 0.2655 / 0.2180 = 1.2x")


@pytest.mark.parametrize("claim, stated", [
    ("bf16 is 1.22x faster than fp32 (0.2655 against 0.2180 ms).", WRONG_WAY),
    ("bf16 is 1.22x faster than fp32 (0.2655 against 0.2180 ms, both noisy).", WRONG_WAY),
    ("bf16 (0.2655 ms) is 1.22x faster than fp32 (0.2180 ms).",
     "1.22x goes the wrong way: 'faster' says the figure before it (0.2655 ms) is the better one, but the figure "
     "after 'than' is 0.2180 ms"),
])
def test_the_table_reading_does_not_repeat_a_fault_the_sentences_figures_state(claim, stated):
    # the cells print the sentence's own figures: one fault, stated once, by the sentence's own reading
    assert _sg103(ONE_ROW, fp32="0.2180", bf16="0.2655", claim=claim) == [stated]


def test_the_table_reading_still_reports_cells_that_print_other_figures():
    claim = "bf16 (0.2655 ms) is 1.22x faster than fp32 (0.2180 ms)."
    found = _sg103(ONE_ROW, fp32="0.3000", bf16="0.2000", claim=claim)
    assert len(found) == 2
    assert found[0].startswith("1.22x goes the wrong way")
    assert found[1] == ("1.22x vs fp32 does not follow from the table at line 5: at row 'A100 SXM', "
                        "0.3000 / 0.2000 = 1.500x (1.499x to 1.501x within the printed digits); 0.2000 / 0.3000 = 0.667x "
                        "(0.666x to 0.667x within the printed digits)")
