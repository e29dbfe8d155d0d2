"""Escaping (studygen.render.escaping) and labels (studygen.render.labels), each helper on its own.

The expected strings were written out by hand from the rules in the helpers'
docstrings (HTML escaped without quotes, newlines folded, Markdown's active
characters backslash-escaped)."""

from __future__ import annotations

from studygen.render.escaping import code_span, escape_cell, escape_label, escape_label_in_prose, escape_prose
from studygen.render.labels import gpu_label, shape_label, short_version


def test_escape_cell_escapes_html_pipes_backticks_and_backslashes():
    assert escape_cell("a|b`c\\d\n<e>&") == "a\\|b\\`c\\\\d &lt;e&gt;&amp;"
    assert escape_cell("x\r\n\ny") == "x y"  # a run of line breaks is one space
    assert escape_cell('say "hi"') == 'say "hi"'  # quotes stay (quote=False)
    assert escape_cell(5.8) == "5.8"


def test_escape_cell_shows_control_and_bidi_characters_and_folds_every_line_break():
    # a terminal escape, a NUL and a right-to-left override from a record show as code points (a
    # backslash the cell's own escaping doubles, so the reader sees \u001b); U+2028 and NEL end a line
    assert escape_cell("fp16\x1b[2J\x00") == "fp16\\\\u001b[2J\\\\u0000"
    assert escape_cell("gpu\u202eA100") == "gpu\\\\u202eA100"
    assert escape_cell("a \u2028 b\x85c") == "a b c"
    assert escape_cell("tab\tkept") == "tab\tkept"
    assert escape_label("x\u2066y") == "x\\\\u2066y"


def test_escape_label_escapes_a_cell_and_its_emphasis_links_and_strikethrough():
    assert escape_label("H|200 *SXM* _x_ [r] ~y~ <b>&") == "H\\|200 \\*SXM\\* \\_x\\_ \\[r\\] \\~y\\~ &lt;b&gt;&amp;"
    assert escape_label("a\\b`c") == "a\\\\b\\`c"  # as escape_cell: a backslash and a backtick once each


def test_escape_label_in_prose_leaves_html_and_pipes_to_the_engine():
    # the engine's escape_prose escapes <, & and | next: each character is escaped once in all
    assert escape_label_in_prose("A|B *x* <y> & z_\\") == "A|B \\*x\\* <y> & z\\_\\\\"
    assert escape_prose(escape_label_in_prose("A|B *x* <y>")) == "A\\|B \\*x\\* &lt;y&gt;"


def test_code_span_takes_a_longer_fence_than_its_backticks():
    assert code_span("lin_*ears*") == "`lin_*ears*`"
    assert code_span("a`b``c") == "```a`b``c```"
    assert code_span("`x") == "`` `x ``"
    assert code_span("a\nb\x1b") == "`a b\\u001b`"


def test_gpu_label_drops_the_vendor_prefix_only_at_the_start():
    assert gpu_label("NVIDIA B200") == "B200"
    assert gpu_label("NVIDIA  H200") == "H200"
    assert gpu_label("Tesla NVIDIA T4") == "Tesla NVIDIA T4"
    assert gpu_label("NVIDIAB200") == "NVIDIAB200"  # the prefix is a word
    assert gpu_label(None) == "not stated"
    assert gpu_label("") == "not stated"


def test_short_version_keeps_major_and_minor():
    assert short_version("11.4.0.106") == "11.4"
    assert short_version("13") == "13"
    assert short_version("2.11.0") == "2.11"
    assert short_version(None) == "not stated"
    assert short_version("") == "not stated"


def test_shape_label_spaces_height_and_width():
    assert shape_label("800x1067") == "800 x 1067"
    # the chart's panel for a figure without a shape says "shape not stated"; a table cell says the same
    assert shape_label(None) == "shape not stated"
    assert shape_label("") == "shape not stated"


def test_escape_prose_keeps_quotes_and_drops_leading_white_space():
    assert escape_prose('say "hi"') == 'say "hi"'
    # blanks and tabs are dropped at the start (four would make a code block), and so is a no-break space:
    # mdformat drops it where a line starts, and the "#" behind it must be escaped (test_blank_led_block_starts.py)
    assert escape_prose("\u00a0# not a heading") == "\\# not a heading"
    assert escape_prose(" \t# heading") == "\\# heading"
    assert escape_prose("a\u00a0# b") == "a\u00a0# b"  # inside the text a no-break space stays


def test_printable_replaces_exactly_the_control_characters():
    """charts.printable: every control character but the newline (C0 and
    DEL) becomes a space; any other text, ASCII or not, comes back as it is."""
    from studygen.render.charts import printable

    for text in ("NVIDIA H100 80GB HBM3 TensorRT 10.8", "µs × 2 — ü \U0001f600", "", "a\u00a0b\u2028c\u200bd"):
        assert printable(text) == text
    assert printable("a\tb\rc\nd\x7fe\x00f\x1b") == "a b c\nd e f "
    for code in range(0x20):
        assert printable(f"x{chr(code)}y") == ("x\ny" if code == 10 else "x y")
