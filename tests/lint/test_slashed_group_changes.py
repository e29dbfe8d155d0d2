"""SG103 percent changes of a row whose label joins two words by a slash, as
studygen's own default kernel groups do ("GEMM/MatMul"): the object of "cuts
… by" or "reduces … by" may hold such a word (studygen.lint.prose_changes).
Before, the slash broke the object and the change was never read, so a
change stated the wrong way or with the wrong size passed. Figures of our
own, worked by hand: GEMM/MatMul 2.480 -> 2.170 ms is (2.480 - 2.170) /
2.480 = 12.5% less; norm/elementwise 0.910 -> 0.955 ms is (0.955 - 0.910) /
0.910 = 4.945% more (printed -4.95% as a cut, one digit past the stated 4.9%)."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

_TABLE = """# Kernel time

| Kernel group     | bf16 (ms) | fp16 (ms) |
| ---------------- | --------- | --------- |
| GEMM/MatMul      | 2.480     | 2.170     |
| norm/elementwise | 0.910     | 0.955     |
| total            | 3.390     | 3.125     |

"""


def _sg103(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(_TABLE + sentence + "\n", "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("sentence, stated, row, recomputed", [
    # the size is wrong: 21% is no cut these figures give
    ("fp16 cuts GEMM/MatMul time by 21% against bf16.", "cuts GEMM/MatMul time by 21%", "GEMM/MatMul", "12.5%"),
    # the way is wrong: fp16 raises this group's time, by 4.9%, where the sentence says it reduces it
    ("fp16 reduces norm/elementwise time by 4.9%.", "reduces norm/elementwise time by 4.9%", "norm/elementwise",
     "-4.95%"),
])
def test_a_wrong_change_of_a_slashed_row_is_found_in_that_row(sentence, stated, row, recomputed):
    ((line, message),) = _sg103(sentence)
    assert line == 9
    assert message == (f"'{stated}' does not follow from the table at line 3: ('bf16 (ms)' - 'fp16 (ms)') / "
                       f"'bf16 (ms)' gives {row} {recomputed} (1 row)")


@pytest.mark.parametrize("sentence", [
    "fp16 cuts GEMM/MatMul time by 12.5% against bf16.",
    "fp16 raises norm/elementwise time by 4.9%.",
    "fp16 increases norm/elementwise time by 4.9% over bf16.",
])
def test_a_change_the_slashed_row_gives_stays_quiet(sentence):
    assert _sg103(sentence) == []
