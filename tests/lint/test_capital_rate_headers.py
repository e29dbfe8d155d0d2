"""A header that is a rate spelt in words with a capital ("Tokens/sec",
"Images/s", "Req/s") names that rate: the unit table is matched case by
case, so "Tokens/sec" named no unit, its column had no quantity kind, and a
throughput claim over it ("vLLM has higher throughput than TensorRT-LLM at
20 users") tied to no column and passed unread. Case (unseen benchmark
documents, session 24): a long table of two serving engines headed its rate
column so. Documents and figures of our own, checked by hand."""

from __future__ import annotations

import pytest

from studygen.lint import lint_text
from studygen.lint.columns import header_unit

SWEEP = """\
# Decoders

| Streams | Decoder | Retries/s | Images/sec |
|---|---|---|---|
| 1 | cpu | 41.0 | 38.2 |
| 1 | gpu | 55.5 | 36.9 |
| 4 | cpu | 140.2 | 131.0 |
| 4 | gpu | 210.9 | 199.4 |

{claim}
"""


@pytest.mark.parametrize("header, unit", [("Tokens/sec", "tokens/s"), ("Throughput (Tokens/s)", "tokens/s"),
                                          ("Images/sec", "images/s"), ("Req/s", "requests/s"),
                                          ("Tokens/sec/GPU", "tokens/s"), ("Latency (ms)", "ms"), ("MB", "MB")])
def test_a_capitalised_rate_header_names_its_unit(header, unit):
    assert header_unit(header) == unit


def test_a_header_word_that_is_no_rate_names_none():
    assert header_unit("Retries/s") is None  # no retry rate in the unit table: left unread, as before
    assert header_unit("Decoder") is None


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_a_throughput_claim_over_a_capitalised_rate_column_is_judged():
    # 1 stream: gpu 36.9 images/sec against cpu 38.2, so gpu is not higher there
    ((line, message),) = _sg107(SWEEP.format(claim="At 1 stream the gpu decoder has higher throughput than cpu."))
    assert line == 10
    assert message.endswith("row '1 / gpu' has 36.9 against 38.2")


def test_a_throughput_claim_the_rows_bear_out_is_not_reported():
    # 4 streams: 199.4 against 131.0
    assert _sg107(SWEEP.format(claim="At 4 streams the gpu decoder has higher throughput than cpu.")) == []
