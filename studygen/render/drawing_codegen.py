"""Writes :mod:`studygen.render.drawing_code_digests`: the code digest of each
set of drawing modules a chart names (:mod:`studygen.render.drawing_code`),
worked out at development time with the sha256 of each module's bytes and
the Python minor version, so that no check or render parses and dumps them
(about 6 ms a process). Run ``python -m studygen.render.drawing_codegen``
after changing a drawing module (drawing.py, labels.py, share_bars.py) or
the Python it runs under, and commit the result; ``--check`` exits 1
(writing nothing) when the committed module is not what this makes now
(``tests/render/test_drawing_code.py`` asserts the same).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..codegen import generated_marker, write_or_check
from .drawing_code import DRAWING_MODULES, SHARE_DRAWING_MODULES, computed_code_sha256, python_version, source_sha256

TARGET = Path(__file__).with_name("drawing_code_digests.py")


def generated_digests_source() -> str:
    """The text :data:`TARGET` must hold: for each tuple of drawing modules a
    chart names, the sha256 of each module's bytes and the code digest
    worked out from them, under this Python's minor version."""
    entries = [f"    {modules!r}: (\n        (\n" + "".join(f"            {source_sha256(m)!r},\n" for m in modules)
               + f"        ),\n        {computed_code_sha256(modules)!r},\n    )," for modules in (DRAWING_MODULES, SHARE_DRAWING_MODULES)]
    docstring = ('"""The code digest of each set of drawing modules a chart names, worked out at development\n'
                 "time by :mod:`studygen.render.drawing_codegen` from the modules' bytes (the first sha256s) under\n"
                 "the Python minor version in :data:`PYTHON_VERSION`; used only for those bytes, under that version.\n"
                 '"""')
    return "\n".join([docstring, generated_marker("studygen.render.drawing_codegen"), "",
                      f"PYTHON_VERSION = {python_version()!r}", "DIGESTS = {", *entries, "}"]) + "\n"


def main(argv=None) -> int:
    """Write :data:`TARGET`, or with ``--check`` say whether it is current (exit 1 when stale)."""
    return write_or_check(TARGET, generated_digests_source(), argv, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
