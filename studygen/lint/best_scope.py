"""Best-of claims over every row of a document (SG107): "s3 got the largest
speedup of any shape so far (5.00x)" where an earlier table of the same
column holds 6.50x.

A results log often prints one table per batch of work, each with the same
derived column ("speedup"), and names a row the best "of any shape", "of
all runs" or "across all configurations". :mod:`.best_rows` ranks the rows
of the table the figure comes from; when none of them beats it, this module
widens the set the way the words do:

- the clause holds "of any", "of all", "among all" or "across all" and a noun
  between the superlative and its figure ("the largest speedup of any shape
  so far (5.81x)"; a figure before the superlative is not read so);
- the other tables are those whose first header and whose column of the
  figure's header read alike (case, markup and spacing aside) with the
  figure's unit: the same kind of row measured the same way; with "so far",
  "yet", "to date" or "thus far" only the tables above the sentence count;
- a table repeating a row label of the figure's own table is left out: it
  measures the same rows again under another condition (one table per GPU,
  "### A100" and "### H100" over the same models), and "the largest speedup
  of any model" under one of them means that table's models;
- a row beats the figure when its value lies beyond the quoted figure's
  printed digits the way the superlative points
  (:func:`.ratio_direction.goes_against`).

A superlative of one subject's rows ("X peaks at ..."), a clause that names
rows to restrict the set and every hedge :mod:`.best_rows` leaves stay with
it: this module only runs on a claim it read and found true in its own table
(where "of any ..." makes it rank every row of that table, no subject named).

Cases: ``tests/lint/test_best_scope.py`` (session 28: a public DSP kernel log
called a 5.81x the largest speedup of any shape covered so far, two tables
after one of 8.65x).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Document, Sentence, Series, Table
from .figures import Figure
from .ratio_direction import goes_against
from .rounding import stands_for

_EVERY_RE = lazy_compile(r"\b(?:of|among|across)\s+(?:any|all)\s+(?:the\s+)?[a-z][\w-]*", re.IGNORECASE)
_SO_FAR_RE = lazy_compile(r"\b(?:so\s+far|yet|to\s+date|thus\s+far)\b", re.IGNORECASE)
_MARKUP_RE = lazy_compile(r"[`*_\s]+")
_SHOWN = 3  # rows named in a finding, as :mod:`.best_rows` names them


def _key(text: str) -> str:
    """A header cell as it is compared: two read alike when their keys are equal (case, markup and
    spacing aside)."""
    return _MARKUP_RE.sub(" ", text).strip().lower()


def _labels(table: Table) -> frozenset[str]:
    """The row labels of ``table``, lower case."""
    return frozenset(row.label.lower() for row in table.rows if row.label)


def _layouts(document: Document) -> tuple[dict, dict]:
    """``(best first, by table)`` for ``(first header, column header, unit, want)``: the figures of every
    table with headers, for each direction ``want`` (1: largest first, -1: smallest first), as
    ``[(value, table, series index, row), ...]`` (in document order on a tie), and the same kept
    table by table, ``[(table, its figures), ...]`` in document order. Built once a document
    (``Document.memo``): each claim read every table of its layout, header cells, labels and rows,
    again; a document of 400 tables of one layout, each followed by a true "largest ... of any shape"
    claim, took 3.8 s of CPU to lint against 0.9 s for 200 (tests/lint/test_lint_scaling.py)."""
    found = document.memo.get(_layouts)
    if found is None:
        best, by_table = {}, {}
        for table in document.tables:
            if not table.headers:
                continue
            own: dict[tuple, list] = {}
            for index, series in enumerate(table.series):
                for want in (1, -1):
                    own.setdefault((_key(table.headers[0]), _key(series.header), series.unit, want), []).extend(
                        (value, table, index, row) for row, value in enumerate(series.values) if value is not None)
            for key, figures in own.items():
                figures.sort(key=lambda item, want=key[-1]: (-want * item[0].value, item[2], item[3]))
                best.setdefault(key, []).extend(figures)
                by_table.setdefault(key, []).append((table, figures))
        for (*_, want), figures in best.items():
            figures.sort(key=lambda item, want=want: (-want * item[0].value, item[1].order, item[2], item[3]))
        found = document.memo[_layouts] = (best, by_table)
    return found


def claims_every(text: str, best_end: int, figure_start: int) -> re.Match | None:
    """The words claiming a superlative over every row ("of any shape", "across all runs") between its end
    ``best_end`` and its figure at ``figure_start`` in ``text``; None when none stand there (or the figure
    comes first)."""
    return _EVERY_RE.search(text, best_end, figure_start) if best_end <= figure_start else None


def wider_rows(document: Document, sentence: Sentence, scope: re.Match, end: int, series: Series, figure: Figure,
               want: int) -> list[tuple[Table, int, Figure]]:
    """(table, row, value) of up to three rows of other tables that beat
    ``figure``, a superlative claimed over every row by ``scope``
    (:func:`claims_every`) in a clause ending at ``end``, largest excess
    first; with "so far" after ``scope`` only tables above the sentence."""
    text = sentence.block.text
    above = _SO_FAR_RE.search(text, scope.end(), end) is not None
    own = series.table
    if not own.headers:
        return []
    labels = _labels(own)
    # a row beats the figure only beyond its printed digits (goes_against), so never where its value lies at
    # or short of the figure's far end: the figures come best first, and are read up to there
    bound = stands_for(figure).hi if want > 0 else stands_for(figure).lo
    read: dict[int, bool] = {}  # table order -> whether the claim ranks that table's rows

    def ranked(table: Table) -> bool:
        if table.order not in read:
            # the same rows again under another condition (one table per GPU): "of any model" means its own
            read[table.order] = (table is not own and labels.isdisjoint(_labels(table))
                                 and not (above and table.order > sentence.block.order))
        return read[table.order]

    key = (_key(own.headers[0]), _key(series.header), series.unit, want)
    best, by_table = _layouts(document)
    if above:  # the tables above the sentence, each read down to its figures short of the claim's
        figures = [item for table, kept in by_table.get(key, []) if table.order <= sentence.block.order
                   and _beyond(kept[0][0], bound, want) and ranked(table) for item in kept]
        figures.sort(key=lambda item: (-want * item[0].value, item[1].order, item[2], item[3]))
    else:
        figures = best.get(key, [])
    beaten = []
    for value, table, _, row in figures:
        if not _beyond(value, bound, want) or len(beaten) == _SHOWN:
            break
        if ranked(table) and goes_against(figure, value, want):
            beaten.append((table, row, value))
    return beaten


def _beyond(value: Figure, bound: float, want: int) -> bool:
    """Whether ``value`` lies at or beyond ``bound`` the way ``want`` points (no row short of it beats)."""
    return value.value >= bound if want > 0 else value.value <= bound


def message(claim: str, series: Series, row: int, beaten: list[tuple[Table, int, Figure]], want: int) -> str:
    """The finding's message: the claim, the row it names and the rows of
    other tables that beat it, each with its table's line."""
    extreme = "largest" if want > 0 else "smallest"
    shown = "; ".join(f"{table.rows[other].name()} has {value.text} (table at line {table.line})"
                      for table, other, value in beaten)
    return (f"'{claim}' names {series.table.rows[row].name()} the {extreme} '{series.header}' of every table "
            f"like the one at line {series.table.line}, but {shown}")


__all__ = ["claims_every", "message", "wider_rows"]
