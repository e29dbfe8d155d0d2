"""studygen.markdown_format: the one mdformat call, its results kept by content."""

from __future__ import annotations

import os

import mdformat
import pytest

from studygen import markdown_format

TEXT = "# Latency\n\n| variant | median (ms) |\n|:--|--:|\n| fp16 | 8.19 |\n| FP8 | 9.45 |\n\n1. first\n1. second\n"


def direct(text: str) -> str:
    return mdformat.text(text, extensions={"gfm"}, options={"wrap": "keep", "number": False, "end_of_line": "lf"})


def test_the_result_is_mdformats_with_the_renderers_options(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    formatted = markdown_format.format_markdown(TEXT)
    assert formatted == direct(TEXT)
    assert "| fp16    |        8.19 |" in formatted and "1. first\n1. second" in formatted  # numbers kept


def test_a_text_formatted_before_is_read_back_not_formatted_again(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    first = markdown_format.format_markdown(TEXT)
    (kept,) = (tmp_path / "markdown").glob("*.md")
    assert kept.read_text().split("\n", 1)[1] == first
    monkeypatch.setattr(mdformat, "text", lambda *a, **k: pytest.fail("formatted again"))
    assert markdown_format.format_markdown(TEXT) == first
    with pytest.raises(pytest.fail.Exception):
        markdown_format.format_markdown(TEXT + "\nAnother paragraph.\n")  # another text is another entry


def test_without_a_cache_folder_every_text_is_formatted(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", "")
    calls = []
    real = mdformat.text
    monkeypatch.setattr(mdformat, "text", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert markdown_format.format_markdown(TEXT) == markdown_format.format_markdown(TEXT)
    assert len(calls) == 2
    assert markdown_format.format_markdown(TEXT) == direct(TEXT)


@pytest.mark.parametrize("damage", [lambda kept: kept[:100], lambda kept: kept.replace(b"8.19", b"8.91"),
                                    lambda kept: kept.split(b"\n", 1)[1], lambda kept: b"", lambda kept: b"\xff" + kept])
def test_a_damaged_entry_is_formatted_again_and_replaced(tmp_path, monkeypatch, damage):
    # A cut-short or altered entry would make SG104 and SG201 report a README that is fine.
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    first = markdown_format.format_markdown(TEXT)
    (kept,) = (tmp_path / "markdown").glob("*.md")
    whole = kept.read_bytes()
    kept.write_bytes(damage(whole))
    assert markdown_format.format_markdown(TEXT) == first == direct(TEXT)
    assert kept.read_bytes() == whole


def test_an_entry_that_is_a_fifo_is_formatted_again(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    markdown_format.format_markdown(TEXT)
    (kept,) = (tmp_path / "markdown").glob("*.md")
    kept.unlink()
    os.mkfifo(kept)  # reading it would wait for a writer
    assert markdown_format.format_markdown(TEXT) == direct(TEXT)
