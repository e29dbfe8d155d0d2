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


# Run records validated with jsonschema alone before the compiled yes/no check
# takes over: compiling costs ~0.1 s once, jsonschema ~5 ms a record.
FAST_CHECK_AFTER = 16
_run_validations = 0


def fast_run_schema(schema: dict) -> dict | None:
    """The run-record schema rewritten for a compiler without Draft 2020-12's
    ``unevaluatedProperties``: each result kind's ``then`` branch also limits
    the result's keys to the common properties plus that kind's properties.

    For every document the rewritten schema is at least as strict as the
    original (the keys it allows are a subset of those the original counts as
    evaluated), so "valid" from it implies "valid" from jsonschema; a document
    it refuses is validated again by jsonschema, which gives the errors. None
    when the schema no longer has the shape this relies on.
    """
    import copy

    fast = copy.deepcopy(schema)
    result = fast.get("$defs", {}).get("result")
    if not isinstance(result, dict) or result.get("unevaluatedProperties") is not False:
        return None
    del result["unevaluatedProperties"]
    common = set(result.get("properties", {}))
    for branch in result.get("allOf", []):
        then = branch.get("then", {})
        ref = then.get("$ref", "")
        if set(branch) != {"if", "then"} or set(then) != {"$ref"} or not ref.startswith("#/$defs/"):
            return None
        allowed = common | set(fast["$defs"][ref.rsplit("/", 1)[1]].get("properties", {}))
        branch["then"] = {"allOf": [{"$ref": ref}, {"propertyNames": {"enum": sorted(allowed)}}]}
    if "unevaluatedProperties" in json.dumps(fast):
        return None
    fast["$schema"] = "http://json-schema.org/draft-07/schema#"
    return fast


@functools.cache
def fast_run_check():
    """A compiled (fastjsonschema) function that returns True for a run record
    the schema accepts, False for one it may refuse; None when fastjsonschema
    is missing or the schema cannot be rewritten (then jsonschema does all)."""
    try:
        import fastjsonschema
    except ImportError:
        return None
    schema = fast_run_schema(json.loads((SCHEMA_DIR / SCHEMA_FILES["run"]).read_text(encoding="utf-8")))
    if schema is None:
        return None
    compiled = fastjsonschema.compile(schema, use_formats=False)

    def accepts(document) -> bool:
        try:
            compiled(document)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return accepts


def schema_errors(kind: str, document) -> list[tuple[str, str]]:
    """All schema violations of ``document`` as ``(json_pointer, message)``,
    sorted by pointer; the most relevant error of each ``oneOf``/``if`` branch.

    Run records past the first :data:`FAST_CHECK_AFTER` in a process are first
    checked by the compiled :func:`fast_run_check`; only those it does not
    accept go through jsonschema (which alone words the errors)."""
    global _run_validations
    if kind == "run":
        _run_validations += 1
        if _run_validations > FAST_CHECK_AFTER:
            accepts = fast_run_check()
            if accepts is not None and accepts(document):
                return []
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
    # not ``err.line``: that would shadow StudygenError.line(), which the CLI calls
    err.line_number = line
    err.pointer = pointer
    raise err
