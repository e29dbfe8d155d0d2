"""One-expression tests that let the generated schema checks skip a call of a
referenced check (``validate____defs_kernel_entry``) for a value that plainly
passes it, written by :mod:`studygen.records.schema_codegen` at development time.

fastjsonschema checks each kernel entry of a record with a call of the
check of its ``$defs`` entry, which copies the entry's keys into a set,
removes each key it knows, tests each value's type twice over and calls
the check of each ``dim3`` in it: most of the time of checking a record of
thousands of entries. For a ``$defs`` entry made only of the keywords
:func:`shortcut` reads (types, required and known keys, bounds, sizes, and
references to such entries), the generated code tests each value against
it in one expression at the call, and calls the check only when the
expression is false. The expression is true only for a value the check
accepts (exact types, ``0 <= v <= 3600000``), so what the checks accept
and refuse is fastjsonschema's; a value it does not cover (a float where
an integer goes, a ``Decimal``) is left to the check, which decides.
"""

from __future__ import annotations

import re

# Keywords a shortcut reads, with the annotations it may pass by; any other keyword (a pattern, an enum, a default
# that fastjsonschema's check would write into the value) leaves its entry without a shortcut.
_ANNOTATIONS = frozenset({"description", "title", "$comment"})
_READ = frozenset({"type", "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
                   "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "$ref"})
_DEFS_PREFIX = "#/$defs/"
# The exact type of each JSON type's values as parsed (bool is no int here, and an integral float is left to the check).
_EXACT_TYPE = {"string": "str", "integer": "int", "boolean": "bool", "array": "list", "object": "dict"}
# Unrolled up to this many items; a longer or unsized list is tested item by item with all().
_UNROLLED_ITEMS = 4
_LOWER = {"minimum": "<=", "exclusiveMinimum": "<"}  # fastjsonschema refuses v < minimum, v <= exclusiveMinimum
_UPPER = {"maximum": "<=", "exclusiveMaximum": "<"}


class _Names:
    """Fresh local names for the values a shortcut binds (``shortcut__1``, ...), none of fastjsonschema's."""

    def __init__(self):
        self.count = 0

    def fresh(self) -> str:
        self.count += 1
        return f"shortcut__{self.count}"


def shortcut(schema, defs: dict, value: str, names: _Names, seen: tuple[str, ...] = ()) -> str | None:
    """A Python expression, true only when the value named ``value`` (a
    local name) is valid under ``schema``, or None when ``schema`` uses a
    keyword outside those read here, or refers to itself. ``defs``: the
    schema's ``$defs``; ``names`` makes the names of nested values."""
    if schema is True or schema == {}:
        return "True"
    if not isinstance(schema, dict) or not set(schema) <= _READ | _ANNOTATIONS:
        return None
    if "$ref" in schema:
        target = schema["$ref"]
        name = target.removeprefix(_DEFS_PREFIX)
        if set(schema) - _ANNOTATIONS != {"$ref"} or not target.startswith(_DEFS_PREFIX) or name not in defs \
                or name in seen:
            return None
        return shortcut(defs[name], defs, value, names, (*seen, name))
    kind = schema.get("type")
    if kind == "number":
        tests = [f"isinstance({value}, (int, float)) and type({value}) is not bool"]
    elif isinstance(kind, str) and kind in _EXACT_TYPE:
        tests = [f"type({value}) is {_EXACT_TYPE[kind]}"]
    else:
        return None  # no type, a list of types, null
    bounds = [keyword for keyword in (*_LOWER, *_UPPER) if keyword in schema]
    if bounds and (kind not in ("number", "integer") or not all(_plain_number(schema[k]) for k in bounds)):
        return None
    lower = [f"{schema[k]!r} {_LOWER[k]} {value}" for k in bounds if k in _LOWER]
    upper = [f"{value} {_UPPER[k]} {schema[k]!r}" for k in bounds if k in _UPPER]
    if len(lower) == 1 and len(upper) == 1:  # one chained comparison: 0 <= v <= 3600000
        tests.append(lower[0] + upper[0].removeprefix(value))
    else:
        tests += lower + upper
    for keyword, form in (("minLength", "{} <= len({})"), ("maxLength", "len({1}) <= {0}")):
        if keyword in schema:
            if kind != "string" or not _plain_count(schema[keyword]):
                return None
            tests.append(form.format(schema[keyword], value))
    parts = {"object": _object_tests, "array": _array_tests}.get(kind, _no_more_tests)(schema, defs, value, names, seen)
    return None if parts is None else " and ".join([*tests, *parts])


def _no_more_tests(schema, defs, value, names, seen) -> list[str] | None:
    nested = {"required", "properties", "additionalProperties", "items", "minItems", "maxItems"}
    return None if nested & set(schema) else []


def _object_tests(schema, defs, value, names, seen) -> list[str] | None:
    if {"items", "minItems", "maxItems", "minLength", "maxLength"} & set(schema):
        return None
    properties, required = schema.get("properties", {}), schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(required, list) \
            or not all(isinstance(key, str) for key in [*properties, *required]):
        return None
    tests = [f"{key!r} in {value}" for key in dict.fromkeys(required)]
    if extra is False:
        known = ", ".join(repr(key) for key in sorted(properties))
        tests.append(f"{value}.keys() <= {{{known}}}" if properties else f"not {value}")
    elif extra is not True:  # a schema for every value (no properties beside it)
        local = names.fresh()
        inner = shortcut(extra, defs, local, names, seen)
        if inner is None or properties:
            return None
        if inner != "True":
            tests.append(f"all({inner} for {local} in {value}.values())")
    for key, subschema in properties.items():
        local = names.fresh()
        inner = shortcut(subschema, defs, local, names, seen)
        if inner is None:
            return None
        if inner == "True":
            continue
        bound = _named_at_first_use(inner, local, f"{value}[{key!r}]")
        tests.append(f"({bound})" if key in required else f"({key!r} not in {value} or {bound})")
    return tests


def _named_at_first_use(test: str, local: str, taken: str) -> str:
    """``test`` with its first mention of ``local`` binding it to ``taken``
    (``(shortcut__1 := data['grid'])``), so that the value is looked up once:
    a test mentions its value first in its type test, which runs first."""
    return re.sub(rf"\b{local}\b", lambda _: f"({local} := {taken})", test, count=1)


def _array_tests(schema, defs, value, names, seen) -> list[str] | None:
    if {"required", "properties", "additionalProperties"} & set(schema):
        return None
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    if not _plain_count(low) or (high is not None and not _plain_count(high)):
        return None
    tests = []
    if low == high:
        tests.append(f"len({value}) == {low}")
    else:
        tests += [f"{low} <= len({value})"] if low else []
        tests += [f"len({value}) <= {high}"] if high is not None else []
    items = schema.get("items", True)
    if isinstance(items, list):
        return None  # a tuple of item schemas (Draft 7)
    local = names.fresh()
    inner = shortcut(items, defs, local, names, seen)
    if inner is None:
        return None
    if inner == "True":
        return tests
    if low == high and low <= _UNROLLED_ITEMS:
        tests += [f"({_named_at_first_use(inner, local, f'{value}[{index}]')})" for index in range(low)]
    else:
        tests.append(f"all({inner} for {local} in {value})")
    return tests


def _plain_number(bound) -> bool:
    return isinstance(bound, (int, float)) and not isinstance(bound, bool) and bound == bound and abs(bound) != float("inf")


def _plain_count(count) -> bool:
    return isinstance(count, int) and not isinstance(count, bool) and count >= 0


# A call fastjsonschema 2.22 writes for a "$ref" to a $defs entry (after unformatted_reference_names): the check,
# the value (a local name), and the name its messages use.
_DEFS_CALL = re.compile(r"^(?P<indent> *)validate____defs_(?P<name>\w+)\((?P<value>\w+), custom_formats, .*\)$",
                        re.MULTILINE)


def with_shortcuts(code: str, schema: dict) -> str:
    """``code`` (fastjsonschema's, for ``schema``) with each call of the
    check of a ``$defs`` entry that has a :func:`shortcut` made only when
    the shortcut is false: ``if not (...):`` above the call, the call
    indented under it. A call of any other entry is left as it is."""
    defs = schema.get("$defs", {})
    checks = {}
    for name in defs:
        mangled = re.sub(r"[^a-zA-Z0-9]", "_", name)
        checks.setdefault(mangled, []).append(name)

    def rewritten(match: re.Match) -> str:
        found = checks.get(match.group("name"), [])
        test = shortcut(defs[found[0]], defs, match.group("value"), _Names(), (found[0],)) if len(found) == 1 else None
        if test is None or test == "True":
            return match.group(0)
        indent = match.group("indent")
        return f"{indent}if not ({test}):\n{indent}    {match.group(0).lstrip()}"

    return _DEFS_CALL.sub(rewritten, code)
