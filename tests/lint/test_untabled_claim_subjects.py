"""SG101 leaves out a single-figure claim whose figure follows a name no
table of the document holds (studygen.lint.claims.untabled_subject):
"VecNorm 4x faster" beside a table that times whole pipeline configurations
was read against that table's speedup column and reported as exceeding
every row. The tables do not time VecNorm, so they cannot overstate it. A
claim whose name a table holds (whole, or each of its parts between "+",
"/" or "-"), or whose figure follows a plain word, is still read. Figures of
our own: the speedup column's largest row is 1.41x."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text

_TABLE = """# Pipeline

| Configuration | Latency on TRT10 | Speedup |
| ------------- | ---------------- | ------- |
| Eager         | 6.20ms           | 1.00x   |
| Fused GeLU    | 5.40ms           | 1.15x   |
| PackedQKV     | 4.40ms           | 1.41x   |

"""


def _sg101(sentence: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(_TABLE + sentence + "\n", "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("sentence", [
    "- **Fused kernels**: VecNorm 4x faster, RoPE+Cat 3x faster",
    "The micro-benchmark shows SwiGLU: 6x faster than the reference loop.",
    "In isolation, W4A16 3x faster on the GEMM alone.",
])
def test_a_claim_about_a_name_no_table_holds_is_not_read_against_the_tables(sentence):
    assert _sg101(sentence) == []


@pytest.mark.parametrize("sentence, claim", [
    # the name is a word of the table's header: the table does time it
    ("Built on it, TRT10 4x faster.", "4x faster"),
    # each part of the name is a word of the table (a header's, a cell's)
    ("Built on it, Speedup+TRT10 4x faster.", "4x faster"),
    # a plain word before the figure says nothing of the subject
    ("Our pipeline runs 4x faster.", "4x faster"),
])
def test_a_claim_about_a_tabled_name_or_a_plain_word_is_still_read(sentence, claim):
    assert _sg101(sentence) == [(9, f"'{claim}' exceeds every row of 'Speedup' in the table at line 3 "
                                    "(3 rows, largest 1.41x)")]
