"""Ranges written in words in the cells of a summary table, read as prose (SG101).

A document may sum its results up in a table of words rather than in a paragraph:

    | Metric   | Engine A advantage    | Engine B advantage |
    |----------|-----------------------|--------------------|
    | Latency  | 15-25% faster         | -                  |

or, for one configuration the header names,

    | Criterion | Large model performance |
    | Quality   | 91-93% word accuracy    |

Such a cell states a range over the document's result tables as a sentence would; it is read by SG101 as the
sentence "<header>: <row label> <cell>" ("Engine A advantage: Latency 15-25% faster"), so the header names
the subject or the rows and the row label the quantity, as the words around a range in prose do.
:func:`cell_blocks` gives one such :class:`~studygen.lint.document.Block` (kind ``cell``) per cell, at the
cell's source line and in its table's section, so SG101 weighs the result tables near it as it would for a
paragraph in that place. Only a cell of words is read: it must hold a range followed by a word (a unit alone,
"12-15 ms", is a measured figure, not a summary) and no figure outside that range, in a column whose cells
hold no figure outside a range (a column holding one figure, "6.6x faster", is one of results).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Block, Document, Table, is_empty_cell

# a range of two figures, then a word of at least two letters after its unit: "15-25% faster", "98-99% word accuracy"
_WORDED_RANGE_RE = lazy_compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:%|x|×)?\s*(?:-|–|—|to)\s*\d+(?:\.\d+)?\s*(?:%|x|×|[A-Za-z/]+)?\s+[A-Za-z]{2,}",
    re.IGNORECASE)
_FIGURE_RE = lazy_compile(r"\d+(?:\.\d+)?")
# any range of two figures, worded or not ("85-92%", "68-74%"): a summary column may set two side by side
_ANY_RANGE_RE = lazy_compile(r"(?<![\w.])\d+(?:\.\d+)?\s*(?:%|x|×)?\s*(?:-|–|—|to)\s*\d+(?:\.\d+)?")


def _words_column(table: Table, column: int, texts: set[str]) -> bool:
    """Whether ``column`` of ``table``, its distinct cell ``texts``, holds words, not measurements: no series
    of the table is of it, and no cell holds a figure outside a range ("85-92% vs 68-74%" is a summary's cell
    too). A cell of one figure, bare or in words ("12.5 ms", "6.6x faster"), makes it a column of results."""
    if any(series.column == column for series in table.series):
        return False
    return not any(_FIGURE_RE.search(_ANY_RANGE_RE.sub(" ", text)) is not None for text in texts
                   if not is_empty_cell(text))


def _claim_cell(text: str) -> bool:
    """Whether a cell's ``text`` states one worded range and no other figure."""
    match = _WORDED_RANGE_RE.search(text)
    if match is None:
        return False
    outside = text[:match.start()] + " " + text[match.end():]
    return _FIGURE_RE.search(outside) is None


def cell_blocks(document: Document) -> list[Block]:
    """One ``cell`` :class:`Block` per summary-table cell that states a worded range (see the module
    docstring), in document order; memoised per document."""
    found = document.memo.get("cell blocks")
    if found is not None:
        return found
    found = []
    for table in document.tables:
        if not table.label_columns:
            continue
        key = table.label_columns[0]
        for column in range(len(table.headers)):
            if column == key:
                continue
            # each distinct text once (label cells repeat down a long table), the claims first: most have none
            texts = {row.cells[column] for row in table.rows if column < len(row.cells)}
            claims = {text for text in texts if not is_empty_cell(text) and _claim_cell(text)}
            if not claims or not _words_column(table, column, texts):
                continue
            header = table.headers[column].strip()
            for row in table.rows:
                cell = row.cells[column] if column < len(row.cells) else ""
                if cell not in claims:
                    continue
                label = row.cells[key].strip()
                text = f"{header}: {label} {cell}" if header else f"{label} {cell}"
                heading = table.headings[0] if table.headings else ""
                found.append(Block(document, table.order, table.section, "cell", row.line, row.line, text, heading,
                                   False, table.headings))
    document.memo["cell blocks"] = found
    return found


__all__ = ["cell_blocks"]
