"""The compiled yes/no check that speeds up run-record validation
(studygen.records.schemas.fast_run_check) never accepts a record that
jsonschema refuses, and accepts the valid records we generate, so errors
(always worded by jsonschema) and verdicts are those of the schema."""

from __future__ import annotations

import json

import pytest
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
    with_fast = schemas.schema_errors("run", document)  # the compiled check first
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schemas, "fast_run_check", lambda: None)  # jsonschema alone
        without = schemas.schema_errors("run", document)
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
    # one object schema, each property under what the common part and the kind declare for it
    common, definition = schema["$defs"]["result"], schema["$defs"]["latency"]
    assert "allOf" not in latency and latency["type"] == "object"
    assert set(latency["properties"]) == set(common["properties"]) | set(definition["properties"])
    assert latency["properties"]["value_ms"] == definition["properties"]["value_ms"]
    assert latency["properties"]["shape"] == common["properties"]["shape"]
    assert latency["properties"]["kind"] == {"allOf": [common["properties"]["kind"], definition["properties"]["kind"]]}
    assert set(latency["required"]) == set(common["required"]) | set(definition["required"])
    assert per_kind["plan_size"]["oneOf"] == schema["$defs"]["plan_size"]["oneOf"]


def test_a_record_whose_results_are_not_objects_is_refused():
    accepts = schemas.fast_run_check()
    record = json.loads((REPO / "measurements" / "deformable_detr" / "b200-trt11.4.json").read_text(encoding="utf-8"))
    for results in ([1], ["latency"], [None], {}):
        record["results"] = results
        assert _full_errors(record) and not accepts(record), results


def _latency_check_schema():
    schema = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    return schemas.fast_run_schemas(schema)[1]["latency"]


def _verdicts(check, results) -> list[bool]:
    import fastjsonschema

    verdicts = []
    for result in results:
        try:
            check(result)
            verdicts.append(True)
        except fastjsonschema.JsonSchemaException:
            verdicts.append(False)
    return verdicts


LATENCY_RESULTS = [
    {"kind": "latency", "variant": "fp16", "timing": "gpu_compute", "statistic": "median", "value_ms": 8.1},
    {"kind": "latency", "variant": "fp16", "timing": "gpu_compute", "statistic": "median", "value_ms": -1},
    {"kind": "latency", "variant": "fp16", "timing": "gpu_compute", "statistic": "median", "value_ms": 8.1, "value_bytes": 3},
    {"kind": "latency", "variant": "fp16", "timing": "gpu_compute", "statistic": "median"},
]


def _shipped_documents(kind: str) -> list:
    import yaml

    if kind == "study":
        return [yaml.safe_load(path.read_text(encoding="utf-8")) for path in sorted((REPO / "families").glob("*/study.yaml"))]
    return [parse_json(path.read_text(encoding="utf-8"), str(path))
            for path in sorted((REPO / "measurements").glob("*/datasets/*.json"))]


def test_study_files_and_datasets_have_a_compiled_check_that_agrees_on_shipped_files():
    for kind in schemas.FAST_DOCUMENT_KINDS:
        accepts = schemas.fast_document_check(kind)
        assert accepts is not None, kind
        documents = _shipped_documents(kind)
        assert documents, kind
        for document in documents:
            assert not list(schemas.validator(kind).iter_errors(document))
            assert accepts(document)


@given(data=st.data())
def test_the_compiled_document_checks_never_accept_what_jsonschema_refuses(data):
    kind = data.draw(st.sampled_from(schemas.FAST_DOCUMENT_KINDS), label="kind")
    original = data.draw(st.sampled_from(_shipped_documents(kind)), label="document")
    mutated, how = gen.mutate(data, original)
    document = _as_loaded(mutated)
    refused = list(schemas.validator(kind).iter_errors(document))
    if schemas.fast_document_check(kind)(document):
        assert not refused, how
    assert bool(schemas.schema_errors(kind, document)) == bool(refused), how  # errors still worded by jsonschema


def test_a_schema_with_a_keyword_of_2020_12_only_gets_no_compiled_check():
    schema = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["study"]).read_text(encoding="utf-8"))
    assert schemas._keywords(schema) <= schemas.SHARED_KEYWORDS
    schema["properties"]["family"]["unevaluatedProperties"] = False
    assert "unevaluatedProperties" in schemas._keywords(schema)
    assert "family" not in schemas._keywords(schema)  # a property name is no keyword


def test_a_compiled_check_gives_the_schemas_verdicts():
    assert _verdicts(schemas.compiled_check(_latency_check_schema()), LATENCY_RESULTS) == [True, False, False, False]


def test_const_keeps_its_meaning_in_a_compiled_check():
    # compiled as a one-value enum (fastjsonschema 2.22 cannot compile const without detailed exceptions);
    # a property named "const" is a name, not the keyword
    import jsonschema

    schema = {"$schema": schemas.DRAFT_07, "type": "object",
              "properties": {"version": {"const": 1}, "const": {"type": "string"}, "mode": {"const": "engine"}}}
    check = schemas.compiled_check(schema)
    documents = [{"version": 1}, {"version": 1.0}, {"version": True}, {"version": 2}, {"version": "1"},
                 {"const": "x"}, {"const": 3}, {"mode": "engine"}, {"mode": "Engine"}]
    expected = [jsonschema.Draft7Validator(schema).is_valid(document) for document in documents]
    assert expected == [True, True, False, False, False, True, False, True, False]  # read off the schema by hand
    assert _verdicts(check, documents) == expected


def test_valid_documents_are_accepted_without_jsonschema(monkeypatch):
    # the compiled checks answer for a valid document; jsonschema is asked only to word errors
    monkeypatch.setattr(schemas, "validator", lambda kind: pytest.fail(f"jsonschema asked about a valid {kind} document"))
    records = sorted((REPO / "measurements").glob("*/*.json"))
    for path in records:
        assert schemas.schema_errors("run", parse_json(path.read_text(encoding="utf-8"), str(path))) == []
    for kind in schemas.FAST_DOCUMENT_KINDS:
        for document in _shipped_documents(kind):
            assert schemas.schema_errors(kind, document) == []


def test_const_is_rewritten_under_every_keyword_and_a_definition_named_const_stays_a_name():
    # const under items, not and additionalProperties (schemas, not names), and a $defs entry named "const"
    import jsonschema

    schema = {"$schema": schemas.DRAFT_07, "type": "object", "$defs": {"const": {"type": "string", "const": "x"}},
              "properties": {"tags": {"type": "array", "items": {"const": "fp8"}},
                             "mode": {"not": {"const": "eager"}},
                             "label": {"$ref": "#/$defs/const"},
                             "extra": {"type": "object", "additionalProperties": {"const": 0}}}}
    check = schemas.compiled_check(schema)
    documents = [{"tags": ["fp8", "fp8"]}, {"tags": ["fp16"]}, {"mode": "engine"}, {"mode": "eager"},
                 {"label": "x"}, {"label": "y"}, {"extra": {"a": 0}}, {"extra": {"a": 1}}]
    expected = [jsonschema.Draft7Validator(schema).is_valid(document) for document in documents]
    assert expected == [True, False, True, False, True, False, True, False]  # read off the schema by hand
    assert _verdicts(check, documents) == expected


def test_a_schema_without_definitions_is_not_split():
    # no $defs at all (so no result definition): another shape, left to jsonschema, not an error
    assert schemas.fast_run_schemas({"$schema": schemas.DRAFT_07, "type": "object"}) is None


def test_definition_names_are_no_keywords():
    schema = {"type": "object", "$defs": {"unevaluatedProperties": {"type": "string"}},
              "properties": {"name": {"$ref": "#/$defs/unevaluatedProperties"}}}
    assert schemas._keywords(schema) == {"type", "$defs", "properties", "$ref"}


def test_format_is_an_annotation_in_a_compiled_check_as_in_jsonschema():
    # jsonschema asserts no "format" unless given a format checker; the compiled check agrees
    import jsonschema

    schema = {"$schema": schemas.DRAFT_07, "type": "object",
              "properties": {"collected_at": {"type": "string", "format": "date-time"},
                             "host": {"type": "string", "format": "ipv4"}}}
    documents = [{"collected_at": "yesterday"}, {"host": "not an address"}, {"collected_at": 3}]
    expected = [jsonschema.Draft7Validator(schema).is_valid(document) for document in documents]
    assert expected == [True, True, False]  # read off the schema by hand
    assert _verdicts(schemas.compiled_check(schema), documents) == expected


def test_a_kind_that_cannot_be_merged_keeps_both_parts_and_their_keys():
    # a keyword outside the mergeable ones: the kind's check is the allOf of both parts,
    # its keys limited to the properties of both (the common part's shape and kind among them)
    schema = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    schema["$defs"]["latency"]["minProperties"] = 1
    _, per_kind = schemas.fast_run_schemas(schema)
    latency, common = per_kind["latency"], schema["$defs"]["result"]
    assert latency["allOf"][1] == {"$ref": "#/$defs/latency"} and latency["additionalProperties"] is False
    assert set(latency["properties"]) == set(common["properties"]) | set(schema["$defs"]["latency"]["properties"])
    assert {"shape", "kind", "value_ms"} <= set(latency["properties"])
