"""textio.document_problem: the first place a parsed document may not hold
(a lone surrogate in a key or string, nesting past the limit), named by its
JSON pointer (RFC 6901: ``~`` as ``~0``, ``/`` as ``~1``)."""

from __future__ import annotations

import json

import pytest

from studygen import textio
from studygen.errors import RecordError
from studygen.textio import MAX_NESTING, document_problem, may_hold_document_problem, nesting_within, parse_json

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
    # brackets inside strings are no nesting, however many
    assert not may_hold_document_problem(json.dumps({"note": "[" * MAX_NESTING * 3, "n": "]}" * 500}))
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


def depth_of(value) -> int:
    """Levels of lists and mappings in ``value``, the document itself 1 (recursive: small test documents)."""
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    return 0


def test_many_brackets_at_a_shallow_depth_are_not_walked():
    """A record listing hundreds of kernels has thousands of brackets but
    nests a few levels: the bound sees the depth, not the count."""
    kernels = {"results": [{"groups": [{"kernels": [{"name": f"k{i}", "time_ms": 0.5} for i in range(300)]}]}]}
    text = json.dumps(kernels, indent=2)
    assert text.count("{") + text.count("[") > 300
    assert not may_hold_document_problem(text)
    # document, results, result, groups, group, kernels, kernel
    assert nesting_within(text, 7) and not nesting_within(text, 6)
    assert parse_json(text, "r.json") == kernels


def test_the_nesting_bound_counts_only_brackets_outside_strings():
    at_limit = {"s": "]]]}}}", "x": nested(MAX_NESTING - 1)}  # the mapping is level 1
    past_limit = {"s": "[[[{{{", "x": nested(MAX_NESTING)}
    for document, within in ((at_limit, True), (past_limit, False)):
        text = json.dumps(document)
        assert nesting_within(text, MAX_NESTING) is within
        assert may_hold_document_problem(text) is not within
    # closing brackets inside strings must not hide real depth; escaped quotes and backslashes do not end a string
    tricky = json.dumps({"a": '\\"]]]]', "b": "\\", "c": '"}}}"', "d": nested(MAX_NESTING)})
    assert not nesting_within(tricky, MAX_NESTING)
    with pytest.raises(RecordError) as caught:
        parse_json(tricky, "r.json")
    assert caught.value.place.pointer == "/d" + "/0" * (MAX_NESTING - 1)
    raw = r'{"a": "\\", "b": [[["\\"]]]}'  # "\\" is one escaped backslash, then the string ends
    assert json.loads(raw)["a"] == "\\" and nesting_within(raw, 4) and not nesting_within(raw, 3)


def test_the_nesting_bound_agrees_with_the_walk_on_generated_documents():
    """Documents of random shapes whose strings hold brackets, quotes,
    backslashes, escapes and non-ASCII text: the bound says within exactly
    when the document is no deeper than the limit, so the walk it skips
    would have found nothing."""
    import random

    rng = random.Random(25)
    pieces = ["[", "]", "{", "}", '"', "\\", "\\\\", '\\"', "µ", "\U0001f600", "x", " ", "\n", ":", ","]

    def text_value() -> str:
        return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))

    def build(levels: int):
        if levels == 0 or rng.random() < 0.15:
            return rng.choice([text_value(), 1, 2.5, None, True])
        if rng.random() < 0.5:
            return [build(levels - 1) for _ in range(rng.randint(0, 3))]
        return {text_value() + str(i): build(levels - 1) for i in range(rng.randint(0, 3))}

    for _ in range(400):
        document = build(rng.randint(1, 9))
        depth = depth_of(document)
        for text in (json.dumps(document), json.dumps(document, ensure_ascii=False, indent=1)):
            for limit in range(max(depth - 2, 0), depth + 2):
                assert nesting_within(text, limit) is (depth <= limit), (text, limit)
                assert (document_problem(json.loads(text), limit) is None) is (depth <= limit)


def test_a_surrogate_is_still_found_in_a_text_of_many_brackets():
    for text in (json.dumps({"k": [[1]] * 200, "s": "\ud800"}), json.dumps({"k": [[1]] * 200, "\udfff": 1})):
        assert may_hold_document_problem(text)
        with pytest.raises(RecordError) as caught:
            parse_json(text, "r.json")
        assert "lone surrogate" in caught.value.message


def test_the_nesting_bound_reads_a_text_holding_raw_surrogates():
    """A text made in Python (not read from a file) may hold a lone
    surrogate as a character: the bound still reads its structure (the
    surrogate encoded as it is), and parse_json names the surrogate. Kills
    nesting_within mutants 5, 8 and 9 (no ``surrogatepass``: an encoding
    error instead of a bound)."""
    text = json.dumps({"k": [[1]] * 200, "s": "\ud800", "d": nested(3)}, ensure_ascii=False)
    assert "\ud800" in text
    assert nesting_within(text, 4) and not nesting_within(text, 3)  # the mapping, then "d"'s three lists
    assert may_hold_document_problem(text)
    with pytest.raises(RecordError) as caught:
        parse_json(text, "r.json")
    assert (caught.value.place.pointer, caught.value.message) == ("/s", SURROGATE)


def _nesting_within_by_replace(text: str, limit: int) -> bool:
    """The bound as it was before escapes were found one by one: escaped
    backslashes, then escaped quotes, replaced over the whole text, and the
    text between quotes split off (the reference the faster reduction must equal)."""
    import re

    structure = text.encode("utf-8", "surrogatepass").replace(b"\\\\", b"").replace(b'\\"', b"")
    structure = b"".join(structure.translate(None, textio._NOT_STRUCTURE).split(b'"')[::2])
    for _ in range(limit):
        if not structure:
            return True
        structure = re.sub(rb"\[\]|\{\}", b"", structure)
    return not structure


def test_only_the_quotes_an_odd_run_of_backslashes_escapes_are_dropped():
    """Escapes are found one by one in a text of a few backslashes (the text
    is not copied where no quote is escaped), by replace in one of many.
    Failed before: there was no such step (two replaces ran over every text)."""
    data = b'{"a": "x\\"y", "b": "\\\\", "c": "\\\\\\"]", "d": "\\n\\u00b5"}'
    assert textio._escaped_quotes_dropped(data) == b'{"a": "x\\y", "b": "\\\\", "c": "\\\\\\]", "d": "\\n\\u00b5"}'
    plain = b'{"a": "\\n", "b": [1]}'
    assert textio._escaped_quotes_dropped(plain) is plain
    many = b'"' + b'\\"' * (textio._FEW_BACKSLASHES + 1) + b'"'
    assert textio._escaped_quotes_dropped(many) == b'""'  # past the few: the replaces, which drop the backslashes too
    few = b'"' + b'\\"' * textio._FEW_BACKSLASHES + b'"'
    assert textio._escaped_quotes_dropped(few) == b'"' + b"\\" * textio._FEW_BACKSLASHES + b'"'


def test_the_bound_equals_the_replace_reduction_on_every_json_text_at_hand():
    """Every JSON file of the project and of ../shared, at the limit and at
    one level less than each text's depth, and texts of many escapes."""
    from tests.conftest import REPO, SHARED

    paths = [path for path in [*REPO.rglob("*.json"), *SHARED.rglob("*.json")] if ".git" not in path.parts]
    texts = [path.read_text(encoding="utf-8", errors="surrogateescape") for path in paths]
    texts += [json.dumps({"k": ['\\"' * n, "\\" * n, '"]' * n], "d": nested(5)}) for n in (1, 2, 63, 64, 65, 200)]
    assert len(paths) >= 50
    for text in texts:
        try:
            json.loads(text)
        except ValueError:
            continue  # the bound reads texts that parsed
        depth = next(level for level in range(MAX_NESTING + 2) if _nesting_within_by_replace(text, level))
        for limit in (MAX_NESTING, depth, max(depth - 1, 0)):
            assert nesting_within(text, limit) is _nesting_within_by_replace(text, limit), (text[:80], limit)
