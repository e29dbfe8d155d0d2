"""textio.document_problem: the first place a parsed document may not hold
(a lone surrogate in a key or string, nesting past the limit), named by its
JSON pointer (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""

from __future__ import annotations

from studygen.textio import MAX_NESTING, document_problem

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
