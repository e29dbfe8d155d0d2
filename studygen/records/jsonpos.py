"""Map a JSON pointer (RFC 6901) to the line where its value starts in the source text.

The standard ``json`` module keeps no positions, so findings about a record
would name a pointer but no line; GitHub annotations need the line. This is a
small scanner over already-valid JSON (parse with ``json.loads`` first).
"""

from __future__ import annotations

import json
import re

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
    required field is reported at its parent object)."""
    tokens = pointer_tokens(pointer)
    pos = _skip_ws(text, 0)
    for token in tokens:
        found = _child_start(text, pos, token)
        if found is None:
            break
        pos = found
    return text.count("\n", 0, pos) + 1


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()


def _child_start(text: str, pos: int, token: str) -> int | None:
    if pos >= len(text):
        return None
    if text[pos] == "{":
        pos = _skip_ws(text, pos + 1)
        while pos < len(text) and text[pos] != "}":
            key_match = _STRING.match(text, pos)
            if not key_match:
                return None


            raw_key = key_match.group()
            key = raw_key[1:-1] if "\\" not in raw_key else json.loads(raw_key)
            pos = _skip_ws(text, key_match.end())
            pos = _skip_ws(text, pos + 1)  # the colon
            if key == token:
                return pos
            pos = _skip_ws(text, _value_end(text, pos))
            if pos < len(text) and text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
        return None
    if text[pos] == "[":
        if not token.isdigit():
            return None
        wanted = int(token)
        pos = _skip_ws(text, pos + 1)
        index = 0
        while pos < len(text) and text[pos] != "]":
            if index == wanted:
                return pos
            pos = _skip_ws(text, _value_end(text, pos))
            if pos < len(text) and text[pos] == ",":
                pos = _skip_ws(text, pos + 1)
            index += 1
        return None
    return None


_DECODER = json.JSONDecoder()


def _value_end(text: str, pos: int) -> int:
    """Index just past the JSON value starting at ``pos`` (the json module's C
    scanner does the skipping: a record's line lookups scan it many times)."""
    return _DECODER.raw_decode(text, pos)[1]
