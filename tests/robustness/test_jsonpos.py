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


@given(record=gen.run_records("tiny"), indent=st.sampled_from([None, 2]), data=st.data())
def test_one_index_answers_lookups_in_any_order_as_fresh_scans_do(record, indent, data):
    """PointerLines keeps what each lookup read; lookups in any order, repeated
    ones and pointers past the text included, give the lines a fresh scan gives."""
    text = json.dumps(record, indent=indent)
    pointers = [_pointer(p) for p in gen.paths_in(record)] + ["/results/99/value_ms", "/no/such/field", "/results/x"]
    order = data.draw(st.permutations(pointers + pointers[: len(pointers) // 2]), label="order")
    index = jsonpos.PointerLines(text)
    fresh = {pointer: jsonpos.line_of_pointer(text, pointer) for pointer in pointers}
    assert [index.line_of(pointer) for pointer in order] == [fresh[pointer] for pointer in order]


def test_pointers_of_the_shipped_records_by_one_index_as_by_fresh_scans():
    """Old (a scan from the text's start per lookup, as studygen read lines before)
    against new, over every seventh node of each committed record (300 at most), last to first."""
    from tests.conftest import REPO
    for path in sorted((REPO / "measurements").rglob("*.json"))[:40]:
        text = path.read_text(encoding="utf-8")
        pointers = [_pointer(p) for p in gen.paths_in(json.loads(text))][::-7][:300]
        index = jsonpos.PointerLines(text)
        assert [index.line_of(p) for p in pointers] == [_line_by_scan(text, p) for p in pointers], path


def _line_by_scan(text: str, pointer: str) -> int:
    """The line lookup studygen had before PointerLines: each lookup scans from the start of the text."""
    pos = jsonpos._skip_ws(text, 0)
    for token in jsonpos.pointer_tokens(pointer):
        if pos >= len(text) or text[pos] not in "{[":
            break
        found = None
        if text[pos] == "{":
            pos_in = jsonpos._skip_ws(text, pos + 1)
            while pos_in < len(text) and text[pos_in] != "}":
                key_match = _STRING.match(text, pos_in)
                key = json.loads(key_match.group())
                pos_in = jsonpos._skip_ws(text, jsonpos._skip_ws(text, key_match.end()) + 1)
                if key == token:
                    found = pos_in
                    break
                pos_in = jsonpos._skip_ws(text, jsonpos._value_end(text, pos_in))
                if text[pos_in] == ",":
                    pos_in = jsonpos._skip_ws(text, pos_in + 1)
        elif token.isdigit():
            pos_in, index = jsonpos._skip_ws(text, pos + 1), 0
            while pos_in < len(text) and text[pos_in] != "]":
                if index == int(token):
                    found = pos_in
                    break
                pos_in = jsonpos._skip_ws(text, jsonpos._value_end(text, pos_in))
                if text[pos_in] == ",":
                    pos_in = jsonpos._skip_ws(text, pos_in + 1)
                index += 1
        if found is None:
            break
        pos = found
    return text.count("\n", 0, pos) + 1


def test_a_record_reads_each_value_once_for_all_its_lookups(monkeypatch):
    """Record.line_of goes on from where its last lookup stopped: the lines
    of results 0 to 4, asked one after another, skip each earlier result
    once (4 results, and nothing inside them), where a scan per lookup
    skipped 0 + 1 + 2 + 3 + 4 = 10 results."""
    from pathlib import Path

    from studygen.records.load import Record
    document = {"job_id": "j", "results": [{"kind": "latency", "value_ms": 1.5 + i, "kernels": list(range(50))}
                                           for i in range(5)]}
    text = json.dumps(document, indent=2)
    record = Record(path=Path("j.json"), display_path="j.json", data=document, text=text)
    skipped = []
    real = jsonpos._value_end
    monkeypatch.setattr(jsonpos, "_value_end", lambda t, pos: skipped.append(pos) or real(t, pos))
    lines = [record.line_of(f"/results/{i}/value_ms") for i in range(5)]
    # the job id once, then per result: "kind" in each, and the results before it (4 in all)
    assert len(skipped) == 1 + 5 + 4
    # a result takes 56 lines ("{", kind, value_ms, "kernels": [, 50 kernels, "]", "}"); the first value on line 6
    assert lines == [6, 62, 118, 174, 230] == [_line_by_scan(text, f"/results/{i}/value_ms") for i in range(5)]
