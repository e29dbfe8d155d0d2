"""The ``studygen`` console script and ``python -m studygen``.

Importing the command line takes a tenth of a second or more (click, the
error types); a Ctrl-C in that window used to end in a KeyboardInterrupt
traceback. Here the import itself is guarded, so the user sees the same one
line and exit code 130 as for a Ctrl-C later on.
"""

from __future__ import annotations

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # only while the CLI is being imported: later ones are caught in cli.run
    sys.stderr.write("studygen: interrupted\n")
    raise SystemExit(130) from None  # errors.EXIT_INTERRUPTED, not importable yet

__all__ = ["main"]
