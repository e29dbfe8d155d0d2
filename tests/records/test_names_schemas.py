"""The name rules of :mod:`studygen.records.names` and the schemas agree:
a job id, dataset id or variant name that ``collect`` or ``new`` accepts is
one each schema accepts, and the reverse, so a name never passes one door
and is refused at the next (the schemas spell the pattern themselves)."""

from __future__ import annotations

import json

import pytest

from studygen.records import names
from studygen.records.schemas import schema_bytes

# (schema kind, JSON pointer of the name's schema): every name that becomes a file or folder name
JOB_ID_RULED = [
    ("run", "/properties/job_id"),
    ("run", "/$defs/result/properties/variant"),
    ("study", "/properties/variants/items/properties/name"),
    ("dataset", "/properties/dataset_id"),
]
FAMILY_RULED = [("run", "/properties/family"), ("study", "/properties/family")]


def _schema_at(kind: str, pointer: str) -> dict:
    node = json.loads(schema_bytes(kind))
    for part in pointer.strip("/").split("/"):
        node = node[part]
    return node


@pytest.mark.parametrize(("kind", "pointer"), JOB_ID_RULED)
def test_job_id_rule_is_the_schemas(kind, pointer):
    schema = _schema_at(kind, pointer)
    assert schema["pattern"] == f"^{names.JOB_ID_PATTERN}$"
    assert schema["maxLength"] == names.MAX_NAME_LENGTH == 128


@pytest.mark.parametrize(("kind", "pointer"), FAMILY_RULED)
def test_family_rule_is_the_schemas(kind, pointer):
    schema = _schema_at(kind, pointer)
    assert schema["pattern"] == f"^{names.FAMILY_NAME.pattern}$"
    assert schema["maxLength"] == names.MAX_NAME_LENGTH


@pytest.mark.parametrize(("name", "accepted"), [
    ("fp8-b1.640", True), ("A", True), (".hidden", False), ("-x", False), ("a b", False), ("x\n", False),
    ("é", False), ("a" * 128, True), ("a" * 129, False),
])
def test_validate_job_id_accepts_what_the_pattern_says(name, accepted):
    if accepted:
        assert names.validate_job_id(name) == name
    else:
        with pytest.raises(names.UsageError):
            names.validate_job_id(name)
