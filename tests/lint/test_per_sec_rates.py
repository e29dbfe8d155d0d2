"""Rates spelt per "sec" ("inf/sec", "images/sec", "req/sec") are rates as
their "/s" spellings are. The unit table held "tokens/sec" and "GB/sec" only,
so "132.60 inf/sec" was a bare number with a word after it: a best-of claim
quoting it ("Highest throughput: 132.60 inf/sec") tied to no column and
passed unread. Case (unseen benchmark documents, session 24): an ONNX
Runtime report printed its throughputs so. Documents and figures of our own,
checked by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.figures import RATE_UNITS, UNITS

RUNTIMES = """\
# Runtimes

| Runtime | Mean latency (ms) | Throughput (inf/sec) |
|---|---|---|
| eager | 11.90 | 84.03 |
| graph | 8.415 | 118.8 |
| fused | 7.020 | 142.5 |

{claim}
"""


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("spelt, unit", [("inf/sec", "inferences/s"), ("inferences/sec", "inferences/s"),
                                         ("inf/s", "inferences/s"), ("images/sec", "images/s"),
                                         ("req/sec", "requests/s"), ("samples/sec", "samples/s")])
def test_a_per_sec_spelling_is_a_rate(spelt, unit):
    assert UNITS[spelt] == unit
    assert unit in RATE_UNITS


def test_a_best_of_claim_in_inf_per_sec_is_judged():
    # graph's 118.8 is beaten by fused's 142.5
    ((line, message),) = _sg107(RUNTIMES.format(claim="- **Highest throughput**: 118.8 inferences/sec (graph)"))
    assert line == 9
    assert message.startswith("'Highest throughput: 118.8 inferences/sec (graph)' names row 'graph' the largest "
                              "'Throughput (inf/sec)' of 3 rows of the table at line 3, but row 'fused' has 142.5")


def test_a_best_of_claim_the_column_bears_out_is_not_reported():
    assert _sg107(RUNTIMES.format(claim="- **Highest throughput**: 142.5 inf/sec (fused)")) == []
