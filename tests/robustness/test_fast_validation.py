"""The compiled yes/no check that speeds up run-record validation
(studygen.records.schemas.fast_run_check) never accepts a record that
jsonschema refuses, and accepts the valid records we generate, so errors
(always worded by jsonschema) and verdicts are those of the schema."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from studygen.records import schemas
from studygen.textio import parse_json
from tests.conftest import REPO
from tests.robustness import strategies as gen


def _as_loaded(document):
    """The document as load_record sees it (floats as SourceFloat)."""
    return parse_json(json.dumps(document), "generated.json")


def _full_errors(document) -> list:
    return list(schemas.validator("run").iter_errors(document))


def test_fast_check_is_available():
    assert schemas.fast_run_check() is not None


def test_fast_check_accepts_every_shipped_record():
    accepts = schemas.fast_run_check()
    paths = sorted((REPO / "measurements").glob("*/*.json"))
    assert paths
    for path in paths:
        document = parse_json(path.read_text(encoding="utf-8"), str(path))
        assert accepts(document) == (not _full_errors(document)), path


@given(record=gen.run_records("tiny"))
def test_fast_check_accepts_valid_records(record):
    document = _as_loaded(record)
    assert not _full_errors(document)
    assert schemas.fast_run_check()(document)


@given(data=st.data())
def test_fast_check_never_accepts_what_jsonschema_refuses(data):
    mutated, how = gen.mutate(data, data.draw(gen.run_records("tiny"), label="record"))
    document = _as_loaded(mutated)
    if schemas.fast_run_check()(document):
        assert not _full_errors(document), how


@given(data=st.data())
def test_schema_errors_are_the_same_with_the_fast_check(data):
    mutated, _ = gen.mutate(data, data.draw(gen.run_records("tiny"), label="record"))
    document = _as_loaded(mutated)
    saved = schemas._run_validations
    try:
        schemas._run_validations = 0  # jsonschema alone
        without = schemas.schema_errors("run", document)
        schemas._run_validations = schemas.FAST_CHECK_AFTER  # the compiled check first
        with_fast = schemas.schema_errors("run", document)
    finally:
        schemas._run_validations = saved
    assert with_fast == without


def test_split_refuses_a_schema_of_another_shape():
    schema = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    envelope, per_kind = schemas.fast_run_schemas(schema)
    assert set(per_kind) == set(schema["$defs"]["result"]["properties"]["kind"]["enum"])
    assert envelope["$defs"]["result"] == {}
    changed = json.loads(json.dumps(schema))
    changed["$defs"]["result"]["allOf"][0]["then"]["properties"] = {}  # a then-branch with more than a $ref
    assert schemas.fast_run_schemas(changed) is None
    changed = json.loads(json.dumps(schema))
    changed["$defs"]["result"]["allOf"].pop()  # a kind without a branch
    assert schemas.fast_run_schemas(changed) is None
    changed = json.loads(json.dumps(schema))
    branches = changed["$defs"]["result"]["allOf"]
    branches.append({"if": branches[0]["if"], "then": {"$ref": "#/$defs/plan_size"}})  # two branches for one kind
    assert schemas.fast_run_schemas(changed) is None


def test_result_keys_are_limited_to_the_kind():
    accepts = schemas.fast_run_check()
    record = json.loads((REPO / "measurements" / "deformable_detr" / "b200-trt11.4.json").read_text(encoding="utf-8"))
    assert accepts(record)
    plan = next(r for r in record["results"] if r["kind"] == "plan_size")
    plan["timing"] = "gpu_compute"  # a latency field on a plan size: unevaluated, so invalid
    assert _full_errors(record)
    assert not accepts(record)


def test_split_limits_keys_by_additional_properties_and_leaves_results_to_their_kinds():
    schema = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    envelope, per_kind = schemas.fast_run_schemas(schema)
    assert "items" not in envelope["properties"]["results"]  # accepts() checks each result by its kind
    latency = per_kind["latency"]
    assert latency["additionalProperties"] is False and "propertyNames" not in latency
    assert {"value_ms", "statistics_ms", "variant", "shape"} <= set(latency["properties"])
    assert "value_bytes" not in latency["properties"]
    assert all(value == {} for value in latency["properties"].values())


def test_a_record_whose_results_are_not_objects_is_refused():
    accepts = schemas.fast_run_check()
    record = json.loads((REPO / "measurements" / "deformable_detr" / "b200-trt11.4.json").read_text(encoding="utf-8"))
    for results in ([1], ["latency"], [None], {}):
        record["results"] = results
        assert _full_errors(record) and not accepts(record), results
