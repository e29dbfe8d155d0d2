"""Ranges written in words in the cells of a summary table, read as prose (SG101).

A document may sum its results up in a table of words rather than in a paragraph:

    | Metric   | Engine A advantage    | Engine B advantage |
    |----------|-----------------------|--------------------|
    | Latency  | 15-25% faster         | -                  |

or, for one configuration the header names,

    | Criterion | Large model performance |
    | Quality   | 91-93% word accuracy    |

Such a cell states a range over the document's result tables as a sentence would; it is read by SG101 as the
sentence "<header> <row label> <cell>" ("Engine A advantage Latency 15-25% faster": no colon, which would
end the range's clause before the header), so the header names the subject or the rows and the row label the
quantity, as the words around a range in prose do.
:func:`cell_blocks` gives one such :class:`~studygen.lint.document.Block` (kind ``cell``) per cell, at the
cell's source line and in its table's section, so SG101 weighs the result tables near it as it would for a
paragraph in that place. Only a summary table is read, one with no column of measurements (a table with
one is a table of results, its cells read as such: a "~2-3x faster" estimate beside measured times is a
result, not a summary of the others), and in it only a cell holding a range followed by a word (a unit
alone, "12-15 ms", is a figure, not a sentence) and no figure outside that range.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Block, Document, is_empty_cell

# a range of two figures, then a word of at least two letters after its unit: "15-25% faster", "98-99% word accuracy"
_WORDED_RANGE_RE = lazy_compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s*(?:%|x|×)?\s*(?:-|–|—|to)\s*\d+(?:\.\d+)?\s*(?:%|x|×|[A-Za-z/]+)?\s+[A-Za-z]{2,}",
    re.IGNORECASE)
_FIGURE_RE = lazy_compile(r"\d+(?:\.\d+)?")


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
        if table.series or not table.label_columns:
            continue  # a table of results (or of no labels): its cells are not sentences
        key = table.label_columns[0]
        for column in range(len(table.headers)):
            if column == key:
                continue
            # each distinct text once (a column of words repeats little, but a long table may)
            texts = {row.cells[column] for row in table.rows if column < len(row.cells)}
            claims = {text for text in texts if not is_empty_cell(text) and _claim_cell(text)}
            if not claims:
                continue
            header = table.headers[column].strip()
            for row in table.rows:
                cell = row.cells[column] if column < len(row.cells) else ""
                if cell not in claims:
                    continue
                label = row.cells[key].strip()
                text = f"{header} {label} {cell}" if header else f"{label} {cell}"
                heading = table.headings[0] if table.headings else ""
                found.append(Block(document, table.order, table.section, "cell", row.line, row.line, text, heading,
                                   False, table.headings))
    document.memo["cell blocks"] = found
    return found


__all__ = ["cell_blocks"]
