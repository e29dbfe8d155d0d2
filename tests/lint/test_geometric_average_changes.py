"""A percent change stated "on average" over several rows (SG103,
prose_changes) read as the geometric mean of the ratios the rows give, as
well as the arithmetic mean of their changes: speedups are usually averaged
geometrically. Small documents of our own; every figure is worked out by
hand beside it."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# vanilla / tuned of ms: conv 90.0 / 30.0 = 3.00x, pool 40.0 / 40.0 = 1.00x, norm 25.0 / 25.0 = 1.00x.
# Speed gained: arithmetic mean (200 + 0 + 0) / 3 = 66.7%; geometric mean of the ratios 3 ** (1/3) = 1.442,
# so 44.2%. Time saved: arithmetic mean (66.7 + 0 + 0) / 3 = 22.2%; geometric mean of tuned / vanilla
# (1/3) ** (1/3) = 0.693, so 30.7%.
KERNELS = """\
| Kernel | vanilla (ms) | tuned (ms) |
|---|---:|---:|
| conv | 90.0 | 30.0 |
| pool | 40.0 | 40.0 |
| norm | 25.0 | 25.0 |

"""


def _sg103(sentence: str) -> list[str]:
    return [f.message for f in lint_text(KERNELS + sentence + "\n", "k.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, reported", [
    ("tuned is 44% faster than vanilla on average.", False),     # geometric mean of the speedups, 44.2%
    ("tuned is on average 31% faster than vanilla.", False),     # geometric mean of the time ratios, 30.7%
    ("tuned is 67% faster than vanilla on average.", False),     # arithmetic mean of the speed gained, 66.7%
    ("tuned is 22% faster than vanilla on average.", False),     # arithmetic mean of the time saved, 22.2%
    ("tuned is 50% faster than vanilla on average.", True),      # none of 66.7, 44.2, 30.7, 22.2
    ("tuned is 38% faster than vanilla on average.", True),
    ("tuned is 210% faster than vanilla.", True),                # a plain figure is held to the rows' span
])
def test_average_change_reads_geometric_mean(sentence, reported):
    assert bool(_sg103(sentence)) is reported


def test_geometric_reading_keeps_the_finding_message():
    # 50% is reported with the arithmetic readings it names, not a geometric one
    [message] = _sg103("tuned is 50% faster than vanilla on average.")
    assert message.startswith("'50% faster', read as the rows' mean does not follow from the table at line 1")
    assert "conv 66.7%, pool 0.0%, norm 0.0% (3 rows)" in message and message.endswith(": 200.0%, 0.0%, 0.0%")
