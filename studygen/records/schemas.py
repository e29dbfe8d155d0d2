"""The JSON Schemas (Draft 2020-12) in ``studygen/schemas/`` and validation against them.

The schemas are package data, read with :mod:`importlib.resources`, so an
installed studygen (``pip install .``, as pre-commit installs hooks) finds
them without a checkout.

Validation errors become :class:`RecordError` lines naming the file, the JSON
pointer and its line, e.g.
``measurements/deformable_detr/b200-trt11.4.json:/results/3/value_ms: 'fast' is not of type 'number'``.
"""

from __future__ import annotations

from ..visible import shortened
import copy
import functools
import hashlib
import importlib.resources
import json
import reprlib
import re

import fastjsonschema

from ..errors import RecordError
from . import schema_checks
from .jsonpos import line_of_pointer, pointer_from_path

# A Traversable (``/`` and ``read_text`` as on a Path): a folder of the package, or of its wheel.
SCHEMA_DIR = importlib.resources.files("studygen") / "schemas"
SCHEMA_FILES = {
    "run": "run_record.schema.json",
    "dataset": "dataset.schema.json",
    "study": "study.schema.json",
}
CURRENT_SCHEMA_VERSION = 4


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


# How every compiled check is made, in the process (compiled_check) and at development time
# (schema_checks, written by schema_codegen): formats are annotations, as for jsonschema; no detailed exceptions.
COMPILE_OPTIONS = {"use_formats": False, "detailed_exceptions": False}


def compiled_check(schema: dict):
    """fastjsonschema's compiled check of ``schema`` (a Draft 7 schema without
    ``$id``): a function raising ``fastjsonschema.JsonSchemaException`` for a
    document the schema refuses. Compiled here, in this process; nothing of
    it is kept on disk or read back. Used for a schema file whose digest is
    not the one :mod:`~studygen.records.schema_checks` was generated from.

    Compiled without detailed exceptions (jsonschema words every error, the
    compiled check only says yes or no): the generated code is a third the
    size and compiles five times faster (about 50 ms for the envelope and
    every result kind instead of 250 ms). ``const`` is compiled as the
    one-value ``enum`` it equals: fastjsonschema 2.22's ``const`` message
    needs the detailed exceptions (``KeyError: 'definition_rule'`` without
    them), and both keywords compare through the same type-aware test."""
    return fastjsonschema.compile(_const_as_enum(schema), **COMPILE_OPTIONS)


def _const_as_enum(schema):
    """``schema`` with every ``const: V`` written ``enum: [V]`` (names under
    ``properties`` and ``$defs`` are names, not keywords, and stay)."""
    if isinstance(schema, list):
        return [_const_as_enum(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    rewritten = {}
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, dict):
            rewritten[key] = {name: _const_as_enum(item) for name, item in value.items()}
        elif key == "const":
            rewritten["enum"] = [value]
        else:
            rewritten[key] = _const_as_enum(value)
    return rewritten


DRAFT_07 = "http://json-schema.org/draft-07/schema#"


def fast_run_schemas(schema: dict) -> tuple[dict, dict[str, dict]] | None:
    """The run-record schema split for a compiler without Draft 2020-12's
    ``unevaluatedProperties``: an envelope (the record, results unchecked) and
    one schema per result kind (the common result properties and that kind's
    definition, joined into one object schema by :func:`_merged_object_schema`
    where it can, else their ``allOf``; its keys limited to the properties of both).

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
        definition = defs[ref.rsplit("/", 1)[1]]
        merged = _merged_object_schema(common, definition)
        if merged is not None:  # one pass over the result's keys instead of three
            per_kind[kind] = {"$schema": DRAFT_07, "$defs": defs, **merged, "additionalProperties": False}
            continue
        allowed = set(common.get("properties", {})) | set(definition.get("properties", {}))
        # ``additionalProperties`` next to empty ``properties``: the keys of ``propertyNames: {enum}``,
        # compiled to one set difference instead of a chain of comparisons per key
        per_kind[kind] = {"$schema": DRAFT_07, "$defs": defs, "allOf": [common, {"$ref": ref}],
                          "properties": {name: {} for name in sorted(allowed)}, "additionalProperties": False}
    if set(per_kind) != set(common.get("properties", {}).get("kind", {}).get("enum", [])):
        return None
    envelope = copy.deepcopy(schema)
    envelope.pop("$id", None)  # references are local (#/$defs/...); without an id the check's entry is ``validate``
    envelope["$defs"]["result"] = {}
    results = envelope.get("properties", {}).get("results", {})
    if results.get("items") == {"$ref": "#/$defs/result"}:
        del results["items"]  # each result is checked against its kind: no call per result here
    envelope["$schema"] = DRAFT_07
    if "unevaluatedProperties" in json.dumps([envelope, per_kind]):
        return None
    return envelope, per_kind


# Keywords an object schema may use for :func:`_merged_object_schema` to join it with another
# (annotations, and keywords whose conjunction is written out there).
_MERGEABLE_KEYWORDS = frozenset({"type", "required", "properties", "oneOf", "description", "title"})


def _merged_object_schema(first: dict, second: dict) -> dict | None:
    """One object schema holding exactly when both ``first`` and ``second``
    hold (their ``allOf``), so that a compiled check reads the object's keys
    once: ``required`` of both; ``properties`` of both, a property both
    declare under ``allOf`` of its two schemas; the ``oneOf`` of the one that
    has one. None when either uses another keyword, a type other than
    ``object``, or both a ``oneOf`` (then the caller keeps the ``allOf``).

    The annotations (``description``, ``title``) are dropped: they assert nothing."""
    for schema in (first, second):
        if not set(schema) <= _MERGEABLE_KEYWORDS or schema.get("type", "object") != "object":
            return None
    if "oneOf" in first and "oneOf" in second:
        return None
    properties = dict(first.get("properties", {}))
    for name, subschema in second.get("properties", {}).items():
        properties[name] = {"allOf": [properties[name], subschema]} if name in properties else subschema
    merged = {"type": "object", "required": list(dict.fromkeys([*first.get("required", []), *second.get("required", [])])),
              "properties": properties}
    one_of = first.get("oneOf", second.get("oneOf"))
    if one_of is not None:
        merged["oneOf"] = one_of
    return merged


def schema_bytes(kind: str) -> bytes:
    """The shipped schema file of ``kind`` (``run``, ``study``, ``dataset``), as bytes."""
    return (SCHEMA_DIR / SCHEMA_FILES[kind]).read_bytes()


def shipped_checks_apply(kind: str, data: bytes) -> bool:
    """Whether the checks generated in :mod:`~studygen.records.schema_checks`
    were made from ``data``, the schema file of ``kind`` as read now (its
    sha256 is the one recorded there). A schema edited since the last
    regeneration is compiled in the process instead, so it is never checked
    by code made from its older text. Nor under another fastjsonschema
    version than the one that generated them (its ``VERSION``, as the
    built-in template's code is kept to its Jinja version): compiling in the
    process would then give that version's check, as before the checks were
    shipped."""
    return (schema_checks.FASTJSONSCHEMA_VERSION == fastjsonschema.VERSION
            and schema_checks.SOURCE_SHA256.get(SCHEMA_FILES[kind]) == hashlib.sha256(data).hexdigest())


@functools.cache
def fast_run_check():
    """A compiled (fastjsonschema) function that returns True for a run record
    the schema accepts, False for one it may refuse; None when the schema
    cannot be split (then jsonschema does all). Each result is checked
    against its own kind only (see :func:`fast_run_schemas`). The checks
    are the generated ones of :mod:`~studygen.records.schema_checks` when the
    schema file is the one they were made from (:func:`shipped_checks_apply`),
    else compiled here, a result kind's when its first result comes."""
    data = schema_bytes("run")
    if shipped_checks_apply("run", data):
        check_envelope = schema_checks.DOCUMENT_CHECKS["run"]()
        make_check = schema_checks.RUN_RESULT_CHECKS  # kind -> the function that makes its check
    else:
        split = fast_run_schemas(json.loads(data))
        if split is None:
            return None
        envelope, per_kind = split
        check_envelope = compiled_check(envelope)
        make_check = {kind: functools.partial(compiled_check, schema) for kind, schema in per_kind.items()}
    check_result = {}  # kind -> its check, made when a result of that kind first comes (compiled: 2 to 9 ms each)

    def accepts(document) -> bool:
        try:
            check_envelope(document)
            results = document.get("results") if isinstance(document, dict) else None
            if not isinstance(results, list):
                return False
            for result in results:
                kind = result.get("kind") if isinstance(result, dict) else None
                if not isinstance(kind, str) or kind not in make_check:
                    return False
                check = check_result.get(kind)
                if check is None:
                    check = check_result[kind] = make_check[kind]()
                check(result)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return accepts


# Keywords whose meaning Draft 7 (fastjsonschema) and Draft 2020-12 (jsonschema) share; a
# whole-document compiled check is made only for a schema that uses no other keyword.
SHARED_KEYWORDS = frozenset({
    "$id", "$schema", "title", "description", "type", "enum", "const", "properties", "additionalProperties",
    "required", "items", "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "pattern", "anyOf", "oneOf", "allOf", "not",
})


FAST_DOCUMENT_KINDS = ("study", "dataset")  # compiled checks too: a valid study never imports jsonschema


def _keywords(schema) -> set[str]:
    """Every keyword a schema uses (the names under ``properties`` and ``$defs`` are not keywords)."""
    found, stack = set(), [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                found.add(key)
                stack.extend(value.values() if key in ("properties", "$defs") and isinstance(value, dict) else [value])
    return found


def _document_check_schema(kind: str, data: bytes | None = None) -> dict | None:
    """The ``study`` or ``dataset`` schema (``data``, its file's bytes; read
    from the package when None) as a Draft 7 schema without ``$id``; None
    when it uses a keyword outside :data:`SHARED_KEYWORDS`."""
    schema = json.loads(schema_bytes(kind) if data is None else data)
    if not _keywords(schema) <= SHARED_KEYWORDS:
        return None
    return {**{k: v for k, v in schema.items() if k != "$id"}, "$schema": DRAFT_07}


@functools.cache
def fast_document_check(kind: str):
    """For ``study`` and ``dataset``: a compiled function that returns True
    for a document the schema accepts, False for one it may refuse (then
    jsonschema words the errors), so that jsonschema is not even imported
    while every file is valid. The check is the generated one of
    :mod:`~studygen.records.schema_checks` when the schema file is the one it
    was made from (:func:`shipped_checks_apply`), else compiled here. None
    when the schema uses a keyword outside :data:`SHARED_KEYWORDS`."""
    data = schema_bytes(kind)
    if shipped_checks_apply(kind, data):
        check = schema_checks.DOCUMENT_CHECKS[kind]()
    else:
        draft_07 = _document_check_schema(kind, data)
        if draft_07 is None:
            return None
        check = compiled_check(draft_07)

    def accepts(document) -> bool:
        try:
            check(document)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    return accepts


def schema_errors(kind: str, document) -> list[tuple[str, str]]:
    """All schema violations of ``document`` as ``(json_pointer, message)``,
    sorted by pointer; the most relevant error of each ``oneOf``/``if`` branch.

    Run records are first checked by the compiled :func:`fast_run_check`,
    study files and dataset definitions by :func:`fast_document_check`;
    only those they do not accept go through jsonschema (which alone words
    the errors), so jsonschema is not even imported while every file is valid."""
    accepts = fast_run_check() if kind == "run" else fast_document_check(kind) if kind in FAST_DOCUMENT_KINDS else None
    if accepts is not None and accepts(document):
        return []
    found = []
    for error in validator(kind).iter_errors(document):
        best = error
        if error.context:
            best = _best_error(error.context) or error
        holder = pointer_from_path(best.absolute_path)
        unexpected = _unexpected_key(best)
        found.append((holder, not unexpected, pointer_from_path([*best.absolute_path, *unexpected]), _worded(best)))
    # "Unevaluated properties" is a consequence of a failed branch: report the cause first. Within one
    # object a misspelt key comes before the required key it was meant to be.
    ordered = sorted(set(found), key=lambda e: (e[3].startswith("Unevaluated properties"), e[0], e[1], e[2], e[3]))
    return [(pointer, message) for _, _, pointer, message in ordered]


# Size limits worded by count: jsonschema's own message quotes the whole value ("[<100 notes>] is too long",
# a line of 15,000 characters), where the count and the limit are what the reader needs.
SIZE_LIMITS = {"maxItems": ("items", "allows at most"), "minItems": ("items", "asks for at least"),
               "maxLength": ("characters", "allows at most"), "minLength": ("characters", "asks for at least"),
               "maxProperties": ("keys", "allows at most"), "minProperties": ("keys", "asks for at least")}
MESSAGE_MAX_CHARS = 300  # any other message quoting a long value is cut to this
_SHORT_REPR = reprlib.Repr()  # Python 3.11's Repr takes no settings in its constructor
_SHORT_REPR.maxstring, _SHORT_REPR.maxother, _SHORT_REPR.maxlist, _SHORT_REPR.maxdict, _SHORT_REPR.maxlevel = 60, 60, 4, 4, 2


def _worded(error) -> str:
    """One readable line for a jsonschema error: a size limit as the count
    against the limit (``holds 101 items; the schema allows at most 100``), any other message
    as jsonschema words it, a long value in it quoted short (``'zzz...zzz' is not one of [...]``)
    and the whole cut to :data:`MESSAGE_MAX_CHARS` characters."""
    if error.validator in SIZE_LIMITS and isinstance(error.instance, (str, list, dict)):
        unit, bound = SIZE_LIMITS[error.validator]
        return f"holds {len(error.instance)} {unit}; the schema {bound} {error.validator_value}"
    message = error.message
    if len(message) > MESSAGE_MAX_CHARS:  # the value quoted shorter, so that the rule it broke still shows
        message = message.replace(repr(error.instance), _SHORT_REPR.repr(error.instance), 1)
    return shortened(message, MESSAGE_MAX_CHARS)


def _unexpected_key(error) -> list[str]:
    """The first key an ``additionalProperties: false`` error refuses, as one
    path step, so that its pointer and line name the misspelt key itself
    rather than the object holding it; ``[]`` for every other error."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    declared = error.schema.get("properties", {})  # our schemas declare no patternProperties
    key = next((key for key in error.instance if key not in declared), None)
    # a key with a newline or control character would break the one-line message, and one that is no text
    # (True from a hand-built document; the study file's loader refuses those) has no pointer: keep the object's place
    return [key] if isinstance(key, str) and key.isprintable() else []


def validate_document(kind: str, document, *, path: str, text: str | None = None) -> None:
    """Raise :class:`RecordError` for the first violation (by pointer), naming
    ``path``, the JSON pointer and, when ``text`` is given, its line."""
    errors = schema_errors(kind, document)
    if not errors:
        return
    pointer, message = errors[0]
    line = line_of_pointer(text, pointer) if text is not None else 0
    raise RecordError(message, path=path, line=line, pointer=pointer or "/")
