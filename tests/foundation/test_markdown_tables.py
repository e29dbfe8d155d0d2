"""studygen.markdown_tables and studygen.markdown_tree: the renderer of tables
and the render tree of studygen.markdown_format give mdformat's output
character for character (every Markdown file at hand is compared in
test_markdown_format.py; here generated tables and the fallbacks)."""

from __future__ import annotations

import mdformat
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from studygen import markdown_format, markdown_tables, markdown_tree
from studygen.terminal_width import NARROW_SYMBOLS

OPTIONS = {"wrap": "keep", "number": False, "end_of_line": "lf"}

# Cell characters that measure other than one column or that the formatter escapes: East Asian wide and
# halfwidth, an emoji with a skin tone, a ZWJ sequence, VS16, combining marks (a spacing one, Mc, and a
# nonspacing one), a virama conjunct, zero-width and no-break spaces, regional indicators, C0 and C1
# controls, a tab, pipes and backslashes, code-span backticks, emphasis, HTML and entity starts; and the
# zero-width format characters render's anchors are made of (markdown_tables.ZERO_WIDTH_EDGES), alone and
# as an anchor is written; signs of terminal_width.NARROW_SYMBOLS (measured by their length), a soft hyphen
# and a line separator (not).
ANCHOR = "\u2060" + "\u2062\u2063" * 16
SPECIAL = ["漢", "ｱ", "😀", "👍🏽", "👩\u200d💻", "\u200d", "\u2764\ufe0f", "\ufe0f", "e\u0301", "\u093e", "क\u094dष",
           "\u094d", "क", "\u200b", "\u00a0", "🇯🇵", "\x07", "\x85", "\t", "|", "\\|", "\\", "`", "``", "*", "_", "~~",
           "<b>", "&amp;", "-", ":", " ", "  ", ANCHOR, "\u2061\u2063\u2062", "\u2060", "\u2064",
           "—", "…", "±", "×", "µ", "Δ", "→", "≤", "\u00ad", "\u2028"]
CELL = st.lists(st.one_of(st.sampled_from(SPECIAL), st.text("ab1.", min_size=1, max_size=4)),
                max_size=4).map("".join)
DELIMITERS = st.sampled_from(["---", ":--", "--:", ":-:", "-", ":-", "-:", "::", "---:"])


@st.composite
def tables(draw) -> str:
    """A GFM table (maybe in a list item or a quote, maybe beside a paragraph) whose rows may be
    shorter or longer than its header and whose cells may be empty or hold any of SPECIAL."""
    columns = draw(st.integers(1, 4))
    header = draw(st.lists(CELL, min_size=columns, max_size=columns))
    delimiter = draw(st.lists(DELIMITERS, min_size=columns, max_size=columns))
    body = draw(st.lists(st.lists(CELL, max_size=columns + 2), max_size=4))
    outer = draw(st.booleans())

    def line(cells: list[str]) -> str:
        joined = " | ".join(cells)
        return f"| {joined} |" if outer or len(cells) < 2 else joined

    text = "\n".join([line(header), line(delimiter)] + [line(row) for row in body]) + "\n"
    prefix = draw(st.sampled_from(["", "> ", "- ", "1. "]))
    text = "".join(prefix + part for part in text.splitlines(keepends=True))
    return draw(st.sampled_from(["", "para\n\n", "para\n"])) + text


@pytest.fixture
def fresh(monkeypatch):
    """The parser and the node class made afresh, by the code under test."""
    from studygen import markdown_tree

    monkeypatch.setattr(markdown_format, "_parser", None)
    monkeypatch.setattr(markdown_format, "_mdformat", None)
    monkeypatch.setattr(markdown_tree, "_node_class", None)


def direct(text: str) -> str:
    return mdformat.text(text, extensions={"gfm"}, options=OPTIONS)


@settings(max_examples=400, deadline=None)
@given(tables())
@example("| a | b |\n|:-:|--:|\n| 漢字 | 😀 |\n| \x07 | e\u0301 |\n| x |\n| 1 | 2 | 3 |\n")
@example("a | b\n-- | :-\n`c\\|d` | \\\\|\n")
def test_generated_tables_format_as_mdformat_formats_them(text):
    assert markdown_format.format_markdown(text) == direct(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(SPECIAL + ["a", "5.0", "x y"]), max_size=6).map("".join))
@example(ANCHOR + "Variant")
@example("fp16\u2061" + "\u2063" * 32)
@example("\u094d\u2060क")
def test_a_cell_measures_as_wcswidth_measures_it(text):
    from wcwidth import wcswidth

    width, simple = markdown_tables.cell_width(text)
    core = text.strip(markdown_tables.ZERO_WIDTH_EDGES)
    assert width == wcswidth(text)
    assert simple == all(char in NARROW_SYMBOLS or " " <= char <= "~" for char in core)


def test_cells_of_ascii_between_zero_width_edges_are_measured_without_wcswidth(monkeypatch):
    """A table as render writes it, anchored inside its first and last cell, is laid out by length and
    arithmetic, and so are cells holding dashes, signs and an ellipsis (terminal_width.NARROW_SYMBOLS).
    Failed before: those two cells went through wcswidth (about 20 and 50 microseconds:
    a fifth of formatting the shipped READMEs' tables) and their padding through it again."""
    import wcwidth
    from mdformat_gfm import _tables_plugin

    text = f"| {ANCHOR}GPU | ms |\n|:-:|--:|\n| H200 | 5.850\u2061{ANCHOR[1:]} |\n"
    # signs of NARROW_SYMBOLS, one column each: "H100 — B200" is 11 wide, "±1 µs…" 6
    signs = "| a | b |\n|:-:|--:|\n| H100 — B200 | ±1 µs… |\n"
    expected, expected_signs = direct(text), direct(signs)
    markdown_format.format_markdown("")
    for module in (_tables_plugin, wcwidth):
        monkeypatch.setattr(module, "wcswidth", lambda text: pytest.fail(f"wcswidth of {text!r}"))
    assert markdown_format.format_markdown(text) == expected
    assert expected.splitlines()[0] == f"| {ANCHOR}GPU  |    ms |"
    assert markdown_format.format_markdown(signs) == expected_signs
    assert expected_signs.splitlines()[0] == "|      a      |      b |"  # 5 + 1 + 5 and 5 + 1 spaces


def test_cells_padded_by_their_width_in_columns():
    """Read off by hand: a wide character takes two columns; a control character makes the width -1, so
    mdformat-gfm centres it in a column of 4 with (4 + 1) // 2 - 1 + 1 = 2 spaces before it and then
    4 + 1 = 5 after (the padded text measures -1 again); a centred cell's odd space is on the right."""
    text = "| a | b |\n|:-:|--:|\n| 漢字 | x |\n| \x07 | yy |\n| abcd | z |\n"
    expected = "|  a   |   b |\n| :--: | --: |\n| 漢字 |   x |\n|   \x07      |  yy |\n| abcd |   z |\n"
    assert markdown_format.format_markdown(text) == expected == direct(text)


def test_rendering_a_table_walks_no_cell_content(monkeypatch, fresh):
    """Rows and cells are read off the table's shape; nothing below a cell is visited to find them.
    Failed before: mdformat-gfm's renderer walked every node under the table (each text of each cell)."""
    from markdown_it.tree import SyntaxTreeNode

    def no_walk(self, *, include_self=True):
        raise AssertionError("walked")

    markdown_format.format_markdown("")
    monkeypatch.setattr(SyntaxTreeNode, "walk", no_walk)
    text = "| a | *b* |\n|---|---|\n| `c` | d_e |\n"
    assert markdown_format.format_markdown(text) == "| a   | *b* |\n| --- | --- |\n| `c` | d_e |\n"


def _table_node(text: str):
    """The render tree of ``text``, its first table node, and a render context for it."""
    from mdformat.renderer import DEFAULT_RENDERERS, RenderContext

    markdown_format.format_markdown("")
    parser = markdown_format._parser
    tree = markdown_tree.build_tree(parser.parse(text, {}))
    renderers = dict(DEFAULT_RENDERERS)
    postprocessors = {}
    for plugin in parser.options["parser_extension"]:
        renderers.update(plugin.RENDERERS)
        for name, postprocessor in plugin.POSTPROCESSORS.items():
            postprocessors[name] = postprocessors.get(name, ()) + (postprocessor,)
    env = {"used_refs": set(), "indent_width": 0}
    context = RenderContext(renderers, postprocessors, dict(parser.options), env)
    return tree.children[0], context


@pytest.mark.parametrize("options", [{"compact_tables": True}, {"plugin": {"tables": {"compact_tables": True}}}])
def test_compact_tables_are_left_to_mdformat_gfm(options):
    table, context = _table_node("| a | b |\n|---|--:|\n| ccc | d |\n")
    context.options["mdformat"] = {**context.options["mdformat"], **options}
    assert markdown_tables.render_table(table, context) == "| a | b |\n| -- | -: |\n| ccc | d |"


def test_tables_of_another_shape_are_left_to_mdformat_gfm():
    """Rows longer or shorter than the header (markdown-it never makes them) and a child that is no
    section, row or cell: mdformat-gfm's renderer gives what it gives (an IndexError for uneven rows)."""
    from mdformat_gfm import _tables_plugin

    table, context = _table_node("| a | b |\n|---|---|\n| c | d |\n| e | f |\n")
    body = table.children[1]
    first_row = body.children[0].children
    expected = "| a   | b   |\n| --- | --- |\n| c   | d   |\n| e   | f   |"
    assert markdown_tables.render_table(table, context) == _tables_plugin._render_table(table, context) == expected
    for uneven in ([*body.children[0].children, body.children[1].children[0]], body.children[0].children[:1]):
        body.children[0].children = uneven
        assert markdown_tables._rows(table, context) is None
        for render in (_tables_plugin._render_table, markdown_tables.render_table):
            with pytest.raises(IndexError):
                render(table, context)
    body.children[0].children = first_row
    assert len(markdown_tables._rows(table, context)) == 3
    body.children[1].children[1].type = "tr"
    assert markdown_tables._rows(table, context) is None
    body.type = "tr"
    assert markdown_tables._rows(table, context) is None
    body.type = "tbody"
    body.children[1].type = "td"
    assert markdown_tables._rows(table, context) is None
    table.children[0].type = "paragraph"
    assert markdown_tables._rows(table, context) is None
    table.children.clear()
    assert markdown_tables._rows(table, context) is None


TREE_TEXTS = ["", "# T\n\n| a | b |\n|---|---|\n| `c` | *d* |\n\n- [x] done\n- ![img *alt*](x.png) [l](u)\n\n> q\n",
              "1. a\n\n   ```py\n   x\n   ```\n\n<div>\n\n~~s~~ www.example.org\n\n[r]: /u\n"]


def _same_tree(ours, theirs, parent=None) -> None:
    assert type(ours).__name__ == "FormatNode" and type(ours).__module__ == "studygen.markdown_tree"
    assert isinstance(ours, type(theirs)) and ours.parent is parent
    assert ours.type == theirs.type and ours.token is theirs.token
    assert (ours.nester_tokens is None) == (theirs.nester_tokens is None)
    if theirs.nester_tokens is not None:
        assert ours.nester_tokens.opening is theirs.nester_tokens.opening
        assert ours.nester_tokens.closing is theirs.nester_tokens.closing
    assert len(ours.children) == len(theirs.children)
    for our_child, their_child in zip(ours.children, theirs.children):
        _same_tree(our_child, their_child, ours)


@pytest.mark.parametrize("text", TREE_TEXTS)
def test_the_tree_is_the_one_mdformat_builds(text, fresh):
    from mdformat.renderer import RenderTreeNode

    markdown_format.format_markdown("")
    tokens = markdown_format._parser.parse(text, {})
    tree = markdown_tree.build_tree(tokens)
    theirs = RenderTreeNode(tokens)
    _same_tree(tree, theirs)
    assert tree.type == "root" and tree.is_root and not any(child.is_root for child in tree.children)
    assert tree.to_tokens() == tokens and len(list(tree.walk())) == len(list(theirs.walk()))


def test_no_node_type_is_read_through_the_property(monkeypatch, fresh):
    """Types, children and parents are attributes of the nodes, set as the tree is built.
    Failed before: the renderer read each node's type through two properties (about 24,000 reads for
    the shipped READMEs)."""
    from markdown_it.tree import SyntaxTreeNode

    text = TREE_TEXTS[1]
    expected = direct(text)
    for name in ("type", "children", "parent"):
        monkeypatch.setattr(SyntaxTreeNode, name, property(lambda self: pytest.fail("read a property")))
    assert markdown_format.format_markdown(text) == expected


def test_tokens_not_nested_in_pairs_are_left_to_markdown_it():
    from markdown_it.token import Token

    opening, text, closing = Token("paragraph_open", "p", 1), Token("text", "", 0), Token("paragraph_close", "p", -1)
    deep = Token("odd_open", "", 2)
    for tokens, error in (([opening, text], "unclosed tokens"), ([closing], "Invalid token nesting"),
                          ([text, closing, opening], "Invalid token nesting"),
                          ([opening, deep, closing, closing, closing], "Invalid token nesting")):
        with pytest.raises(ValueError, match=error):
            markdown_tree.build_tree(tokens)
    tree = markdown_tree.build_tree([opening, text, closing, text])
    assert [child.type for child in tree.children] == ["paragraph", "text"] and tree.children[0].children[0].token is text


@settings(max_examples=500, deadline=None)
@given(st.text("|\\a` ", max_size=12))
@example("\\\\|a\\|\\||")
def test_rows_split_into_cells_as_markdown_it_splits_them(line):
    import importlib

    table_module = importlib.import_module("markdown_it.rules_block.table")
    assert markdown_tables.escaped_split(line) == table_module.escapedSplit(line)


def test_cells_split_by_hand():
    assert markdown_tables.escaped_split("") == [""]
    assert markdown_tables.escaped_split("|a|") == ["", "a", ""]
    assert markdown_tables.escaped_split("a\\|b|c") == ["a|b", "c"]
    assert markdown_tables.escaped_split("\\\\|x") == ["\\|x"]  # a pipe after any backslash is escaped
    assert markdown_tables.escaped_split("|\\|\\||") == ["", "||", ""]


def test_table_rows_split_by_our_splitter_and_wrapping_read_off_the_options_once(monkeypatch, fresh):
    """markdown-it's table rule in our parser splits rows with escaped_split, and nothing asks a render
    context whether to wrap while a table is rendered (the options say it once). Failed before: each row
    was split character by character, and each cell's text and inline postprocessor read the property."""
    import importlib

    from mdformat.renderer import RenderContext

    markdown_format.format_markdown("")
    table_module = importlib.import_module("markdown_it.rules_block.table")
    monkeypatch.setattr(table_module, "escapedSplit", lambda line: pytest.fail("markdown-it's splitter"))
    rules = [rule for rule in markdown_format._parser.block.ruler.__rules__ if rule.name == "table"]
    assert len(rules) == 1 and rules[0].alt == ["paragraph", "reference"] and rules[0].enabled
    assert rules[0].fn.__globals__["escapedSplit"] is markdown_tables.escaped_split
    reads = []
    real = RenderContext.do_wrap
    monkeypatch.setattr(RenderContext, "do_wrap", property(lambda self: reads.append(1) or real.fget(self)))
    text = "| a | b\\|c |\n|---|:-:|\n| `d` | e |\n"
    assert markdown_format.format_markdown(text) == "| a   | b\\|c |\n| --- | :--: |\n| `d` |  e   |\n"
    assert reads == []


WRAPPED = "- [ ] a task whose text is long enough to wrap at forty columns, twice over at least\n\n" + \
          "A paragraph_with *emphasis* and\na soft break, long enough to be wrapped at forty columns.\n"


@pytest.mark.parametrize("wrap", [40, "no", "keep"])
def test_options_that_wrap_keep_mdformat_gfms_postprocessor_of_inline_text(monkeypatch, fresh, wrap):
    options = {**OPTIONS, "wrap": wrap}
    monkeypatch.setattr(markdown_format, "MDFORMAT_OPTIONS", options)
    formatted = markdown_format.format_markdown(WRAPPED)
    assert formatted == mdformat.text(WRAPPED, extensions={"gfm"}, options=options)
    assert ("- [ ] a task whose text is long enough\n" in formatted) == (wrap == 40)
    assert ("*emphasis* and a soft break, long enough to be wrapped at forty columns.\n" in formatted) == (wrap == "no")
    inline_postprocessors = [plugin.POSTPROCESSORS.get("inline") for plugin in markdown_format._parser.options[
        "parser_extension"] if getattr(plugin, "POSTPROCESSORS", {}).get("inline")]
    assert len(inline_postprocessors) == (wrap != "keep")


@settings(max_examples=500, deadline=None)
@given(st.text(st.one_of(st.sampled_from("|-: \n\\\t"), st.characters()), max_size=30))
@example("---\n| - |\na - b\n\n:-:")
@example("X-X\n-|a")  # a line with any other character keeps its dash
def test_paragraph_lines_that_read_as_a_delimiter_row_are_escaped_as_mdformat_gfm_escapes_them(text):
    from mdformat_gfm import _tables_plugin

    assert markdown_tables.escape_delimiter_lines(text, None, None) == _tables_plugin._escape_tables(text, None, None)


def test_the_tables_plugin_is_mdformat_gfms_with_our_renderer_of_tables():
    from mdformat_gfm import _tables_plugin

    plugin = markdown_tables.TABLES_PLUGIN
    assert set(plugin.RENDERERS) == set(_tables_plugin.RENDERERS) and plugin.RENDERERS["table"] is markdown_tables.render_table
    assert set(plugin.POSTPROCESSORS) == set(_tables_plugin.POSTPROCESSORS)
    assert markdown_tables.escape_delimiter_lines("a\n|-|:-:|\n- b", None, None) == "a\n|\\-|:-:|\n- b"
