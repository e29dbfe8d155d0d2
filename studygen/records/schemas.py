"""The JSON Schemas (Draft 2020-12) in ``schemas/`` and validation against them.

Validation errors become :class:`RecordError` lines naming the file, the JSON
pointer and its line, e.g.
``measurements/deformable_detr/b200-trt11.4.json:/results/3/value_ms: 'fast' is not of type 'number'``.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from ..errors import RecordError
from .jsonpos import line_of_pointer, pointer_from_path

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
SCHEMA_FILES = {
    "run": "run_record.schema.json",
    "dataset": "dataset.schema.json",
    "study": "study.schema.json",
}
CURRENT_SCHEMA_VERSION = 1


@functools.cache
def validator(kind: str):
    """A cached ``jsonschema.Draft202012Validator`` for ``run``, ``dataset`` or ``study``."""
    import jsonschema

    schema = json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _best_error(errors):
    import jsonschema.exceptions

    return jsonschema.exceptions.best_match(errors)


def schema_errors(kind: str, document) -> list[tuple[str, str]]:
    """All schema violations of ``document`` as ``(json_pointer, message)``,
    sorted by pointer; the most relevant error of each ``oneOf``/``if`` branch."""
    found = []
    for error in validator(kind).iter_errors(document):
        best = error
        if error.context:
            best = _best_error(error.context) or error
        found.append((pointer_from_path(best.absolute_path), best.message))
    # "Unevaluated properties" is a consequence of a failed branch: report the cause first.
    return sorted(set(found), key=lambda e: (e[1].startswith("Unevaluated properties"), e[0], e[1]))


def validate_document(kind: str, document, *, path: str, text: str | None = None) -> None:
    """Raise :class:`RecordError` for the first violation (by pointer), naming
    ``path``, the JSON pointer and, when ``text`` is given, its line."""
    errors = schema_errors(kind, document)
    if not errors:
        return
    pointer, message = errors[0]
    where = pointer or "/"
    line = line_of_pointer(text, pointer) if text is not None else 0
    err = RecordError(message, path=path, where=where)
    err.line = line
    err.pointer = pointer
    raise err
