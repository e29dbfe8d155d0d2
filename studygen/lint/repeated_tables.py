"""Tables of one layout read as one column (SG101): a results page that
prints the same table once per model or per backend ("| Metric | Eager |
Compiled | Gain |" under "Tiny encoder" and again under "Base encoder")
and then sums them up in prose ("4-18% faster everywhere", "tiny encoder:
9-18% faster") states a range no single table holds: each table has one
endpoint, or none. :func:`repeated_unions` hands
SG101 the column of such a range's unit joined over the tables whose header
rows are identical, as one more candidate.

- Only tables of two rows at least, whose header cells read alike, join,
  and only when the join keeps their label columns (a key column whose
  values repeat from table to table would read as data);
  a joined column is offered only when no one of them holds both endpoints
  of the range and the join does (each endpoint a figure of it at the
  range's digits): SG101 then weighs it as any column of another section.
- The sentence may pick some of them by their headings: a word of the
  sentence that names the headings of some of the tables and not the others
  ("small" of "Small model results") keeps those only.
- Each joined row keeps its own line in its label ("P95 latency (line 47)"),
  so a finding names the row the reader will find; a numeric label
  ("16384") stays as printed, the sentence picking rows by it.

Case (a public results page lint had never seen, session 25): a summary of
the gains of four such tables as a percent range whose upper end left out
the largest gain, each endpoint in a different table.
"""

from __future__ import annotations

from typing import Iterator

from .columns import type_columns
from .document import Row, Sentence, Series, Table
from .figures import Range, rounding_keys
from .restriction import scope_phrases
from .text import keywords


class _Group:
    """Tables of one header row: their heading words (``words``, one set per
    table), the words naming some of their headings and not all
    (``distinctive``), and what the ranges read has built: joined tables by
    the member positions they join, and per joined column and printed
    decimals the member positions holding each rounded value."""

    def __init__(self, tables: list[Table], words: list[frozenset[str]], distinctive: frozenset[str]):
        self.tables, self.words, self.distinctive = tables, words, distinctive
        self.joined: dict = {}
        self.holders: dict = {}


def _groups(document) -> list[_Group]:
    """The document's tables of two rows at least, grouped by identical
    header rows (case and spacing aside), groups of two tables or more."""
    by_headers: dict[tuple[str, ...], list[Table]] = {}
    for table in document.tables:
        if len(table.rows) >= 2:
            by_headers.setdefault(tuple(" ".join(h.lower().split()) for h in table.headers), []).append(table)
    groups = []
    for tables in by_headers.values():
        if len(tables) > 1:
            words = [keywords(" ".join(table.headings)) for table in tables]
            groups.append(_Group(tables, words, frozenset().union(*words) - frozenset.intersection(*words)))
    return groups


def _joined(members: list[Table], scopes: frozenset[tuple[str, ...]]) -> Table | None:
    """One table of ``members``' rows in document order, each row's first
    label cell (unless numeric) followed by its source line, its columns
    typed as the parser types a table (``scopes``: the document's
    :func:`~.restriction.scope_phrases`); not in the document's tables.
    None when its label columns are not those of the first table."""
    first = members[0]
    # a numeric label ("16384" of tok/rank) stays as printed: the sentence picks rows by it ("the 16384 point")
    label = first.label_columns[0] if first.label_columns and first.label_columns[0] not in first.numeric_labels else None
    rows = []
    for row in (row for table in members for row in table.rows):
        cells = list(row.cells)
        if label is not None and label < len(cells):
            cells[label] = f"{cells[label]} (line {row.line})"
        rows.append(Row(len(rows), row.line, cells))
    table = Table(first.order, first.section, first.line, members[-1].end_line, list(first.headers), rows, first.context,
                  headings=first.headings)
    for row in rows:
        row.table = table
    type_columns(table, scopes)
    # a key column whose values repeat once joined ("512" in every table) reads as data: the join is no such table
    return table if table.label_columns == first.label_columns else None


def _holders(group: _Group, key: tuple[int, ...], series: Series, decimals: int) -> dict[int, set[int]]:
    """Rounded value (at ``decimals``) -> positions in ``group.tables`` of the
    joined tables ``key`` whose rows of ``series`` print it; built once."""
    found = group.holders.get((id(series), decimals))
    if found is None:
        found = group.holders[(id(series), decimals)] = {}
        table_of = [position for position in key for _ in group.tables[position].rows]
        for row, figure in series.figures:
            for k in rounding_keys(figure.value, decimals):
                found.setdefault(k, set()).add(table_of[row])
    return found


def repeated_unions(document, cache: dict, sentence: Sentence, rng: Range) -> Iterator[Series]:
    """Columns of ``rng``'s unit joined over tables of one layout (see the
    module docstring); ``cache`` keeps the groups and joined tables of
    ``document`` between ranges (a range costs a set lookup per group)."""
    groups = cache.get("groups")
    if groups is None:
        groups = cache["groups"] = _groups(document)
    for group in groups:
        named = group.distinctive & sentence.keywords  # "small" of "Small model results", not of every heading
        key = tuple(p for p, w in enumerate(group.words) if w & named) if named else tuple(range(len(group.tables)))
        if len(key) < 2:
            continue
        if key not in group.joined:
            if "scopes" not in cache:
                cache["scopes"] = scope_phrases(document.text)
            group.joined[key] = _joined([group.tables[p] for p in key], cache["scopes"])
        joined = group.joined[key]
        for series in joined.series if joined is not None else ():
            if series.unit != rng.unit:
                continue
            low = _holders(group, key, series, rng.lo.decimals).get(rounding_keys(rng.lo.value, rng.lo.decimals)[0])
            high = _holders(group, key, series, rng.hi.decimals).get(rounding_keys(rng.hi.value, rng.hi.decimals)[0])
            if low and high and not low & high:  # both ends in the join, never both in one of its tables
                yield series
