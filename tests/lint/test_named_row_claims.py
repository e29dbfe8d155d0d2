"""SG107 on a comparison of two variant columns whose clause names the rows
it is about, with no universal word: "On the H100 PCIe fp16 is faster than
fp32." over a table of one row per GPU is a claim about the H100 PCIe row,
judged as "fp16 is faster than fp32 on every GPU" restricted to that row.
Case (a new user's trial): that sentence passed with 0 findings while the
H100 PCIe row printed fp16 0.03882 ms against fp32 0.03613 ms. A clause that
names no row ("fp16 is faster than fp32") may mean typically and stays
unread, as do hedged and denied ones. Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

GPUS = """\
# Precision sweep

| GPU | fp32 (ms) | fp16 (ms) |
|---|---|---|
| H100 PCIe | 0.03613 | 0.03882 |
| GTX 1070 | 0.2105 | 0.1502 |
| A100 SXM | 0.04410 | 0.02950 |

{claim}
"""

# two shapes per GPU: "on the H100" claims both H100 rows
SHAPES = """\
# Shapes

| GPU | Shape | fp32 (ms) | fp16 (ms) |
|---|---|---|---|
| H100 | 512 | 0.0361 | 0.0210 |
| H100 | 1024 | 0.0902 | 0.0955 |
| A100 | 512 | 0.0441 | 0.0295 |
| A100 | 1024 | 0.1204 | 0.0811 |

{claim}
"""


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_a_named_row_that_contradicts_the_claim_is_reported():
    ((line, message),) = _sg107(GPUS.format(claim="On the H100 PCIe fp16 is faster than fp32."))
    assert line == 9
    assert message == ("'On the H100 PCIe fp16 is faster than fp32' is contradicted by the table at line 3 "
                       "('fp16 (ms)' against 'fp32 (ms)', 1 row named): row 'H100 PCIe' has 0.03882 against 0.03613")


def test_one_of_two_named_rows_contradicting_is_reported():
    ((_, message),) = _sg107(GPUS.format(claim="On the GTX 1070 and the H100 PCIe fp16 is faster than fp32."))
    assert message.endswith("('fp16 (ms)' against 'fp32 (ms)', 2 rows named): row 'H100 PCIe' has 0.03882 "
                            "against 0.03613")


def test_every_row_of_a_named_gpu_is_claimed():
    ((line, message),) = _sg107(SHAPES.format(claim="On the H100 fp16 is faster than fp32."))
    assert line == 10
    assert message == ("'On the H100 fp16 is faster than fp32' is contradicted by the table at line 3 "
                       "('fp16 (ms)' against 'fp32 (ms)', 2 rows named): row 'H100 / 1024' has 0.0955 against 0.0902")
    assert _sg107(SHAPES.format(claim="On the A100 fp16 is faster than fp32.")) == []


@pytest.mark.parametrize("claim", [
    "On the GTX 1070 fp16 is faster than fp32.",  # the named row bears it out
    "On the H100 PCIe fp16 is slower than fp32.",
    "On the H100 PCIe fp16 can be faster than fp32.",  # hedged
    "On the H100 PCIe fp16 is usually faster than fp32.",
    "On the H100 PCIe fp16 tends to be faster than fp32.",
    "On the H100 PCIe fp16 is not faster than fp32.",  # denied
    "On the RTX 4090 fp16 is faster than fp32.",  # names no row of the table
    "fp16 is faster than fp32.",  # names no row: may mean typically
])
def test_claims_left_unreported(claim):
    assert _sg107(GPUS.format(claim=claim)) == []


def test_a_figure_makes_it_a_ratio_for_sg103():
    findings = lint_text(GPUS.format(claim="On the H100 PCIe fp16 is 1.3x faster than fp32."), "t.md")
    assert [f.code for f in findings] == ["SG103"]


def test_a_tie_on_the_named_row_contradicts_a_strict_comparison():
    tied = GPUS.replace("| 0.03613 | 0.03882 |", "| 0.0361 | 0.03610 |")
    ((_, message),) = _sg107(tied.format(claim="On the H100 PCIe fp16 is faster than fp32."))
    assert message.endswith("row 'H100 PCIe' has 0.03610 against 0.0361 (a tie as printed)")
    assert _sg107(tied.format(claim="On the H100 PCIe fp16 is at least as fast as fp32.")) == []



def test_a_named_row_without_both_figures_is_left_unread():
    # the H100 PCIe ran fp32 only: a claim naming it may be about something else than the table (a universal one
    # over no comparison is reported as unmeasured, tests/lint/test_universal_unmeasured.py)
    split = GPUS.replace("| 0.03613 | 0.03882 |", "| 0.03613 | — |")
    assert _sg107(split.format(claim="On the H100 PCIe fp16 is faster than fp32.")) == []


def test_a_variant_the_table_lacks_is_not_read_as_the_other_column():
    # no fp8 column: "fp16" alone would leave fp32 as the subject, a claim the sentence does not make
    assert _sg107(GPUS.format(claim="On the H100 PCIe fp8 is slower than fp16.")) == []
    assert _sg107(GPUS.format(claim="On the H100 PCIe fp32 is slower than fp16.")) != []


def test_a_comparison_stating_its_figures_is_held_to_them_not_to_the_named_rows():
    # the generic template's side finding prints both figures; ties as printed are SG103's to judge, not SG107's
    # (its property test found render's "slower ... with 10.00 ms against 10.00 ms" read as contradicted)
    text = GPUS.format(claim="fp16 on H100 PCIe is slower than fp32 with 0.03882 ms against 0.03613 ms.")
    assert _sg107(text) == []
    text = GPUS.format(claim="fp16 on H100 PCIe is faster than fp32 with 0.03882 ms against 0.03613 ms.")
    assert _sg107(text) == []
