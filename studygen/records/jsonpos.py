"""Map a JSON pointer (RFC 6901) to the line where its value starts in the source text.

The standard ``json`` module keeps no positions, so findings about a record
would name a pointer but no line; GitHub annotations need the line. This is a
small scanner over already-valid JSON (parse with ``json.loads`` first).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right

from ..patterns import lazy_compile

_WS = re.compile(r"[ \t\n\r]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = lazy_compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def unescape_pointer_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_tokens(pointer: str) -> list[str]:
    """``/results/3/value_ms`` → ``['results', '3', 'value_ms']``."""
    if pointer in ("", "/"):
        return []
    return [unescape_pointer_token(t) for t in pointer.lstrip("/").split("/")]


def pointer_part(key) -> str:
    """One reference token of a JSON pointer: ``~`` as ``~0``, ``/`` as ``~1`` (RFC 6901)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def pointer_from_path(path) -> str:
    """JSON pointer of a jsonschema ``error.absolute_path`` deque."""
    parts = [pointer_part(p) for p in path]
    return "/" + "/".join(parts) if parts else ""


def line_of_pointer(text: str, pointer: str) -> int:
    """1-based line where the value at ``pointer`` starts; the deepest existing
    parent's line when the pointer runs past what the text holds (a missing
    required field is reported at its parent object). One lookup; for many
    in one text, :class:`PointerLines`."""
    return PointerLines(text).line_of(pointer)


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()


class _Members:
    """How far one object or array of the text has been read: ``children``
    (key → where its value starts, the first of a key; or each element's
    start, in order), ``resume`` (where the next member starts, or the value
    to skip to reach it: ``pending``) and whether the closing bracket was reached."""

    __slots__ = ("children", "resume", "pending", "done")

    def __init__(self, children, resume: int):
        self.children, self.resume, self.pending, self.done = children, resume, False, False


class PointerLines:
    """The lines of JSON pointers in one text (:func:`line_of_pointer` for
    each), for many lookups: what a lookup read of an object or array (where
    each key's value or each element starts) and the lines it counted are
    kept, so a later lookup goes on from there. A record's findings each ask
    a line, and scanning a 600 KB record from its start for each (every
    kernel list before the figure parsed to be skipped) took 0.7 ms a finding."""

    def __init__(self, text: str):
        self.text = text
        self._members: dict[int, _Members] = {}  # by the position of the object's or array's bracket
        self._counted = [(0, 1)]  # (position, its line), sorted: newlines are counted from the nearest below

    def line_of(self, pointer: str) -> int:
        """1-based line where the value at ``pointer`` starts (:func:`line_of_pointer`)."""
        pos = _skip_ws(self.text, 0)
        for token in pointer_tokens(pointer):
            found = self._child_start(pos, token)
            if found is None:
                break
            pos = found
        return self._line_at(pos)

    def _line_at(self, pos: int) -> int:
        index = bisect_right(self._counted, (pos, float("inf"))) - 1
        start, line = self._counted[index]
        line += self.text.count("\n", start, pos)
        if start != pos:
            self._counted.insert(index + 1, (pos, line))
        return line

    def _child_start(self, pos: int, token: str) -> int | None:
        text = self.text
        if pos >= len(text) or text[pos] not in "{[":
            return None
        is_object = text[pos] == "{"
        if not is_object and not token.isdigit():
            return None
        members = self._members.get(pos)
        if members is None:
            members = self._members[pos] = _Members({} if is_object else [], _skip_ws(text, pos + 1))
        if is_object:
            while token not in members.children and not members.done:
                self._read_member(members, "}")
            return members.children.get(token)
        wanted = int(token)
        while len(members.children) <= wanted and not members.done:
            self._read_member(members, "]")
        return members.children[wanted] if wanted < len(members.children) else None

    def _read_member(self, members: _Members, closer: str) -> None:
        """Read one more member of ``members``: skip the value of the last one
        read, then note where the next one's value starts (after its key in an
        object), or that the closing bracket is reached."""
        text, pos = self.text, members.resume
        if members.pending:
            pos = _skip_ws(text, _value_end(text, pos))
            if pos < len(text) and text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
            members.pending = False
        if pos >= len(text) or text[pos] == closer:
            members.done = True
            return
        if closer == "}":
            key_match = _STRING.match(text, pos)
            if not key_match:
                members.done = True
                return
            raw_key = key_match.group()
            key = raw_key[1:-1] if "\\" not in raw_key else json.loads(raw_key)
            pos = _skip_ws(text, key_match.end())
            pos = _skip_ws(text, pos + 1)  # the colon
            members.children.setdefault(key, pos)
        else:
            members.children.append(pos)
        members.resume, members.pending = pos, True


_DECODER = json.JSONDecoder()


def _value_end(text: str, pos: int) -> int:
    """Index just past the JSON value starting at ``pos`` (the json module's C
    scanner does the skipping: a record's line lookups scan it many times)."""
    return _DECODER.raw_decode(text, pos)[1]
