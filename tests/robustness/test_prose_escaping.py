"""Record and study file strings placed in prose (a paragraph, a heading, a
list item, alt text) are escaped as in tables: a GPU name, a variant label or
a decision summary cannot add a heading, a list, a quote, a table, HTML or a
terminal escape to the README, and an ordinary string reads as it was."""

from __future__ import annotations

import pytest
import yaml
from markdown_it import MarkdownIt

from studygen.render.escaping import escape_alt, escape_prose
from tests.robustness.tiny import make_tiny_project, run_record, study_spec

INJECTED_GPU = "NVIDIA B200\n\n# injected heading\n\n- injected item\n> quote\n<b>bold</b> \x1b[2J"
PROSE_TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

{{ study.decision.summary }}

{% for f in study.figures(kind="latency") %}
- {{ f.gpu }}: {{ study.gpu(f.gpu) }} {{ study.label(f.variant) }} {{ f }}
{% endfor %}

{{ study.list_table(study.figures(kind="latency"), columns=("job_id", "variant", "value")) }}
"""


@pytest.fixture
def hostile(tmp_path, run_cli):
    record = run_record()
    record["provenance"]["gpu"] = INJECTED_GPU
    root = make_tiny_project(tmp_path / "project", records=[record], template=PROSE_TEMPLATE)
    spec = study_spec()
    spec["title"] = "Tiny\n\n## injected section"
    spec["decision"]["summary"] = "1. not a list\n---\n|a|b|\n|-|-|\n<script>x()</script> &amp;"
    spec["variants"][1]["label"] = "FP8\n\n# label heading"
    (root / "families" / "tiny" / "study.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    done = run_cli("render", "--root", root)
    assert done.exit_code == 0, done.err
    return (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")


def _blocks(readme: str) -> list[str]:
    return [t.type for t in MarkdownIt("commonmark").enable("table").parse(readme) if t.nesting == 1]


def test_strings_from_records_and_the_study_file_add_no_block(hostile):
    tokens = MarkdownIt("commonmark").enable("table").parse(hostile)
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == ["Tiny ## injected section"]  # the one heading the template writes
    # the template's paragraph, its one list of two items, and the list table: nothing else
    assert _blocks(hostile) == ["heading_open", "paragraph_open", "bullet_list_open", "list_item_open",
                                "paragraph_open", "list_item_open", "paragraph_open", "table_open", "thead_open",
                                "tr_open", "th_open", "th_open", "th_open", "tbody_open", "tr_open", "td_open",
                                "td_open", "td_open", "tr_open", "td_open", "td_open", "td_open"]


def test_no_html_and_no_control_character_reaches_the_readme(hostile):
    page = MarkdownIt("commonmark").enable("table").render(hostile)
    assert "<script>" not in page and "<b>" not in page
    assert "\x1b" not in hostile and "\\u001b[2J" in page  # shown, not sent to a terminal
    tokens = MarkdownIt("commonmark").parse(hostile)
    assert [t.content for t in tokens if t.type.startswith("html")] == [hostile.splitlines()[0] + "\n"]  # the note
    assert not [c for t in tokens if t.children for c in t.children if c.type.startswith("html")]


def test_escaped_strings_read_back_as_written_on_one_line(hostile):
    tokens = MarkdownIt("commonmark").enable("table").parse(hostile)
    paragraphs = [tokens[i + 1].children for i, t in enumerate(tokens) if t.type == "paragraph_open"]
    text = ["".join(c.content for c in children if c.type == "text") for children in paragraphs]
    gpu = "NVIDIA B200 # injected heading - injected item > quote <b>bold</b> \\u001b[2J"
    assert text == ["1. not a list --- |a|b| |-|-| <script>x()</script> &amp;",
                    f"{gpu}: {gpu[len('NVIDIA '):]} fp16 2.5 ms",
                    f"{gpu}: {gpu[len('NVIDIA '):]} FP8 # label heading 2.75 ms"]


def test_an_ordinary_readme_is_unchanged_by_the_escaping(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project", template=PROSE_TEMPLATE)
    assert run_cli("render", "--root", root).exit_code == 0
    readme = (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    assert "- NVIDIA H100 80GB HBM3: H100 80GB HBM3 fp16 2.5 ms\n" in readme
    assert "# tiny: fp16 against FP8 on one shape\n" in readme and "\\" not in readme


@pytest.mark.parametrize("text, escaped", [
    ("NVIDIA B200\n\n# x", "NVIDIA B200 # x"),
    ("# x", "\\# x"), ("###### x", "\\###### x"), ("#tag", "#tag"),
    ("- x", "\\- x"), ("+ x", "\\+ x"), ("* x", "\\* x"), ("-5 ms", "-5 ms"),
    ("1. x", "1\\. x"), ("12) x", "12\\) x"), ("2.5 ms", "2.5 ms"),
    ("---", "\\---"), ("* * *", "\\* * \\*"), ("===", "\\==="), ("=", "\\="), ("a = b", "a = b"),
    ("```py", "\\```py"), ("~~~", "\\~~~"), ("[x]: http://e", "\\[x]: http://e"), ("[x] y", "[x] y"),
    ("> q", "&gt; q"), ("<b>&", "&lt;b&gt;&amp;"), ("a|b", "a\\|b"),
    ("    code", "code"), ("a\r\nb", "a b"), ("a\u2028b", "a b"), ("a \n  b", "a b"),
    ("\x00\x07\x1b\x7f\x9b", "\\u0000\\u0007\\u001b\\u007f\\u009b"), ("tab\there", "tab\there"),
    ("fp8-recipe72", "fp8-recipe72"), ("SenseTime/deformable-detr", "SenseTime/deformable-detr"),
])
def test_escape_prose(text, escaped):
    assert escape_prose(text) == escaped


def test_escape_alt_cannot_close_the_alt_text():
    # brackets in their fullwidth forms: a backslash escape would not outlive mdformat (tests/render/test_alt_text_fixed_point.py)
    assert escape_alt("GEMM](http://x) ![y") == "GEMM］(http://x) !［y"
    assert escape_alt("a\\b\n# c") == "a\\b # c"  # a backslash before a letter escapes nothing: kept
    page = MarkdownIt("commonmark").render(f"![{escape_alt('GEMM](http://evil) x')}](figures/k.svg)")
    assert page == '<p><img src="figures/k.svg" alt="GEMM］(http://evil) x" /></p>\n'


# Issue 24, item 4: the old pattern ([ \t]*[\r\n]+[ \t]*) tried every blank of a run as a start of a
# match, so a run of n blanks cost n**2 / 2 steps: 60,000 spaces in a record note took render two
# minutes; the 2,000,000 blanks below would take hours. Folding is now linear in the text.
@pytest.mark.parametrize("text, folded", [
    (" " * 1_000_000 + "\t" * 1_000_000 + "x", " " * 1_000_000 + "\t" * 1_000_000 + "x"),  # no break: kept
    ("a" + " \t" * 500_000 + "\n" + " " * 1_000_000 + "b", "a b"),
    ("a" + " " * 2_000_000 + "\r\n", "a "),
    ("a \t\n \r\n\t b\n\n c ", "a  b c "),  # "\n \r\n": two runs of breaks, the blank between them dropped
    ("a \n \n b", "a  b"),  # blanks between two breaks are dropped, each break run gives its space
    ("\n\u2028\x85x", " x"),
], ids=["2e6 blanks, no break", "1e6 blanks each side of a break", "2e6 blanks then CRLF", "runs", "two runs",
        "other breaks"])
def test_folding_line_breaks_is_linear_in_a_run_of_blanks(text, folded):
    """``folded``: the text with each run of breaks and the blanks beside it as one space."""
    escaped = escape_prose(text)
    assert escaped == folded.lstrip(" \t"), len(escaped)


def test_a_record_note_of_60000_blanks_renders(tmp_path, run_cli):
    note = "first" + " " * 30_000 + "\t" * 30_000 + "mid \t\n" + " " * 60_000 + "second"
    record = run_record()
    record["notes"] = [note]
    template = PROSE_TEMPLATE + "\n{% for job, note in study.record_notes() %}\nnote: {{ note }}\n{% endfor %}\n"
    root = make_tiny_project(tmp_path / "project", records=[record], template=template)
    done = run_cli("render", "--root", root)
    assert done.exit_code == 0, done.err
    readme = (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    assert "\nnote: first mid second\n" in readme  # mdformat folds the blanks inside a paragraph


@pytest.mark.parametrize("text, folded", [
    ("  a\nb  ", "  a b  "),  # blanks that touch no break stay, at both ends of the text
    ("X \nX\n X\r\nX", "X X X X"),  # only blanks go, never a letter beside a break
    ("\t a \n\t b \n\t c \t", "\t a b c \t"),
    ("no break", "no break"),
])
def test_fold_line_breaks_drops_only_the_blanks_beside_each_run_of_breaks(text, folded):
    from studygen.render.escaping import fold_line_breaks

    assert fold_line_breaks(text) == folded


def test_bidirectional_overrides_are_shown_not_obeyed():
    # U+202E in a note would show the rest of its line reversed; a zero-width joiner (an emoji's) is text
    from studygen.render.escaping import escape_markup, escape_prose

    assert escape_prose("fp16 \u202eSM90 \u2066x\u2069") == "fp16 \\u202eSM90 \\u2066x\\u2069"
    assert escape_markup("a\u202ab\u202cc") == "a\\u202ab\\u202cc"
    assert escape_prose("team \U0001F468\u200d\U0001F4BB") == "team \U0001F468\u200d\U0001F4BB"
