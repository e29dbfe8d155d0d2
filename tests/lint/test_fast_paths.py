"""Lint's fast paths do the same work by a shorter way (issue 25 item 5):
each test pins the mechanism (the slow way is not taken) and the result
(what the slow way gives, on hand-written text). Timing is the benchmarks'
business (``benchmarks/family_check.py``), never a test's."""

from __future__ import annotations

import importlib

import pytest

from studygen.lint import lint_text
from studygen.lint.vocabulary import ascii_folded


class _NoTranslate(str):
    """A text whose ``translate`` fails the test: the fold must not look up every character."""

    def translate(self, table):
        raise AssertionError("str.translate called")


def test_folding_a_text_without_the_four_letters_is_lower_casing_only():
    # Failed before: every text went through str.translate, a dictionary lookup per character.
    assert ascii_folded(_NoTranslate("FP8 is 1.9× faster — 3 µs")) == "fp8 is 1.9× faster — 3 µs"
    assert ascii_folded(_NoTranslate("PLAIN ASCII")) == "plain ascii"
    # one of the letters re.IGNORECASE reads as ASCII: folded to it, offsets kept (İ lower-cased alone is two characters)
    assert ascii_folded("Noiſe \u212aept SIGNIF\u0130CANT ı") == "noise kept significant i"
    assert len(ascii_folded("\u0130" * 5)) == 5


_TABLES = (
    "# Results\n\n"
    "| gpu | fp16 ms | note |\n|---|---:|---|\n"
    "| A100 | 7.21 | a \\| b |\n"          # an escaped pipe: three cells
    "| H100 | 5.10 | c | 9.9 |\n"          # four cells: one dropped
    "| --- | --- | --- |\n"                # a delimiter row inside the body
    "| L40S | 8.02 | d |\n"
)


def test_table_rows_are_split_without_markdown_its_character_loop(monkeypatch):
    # Failed before: the header row (markdown-it's table rule) and every body row SG104 reads went through
    # escapedSplit, a Python loop over every character of the line.
    table_module = importlib.import_module("markdown_it.rules_block.table")
    monkeypatch.setattr(table_module, "escapedSplit", lambda line: pytest.fail("markdown-it's splitter"))
    monkeypatch.setattr("studygen.lint.sg104_structure.escapedSplit", table_module.escapedSplit, raising=False)
    found = [(f.code, f.line, f.message[:40]) for f in lint_text(_TABLES, "t.md")]
    assert found == [
        ("SG104", 6, "table row has 4 cells but its header (li"),
        ("SG104", 7, "a delimiter row inside the body of the t"),
    ]
