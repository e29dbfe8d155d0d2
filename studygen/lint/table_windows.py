"""The tables of a document a clause is read among, found by bisection
(:mod:`.table_joins`).

:func:`~.table_joins.side_cells` reads the cells of each side in the
:data:`~.table_joins.TABLE_LIMIT` tables holding that side nearest the
clause, and of those only the ones a scope keeps (the clause's own section,
the tables under a heading it names, those under its top heading).
Sorting every candidate by its distance and asking the scope of each, once
per clause, made that reading cost as much as a page's parse on a page of
400 sections (issue 23's prose benchmark). Two facts make it a bisection:

- the orders nearest a block position, of a sorted list, stand side by
  side: :func:`nearest_window` gives the slice;
- a scope is a list of tables in document order (:class:`TableSet`): the
  tables of it inside a window lie between the window's first and last
  orders, so :meth:`TableSet.among` reads the shorter of the two lists.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Iterable

from .document import Document


def nearest_window(orders: list[int], near: int, limit: int) -> tuple[int, int]:
    """(start, end) of the slice of ``orders`` (ascending, distinct) holding
    the ``limit`` orders nearest ``near``, the lower order first of two as
    near: the same orders as sorting them all by (distance, order) and
    taking the first ``limit``. The slice moves right while the order it
    opens with lies further from ``near`` than the one past its end."""
    count = len(orders)
    if count <= limit:
        return 0, count
    middle = bisect_left(orders, near)
    low, high = max(0, middle - limit), min(middle, count - limit)
    while low < high:
        start = (low + high) // 2
        if near - orders[start] > orders[start + limit] - near:
            low = start + 1
        else:
            high = start
    return low, low + limit


class TableSet:
    """Tables a clause is read among (each with an ``order``, its block
    position), kept in document order. It is also a test of a table (true
    for one of them), as a scope given to :func:`~.table_joins.side_cells`
    as a function is."""

    def __init__(self, tables: Iterable) -> None:
        self.tables = sorted(tables, key=lambda table: table.order)
        self.orders = [table.order for table in self.tables]
        self._ids = frozenset(id(table) for table in self.tables)
        self._order_set: frozenset[int] | None = None

    def __call__(self, table) -> bool:
        return id(table) in self._ids

    def among(self, orders: list[int], start: int, end: int, held: dict) -> list:
        """``held[order]`` for each order of ``orders[start:end]`` (ascending)
        that is the order of one of these tables, in document order; ``held``
        holds a value for every order of ``orders``."""
        if start >= end:
            return []
        low = bisect_left(self.orders, orders[start])
        high = bisect_right(self.orders, orders[end - 1])
        if high - low <= end - start:
            # these tables inside the window's span: those ``held`` knows are the window's
            return [held[order] for order in self.orders[low:high] if order in held]
        if self._order_set is None:
            self._order_set = frozenset(self.orders)
        mine = self._order_set
        return [held[order] for order in orders[start:end] if order in mine]


def section_tables(document: Document, section: int) -> TableSet:
    """The tables of ``section`` (those ``table.section == section``), read once per document."""
    key = ("table_joins section tables", section)
    found = document.memo.get(key)
    if found is None:
        found = document.memo[key] = TableSet(document.tables_by_section.get(section, ()))
    return found


def top_tables(document: Document, top: str | None) -> TableSet:
    """The tables whose outermost heading is ``top`` (none for None), read once per document."""
    index = document.memo.get("table_joins top tables")
    if index is None:
        grouped: dict[str, list] = {}
        for table in document.tables:
            if table.headings:
                grouped.setdefault(table.headings[-1], []).append(table)
        index = document.memo["table_joins top tables"] = {text: TableSet(tables) for text, tables in grouped.items()}
    found = index.get(top) if top is not None else None
    return found if found is not None else TableSet(())


def named_tables(document: Document, named: list) -> TableSet:
    """``named`` as a :class:`TableSet`, kept per document while the same list is asked again (heading_scope's
    lists are the document's own)."""
    key = ("table_joins named tables", id(named))
    found = document.memo.get(key)
    if found is None or found[0] is not named:
        found = document.memo[key] = (named, TableSet(named))
    return found[1]


__all__ = ["TableSet", "named_tables", "nearest_window", "section_tables", "top_tables"]
