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
