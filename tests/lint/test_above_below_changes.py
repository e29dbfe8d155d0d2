"""SG103 reads a percent change that places one variant's figure "above" or
"below" another's ("tf32 kernel time is 4% above fp32") as an increase or a
decrease against the variant named after the word
(studygen.lint.prose_changes, variant_pairs.reference_before). Before, the
words were no change words and the sentence was never read, so a share off
by ten times passed. Figures of our own, worked by hand: det-s 8.00 ms fp16
and 6.40 ms int8: int8 is (8.00 - 6.40) / 8.00 = 20.0% below fp16, fp16
(8.00 - 6.40) / 6.40 = 25.0% above int8; det-l 20.00 and 15.00 ms: 25.0%
below, 33.3% above."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

_TABLE = """# Latency

| Model | fp16 (ms) | int8 (ms) |
| ----- | --------- | --------- |
| det-s | 8.00      | 6.40      |
| det-l | 20.00     | 15.00     |

"""
_CUT = "('fp16 (ms)' - 'int8 (ms)') / 'fp16 (ms)'"
_RISE = "('fp16 (ms)' - 'int8 (ms)') / 'int8 (ms)'"


def _sg103(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(_TABLE + sentence + "\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, stated, formula, recomputed", [
    # each states the other base's figure: 33% is the rise of det-l, 25% its cut
    ("On det-l, int8 latency is 33% below fp16.", "33% below", _CUT, "25.0%"),
    ("On det-l, fp16 latency is 25% above int8.", "25% above", _RISE, "33.3%"),
    # the way is wrong: int8 is the faster variant
    ("On det-s, int8 latency is 20% above fp16.", "20% above", "('int8 (ms)' - 'fp16 (ms)') / 'fp16 (ms)'",
     "-20.0%"),
])
def test_a_wrong_change_said_by_above_or_below_is_found(sentence, stated, formula, recomputed):
    assert _sg103(sentence) == [(8, f"'{stated}' does not follow from the table at line 3: {formula} gives "
                                    f"{sentence.split(',')[0][3:]} {recomputed} (1 row)")]


@pytest.mark.parametrize("sentence", [
    "On det-s, int8 latency is 20% below fp16.",
    "On det-s, fp16 latency is 25% above int8.",
    "On det-l, fp16 latency is 33.3% above the int8 figure.",
    # a bound, not a variant, after the word
    "On det-l, int8 latency stays 10% below the budget.",
    # above or below before the figure is a floor or a ceiling, read as before
    "On det-l, int8 cuts latency by above 20% against fp16.",
])
def test_a_change_the_figures_give_or_one_against_a_bound_stays_quiet(sentence):
    assert _sg103(sentence) == []
