"""Writes :mod:`studygen.checks.builtin_template_figures`: what the literal-figures check reads
in each built-in template (``studygen/render/templates/*.j2``), worked out
at development time. Render runs a built-in template's shipped code
(:mod:`studygen.render.template_codegen`) and parses none, so that check was
the one reader of the generic template's tree in every ``check``: about 14 ms
a process (a 10 ms parse and 3.5 ms of reading), now a sha256 of its text.

Run ``python -m studygen.checks.template_figures_codegen`` after changing a
built-in template, the check (:mod:`~studygen.checks.sg211_literal_figures`,
:mod:`~studygen.checks.template_literals`, the ``NUMBER`` pattern of
:mod:`~studygen.checks.readme_text`) or the installed Jinja, and commit the
result; ``--check`` exits 1 (writing nothing) when the committed module is
not what this makes now (``tests/checks/test_builtin_template_figures.py``
asserts the same, and that each entry is what the check works out afresh).

Each template's entry is the sha256 of its text, :func:`~studygen.checks.sg211_literal_figures.worked_out_figures`
and :func:`~studygen.checks.sg211_literal_figures.worked_out_reference_lines`
of that text; the check uses them only for that text, under the Jinja version
recorded (:func:`~studygen.checks.sg211_literal_figures.shipped_figures`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import jinja2

from ..codegen import generated_marker, write_or_check
from ..render.engine import make_environment
from ..render.template_codegen import builtin_templates
from .sg211_literal_figures import worked_out_figures, worked_out_reference_lines

TARGET = Path(__file__).with_name("builtin_template_figures.py")
MARKER = generated_marker("studygen.checks.template_figures_codegen")

_DOCSTRING = '''"""What the literal-figures check reads in each built-in template (``studygen/render/templates``),
worked out at development time by :mod:`studygen.checks.template_figures_codegen`
so that no check process parses a built-in template for it.

:data:`FIGURES` maps a template's name to the sha256 of the text it was
worked out from, its literal figures by line and the lines that name a
computed template; :func:`studygen.checks.sg211_literal_figures.shipped_figures`
gives them only for that text and under the Jinja version in
:data:`JINJA2_VERSION`, and any other text is read as before.
"""'''


def generated_figures_source() -> str:
    """The text :data:`TARGET` must hold, worked out from the built-in templates as they are now."""
    env = make_environment([])
    entries = []
    for name, source, _, digest in builtin_templates(env):
        figures, lines = worked_out_figures(source), worked_out_reference_lines(source)
        entries.append(f"    {name!r}: (\n        {digest!r},\n        {figures!r},\n        {lines!r},\n    ),")
    return "\n".join([_DOCSTRING, MARKER, "", f"JINJA2_VERSION = {jinja2.__version__!r}",
                      "FIGURES = {", *entries, "}"]) + "\n"


def main(argv=None) -> int:
    """Write the module, or with ``--check`` say whether it is current (exit 1 when stale)."""
    return write_or_check(TARGET, generated_figures_source(), argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
