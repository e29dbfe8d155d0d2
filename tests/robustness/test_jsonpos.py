"""line_of_pointer skips values with the json module's C scanner; it must
give the line the regular-expression scanner it replaced gave, for any JSON
layout."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from studygen.records import jsonpos
from tests.robustness import strategies as gen

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def _value_end_scan(text: str, pos: int) -> int:
    """The previous studygen.records.jsonpos._value_end (regular expressions)."""
    ch = text[pos]
    if ch == '"':
        return _STRING.match(text, pos).end()
    if ch in "{[":
        close = "}" if ch == "{" else "]"
        pos = jsonpos._skip_ws(text, pos + 1)
        while text[pos] != close:
            if ch == "{":
                pos = jsonpos._skip_ws(text, _STRING.match(text, pos).end())
                pos = jsonpos._skip_ws(text, pos + 1)
            pos = jsonpos._skip_ws(text, _value_end_scan(text, pos))
            if text[pos] == ",":
                pos = jsonpos._skip_ws(text, pos + 1)
        return pos + 1
    return _SCALAR.match(text, pos).end()


def _pointer(path) -> str:
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path) if path else ""


@given(record=gen.run_records("tiny"), indent=st.sampled_from([None, 0, 2, 4, "\t"]), data=st.data())
def test_lines_are_those_of_the_regex_scanner(record, indent, data):
    text = json.dumps(record, indent=indent, ensure_ascii=data.draw(st.booleans(), label="ascii"))
    pointers = [_pointer(p) for p in gen.paths_in(record)] + ["/results/99/value_ms", "/no/such/field"]
    fast = [jsonpos.line_of_pointer(text, p) for p in pointers]
    saved = jsonpos._value_end
    jsonpos._value_end = _value_end_scan
    try:
        reference = [jsonpos.line_of_pointer(text, p) for p in pointers]
    finally:
        jsonpos._value_end = saved
    assert fast == reference


def test_line_of_pointer_on_a_hand_laid_out_record():
    text = '{\n  "a": {"x": [1,\n 2]},\n  "b\\"c": [\n    {"d": "e}"},\n    {"f": 3.50}\n  ]\n}\n'
    assert jsonpos.line_of_pointer(text, "/a/x/1") == 3
    assert jsonpos.line_of_pointer(text, '/b"c/1/f') == 6
    assert jsonpos.line_of_pointer(text, '/b"c/0/d') == 5
    assert jsonpos.line_of_pointer(text, "/missing") == 1
