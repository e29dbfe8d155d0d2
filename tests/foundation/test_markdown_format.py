"""studygen.markdown_format: the one mdformat call, with the renderer's options."""

from __future__ import annotations

import mdformat

from studygen import markdown_format

TEXT = "# Latency\n\n| variant | median (ms) |\n|:--|--:|\n| fp16 | 8.19 |\n| FP8 | 9.45 |\n\n1. first\n1. second\n"


def direct(text: str) -> str:
    return mdformat.text(text, extensions={"gfm"}, options={"wrap": "keep", "number": False, "end_of_line": "lf"})


def test_the_result_is_mdformats_with_the_renderers_options():
    formatted = markdown_format.format_markdown(TEXT)
    assert formatted == direct(TEXT)
    assert "| fp16    |        8.19 |" in formatted and "1. first\n1. second" in formatted  # numbers kept


def test_every_text_is_formatted_afresh(monkeypatch):
    expected = direct(TEXT)
    calls = []
    real = mdformat.text
    monkeypatch.setattr(mdformat, "text", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert markdown_format.format_markdown(TEXT) == markdown_format.format_markdown(TEXT) == expected
    assert len(calls) == 2
