"""The JSON Schemas (Draft 2020-12) in ``studygen/schemas/`` and validation against them.

The schemas are package data, read with :mod:`importlib.resources`, so an
installed studygen (``pip install .``, as pre-commit installs hooks) finds
them without a checkout.

Validation errors become :class:`RecordError` lines naming the file, the JSON
pointer and its line, e.g.
``measurements/deformable_detr/b200-trt11.4.json:/results/3/value_ms: 'fast' is not of type 'number'``.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
import json
import re

from ..errors import RecordError
from .jsonpos import line_of_pointer, pointer_from_path

# A Traversable (``/`` and ``read_text`` as on a Path): a folder of the package, or of its wheel.
SCHEMA_DIR = importlib.resources.files("studygen") / "schemas"
SCHEMA_FILES = {
    "run": "run_record.schema.json",
    "dataset": "dataset.schema.json",
    "study": "study.schema.json",
}
CURRENT_SCHEMA_VERSION = 1


# An unescaped ``$``: JSON Schema patterns are ECMA-262 expressions, where ``$`` (no ``m`` flag) is the end of
# the input; in Python's ``re`` it also matches before a final newline, so "x\n" would pass ``^[a-z]+$``.
_DOLLAR = re.compile(r"(?<!\\)\$")


@functools.cache
def ecma_pattern(pattern: str) -> re.Pattern:
    """``pattern`` (a schema's ``pattern`` keyword) compiled with ECMA-262's
    ``$``: the end of the input only (``\\Z``), as fastjsonschema compiles it,
    so both validators refuse a name with a trailing newline."""
    return re.compile(_DOLLAR.sub(r"\\Z", pattern))


def _pattern_keyword(validator, pattern, instance, schema):
    import jsonschema.exceptions

    if validator.is_type(instance, "string") and not ecma_pattern(pattern).search(instance):
        yield jsonschema.exceptions.ValidationError(f"{instance!r} does not match {pattern!r}")


@functools.cache
def validator(kind: str):
    """A cached Draft 2020-12 validator (jsonschema) for ``run``, ``dataset``
    or ``study``, its ``pattern`` keyword matched as ECMA-262 reads it
    (:func:`ecma_pattern`)."""
    import jsonschema

    schema = json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))
    ecma = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"pattern": _pattern_keyword})
    return ecma(schema)


def _best_error(errors):
    import jsonschema.exceptions

    return jsonschema.exceptions.best_match(errors)


# Run records validated with jsonschema alone before the compiled yes/no check
# takes over: compiling costs ~0.1 s once, jsonschema ~5 ms a record.
FAST_CHECK_AFTER = 16
_run_validations = 0


DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def fast_run_schemas(schema: dict) -> tuple[dict, dict[str, dict]] | None:
    """The run-record schema split for a compiler without Draft 2020-12's
    ``unevaluatedProperties``: an envelope (the record, results unchecked) and
    one schema per result kind (the common result properties, that kind's
    definition, and its keys limited to the properties of both).

    A result of kind K is valid under the original schema exactly when the
    common part and K's definition hold and every key is evaluated; the keys
    allowed here are a subset of those evaluated, so a record accepted here is
    valid under the original (a record refused here goes to jsonschema, which
    words the errors). None when the schema no longer has this shape.
    """
    defs = copy.deepcopy(schema.get("$defs", {}))
    result = defs.get("result")
    if not isinstance(result, dict) or result.get("unevaluatedProperties") is not False:
        return None
    common = {k: v for k, v in result.items() if k not in ("allOf", "unevaluatedProperties")}
    defs["result"] = {}  # results are checked one by one, each against its kind
    per_kind = {}
    for branch in result.get("allOf", []):
        kind = branch.get("if", {}).get("properties", {}).get("kind", {}).get("const")
        ref = branch.get("then", {}).get("$ref", "")
        if (set(branch) != {"if", "then"} or set(branch["then"]) != {"$ref"} or not isinstance(kind, str)
                or not ref.startswith("#/$defs/") or ref.rsplit("/", 1)[1] not in defs or kind in per_kind):
            return None
        allowed = set(common.get("properties", {})) | set(defs[ref.rsplit("/", 1)[1]].get("properties", {}))
        # ``additionalProperties`` next to empty ``properties``: the keys of ``propertyNames: {enum}``,
        # compiled to one set difference instead of a chain of comparisons per key
        per_kind[kind] = {"$schema": DRAFT_07, "$defs": defs, "allOf": [common, {"$ref": ref}],
                          "properties": {name: {} for name in sorted(allowed)}, "additionalProperties": False}
    if set(per_kind) != set(common.get("properties", {}).get("kind", {}).get("enum", [])):
        return None
    envelope = copy.deepcopy(schema)
    envelope["$defs"]["result"] = {}
    results = envelope.get("properties", {}).get("results", {})
    if results.get("items") == {"$ref": "#/$defs/result"}:
        del results["items"]  # each result is checked against its kind: no call per result here
    envelope["$schema"] = DRAFT_07
    if "unevaluatedProperties" in json.dumps([envelope, per_kind]):
        return None
    return envelope, per_kind


@functools.cache
def fast_run_check():
    """A compiled (fastjsonschema) function that returns True for a run record
    the schema accepts, False for one it may refuse; None when fastjsonschema
    is missing or the schema cannot be split (then jsonschema does all).
    Each result is checked against its own kind only (see :func:`fast_run_schemas`),
    whose check is compiled when the first result of that kind comes."""
    try:
        import fastjsonschema
    except ImportError:
        return None
    split = fast_run_schemas(json.loads((SCHEMA_DIR / SCHEMA_FILES["run"]).read_text(encoding="utf-8")))
    if split is None:
        return None
    envelope, per_kind = split
    check_envelope = fastjsonschema.compile(envelope, use_formats=False)
    check_result = {}  # kind -> compiled check, compiled when a result of that kind first comes (~10 ms each)

    def accepts(document) -> bool:
        try:
            check_envelope(document)
            results = document.get("results") if isinstance(document, dict) else None
            if not isinstance(results, list):
                return False
            for result in results:
                kind = result.get("kind") if isinstance(result, dict) else None
                if not isinstance(kind, str) or kind not in per_kind:
                    return False
                check = check_result.get(kind)
                if check is None:
                    check = check_result[kind] = fastjsonschema.compile(per_kind[kind], use_formats=False)
                check(result)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return accepts


def schema_errors(kind: str, document) -> list[tuple[str, str]]:
    """All schema violations of ``document`` as ``(json_pointer, message)``,
    sorted by pointer; the most relevant error of each ``oneOf``/``if`` branch.

    Run records past the first :data:`FAST_CHECK_AFTER` in a process (or all,
    once :func:`fast_run_check` is compiled: ``check`` compiles it before
    starting worker processes) are first checked by the compiled
    :func:`fast_run_check`; only those it does not accept go through
    jsonschema (which alone words the errors)."""
    global _run_validations
    if kind == "run":
        _run_validations += 1
        if _run_validations > FAST_CHECK_AFTER or fast_run_check.cache_info().currsize:
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
    line = line_of_pointer(text, pointer) if text is not None else 0
    raise RecordError(message, path=path, line=line, pointer=pointer or "/")
