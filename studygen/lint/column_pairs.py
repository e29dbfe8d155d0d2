"""Pairs of table columns that a range of differences may summarise (SG101).

A range such as "FP8 saves 0.04 to 0.11 ms" or "0.40-0.55x of fp16" is
compared with a per-row reading of two columns of one table: the two
figures of an ``a → b`` cell, columns whose headers differ in a word or two
(``fp16 ms`` / ``FP8 ms``), or two columns the sentence names. This module
finds those pairs and computes the readings (``a - b``, ``(a - b) / a`` in
%, ``a / b`` in x); :mod:`.sg101_range_coverage` weighs them. A column of
ratios whose header names its two sides (``Latency / kernel total``) is a
pair too: :func:`may_hold_ratio` says whether a sentence's ratio may be it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from ..numbers import format_number
from ..patterns import lazy_compile
from .document import Block, Document, Row, Sentence, Series, Table
from .figures import RATIO_UNITS, Range, with_unit
from .named_references import claim_reference, other_reference
from .row_variant_pairs import naming_tables
from .text import PARTING_SLASH, keywords, measure_words


class Entry:
    """One value a range is compared with: the row, the value and how to
    print it (``0.409 ms`` or ``0.409 - 0.073 = 0.336 ms``), given as the
    text or a function making it (printed only for the rows a finding
    names: a range checked against 4,000 rows printed all of them)."""

    __slots__ = ("row", "value", "_shown", "decimals")

    def __init__(self, row: Row, value: float, shown: str | Callable[[], str], decimals: int):
        self.row, self.value, self._shown, self.decimals = row, value, shown, decimals

    @property
    def shown(self) -> str:
        if callable(self._shown):
            self._shown = self._shown()
        return self._shown


def pair_tables(document: Document, block: Block, sentence: Sentence):
    """Tables of the block's section, nearest first, then tables elsewhere
    whose headers, or the heading over them ("### Throughput (tokens/sec)"
    over columns named by engine), share a quantity word with the sentence
    (yielded lazily: a covered candidate in the section ends the search)."""
    local = sorted(document.tables_by_section.get(block.section, []), key=lambda t: (abs(t.order - block.order), t.order))
    yield from local
    others: dict[int, Table] = {}
    for word in sentence.measure:
        for table in (*document.tables_by_keyword.get(word, ()), *document.tables_by_heading_word.get(word, ())):
            if table.section != block.section:
                others[id(table)] = table
    yield from sorted(others.values(), key=lambda t: (abs(t.order - block.order), t.order))
    # a table whose variants are row labels, one the sentence names ("FP16 provides ..."): :mod:`.row_variant_pairs`
    yield from naming_tables(document, sentence, lambda t: t.section == block.section or id(t) in others)


def pairs(table: Table, unit: str) -> list[tuple[Series, Series]]:
    """Column pairs of one unit that a difference can compare: the figures of
    one ``a → b`` cell, columns whose headers differ in a word or two, or
    two columns each named by one word and their unit (``fp16 ms`` and
    ``FP8 ms``)."""
    cached = table.pair_cache.get(unit)
    if cached is not None:
        return cached
    pairs = _find_pairs(table, unit)
    table.pair_cache[unit] = pairs
    return pairs


def _find_pairs(table: Table, unit: str) -> list[tuple[Series, Series]]:
    same_unit = [s for s in table.series if s.unit == unit and s.stat in (None, "p50")]
    found = []
    for i, first in enumerate(same_unit):
        for second in same_unit[i + 1:]:
            if first.column == second.column:
                if first.parts == 2:
                    found.append((first, second))
                continue
            if first.parts > 1 and second.parts > 1 and first.sub != second.sub:
                continue
            shared = first.keywords & second.keywords
            if shared and len(first.keywords ^ second.keywords) <= 4:
                found.append((first, second))
            elif len(first.keywords) == 1 and len(second.keywords) == 1:
                # "fp16 ms" / "FP8 ms", "eager ms" / "compiled ms": one word each, the unit in common
                found.append((first, second))
    return found


def named_pairs(table: Table, unit: str | None, sentence: Sentence) -> list[tuple[Series, Series]]:
    """Column pairs of one unit whose headers the sentence both names
    ("split-K ... vs the plain kernel"), beyond :func:`pairs`."""
    words = sentence.keywords
    named = [s for s in table.series if s.unit == unit and s.stat in (None, "p50") and s.quantity and s.quantity <= words | _FILLER]
    known = {(id(a), id(b)) for a, b in pairs(table, unit)}
    return [(a, b) for i, a in enumerate(named) for b in named[i + 1:]
            if a.column != b.column and (id(a), id(b)) not in known and (id(b), id(a)) not in known]


def may_state(first: Series, second: Series, sentence: Sentence) -> bool:
    """False when ``sentence`` names two precisions or more ("FP8's GEMM
    kernels take 0.001 to 0.276 ms less than fp16's") and neither word that
    tells the two columns apart: it states the difference of those
    precisions, not of ``Host issue ms`` and ``Host wall ms``, though a value
    of that difference may print alike (issue 26's property test). A
    sentence naming no two precisions ("latency fell by 40-45%") may
    summarise any pair; the two figures of one ``a -> b`` cell are always a
    pair."""
    words = sentence.keywords
    if len(words - measure_words(words)) < 2 or first.column == second.column:
        return True
    return bool((first.keywords ^ second.keywords) & words)


# What parts a ratio header into its two sides: "Latency / kernel total", "host over GPU", "FP8 vs fp16";
# not the slash of a rate unit ("Speedup (x), img/s at batch 8" names no sides).
_RATIO_SIDES_RE = lazy_compile(PARTING_SLASH + r"|\s+(?:over|vs\.?|versus|against)\s+", re.IGNORECASE)


def may_hold_ratio(series: Series, sentence: Sentence, end: int | None = None) -> bool:
    """False when ``sentence`` names two precisions or more ("fp16 over FP8
    latency is 1.01x to 1.20x": a ratio of those variants) and ``series`` is a
    ``x`` or ``%`` column whose header names its two sides, none of them a
    precision of the sentence, nor each a quantity whose every word the
    sentence names (``Latency / kernel total``: latency over kernel time of one variant,
    ``fp32 / fp16``: other variants), though its figures may print like the
    range's ends (issue 26's property test, class D). True otherwise: a
    header that names no sides ("Speedup") may hold any ratio, and a sentence
    naming fewer than two precisions ("latency over kernel time is ...") any
    ratio column. As :func:`may_state` does for pairs of columns. False
    too when the range ending at offset ``end`` names a reference the
    column's header does not ("2-3x faster than cuDNN" and a ``vs Target``
    column: :func:`.named_references.other_reference`)."""
    if end is not None and other_reference(series, claim_reference(sentence.block.text, end, sentence.end)):
        return False
    if series.unit not in RATIO_UNITS:
        return True
    words = sentence.keywords
    precisions = words - measure_words(words)
    if len(precisions) < 2:
        return True
    sides = [keywords(side) for side in _RATIO_SIDES_RE.split(series.header)]
    if len(sides) != 2 or not all(sides):
        return True
    named = [side - measure_words(side) for side in sides]
    if any(named) and all(side <= precisions for side in named):
        return True  # "fp16 / FP8 recipe", "Speedup over fp16": ratios of the sentence's variants
    # "latency over kernel total is ..." names each side whole; "on both GPUs" does not name 'GPU busy'
    return all(measure_words(side) and measure_words(side) <= words for side in sides)


# What names the reference of a relative change right after it: "20% higher than Beta", "30% faster compared
# with fp16", "12% lower relative to the baseline" (the words after it, to the clause's end, name the base)
_REFERENCE_BEFORE_RE = lazy_compile(
    r"\b(?:than|over|vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to)\s+([^.;:,()]{1,60})", re.IGNORECASE)


def names_both(first: Series, second: Series, words: frozenset[str]) -> bool:
    """True when ``words`` hold every word that tells each column of the pair from the other ("vLLM" and
    "Triton" of two engine columns)."""
    first_own, second_own = first.keywords - second.keywords, second.keywords - first.keywords
    return bool(first_own) and bool(second_own) and first_own <= words and second_own <= words


def tied_elsewhere(table: Table, first: Series, second: Series, sentence: Sentence) -> bool:
    """True when a pair of another section than the sentence's is tied to it: a header names the sentence's
    quantity, or the heading over the table does ("### Throughput (tokens/sec)") and the sentence names both
    columns (:func:`names_both`)."""
    words = sentence.measure
    return bool((first.measure | second.measure) & words) or bool(
        table.heading_words & words and names_both(first, second, sentence.keywords))


def stated_pair(table: Table, first: Series, second: Series, sentence: Sentence, end: int) -> tuple[bool, Series | None]:
    """(whether a relative range ending at offset ``end`` of ``sentence`` may state a change of this pair, the
    column it names as the change's reference or None). "12-20% higher than Triton" states a change of
    Triton's column and the other column the sentence names: a pair of two others, or holding Triton and an
    engine the sentence does not name, is not it (:func:`reference_side`, :func:`names_another_reference`)."""
    after = sentence.text[end - sentence.start:]
    reference = reference_side(first, second, after)
    if reference is None:
        return not names_another_reference(table, first, second, after), None
    return len(table.series) <= 2 or names_both(first, second, sentence.keywords), reference


_SPEED_AFTER_RE = lazy_compile(r"[\s*_]*(?:faster|slower|quicker|speed)", re.IGNORECASE)


def names_another_reference(table: Table, first: Series, second: Series, text: str) -> bool:
    """True when ``text`` (a range's clause from the range on) names, after "than", "over", "vs" ...
    (:func:`reference_side`), a column of ``table`` other than the pair's two by the words its header does not
    share with every column ("than Triton" of engine columns vLLM, TGI, Triton): the pair is not the comparison
    the clause states."""
    match = _REFERENCE_BEFORE_RE.search(text)
    if match is None or len(table.series) < 3:
        return False
    named = keywords(match.group(1))
    common = frozenset.intersection(*(series.keywords for series in table.series))
    return any(series is not first and series is not second and (own := series.keywords - common) and own <= named
               for series in table.series)


def reference_side(first: Series, second: Series, text: str) -> Series | None:
    """The column of the pair that ``text`` (the range's clause, from the range on) names as the reference
    of its change, after "than", "over", "vs", "compared to/with" or "relative to", when it names exactly
    one of the two by the words that tell them apart ("20% higher throughput than Beta": the Beta column);
    None when it names neither, both, or no such word stands there, and for a speed word right after the
    range ("67% faster than fp16" over times is fp16's time over the faster one's, its base the subject)."""
    if _SPEED_AFTER_RE.match(text):
        return None
    match = _REFERENCE_BEFORE_RE.search(text)
    if match is None:
        return None
    named = keywords(match.group(1))
    first_own, second_own = first.keywords - second.keywords, second.keywords - first.keywords
    first_named, second_named = bool(first_own) and first_own <= named, bool(second_own) and second_own <= named
    if first_named == second_named:
        return None
    return first if first_named else second


# Words of a generated sub-column name ("figure 1 of 2"), not of its header.
_FILLER = frozenset({"figure"})


def pair_reading(first: Series, second: Series, rows: list[int], rng: Range, relative: bool,
                 sentence: Sentence | None = None):
    """(description, values, entry maker) of the reading of the pair that
    puts most rows inside the range: ``a - b`` or ``b - a``; for relative
    ranges ``(a - b) / a`` or ``(a - b) / b`` in %, both signs, or ``a / b``
    and ``b / a`` in x. A relative range of ``sentence`` that names the
    change's reference is read over that column only, its base, and not over
    a pair it does not state (:func:`stated_pair`). None when fewer than two
    rows hold both figures, or the sentence states no change of this pair."""
    reference = None
    if relative and sentence is not None:
        stated, reference = stated_pair(first.table, first, second, sentence, rng.end)
        if not stated:
            return None
    pairs = [(i, first.values[i], second.values[i]) for i in rows if first.values[i] is not None and second.values[i] is not None]
    if len(pairs) < 2:
        return None
    names = f"'{first.header}' and '{second.header}'"
    readings = []  # (description, values, formula)
    if not relative:
        readings.append((f"a difference of {names}", [a.value - b.value for _, a, b in pairs], "a-b"))
        readings.append((f"a difference of {names}", [b.value - a.value for _, a, b in pairs], "b-a"))
    elif rng.unit == "%":
        if all(a.value for _, a, _ in pairs) and reference is not second:
            change = [(a.value - b.value) / a.value * 100.0 for _, a, b in pairs]
            readings.append((f"a relative difference of {names}", change, "(a-b)/a"))
            readings.append((f"a relative difference of {names}", [-v for v in change], "(b-a)/a"))
        if all(b.value for _, _, b in pairs) and reference is not first:
            change = [(a.value - b.value) / b.value * 100.0 for _, a, b in pairs]
            readings.append((f"a relative difference of {names}", change, "(a-b)/b"))
            readings.append((f"a relative difference of {names}", [-v for v in change], "(b-a)/b"))
    else:
        if all(b.value for _, _, b in pairs):
            readings.append((f"a ratio of {names}", [a.value / b.value for _, a, b in pairs], "a/b"))
        if all(a.value for _, a, _ in pairs):
            readings.append((f"a ratio of {names}", [b.value / a.value for _, a, b in pairs], "b/a"))
    if not readings:
        return None
    low_edge = rng.lo.value - rng.lo.half_step - 1e-9
    high_edge = rng.hi.value + rng.hi.half_step + 1e-9
    description, values, formula = max(readings, key=lambda r: sum(1 for v in r[1] if low_edge <= v <= high_edge))
    table = first.table
    shown_decimals = max(rng.lo.decimals, rng.hi.decimals) + 1

    def show(a, b, value) -> str:
        if formula in ("a-b", "b-a"):
            x, y = (a, b) if formula == "a-b" else (b, a)
            return f"{x.text} - {y.text} = {with_unit(format_number(value, max(a.decimals, b.decimals)), rng.unit)}"
        if formula in ("a/b", "b/a"):
            x, y = (a, b) if formula == "a/b" else (b, a)
            return f"{x.text} / {y.text} = {format_number(value, shown_decimals)}x"
        x, y = (a, b) if formula.startswith("(a") else (b, a)
        base = a if formula.endswith("/a") else b
        return f"({x.text} - {y.text}) / {base.text} = {format_number(value, shown_decimals)}%"

    def make() -> list[Entry]:
        decimals = shown_decimals if formula not in ("a-b", "b-a") else None
        return [Entry(table.rows[i], value, partial(show, a, b, value),
                      max(a.decimals, b.decimals) if decimals is None else decimals)
                for (i, a, b), value in zip(pairs, values)]

    return description, values, make


__all__ = ["Entry", "may_hold_ratio", "may_state", "named_pairs", "names_another_reference", "names_both", "pair_reading", "pair_tables", "pairs", "reference_side",
           "stated_pair", "tied_elsewhere"]
