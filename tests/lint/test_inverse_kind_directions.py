"""The direction word of a percent change between two named rows (SG103,
prose_rows) belongs to the quantity the clause names, not to the column it
is read from: "higher throughput" read from a latency column is a smaller
time. Small documents of our own, every figure worked out by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# latency of two builds; the throughput ratio is 150.0 / 120.0 = 1.25, so "25% higher throughput";
# the latency change is (150.0 - 120.0) / 150.0 = 20.0% lower
LATENCY = """\
| Build | Latency (ms) | Peak memory (MiB) |
|---|---:|---:|
| Alpha | 120.0 | 700.0 |
| Beta | 150.0 | 640.0 |

"""


def _sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(LATENCY + sentence + "\n", "l.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, reported", [
    ("Alpha delivers 25% higher throughput than Beta.", False),   # 150.0 / 120.0 - 1 of the times
    ("Alpha gives 25% more throughput than Beta.", False),
    ("Beta has 20% lower throughput than Alpha.", False),         # 1 - 120.0 / 150.0: the slower one
    ("Alpha has 20% lower latency than Beta.", False),            # the column's own kind, as before
    ("Alpha delivers 25% lower throughput than Beta.", True),     # Alpha's time is the smaller: more throughput
    ("Beta delivers 25% higher throughput than Alpha.", True),
    ("Alpha has 20% higher latency than Beta.", True),            # the column's own kind still judged
    ("Alpha delivers 31% higher throughput than Beta.", True),    # no reading gives 31%
])
def test_direction_word_follows_the_named_quantity(sentence, reported):
    assert bool(_sg103(sentence)) is reported


def test_inverse_direction_finding_names_the_latency_column():
    [message] = _sg103("Beta delivers 25% higher throughput than Alpha.")
    assert message.startswith("25% between row 'Beta' and row 'Alpha' goes the wrong way: 'higher' says row 'Beta'")
    assert "'Latency (ms)' of the table at line 1 has 150.0 against 120.0 for row 'Alpha'" in message
