"""The schema checks shipped as generated source (studygen/records/schema_checks.py):
current with the schema files, used only for the schema text they were made
from, and replaced by checks compiled in the process for any other text."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from studygen.records import schema_checks, schema_codegen, schemas
from studygen.textio import parse_json
from tests.conftest import REPO

SHIPPED_RECORD = REPO / "measurements" / "deformable_detr" / "b200-trt11.4.json"
SHIPPED_STUDY = REPO / "families" / "deformable_detr" / "study.yaml"


@pytest.fixture
def fresh_checks():
    """The cached checks made anew before and after the test (they read the schema folder once)."""
    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()
    yield
    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()


def test_the_committed_module_is_what_regeneration_writes_now():
    # fails after a schema edit (or a fastjsonschema upgrade) without python -m studygen.records.schema_codegen
    assert schema_codegen.TARGET.read_text(encoding="utf-8") == schema_codegen.generated_checks_source()
    assert schema_codegen.main(["--check"]) == 0


def test_it_records_each_schema_file_it_was_made_from():
    assert set(schema_checks.SOURCE_SHA256) == set(schemas.SCHEMA_FILES.values())
    for kind in schemas.SCHEMA_FILES:
        assert schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind))
        assert not schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind) + b"\n")
    assert set(schema_checks.DOCUMENT_CHECKS) == {"run", "study", "dataset"}
    assert set(schema_checks.RUN_RESULT_CHECKS) == set(json.loads(schemas.schema_bytes("run"))["$defs"]["result"]
                                                       ["properties"]["kind"]["enum"])


def test_the_shipped_schemas_are_checked_without_compiling(fresh_checks, monkeypatch):
    def no_compiling(schema):
        raise AssertionError("compiled in the process although the generated checks apply")

    monkeypatch.setattr(schemas, "compiled_check", no_compiling)
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    assert schemas.fast_run_check()(record)
    record["job_id"] = "bad job"
    assert not schemas.fast_run_check()(record)
    assert schemas.fast_document_check("study")(yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8")))


def test_an_edited_schema_is_compiled_in_the_process_not_checked_by_the_generated_code(
        fresh_checks, monkeypatch, tmp_path):
    edited = tmp_path / "schemas"
    shutil.copytree(schemas.SCHEMA_DIR, edited)
    run = json.loads((edited / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    run["properties"]["job_id"]["maxLength"] = 8  # the shipped limit is 128
    (edited / schemas.SCHEMA_FILES["run"]).write_text(json.dumps(run), encoding="utf-8")
    study = json.loads((edited / schemas.SCHEMA_FILES["study"]).read_text(encoding="utf-8"))
    study["properties"]["family"]["maxLength"] = 3
    (edited / schemas.SCHEMA_FILES["study"]).write_text(json.dumps(study), encoding="utf-8")
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    study_file = yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8"))
    assert len(record["job_id"]) > 8 and len(study_file["family"]) > 3
    assert schemas.fast_run_check()(record) and schemas.fast_document_check("study")(study_file)  # shipped text

    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()
    monkeypatch.setattr(schemas, "SCHEMA_DIR", edited)
    assert not schemas.shipped_checks_apply("run", schemas.schema_bytes("run"))
    assert not schemas.fast_run_check()(record)  # the generated check (limit 128) would accept it
    assert not schemas.fast_document_check("study")(study_file)
    assert schemas.fast_document_check("dataset") is not None  # an unedited file keeps its generated check
    assert schemas.shipped_checks_apply("dataset", schemas.schema_bytes("dataset"))


def test_under_another_fastjsonschema_version_the_checks_are_compiled_in_the_process(fresh_checks, monkeypatch):
    # the generated code is what fastjsonschema FASTJSONSCHEMA_VERSION made; before it was shipped, every process
    # compiled the schema with the fastjsonschema installed, so an installed copy with another version must too
    import fastjsonschema

    compiled = []
    real = schemas.compiled_check
    monkeypatch.setattr(schemas, "compiled_check", lambda schema: compiled.append(schema) or real(schema))
    monkeypatch.setattr(fastjsonschema, "VERSION", "2.0.0")
    for kind in schemas.SCHEMA_FILES:
        assert not schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind))
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    assert schemas.fast_run_check()(record)
    assert schemas.fast_document_check("study")(yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8")))
    assert len(compiled) >= 3  # the envelope, each result kind of the record, the study file
