"""Exception hierarchy mapped to exit codes (after cogapp/errors.py).

Every error the user can cause ends in one line naming the file and the place,
never a traceback. ``cli.main`` maps each class to its exit code. The place is
a :class:`~studygen.place.Place` (file, line, JSON pointer), the same type
load problems and findings carry.
"""

from __future__ import annotations

from .place import Place
from .visible import visible

EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


class StudygenError(Exception):
    """Base class: a clean one-line error. ``exit_code`` says how the CLI exits.

    The place is given as ``place=`` or as its parts ``path=``, ``line=``
    (1-based, 0 when unknown) and ``pointer=`` (a JSON pointer); never as a
    string to be parsed back.

    ``hint`` is what to do about it, where a class of error needs other
    advice than the one ``check`` gives a file that fails to load (SG202):
    None for most.
    """

    exit_code = EXIT_USAGE
    hint: str | None = None

    def __init__(self, message: str, *, path: str | None = None, line: int = 0, pointer: str | None = None,
                 place: Place | None = None):
        self.message = message
        self.place = place if place is not None else Place(path or "", line, pointer)
        super().__init__(self.line())

    @property
    def path(self) -> str | None:
        """The file the error is about (as shown to the user), None when it names none."""
        return self.place.path or None

    @property
    def where(self) -> str | None:
        """The place inside the file: its JSON pointer when it has one (which
        field), else ``line N``; None when the error names neither."""
        if self.place.pointer:
            return self.place.pointer
        return f"line {self.place.line}" if self.place.line else None

    def line(self) -> str:
        """The error as ``path:line: message (pointer)`` (parts present only
        when known), in the words a finding at the same place uses
        (:meth:`studygen.place.Place.said`): ``render`` and ``check`` name a
        bad record alike. Control characters it quotes are shown as escapes
        (:func:`studygen.visible.visible`): the line is printed, never acted on.
        """
        return visible(self.place.said(self.message))


class UsageError(StudygenError):
    """Bad command line: unknown family, missing path, bad option value (exit 2)."""


class InputError(StudygenError):
    """An input file is unreadable, malformed or refused (exit 2)."""


class RecordError(InputError):
    """A record, dataset definition or study file fails to load or validate."""


class ContradictoryRecordError(RecordError):
    """A record that validates against its schema but whose own figures
    contradict each other (statistics out of order, a stated figure that is
    not the statistic it names, kernel times that do not sum to their
    group): edited or damaged, so the schema is no help in fixing it."""

    hint = ("its figures contradict each other, which no measurement gives: collect it again from its source, "
            "or correct the figure the message names")


class TemplateError(StudygenError):
    """A template fails to compile or render (exit 1: the study is broken, not the call)."""

    exit_code = EXIT_FINDINGS


class ConflictError(InputError):
    """A result with the same measurement key already exists; nothing is overwritten."""
