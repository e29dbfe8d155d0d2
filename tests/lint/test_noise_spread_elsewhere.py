"""SG105 and a noise verdict whose figures have their spread printed further
on: "the CPU build is within the margin of error" under a table of losses,
with each loss printed again as "2.4817 ± 0.0113" in a list after a heading.
The document states the spread of what the verdict judges, so it is evidence
(studygen.lint.noise_evidence.spread_elsewhere). A spread beside other
figures, beside one figure only, or beside figures too plain to tell apart
("5 ± 1") is not.

Before, a public pull-request thread (session 29) got an SG105 warning on
"within the margin of error" although every perplexity it compared was
listed with its +/- a few lines below. Our rows: a loss on two builds.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.noise_evidence import spread_elsewhere, spread_figures

DOC = """# Builds

| Model | Loss (CUDA) | Loss (CPU) |
|---|---|---|
| small | 2.4817 | 2.4829 |
| large | 1.9034 | 1.9051 |

The CPU build is within the margin of error of the CUDA build.

## Runs

{runs}
"""


def _sg105(runs: str) -> list[int]:
    return [f.line for f in lint_text(DOC.format(runs=runs), "x.md") if f.code == "SG105"]


@pytest.mark.parametrize("runs", [
    "- small, CUDA: loss 2.4817 ± 0.0113\n- small, CPU: loss 2.4829 ± 0.0115",
    "- small on CUDA: 2.4817 +/- 0.0113; on the CPU: 2.4829 +/- 0.0115",
    "Large model: 1.9034 +- 0.0090 (CUDA), 1.9051 +- 0.0092 (CPU).",
])
def test_spread_printed_beside_the_judged_figures_is_evidence(runs):
    assert _sg105(runs) == []


@pytest.mark.parametrize("runs", [
    "- the runs took 41.2 ± 0.3 s and 43.5 ± 0.4 s",  # a spread of other figures
    "- small, CUDA: loss 2.4817 ± 0.0113",  # one judged figure only
    "- small, CUDA: loss 2.4817, CPU: loss 2.4829",  # the figures again, no spread
])
def test_other_or_single_or_no_spread_is_no_evidence(runs):
    assert _sg105(runs) == [8]


def test_spread_figures_reads_distinct_figures_only():
    assert spread_figures("a 9.0973 +/- 0.07, b 5 ± 1, c 1234 ± 12, d 2.5±0.1") == frozenset({"9.0973", "1234", "2.5"})


@pytest.mark.parametrize("texts, expected", [
    (["| 9.0973 | 9.1005 |"], True),
    (["| 9.0973 | 9.2000 |"], False),
    (["| 5 | 7 |"], False),
])
def test_spread_elsewhere_needs_two_figures(texts, expected):
    assert spread_elsewhere(texts, frozenset({"9.0973", "9.1005", "5", "7"})) is expected
