"""How many calls of studygen's own functions linting a text makes: the
measure the scaling tests compare between a text and one twice its size
(a count, not a time, so that the machine's load cannot change it)."""

from __future__ import annotations

import sys

from studygen.lint import lint_text


def own_calls(text: str) -> int:
    """Calls of studygen's own functions while linting ``text``, counted after
    a lint of its first 200 characters (imports, patterns compiled on first
    use and the regex module's cache are then behind; they depend on the
    tests run before)."""
    counted = [0]

    def hook(frame, event, arg):
        if event == "call" and "studygen" in frame.f_code.co_filename:
            counted[0] += 1

    lint_text(text[:200], "warm.md")
    sys.setprofile(hook)
    try:
        lint_text(text, "scaling.md")
    finally:
        sys.setprofile(None)
    return counted[0]
