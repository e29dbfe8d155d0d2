"""Exception hierarchy mapped to exit codes (after cogapp/errors.py).

Every error the user can cause ends in one line naming the file and the place,
never a traceback. ``cli.main`` maps each class to its exit code.
"""

from __future__ import annotations

import re

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C

_LINE = re.compile(r"line (\d+)")


class StudygenError(Exception):
    """Base class: a clean one-line error. ``exit_code`` says how the CLI exits."""

    exit_code = EXIT_USAGE

    def __init__(self, message: str, *, path: str | None = None, where: str | None = None):
        self.message = message
        self.path = path
        self.where = where
        super().__init__(self.line())

    def line(self) -> str:
        """The error as ``path:where: message`` (parts present only when known).

        A place given as ``line N`` prints as ``path:N:``, as findings and
        compilers print it (editors and CI annotations jump to it); any other
        place (a JSON pointer, ``run 2 (line 5)``) prints as given.
        """
        prefix = ""
        if self.path:
            prefix = f"{self.path}:"
            if self.where:
                number = _LINE.fullmatch(self.where)
                prefix += f"{number.group(1) if number else self.where}:"
            prefix += " "
        return f"{prefix}{self.message}"


class UsageError(StudygenError):
    """Bad command line: unknown family, missing path, bad option value (exit 2)."""


class InputError(StudygenError):
    """An input file is unreadable, malformed or refused (exit 2)."""


class RecordError(InputError):
    """A record, dataset definition or study file fails to load or validate."""


class TemplateError(StudygenError):
    """A template fails to compile or render (exit 1: the study is broken, not the call)."""

    exit_code = EXIT_FINDINGS


class ConflictError(InputError):
    """A result with the same measurement key already exists; nothing is overwritten."""
