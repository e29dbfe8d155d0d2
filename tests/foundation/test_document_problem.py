"""textio.document_problem: the first place a parsed document may not hold
(a lone surrogate in a key or string, nesting past the limit), named by its
JSON pointer (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""

from __future__ import annotations

import json

import pytest

from studygen.errors import RecordError
from studygen.textio import MAX_NESTING, document_problem, may_hold_document_problem, parse_json

SURROGATE = "a lone surrogate (\\ud800) in a string: not a Unicode character, so not writable as UTF-8"


def nested(levels: int) -> list:
    outer = current = []
    for _ in range(levels - 1):
        inner: list = []
        current.append(inner)
        current = inner
    return outer


def test_a_clean_document_has_no_problem():
    assert document_problem({"results": [{"value_ms": 8.1, "note": "µs and ×"}], "ok": True, "none": None}) is None
    assert document_problem(nested(MAX_NESTING)) is None  # exactly at the limit


def test_a_surrogate_is_named_by_the_pointer_of_its_string_or_key():
    assert document_problem({"a": [1, {"b": "x\ud800"}]}) == ("/a/1/b", SURROGATE)
    assert document_problem({"ok": "fine", "k\ud800": 1}) == ("/k\\ud800", SURROGATE)
    assert document_problem({"a/b": {"c~d": "\ud800"}}) == ("/a~1b/c~0d", SURROGATE)
    assert document_problem("\ud800") == ("/", SURROGATE)
    assert document_problem(["\ud800"]) == ("/0", SURROGATE)


def test_nesting_past_the_limit_names_the_container_past_it():
    pointer, reason = document_problem({"x": nested(MAX_NESTING + 5)})
    # the document is level 1, "x" level 2: the container at level MAX_NESTING + 1 is past the limit
    assert pointer == "/x" + "/0" * (MAX_NESTING - 1)
    assert reason == f"nested more than {MAX_NESTING} levels deep (lists or mappings); the limit is {MAX_NESTING}"
    assert document_problem(nested(MAX_NESTING + 1), limit=MAX_NESTING)[0] == "/0" * MAX_NESTING
    assert document_problem([[1]], limit=1) == ("/0", "nested more than 1 levels deep (lists or mappings); the limit is 1")


def test_parse_json_skips_the_walk_only_where_no_problem_can_be():
    """may_hold_document_problem is the bound parse_json trusts to skip the walk:
    it must say True for every text whose document the walk would refuse."""
    at_limit, past_limit = json.dumps(nested(MAX_NESTING)), json.dumps(nested(MAX_NESTING + 1))
    assert not may_hold_document_problem(at_limit)  # 100 brackets: at most 100 levels
    assert may_hold_document_problem(past_limit)
    assert document_problem(json.loads(past_limit)) is not None
    # brackets inside strings count too (an upper bound, never too low)
    assert may_hold_document_problem(json.dumps({"note": "[" * MAX_NESTING}))
    assert not may_hold_document_problem('{"note": "µs, no escape"}')
    for escaped in ('{"a": "\\ud800"}', '{"a": "\\uDBFF"}', '{"\\udc00": 1}', '{"µ": "\\udfff"}'):
        assert may_hold_document_problem(escaped), escaped
    for harmless in ('{"a": "\\u00b5"}', '{"a": "\\ud7ff"}', '{"a": "\\ue000"}', '{"µ": "\\u00b5"}'):
        assert not may_hold_document_problem(harmless), harmless
    assert may_hold_document_problem('{"a": "x\ud800"}')  # a raw surrogate in a str made by Python, not read


def test_parse_json_refuses_what_the_walk_refuses_with_and_without_the_shortcut():
    for text, pointer in ((json.dumps({"x": nested(MAX_NESTING + 5)}), "/x" + "/0" * (MAX_NESTING - 1)),
                          ('{"ok": 1, "a": ["\\ud800"]}', "/a/0"), ('{"µ": {"b": "\\udc01"}}', "/µ/b")):
        with pytest.raises(RecordError) as caught:
            parse_json(text, "r.json")
        assert caught.value.place.pointer == pointer
    assert parse_json('{"a": "\\ud83d\\ude00", "b": [[1]]}', "r.json") == {"a": "\U0001f600", "b": [[1]]}
