"""Statistic words (studygen.lint.figures.statistic_of) and configuration
tokens (studygen.lint.sg106_unmeasured.word_tokens), on words chosen by hand."""

from __future__ import annotations

import pytest

from studygen.lint.figures import statistic_of
from studygen.lint.sg106_unmeasured import word_tokens


@pytest.mark.parametrize("word, statistic", [
    ("Minimum", "min"), ("max.", "max"), ("Median", "p50"), ("med", "p50"), ("avg", "mean"), ("mean", "mean"),
    ("p5", "p5"), ("P99", "p99"), ("p99.9", "p99.9"), ("90th-percentile", "p90"),
    ("pass", None), ("p", None), ("90th", None), ("latency", None),
])
def test_statistic_of(word, statistic):
    assert statistic_of(word) == statistic


def test_word_tokens_split_hyphenated_names_into_their_parts_by_default():
    assert {"deepep-ll", "deepep", "ll"} <= word_tokens("deepep-ll kernels")
    assert "deepep" not in word_tokens("deepep-ll kernels", parts=False)


def test_a_one_letter_part_of_a_hyphenated_name_is_no_token_unless_a_digit():
    # "h100-a" holds no job a; "tp-2" holds the count 2 (a mutant keeping every part survived before)
    assert word_tokens("h100-a kernels") == {"h100-a", "h100", "kernels"}
    assert word_tokens("tp-2 runs") == {"tp-2", "tp", "2", "runs"}
