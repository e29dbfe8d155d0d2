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
    saved, kept = schemas._run_validations, schemas.checks_are_kept
    try:
        schemas.checks_are_kept = lambda: False
        schemas._run_validations = 0  # jsonschema alone
        without = schemas.schema_errors("run", document)
        schemas._run_validations = schemas.FAST_CHECK_AFTER  # the compiled check first
        with_fast = schemas.schema_errors("run", document)
    finally:
        schemas._run_validations, schemas.checks_are_kept = saved, kept
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


def test_a_compiled_check_is_kept_and_run_from_the_cache_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    schema = _latency_check_schema()
    first = schemas.compiled_check(schema)
    kept = list((tmp_path / schemas.CHECKS_FOLDER).iterdir())
    assert len(kept) == 1 and kept[0] == schemas._kept_check_path(schema)
    assert kept[0].read_bytes().startswith(schemas._KEPT_HEADER)
    again = schemas.compiled_check(schema)  # read back, not made again
    assert list((tmp_path / schemas.CHECKS_FOLDER).iterdir()) == kept
    assert _verdicts(first, LATENCY_RESULTS) == _verdicts(again, LATENCY_RESULTS) == [True, False, False, False]
    # an edited schema is another entry, never the kept check of the old one
    edited = json.loads(json.dumps(schema))
    edited["properties"]["value_ms"]["exclusiveMinimum"] = -5  # the latency definition's, joined into the check
    assert schemas._kept_check_path(edited) != kept[0]
    assert _verdicts(schemas.compiled_check(edited), LATENCY_RESULTS) == [True, True, False, False]
    assert len(list((tmp_path / schemas.CHECKS_FOLDER).iterdir())) == 2


def test_a_damaged_kept_check_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    schema = _latency_check_schema()
    path = schemas._kept_check_path(schema)
    for damaged in (b"", b"not a check", schemas._KEPT_HEADER + b"\x00\x01 truncated"):
        path.write_bytes(damaged)
        assert _verdicts(schemas.compiled_check(schema), LATENCY_RESULTS) == [True, False, False, False]
    schemas.compiled_check(schema)
    assert path.read_bytes().startswith(schemas._KEPT_HEADER) and len(path.read_bytes()) > 1000


def test_a_kept_check_altered_into_other_valid_code_is_not_run(tmp_path, monkeypatch):
    # A same-length change to a constant leaves the bytecode loadable; it would check another name.
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    schema = _latency_check_schema()
    schemas.compiled_check(schema)
    path = schemas._kept_check_path(schema)
    whole = path.read_bytes()
    altered = whole.replace(b"value_ms", b"value_mz")
    assert altered != whole and len(altered) == len(whole)
    path.write_bytes(altered)
    assert _verdicts(schemas.compiled_check(schema), LATENCY_RESULTS) == [True, False, False, False]
    assert path.read_bytes() == whole  # made again and kept in its place


def test_without_a_cache_folder_the_check_is_compiled_and_nothing_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", "")
    assert schemas._kept_check_path(_latency_check_schema()) is None
    assert _verdicts(schemas.compiled_check(_latency_check_schema()), LATENCY_RESULTS) == [True, False, False, False]
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(blocked))  # a file where the folder would be
    assert schemas._kept_check_path(_latency_check_schema()) is None
    assert _verdicts(schemas.compiled_check(_latency_check_schema()), LATENCY_RESULTS) == [True, False, False, False]
    assert blocked.read_text() == "x"


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


def test_render_keeps_every_compiled_check_and_check_then_reads_them(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(schemas, "_kept_state", {})
    assert not schemas.checks_are_kept()  # an empty cache folder: jsonschema first, as before
    assert not schemas.document_check_is_kept("study") and not schemas.document_check_is_kept("dataset")
    schemas.keep_compiled_checks()
    kept = list((tmp_path / schemas.CHECKS_FOLDER).iterdir())
    kinds = json.loads((schemas.SCHEMA_DIR / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    kinds = kinds["$defs"]["result"]["properties"]["kind"]["enum"]
    assert len(kept) == 1 + len(kinds) + len(schemas.FAST_DOCUMENT_KINDS)  # envelope, each kind, study, dataset
    monkeypatch.setattr(schemas, "_kept_state", {})  # a later process
    assert schemas.checks_are_kept()
    assert schemas.document_check_is_kept("study") and schemas.document_check_is_kept("dataset")
    schemas.keep_compiled_checks()  # again: read, nothing new
    assert sorted((tmp_path / schemas.CHECKS_FOLDER).iterdir()) == sorted(kept)


def test_without_a_cache_folder_nothing_is_kept_by_render(monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", "")
    monkeypatch.setattr(schemas, "_kept_state", {})
    schemas.keep_compiled_checks()
    assert not schemas.checks_are_kept() and not schemas.document_check_is_kept("study")
