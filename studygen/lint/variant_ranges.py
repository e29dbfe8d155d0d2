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

A table of another section (a summary above the results) is joined so by
:func:`far_unions` when both endpoints are figures of its variant columns and
the sentence names the quantity of its heading or headers; the word that ties
them becomes the union's ``named_by``, so SG101 reads it as a tied column.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..patterns import lazy_compile
from .document import Block, Sentence, Series, cached_property
from .figures import RATIO_UNITS, Figure, Range, statistic_of
from .series_index import MAX_READ, only_variant_column
from .text import difference_header, figure_scope, keywords, measure_words, ratio_header, stem
from .variant_pairs import kind_of_words

# "across the variants", "over all precisions", "for both variants", "in every recipe"
_ACROSS_VARIANTS_RE = lazy_compile(
    r"\b(?:across|over|for|in|among)\s+(?:the\s+|all\s+(?:the\s+)?|both\s+(?:the\s+)?|every\s+|each\s+)?"
    r"(variants?|precisions?|recipes?)\b",
    re.IGNORECASE,
)
# "every variant's median", "each precision's latency", "both variants' medians": a possessive claims it the same way
_VARIANTS_POSSESSIVE_RE = lazy_compile(
    r"\b(?:every|each)\s+(variant|precision|recipe)['’]s\b|\b(?:all|both)\s+(?:the\s+)?(variants|precisions|recipes)['’]\B",
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
    ``rng`` claims it across the variants ("across the variants", "every
    variant's"), else ""."""
    start, end = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    match = _ACROSS_VARIANTS_RE.search(sentence.text, start, end) or _VARIANTS_POSSESSIVE_RE.search(sentence.text, start, end)
    return stem(next(word for word in match.groups() if word).lower()) if match else ""


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
    # every table's variants are joined already: a union of a far table among the sources repeats one
    yield from (s for s in sources if id(s) not in joined and not isinstance(s, VariantUnion))


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
            columns = _split_columns(table, unit)
            if columns:
                found.append((table, columns))
        cache[key] = found
    return cache[key]


def _split_columns(table, unit: str) -> list[Series]:
    """The variant columns of ``unit`` of ``table`` when there are two or
    more and no row holds a figure in two of them, else []."""
    columns = _variant_columns(table, unit)
    if len(columns) >= 2 and all(sum(1 for s in columns if s.ends(row)) <= 1 for row in range(len(table.rows))):
        return columns
    return []


def far_unions(block: Block, sentence: Sentence, rng: Range, at_lo: list[Series], at_hi: list[Series]) -> Iterator[VariantUnion]:
    """Unions of the variant columns of tables of other sections than
    ``block``'s that split their rows (as :func:`_unnamed_unions` joins them in
    the range's own section), nearest first, when the clause names none of
    their variants, the low endpoint is a figure of one of the columns
    (``at_lo``: the series holding it) and the high one of one (``at_hi``), and
    the sentence names the quantity the table's heading or headers do
    (:func:`_quantity_tie`; the word becomes the union's ``named_by``, so
    SG101 reads the union as tied to the sentence). "The three GPU compute
    medians lie between 0.1526 and 0.1536 ms" in a summary above a
    'Latency (ms, median GPU compute time)' table with fp32 and fp16 columns."""
    if rng.unit is None or rng.unit in RATIO_UNITS:
        return
    high_ids = {id(series) for series in at_hi}
    tables = {}
    for series in at_lo:
        if series.table.section != block.section and id(series.table) not in tables:
            tables[id(series.table)] = series.table
    yielded = 0
    for table in sorted(tables.values(), key=lambda t: abs(t.order - block.order)):
        columns = _split_columns(table, rng.unit)
        joined = {id(series) for series in columns}
        if not joined & high_ids or not any(id(series) in joined for series in at_lo):
            continue
        if any(series.quantity - series.measure & sentence.keywords for series in columns):
            continue  # a variant named: its own column is the one to read
        word = _quantity_tie(table, columns, sentence.measure)
        if word:
            yield _union(table, columns, word)
            yielded += 1
            if yielded == MAX_READ:
                return


# verbs a clause may time a variant with ("fp16 runs in 0.15 ms", "takes", "needs"): they name no quantity of their own
_TIMING_VERBS = frozenset({"run", "take", "need", "complete", "finishe", "execute", "spend", "last", "lie"})


def names_only_its_column(series: Series, sentence: Sentence, rng: Range) -> bool:
    """True when the clause of ``rng`` names ``series`` as plainly as a
    sentence of its own section would: its variant word heads no other column
    of the unit in the document (:func:`.series_index.only_variant_column`),
    the table's heading or header names a quantity kind ("Latency (ms, ...)")
    and the clause names no other quantity, nor any word beside its variant,
    that heading's words and a timing verb ("fp16 runs in 0.1526 to 0.1530
    ms"; not "the fp32 kernel total takes ...", which may be another
    quantity in the same unit)."""
    if only_variant_column(sentence.block.document, series.unit, sentence.keywords) is not series:
        return False
    table_words = series.table.heading_words | series.measure
    kinds = {kind_of_words((word,)) for word in table_words} - {None}
    if len(kinds) != 1:
        return False
    start, end = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    return not measure_words(keywords(sentence.text[start:end])) - table_words - _TIMING_VERBS


def _quantity_tie(table, columns: list[Series], words: frozenset[str]) -> str:
    """The sentence's word (of its measure ``words``) that names the quantity
    of ``table``'s ``columns``, by their headers or the table's heading: a
    word of a quantity kind ("latency", "time"), or a statistic ("median")
    with another word of theirs beside it ("GPU compute medians" under
    "median GPU compute time"); "" when none does (one shared word such as
    "GPU" ties nothing)."""
    shared = (table.heading_words.union(*(series.measure for series in columns))) & words
    for word in sorted(shared):
        if kind_of_words((word,)):
            return word
    if len(shared) >= 2:
        for word in sorted(shared):
            if statistic_of(word):
                return word
    return ""


def _union(table, columns: list[Series], named_by: str) -> VariantUnion:
    first = columns[0]
    header = " and ".join(f"'{s.header}'" for s in columns)[1:-1]  # SG101 quotes the description it is given
    return VariantUnion(table, first.column, -1, 1, header, "", first.unit, None,
                        frozenset().union(*(s.keywords for s in columns)), [None] * len(first.values), {},
                        tuple(columns), named_by)


__all__ = ["VariantUnion", "across_variants", "claims_across_variants", "far_unions", "names_only_its_column"]
