"""SG103 ratios between two rows whose measured column only the words before
the ratio's clause name ("In fp32, Conv takes 3.1x the time of norm"): the
clause begins after the comma, so it named the rows but no column, and with
two time columns the ratio was never read (studygen.lint.prose_rows). The
lead now names the column when it names exactly one. Figures of our own,
worked by hand: fp32 Conv 4.440 / norm 1.746 = 2.54x, tf32 Conv 4.428 / norm
1.744 = 2.54x; tf32 GEMM 3.357 / norm 1.744 = 1.92x."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

_TABLE = """# Kernel time

| Kernel group | fp32 (ms) | tf32 (ms) |
| ------------ | --------- | --------- |
| Conv         | 4.440     | 4.428     |
| GEMM         | 3.306     | 3.357     |
| norm         | 1.746     | 1.744     |

"""


def _sg103(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(_TABLE + sentence + "\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, first, second, operands", [
    ("In fp32, Conv takes 3.1x the time of norm.", "Conv", "norm", "4.440 / 1.746 = 2.5x"),
    ("For the tf32 run, GEMM takes 3.1x the time of norm.", "GEMM", "norm", "3.357 / 1.744 = 1.92x"),
])
def test_a_ratio_whose_column_the_lead_names_is_read_in_that_column(sentence, first, second, operands):
    ((line, message),) = _sg103(sentence)
    column = "fp32 (ms)" if "fp32" in sentence else "tf32 (ms)"
    assert line == 9
    assert message.startswith(f"3.1x between row '{first}' and row '{second}' does not follow from '{column}' of the "
                              f"table at line 3: ")
    assert operands in message


@pytest.mark.parametrize("sentence", [
    "In fp32, Conv takes 2.5x the time of norm.",
    "In tf32, GEMM takes 1.9x the time of norm.",
    # a lead naming both columns names none to read
    "In fp32 and tf32 alike, Conv takes 3.1x the time of norm.",
])
def test_a_ratio_the_column_gives_or_of_no_one_column_stays_quiet(sentence):
    assert _sg103(sentence) == []
