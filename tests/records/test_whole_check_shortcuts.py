"""A run record's envelope and each result kind are tested in one expression
before fastjsonschema's check runs (records/schema_shortcuts.py,
with_shortcuts): the expressions of the keywords this reads (string and
integer enums, patterns of the check, pattern-named keys, allOf, anyOf, a
oneOf of required lists, lists of types, an optional property it cannot
judge) are read off by hand; over shipped records and generated edits of
them, the checks accept and refuse what fastjsonschema's own code does; a
plainly valid result never reaches that code."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studygen.records import schema_checks, schema_codegen
from studygen.records.schema_shortcuts import _Names, compiled_patterns, shortcut, with_shortcuts
from studygen.textio import parse_json
from tests.conftest import REPO
from tests.records.test_schema_checks import _accepts, _fastjsonschemas_own_checks
from tests.records.test_schema_shortcuts import _calls

NAME = "^[a-z]+$"


def test_the_expressions_of_the_keywords_of_whole_checks():
    names = _Names({NAME})
    assert shortcut({"type": "string", "pattern": NAME, "maxLength": 8}, {}, "v", names) == \
        "type(v) is str and REGEX_PATTERNS['^[a-z]+$'].search(v) and len(v) <= 8"
    assert shortcut({"enum": ["b", "a"]}, {}, "v", names) == "type(v) is str and v in {'a', 'b'}"
    assert shortcut({"enum": [1, 2]}, {}, "v", names) == "type(v) is int and v in {1, 2}"
    assert shortcut({"const": "x"}, {}, "v", names) == "type(v) is str and v == 'x'"
    assert shortcut({"minimum": 0, "maximum": 1}, {}, "v", names) == \
        "isinstance(v, (int, float)) and type(v) is not bool and 0 <= v <= 1"  # bounds alone: numbers only
    assert shortcut({"type": ["boolean", "null"]}, {}, "v", names) == "(type(v) is bool or v is None)"
    assert shortcut({"allOf": [{"enum": ["a", "b"]}, {"const": "a"}]}, {}, "v", names) == \
        "((type(v) is str and v in {'a', 'b'}) and (type(v) is str and v == 'a'))"
    assert shortcut({"anyOf": [{"minimum": 0}, {"const": -1}]}, {}, "v", names) == \
        "((isinstance(v, (int, float)) and type(v) is not bool and 0 <= v) or (type(v) is int and v == -1))"
    assert shortcut({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b", "c"]}]}, {}, "v", names) == \
        "type(v) is dict and ('a' in v) + ('b' in v and 'c' in v) == 1"
    assert shortcut({"type": "object", "propertyNames": {"pattern": NAME}}, {}, "v", _Names({NAME})) == \
        "type(v) is dict and all(map(REGEX_PATTERNS['^[a-z]+$'].search, v))"
    # an optional property it cannot judge (a oneOf of other branches): true only without it
    assert shortcut({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"minimum": 1}]},
                                                      "b": {"type": "integer"}}}, {}, "v", _Names()) == \
        "type(v) is dict and 'a' not in v and ('b' not in v or type((shortcut__2 := v['b'])) is int)"
    assert shortcut({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
                    {}, "v", _Names()) == ("type(v) is dict and all(type(shortcut__1) is int for shortcut__2, shortcut__1 in "
                                           "v.items() if shortcut__2 not in {'a'}) and ('a' not in v or "
                                           "type((shortcut__3 := v['a'])) is str)")


LOOP = {"loop": {"type": "object", "properties": {"a": {"$ref": "#/$defs/loop"}}}, "n": {"type": "integer"}}


def test_references_are_followed_once_and_inside_allof_and_anyof():
    """A $def that refers to itself is not followed again (its optional property is then only let through
    absent), a reference beside other keywords is not read, and allOf and anyOf parts follow references."""
    assert shortcut({"$ref": "#/$defs/loop"}, LOOP, "v", _Names()) == "type(v) is dict and 'a' not in v"
    assert shortcut({"$ref": "#/$defs/n", "type": "string"}, LOOP, "v", _Names()) is None
    assert shortcut({"allOf": [{"$ref": "#/$defs/n"}, {"enum": [1, 2]}]}, LOOP, "v", _Names()) == \
        "((type(v) is int) and (type(v) is int and v in {1, 2}))"
    assert shortcut({"anyOf": [{"$ref": "#/$defs/loop"}, {"const": "x"}]}, LOOP, "v", _Names()) == \
        "((type(v) is dict and 'a' not in v) or (type(v) is str and v == 'x'))"
    assert shortcut({"type": "string", "enum": ["a", "b"], "const": "b"}, {}, "v", _Names()) == \
        "type(v) is str and v == 'b'"  # both: the constant, which the list holds
    assert shortcut({"title": "words only"}, {}, "v", _Names()) is None  # nothing to test a value with


def test_the_expressions_hold_as_the_schemas_do():
    namespace = {"REGEX_PATTERNS": {NAME: re.compile("^[a-z]+\\Z")}}
    one_of = shortcut({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b", "c"]}]}, {}, "v", _Names())
    for value, holds in (({"a": 1}, True), ({"b": 1, "c": 2}, True), ({"b": 1}, False), ({"a": 1, "b": 1, "c": 1}, False),
                         ({}, False), ("abc", False)):
        assert eval(one_of, namespace, {"v": value}) is holds, value  # noqa: S307 - an expression made above
    keys = shortcut({"type": "object", "propertyNames": {"pattern": NAME}}, {}, "v", _Names({NAME}))
    assert eval(keys, namespace, {"v": {"ab": 1, "c": 2}}) and not eval(keys, namespace, {"v": {"ab": 1, "c\n": 2}})  # noqa: S307
    either = shortcut({"anyOf": [{"minimum": 0}, {"const": -1}]}, {}, "v", _Names())
    assert [bool(eval(either, {}, {"v": v})) for v in (0.5, -1, -1.0, -2, True, "0")] == \
        [True, True, False, False, False, False]  # noqa: S307 (-1.0 is valid: left to the check, which decides)


def test_a_check_gets_a_shortcut_in_front_only_where_its_schema_has_one():
    code = ("REGEX_PATTERNS = {\n    '^[a-z]+$': re.compile('^[a-z]+\\\\Z')\n}\n\n"
            "def validate(data, custom_formats={}, name_prefix=None):\n    return data\n")
    assert compiled_patterns(code) == {NAME}
    fronted = with_shortcuts(code, {"$schema": "x", "type": "object", "required": ["n"],
                                    "properties": {"n": {"type": "string", "pattern": NAME}}})
    assert fronted == code + ("\n\nvalidate_in_full = validate\n\n\ndef validate(data, custom_formats={}, name_prefix=None):\n"
                              "    if type(data) is dict and 'n' in data and (type((shortcut__1 := data['n'])) is str and "
                              "REGEX_PATTERNS['^[a-z]+$'].search(shortcut__1)):\n        return data\n"
                              "    return validate_in_full(data, custom_formats, name_prefix)\n")
    calls = ("        validate____defs_loop(data__a, custom_formats, (name_prefix or \"data\") + \".a\")\n"
             "        validate____defs_gone(data__b, custom_formats, (name_prefix or \"data\") + \".b\")\n")
    assert with_shortcuts(calls, {"$defs": LOOP}).splitlines() == [  # a call of a $def the schema lacks: as it was
        "        if not (type(data__a) is dict and 'a' not in data__a):", "    " + calls.splitlines()[0],
        calls.splitlines()[1]]
    for schema in ({"type": "object", "properties": {"n": {"type": "string", "default": "x"}}},  # would be written
                   {"type": "string", "pattern": "^other$"}, {}):  # a pattern the check did not compile; no test
        assert with_shortcuts(code, schema) == code


def _full_check(check):
    """The fastjsonschema check behind a generated check with a shortcut in front (None where it has none)."""
    cells = dict(zip(check.__code__.co_freevars, check.__closure__ or ()))
    return cells["validate_in_full"].cell_contents if "validate_in_full" in cells else None


def _full_check_calls(check, document) -> int:
    full = _full_check(check)
    return _calls(check, document, lambda code: code is full.__code__)


RECORDS = sorted((REPO / "measurements").glob("*/*.json"))
FRONTED = ("latency", "plan_size", "coco_ap", "not_measured", "quantization", "coco_ap_delta", "engine_layers")


def test_valid_shipped_records_and_results_skip_the_full_check():
    """Failed before (no shortcut in front): every envelope and result went through fastjsonschema's code."""
    envelope = schema_checks.DOCUMENT_CHECKS["run"]()
    assert _full_check(envelope) is not None
    kinds = {name: schema_checks.RUN_RESULT_CHECKS[name]() for name in FRONTED}
    assert all(_full_check(check) is not None for check in kinds.values())
    skipped = {"envelope": 0, "results": 0}
    for path in RECORDS:
        record = parse_json(path.read_text(encoding="utf-8"), str(path))
        skipped["envelope"] += _full_check_calls(envelope, record) == 0
        for result in record["results"]:
            if result["kind"] in ("latency", "plan_size", "coco_ap") and "compilations" not in result:
                skipped["results"] += _full_check_calls(kinds[result["kind"]], result) == 0
    # 18 of the 21 shipped envelopes (three state a placement or seed the expression leaves to the check), 112 results
    assert skipped["envelope"] >= 18 and skipped["results"] >= 100, skipped


_OWN: dict = {}


@pytest.fixture
def own_checks(monkeypatch):
    if not _OWN:
        _OWN.update(_fastjsonschemas_own_checks(monkeypatch))
    return _OWN


def _places(value, path=()):
    """Every ``(path, value)`` inside ``value`` (dict keys and list indexes), the value itself first."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


_VALUES = st.one_of(
    st.sampled_from([0, 1, -1, 2, 128, 1048576, 1048577, 3600000, 3600001, 10**9, 0.0, 0.5, -0.5, 1.0, -1.0, 3.0,
                     3600000.5, 1e-300, True, False, None, "", "a", "fp8", "median", "p99", "p150", "latency",
                     "640x640", "0x640", "tensorrt", "TensorRT", "engine", "gpu_compute", "pretrained", "a b",
                     "x" * 129, "0" * 64, "f" * 63, [], {}, [1.0], {"a": 1}]),
    st.integers(min_value=-3, max_value=2**64), st.floats(allow_nan=False, allow_infinity=False),
    st.text(alphabet="ab.-_ x019\n", max_size=6))
_KEYS = st.sampled_from(["p50", "p99.9", "std", "p", "median ", "surprise", "kind", "value_ms", "collector", "source",
                         "value_bytes", "value_mib", "timer", "cuda_graph", "torch", "weights"])
_EDIT = st.tuples(st.sampled_from(["replace", "drop", "add", "rename"]), st.integers(min_value=0), _VALUES, _KEYS)


def _edited(document, edits):
    """A copy of ``document`` with each edit applied at the place its number picks (of every place in the copy)."""
    edited = copy.deepcopy(document)
    for action, pick, shared, key in edits:
        value = copy.deepcopy(shared)  # a list or mapping the strategy hands out again must not end up inside itself
        places = list(_places(edited))
        path, target = places[pick % len(places)]
        if not path:
            continue
        parent = edited
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if action == "replace":
            parent[last] = value
        elif action == "drop" and isinstance(parent, dict):
            del parent[last]
        elif action == "add" and isinstance(target, dict):
            target[key] = value
        elif action == "rename" and isinstance(parent, dict) and key not in parent:
            parent[key] = parent.pop(last)
    return edited


_SAMPLES = [parse_json(path.read_text(encoding="utf-8"), str(path)) for path in RECORDS]
_SMALL = [record for record in _SAMPLES if len(str(record)) < 20000]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pick=st.integers(min_value=0), edits=st.lists(_EDIT, min_size=1, max_size=3))
def test_edited_records_are_accepted_and_refused_as_by_fastjsonschemas_own_code(own_checks, pick, edits):
    """One to three edits (a value replaced by a bound, a type or a text near a pattern; a key dropped, added or
    renamed) of a shipped record of at most 20,000 characters: the envelope's answer, and each result's, are
    those of fastjsonschema's own code."""
    record = _edited(_SMALL[pick % len(_SMALL)], edits)
    generated = schema_checks.DOCUMENT_CHECKS["run"]()
    assert _accepts(generated, record) == _accepts(own_checks["DOCUMENT_CHECKS", "run"], record)
    results = record.get("results") if isinstance(record, dict) else None
    for result in results if isinstance(results, list) else []:
        kind = result.get("kind") if isinstance(result, dict) else None
        if isinstance(kind, str) and kind in schema_checks.RUN_RESULT_CHECKS:
            check = schema_checks.RUN_RESULT_CHECKS[kind]()
            assert _accepts(check, result) == _accepts(own_checks["RUN_RESULT_CHECKS", kind], result), kind


def test_the_generated_module_holds_a_shortcut_for_the_envelope_and_the_common_result_kinds():
    source = schema_codegen.TARGET.read_text(encoding="utf-8")
    fronted = re.findall(r"^def (_\w+)\(\):(?:(?!^def ).)*?^    validate_in_full = validate$", source, re.MULTILINE | re.DOTALL)
    assert {"_run_envelope", *(f"_run_result_{name}" for name in FRONTED)} <= set(fronted)
