"""Column groups and row groups of a table: what a derived column is computed
from, read from the table's layout and words rather than guessed from its
figures alone (SG103; the behaviours and their cases are listed in
``docs/lint.md``).

**Derived columns** are series in ``x`` or ``%``, or whose header names a
ratio ("speedup", "relative goodput", "weak scaling"): :func:`is_derived`.
Every other series is a *data* column.

**Column groups.** A derived column closes the group of data columns that
stand between it and the derived column before it (or the table's first
column); a column headed as the spread of the one before it (a standard
deviation, CV, CI or IQR: :func:`is_spread_column`) is none of them. Its *declared* definition (:func:`declared_definitions`):

- the header names its columns ("speedup (FP16 / INT8)", "Throughput
  speedup (TF32 - mixed precision)", "speedup vs eager"): the data columns
  of its unit whose header words it names, one of them after "vs", "over",
  "relative to" as the reference;
- else a group of two or more data columns: the last one (nearest before
  it) against the group's first ("| FP16 ms | INT8 ms | speedup |" repeated
  per model);
- else a group of one data column and a table whose first data column
  stands before it: that column against the first data column (repeated
  headers, ``| jit | cpp | speedup | plugin | speedup | op | speedup |``:
  each speedup belongs to the column before it);
- a group of one data column and a derived column that prints its
  identity (``1x``, ``100%``) on a row: that column against the row that
  prints it (in each row group);
- a scaling column ("weak scaling - TF32", "strong scaling"): the data
  column its header names (else the one before it) against its own value
  in the baseline row of each row group (the 1-GPU row).

**Row groups** (:func:`row_groups`): a table that stacks several models or
configurations restarts its baseline in each. A group starts where the
first label column changes value while that column labels runs of rows
(``BERT, BERT, BERT, GPT, GPT``, or a label followed by empty cells), and,
for one derived column, at each row that prints its identity (``1.00x``,
``1.0``, ``100%``) when it prints it on more than one row. A ratio against a
baseline row or against the row before is read within a group only.

**Data columns that look like labels.** A column of figures whose header
starts with a label word ("TRT plugin", "Model B") is a data column when a
derived column follows it: the derived column needs it as an operand
(:func:`precedes_derived`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..patterns import lazy_compile
from .document import Series, Table, is_empty_cell
from .figures import RATIO_UNITS
from .noise_evidence import STATISTIC_NAME_RE
from .text import label_tokens, normalize, ratio_header

# Identity of a ratio, a percentage of a reference, and of a relative change.
_IDENTITIES = {"x": (1.0,), None: (1.0,), "%": (100.0, 0.0)}
# "vs FP16", "over eager", "relative to bf16", "(baseline: fp32)": the reference after these words
_REFERENCE_WORD_RE = lazy_compile(r"\b(?:vs\.?|versus|over|relative\s+to|compared\s+(?:to|with)|against|baseline:?|wrt)\s+(\S+)",
                                  re.IGNORECASE)
# the names STATISTIC_NAME_RE also takes that are order statistics, measured in their own right, not a spread
_ORDER_STATISTIC_RE = lazy_compile(r"min(?:imum)?|max(?:imum)?|p\d{2}|percentiles?", re.IGNORECASE)
_SCALING_RE = lazy_compile(r"\b(?:weak|strong)\s+scaling\b|\bscaling\s+factor\b", re.IGNORECASE)
# header words that name what a column is, not which column it is
_SHARED_WORDS = frozenset({"speedup", "speed-up", "speed", "up", "ratio", "relative", "scaling", "weak", "strong", "factor",
                           "x", "vs", "versus", "over", "to", "of", "the", "and", "latency", "throughput", "time",
                           "ms", "s", "us", "fps", "gain", "improvement"})


def is_derived(series: Series) -> bool:
    """True for a series of ratios or percentages: unit ``x`` or ``%``, or a
    unitless one whose header names a ratio."""
    return series.unit in RATIO_UNITS or (series.unit is None and ratio_header(series.header))


def precedes_derived(headers: list[str], column: int) -> bool:
    """True when the column right after ``column`` is headed as a ratio
    ("speedup", "x", "speedup (vs FP16)")."""
    following = column + 1
    return following < len(headers) and ratio_header(headers[following])


class Definition(NamedTuple):
    """A derived column's definition as the table declares it.

    ``kind`` is ``pair`` (``first`` over ``second`` in each row, either way
    round) or ``baseline`` (``first`` in each row against its value in the
    baseline row of the row's group: where the derived column prints its
    identity, else the group's first row); ``why`` says what declared it,
    for a message; ``by_words`` when the header names the columns (a
    definition the reader is told, which outranks a better fit over other
    columns: the header would be wrong), else the layout places them."""

    kind: str
    first: Series
    second: Series | None
    why: str
    by_words: bool = False  # the header names the columns (else the layout places them)


def _aligned(series: Series, target: Series) -> bool:
    """True when ``series`` may be an operand of ``target`` position by
    position: the same figure of cells that hold as many figures, or a
    plain column for a plain target or for the first figure of a target
    cell ("0.87x (0.86x to 0.92x)": the ratio first, then its spread)."""
    if target.parts == 1:
        return series.parts == 1 or series.sub == 0  # "26/100": the count, not its total
    if series.parts == target.parts:
        return series.sub == target.sub
    return series.parts == 1 and target.sub == 0


def _words(series: Series) -> frozenset[str]:
    """Header words that tell a column from its neighbours ("tf32", "int8", "cpp")."""
    return frozenset(t for t in label_tokens(normalize(series.header)) if t not in _SHARED_WORDS)


def _data_before(table: Table, target: Series) -> tuple[list[Series], list[Series]]:
    """(the data series of ``target``'s column group, every data series of the
    table before it), in column order; sub-columns of one cell count as one
    column only when ``target`` is such a sub-column too."""
    group: list[Series] = []
    before: list[Series] = []
    for series in table.series:
        if series.column >= target.column:
            break
        if not is_derived(series) and not _aligned(series, target):
            continue
        if not is_derived(series) and is_spread_column(series.header):
            continue  # "| Mean (us) | Std Dev (us) | Relative |": the spread of the column before it, no operand
        if is_derived(series):
            group = []
            continue
        group.append(series)
        before.append(series)
    return group, before


def is_spread_column(header: str) -> bool:
    """True when ``header`` names a dispersion of the measurement beside it
    ("Std Dev (us)", "stdev", "σ", "CV", "95% CI", "IQR", "±"): such a column
    is never an operand of a ratio column, so a column group skips it. The
    order statistics that name also matches (min, max, p99, percentile) are
    measurements of their own and stay data columns."""
    return any(not _ORDER_STATISTIC_RE.fullmatch(m.group(0)) for m in STATISTIC_NAME_RE.finditer(normalize(header)))


def _named(target: Series, candidates: list[Series]) -> tuple[list[Series], str]:
    """The candidates whose own header words the target's header names,
    and the word it names as the reference ("vs FP16"), if any."""
    own = _words(target)
    named = [s for s in candidates if _words(s) and _words(s) <= own]
    match = _REFERENCE_WORD_RE.search(normalize(target.header))
    reference = label_tokens(match.group(1))[0] if match and label_tokens(match.group(1)) else ""
    return named, reference


def declared_definitions(table: Table, target: Series) -> list[Definition]:
    """The definitions ``target``'s layout and header declare (see the module
    docstring), most specific first; empty when it declares none."""
    group, before = _data_before(table, target)
    everyone = [s for s in table.series if not is_derived(s) and _aligned(s, target)]
    named, reference = _named(target, everyone)
    if _SCALING_RE.search(target.header):
        base = named[0] if len(named) == 1 else (group[-1] if group else None)
        if base is None:
            return []
        why = f"a scaling column of '{base.header}': each row against its group's first row"
        return [Definition("baseline", base, None, why, by_words=len(named) == 1)]
    found = []
    if reference:
        references = [s for s in everyone if reference in _words(s)]
        if len(references) == 1:
            # the other operand: a column the header names, else the nearest data column before it
            others = [s for s in named if s is not references[0]] or [s for s in reversed(before) if s is not references[0]]
            for base in others[:1]:
                found.append(Definition("pair", base, references[0], f"its header names '{references[0].header}' as the reference",
                                        by_words=True))
        return found  # a named reference the table does not hold: the column compares with something else
    if len(named) == 2:
        found.append(Definition("pair", named[1], named[0], "its header names both columns", by_words=True))
    elif len(group) >= 2:
        found.append(Definition("pair", group[-1], group[0], f"{_before(table, group[-1], target)} against the first of its column group"))
    elif len(group) == 1 and before and before[0] is not group[0] and _same_unit(before[0], group[0]):
        found.append(Definition("pair", group[0], before[0], "the column before it against the table's first data column"))
    elif len(group) == 1 and identity_rows(target):
        found.append(Definition("baseline", group[0], None,
                                f"{_before(table, group[0], target)} against the {_identity_word(target)} row"))
    return found


def _before(table: Table, operand: Series, target: Series) -> str:
    """How a message names ``operand``, the data column nearest before ``target``: past a spread column
    between them when one stands there (:func:`is_spread_column`)."""
    between = [s for s in table.series if operand.column < s.column < target.column]
    return "the column before its spread column" if between and all(is_spread_column(s.header) for s in between) else "the column before it"


def _identity_word(target: Series) -> str:
    return "100%" if target.unit == "%" else "1x"


def _same_unit(a: Series, b: Series) -> bool:
    return a.unit == b.unit


def is_identity(value: float, unit: str | None) -> bool:
    """True for the identity of a derived figure of ``unit``: 1 (``1x``,
    ``1.0``), or 100 or 0 in ``%`` (a share of the reference, a change)."""
    return value in _IDENTITIES.get(unit, _IDENTITIES[None])


def identity_rows(target: Series) -> list[int]:
    """Rows where ``target`` prints its identity (1x, 1.0, 100% or 0%)."""
    return [i for i, v in enumerate(target.values) if v is not None and is_identity(v.value, target.unit)]


def label_runs(table: Table) -> list[int]:
    """Start rows of the runs the first label column labels (``BERT, BERT,
    GPT, GPT`` or ``BERT, -, -, GPT, -``); ``[0]`` when it labels no runs
    (every row its own value, or no label column)."""
    if not table.label_columns or len(table.rows) < 3:
        return [0]
    column = table.label_columns[0]
    starts, seen = [0], set()
    current = None
    repeated = False
    for index, row in enumerate(table.rows):
        text = row.cells[column]
        if is_empty_cell(text):
            repeated = repeated or index > 0
            continue
        value = normalize(text)
        if value == current:
            repeated = True
            continue
        if value in seen:
            return [0]  # a value that comes back after another: no runs, the column labels rows
        if index:
            starts.append(index)
        seen.add(value)
        current = value
    return starts if repeated and len(starts) > 1 else [0]


def row_groups(table: Table, target: Series | None = None) -> list[range]:
    """Contiguous row groups (see the module docstring): runs of the first
    label column, each split again at ``target``'s identity rows when it
    prints its identity on more than one row of the table."""
    starts = set(label_runs(table))
    if target is not None:
        identities = identity_rows(target)
        if len(identities) > 1:
            starts.update(identities)
    ordered = sorted(starts)
    ends = ordered[1:] + [len(table.rows)]
    return [range(start, end) for start, end in zip(ordered, ends)]


__all__ = ["Definition", "declared_definitions", "identity_rows", "is_derived", "is_identity", "label_runs", "precedes_derived", "row_groups"]
