"""SG107 and a figure-less best-of claim said of every group ("eager is the
slowest on every GPU", "remains the slowest across all batch sizes"): one
group where a rival beats the subject in a column of the quantity, and loses
to it in none, contradicts it (studygen.lint.best_everywhere). Without a
word of every the claim is read as before (a rival must lead in every
group); a tie, a split group, "of all" (the set ranked) and a claim the
groups bear out give no finding.

Before, a public quantization README (session 29) said FP32 "remains the
slowest across all batch sizes" while INT4 was slower at batch 32, and lint
said nothing. Our rows: three engines on two GPUs (and at two batch sizes);
on the second one the int8 engine is slower than the eager one.
"""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.best_everywhere import universal

ROWS = """| {axis} | Engine | Latency (ms) | Throughput (req/s) |
|---|---|---|---|
| {a} | eager | 41.0 | 24 |
| {a} | compiled | 22.0 | 45 |
| {a} | int8 | 30.5 | 33 |
| {b} | eager | 35.0 | 29 |
| {b} | compiled | 18.0 | 55 |
| {b} | int8 | {late} | {rate} |
"""


def _sg107(sentence: str, late: str = "37.5", rate: str = "27", axis: str = "GPU", a: str = "L4", b: str = "A10") -> list[str]:
    text = "# Engines\n\n" + ROWS.format(axis=axis, a=a, b=b, late=late, rate=rate) + "\n" + sentence + "\n"
    return [f.message for f in lint_text(text, "x.md") if f.code == "SG107"]


@pytest.mark.parametrize("sentence", [
    "The eager engine is the slowest on every GPU.",
    "The eager engine remains the slowest across all GPUs, showing how much compilation helps.",
    "Eager is always the slowest.",
    "Eager is consistently the slowest engine.",
])
def test_one_group_contradicts_a_claim_said_of_every_group(sentence):
    messages = _sg107(sentence)
    assert len(messages) == 1
    assert "'int8' is slower than it in a group the claim covers" in messages[0]
    assert "row 'A10 / eager' has 35.0, row 'A10 / int8' 37.5" in messages[0]


def test_batch_size_names_the_rows_not_a_size():
    messages = _sg107("Eager remains the slowest at every batch size.", axis="Batch", a="1", b="8")
    assert len(messages) == 1 and "row '8 / int8' 37.5" in messages[0]


@pytest.mark.parametrize("sentence, late, rate", [
    ("The eager engine is the slowest.", "37.5", "27"),  # no word of every: int8 leads in one group only
    ("The eager engine is the slowest of all engines.", "37.5", "27"),  # the set ranked, not every group
    ("The eager engine is the slowest on every GPU.", "35.0", "29"),  # a tie in both columns
    ("The eager engine is the slowest on every GPU.", "37.5", "31"),  # slower latency, faster throughput
    ("The compiled engine is the fastest on every GPU.", "37.5", "27"),  # borne out in both groups
])
def test_no_contradiction(sentence, late, rate):
    assert _sg107(sentence, late, rate) == []


@pytest.mark.parametrize("text, expected", [
    ("is the slowest on every GPU", True),
    ("is always the fastest", True),
    ("wins across the board", True),
    ("is the fastest of all engines", False),
    ("is not always the fastest", False),
    ("is the fastest overall", False),
])
def test_universal_words(text, expected):
    assert universal(text, 0, len(text)) is expected


def test_a_throughput_column_alone_contradicts():
    # latency tied on the A10, throughput lower for int8: slower where the claim says eager is
    messages = _sg107("The eager engine is the slowest on every GPU.", "35.0", "27")
    assert len(messages) == 1 and "'Throughput (req/s)': row 'A10 / eager' has 29, row 'A10 / int8' 27" in messages[0]


@pytest.mark.parametrize("late, rate, extra", [
    ("35.0", "29", "| A10 | mean | 38.0 | 25 |"),  # a row pooling the others is no rival
    ("37.5", "27", "| A10 | int8 | 20.0 | 50 |"),  # int8 twice on the A10: which one is meant is unclear
])
def test_pooled_or_repeated_rivals_are_not_read(late, rate, extra):
    rows = ROWS.format(axis="GPU", a="L4", b="A10", late=late, rate=rate) + extra + "\n"
    text = "# Engines\n\n" + rows + "\nThe eager engine is the slowest on every GPU.\n"
    assert [f.message for f in lint_text(text, "x.md") if f.code == "SG107"] == []


def test_universal_reads_only_its_clause():
    text = "is the fastest. It ran every day"
    assert universal(text, 0, text.index(".")) is False
