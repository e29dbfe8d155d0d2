"""The marker of Markdown that studygen's helpers built (tables, spans,
links), which the template engine passes through as it is (render/engine.py).
Strings from records and study files are escaped by :mod:`.escaping`."""

from __future__ import annotations


class Markdown(str):
    """Text that studygen's own helpers built as Markdown (a table, a span of
    figures, a figure's link), record strings in it already escaped: the
    template engine passes it through as it is. Any operation on it (``+``,
    a filter) gives a plain ``str`` again, which is escaped like a record
    string (:func:`.escaping.escape_prose`)."""

    __slots__ = ()
