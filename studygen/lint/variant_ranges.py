"""A prose range claimed across the variants of a table (SG101): "AP ranges
from 0.6137 to 0.7347 across the variants", "between 5.2 and 9.8 ms for
both precisions".

Such a range summarises no single column: it spans the figures of every
variant column of its unit in the table, one per variant (``fp32 (AP)`` and
``fp16 (AP)``), so :func:`across_variants` hands SG101 one series holding
them all, in place of the columns it joins. A column of differences ("fp16
minus fp32 (AP points)", :func:`~studygen.lint.text.difference_header`) or
of ratios is no variant. Each table is joined on its own, the range's own
section first; SG101 weighs them as it weighs columns (a table of another
section only with a shared word and an endpoint found, one that the range
covers clearing it). Case (a new user's README): the range "0.6137 to
0.7000 across the variants" passed over fp16 at 0.6137 and fp32 at 0.7347,
since the fp16 column alone fits it.

A range whose clause names no variant at all ("the GPU compute medians span
0.4790 to 0.4821 ms") is joined the same way only over a table of the range's
own section whose variant columns split its rows, one column filled per row
(an fp32 row, two fp16 rows, dashes elsewhere): the variants are then one
quantity written in several columns. Such a union carries no word of the
clause, so SG101 weighs it as any column the clause does not name (both
endpoints found in it, or most of its rows inside the range), and the
columns themselves stay candidates: a range one column fits wholly, both
endpoints found, is read as that column's.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..patterns import lazy_compile
from .document import Block, Sentence, Series, cached_property
from .figures import RATIO_UNITS, Figure, Range
from .series_index import MAX_READ
from .text import difference_header, figure_scope, ratio_header, stem

# "across the variants", "over all precisions", "for both variants", "in every recipe"
_ACROSS_VARIANTS_RE = lazy_compile(
    r"\b(?:across|over|for|in|among)\s+(?:the\s+|all\s+(?:the\s+)?|both\s+(?:the\s+)?|every\s+|each\s+)?"
    r"(variants?|precisions?|recipes?)\b",
    re.IGNORECASE,
)


@dataclass(eq=False)
class VariantUnion(Series):
    """The variant columns ``joined`` of one table read as one series: each
    row gives the figure of every column (a range cell both its ends).
    ``named_by``: the clause's word for them ("variant"), a word of its
    :attr:`quantity` beside the variants' own, so that SG101 reads the
    clause as naming them, as it does a column whose variant it names."""

    joined: tuple[Series, ...] = ()
    named_by: str = ""

    @cached_property
    def figures(self) -> list[tuple[int, Figure]]:
        return sorted((pair for series in self.joined for pair in series.figures), key=lambda pair: pair[0])

    @cached_property
    def quantity(self) -> frozenset[str]:
        return frozenset().union(*(series.quantity for series in self.joined), (self.named_by,) if self.named_by else ())

    @cached_property
    def measure(self) -> frozenset[str]:
        return frozenset().union(*(series.measure for series in self.joined))


def claims_across_variants(sentence: Sentence, rng: Range) -> str:
    """The stem of the word ("variant", "precision") by which the clause of
    ``rng`` claims it across the variants, else ""."""
    start, end = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    match = _ACROSS_VARIANTS_RE.search(sentence.text, start, end)
    return stem(match.group(1).lower()) if match else ""


def _variant_columns(table, unit: str) -> list[Series]:
    """The columns of ``unit`` that each name a variant of their own by a
    precision word ("fp16 (AP)", "FP8 (72 linears)"); none unless every
    column of the unit does, and no two alike: columns of batch sizes or
    statistics ("batch 1 ms", "batch 64 ms") over variants as rows are no
    variants, and "for every variant" there claims the rows."""
    columns = [s for s in table.series if s.unit == unit and s.column not in table.label_columns
               and not difference_header(s.header) and not ratio_header(s.header)]
    variants = {s.quantity - s.measure for s in columns}  # the precision words of each header (measure_words)
    if any(s.parts != 1 for s in columns) or frozenset() in variants or len(variants) < len(columns):
        return []
    return columns


def across_variants(block: Block, sentence: Sentence, rng: Range, sources: Iterable[Series]) -> Iterator[Series]:
    """``sources`` (SG101's columns for ``rng``, nearest first), with the
    variant columns of each table of the block's section joined into one
    :class:`VariantUnion` first when the clause claims the range across the
    variants (and the table has two or more); ``sources`` as they are
    otherwise."""
    if rng.unit is None or rng.unit in RATIO_UNITS:
        yield from sources
        return
    named_by = claims_across_variants(sentence, rng)
    if not named_by:
        yield from _unnamed_unions(block, sentence, rng.unit)
        yield from sources  # each column stays a candidate: one fitting wholly clears the union
        return
    joined: set[int] = set()
    # the section's tables first, then the nearest (SG101 reads another section's only with a word and an endpoint)
    for table in sorted(block.document.tables, key=lambda t: (t.section != block.section, abs(t.order - block.order))):
        columns = _variant_columns(table, rng.unit)
        if len(columns) < 2:
            continue
        joined.update(id(s) for s in columns)
        yield _union(table, columns, named_by)
    yield from (s for s in sources if id(s) not in joined)


def _unnamed_unions(block: Block, sentence: Sentence, unit: str) -> Iterator[VariantUnion]:
    """The variant columns of ``unit`` of each table of the block's section
    joined into one :class:`VariantUnion`, when the sentence names none of
    their variant words and no row has a figure in two of them (the
    variants split the rows: one quantity in several columns). The
    :data:`.series_index.MAX_READ` such tables nearest the block are read."""
    split = _row_split_tables(block.document, block.section, unit)
    if not split:
        return
    orders = [table.order for table, _ in split]
    at = bisect_left(orders, block.order)
    window = split[max(0, at - MAX_READ):at + MAX_READ]
    for table, columns in sorted(window, key=lambda pair: abs(pair[0].order - block.order))[:MAX_READ]:
        if not any(s.quantity - s.measure & sentence.keywords for s in columns):
            yield _union(table, columns, "")


def _row_split_tables(document, section: int, unit: str) -> list[tuple[object, list[Series]]]:
    """(table, its variant columns of ``unit``) for each table of ``section``,
    in document order, with two or more such columns and no row holding a
    figure in two of them; read once per section and unit, since every
    range of the section asks."""
    cache = document.__dict__.setdefault("_row_split_tables", {})
    key = (section, unit)
    if key not in cache:
        found = []
        for table in document.tables_by_section.get(section, ()):
            columns = _variant_columns(table, unit)
            if len(columns) >= 2 and all(sum(1 for s in columns if s.ends(row)) <= 1 for row in range(len(table.rows))):
                found.append((table, columns))
        cache[key] = found
    return cache[key]


def _union(table, columns: list[Series], named_by: str) -> VariantUnion:
    first = columns[0]
    header = " and ".join(f"'{s.header}'" for s in columns)[1:-1]  # SG101 quotes the description it is given
    return VariantUnion(table, first.column, -1, 1, header, "", first.unit, None,
                        frozenset().union(*(s.keywords for s in columns)), [None] * len(first.values), {},
                        tuple(columns), named_by)


__all__ = ["VariantUnion", "across_variants", "claims_across_variants"]
