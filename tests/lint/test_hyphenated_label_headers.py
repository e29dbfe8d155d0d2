"""A column headed by a hyphenated name that opens with a label word
("TensorRT-LLM", "Model-B") holds the figures of that variant, so a
derived column computed from it is checked (SG103); a label word with a
label tail ("group-size", "batch-size") still heads a label column
(label_headers.is_label_header). Expected figures are worked out by hand."""

from __future__ import annotations

import re

import pytest

from studygen.lint import lint_text
from studygen.lint.label_headers import is_label_header
from studygen.lint.parse import parse_document

# Gain = (first - second) / second: 44.0 / 40.0 = +10.0%, 33.0 / 30.0 = +10.0%, 27.6 / 24.0 = +15.0% (printed +51.0%)
_TABLE = """\
# Decode throughput

| Prompt set | {first} | {second} | Gain (%) |
| --- | --- | --- | --- |
| short | 44.0 | 40.0 | 10.0 |
| medium | 33.0 | 30.0 | 10.0 |
| long | 27.6 | 24.0 | 51.0 |
"""


def _sg103(first: str, second: str = "Baseline") -> list[str]:
    text = _TABLE.format(first=first, second=second)
    # the message up to the recomputed value (the rounding interval and the layout's reason follow it)
    return [f"{f.line}: {re.match(r'.*? = [0-9.]+%', f.message).group(0)}" for f in lint_text(text, "x.md") if f.code == "SG103"]


@pytest.mark.parametrize("first", ["TensorRT-LLM", "TRT-LLM", "Model-B", "Engine-X"])
def test_a_hyphenated_variant_name_heads_figures(first):
    # before: the column was a label column, so 'Gain (%)' had one operand and no definition: no finding
    assert _sg103(first) == [f"7: row 'long': 'Gain (%)' is 51.0% but '{first}' and 'Baseline' give (27.6 - 24.0) / 24.0 = 15.0%"]


def test_a_plain_name_still_checks():
    assert _sg103("Tuned") == ["7: row 'long': 'Gain (%)' is 51.0% but 'Tuned' and 'Baseline' give (27.6 - 24.0) / 24.0 = 15.0%"]


@pytest.mark.parametrize("header, expected", [
    ("TensorRT", True), ("TensorRT version", True), ("group-size", True), ("Batch-size", True), ("Model-name", True),
    ("TensorRT-LLM", False), ("TRT-LLM-FP16", False), ("Model-B", False), ("Latency (ms)", False),
])
def test_label_header_reading(header, expected):
    assert is_label_header(header) is expected


def test_a_group_size_column_stays_a_label():
    text = ("| Kernel | group-size | Latency (ms) |\n| --- | --- | --- |\n"
            "| dequant | 64 | 1.20 |\n| dequant | 128 | 1.05 |\n| dequant | 256 | 0.98 |\n")
    table = parse_document(text, "x.md").tables[0]
    assert table.label_columns == [0, 1]
    assert [s.header for s in table.series] == ["Latency (ms)"]
