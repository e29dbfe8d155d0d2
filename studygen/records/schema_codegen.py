"""Writes :mod:`studygen.records.schema_checks`: the compiled yes/no checks of
the shipped JSON Schemas as Python source, made at development time, so that
no studygen process compiles them (fastjsonschema took about 0.09 s of every
process that loads a record, study file or dataset definition).

Run ``python -m studygen.records.schema_codegen`` after changing a schema in
``studygen/schemas/`` or the installed fastjsonschema, and commit the result;
``--check`` exits 1 (writing nothing) when the committed module is not what
this makes now (``tests/records/test_schema_checks.py`` asserts the same).

The checks are those :mod:`studygen.records.schemas` compiles in the process
when a schema file is not the one the module was made from: the run-record
envelope and each result kind (:func:`~studygen.records.schemas.fast_run_schemas`),
the study file and the dataset definition
(:func:`~studygen.records.schemas._document_check_schema`), each written by
``fastjsonschema.compile_to_code`` with the same options
(:data:`~studygen.records.schemas.COMPILE_OPTIONS`, ``const`` as a one-value
``enum``), the names of referenced checks left unformatted
(:func:`unformatted_reference_names`). Each becomes one function returning its ``validate``; the imports
every piece of generated code begins with are written once, at the top.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import sys
import textwrap
from pathlib import Path

import fastjsonschema

from ..codegen import generated_marker, write_or_check
from . import schemas
from .schema_shortcuts import with_shortcuts

TARGET = Path(__file__).with_name("schema_checks.py")
MARKER = generated_marker("studygen.records.schema_codegen")

_DOCSTRING = '''"""The compiled yes/no checks of the JSON Schemas in ``studygen/schemas/``,
written by ``fastjsonschema.compile_to_code`` at development time
(:mod:`studygen.records.schema_codegen`), so that no process compiles them.

Each function returns a ``validate(document)`` that raises
``fastjsonschema.JsonSchemaValueException`` for a document its schema
refuses: :data:`DOCUMENT_CHECKS` for the run-record envelope, the study file
and the dataset definition, :data:`RUN_RESULT_CHECKS` for one result of each
kind. :mod:`studygen.records.schemas` uses them only while a schema file's
sha256 is the one in :data:`SOURCE_SHA256`; it compiles any other text
itself. Made with the fastjsonschema version in :data:`FASTJSONSCHEMA_VERSION`.
"""'''


def _compiled_pieces() -> tuple[dict[str, str], list[tuple[str, str, str, str]]]:
    """The sha256 of each schema file read, and ``(function name, table, key)``
    with the generated code, for every check :mod:`~studygen.records.schemas` makes."""
    digests, pieces = {}, []
    for kind in ("run", *schemas.FAST_DOCUMENT_KINDS):
        data = schemas.schema_bytes(kind)
        digests[schemas.SCHEMA_FILES[kind]] = hashlib.sha256(data).hexdigest()
        if kind == "run":
            split = schemas.fast_run_schemas(json.loads(data))
            if split is None:
                raise SystemExit("the run-record schema no longer splits into an envelope and result kinds")
            envelope, per_kind = split
            pieces.append(("_run_envelope", "DOCUMENT_CHECKS", "run", envelope))
            pieces.extend((f"_run_result_{name}", "RUN_RESULT_CHECKS", name, per_kind[name]) for name in sorted(per_kind))
        else:
            draft_07 = schemas._document_check_schema(kind, data)
            if draft_07 is None:
                raise SystemExit(f"the {kind} schema uses a keyword a compiled check does not share")
            pieces.append((f"_{kind}", "DOCUMENT_CHECKS", kind, draft_07))
    return digests, [(name, table, key, with_shortcuts(lean_checks(
        fastjsonschema.compile_to_code(schemas._const_as_enum(schema), **schemas.COMPILE_OPTIONS)), schema))
                     for name, table, key, schema in pieces]


# A call fastjsonschema 2.22 writes for a "$ref" inside a list or mapping: the referenced check, given the
# value and the name its messages use, made with str.format(**locals()) from the loop's index or key.
_REFERENCE_CALL = re.compile(
    r'^(?P<call>\s*validate_\w+\(\w+, custom_formats, \(name_prefix or "data"\) \+ "[^"\\]*")'
    r'\.format\(\*\*locals\(\)\)\)$', re.MULTILINE)


def unformatted_reference_names(code: str) -> str:
    """``code`` (fastjsonschema's) with the name passed to a referenced
    check left as its template (``.groups[{data__groups_x}].kernels[...]``)
    instead of filled in by ``.format(**locals())`` on every call: ``locals()``
    copies every local of the large calling function, once per kernel entry
    of a record (half the time of checking the shipped H200 records). The
    name only words the check's message, and studygen reads only whether a
    check raises (jsonschema words every error it reports), so what each
    check accepts is unchanged. A line of any other form is left as it is."""
    return _REFERENCE_CALL.sub(lambda match: match.group("call") + ")", code)


# A refusal fastjsonschema 2.22 words with the index or key of a list or mapping it is in: its message made with
# str.format(**locals()) when raised, also inside a oneOf branch that is expected to fail and is caught.
_FORMATTED_MESSAGE = re.compile(r'^(?P<start>\s*raise JsonSchemaValueException\(.*?"[^"\\]*")\.format\(\*\*locals\(\)\)',
                                re.MULTILINE)


def unformatted_messages(code: str) -> str:
    """``code`` (fastjsonschema's) with each refusal's message left as its
    template (``.groups[{data__groups_x}] must contain``) instead of filled
    in by ``.format(**locals())``: a group of a kernel-time result fails two
    of its three ``oneOf`` branches, each failure a copy of every local of
    the large checking function (about 270 copies for the shipped records).
    As for :func:`unformatted_reference_names`, only the message's words
    change: studygen reads only whether a check raises."""
    return _FORMATTED_MESSAGE.sub(lambda match: match.group("start"), code)


# fastjsonschema 2.22 tests a number's type ("integer": an int or an integral float; "number": an int, float or
# Decimal; never a bool), raising when it fails, and then tests the type again before the bounds: a test that
# cannot fail once the first passed (a nullable type, "(int, NoneType)", is left alone: None fails the second).
_TYPE_TESTS = (r"not isinstance\((?P<v>\w+), \(int\)\) and not \(isinstance\((?P=v), float\) and "
               r"(?P=v)\.is_integer\(\)\) or isinstance\((?P=v), bool\)",
               r"not isinstance\((?P<v>\w+), \(int, float, Decimal\)\) or isinstance\((?P=v), bool\)")
_NUMBER_TESTED_TWICE = re.compile(
    rf"^(?P<head>(?P<indent> *)if (?:{_TYPE_TESTS[0]}|{_TYPE_TESTS[1].replace('<v>', '<w>').replace('=v)', '=w)')}):\n"
    r"(?P=indent)    raise [^\n]*\n(?P=indent))"
    r"if isinstance\((?P<again>\w+), \(int, float, Decimal\)\) and not isinstance\((?P=again), bool\):$",
    re.MULTILINE)


def type_tested_once(code: str) -> str:
    """``code`` (fastjsonschema's) with the second test of a number's type,
    right after the first raised for any other type, written ``if True:``
    (which Python compiles to nothing): the value reaching it is an int or
    a float and no bool, so the test always passed. Three ``isinstance``
    calls fewer for every bounded figure and count of a record."""
    def rewritten(match: re.Match) -> str:
        tested = match.group("v") or match.group("w")
        if tested != match.group("again"):
            return match.group(0)
        return f"{match.group('head')}if True:  # its type tested above"
    return _NUMBER_TESTED_TWICE.sub(rewritten, code)


# fastjsonschema 2.22 tests a string "enum" value by value: "isinstance(v, str) and v == 'a' or isinstance(v, str) and
# v == 'b' or ..." (a result's kind against ten names, each time a result is checked).
_ENUM_CHAIN = re.compile(r"\bif not \((?P<chain>isinstance\((?P<v>\w+), str\) and (?P=v) == '[^'\\]*'"
                         r"(?: or isinstance\((?P=v), str\) and (?P=v) == '[^'\\]*')+)\):$", re.MULTILINE)
_ENUM_VALUE = re.compile(r" == ('[^'\\]*')")


def enum_as_set(code: str) -> str:
    """``code`` (fastjsonschema's) with each string enum of two or more
    values tested as one set lookup, ``isinstance(v, str) and v in {'a',
    'b'}``: for a string, equal to one of the values is in the set of them,
    and anything else fails both tests alike."""
    def rewritten(match: re.Match) -> str:
        values = ", ".join(_ENUM_VALUE.findall(match.group("chain")))
        return f"if not (isinstance({match.group('v')}, str) and {match.group('v')} in {{{values}}}):"
    return _ENUM_CHAIN.sub(rewritten, code)


def lean_checks(code: str) -> str:
    """``code`` (fastjsonschema's) as the generated module holds it: names of
    referenced checks and refusal messages unformatted, each number's type
    tested once, string enums looked up in a set (:func:`unformatted_reference_names`,
    :func:`unformatted_messages`, :func:`type_tested_once`, :func:`enum_as_set`);
    what it accepts and refuses is fastjsonschema's."""
    return enum_as_set(type_tested_once(unformatted_messages(unformatted_reference_names(code))))


def _split(code: str) -> tuple[list[str], list[ast.stmt], str]:
    """A generated module's import lines, its other statements (but the
    ``VERSION`` line) parsed, and their source text."""
    tree = ast.parse(code)
    lines = code.splitlines()
    imports, body = [], []
    for node in tree.body:
        text = "\n".join(lines[node.lineno - 1:node.end_lineno])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(text)
        elif not (isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "VERSION"):
            body.append(node)
    first = body[0].lineno - 1
    return imports, body, "\n".join(lines[first:]).strip("\n")


def generated_checks_source() -> str:
    """The text :data:`TARGET` must hold, made from the schema files as the package ships them now.

    Raises SystemExit when a schema no longer has the shape the compiled checks need."""
    digests, pieces = _compiled_pieces()
    imports, functions, expected = [], [], {}
    for name, _, _, code in pieces:
        piece_imports, body, text = _split(code)
        imports.extend(line for line in piece_imports if line not in imports)
        expected[name] = [ast.dump(node) for node in body]
        indented = "\n".join(("    " + line) if line.strip() else "" for line in text.splitlines())
        functions.append(f"def {name}():\n{indented}\n    return validate\n")
    tables = {}
    for name, table, key, _ in pieces:
        tables.setdefault(table, []).append(f"    {key!r}: {name},")
    digest_lines = "".join(f"    {file!r}: {digest!r},\n" for file, digest in sorted(digests.items()))
    text = "\n".join([
        _DOCSTRING, MARKER, "", *imports, "",
        f"FASTJSONSCHEMA_VERSION = {fastjsonschema.VERSION!r}",
        f"SOURCE_SHA256 = {{\n{digest_lines}}}", "", "",
        "\n\n".join(functions), "",
        *(f"{table} = {{\n" + "\n".join(rows) + "\n}" for table, rows in tables.items()),
    ]) + "\n"
    _same_code(text, expected)
    return text


def _same_code(text: str, expected: dict[str, list[str]]) -> None:
    """Raise SystemExit unless each function of ``text`` holds the statements
    fastjsonschema generated, unchanged by the indentation (a string literal
    over several lines would not be)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and [ast.dump(n) for n in node.body[:-1]] != expected[node.name]:
            raise SystemExit(f"{node.name}: the generated code changed when indented into a function")


def main(argv=None) -> int:
    """Write the module, or with ``--check`` say whether it is current (exit 1 when stale)."""
    return write_or_check(TARGET, generated_checks_source(), argv, textwrap.dedent(__doc__).splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
