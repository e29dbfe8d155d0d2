"""The one Markdown formatting call: mdformat with GFM tables, as render writes
READMEs and as SG104 expects committed ones to be.

Nothing is kept between texts: a formatted text read back from disk could not
be told from a forged one without formatting again (a cache entry rewritten
by someone else would put its text into a README), so every text is
formatted afresh. What is kept for the life of the process is the parser
(markdown-it with mdformat's renderer and the GFM plugins): it depends on the
options below only, and each text gets its own parse environment.

The tree, the renderers of tables and of text, and markdown-it's splitting
of table rows are ours, each giving the same result as mdformat's own.
The tree is built by :mod:`studygen.markdown_tree` (the same nodes, with
their types, children and parents as attributes rather than properties);
tables are rendered, and their rows split into cells, by
:mod:`studygen.markdown_tables`; with wrapping off, mdformat-gfm's
postprocessor of inline text (the identity then) is left out. mdformat's
renderer of plain text (escaping what would otherwise read as emphasis,
links, HTML, code or character references) took about a third of formatting
a README, mostly in two steps that cost whatever the text holds: an ``re.sub`` with a replacement string against mdformat's
expression of every HTML5 entity name (whose cache key hashes the whole
compiled expression on every call) and a character-by-character loop over
every underscore. :func:`_render_text` does the same steps in the same order,
skipping a step when its text holds none of the characters the step acts on
and finding underscores with ``str.find``; its output is the same string
(tests/foundation/test_markdown_format.py formats every Markdown file of the
project, the lint corpus and the fixtures both ways and compares).
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from types import SimpleNamespace

from .markdown_tables import TABLES_PLUGIN, table_rule
from .markdown_tree import build_tree, take_apart

MDFORMAT_EXTENSIONS = frozenset({"gfm"})
# wrap keep: a line break is the author's; number False: ordered lists keep their numbers.
MDFORMAT_OPTIONS = {"wrap": "keep", "number": False, "end_of_line": "lf"}

_parser = None  # the markdown-it parser with mdformat's renderer, built on the first text


def format_markdown(text: str) -> str:
    """``text`` as ``mdformat.text(text, extensions={"gfm"}, options=MDFORMAT_OPTIONS)``
    formats it (LF line endings), character for character. ``text`` is
    decoded text (no lone surrogates: UnicodeEncodeError). Raises what
    mdformat raises (ImportError when mdformat or mdformat-gfm is not
    installed, RecursionError for nesting deeper than Python's recursion
    limit)."""
    global _parser
    if _parser is None:
        _parser = _build_parser()
    env: dict = {}  # what MarkdownIt.render does, with the tree made here so that it can be taken apart
    tree = build_tree(_parser.parse(text, env))
    try:
        return _parser.renderer.render_tree(tree, _parser.options, env)
    finally:
        take_apart(tree)


def _build_parser():
    """The parser ``mdformat.text`` builds for our options (mdformat 1.0's
    ``build_mdit``, :func:`mdformat_parser`; with ``wrap: keep`` mdformat
    renders once), with :func:`_render_text` in place of mdformat's text
    renderer, mdformat-gfm's tables plugin with our renderer of tables
    (:data:`studygen.markdown_tables.TABLES_PLUGIN`) in place of mdformat-gfm's
    module, markdown-it's table rule with our splitter of rows
    (:func:`studygen.markdown_tables.table_rule`), and without mdformat-gfm's
    postprocessor of inline text when the options do not wrap (it returns its
    text unchanged then)."""
    from mdformat.renderer import RenderContext
    from mdformat_gfm import _mdformat_plugin

    global _mdformat
    if _mdformat is None:
        _mdformat = _MdformatParts()
    parser = mdformat_parser()
    table_module = importlib.import_module("markdown_it.rules_block.table")  # the package's "table" is the rule
    table_alt = next(rule.alt for rule in parser.block.ruler.__rules__ if rule.name == "table")
    parser.block.ruler.at("table", table_rule(table_module), {"alt": list(table_alt)})
    do_wrap = RenderContext(None, None, parser.options, None).do_wrap  # a function of the options only
    gfm_postprocessors = dict(_mdformat_plugin.POSTPROCESSORS)
    if not do_wrap:
        del gfm_postprocessors["inline"]
    # mdformat keeps the first renderer a plugin gives a syntax (and warns of a second): a renderer is
    # replaced by putting a stand-in in its plugin's place (what render_tree reads of a plugin is these two)
    gfm_renderers = {**_mdformat_plugin.RENDERERS,
                     "list_item": functools.partial(_render_list_item, task=_mdformat_plugin.RENDERERS["list_item"])}
    stand_ins = {TABLES_PLUGIN: TABLES_PLUGIN,
                 _mdformat_plugin: SimpleNamespace(RENDERERS=gfm_renderers, POSTPROCESSORS=gfm_postprocessors)}
    tables_module = sys.modules.get("mdformat_gfm._tables_plugin")  # built by it where mdformat's lookup imported it
    if tables_module is not None:
        stand_ins[tables_module] = TABLES_PLUGIN
    extensions = parser.options["parser_extension"]
    extensions[:] = [stand_ins[extension] for extension in extensions]  # mdformat_parser's two plugins
    extensions.append(_TextRenderer(do_wrap))
    _parse_plain_text_at_once(parser)
    return parser


def _parse_plain_text_at_once(parser) -> None:
    """Give ``parser.inline`` a ``parse`` that turns inline text no inline
    rule acts on into its one text token at once, as markdown-it's would.

    markdown-it parses each inline text (a paragraph's, a heading's, every
    table cell's) with a state of its own, its rules and four passes over
    what they made; most of a README's table cells are plain words and
    figures. The first inline rule, mdformat-gfm's ``text``, takes a text up
    to the first character another rule may act on or the first place a GFM
    autolink may start (its two expressions); when the text holds none, it
    takes the whole text, which markdown-it then pushes as one ``text``
    token of level 0, and the passes after (pairs of delimiters,
    strikethrough, emphasis, joining text fragments) find nothing to change.
    That is done here, for a text added to an empty token list; any other
    text is parsed by markdown-it. Left as it is when the parser's first
    inline rule or its passes are not those."""
    from markdown_it import rules_inline
    from markdown_it.token import Token
    from mdformat_gfm import _text_inline_rule

    inline = parser.inline
    first_rule = next((rule.fn for rule in inline.ruler.__rules__ if rule.enabled), None)
    passes = [rule.fn for rule in inline.ruler2.__rules__ if rule.enabled]
    if first_rule is not _text_inline_rule.text_rule or passes != [
            rules_inline.link_pairs, rules_inline.strikethrough.postProcess, rules_inline.emphasis.postProcess,
            rules_inline.fragments_join]:
        return
    starts_markup = _text_inline_rule._RE_TERMINATOR_FIRST_CHAR.match
    holds_markup = _text_inline_rule._RE_TERMINATOR_NON_FIRST_CHAR.search
    parse = inline.parse

    def parse_inline(src, md, env, tokens):
        if tokens or not src or md.inline is not inline or starts_markup(src) or holds_markup(src):
            return parse(src, md, env, tokens)
        token = Token("text", "", 0)
        token.content = src
        tokens.append(token)
        return tokens

    inline.parse = parse_inline


def mdformat_parser():
    """What mdformat 1.0's ``build_mdit(MDRenderer, mdformat_opts=...,
    extensions=["gfm"])`` builds for our options, built by it, without
    mdformat looking its plugins up among the installed packages' entry
    points: ``mdformat.plugins.PARSER_EXTENSIONS``, filled on first use by
    reading the metadata of every installed distribution (about a tenth of a
    ``studygen render``). The two plugins the gfm extension uses ("gfm", and
    "tables" which it looks up itself) are the module mdformat-gfm declares
    for "gfm" and :data:`studygen.markdown_tables.TABLES_PLUGIN` for "tables"
    (mdformat-gfm's tables plugin without importing its module, which imports
    wcwidth), given for the build only where mdformat has not filled the
    table yet; a later ``mdformat.text`` in this process fills it as before
    (tests/foundation/test_markdown_format.py compares the entry points'
    plugins and the parser's rules and options with ``build_mdit``'s)."""
    import mdformat.plugins
    from mdformat._util import build_mdit  # heavy (about 0.1 s with its plugins): only when a text is formatted
    from mdformat.renderer import MDRenderer
    from mdformat_gfm import _mdformat_plugin

    declared = "PARSER_EXTENSIONS" not in vars(mdformat.plugins)
    if declared:
        mdformat.plugins.PARSER_EXTENSIONS = {"gfm": _mdformat_plugin, "tables": TABLES_PLUGIN}
    try:
        return build_mdit(MDRenderer, mdformat_opts={**MDFORMAT_OPTIONS, "filename": ""},
                          extensions=sorted(MDFORMAT_EXTENSIONS))
    finally:
        if declared:
            del mdformat.plugins.PARSER_EXTENSIONS


class _TextRenderer:
    """An mdformat parser extension of one parser that only replaces the
    renderer of ``text`` nodes (the GFM plugin's postprocessor of text still
    runs after it), knowing whether that parser's options wrap text (the
    postprocessor that takes the wrap points out is there only then)."""

    CHANGES_AST = False
    POSTPROCESSORS: dict = {}

    def __init__(self, do_wrap: bool) -> None:
        self.RENDERERS = {"text": functools.partial(_render_text, do_wrap=do_wrap)}

    @staticmethod
    def update_mdit(parser) -> None:  # pragma: no cover - never called: the extension is added after build_mdit
        """Nothing to change in the parser."""


def _render_text(node, context, do_wrap: bool = False) -> str:
    """mdformat 1.0's ``renderer._context.text``: the steps in its order, each
    skipped when ``text`` holds nothing it acts on (mdformat 1.0.0,
    ``mdformat/renderer/_context.py``, function ``text``); ``do_wrap``:
    whether the parser's options wrap text."""
    mdformat_ = _mdformat
    text = node.content
    if "\t" in text:
        text = text.replace("\t", " ")
    if "  " in text:
        text = mdformat_.spaces.sub(" ", text)
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    text = mdformat_.escape_asterisk_emphasis(text)  # returns at once when there is no asterisk
    if "_" in text:
        text = _escape_underscore_emphasis(text)
    if "[" in text or "]" in text:
        text = mdformat_.escape_square_brackets(text, context.env["used_refs"])
    if "<" in text:
        text = mdformat_.escape_less_than_sign(text)
    if "`" in text:
        text = text.replace("`", "\\`")
    if "&" in text:
        text = mdformat_.character_reference.sub(_escaped, text)
    if "\n\n" in text:
        text = text.replace("\n\n", "&#10;&#10;")
    if text.endswith("!"):
        next_sibling = node.next_sibling
        if next_sibling and next_sibling.type == "link":
            text = text[:-1] + "\\!"
    if do_wrap and mdformat_.in_block("paragraph", node):
        text = mdformat_.wrap_space.sub(mdformat_.WRAP_POINT, text)
    return text



def _render_list_item(node, context, task) -> str:
    """One list item's text, as mdformat-gfm's renderer of list items gives
    it (``task``, called for a task list's item): mdformat 1.0's
    ``renderer._context.list_item`` (the item's blocks joined by a line
    break in a tight list, a blank line in a loose one; nothing for an item
    of no text), then the postprocessors of list items as mdformat-gfm runs
    them. Whether the list is tight is read once a list (kept in the text's
    ``env``): mdformat reads every item of the list for each of its items,
    so a list of 4,000 items took 4.7 s of CPU to format, 5 times its 2,000
    (a README's known gaps listing 2,400 waivers cost check 6.3 s of CPU)."""
    if "task-list-item" in node.attrs.get("class", ""):
        return task(node, context)
    tight_lists = context.env.setdefault("studygen_tight_lists", {})
    tight = tight_lists.get(id(node.parent))
    if tight is None:
        tight = tight_lists[id(node.parent)] = _mdformat.is_tight_list(node.parent)
    separator = "\n" if tight else "\n\n"
    text = separator.join(out for out in (child.render(context) for child in node.children) if out)
    text = text if text.strip() else ""
    for postprocessor in context.postprocessors.get("list_item", ()):
        text = postprocessor(text, node, context)
    return text


def _escaped(match) -> str:
    """A backslash before the matched text (what ``sub(r"\\\\\\g<0>", ...)`` writes)."""
    return "\\" + match.group(0)


class _MdformatParts:
    """What :func:`_render_text` uses of mdformat 1.0 (its escape functions and
    expressions, which no option changes), looked up when the first parser is built."""

    def __init__(self) -> None:
        from mdformat import codepoints
        from mdformat.renderer import _context, _util

        self.escape_asterisk_emphasis = _util.escape_asterisk_emphasis
        self.escape_square_brackets = _util.escape_square_brackets
        self.escape_less_than_sign = _util.escape_less_than_sign
        self.in_block = _context._in_block
        self.is_tight_list = _util.is_tight_list
        self.WRAP_POINT = _context.WRAP_POINT
        self.whitespace, self.punctuation = codepoints.UNICODE_WHITESPACE, codepoints.UNICODE_PUNCTUATION
        self.spaces = re.compile(" {2,}")
        self.wrap_space = re.compile(r"[ \t\n]+")
        self._character_reference = _util.re_char_reference  # compiled on first use (about 30 ms)

    @property
    def character_reference(self):
        """mdformat's expression of decimal, hex and HTML5 named character references."""
        return self._character_reference()


_mdformat: _MdformatParts | None = None  # set by the first _build_parser, before any text is rendered


def _escape_underscore_emphasis(text: str) -> str:
    """mdformat 1.0's ``escape_underscore_emphasis``: a backslash before each
    underscore unless both neighbours are Unicode whitespace, or neither is
    whitespace, punctuation or the start or end of the text. Found with
    ``str.find`` instead of a loop over every character."""
    whitespace, punctuation = _mdformat.whitespace, _mdformat.punctuation
    parts, start, end = [], 0, len(text)
    index = text.find("_")
    while index != -1:
        before = text[index - 1] if index > 0 else None
        after = text[index + 1] if index + 1 < end else None
        kept = (before in whitespace and after in whitespace) or (
            before is not None and after is not None and before not in whitespace and before not in punctuation
            and after not in whitespace and after not in punctuation)
        if not kept:
            parts.append(text[start:index])
            parts.append("\\")
            start = index
        index = text.find("_", index + 1)
    parts.append(text[start:])
    return "".join(parts)
