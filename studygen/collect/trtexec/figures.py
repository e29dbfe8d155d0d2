"""Reading one figure of a trtexec console log line, with the line named in
every error: shared by the log reader (:mod:`.log`) and its performance
summary lines (:mod:`.summary`).

A figure is kept as printed (:func:`studygen.collect.inputs.figure`); one
that is no finite double (``nan``, ``inf``, ``1e400``, or ``1e-400``,
which would read as 0) or no number at all (a NUL byte, split digits) is
refused with its line, never dropped or read as 0.
"""

from __future__ import annotations

import re
import unicodedata

from ...errors import InputError
from ..inputs import figure

# a figure as trtexec prints one; FIG: whatever stands where a line's fixed words put a figure. A line is
# recognised by its words alone, and its figure is then read by read_figure or read_count, which refuse what
# is no number: a damaged figure (a NUL byte, a control character) is an error naming the line, never a
# line left unread (its result silently dropped)
NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
FIG = r".+?"
NOT_FINITE = re.compile(r"^[-+]?(?:nan|inf|infinity)$", re.IGNORECASE)


class Context:
    """Where a message is: the file shown in errors, the line number, and
    the line's severity letter (``I``, ``W``, ``V``…)."""

    __slots__ = ("display", "number", "severity")

    def __init__(self, display: str):
        self.display, self.number, self.severity = display, 0, None


def read_figure(text: str, what: str, where: Context) -> float | int:
    """A figure of the log as printed; InputError naming the line when it is
    no number (a damaged figure) or no finite double (nan, inf, 1e400, or a
    non-zero 1e-400 that would read as 0)."""
    try:
        return figure(text)
    except ValueError:
        why = ("not a finite figure (a double cannot hold it)" if re.fullmatch(NUM, text) or NOT_FINITE.match(text)
               else "no number (the line is damaged or edited)")
        raise InputError(f"{what} is {text!r}, which is {why}: nothing recorded", path=where.display,
                         line=where.number) from None


def read_count(text: str, what: str, where: Context) -> int:
    """A count of the log (queries, batch) as printed: digits only;
    InputError naming the line for anything else (a damaged count is never
    read as another, nor its line left unread)."""
    if not re.fullmatch(r"\d+", text):
        raise InputError(f"{what} is {text!r}, which is not a count: nothing recorded", path=where.display,
                         line=where.number)
    return int(text)


def rank_of(text: str, label: str, where: Context) -> str:
    """The percentile a summary item names, in one spelling: the number read
    and written back with ``:g`` (``90.0``, ``090`` and ``90`` are all
    ``90``; ``99.9`` stays), so one percentile printed twice in two
    spellings is seen as printed twice. InputError naming the line when it
    is no plain unsigned number (a sign, an exponent) or lies outside
    (0, 100]."""
    if not re.fullmatch(r"(?:\d+\.?\d*|\.\d+)", text) or not 0 < float(text) <= 100:
        raise InputError(f"the {label} line names percentile {text!r}, which is no percentage in (0, 100]: "
                         "nothing recorded", path=where.display, line=where.number)
    return f"{float(text):g}"


def printed_once(run, what: str, first: tuple, value, where: Context) -> tuple:
    """``(value, line)`` of a run's setting (device, throughput, engine
    size) printed at ``where``: the first ``(value, line)`` kept when the
    line repeats it. InputError naming both lines when the two disagree: a
    second figure, after the summary or from a concatenated log, must not
    replace the first in silence, and which one trtexec measured is unknown."""
    previous, line = first
    if previous is None or previous == value:
        return (value, where.number) if previous is None else first
    raise InputError(f"{run.label} prints its {what} twice, {previous!r} on line {line} and {value!r} on line "
                     f"{where.number}: which one is the measurement is unknown; nothing recorded",
                     path=where.display, line=where.number)


def refuse_unit(unit: str, what: str, where: Context) -> None:
    """InputError naming the line when a summary statistic is in a unit other
    than ms: trtexec prints every summary statistic in ms
    (sampleReporting.cpp), so another unit means the log was edited, and
    dropping or rescaling the figure would both hide that."""
    if unit != "ms":
        raise InputError(f"{what} is printed in {unit!r}, not ms (trtexec prints every summary statistic in ms): "
                         "the log was edited or is not trtexec's; nothing recorded", path=where.display,
                         line=where.number)


def damaged(text: str) -> bool:
    """True when ``text`` holds a control or format character (NUL, U+202E, a tab)."""
    return any(unicodedata.category(char).startswith("C") for char in text)


def shown(text: str) -> str:
    """``text`` quoted, non-ASCII escaped (a Cyrillic e in Latency shows), cut to 80 characters."""
    return ascii(text) if len(ascii(text)) <= 80 else ascii(text)[:76] + "...'"
