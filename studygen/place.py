"""Where something is: the one location type of errors, load problems and findings.

A :class:`Place` names a file (as shown to the user, relative to the project
root where it lies inside it), a 1-based line (0 when unknown) and a JSON
pointer (RFC 6901) into the file when it is a JSON or YAML document. An error,
a problem met while loading a study, and a finding all carry one, so a place
is never a string to be parsed back (pyflakes keeps one such type per message).
"""

from __future__ import annotations

from typing import NamedTuple


class Place(NamedTuple):
    """A file, and optionally a line (1-based) and a JSON pointer in it."""

    path: str = ""
    line: int = 0
    pointer: str | None = None

    def at_line(self, line: int) -> "Place":
        """The same place with ``line`` filled in (a pointer resolved to its line)."""
        return Place(self.path, line, self.pointer)

    def shown(self) -> str:
        """``path:line`` (``path:pointer`` when no line is known, ``path`` alone
        when neither is): the form editors and CI annotations jump to."""
        if not self.path:
            return ""
        if self.line:
            return f"{self.path}:{self.line}"
        if self.pointer is not None:
            return f"{self.path}:{self.pointer}"
        return self.path

    def __str__(self) -> str:
        return self.shown()

    def said(self, text: str) -> str:
        """``text`` said at this place, as errors and findings print it:
        ``path:line: text (pointer)``, the pointer after the text when the
        line is known too (editors and CI annotations jump to ``path:N:``;
        the pointer says which field), else ``path:pointer: text`` or
        ``path: text``; ``text`` alone when the place names no file."""
        if not self.path:
            return text
        pointer = f" ({self.pointer})" if self.pointer and self.line else ""
        return f"{self.shown()}: {text}{pointer}"
