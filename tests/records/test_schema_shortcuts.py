"""The generated schema checks test a kernel entry (and a per-iteration entry)
in one expression at the call of its referenced check, and call the check
only when the expression is false (records/schema_shortcuts.py): what they
accept and refuse is still fastjsonschema's own code's, over shipped records
and generated entries; the expressions are read off by hand for small schemas."""

from __future__ import annotations

import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from studygen.records import schema_checks
from studygen.records.schema_shortcuts import _Names, shortcut, with_shortcuts
from studygen.textio import parse_json
from tests.conftest import REPO
from tests.records.test_schema_checks import _accepts, _fastjsonschemas_own_checks

H200_RECORD = REPO / "measurements" / "deformable_detr_h200_torch" / "h200-compile-800x800.json"


def _calls(check, document, counted) -> int:
    """How many times ``check(document)`` calls a function whose code object ``counted`` picks."""
    calls = []

    def profile(frame, event, arg):
        if event == "call" and counted(frame.f_code):
            calls.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        _accepts(check, document)
    finally:
        sys.setprofile(None)
    return len(calls)


def _calls_of_referenced_checks(check, document) -> int:
    """How many times ``check(document)`` calls a check of a $defs entry (``validate____defs_*``)."""
    return _calls(check, document, lambda code: code.co_name.startswith("validate____defs_"))


def test_a_valid_kernel_time_result_calls_no_referenced_check():
    """Failed before: each of the thousands of kernel entries of an H200 record was one call of the
    kernel-entry check and two of the dim3 check (grid, block)."""
    record = parse_json(H200_RECORD.read_text(encoding="utf-8"), str(H200_RECORD))
    results = [result for result in record["results"] if result["kind"] == "kernel_time"]
    entries = sum(len(kernels) for result in results for compilation in result.get("compilations", [])
                  for kernels in compilation.get("kernels", {}).values())
    entries += sum(len(group.get("kernels", [])) for result in results for group in result["groups"])
    assert len(results) == 2 and entries == 966 + 161  # by compilation, and in the groups (counted with json.load)
    check = schema_checks.RUN_RESULT_CHECKS["kernel_time"]()
    assert sum(_calls_of_referenced_checks(check, result) for result in results) == 0
    broken = json.loads(json.dumps(results[0]))
    next(iter(broken["compilations"][0]["kernels"].values()))[0]["grid"] = [1, 2.5, 1]
    assert _calls_of_referenced_checks(check, broken) == 2  # the kernel entry's check, then its grid's: refused there
    assert not _accepts(check, broken)


def test_the_expression_of_small_schemas():
    names = _Names()
    assert shortcut({"type": "integer", "minimum": 0, "maximum": 9}, {}, "v", names) == "type(v) is int and 0 <= v <= 9"
    assert shortcut({"type": "number", "exclusiveMinimum": 0}, {}, "v", names) == \
        "isinstance(v, (int, float)) and type(v) is not bool and 0 < v"
    assert shortcut({"type": "string", "minLength": 1, "description": "a name"}, {}, "v", names) == \
        "type(v) is str and 1 <= len(v)"
    pair = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "boolean"}}
    assert shortcut(pair, {}, "v", _Names()) == ("type(v) is list and len(v) == 2 and (type((shortcut__1 := v[0])) "
                                                  "is bool) and (type((shortcut__1 := v[1])) is bool)")
    entry = {"type": "object", "required": ["a"], "additionalProperties": False,
             "properties": {"a": {"$ref": "#/$defs/count"}, "b": {"type": "string"}, "c": {}}}
    assert shortcut(entry, {"count": {"type": "integer", "maximum": 3}}, "v", _Names()) == (
        "type(v) is dict and 'a' in v and v.keys() <= {'a', 'b', 'c'} and (type((shortcut__1 := v['a'])) is int "
        "and shortcut__1 <= 3) and ('b' not in v or type((shortcut__2 := v['b'])) is str)")
    assert shortcut({"type": "array", "items": {"type": "null"}}, {}, "v", _Names()) is None


NESTED = {"type": "object", "required": ["n"],
          "properties": {"n": {"type": "string"}, "g": {"type": "array", "items": {"$ref": "#/$defs/pair"}}}}
PAIR = {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": 0}}
VALUES_ARE_SHORT_LISTS = {"type": "object", "additionalProperties": {"type": "array", "maxItems": 1}}


def test_the_expression_of_nested_schemas_names_each_value_once_and_holds_as_the_schema_does():
    """Other keys allowed (no additionalProperties), a list of references to a fixed pair, values under
    additionalProperties: each nested value gets a fresh name; evaluated, the expression holds as the schema."""
    nested = shortcut(NESTED, {"pair": PAIR}, "v", _Names())
    assert nested == (
        "type(v) is dict and 'n' in v and (type((shortcut__1 := v['n'])) is str) and ('g' not in v or "
        "type((shortcut__2 := v['g'])) is list and all(type(shortcut__3) is list and len(shortcut__3) == 2 and "
        "(type((shortcut__4 := shortcut__3[0])) is int and 0 <= shortcut__4) and (type((shortcut__4 := "
        "shortcut__3[1])) is int and 0 <= shortcut__4) for shortcut__3 in shortcut__2))")
    for value, holds in (({"n": "a", "other": 1}, True), ({"n": "a", "g": [[0, 5], [1, 1]]}, True),
                         ({"n": "a", "g": [[0, -5]]}, False), ({"n": "a", "g": [[0, 5, 1]]}, False),
                         ({"n": "a", "g": [[0, 5.0]]}, False), ({"g": []}, False), ({"n": 1}, False), (["n"], False)):
        assert eval(nested, {}, {"v": value}) is holds, value  # noqa: S307 - an expression made above
    values = shortcut(VALUES_ARE_SHORT_LISTS, {}, "v", _Names())
    assert values == "type(v) is dict and all(type(shortcut__1) is list and len(shortcut__1) <= 1 for shortcut__1 in v.values())"
    assert eval(values, {}, {"v": {"a": [], "b": [1]}}) and not eval(values, {}, {"v": {"a": [1, 2]}})  # noqa: S307


@pytest.mark.parametrize("schema", [
    {"type": "string", "pattern": "^a$"}, {"type": "string", "enum": ["a", 1]}, {"type": ["integer", "null"], "minimum": 0},
    {"type": "integer", "default": 1}, {"type": "object", "properties": {"a": {"type": "integer", "default": 0}}},
    {"pattern": "a"}, {"type": "string", "minimum": 0}, {"type": "number", "maximum": True},
    {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/loop"}}}, {"$ref": "#/$defs/missing"},
    {"$ref": "#/$defs/loop", "type": "object"}, {"type": "array", "items": [{"type": "integer"}]},
    {"type": "array", "minItems": True}, {"type": "array", "maxItems": -1}, {"type": "string", "minLength": 1.5},
    {"type": "object", "additionalProperties": {"type": "integer", "default": 0}, "properties": {"a": {}}},
    {"type": "object", "properties": {"a": {"$ref": "#/$defs/defaulted"}}}, {"enum": [True]}, {"type": "null"},
    {"type": "string", "enum": ["a"], "const": "b"}, {"type": "string", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]},
    {"type": "object", "oneOf": [{"required": ["a"]}, {"type": "object"}]}, {"allOf": [{"pattern": "x"}]},
    {"type": "object", "propertyNames": {"maxLength": 3}}])
def test_a_schema_with_a_keyword_it_does_not_read_has_no_shortcut(schema):
    defs = {"loop": {"type": "object", "properties": {"a": {"$ref": "#/$defs/loop"}}},
            "defaulted": {"type": "object", "properties": {"b": {"type": "integer", "default": 0}}}}
    assert shortcut(schema, defs, "v", _Names(), ("loop",)) is None


def test_only_calls_of_defs_with_a_shortcut_are_guarded():
    schema = {"$defs": {"n": {"type": "integer"}, "s": {"type": "string", "pattern": "a"}, "any": {}}}
    code = ("        validate____defs_n(data__a, custom_formats, (name_prefix or \"data\") + \".a\")\n"
            "        validate____defs_s(data__b, custom_formats, (name_prefix or \"data\") + \".b\")\n"
            "        validate____defs_any(data__c, custom_formats, (name_prefix or \"data\") + \".c\")\n")
    assert with_shortcuts(code, schema).splitlines() == [
        "        if not (type(data__a) is int):",
        "            validate____defs_n(data__a, custom_formats, (name_prefix or \"data\") + \".a\")",
        *code.splitlines()[1:]]  # a pattern is not read; an entry that holds for every value keeps its call


_VALUE = st.one_of(st.integers(min_value=-2, max_value=2**32 + 1), st.sampled_from([0, 4294967295, 65536, 65537,
                   1073741824, 10**9, 10**9 + 1, 3600000, 3600001]), st.floats(allow_nan=True), st.booleans(),
                   st.none(), st.text(max_size=2), st.just([]), st.just({}))
_DIM3 = st.one_of(st.lists(st.one_of(st.integers(min_value=-1, max_value=2**32), st.just(2.0), st.just(True)),
                           min_size=2, max_size=4), _VALUE)
_ENTRY = st.fixed_dictionaries({}, optional={
    "name": st.one_of(st.text(max_size=3), _VALUE), "time_ms": _VALUE, "calls": _VALUE, "grid": _DIM3,
    "block": _DIM3, "registers_per_thread": _VALUE, "shared_memory_bytes": _VALUE, "other": _VALUE})
_ITERATION = st.fixed_dictionaries({}, optional={
    "label": st.one_of(st.text(max_size=3), _VALUE), "profiled_total_ms": _VALUE, "surprise": _VALUE,
    "groups": st.one_of(st.dictionaries(st.text(max_size=2), _VALUE, max_size=3), _VALUE)})
_OWN: dict = {}


@pytest.fixture
def own_kernel_time_check(monkeypatch):
    if not _OWN:
        _OWN.update(_fastjsonschemas_own_checks(monkeypatch))
    return _OWN["RUN_RESULT_CHECKS", "kernel_time"]


_EAGER = parse_json((REPO / "measurements" / "deformable_detr_h200_torch" / "h200-eager.json").read_text(encoding="utf-8"),
                    "h200-eager.json")
KERNEL_TIME = next(result for result in _EAGER["results"] if result["kind"] == "kernel_time" and result["groups"])


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=st.lists(_ENTRY, min_size=1, max_size=3), iterations=st.lists(_ITERATION, max_size=2))
def test_generated_entries_are_accepted_and_refused_as_by_fastjsonschemas_own_code(
        own_kernel_time_check, entries, iterations):
    """A shipped kernel-time result with its first group's kernels replaced by generated entries (valid or not in
    every field: bounds, exact types, bools, integral floats, missing and extra keys) and per-iteration entries."""
    result = {**KERNEL_TIME, "groups": [{**KERNEL_TIME["groups"][0], "kernels": entries}, *KERNEL_TIME["groups"][1:]]}
    if iterations:
        result["per_iteration"] = iterations
    generated = schema_checks.RUN_RESULT_CHECKS["kernel_time"]()
    assert _accepts(generated, result) == _accepts(own_kernel_time_check, result)


def test_the_shipped_result_is_accepted_and_a_generated_entry_can_refuse_it(own_kernel_time_check):
    generated = schema_checks.RUN_RESULT_CHECKS["kernel_time"]()
    assert _accepts(generated, KERNEL_TIME) and _accepts(own_kernel_time_check, KERNEL_TIME)
    refused = {**KERNEL_TIME, "groups": [{**KERNEL_TIME["groups"][0], "kernels": [{"name": "k", "time_ms": -1}]}]}
    assert not _accepts(generated, refused) and not _accepts(own_kernel_time_check, refused)
