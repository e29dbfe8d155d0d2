"""Writes :mod:`studygen.render.compiled_templates`: the Python code Jinja
generates from each built-in template (``studygen/render/templates/*.j2``),
made at development time, so that no process lexes, parses and generates
them again (about 25 ms of the 35 ms the generic template took to compile in
every ``render`` and ``check``; only Python's ``compile`` of that code is
left, about 9 ms).

Run ``python -m studygen.render.template_codegen`` after changing a built-in
template, the template environment (:func:`studygen.render.engine.make_environment`:
its options, its ``_parse`` and the code generator of
:mod:`studygen.render.limits`) or the installed Jinja, and commit the result;
``--check`` exits 1 (writing nothing) when the committed module is not what
this makes now (``tests/render/test_compiled_templates.py`` asserts the same).

Each template's code is what ``Environment.compile(source, name, filename,
raw=True)`` of that environment gives, recorded with the sha256 of the
template's text and the templates it names (``jinja2.meta.find_referenced_templates``,
which SG211 reads); the environment uses them only for that text, under the
Jinja version recorded (:func:`studygen.render.template_memo.shipped_template`).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import jinja2

from ..codegen import generated_marker, write_or_check
from .engine import BUILTIN_PREFIX, make_environment

TARGET = Path(__file__).with_name("compiled_templates.py")
TEMPLATES = Path(__file__).with_name("templates")
MARKER = generated_marker("studygen.render.template_codegen")

_DOCSTRING = '''"""The Python code Jinja generates from each built-in template
(``studygen/render/templates``), written at development time by
:mod:`studygen.render.template_codegen` so that no process generates it again.

:data:`GENERATED` maps a template's name to the sha256 of the text the code
was made from, the templates that text names and the code;
:func:`studygen.render.template_memo.shipped_template` gives them only for that
text and under the Jinja version in :data:`JINJA2_VERSION`, and any other
text is parsed and compiled as before.
"""'''


def builtin_templates(env) -> list[tuple[str, str, str, str]]:
    """``(name, source, filename, sha256 of source)`` of each built-in
    template, by name, as ``env`` (:func:`~studygen.render.engine.make_environment`)
    loads it: what both code generators work from."""
    found = []
    for path in sorted(TEMPLATES.glob("*.j2")):
        source, filename, _ = env.loader.get_source(env, f"{BUILTIN_PREFIX}/{path.name}")
        found.append((path.name, source, filename, hashlib.sha256(source.encode("utf-8")).hexdigest()))
    return found


def generated_templates_source() -> str:
    """The text :data:`TARGET` must hold, made from the built-in templates as they are now."""
    env = make_environment([])
    entries = []
    for name, source, filename, digest in builtin_templates(env):
        code = env.compile(source, name, filename, raw=True)
        references = env.parsed(source).references
        lines = "\n".join(f"        {line!r}" for line in code.splitlines(keepends=True))
        entries.append(f"    {name!r}: (\n        {digest!r},\n        {references!r},\n{lines}\n    ),")
    return "\n".join([_DOCSTRING, MARKER, "", f"JINJA2_VERSION = {jinja2.__version__!r}",
                      "GENERATED = {", *entries, "}"]) + "\n"


def main(argv=None) -> int:
    """Write the module, or with ``--check`` say whether it is current (exit 1 when stale)."""
    return write_or_check(TARGET, generated_templates_source(), argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
