"""SG101 and a ratio whose sentence names its reference ("900x faster than
the scalar loop", "3-4x faster than cuBLAS") beside a ratio column whose
header names another one ("vs Goal"): the column measures another
comparison, so its rows neither back nor contradict the sentence
(studygen.lint.named_references). A sentence naming the column's reference,
a generic one ("the baseline") or none is still read against it.

Before, a public kernel note (session 29) had "1230x faster than naive" and
"2-3x faster than SDPA" read against its "vs Target" column. Our rows: a
kernel timed against a 5 us goal, 1.9x to 3.8x faster than it.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.named_references import claim_reference, column_reference
from studygen.lint.parse import parse_document

DOC = """# Kernel tuning

| Shape | Time (us) | vs Goal |
|---|---|---|
| 128 | 2.6 | 1.9x faster |
| 256 | 2.4 | 2.1x faster |
| 512 | 1.8 | 2.8x faster |
| 1024 | 1.3 | 3.8x faster |

{sentence}
"""


def _sg101(sentence: str) -> list[str]:
    return [f.message for f in lint_text(DOC.format(sentence=sentence), "x.md") if f.code == "SG101"]


@pytest.mark.parametrize("sentence", [
    "The fused kernel is 900x faster than the scalar loop.",
    "Compared with the first draft, the fused kernel runs 40x faster than the scalar loop.",
    "The tuned kernel should land at 8-12 us (2-3x faster than cuBLAS).",
    "Tuning gives a 2-3x speedup over the vendor library.",
    "Each shape finishes 20x quicker vs the Python reference loop.",
])
def test_other_reference_is_not_read_against_the_column(sentence):
    assert _sg101(sentence) == []


@pytest.mark.parametrize("sentence, quoted", [
    ("The fused kernel is 9x faster than the goal.", "'9x faster' exceeds every row of 'vs Goal'"),
    ("The fused kernel is 9x faster than the baseline.", "'9x faster' exceeds every row of 'vs Goal'"),
    ("The fused kernel is 9x faster.", "'9x faster' exceeds every row of 'vs Goal'"),
    ("The tuned kernel should land at 8-12 us (2-3x faster than the goal).", "range 2-3x leaves out"),
    ("The tuned kernel should land at 8-12 us (2-3x faster).", "range 2-3x leaves out"),
])
def test_same_generic_or_no_reference_is_still_read(sentence, quoted):
    messages = _sg101(sentence)
    assert len(messages) == 1 and quoted in messages[0]


@pytest.mark.parametrize("text, words", [
    ("a 3x speedup over the fp16 engine, measured", {"fp16", "engine"}),
    ("is 2x faster than baseline", set()),
    ("runs 4x lower latency compared to vLLM, which", {"vllm"}),
    ("is 3x faster on H100", set()),
])
def test_claim_reference_words(text, words):
    end = text.index("x") + 1
    assert claim_reference(text, end, len(text)) == frozenset(words)


def test_claim_reference_stops_at_the_sentence_end():
    text = "it is 3x faster than cuDNN"
    end = text.index("x") + 1
    assert claim_reference(text, end, text.index(" than")) == frozenset()
    assert claim_reference(text, end, len(text)) == frozenset({"cudnn"})


def test_column_reference_of_ratio_and_other_columns():
    table = parse_document(
        "| Batch | Time (ms) vs batch | Speedup vs fp16 | Speedup |\n|---|---|---|---|\n| 1 | 4.0 | 1.5 | 1.2 |\n"
        "| 8 | 2.0 | 1.9 | 1.4 |\n", "x.md").tables[0]
    by_header = {series.header: series for series in table.series}
    assert column_reference(by_header["Time (ms) vs batch"]) == frozenset()  # a time column names no reference
    assert column_reference(by_header["Speedup vs fp16"]) == frozenset({"fp16"})
    assert column_reference(by_header["Speedup"]) == frozenset()
