"""``study.escape``: a note a collector copied from a log reads as the log wrote it, once escaped, with no
link, image, strikethrough, emphasis or HTML of its own (attack: a crafted trtexec label became a note whose
``[x](//evil.example)`` and ``![i](//e/x.png)`` rendered live, and whose ``<b>`` showed as ``&lt;b&gt;``)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from studygen.render.engine import render_markdown
from tests.render.test_sections import latency, load, record, spec

CRAFTED = "Queue *Wait* [x](//evil.example) ![i](//e/x.png) ~~gone~~ <b>hi</b> & `code` C:\\tmp\\_x"


@pytest.fixture
def readme(tmp_path):
    document = record("job", [latency("fp16", 5.0)])
    document["provenance"]["notes"] = [CRAFTED, "# not a heading"]
    return render_markdown(load(tmp_path, records=[document], study=spec()), "studygen/generic.md.j2")


def note_items(readme: str) -> list[str]:
    """The README's list items that name the job, each as the text a reader sees (inline children rendered)."""
    tokens = MarkdownIt("commonmark").enable("strikethrough").parse(readme)
    return [token for token in tokens if token.type == "inline" and token.content.startswith("job: ")]


def test_a_note_holds_no_markup_of_its_own(readme):
    crafted, heading = note_items(readme)
    kinds = {child.type for child in crafted.children}
    assert kinds == {"text", "softbreak"} or kinds == {"text"}  # no link, image, s, em, html_inline, code_inline
    assert "".join(child.content for child in crafted.children) == f"job: {CRAFTED}"
    assert "".join(child.content for child in heading.children) == "job: # not a heading"
