"""The result-kind table against the run-record schema, and what the rest of
studygen reads from it: one row per kind, the schema's ``kind`` enum and its
if/then branches equal to the table, every row shape built by the study, and
each kind's name spelled in few modules (code means a kind by ``Kind``)."""

from __future__ import annotations

import ast
import json

import pytest

from studygen.records.kinds import (IMAGE_SET_KINDS, QUALITY_KINDS, RESULT_KINDS, Kind, RowShape, kind_words,
                                    metric_of)
from studygen.study.rows import ROW_BUILDERS
from tests.conftest import REPO, is_generated

SCHEMA = json.loads((REPO / "studygen" / "schemas" / "run_record.schema.json").read_text(encoding="utf-8"))
RESULT = SCHEMA["$defs"]["result"]
# Most modules a kind's name may be spelled in (issue 25): the table, and what must name it anyway.
MAX_MODULES_NAMING_A_KIND = 4


def test_the_schema_enum_is_the_table():
    enum = RESULT["properties"]["kind"]["enum"]
    assert sorted(enum) == sorted(RESULT_KINDS) and len(set(enum)) == len(enum)
    assert list(RESULT_KINDS) == [value for name, value in vars(Kind).items() if name.isupper()]


def branches() -> dict[str, str]:
    """``{kind: $ref}`` of the schema's if/then branches on ``kind``."""
    found = {}
    for branch in RESULT["allOf"]:
        kind = branch["if"]["properties"]["kind"]["const"]
        assert kind not in found, f"two branches for {kind}"
        assert branch["if"]["required"] == ["kind"]
        found[kind] = branch["then"]["$ref"]
    return found


def test_each_kind_has_one_schema_branch_to_its_own_definition():
    assert branches() == {name: kind.schema_ref for name, kind in RESULT_KINDS.items()}
    for kind in RESULT_KINDS.values():
        assert kind.schema in SCHEMA["$defs"], kind.name


def test_every_definition_is_a_kind_or_shared():
    shared = {"result", "range", "kernel_entry", "iteration_entry", "dim3"}  # the last three: parts of kernel_time
    assert set(SCHEMA["$defs"]) - shared == {kind.schema for kind in RESULT_KINDS.values()}


def test_each_kind_names_its_value_fields_in_its_definition():
    for kind in RESULT_KINDS.values():
        properties = SCHEMA["$defs"][kind.schema].get("properties", {})
        for name in kind.value_fields:
            assert name in properties, (kind.name, name)
        for name, divisor in kind.divisors:
            assert name in kind.value_fields and divisor > 0, (kind.name, name)


def test_every_row_shape_has_a_builder():
    assert set(ROW_BUILDERS) == set(RowShape)
    assert {kind.rows for kind in RESULT_KINDS.values()} <= set(ROW_BUILDERS)


def test_quality_is_one_definition_and_each_quality_figure_names_an_image_set():
    assert QUALITY_KINDS == {Kind.COCO_AP, Kind.COCO_AP_DELTA}
    assert IMAGE_SET_KINDS == {Kind.COCO_AP, Kind.COCO_AP_DELTA, Kind.AGREEMENT}
    assert QUALITY_KINDS <= IMAGE_SET_KINDS


def test_kind_words_name_the_unit_where_it_tells_something():
    assert kind_words(RESULT_KINDS[Kind.KERNEL_TIME]) == "kernel time (ms)"
    assert kind_words(RESULT_KINDS[Kind.PLAN_SIZE]) == "engine plan size (MiB)"
    assert kind_words(RESULT_KINDS[Kind.COCO_AP]) == "COCO AP"
    assert kind_words(RESULT_KINDS[Kind.QUANTIZATION]) == "quantized modules"


@pytest.mark.parametrize(("result", "named"), [
    ({"kind": "latency", "timing": "gpu_compute", "statistic": "p99"}, ("gpu_compute", "p99", None)),
    ({"kind": "plan_size"}, ("plan_size", None, None)),
    ({"kind": "coco_ap", "statistic": "AP50"}, ("coco", "AP50", None)),
    ({"kind": "agreement", "metric": "logit_correlation"}, ("logit_correlation", None, None)),
    ({"kind": "kernel_time_delta", "group": "Conv"}, ("kernel_time_delta", None, "Conv")),
    ({"kind": "not_measured", "metric": "latency"}, ("latency", "not_measured", None)),
])
def test_metric_statistic_and_group_come_from_the_table(result, named):
    assert metric_of(result) == named


def test_a_kind_written_by_name_is_the_string_the_records_hold():
    assert type(Kind.KERNEL_TIME) is str and json.dumps({"kind": Kind.KERNEL_TIME}) == '{"kind": "kernel_time"}'


def modules_naming(name: str) -> list[str]:
    """Modules of the package holding ``name`` as a string constant (docstrings and comments aside)."""
    found = []
    for path in sorted((REPO / "studygen").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if is_generated(source):  # the compiled schema checks spell each kind as the schema does
            continue
        tree = ast.parse(source)
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        if any(isinstance(node, ast.Constant) and node.value == name and id(node) not in docstrings
               for node in ast.walk(tree)):
            found.append(str(path.relative_to(REPO)))
    return found


@pytest.mark.parametrize("kind", list(RESULT_KINDS))
def test_a_kind_is_spelled_in_few_modules(kind):
    naming = modules_naming(kind)
    assert "studygen/records/kinds.py" in naming
    assert len(naming) <= MAX_MODULES_NAMING_A_KIND, naming
