"""SG101 and a range the document gives as a forecast or a goal ("Expected
gain: 10-15x", "Target gain: 10-15x", "the gain we anticipate is 10-15x"):
a plan's hope is no summary of the measured rows, so a row outside it is no
finding (studygen.lint.forecast). A measurement judged against a forecast
("As expected, ...") and a clause joined after the forecast ("we expected
2x, but measured ...") are still summaries and still read.

Before, the plan section of a research note (session 28, a public Raspberry
Pi accelerator note) was read against its measured speedup table: its
expected range for one task left out another task's row. Our rows: gains of
10.0x, 12.0x and 19.0x.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.forecast import forecast

TABLE = """# Accelerator study

## Measured gains

| Workload | CPU rate | NPU rate | Gain |
|---|---|---|---|
| Detector | 4.0 | 40 | 10.0x |
| Tracker | 2.5 | 30 | 12.0x |
| Segmenter | 1.0 | 19 | 19.0x |

## Plans

{sentence}
"""


def _sg101(sentence: str) -> list[int]:
    return [f.line for f in lint_text(TABLE.format(sentence=sentence), "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("sentence", [
    "- **Expected gain**: 10-15x",
    "- Target gain for the tracker: 10-15x",
    "**Goal** for the gain: 10-15x",
    "The gain we anticipate is 10-15x.",
    "We expect the gain to reach 10-15x once the driver lands.",
    "The projected gain is 10-15x.",
])
def test_forecast_range_is_not_read_against_the_rows(sentence):
    assert _sg101(sentence) == []


@pytest.mark.parametrize("sentence", [
    "As expected, the gain spans 10-15x on these workloads.",
    "The gain spans 10-15x, higher than we had anticipated.",
    "We expected 8x, but the gain spans 10-15x on these workloads.",
    "The gain spans 10-15x on these workloads.",
    "On the x86 target, the gain spans 10-15x.",
])
def test_measured_range_is_still_read(sentence):
    assert _sg101(sentence) == [13]


@pytest.mark.parametrize(("text", "expected"), [
    ("Expected gain: 10-15x", True),
    ("as expected the gain is 10-15x", False),
    ("the gain is higher than expected, at 10-15x", False),
    ("Target: 10-15x", True),
    ("the x86 target runs at 10-15x", False),
    ("we expected 8x; it runs at 10-15x", False),
])
def test_forecast_reads_the_clause_before_the_range(text, expected):
    assert forecast(text, 0, text.index("10-15x")) is expected
