"""SG101 and a range after a hedge ("around 50-60 ms", "about 50 to 60 ms",
"roughly", "~"): each end stands for what rounds to it at its own
significant digits, as "about 60%" stands for 55 to 65% (studygen.lint.rounding.hedged_range).

Before, the hedge was not read: "cluster around 50-60 ms" over a row of 46.0
ms was reported though 46 is about 50, by the rule the documentation gives
for a single hedged figure. Our rows: 52.0, 57.5, {third}, 54.1 ms.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import Figure, Range
from studygen.lint.rounding import hedged_range

TABLE = """# Recipe latency

## Results

| Recipe | Latency (ms) |
|---|---:|
| alpha | 52.0 |
| beta | 57.5 |
| gamma | {third} |
| delta | 54.1 |

{sentence}
"""


def _sg101(third: str, sentence: str) -> list[tuple[int, str]]:
    text = TABLE.format(third=third, sentence=sentence)
    return [(f.line, f.message) for f in lint_text(text, "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("sentence", [
    "The recipes cluster around 50-60 ms on this task.",
    "The recipes take about 50 to 60 ms.",
    "The recipes take roughly 50-60 ms.",
    "The recipes take ~50-60 ms.",
])
def test_hedged_range_covers_a_row_about_its_end(sentence):
    assert _sg101("46.0", sentence) == []


@pytest.mark.parametrize("sentence", [
    "The recipes cluster around 50-60 ms on this task.",
    "The recipes take roughly 50-60 ms.",
])
def test_hedged_range_reports_a_row_clearly_outside(sentence):
    assert _sg101("35.0", sentence) == [
        (12, "range 50-60 ms leaves out row 'gamma' (35.0 ms) of 'Latency (ms)' in the table at line 5")]


def test_unhedged_range_keeps_its_printed_digits():
    assert [line for line, _ in _sg101("46.0", "The recipes take 50-60 ms.")] == [12]


def test_ends_widen_to_their_own_significant_digits():
    text = "about 50-60 and around 0.5-0.6 and about 120-130"
    def rng(lo: str, hi: str, start: int) -> Range:
        end = start + len(lo) + 1 + len(hi)
        low = Figure(float(lo), lo, len(lo.partition(".")[2]), None, start, start + len(lo))
        high = Figure(float(hi), hi, len(hi.partition(".")[2]), None, end - len(hi), end)
        return Range(low, high, None, "range", False, start, end, "")

    ranges = [rng("50", "60", 6), rng("0.5", "0.6", 23), rng("120", "130", 41)]
    widened = [hedged_range(text, r) for r in ranges]
    assert [(r.lo.half_step, r.hi.half_step) for r in widened] == [(5.0, 5.0), (0.05, 0.05), (5.0, 5.0)]
    plain = rng("50", "60", 5)
    assert hedged_range("take 50-60", plain) is plain
