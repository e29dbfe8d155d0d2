"""The digest of the code that draws the charts, part of each chart's stamp
(:func:`studygen.render.charts.inputs_digest`): a change to that code makes a
committed chart stale, a moved import or a reworded comment does not.

:func:`computed_code_sha256` works it out from the modules' syntax trees
(about 6 ms for drawing.py and labels.py); :func:`code_sha256` takes it from
:mod:`.drawing_code_digests`, written at development time by
``python -m studygen.render.drawing_codegen`` (``--check`` exits 1, writing
nothing, when the committed module is not what this makes now;
``tests/render/test_drawing_code.py`` asserts the same), where the digest there
was worked out from the modules' exact bytes under this Python's minor
version (another parser may give another tree), and
works it out otherwise. Run it after changing a drawing module.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import sys
from pathlib import Path

from . import drawing_code_digests as shipped

# The modules whose code draws every chart; a chart drawn as shares also names share_bars.py.
DRAWING_MODULES = ("drawing.py", "labels.py")
SHARE_DRAWING_MODULES = DRAWING_MODULES + ("share_bars.py",)


@functools.cache
def code_sha256(modules: tuple[str, ...] = DRAWING_MODULES) -> str:
    """:func:`computed_code_sha256` of ``modules`` (file names of this
    package), from :mod:`.drawing_code_digests` where its entry for them was
    worked out from their present bytes under this Python's minor version
    (reading and hashing them: about 0.1 ms); worked out afresh otherwise."""
    entry = shipped.DIGESTS.get(modules)
    if entry is not None and shipped.PYTHON_VERSION == python_version():
        source_digests, code_digest = entry
        if list(source_digests) == [source_sha256(module) for module in modules]:
            return code_digest
    return computed_code_sha256(modules)


def python_version() -> str:
    """This Python's minor version, as ``"3.11"``."""
    return "%d.%d" % sys.version_info[:2]


def source_sha256(module: str) -> str:
    """sha256 (hex) of the bytes of the drawing ``module``, a file name of this package."""
    return hashlib.sha256((Path(__file__).resolve().parent / module).read_bytes()).hexdigest()


def computed_code_sha256(modules: tuple[str, ...] = DRAWING_MODULES) -> str:
    """sha256 over what the drawing ``modules`` (drawing.py, labels.py for the
    labels, share_bars.py) do: their syntax trees without docstrings and import statements,
    so moving an import or rewording a comment leaves committed charts
    current, while any change to the code that draws makes them stale. How
    the charts select their data is not in it: the data digest covers what
    that selection gives. Each module is parsed once a process
    (:func:`_code_dump`), also where two charts name it."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(_code_dump(module))
    return digest.hexdigest()


@functools.cache
def _code_dump(module: str) -> bytes:
    """:func:`stable_dump` of the drawing ``module``'s syntax tree without docstrings
    and imports (:func:`_without_docs_and_imports`), UTF-8: about 1.5 ms to
    parse and dump each, which a latency chart and a kernel-time chart each
    paid for drawing.py and labels.py before. Parsed from the file's bytes, decoded
    as Python's import decodes them: a UTF-8 byte order mark (an editor's) or
    an encoding declaration leaves the tree as it was, where decoding the text
    here first made the mark a character the parser refused (SyntaxError)."""
    source = (Path(__file__).resolve().parent / module).read_bytes()
    return stable_dump(_without_docs_and_imports(ast.parse(source))).encode("utf-8")


# Fields later Pythons added to nodes 3.11 has: left out where empty, as a tree of code 3.11 parses has them
# (3.12: a function's or class's type parameters).
_NEWER_FIELDS = frozenset({"type_params"})


def stable_dump(node) -> str:
    """``node`` as Python 3.11's ``ast.dump`` prints it (every field named,
    an optional field holding None left out), under any Python: 3.12 adds
    an empty ``type_params`` to every function and class and, in 3.12.1, an
    empty string part to a nested format spec (``f"{x:<{w}}"``); 3.13's
    ``ast.dump`` leaves out empty lists. With ``ast.dump`` the code digest of
    unchanged drawing modules was another under 3.12.1 and another again
    under 3.13 than under 3.10 and 3.11, so every committed chart read as
    stale there."""
    if isinstance(node, ast.AST):
        parts = []
        for name in node._fields:
            value = getattr(node, name, None)
            if value is None and name in _optional_fields(type(node)):
                continue
            if name in _NEWER_FIELDS and value in (None, []):
                continue
            if isinstance(node, ast.JoinedStr) and name == "values":  # no empty string part, as 3.11 parses it
                value = [part for part in value if not (isinstance(part, ast.Constant) and part.value == "")]
            parts.append(f"{name}={stable_dump(value)}")
        return f"{type(node).__name__}({', '.join(parts)})"
    if isinstance(node, list):
        return f"[{', '.join(stable_dump(item) for item in node)}]"
    return repr(node)


@functools.cache
def _optional_fields(kind: type) -> frozenset[str]:
    """The fields of node class ``kind`` that may hold None: from 3.13's
    ``_field_types`` annotations (``expr | None``), before that the fields
    whose class attribute is None."""
    types = getattr(kind, "_field_types", None)
    if types is not None:
        return frozenset(name for name, annotation in types.items() if "None" in repr(annotation))
    return frozenset(name for name in kind._fields if getattr(kind, name, ...) is None)


# The fields of a node that hold statements: only a statement, a handler or a match case has a body list of
# statements, and none sits inside an expression, so reading these fields from the module reaches them all.
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _without_docs_and_imports(tree: ast.Module) -> ast.Module:
    """``tree`` with every body list (module, class, function, loop, ``with``,
    ``try`` …) left without its import statements and then without a first
    string statement (a docstring), a body left empty holding ``pass``.
    Reaches the bodies through statement fields only (:data:`_STATEMENT_FIELDS`),
    not through every expression as ``ast.walk`` did (a fifth of the code digest)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        for name in _STATEMENT_FIELDS:
            children = getattr(node, name, None)
            if isinstance(children, list):
                pending.extend(children)
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        kept = [child for child in body if not isinstance(child, (ast.Import, ast.ImportFrom))]
        if kept and isinstance(kept[0], ast.Expr) and isinstance(getattr(kept[0], "value", None), ast.Constant) \
                and isinstance(kept[0].value.value, str):
            kept = kept[1:]
        node.body = kept or [ast.Pass()]
    return tree
