"""What the view's helpers printed.

Checks need to tell text a helper computed from records from text a person
wrote (SG204 verdicts, SG206 hedged wording, SG205 counts, SG212/SG213 rows
behind a range). While a :func:`recording` block is active, every helper call
appends what it returned, with the rows it used, to the block's list.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class Produced:
    """One helper output: ``kind`` (figure, ratio, range, table, verdict,
    no_verdict, ap_difference, expectation, gap, side_finding, dataset),
    the text it returned, the rows it was computed from
    (:class:`studygen.study.rows.Row`), and for tables the header cells (to
    find the table in the formatted README)."""

    kind: str
    text: str
    rows: tuple = ()
    headers: tuple = ()
    within: tuple = ()  # header cells of the table this output is a cell of
    # For a table, the row field whose rows are compared with each other: a column per variant, or
    # (repeated_measurements) a table row per measurement key. SG212 checks each such set.
    compared_by: str = "variant"
    # The (a, b) row pairs whose difference or ratio the text states (a ratio, a range of ratios or
    # savings, a verdict, a side finding, an attribution row); SG203 reads which differences the README uses.
    compared: tuple = ()


_PRODUCED: ContextVar[list | None] = ContextVar("studygen_produced", default=None)
_WITHIN: ContextVar[tuple] = ContextVar("studygen_within_table", default=())


@contextmanager
def recording():
    """Collect :class:`Produced` entries of every helper call made inside the block."""
    log: list[Produced] = []
    token = _PRODUCED.set(log)
    try:
        yield log
    finally:
        _PRODUCED.reset(token)


@contextmanager
def cells_of(headers):
    """Mark helper outputs made while building a table as cells of that table."""
    token = _WITHIN.set(tuple(headers))
    try:
        yield
    finally:
        _WITHIN.reset(token)


def emit(kind: str, text: str, rows=(), headers=(), compared_by: str = "variant", compared=()) -> str:
    """Return ``text`` unchanged, noting it as helper output when recording.

    ``rows``: the rows the text was computed from; ``headers``: a table's
    header cells (only for a whole table, whose output is then no cell);
    ``compared_by``: see :attr:`Produced.compared_by`; ``compared``: the
    ``(a, b)`` row pairs whose difference or ratio the text states
    (:attr:`Produced.compared`)."""
    log = _PRODUCED.get()
    if log is not None:
        log.append(Produced(kind, str(text), tuple(rows), tuple(headers), () if headers else _WITHIN.get(),
                            compared_by, tuple(tuple(pair) for pair in compared)))
    return text
