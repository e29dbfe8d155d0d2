"""Writes the Python code Jinja generates from each built-in template
(``studygen/render/templates/*.j2``), made at development time, so that no
process lexes, parses and generates them again (about 25 ms of the 35 ms the
generic template took to compile in every ``render`` and ``check``), nor
compiles that code (about 4.4 ms of Python's ``compile`` a process): each
template's code is a module of its own (``generic.md.j2``'s is
:mod:`studygen.render.generic_template_code`), whose code object Python's
import system gives from its bytecode in ``__pycache__`` like any module's
(:func:`studygen.render.template_memo.shipped_code`; the module is never
executed as one). :mod:`studygen.render.compiled_templates` indexes them.

Run ``python -m studygen.render.template_codegen`` after changing a built-in
template, the template environment (:func:`studygen.render.engine.make_environment`:
its options, its ``_parse`` and the code generator of
:mod:`studygen.render.limits`) or the installed Jinja, and commit the result;
``--check`` exits 1 (writing nothing) when a committed module is not what
this makes now (``tests/render/test_compiled_templates.py`` asserts the same).

Each template's code is what ``Environment.compile(source, name, filename,
raw=True)`` of that environment gives, line for line, the generated-module
marker in place of its first empty line (a comment where a blank line was:
the code object is the same, its line numbers too); the index records the
sha256 of the template's text and the templates it names
(``jinja2.meta.find_referenced_templates``, which SG211 reads); the
environment uses the code only for that text, under the Jinja version
recorded (:func:`studygen.render.template_memo.shipped_template`).
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import jinja2

from ..codegen import generated_marker, write_or_check
from .engine import BUILTIN_PREFIX, make_environment

TARGET = Path(__file__).with_name("compiled_templates.py")
TEMPLATES = Path(__file__).with_name("templates")
MARKER = generated_marker("studygen.render.template_codegen")
# a code module's code names Jinja's ``environment``, which only the namespace Jinja runs it in gives
CODE_MARKER = MARKER + "; not importable: template_memo.shipped_code reads its code object"

_DOCSTRING = '''"""Where the Python code Jinja generates from each built-in template
(``studygen/render/templates``) is, written at development time by
:mod:`studygen.render.template_codegen` so that no process generates it again.

:data:`GENERATED` maps a template's name to the sha256 of the text the code
was made from, the templates that text names and the module holding the
code (never executed as a module: its code object is what
:func:`studygen.render.template_memo.shipped_code` gives);
:func:`studygen.render.template_memo.shipped_template` gives them only for
that text and under the Jinja version in :data:`JINJA2_VERSION`, and any
other text is parsed and compiled as before.
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


def code_module(name: str) -> str:
    """The module holding the code of the built-in template ``name``:
    ``generic.md.j2``'s is ``studygen.render.generic_template_code``."""
    stem = re.sub(r"\W", "_", name.split(".", 1)[0])
    return f"{__package__}.{stem}_template_code"


def module_path(module: str) -> Path:
    """The file of ``module``, one of :func:`code_module`'s."""
    return Path(__file__).with_name(module.rsplit(".", 1)[1] + ".py")


def marked_code(code: str) -> str:
    """Jinja's ``code`` with :data:`CODE_MARKER` in place of its first empty line,
    which lies in the first 2,000 characters (where the style and layer tests
    look for the marker), and a line break after its last line. Raises
    ValueError when there is no such line."""
    head = code[:2000].split("\n")[:-1]
    if "" not in head:
        raise ValueError("Jinja's code has no empty line near its top to hold the generated-module marker")
    lines = code.split("\n")
    lines[head.index("")] = CODE_MARKER
    return "\n".join(lines) + "\n"


def generated_modules() -> dict[Path, str]:
    """The text each generated file must hold, made from the built-in
    templates as they are now: the index (:data:`TARGET`) and each
    template's code module."""
    env = make_environment([])
    entries, texts = [], {}
    for name, source, filename, digest in builtin_templates(env):
        module = code_module(name)
        if module_path(module) in texts:
            raise ValueError(f"{name}: its code module {module} is another built-in template's too (rename one)")
        texts[module_path(module)] = marked_code(env.compile(source, name, filename, raw=True))
        references = env.parsed(source).references
        entries.append(f"    {name!r}: ({digest!r}, {references!r}, {module!r}),")
    texts[TARGET] = "\n".join([_DOCSTRING, MARKER, "", f"JINJA2_VERSION = {jinja2.__version__!r}",
                               "GENERATED = {", *entries, "}"]) + "\n"
    return texts


def main(argv=None) -> int:
    """Write the modules, or with ``--check`` say whether each is current (exit 1 when one is stale)."""
    codes = [write_or_check(target, text, argv, __doc__.splitlines()[0])
             for target, text in generated_modules().items()]
    return max(codes)


if __name__ == "__main__":
    sys.exit(main())
