"""studygen.records.jsonedit and studygen.fsutil.dump_json: a record's text is
extended in place, figures keep the digits their source printed."""

from __future__ import annotations

import copy
import json

from hypothesis import given, strategies as st

from studygen.records.jsonedit import extend_json_text
from studygen.fsutil import dump_json
from studygen.textio import parse_json
from studygen.numbers import SourceFloat
from tests.collect.conftest import TRTEXEC


def extend(text: str, change) -> str:
    """``text`` extended after ``change`` edits a copy of its document."""
    old = parse_json(text, "t.json")
    new = copy.deepcopy(old)
    change(new)
    return extend_json_text(text, old, new)


def test_dump_json_writes_figures_as_their_source_printed_them():
    document = {"value_ms": SourceFloat("1.50000"), "p99": SourceFloat("2.0E0"), "plain": 0.1, "same": SourceFloat("1.5"),
                "nested": [{"a": SourceFloat("0.0361328000")}], "text": "\u00b5s"}
    assert dump_json(document) == ('{\n  "value_ms": 1.50000,\n  "p99": 2.0E0,\n  "plain": 0.1,\n  "same": 1.5,\n'
                                   '  "nested": [\n    {\n      "a": 0.0361328000\n    }\n  ],\n  "text": "µs"\n}\n')
    assert dump_json(document, indent=None) == ('{"value_ms": 1.50000, "p99": 2.0E0, "plain": 0.1, "same": 1.5, '
                                                '"nested": [{"a": 0.0361328000}], "text": "µs"}\n')


def test_dump_json_leaves_strings_that_look_like_placeholders_alone():
    document = {"a": SourceFloat("1.50"), "b": "\u0000x:0", "c": "\\u0000"}
    assert dump_json(document) == '{\n  "a": 1.50,\n  "b": "\\u0000x:0",\n  "c": "\\\\u0000"\n}\n'


def test_appended_items_and_members_follow_their_neighbours():
    text = '{\r\n    "a": 1.50000,\r\n    "b": {"x": "\\u00b5s", "y": null},\r\n    "r": [\r\n        {"v": 1.0}\r\n    ]\r\n}'

    def change(document):
        document["b"]["y"] = 2.5
        document["b"]["z"] = [1, 2]
        document["r"].append({"v": 2.0, "w": [1]})
        document["c"] = "new"

    assert extend(text, change) == (
        '{\r\n    "a": 1.50000,\r\n    "b": {"x": "\\u00b5s", "y": 2.5, "z": [1, 2]},\r\n    "r": [\r\n'
        '        {"v": 1.0},\r\n        {\r\n            "v": 2.0,\r\n            "w": [\r\n                1\r\n'
        '            ]\r\n        }\r\n    ],\r\n    "c": "new"\r\n}')


def test_an_empty_list_gets_its_first_items_in_the_file_indent():
    text = '{\n    "notes": [],\n    "n": 1e-3\n}\n'
    assert extend(text, lambda d: d["notes"].append("first")) == '{\n    "notes": [\n        "first"\n    ],\n    "n": 1e-3\n}\n'


def test_a_removed_member_rewrites_only_its_object_in_its_style():
    text = '{"keep": {"x": 1.10}, "drop": {"a": 1, "b": 2.50}}\n'
    assert extend(text, lambda d: d["drop"].pop("a")) == '{"keep": {"x": 1.10}, "drop": {"b": 2.50}}\n'
    text = '{\n "keep": {"x": 1.10},\n "drop": {"a": 1, "b": 2.50}\n}\n'
    assert extend(text, lambda d: d["drop"].pop("a")) == '{\n "keep": {"x": 1.10},\n "drop": {\n  "b": 2.50\n }\n}\n'


def test_unchanged_document_is_the_same_text():
    text = ' {"a" : [1 , 2.000], "b":"\\u00e9"}  \n\n'
    assert extend(text, lambda d: None) == text


def test_a_record_studygen_wrote_is_extended_as_dump_json_writes_it(collect):
    first = collect("trtexec", "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "fp16",
                    "--shape", "28x28", "--gpu", "NVIDIA H100 PCIe")
    assert first.exit_code == 0, first.err
    second = collect("trtexec", "--log", TRTEXEC / "trt10.16_no-data-transfers.log", "--variant", "fp16",
                     "--shape", "28x28")  # as its "--shapes=x:4x1x28x28" says
    assert second.exit_code == 0, second.err
    text = second.path.read_text(encoding="utf-8")
    assert text == dump_json(parse_json(text, "t.json"))  # the canonical layout, as a new record
    assert len(json.loads(text)["results"]) == 6 + 3


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5)
    | st.decimals(allow_nan=False, allow_infinity=False, places=4, min_value=-1000, max_value=1000).map(
        lambda d: SourceFloat(f"{d:.4f}")),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=20)


@given(st.dictionaries(st.text(max_size=4), json_values, min_size=1, max_size=5), json_values,
       st.sampled_from(["\n", "\r\n"]), st.sampled_from([2, 4, None]))
def test_extension_reads_back_as_the_new_document_and_keeps_the_old_text(document, added, newline, indent):
    text = dump_json(document, indent=indent).replace("\n", newline)
    old = parse_json(text, "t.json")
    new = copy.deepcopy(old)
    new["\u2603 added"] = added
    extended = extend_json_text(text, old, new)
    assert parse_json(extended, "t.json") == new
    assert extended.startswith(text.rstrip()[:-1].rstrip())  # everything before the closing brace kept
    assert extended.count("\n") == extended.count(newline)
