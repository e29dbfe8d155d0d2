"""Average rows and average columns of a table (SG103).

A row labelled ``Average``, ``Avg``, ``Mean`` or ``Geomean`` states, in each
numeric column, a mean of the rows above it (back to the table's start or
the previous average row); a column headed so states, in each row, a mean of
the row's other columns of its unit. Each such figure must be one of the
means of those figures, to their printed digits: the arithmetic mean, the
geometric mean (of figures none negative; zero when one is zero) or the median; a
``Geomean`` the geometric mean only. Truncated last digits fit.

A table states *which* mean it prints by the cells that follow it: a mean
that fits at least two of the table's average cells, and two thirds of them,
is the table's (the arithmetic mean first among equals), and each cell it
does not fit is a finding (the printed inputs and the recomputed mean in the
message), also where another mean happens to fit that one cell. A single average cell, or
cells no mean fits the majority of, say nothing (a weighted mean or an
average over runs the table does not show is not a contradiction). In a
derived column (a speedup) the Average row may state either the mean of the
column's figures or the column's formula over the averaged operands (the
ratio of the mean rates): each reader leaves the other's reading alone
(:func:`states_row_mean`, ``given``). A first column of labels too long to
be a label column (a prompt's text) still names the average row.

A prose average of one column ("Average peak memory across the four
configurations is 68 GB", "The mean peak memory is 68 GB": the statistic word,
the words of exactly one column's header, "is" and a figure in its unit) must
be one of those means of the column's rows (average and statistic rows left
out). A hedged figure ("is about 66 GB"), a sentence naming rows of a table
and a quantity several columns are named by are not read
(:func:`prose_average_findings`).
"""

from __future__ import annotations

import math
import re
import statistics

from ..numbers import format_number
from ..patterns import lazy_compile
from .document import Document, Row, Series, Table, names_rows
from .figures import Figure, with_unit
from .header_names import name_words, prose_words
from .rounding import Interval, consistent, gives, stands_for
from .text import normalize

_AVERAGE_RE = lazy_compile(r"^(?:avg\.?|average|mean|arithmetic mean|(geo\.?\s?mean|geometric mean))\s*:?$")
_PARENTHESIS_RE = lazy_compile(r"\s*\([^()]*\)")
# rows of a statistics table ("Min", "Median", "Average", "Max") are no group an average summarises
_SUMMARY_LABEL_RE = lazy_compile(r"^(?:min(?:imum)?|max(?:imum)?|median|p\d{1,2}(?:\.\d+)?|std\.?(?:\s?dev)?|stdev|total|sum|spread|range)\s*:?$")
_MEANS = ("arithmetic", "geometric", "median")
# "Average peak memory across the four configurations is 68 GB", "The mean peak memory is 68 GB": the statistic
# word, the quantity (up to four words, group 1), what it spans ("across …", no clause break), and the verb or sign
# right before the figure; a hedge ("is about 66 GB") or a denial ("is not 68 GB") stands between and is not read
_PROSE_AVERAGE_RE = lazy_compile(
    r"\b(?:average|mean|avg\.?)\s+((?:[A-Za-z][\w-]*\s+){1,4}?)(?:(?:across|over|for|of)\s+[^,;:()]{0,60}?\s+)?"
    r"(?:is|was|comes\s+to|stands\s+at|=|:)\s*$", re.IGNORECASE, needs=("average", "mean", "avg"))
_PROSE_REACH = 120  # characters before a figure that may hold its statistic word and quantity


def average_kind(text: str) -> str | None:
    """``any`` for a label or header that names an average ("Average",
    "**Avg.**", "Mean (ms)"), ``geometric`` for a geometric mean ("Geomean"),
    None otherwise."""
    match = _AVERAGE_RE.match(_PARENTHESIS_RE.sub("", normalize(text)).strip())
    if match is None:
        return None
    return "geometric" if match.group(1) else "any"


def _mean(kind: str, values: list[float]) -> float | None:
    if kind == "arithmetic":
        return sum(values) / len(values)
    if kind == "median":
        return statistics.median(values)
    if min(values) < 0:
        return None  # no geometric mean of a negative figure
    if min(values) == 0:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _interval(kind: str, inputs: list[Figure]) -> Interval | None:
    """The ``kind`` mean over the inputs' printed intervals; None when
    undefined. Every mean here grows with each input, so its interval is
    the mean of the inputs' low ends to the mean of their high ends."""
    intervals = [stands_for(f) for f in inputs]
    lows = [i.lo for i in intervals]
    if kind == "geometric":
        # a printed 0.00 of a non-negative quantity stands for 0 to 0.005, not for -0.005
        lows = [max(0.0, low) if f.value >= 0 else low for low, f in zip(lows, inputs)]
    low, high = _mean(kind, lows), _mean(kind, [i.hi for i in intervals])
    return None if low is None or high is None else Interval(low, high)


def _fits(kind: str, inputs: list[Figure], stated: Figure) -> bool | None:
    """Whether ``stated`` is the ``kind`` mean of ``inputs`` to the printed
    digits, rounded or truncated (:mod:`studygen.lint.rounding`); None when
    undefined."""
    computed = _interval(kind, inputs)
    return None if computed is None else consistent(computed, stated)


class _Cell:
    """One stated average with the figures it averages."""

    def __init__(self, stated: Figure, inputs: list[Figure], allowed: tuple[str, ...], row: Row, series: Series,
                 what: str):
        self.stated, self.inputs, self.allowed, self.row, self.series = stated, inputs, allowed, row, series
        self.what = what  # "the 4 rows above", "the row's 3 other columns"


def _average_rows(table: Table) -> list[_Cell]:
    cells = []
    start = 0
    label_columns = table.label_columns
    if not label_columns and all(series.column != 0 for series in table.series):
        label_columns = [0]  # a first column of long labels (a prompt's text) is no label column, yet names the rows
    for index, row in enumerate(table.rows):
        kinds = [average_kind(row.cells[c]) for c in label_columns]
        kind = next((k for k in kinds if k), None)
        if kind is None:
            continue
        # the rows above back to the last average row, spacer rows (no figure at all) left out
        group = [j for j in range(start, index) if any(s.values[j] is not None for s in table.series)]
        start = index + 1
        if any(_SUMMARY_LABEL_RE.match(normalize(table.rows[j].cells[c]).strip()) for j in group for c in label_columns):
            continue
        allowed = ("geometric",) if kind == "geometric" else _MEANS
        for series in table.series:
            stated = series.values[index]
            inputs = [series.values[j] for j in group if series.values[j] is not None]
            if stated is not None and len(inputs) >= 2 and len(inputs) == len(group):
                cells.append(_Cell(stated, inputs, allowed, row, series, f"the {len(inputs)} rows above"))
    return cells


def states_row_mean(table: Table, series: Series, row_index: int) -> bool:
    """True when row ``row_index`` of ``table`` is an average row whose cell in ``series`` (matched by column
    and sub-column: a re-signed copy of the series counts) is one of its allowed means of the rows above, to the
    printed digits. A derived column's average row may state the mean of the column's own figures (the
    mean of three speedups) rather than the formula over the averaged operands (the ratio of two mean
    rates): SG103's column reader leaves such a cell to :func:`average_findings`."""
    row = table.rows[row_index]
    for cell in _average_rows(table):
        if cell.row is row and cell.series.column == series.column and cell.series.sub == series.sub:
            return any(_fits(kind, cell.inputs, cell.stated) for kind in cell.allowed)
    return False


def _average_columns(table: Table) -> list[_Cell]:
    cells = []
    for target in table.series:
        kind = average_kind(table.headers[target.column])
        if kind is None or target.parts != 1:
            continue
        # the row's measurements: not its other statistics ("| avg | min | max |" averages runs, not min and max)
        operands = [s for s in table.series if s is not target and s.parts == 1 and s.unit == target.unit and s.stat is None]
        if len(operands) < 2:
            continue
        allowed = ("geometric",) if kind == "geometric" else _MEANS
        for index, row in enumerate(table.rows):
            stated = target.values[index]
            inputs = [s.values[index] for s in operands]
            if stated is not None and all(v is not None for v in inputs):
                cells.append(_Cell(stated, inputs, allowed, row, target, f"the row's {len(inputs)} other columns"))
    return cells


def _enough(matched: int, total: int) -> bool:
    return matched >= 2 and matched * 3 >= total * 2


def average_findings(table: Table, given: set[tuple[int, int]] = frozenset()) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each average cell of ``table`` that no mean
    of its figures gives, where the table's other average cells follow one
    (see the module docstring). ``given``: (id of the row, column) of the
    cells a derived column's formula gives (a speedup column's Average row
    may be the ratio of the averaged rates): those are no finding."""
    found = []
    for cells in (_average_rows(table), _average_columns(table)):
        if len(cells) < 3:
            continue
        verdicts = [{kind: _fits(kind, c.inputs, c.stated) for kind in c.allowed} for c in cells]
        best = max(_MEANS, key=lambda kind: sum(1 for v in verdicts if v.get(kind)))
        # the cells where the table's mean is defined (a geometric mean is not, over a negative figure)
        defined = sum(1 for v in verdicts if v.get(best) is not None)
        if not _enough(sum(1 for v in verdicts if v.get(best)), defined):
            continue
        for cell, verdict in zip(cells, verdicts):
            fitted = verdict.get(best)
            if fitted or (fitted is None and any(verdict.values())):
                continue  # the table's mean fits (or is undefined here, as a geometric mean over a zero, and another fits)
            if (id(cell.row), cell.series.column) in given:
                continue  # the column's own formula over the averaged operands gives it
            value = _mean(best, [f.value for f in cell.inputs])
            shown = "undefined" if value is None else with_unit(format_number(value, cell.stated.decimals + 1), cell.stated.unit)
            computed = _interval(best, cell.inputs)
            shown += "" if computed is None else gives(computed, cell.stated)
            figures = ", ".join(f.text for f in cell.inputs)
            found.append((
                cell.row.line,
                f"{cell.row.name()}: '{cell.series.header}' is {with_unit(cell.stated.text, cell.stated.unit)} but the "
                f"{best} mean of {cell.what} ({figures}) is {shown} (that mean fits the table's other average cells)",
                "recompute the average from the figures it averages, or say what else it averages",
            ))
    return found


def _averaged_column(document: Document, quantity: str, unit: str) -> Series | None:
    """The one column of the document whose header's name words are the quantity's words ("peak memory" for
    'Peak memory (GB)') and whose unit is ``unit``; None when none or several are (which is meant is unclear)."""
    words = tuple(word for _, _, word in prose_words(quantity))
    found = [series for table in document.tables for series in table.series
             if series.parts == 1 and series.unit == unit and series.stat in (None, "mean")
             and name_words(table.headers[series.column]) == words]
    return found[0] if len(found) == 1 else None


def prose_average_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose average of a column ("average peak memory is 68 GB": the statistic
    word, the words of one column's header, a figure in its unit) that no mean of the column's rows gives to the
    printed digits (arithmetic, geometric or median, as for an average cell). Rows labelled as an average or
    another statistic are left out; a sentence that names rows of a table, a column named by several tables, or
    one of fewer than two rows is not read."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        text = block.text
        for sentence in block.sentences:
            for token in sentence.tokens:
                stated = token.figure
                if stated is None or stated.unit is None or stated.start in sentence.range_ends:
                    continue
                match = _PROSE_AVERAGE_RE.search(text, max(sentence.start, stated.start - _PROSE_REACH), stated.start)
                if match is None:
                    continue
                series = _averaged_column(document, match.group(1), stated.unit)
                if series is None or names_rows(sentence.view, document):
                    continue
                table = series.table
                inputs = [value for row, value in zip(table.rows, series.values) if value is not None and not any(
                    average_kind(row.cells[c]) or _SUMMARY_LABEL_RE.match(normalize(row.cells[c]).strip())
                    for c in table.label_columns)]
                if len(inputs) < 2 or any(_fits(kind, inputs, stated) for kind in _MEANS):
                    continue
                decimals = max(f.decimals for f in inputs) + 1
                shown = with_unit(format_number(_mean("arithmetic", [f.value for f in inputs]), decimals), stated.unit)
                median = with_unit(format_number(_mean("median", [f.value for f in inputs]), decimals), stated.unit)
                found.append((
                    sentence.line_at(stated.start),
                    f"{with_unit(stated.text, stated.unit)} is no mean of '{table.headers[series.column]}' in the table "
                    f"at line {table.line}: its {len(inputs)} rows ({', '.join(f.text for f in inputs)}) average "
                    f"{shown}, median {median}",
                    "recompute the average from the column's figures, or name the rows or runs it averages",
                ))
    return found


__all__ = ["average_findings", "average_kind", "prose_average_findings", "states_row_mean"]
