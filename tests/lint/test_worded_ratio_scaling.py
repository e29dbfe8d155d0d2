"""Ratios written in words stay linear (attack round: "fp16 is twice as fast
as fp32 and " repeated to 1 MB ran past 60 s). Every worded ratio is a figure,
and each figure's scope was read forward from it past every "and" whose word
before holds a digit ("fp32 and"), so a sentence of such ratios rescanned the
rest of itself once per ratio; each ratio's clause in the table-ratio reader
was found by searching from the figure to the nearest comma, semicolon or
parenthesis, the same way. Measured by counting calls and checked against a
plain forward scan, never by timing."""

from __future__ import annotations

import random
import re

from studygen.lint import lint_text
from studygen.lint.text import figure_scope

from .own_calls import own_calls

_DOCUMENT = """\
# Engines

| GPU | fp32 (ms) | bf16 (ms) | int8 (ms) |
|---|---|---|---|
| H100 | 0.840 | 0.672 | 0.240 |
| L4 | 2.100 | 1.050 | 0.700 |

{body}
"""


def _repeated(count: int) -> str:
    return _DOCUMENT.format(body="bf16 is twice as fast as fp32 and " * count)


def test_a_sentence_of_worded_ratios_is_linear():
    # 3.3x the calls for 2x the ratios before: each scope end read past every "fp32 and" after it
    assert own_calls(_repeated(400)) / own_calls(_repeated(200)) < 2.3


def test_findings_on_worded_ratios_are_those_of_their_own_clauses():
    # "fp32 and int8" joins labels, so the first scope runs on to the comma: the H100's 2x is wrong (1.25x);
    # the L4's (2.100 / 1.050) and "three times" for int8 on the L4 (3.0x) hold, as does a third of fp32 there
    body = ("On the H100 bf16 is twice as fast as fp32 and int8 is 3.5 times as fast as fp32, while on the L4 bf16 "
            "is twice as fast as fp32 and int8 is three times as fast as fp32.\n"
            "On the L4 int8 needs a third of the latency of fp32 and bf16 half the time of fp32, but on the H100 "
            "int8 runs in half the time bf16 takes.\n")
    findings = [(f.line, f.code, f.message) for f in lint_text(_DOCUMENT.format(body=body), "t.md")]
    assert findings == [(8, "SG103", "2x vs fp32 does not follow from the table at line 3: at row 'H100', "
                         "0.840 / 0.672 = 1.2x (1.2x to 1.3x within the printed digits); 0.672 / 0.840 = 0.8x")]


def _plain_scope_end(text: str, position: int) -> int:
    """The forward half of the scope by the definition: the start of the first
    separator of a scan of text from ``position`` that is punctuation, or a
    conjunction whose word before holds no digit; else the text's end."""
    for match in re.finditer(r"[,;:]\s+|\s+(?:and|but|while|whereas)\s+", text[position:]):
        if match.group().strip() in (",", ";", ":"):
            return position + match.start()
        before = re.search(r"(\S+)\s*$", text[:position + match.start()])
        if not (before and re.search(r"\d", before.group(1))):
            return position + match.start()
    return len(text)


def test_indexed_scope_end_matches_a_plain_scan():
    # figures end anywhere, inside a separator's white space or its word too, where a scan from there parts the
    # text otherwise than the scan of the whole text
    rng = random.Random(2323)
    words = ["and", "but", "while", ",", ";", ":", "fp32", "4.5", "ms", "x", "H100", "the", "\t", "  ", "band", "nd"]
    for _ in range(400):
        text = "".join(rng.choice(words) + " " * rng.randint(0, 3) for _ in range(rng.randint(3, 120)))
        for position in range(len(text)):
            # no parenthesis in these texts, so the scope's end is the scan's alone
            assert figure_scope(text, position, position)[1] == _plain_scope_end(text, position), (text, position)


def _plain_clause(text: str, sentence_start: int, sentence_end: int, start: int, end: int) -> tuple[int, int]:
    """A figure's clause by the definition: from past the last , ; ( or ) before it in its sentence to the first at
    or after its end, else the sentence's bounds (block-text offsets)."""
    before = [text.rfind(c, sentence_start, start) for c in ",;()"]
    after = [found for found in (text.find(c, end, sentence_end) for c in ",;()") if found != -1]
    return max(before + [sentence_start - 1]) + 1, min(after + [sentence_end])


def test_each_ratio_clause_is_found_from_the_breaks_of_its_sentence():
    from studygen.lint import parse_document
    from studygen.lint.prose_tables import _clause_view

    body = ("Overall (H100) bf16 is 1.25x faster; int8 is twice as fast as fp32, and 3.5x on H100 (L4: 3.0x). "
            "On the L4, bf16 is twice as fast as fp32 (2.100 vs 1.050 ms); int8 1.5x faster than bf16.")
    document = parse_document(_DOCUMENT.format(body=body), "t.md")
    block = document.prose[-1]
    read = 0
    for sentence in block.sentences:
        for figure in (t.figure for t in sentence.tokens if t.figure is not None and t.figure.unit == "x"):
            start, end = _plain_clause(block.text, sentence.start, sentence.end, figure.start, figure.end)
            assert _clause_view(sentence, figure) is sentence.segment_view(start - sentence.start,
                                                                          end - sentence.start), figure
            read += 1
    assert read == 6
