"""Schema-version migrations, applied on load.

Each entry migrates a record from version N to N+1 in place. There is one
schema version today (1); a record claiming a newer version than this
studygen knows is refused with the version it needs, and one with no or an
unknown older version is refused with the version that is needed.
"""

from __future__ import annotations

from ..errors import RecordError
from .schemas import CURRENT_SCHEMA_VERSION

# version N -> function turning a version-N document into version N+1
MIGRATIONS: dict[int, callable] = {}


def migrate_0_to_1(document: dict) -> dict:
    """Version 0 (pre-release drafts) kept ``gpu`` and ``software`` at the top
    level and named the list ``measurements``; version 1 moves them under
    ``provenance`` and calls the list ``results``."""
    document = dict(document)
    provenance = dict(document.pop("provenance", {}) or {})
    for field in ("gpu", "software", "checkpoint", "source", "collector"):
        if field in document:
            provenance.setdefault(field, document.pop(field))
    document["provenance"] = provenance
    if "measurements" in document and "results" not in document:
        document["results"] = document.pop("measurements")
    document["schema_version"] = 1
    return document


MIGRATIONS[0] = migrate_0_to_1


def migrate(document, *, path: str):
    """Bring ``document`` to :data:`CURRENT_SCHEMA_VERSION`.

    Raises RecordError when the version is missing, not an integer, newer
    than this studygen, or has no migration path.
    """
    if not isinstance(document, dict):
        raise RecordError("top level must be a JSON object", path=path, pointer="/")
    version = document.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(
            f"schema_version is missing or not an integer; this studygen needs schema_version {CURRENT_SCHEMA_VERSION}",
            path=path, pointer="/schema_version")
    if version > CURRENT_SCHEMA_VERSION:
        raise RecordError(
            f"schema_version {version} is newer than this studygen reads ({CURRENT_SCHEMA_VERSION}); upgrade studygen",
            path=path, pointer="/schema_version")
    while version < CURRENT_SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise RecordError(
                f"schema_version {version} cannot be migrated; this studygen needs schema_version "
                f"{CURRENT_SCHEMA_VERSION}",
                path=path, pointer="/schema_version")
        document = step(document)
        version = document["schema_version"]
    return document
