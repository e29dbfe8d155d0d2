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

The same test stands in front of a whole check (:func:`with_shortcuts`):
a run record's envelope and each result kind are tested in one expression
first, and fastjsonschema's check runs only when it is false. Those schemas
also use string enums and constants, patterns (tested with the compiled
pattern of the check itself), pattern-named keys, ``allOf`` and ``anyOf``;
an optional property whose schema has no shortcut (a ``oneOf``) makes the
expression true only where that property is absent.
"""

from __future__ import annotations

import ast
import re

# Keywords a shortcut reads, with the annotations it may pass by; any other keyword (a pattern, an enum, a default
# that fastjsonschema's check would write into the value) leaves its entry without a shortcut.
_ANNOTATIONS = frozenset({"description", "title", "$comment"})
_READ = frozenset({"type", "required", "properties", "additionalProperties", "items", "minItems", "maxItems",
                   "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "$ref",
                   "enum", "const", "pattern", "propertyNames", "allOf", "anyOf", "oneOf"})
_DEFS_PREFIX = "#/$defs/"
# The exact type of each JSON type's values as parsed (bool is no int here, and an integral float is left to the check).
_EXACT_TYPE = {"string": "str", "integer": "int", "boolean": "bool", "array": "list", "object": "dict"}
# Unrolled up to this many items; a longer or unsized list is tested item by item with all().
_UNROLLED_ITEMS = 4
_LOWER = {"minimum": "<=", "exclusiveMinimum": "<"}  # fastjsonschema refuses v < minimum, v <= exclusiveMinimum
_UPPER = {"maximum": "<=", "exclusiveMaximum": "<"}


class _Names:
    """Fresh local names for the values a shortcut binds (``shortcut__1``, ...), none of fastjsonschema's,
    and ``patterns``: the patterns its check compiled (keys of the check's ``REGEX_PATTERNS``), which a
    shortcut may test with (a pattern outside them leaves its schema without a shortcut)."""

    def __init__(self, patterns=frozenset()):
        self.count = 0
        self.patterns = frozenset(patterns)

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
    if isinstance(kind, list) and set(schema) - _ANNOTATIONS == {"type"} and kind \
            and all(isinstance(name, str) and (name in _EXACT_TYPE or name in ("number", "null")) for name in kind):
        return "(" + " or ".join(_one_type(name, value) for name in kind) + ")"  # a list of types alone: one of them
    if kind is None:
        kind = _implied_type(schema)
        tests = [] if kind is None else [_one_type(kind, value)]
    elif isinstance(kind, str) and (kind in _EXACT_TYPE or kind == "number"):
        tests = [_one_type(kind, value)]
    else:
        return None  # null, an unknown type, a list of types beside other keywords
    if not tests and not {"allOf", "anyOf"} & set(schema):
        return None  # nothing the expression could test
    chosen = _chosen_tests(schema, kind, defs, value, names, seen)
    if chosen is None:
        return None
    tests += chosen
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


def _one_type(name: str, value: str) -> str:
    """The test of one JSON type of a list of types, as :func:`shortcut` tests a single type."""
    if name == "null":
        return f"{value} is None"
    if name == "number":
        return f"isinstance({value}, (int, float)) and type({value}) is not bool"
    return f"type({value}) is {_EXACT_TYPE[name]}"


def _implied_type(schema) -> str | None:
    """The type a schema without ``type`` lets the expression test for: that
    of its listed values (all text, or all integers), a number where it has
    bounds (which fastjsonschema applies to numbers only, letting anything
    else through: the expression, true for numbers alone, holds less
    often, never wrongly); None otherwise."""
    if "enum" in schema or "const" in schema:
        allowed = schema["enum"] if "enum" in schema else [schema["const"]]
        if isinstance(allowed, list) and allowed and all(type(item) is str for item in allowed):
            return "string"
        if isinstance(allowed, list) and allowed and all(type(item) is int for item in allowed):
            return "integer"
        return None
    return "number" if any(keyword in schema for keyword in (*_LOWER, *_UPPER)) else None


def _chosen_tests(schema, kind, defs, value, names, seen) -> list[str] | None:
    """The tests of ``enum``, ``const``, ``pattern``, ``allOf``, ``anyOf``
    and ``oneOf`` on a value of JSON type ``kind``: text or integer values
    of that type only (fastjsonschema compares values with ``==``, under
    which ``1 == 1.0 == True``), patterns of the check, a ``oneOf`` only of
    objects, each branch a ``required`` list (exactly one branch holds: its
    keys are there, another's are not); None when one is not of that form."""
    tests = []
    if "enum" in schema or "const" in schema:
        allowed = schema["enum"] if "enum" in schema else [schema["const"]]
        exact = {"string": str, "integer": int}.get(kind)
        if exact is None or not isinstance(allowed, list) or not allowed \
                or not all(type(item) is exact for item in allowed):
            return None
        if "enum" in schema and "const" in schema and schema["const"] not in schema["enum"]:
            return None  # nothing passes both: no expression is true
        listed = sorted(set([schema["const"]] if "const" in schema else allowed))
        tests.append(f"{value} == {listed[0]!r}" if len(listed) == 1
                     else f"{value} in {{{', '.join(map(repr, listed))}}}")
    if "pattern" in schema:
        if kind != "string" or schema["pattern"] not in names.patterns:
            return None
        tests.append(f"REGEX_PATTERNS[{schema['pattern']!r}].search({value})")
    for keyword, joined in (("allOf", " and "), ("anyOf", " or ")):
        if keyword in schema:
            parts = schema[keyword]
            inner = [shortcut(part, defs, value, names, seen) for part in parts] if isinstance(parts, list) else [None]
            if not inner or None in inner:
                return None
            tests.append("(" + joined.join(f"({part})" for part in inner) + ")")
    if "oneOf" in schema:
        branches = schema["oneOf"]
        if kind != "object" or not isinstance(branches, list) or len(branches) < 2 or not all(
                isinstance(branch, dict) and set(branch) - _ANNOTATIONS == {"required"}
                and isinstance(branch["required"], list) and branch["required"]
                and all(isinstance(key, str) for key in branch["required"]) for branch in branches):
            return None
        held = [" and ".join(f"{key!r} in {value}" for key in dict.fromkeys(branch["required"])) for branch in branches]
        tests.append(" + ".join(f"({part})" for part in held) + " == 1")
    return tests


def _no_more_tests(schema, defs, value, names, seen) -> list[str] | None:
    nested = {"required", "properties", "additionalProperties", "items", "minItems", "maxItems", "propertyNames"}
    return None if nested & set(schema) else []


def _object_tests(schema, defs, value, names, seen) -> list[str] | None:
    if {"items", "minItems", "maxItems", "minLength", "maxLength"} & set(schema):
        return None
    key_tests = _key_tests(schema.get("propertyNames", True), value, names)
    if key_tests is None:
        return None
    properties, required = schema.get("properties", {}), schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    if not isinstance(properties, dict) or not isinstance(required, list) \
            or not all(isinstance(key, str) for key in [*properties, *required]):
        return None
    tests = [f"{key!r} in {value}" for key in dict.fromkeys(required)] + key_tests
    if extra is False:
        known = ", ".join(repr(key) for key in sorted(properties))
        tests.append(f"{value}.keys() <= {{{known}}}" if properties else f"not {value}")
    elif extra is not True:  # a schema for every value of a key outside properties
        local = names.fresh()
        inner = shortcut(extra, defs, local, names, seen)
        if inner is None:
            return None
        if inner != "True" and properties:
            key = names.fresh()
            known = ", ".join(repr(name) for name in sorted(properties))
            tests.append(f"all({inner} for {key}, {local} in {value}.items() if {key} not in {{{known}}})")
        elif inner != "True":
            tests.append(f"all({inner} for {local} in {value}.values())")
    for key, subschema in properties.items():
        local = names.fresh()
        inner = shortcut(subschema, defs, local, names, seen)
        if inner is None and (key in required or _may_write_default(subschema, defs)):
            return None
        if inner is None:  # an optional property the expression cannot judge: true only without it
            tests.append(f"{key!r} not in {value}")
            continue
        if inner == "True":
            continue
        bound = _named_at_first_use(inner, local, f"{value}[{key!r}]")
        tests.append(f"({bound})" if key in required else f"({key!r} not in {value} or {bound})")
    return tests


def _may_write_default(schema, defs: dict) -> bool:
    """Whether fastjsonschema's check of ``schema`` (its ``$defs`` followed)
    could write a ``default`` into the value it checks: skipping that check
    would then change the value, not only the time it takes. Any key named
    ``default`` counts, also a property of that name (too cautious, never wrong)."""
    stack, followed = [schema], set()
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if "default" in node:
                return True
            target = node.get("$ref")
            if isinstance(target, str) and target.startswith(_DEFS_PREFIX) and target not in followed:
                followed.add(target)
                stack.append(defs.get(target.removeprefix(_DEFS_PREFIX)))
            stack.extend(node.values())
    return False


def _key_tests(schema, value: str, names: _Names) -> list[str] | None:
    """The test of an object's keys under ``propertyNames``: none for every
    key, a pattern of the check's for each (JSON keys are text), else None."""
    if schema is True or schema == {}:
        return []
    if not isinstance(schema, dict) or set(schema) - _ANNOTATIONS != {"pattern"} or schema["pattern"] not in names.patterns:
        return None
    # the pattern's search mapped over the keys in C: a generator's frame per key cost a fifth of a latency's check
    return [f"all(map(REGEX_PATTERNS[{schema['pattern']!r}].search, {value}))"]


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


def compiled_patterns(code: str) -> frozenset[str]:
    """The patterns fastjsonschema's ``code`` compiles (the keys of its
    module-level ``REGEX_PATTERNS``; none when it has no such table, or is
    no module: a piece of a function's body)."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return frozenset()
    for node in body:
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["REGEX_PATTERNS"] \
                and isinstance(node.value, ast.Dict):
            return frozenset(ast.literal_eval(key) for key in node.value.keys)
    return frozenset()


# Code put after fastjsonschema's check of a whole document: its shortcut first, its check only when that is false.
_WHOLE_CHECK = """


validate_in_full = validate


def validate(data, custom_formats={{}}, name_prefix=None):
    if {test}:
        return data
    return validate_in_full(data, custom_formats, name_prefix)
"""


def with_shortcuts(code: str, schema: dict) -> str:
    """``code`` (fastjsonschema's, for ``schema``) with each call of the
    check of a ``$defs`` entry that has a :func:`shortcut` made only when
    the shortcut is false: ``if not (...):`` above the call, the call
    indented under it (a call of any other entry is left as it is); and,
    where ``schema`` itself has a shortcut (``$defs`` and ``$schema`` set
    aside), ``validate`` testing it first (:data:`_WHOLE_CHECK`). Each
    shortcut may test the patterns ``code`` compiles."""
    defs = schema.get("$defs", {})
    patterns = compiled_patterns(code)
    checks = {}
    for name in defs:
        mangled = re.sub(r"[^a-zA-Z0-9]", "_", name)
        checks.setdefault(mangled, []).append(name)

    def rewritten(match: re.Match) -> str:
        found = checks.get(match.group("name"), [])
        test = shortcut(defs[found[0]], defs, match.group("value"), _Names(patterns), (found[0],)) \
            if len(found) == 1 else None
        if test is None or test == "True":
            return match.group(0)
        indent = match.group("indent")
        return f"{indent}if not ({test}):\n{indent}    {match.group(0).lstrip()}"

    code = _DEFS_CALL.sub(rewritten, code)
    whole = {key: value for key, value in schema.items() if key not in ("$defs", "$schema")} \
        if isinstance(schema, dict) else schema
    test = shortcut(whole, defs, "data", _Names(patterns))
    if test is None or test == "True":  # None also where a default could be written (see _may_write_default)
        return code
    return code.rstrip("\n") + _WHOLE_CHECK.format(test=test)
