"""Extend a record's JSON text in place, so what it already holds keeps its bytes.

A record written by hand or by another tool has its own layout: figures with
the digits their source printed (``1.50000``), CRLF line endings, 4-space
indents, one-line results, ``\\u00b5`` escapes. Re-encoding the whole document
would rewrite all of that. :func:`extend_json_text` instead keeps the text of
every value that did not change and writes only what is new (results
appended to a list, provenance fields filled in) in the file's own style:
its line ending, its indent unit, one-line or multi-line as the enclosing
object or list is. A value that changed (a filled-in null, a total that was
summed again) is written anew at its place. Values are encoded with
:func:`studygen.fsutil.dump_json`, which writes a figure read from a record
(:class:`~studygen.numbers.SourceFloat`) as its source text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from ..errors import RecordError
from ..fsutil import dump_json
from ..numbers import SourceFloat
from ..textio import parse_json

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_DECODER = json.JSONDecoder()
DEFAULT_INDENT = "  "


@dataclass
class Span:
    """Where a JSON value lies in the text: ``text[start:end]``; ``container``
    is ``{``, ``[`` or None (a scalar)."""

    start: int
    end: int
    container: str | None


def value_span(text: str, pos: int) -> Span:
    """The span of the JSON value at ``pos`` (leading whitespace skipped); the
    json module's C scanner finds its end. ``text`` must be valid JSON there
    (raises ValueError otherwise)."""
    pos = _WS.match(text, pos).end()
    end = _DECODER.raw_decode(text, pos)[1]
    opener = text[pos]
    return Span(pos, end, opener if opener in "{[" else None)


def members(text: str, node: Span) -> list[tuple[str, int, int, Span]]:
    """``(key, key_start, key_end, value span)`` of the object at ``node``, one level deep."""
    found = []
    pos = _WS.match(text, node.start + 1).end()
    while text[pos] != "}":
        key_match = _STRING.match(text, pos)
        if key_match is None:
            raise ValueError(f"no object key at character {pos}")
        colon = _WS.match(text, key_match.end()).end()
        value = value_span(text, colon + 1)
        found.append((json.loads(key_match.group()), key_match.start(), key_match.end(), value))
        pos = _WS.match(text, value.end).end()
        if text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()
    return found


def items(text: str, node: Span) -> list[Span]:
    """The value spans of the array at ``node``, one level deep."""
    found = []
    pos = _WS.match(text, node.start + 1).end()
    while text[pos] != "]":
        item = value_span(text, pos)
        found.append(item)
        pos = _WS.match(text, item.end).end()
        if text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()
    return found


def same(old, new) -> bool:
    """True when ``new`` would be written as ``old``'s text says: equal, and of
    the same JSON type (``1`` is not ``1.0``, ``true`` is not ``1``); a
    figure read from the file equals a new float of the same value, unless
    both were read and their texts differ."""
    if isinstance(old, bool) or isinstance(new, bool):
        return type(old) is type(new) and old == new
    if isinstance(old, float) or isinstance(new, float):
        if not (isinstance(old, float) and isinstance(new, float)) or old != new:
            return False
        return not (isinstance(old, SourceFloat) and isinstance(new, SourceFloat)) or old.source == new.source
    if isinstance(old, dict):
        return (isinstance(new, dict) and list(old) == list(new)
                and all(same(value, new[key]) for key, value in old.items()))
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(map(same, old, new))
    return type(old) is type(new) and old == new


def newline_of(text: str) -> str:
    """The file's line ending: ``\\r\\n`` when it has any, else ``\\n``."""
    return "\r\n" if "\r\n" in text else "\n"


class _Editor:
    """Rewrites the values of one text; ``unit`` is the file's indent step."""

    def __init__(self, text: str, unit: str):
        self.text = text
        self.newline = newline_of(text)
        self.unit = unit

    def line_indent(self, pos: int) -> str:
        """The leading whitespace of the line holding ``pos``."""
        line_start = self.text.rfind("\n", 0, pos) + 1
        return re.match(r"[ \t]*", self.text[line_start:pos]).group()

    def encode(self, value, indent: str | None) -> str:
        """``value`` as JSON: on one line when ``indent`` is None, else in the
        file's indent unit, continuation lines starting with ``indent``."""
        if indent is None:
            return dump_json(value, indent=None)[:-1]
        return dump_json(value, indent=self.unit)[:-1].replace("\n", self.newline + indent)

    def edit(self, old, node: Span, new, inline: bool = False) -> str:
        """The text for ``node``'s place, which holds ``old``, to hold ``new``;
        ``inline``: the enclosing object or list is written on one line."""
        if same(old, new):
            return self.text[node.start:node.end]
        if node.container == "{" and isinstance(old, dict) and isinstance(new, dict) and old \
                and list(new)[:len(old)] == list(old):
            return self.edit_object(old, node, new)
        if node.container == "[" and isinstance(old, list) and isinstance(new, list) and old \
                and len(new) >= len(old):
            return self.edit_array(old, node, new)
        return self.encode(new, None if inline else self.line_indent(node.start))

    def separator(self, opener: int, starts: list[int], ends: list[int]) -> str:
        """What goes between two members or items: copied from between the
        last two, else a comma and the whitespace after the opening bracket."""
        if len(starts) >= 2:
            return self.text[ends[-2]:starts[-1]]
        return "," + (self.text[opener + 1:starts[0]] or " ")

    def extended(self, node: Span, olds: list, news: list, spans_: list[Span], starts: list[int],
                 additions: list[tuple[str, object]]) -> str:
        """The container's text with changed values rewritten in place and
        ``additions`` (prefix text, value) appended after its last value."""
        separator = self.separator(node.start, starts, [span.end for span in spans_])
        indent = separator.rsplit("\n", 1)[1] if "\n" in separator else None
        pieces, pos = [], node.start
        for old, new, span in zip(olds, news, spans_):
            if not same(old, new):
                pieces += [self.text[pos:span.start], self.edit(old, span, new, inline=indent is None)]
                pos = span.end
        last_end = spans_[-1].end
        pieces.append(self.text[pos:last_end])
        for prefix, value in additions:
            pieces += [separator, prefix, self.encode(value, indent)]
        pieces.append(self.text[last_end:node.end])
        return "".join(pieces)

    def edit_object(self, old: dict, node: Span, new: dict) -> str:
        found = members(self.text, node)
        if [key for key, *_ in found] != list(old):
            raise ValueError("the text's keys are not the document's")
        _, _, last_key_end, last_value = found[-1]
        colon = self.text[last_key_end:last_value.start]
        additions = [(json.dumps(key, ensure_ascii=False) + colon, new[key]) for key in list(new)[len(old):]]
        return self.extended(node, list(old.values()), [new[key] for key in old], [m[3] for m in found],
                             [m[1] for m in found], additions)

    def edit_array(self, old: list, node: Span, new: list) -> str:
        found = items(self.text, node)
        if len(found) != len(old):
            raise ValueError("the text's items are not the document's")
        additions = [("", value) for value in new[len(old):]]
        return self.extended(node, old, new[:len(old)], found, [item.start for item in found], additions)


def indent_unit(text: str, root: Span) -> str:
    """The file's indent step: the indent of the top-level value's first
    member or item when it starts a line, else two spaces."""
    if root.container:
        first = _WS.match(text, root.start + 1).end()
        before = text[root.start + 1:first]
        if "\n" in before:
            return before.rsplit("\n", 1)[1] or DEFAULT_INDENT
    return DEFAULT_INDENT


def extend_json_text(text: str, old, new) -> str:
    """``text`` (valid JSON whose value is ``old``) rewritten to hold ``new``,
    keeping the bytes of every value that did not change: new object
    members and list items go after the last existing one, in the style of
    their neighbours (line ending, indent, one line or several); changed
    values are written anew where they stand; the text before and after the
    value is kept. Figures read from the file keep their source digits.

    Falls back to :func:`studygen.fsutil.dump_json` in the file's line
    ending should the edited text not read back as ``new`` (a safeguard:
    the result is always ``new``)."""
    try:
        root = value_span(text, 0)
        editor = _Editor(text, indent_unit(text, root))
        edited = text[:root.start] + editor.edit(old, root, new) + text[root.end:]
        if same(parse_json(edited, "edited record"), new):  # floats read back equal the new ones
            return edited
    except (ValueError, IndexError, RecursionError, RecordError):
        pass  # text and document disagree: never expected, and never worth a half-kept file
    return dump_json(new).replace("\n", newline_of(text))

