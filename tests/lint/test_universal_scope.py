"""SG107 reads a universal word only where it quantifies the comparison: after a
colon that follows the comparison, "each" or "all" quantifies the explanation
("int8 is slower than fp16: each layer adds a reformat"), not the rows. Case:
the H200 study's decision sentence "In eager mode, FP8 is far slower than fp16
... : each quantized linear adds host-side work" was judged against every
compiled-mode table once the generated jobs tied (tests/robustness property).
Documents of our own."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

# int8 against fp16 in ms: int8 slower on the T4 (7.9 > 6.1), faster on the L4 (3.2 < 4.4)
TABLE = """\
| GPU | fp16 (ms) | int8 (ms) |
|---|---:|---:|
| T4 | 6.1 | 7.9 |
| L4 | 4.4 | 3.2 |

"""


def _sg107(sentence: str) -> list[str]:
    return [f.message for f in lint_text(TABLE + sentence + "\n", "t.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    "int8 is slower than fp16: each layer adds a reformat before its GEMM.",
    "On the T4, int8 is slower than fp16: all of its convolutions fall back to fp16 kernels.",
    "int8 is slower than fp16 here: every reformat costs a copy.",
])
def test_a_universal_word_after_the_comparison_s_colon_makes_no_claim_about_every_row(sentence):
    assert _sg107(sentence) == []


@pytest.mark.parametrize("sentence", [
    "int8 is slower than fp16 on every GPU: its calibration cache misses.",
    "On every GPU, int8 is slower than fp16: its calibration cache misses.",
    "int8 is always slower than fp16.",
])
def test_a_universal_word_of_the_comparison_s_own_part_is_still_read(sentence):
    (message,) = _sg107(sentence)
    assert "row 'L4' has 3.2 against 4.4" in message and "T4" not in message


@pytest.mark.parametrize("sentence", [
    "Over five compilations of each, int8 is no faster than fp16.",
    "int8 is slower than fp16 in three runs of each variant.",
    "int8 is slower than fp16 over 20 repeats for every configuration.",
])
def test_a_universal_word_that_counts_the_measurements_pooled_makes_no_claim_about_every_row(sentence):
    assert _sg107(sentence) == []


def test_runs_on_every_gpu_still_quantify_the_rows():
    (message,) = _sg107("int8 is slower than fp16 in runs on every GPU.")
    assert "row 'L4' has 3.2 against 4.4" in message
