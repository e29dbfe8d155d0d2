"""studygen.markdown_format: mdformat's output with the renderer's options,
character for character, from one parser per process and our renderer of text."""

from __future__ import annotations

from pathlib import Path

import mdformat
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from studygen import markdown_format, markdown_tables
from tests.conftest import REPO, SHARED

TEXT = "# Latency\n\n| variant | median (ms) |\n|:--|--:|\n| fp16 | 8.19 |\n| FP8 | 9.45 |\n\n1. first\n1. second\n"

# Every branch of mdformat's text renderer: a tab, runs of spaces, a backslash, asterisks and underscores
# between every kind of neighbour (start and end of text, whitespace, punctuation, letters), brackets
# that enclose a used reference or are followed by ":" or "(", a "<" before a space and before a letter,
# backticks, decimal, hex and named character references (and an "&" that starts none), a "!" before a
# link, and table cells holding each of them.
ESCAPES = (
    "\\_start and end\\_ a_b a _ b (\\_x\\_) _. ._ snake_case_name __dunder__ 2 * 3 *a* a*b * ** \\ \\*\n"
    "tab\there  two   spaces [x] [ref] [y]: [z](w) [[nested]] ] [ < a <b> <\n"
    "`code` \\&amp; \\&#38; \\&#x26; \\&copy \\&notanentity; & alone! [link](https://example.org) wow\\![a](b)\n\n"
    "[ref]: https://example.org\n\n"
    "| a_b | *c* | _d_ | x<y | &amp; | `e` | [f] |\n|---|--:|:-:|:--|---|---|---|\n"
    "| 1_ | 2* | _3 | <4 | &#1; | \\| | g_h_ |\n\n"
    "- item _one_\n- [ ] task\n- [x] done_\n\n> quote_ *q*\n\n~~strike~~ ~~ a_~~\n"
    "para&#10;&#10;with entity newlines and a hard  \nbreak\\\nend_\n"
)


def direct(text: str) -> str:
    """mdformat's own call, as the renderer's options give it."""
    return mdformat.text(text, extensions={"gfm"}, options={"wrap": "keep", "number": False, "end_of_line": "lf"})


def test_the_result_is_mdformats_with_the_renderers_options():
    formatted = markdown_format.format_markdown(TEXT)
    assert formatted == direct(TEXT)
    assert "| fp16    |        8.19 |" in formatted and "1. first\n1. second" in formatted  # numbers kept


def test_every_escape_of_text_is_mdformats():
    formatted = markdown_format.format_markdown(ESCAPES)
    assert formatted == direct(ESCAPES)
    # read off mdformat 1.0.0's rules by hand: an underscore at a word's edge or beside punctuation is
    # escaped, one inside a word or between spaces stays; an asterisk stays only between spaces; only a
    # complete character reference is escaped; a "!" before a link is; brackets followed by ":" are
    assert "\\_start and end\\_ a_b a _ b (\\_x\\_)" in formatted
    assert "2 * 3 *a* a\\*b" in formatted
    assert "\\&amp; \\&#38; \\&#x26; &copy &notanentity; & alone!" in formatted
    assert "wow\\![a](b)" in formatted and "\\[y\\]: [z](w)" in formatted
    assert "tab here two spaces" in formatted and "<b> \\<\n" in formatted


def _markdown_files() -> list[Path]:
    """Every Markdown file of the project and of ../shared (lint corpus, fixtures' notes), read in place."""
    found = [path for path in REPO.rglob("*.md") if ".git" not in path.parts and ".venv" not in path.parts]
    found += sorted(SHARED.rglob("*.md"))
    return sorted(found)


def _template_outputs() -> list[str]:
    """What each shipped family's template writes before formatting (the text render formats)."""
    from studygen.render import engine
    from studygen.study import family_dirs, load_study

    outputs = []
    real = engine.format_markdown
    engine.format_markdown = lambda text: outputs.append(text) or real(text)
    try:
        for study_dir in family_dirs(REPO):
            engine.render_study(load_study(study_dir, REPO))
    finally:
        engine.format_markdown = real
    return outputs


def test_every_markdown_text_at_hand_formats_as_mdformat_formats_it():
    files = _markdown_files()
    texts = {str(path): path.read_text(encoding="utf-8", errors="replace") for path in files}
    texts.update({f"template output {index}": text for index, text in enumerate(_template_outputs())})
    assert len(files) >= 200 and len(texts) >= len(files) + 5  # the project's, the corpus's and five families'
    differing = [name for name, text in texts.items() if markdown_format.format_markdown(text) != direct(text)]
    assert differing == []


def test_one_parser_per_process_and_every_text_formatted_afresh(monkeypatch):
    """The parser is built once (it depends on the options only); each text is parsed and rendered anew.
    Failed before: mdformat.text built a parser (markdown-it, plugins, renderer) for every text."""
    monkeypatch.setattr(markdown_format, "_parser", None)
    built, parsed = [], []
    real_build = markdown_format.mdformat_parser

    def counted_build():
        parser = real_build()
        real_parse = parser.parse
        parser.parse = lambda text, env=None: parsed.append(text) or real_parse(text, env)
        built.append(parser)
        return parser

    monkeypatch.setattr(markdown_format, "mdformat_parser", counted_build)
    expected = direct(TEXT)
    assert markdown_format.format_markdown(TEXT) == markdown_format.format_markdown(TEXT) == expected
    assert markdown_format.format_markdown(ESCAPES) == direct(ESCAPES)
    assert len(built) == 1 and parsed == [TEXT, TEXT, ESCAPES]


def test_the_parser_is_built_without_reading_entry_points(monkeypatch):
    """mdformat-gfm's plugins are its modules, taken as they are: no distribution's entry points are read.
    Failed before: mdformat read the entry points of every installed distribution to find "gfm" and "tables"."""
    import importlib.metadata

    import mdformat.plugins
    from mdformat_gfm import _mdformat_plugin, _tables_plugin

    monkeypatch.setattr(markdown_format, "_parser", None)
    monkeypatch.delattr(mdformat.plugins, "PARSER_EXTENSIONS", raising=False)  # as in a fresh process
    read = []
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kwargs: read.append(kwargs) or ())
    formatted = markdown_format.format_markdown(TEXT)
    assert read == []
    assert "PARSER_EXTENSIONS" not in vars(mdformat.plugins)  # mdformat's own table is left for mdformat to fill
    # gfm (strikethrough, task lists, autolinks) from the module mdformat-gfm declares, and its tables plugin
    extensions = markdown_format._parser.options["parser_extension"]
    assert [getattr(extension, "__name__", None) for extension in extensions[:2]] == [None, None]  # stand-ins
    renderers = extensions[0].RENDERERS  # gfm's, but for list items: ours, handing task items to gfm's
    assert set(renderers) == set(_mdformat_plugin.RENDERERS)
    assert all(renderers[name] is _mdformat_plugin.RENDERERS[name] for name in renderers if name != "list_item")
    assert renderers["list_item"].keywords == {"task": _mdformat_plugin.RENDERERS["list_item"]}
    assert extensions[1] is markdown_tables.TABLES_PLUGIN
    assert set(extensions[1].RENDERERS) == set(_tables_plugin.RENDERERS)
    assert set(extensions[1].POSTPROCESSORS) == set(_tables_plugin.POSTPROCESSORS)
    assert formatted == ("# Latency\n\n| variant | median (ms) |\n| :------ | ----------: |\n| fp16    |        8.19 |\n"
                         "| FP8     |        9.45 |\n\n1. first\n1. second\n")
    assert markdown_format.format_markdown("~~gone~~ https://example.org\n\n- [x] done\n") == (
        "~~gone~~ https://example.org\n\n- [x] done\n")


def test_the_entry_points_name_the_same_plugins():
    """What mdformat finds by reading the entry points is what the parser is built from (for "tables", the
    module markdown_tables.TablesPlugin stands for)."""
    import mdformat.plugins
    from mdformat_gfm import _mdformat_plugin, _tables_plugin

    assert mdformat.plugins.PARSER_EXTENSIONS["gfm"] is _mdformat_plugin
    assert mdformat.plugins.PARSER_EXTENSIONS["tables"] is _tables_plugin


@pytest.mark.parametrize("text", ["a_b", "_", "x _ y", "(_)", "a_", "_a", "é_é", "1_2", "a\u00a0_\u00a0b", "._.", ""])
def test_underscores_as_mdformat_escapes_them(text):
    from mdformat.renderer._util import escape_underscore_emphasis

    markdown_format.format_markdown("")  # builds the parser and what the renderer uses of mdformat
    assert markdown_format._escape_underscore_emphasis(text) == escape_underscore_emphasis(text)


def test_formatting_leaves_nothing_for_the_cyclic_collector():
    """The render tree is taken apart after rendering: reference counts free it, no collection is needed.
    Failed before: each text left its whole tree (nodes holding parent and children) as one cycle
    (900 objects for five copies of TEXT)."""
    import gc

    markdown_format.format_markdown(TEXT)  # the parser and mdformat's modules, built and imported outside the count
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        gc.collect()
        formatted = markdown_format.format_markdown(ESCAPES + TEXT * 5)
        assert gc.collect() == 0
    finally:
        if was_enabled:
            gc.enable()
    assert formatted == direct(ESCAPES + TEXT * 5)


def _configuration(parser) -> dict:
    """What a markdown-it parser does with a text: each rule chain's rules in order (name, function's
    code, since a plugin may make a closure per parser, enabled, what they may interrupt), its options,
    its renderer's class and its link functions."""
    chains = {"core": parser.core.ruler, "block": parser.block.ruler, "inline": parser.inline.ruler,
              "inline2": parser.inline.ruler2}
    return {"rules": {name: [(rule.name, rule.fn.__code__, rule.enabled, rule.alt) for rule in ruler.__rules__]
                      for name, ruler in chains.items()},
            "options": dict(parser.options), "renderer": type(parser.renderer), "linkify": type(parser.linkify),
            "links": [getattr(getattr(parser, name), "__func__", None) for name in
                      ("validateLink", "normalizeLink", "normalizeLinkText")]}


def test_the_parser_is_the_one_mdformats_build_mdit_makes_for_the_gfm_extension(monkeypatch):
    """mdformat_parser, built with mdformat-gfm's gfm module and our tables plugin in place of the entry
    points' lookup, has the rules, options and renderer of build_mdit's parser built after the lookup
    (its tables plugin the module mdformat-gfm declares), and so has one built after mdformat's lookup."""
    import mdformat.plugins
    from mdformat._util import build_mdit
    from mdformat.renderer import MDRenderer

    theirs = build_mdit(MDRenderer, mdformat_opts={**markdown_format.MDFORMAT_OPTIONS, "filename": ""},
                        extensions=sorted(markdown_format.MDFORMAT_EXTENSIONS))
    assert _configuration(markdown_format.mdformat_parser()) == _configuration(theirs)  # after the lookup
    monkeypatch.delattr(mdformat.plugins, "PARSER_EXTENSIONS")  # as in a fresh process
    ours = markdown_format.mdformat_parser()
    assert ours.options["parser_extension"][1] is markdown_tables.TABLES_PLUGIN
    ours.options["parser_extension"][1] = theirs.options["parser_extension"][1]
    assert _configuration(ours) == _configuration(theirs)
    enabled = {name: {rule.name for rule in ruler.__rules__ if rule.enabled}
               for name, ruler in (("block", theirs.block.ruler), ("inline", theirs.inline.ruler))}
    assert "table" in enabled["block"] and {"gfm_autolink", "strikethrough"} <= enabled["inline"]


INLINE_PIECES = list("ab 1.:;,-_*`[]()<>&@!#|\\~^{}$%+=?\"'/\n\t") + [
    "www.", "http", "https://x.org", "mailto:", "xmpp:", "x@y.z", "é", "漢", "😀", "\u2060", "  \n", "&amp;", "5.850"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(INLINE_PIECES), max_size=10).map("".join))
@example("5.764 to 5.850 (2 jobs: a, b)")
@example("see www.example.org")
@example("a@b")
def test_inline_text_parses_to_the_tokens_markdown_it_makes(text):
    parser = markdown_format._build_parser()
    assert "parse" in vars(parser.inline)  # the parser's own parse of inline text, not markdown-it's method
    theirs = type(parser.inline).parse(parser.inline, text, parser, {}, [])
    assert parser.inline.parse(text, parser, {}, []) == theirs
    before = [Token("text", "", 0)]
    assert parser.inline.parse(text, parser, {}, before) == type(parser.inline).parse(
        parser.inline, text, parser, {}, [Token("text", "", 0)])


def test_plain_inline_text_is_one_text_token_without_a_parse_of_its_own(monkeypatch):
    """A table cell or paragraph of words and figures becomes its text token at once.
    Failed before: each was parsed with an inline state of its own (690 for deformable_detr_h200_torch's
    README, about 15 % of formatting it)."""
    from markdown_it import parser_inline

    text = "| GPU | fp16 (ms) |\n|---|--:|\n| H200 | 5.764 to 5.850 (2 jobs: a, b) |\n| B200 | *4.1* |\n\nPlain words.\n"
    expected = direct(text)
    monkeypatch.setattr(markdown_format, "_parser", None)  # built anew, by the code under test
    markdown_format.format_markdown("")
    states = []
    real = parser_inline.StateInline
    monkeypatch.setattr(parser_inline, "StateInline", lambda *args: states.append(args[0]) or real(*args))
    assert markdown_format.format_markdown(text) == expected
    assert states == ["5.764 to 5.850 (2 jobs: a, b)", "*4.1*"]  # a colon or an asterisk: another rule may act


def test_each_parser_wraps_as_its_own_options_say(monkeypatch):
    """Whether text is wrapped is its parser's: a parser of the renderer's options (wrap: keep) formats
    as mdformat after one that wraps was built. Failed before: the last parser built set it for every
    parser, and the first then left mdformat's wrap points (NUL characters) in its text."""
    text = "A paragraph_with *emphasis* and\na soft break, long enough to be wrapped at forty columns.\n"
    keep = markdown_format._build_parser()
    monkeypatch.setattr(markdown_format, "MDFORMAT_OPTIONS", {**markdown_format.MDFORMAT_OPTIONS, "wrap": 40})
    wrapping = markdown_format._build_parser()
    monkeypatch.setattr(markdown_format, "_parser", keep)
    assert markdown_format.format_markdown(text) == direct(text)
    monkeypatch.setattr(markdown_format, "_parser", wrapping)
    assert markdown_format.format_markdown(text) == mdformat.text(
        text, extensions={"gfm"}, options={**markdown_format.MDFORMAT_OPTIONS, "wrap": 40})
    assert "paragraph_with *emphasis* and a soft\n" in markdown_format.format_markdown(text)


LISTS = ("- tight a\n- tight b\n\nloose:\n\n- c\n\n- d\n\n1. one\n2. two\n   - inner x\n   - inner y\n\n     inner para\n"
         "- [ ] open task\n- [x] done task\n-\n- \n\n* star\n+ plus\n\n3) paren\n")


def test_lists_of_every_kind_format_as_mdformat_formats_them():
    for text in (LISTS, LISTS.replace("\n\n", "\n"), "# Gaps\n\n" + "".join(f"- gap {i}\n" for i in range(50))):
        assert markdown_format.format_markdown(text) == direct(text)


def _format_calls(items: int) -> int:
    """Python calls made formatting a README whose one bullet list has ``items`` items."""
    import sys

    text = "# Known gaps\n\n" + "".join(f"- Waived SG209 (findings matching \"note {i}\"): kept on purpose\n"
                                        for i in range(items))
    markdown_format.format_markdown(text[:300])
    counted = [0]

    def hook(frame, event, arg):
        if event == "call":
            counted[0] += 1

    sys.setprofile(hook)
    try:
        markdown_format.format_markdown(text)
    finally:
        sys.setprofile(None)
    return counted[0]


def test_a_long_list_formats_in_time_linear_in_its_items():
    # mdformat reads every item of a list to tell whether it is tight, once for each of its items: 4,000 items
    # took 4.7 s of CPU, 5 times 2,000 (calls grew 4x for 2x the items); now about 2x
    small, large = _format_calls(500), _format_calls(1000)
    assert large < 2.3 * small, (small, large)
