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
import hashlib
import importlib.resources
import importlib.util
import json
import marshal
import re
import sys

from ..errors import RecordError
from ..fsutil import atomic_write_bytes, cache_folder
from ..memo import sealed, unsealed
from .jsonpos import line_of_pointer, pointer_from_path

# A Traversable (``/`` and ``read_text`` as on a Path): a folder of the package, or of its wheel.
SCHEMA_DIR = importlib.resources.files("studygen") / "schemas"
SCHEMA_FILES = {
    "run": "run_record.schema.json",
    "dataset": "dataset.schema.json",
    "study": "study.schema.json",
}
CURRENT_SCHEMA_VERSION = 2


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
# takes over: compiling costs ~0.1 s once, jsonschema ~5 ms a record. Where the
# cache folder keeps compiled checks (compiled once a machine, then read), the
# compiled check takes over from the first record.
FAST_CHECK_AFTER = 16
_run_validations = 0
CHECKS_FOLDER = "schema-checks"  # in fsutil.cache_folder


def _kept_check_path(schema: dict):
    """Path of the kept compiled check of ``schema`` (named by the sha256 of the
    fastjsonschema version, its options and the schema, and by the Python
    implementation the bytecode is for), or None without a cache folder."""
    import fastjsonschema

    folder = cache_folder(CHECKS_FOLDER)
    if folder is None:
        return None
    key = json.dumps(["fastjsonschema", fastjsonschema.VERSION, {"use_formats": False}, schema], sort_keys=True)
    return folder / f"check_{hashlib.sha256(key.encode('utf-8')).hexdigest()}.{sys.implementation.cache_tag}.bin"


# A kept check starts with the bytecode magic number of this Python, as a .pyc does,
# then the marshalled code, sealed with its sha256 (a damaged file is never run).
_KEPT_HEADER = b"studygen schema check\n" + importlib.util.MAGIC_NUMBER


def _kept_bytes(code) -> bytes:
    return _KEPT_HEADER + sealed(marshal.dumps(code))


def compiled_check(schema: dict):
    """fastjsonschema's compiled check of ``schema`` (a Draft 7 schema without
    ``$id``): a function raising ``fastjsonschema.JsonSchemaException`` for a
    document the schema refuses. The bytecode of its generated code
    (``compile_to_code``) is kept in the cache folder
    (:func:`studygen.fsutil.cache_folder`, under :func:`_kept_check_path`'s
    name) and run from there by later processes instead of being generated and
    compiled again (10 to 40 ms a schema; a .pyc would not do where
    ``PYTHONDONTWRITEBYTECODE`` is set). Compiled here when there is no cache
    folder or the kept file cannot be written or read back."""
    import fastjsonschema

    path = _kept_check_path(schema)
    if path is None:
        return fastjsonschema.compile(schema, use_formats=False)
    try:
        check = _run_kept(path.read_bytes()) if path.is_file() else None
        if check is None:  # not kept yet, or damaged: made (again) and kept
            code = compile(fastjsonschema.compile_to_code(schema, use_formats=False), str(path), "exec")
            kept = _kept_bytes(code)
            atomic_write_bytes(path, kept)
            check = _run_kept(kept)
    except OSError:
        check = None
    return check if check is not None else fastjsonschema.compile(schema, use_formats=False)


def _run_kept(kept: bytes):
    """The entry (``validate``) of a kept check's bytecode, run; None when
    ``kept`` is no kept check for this Python or is damaged."""
    if not kept.startswith(_KEPT_HEADER):
        return None
    payload = unsealed(kept[len(_KEPT_HEADER):])
    if payload is None:  # cut short, or a constant altered (a pattern, a name)
        return None
    try:
        namespace: dict = {}
        # fastjsonschema's own generated code, run as fastjsonschema.compile runs it
        exec(marshal.loads(payload), namespace)  # noqa: S102
        return namespace["validate"]  # compile_to_code's entry for a schema without $id
    except Exception:  # noqa: BLE001 - whatever a damaged file raises, it is no usable check
        return None


def checks_are_kept() -> bool:
    """True when the cache folder keeps the compiled envelope check of the
    run-record schema (``render`` keeps it, :func:`keep_compiled_checks`), so
    that :func:`fast_run_check` costs a read, not a compile: then
    :func:`schema_errors` uses it from the first record. Asked once a process."""
    if _kept_state.get("run") is None:
        split = fast_run_schemas(json.loads((SCHEMA_DIR / SCHEMA_FILES["run"]).read_text(encoding="utf-8")))
        _kept_state["run"] = split is not None and _is_kept(split[0])
    return _kept_state["run"]


_kept_state: dict[str, bool] = {}  # schema kind -> its compiled check is kept (asked once a process)


def _is_kept(schema: dict) -> bool:
    try:
        path = _kept_check_path(schema)
    except ImportError:  # no fastjsonschema
        return False
    return path is not None and path.is_file()


def keep_compiled_checks() -> None:
    """Compile, and so keep in the cache folder, every check a later
    ``check`` reads: the run-record envelope and each result kind, the study
    file and the dataset definition. Called by ``render`` (seconds anyway),
    so that a ``check`` afterwards needs neither a compile nor jsonschema,
    while a ``check`` on a machine without kept checks (a fresh CI job)
    validates as it did before: jsonschema first, a compile only past
    :data:`FAST_CHECK_AFTER` records. Nothing happens without a cache
    folder or fastjsonschema."""
    try:
        import fastjsonschema  # noqa: F401 - only to know it is there
    except ImportError:
        return
    if cache_folder(CHECKS_FOLDER) is None:
        return
    split = fast_run_schemas(json.loads((SCHEMA_DIR / SCHEMA_FILES["run"]).read_text(encoding="utf-8")))
    if split is not None:
        compiled_check(split[0])
        for schema in split[1].values():
            compiled_check(schema)
    for kind in FAST_DOCUMENT_KINDS:
        schema = _document_check_schema(kind)
        if schema is not None:
            compiled_check(schema)


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
    check_envelope = compiled_check(envelope)
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
                    check = check_result[kind] = compiled_check(per_kind[kind])
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


FAST_DOCUMENT_KINDS = ("study", "dataset")  # with kept checks: a valid study never imports jsonschema


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


def _document_check_schema(kind: str) -> dict | None:
    """The ``study`` or ``dataset`` schema as a Draft 7 schema without ``$id``;
    None when it uses a keyword outside :data:`SHARED_KEYWORDS`."""
    schema = json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))
    if not _keywords(schema) <= SHARED_KEYWORDS:
        return None
    return {**{k: v for k, v in schema.items() if k != "$id"}, "$schema": DRAFT_07}


def document_check_is_kept(kind: str) -> bool:
    """True when the cache folder keeps the compiled check of ``kind``
    (``study`` or ``dataset``; see :func:`keep_compiled_checks`). Asked once a process."""
    if _kept_state.get(kind) is None:
        schema = _document_check_schema(kind)
        _kept_state[kind] = schema is not None and _is_kept(schema)
    return _kept_state[kind]


@functools.cache
def fast_document_check(kind: str):
    """For ``study`` and ``dataset``: a compiled function that returns True
    for a document the schema accepts, False for one it may refuse (then
    jsonschema words the errors), so that jsonschema is not even imported
    while every file is valid. None when fastjsonschema is missing or the
    schema uses a keyword outside :data:`SHARED_KEYWORDS`."""
    try:
        import fastjsonschema
    except ImportError:
        return None
    draft_07 = _document_check_schema(kind)
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

    Run records past the first :data:`FAST_CHECK_AFTER` in a process (or all,
    once :func:`fast_run_check` is compiled: ``check`` compiles it before
    starting worker processes; or when a ``render`` kept the compiled checks,
    :func:`checks_are_kept`) are first checked by the compiled
    :func:`fast_run_check`, study files and dataset definitions by
    :func:`fast_document_check`; only those they do not accept go through
    jsonschema (which alone words the errors)."""
    global _run_validations
    if kind == "run":
        _run_validations += 1
        if _run_validations > FAST_CHECK_AFTER or fast_run_check.cache_info().currsize or checks_are_kept():
            accepts = fast_run_check()
            if accepts is not None and accepts(document):
                return []
    elif kind in FAST_DOCUMENT_KINDS and document_check_is_kept(kind):
        accepts = fast_document_check(kind)
        if accepts is not None and accepts(document):
            return []
    found = []
    for error in validator(kind).iter_errors(document):
        best = error
        if error.context:
            best = _best_error(error.context) or error
        holder = pointer_from_path(best.absolute_path)
        unexpected = _unexpected_key(best)
        found.append((holder, not unexpected, pointer_from_path([*best.absolute_path, *unexpected]), best.message))
    # "Unevaluated properties" is a consequence of a failed branch: report the cause first. Within one
    # object a misspelt key comes before the required key it was meant to be.
    ordered = sorted(set(found), key=lambda e: (e[3].startswith("Unevaluated properties"), e[0], e[1], e[2], e[3]))
    return [(pointer, message) for _, _, pointer, message in ordered]


def _unexpected_key(error) -> list[str]:
    """The first key an ``additionalProperties: false`` error refuses, as one
    path step, so that its pointer and line name the misspelt key itself
    rather than the object holding it; ``[]`` for every other error."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return []
    declared = error.schema.get("properties", {})  # our schemas declare no patternProperties
    key = next((key for key in error.instance if key not in declared), None)
    # a key with a newline or control character would break the one-line message: keep the object's place
    return [key] if key is not None and key.isprintable() else []


def validate_document(kind: str, document, *, path: str, text: str | None = None) -> None:
    """Raise :class:`RecordError` for the first violation (by pointer), naming
    ``path``, the JSON pointer and, when ``text`` is given, its line."""
    errors = schema_errors(kind, document)
    if not errors:
        return
    pointer, message = errors[0]
    line = line_of_pointer(text, pointer) if text is not None else 0
    raise RecordError(message, path=path, line=line, pointer=pointer or "/")
