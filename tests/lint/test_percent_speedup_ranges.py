"""A percent range worded as a speed comparison ("20-25% faster", "a 20-25%
speed advantage", "outperforms it by 20-25%") is a range of speed ratios,
20% faster being 1.20x: it is read against a speedup column printed in x
("| Gain | 1.40x faster |") as it would be printed in x. A percent range
of another quantity ("20-25% less memory") is not. Case (a public results
page lint had never seen, session 25): a percent range of advantage over a
gain column printed in x whose largest gain it left out. Tables and figures of our own, checked by hand: the gains
are 10.0 / 8.0 = 1.25x, 14.0 / 10.0 = 1.40x, 120 / 100 = 1.20x.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.parse import parse_document
from studygen.lint.range_quantity import speedup_reading

TABLE = """# Build check

| Metric | Old | New | Gain |
| --- | --- | --- | --- |
| Mean | 10.0 ms | 8.0 ms | 1.25x faster |
| P95 | 14.0 ms | 10.0 ms | 1.40x faster |
| Rate | 100 img/s | 120 img/s | 1.20x faster |

{claim}
"""


def _sg101(claim: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(TABLE.format(claim=claim), "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("claim", [
    "The new build is 20-25% faster than the old one.",
    "The new build has a 20-25% speed advantage over the old one.",
    "The new build outperforms the old one by 20-25% on every metric.",
])
def test_a_percent_speed_range_is_read_against_the_speedup_column(claim):
    ((line, message),) = _sg101(claim)
    assert line == 9
    assert message == "range 20-25% leaves out row 'P95' (1.40x) of 'Gain' in the table at line 3"


@pytest.mark.parametrize("claim", [
    "The new build is 20-40% faster than the old one.",  # every gain inside
    "The new build uses 20-25% less memory than the old one.",  # no speed words: no speed ratio
])
def test_a_covering_range_or_one_of_another_quantity_is_no_finding(claim):
    assert _sg101(claim) == []


def test_the_ratio_reading_moves_the_decimals_with_the_point():
    text = "it runs 5-16% faster"
    ((rng),) = [r for r in _ranges(text)]
    reading = speedup_reading(text, rng)
    assert (reading.lo.value, reading.hi.value, reading.unit) == (pytest.approx(1.05), pytest.approx(1.16), "x")
    assert reading.hi.half_step == pytest.approx(0.005)  # 16% stands for 15.5% to 16.5%: 1.155x to 1.165x


def test_a_percent_range_of_no_speed_words_has_no_ratio_reading():
    text = "it uses 5-16% less memory"
    assert speedup_reading(text, _ranges(text)[0]) is None


def _ranges(text: str):
    (block,) = parse_document(f"{text}\n", "x.md").prose
    return [r for s in block.sentences for r in s.ranges]
