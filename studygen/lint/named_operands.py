"""A derived column whose cells name the column each was computed against.

A "best speedup" column compares a baseline with whichever candidate is
fastest in that row and says which one after its figure:

| Pass | eager (ms) | compiled (ms) | fused (ms) | Best speedup |
|---|---|---|---|---|
| Forward | 2.00 | 1.60 | 1.00 | 2.00x (fused) |
| Backward | 4.00 | 1.00 | 2.00 | 4.00x (compiled) |

No one pair of columns gives every row, so the pair that gives most rows
(eager over compiled here) was taken as the column's definition and each row
naming another column was reported, though its cell says what it is. The
column the cells name is offered as one more operand: a series holding, in
each row, the value of the column that row's cell names
(:func:`named_series`). The usual fitting (:func:`studygen.lint.derived.best_fit`)
then finds "eager over the named column" for every row, and a row whose
figure its named column does not give is still reported.

A cell names a column when the words after its figure (at most
:data:`_MAX_NAME_TOKENS` of them, emphasis and brackets dropped) hold every
keyword of exactly one data column's header and of no other. The series is
offered only when two rows or more name a column and they name two columns
or more (a column naming one column throughout is an ordinary pair), all of
one unit.
"""

from __future__ import annotations

from dataclasses import replace

from .document import Series, Table
from .text import label_tokens, normalize

# words after a figure that can be a column's name ("(fused)", "with TensorRT FP16"), not a sentence
_MAX_NAME_TOKENS = 4


def _named_column(table: Table, target: Series, row: int, pool: list[Series]) -> Series | None:
    """The one series of ``pool`` whose header keywords all stand among the
    words after ``target``'s figure in ``row``; None for none or several."""
    value = target.values[row]
    cells = table.rows[row].cells
    if value is None or target.column >= len(cells):
        return None
    tokens = set(label_tokens(normalize(cells[target.column][value.end:])))
    if not tokens or len(tokens) > _MAX_NAME_TOKENS:
        return None
    named = [series for series in pool if series.keywords and series.keywords <= tokens]
    return named[0] if len(named) == 1 else None


def named_series(table: Table, target: Series, pool: list[Series]) -> Series | None:
    """A series whose row ``i`` holds the value, in row ``i``, of the column
    ``target``'s cell names there (None where it names none); None when
    fewer than two rows name a column, when they all name the same one, or
    when the named columns print different units. Its header says what it
    is, for a finding's message."""
    candidates = [series for series in pool if series is not target]
    names = {row: _named_column(table, target, row, candidates) for row in target.present_indexes}
    named = {row: series for row, series in names.items() if series is not None}
    columns = {id(series): series for series in named.values()}
    if len(named) < 2 or len(columns) < 2 or len({series.unit for series in columns.values()}) != 1:
        return None
    first = next(iter(columns.values()))
    values = [named[row].values[row] if row in named else None for row in range(len(target.values))]
    return replace(first, column=target.column, sub=target.sub, varying=target.varying,
                   header="the column its cell names", keywords=frozenset(),
                   values=values, spans={})
