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
from dataclasses import dataclass

from ..numbers import format_number
from ..patterns import lazy_compile
from .document import Block, Document, Row, Sentence, Series, Table
from .figures import RATIO_UNITS, Range, with_unit
from .text import PARTING_SLASH, keywords, measure_words


@dataclass
class Entry:
    """One value a range is compared with: the row, the value and how to
    print it (``0.409 ms`` or ``0.409 - 0.073 = 0.336 ms``)."""

    row: Row
    value: float
    shown: str
    decimals: int


def pair_tables(document: Document, block: Block, sentence: Sentence):
    """Tables of the block's section, nearest first, then tables elsewhere
    whose headers share a word with the sentence (yielded lazily: a covered
    candidate in the section ends the search)."""
    local = sorted(document.tables_by_section.get(block.section, []), key=lambda t: (abs(t.order - block.order), t.order))
    yield from local
    others: dict[int, Table] = {}
    for word in sentence.measure:
        for table in document.tables_by_keyword.get(word, ()):
            if table.section != block.section:
                others[id(table)] = table
    yield from sorted(others.values(), key=lambda t: (abs(t.order - block.order), t.order))


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


def may_hold_ratio(series: Series, sentence: Sentence) -> bool:
    """False when ``sentence`` names two precisions or more ("fp16 over FP8
    latency is 1.01x to 1.20x": a ratio of those variants) and ``series`` is a
    ``x`` or ``%`` column whose header names its two sides, none of them a
    precision of the sentence, nor each a quantity whose every word the
    sentence names (``Latency / kernel total``: latency over kernel time of one variant,
    ``fp32 / fp16``: other variants), though its figures may print like the
    range's ends (issue 26's property test, class D). True otherwise: a
    header that names no sides ("Speedup") may hold any ratio, and a sentence
    naming fewer than two precisions ("latency over kernel time is ...") any
    ratio column. As :func:`may_state` does for pairs of columns."""
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


# Words of a generated sub-column name ("figure 1 of 2"), not of its header.
_FILLER = frozenset({"figure"})


def pair_reading(first: Series, second: Series, rows: list[int], rng: Range, relative: bool):
    """(description, values, entry maker) of the reading of the pair that
    puts most rows inside the range: ``a - b`` or ``b - a``; for relative
    ranges ``(a - b) / a`` or ``(a - b) / b`` in %, both signs, or ``a / b``
    and ``b / a`` in x. None when fewer than two rows hold both figures."""
    pairs = [(i, first.values[i], second.values[i]) for i in rows if first.values[i] is not None and second.values[i] is not None]
    if len(pairs) < 2:
        return None
    names = f"'{first.header}' and '{second.header}'"
    readings = []  # (description, values, formula)
    if not relative:
        readings.append((f"a difference of {names}", [a.value - b.value for _, a, b in pairs], "a-b"))
        readings.append((f"a difference of {names}", [b.value - a.value for _, a, b in pairs], "b-a"))
    elif rng.unit == "%":
        if all(a.value for _, a, _ in pairs):
            change = [(a.value - b.value) / a.value * 100.0 for _, a, b in pairs]
            readings.append((f"a relative difference of {names}", change, "(a-b)/a"))
            readings.append((f"a relative difference of {names}", [-v for v in change], "(b-a)/a"))
        if all(b.value for _, _, b in pairs):
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

    def make() -> list[Entry]:
        entries = []
        for (i, a, b), value in zip(pairs, values):
            if formula in ("a-b", "b-a"):
                x, y = (a, b) if formula == "a-b" else (b, a)
                decimals = max(a.decimals, b.decimals)
                shown = f"{x.text} - {y.text} = {with_unit(format_number(value, decimals), rng.unit)}"
            elif formula in ("a/b", "b/a"):
                x, y = (a, b) if formula == "a/b" else (b, a)
                decimals = shown_decimals
                shown = f"{x.text} / {y.text} = {format_number(value, decimals)}x"
            else:
                x, y = (a, b) if formula.startswith("(a") else (b, a)
                base = a if formula.endswith("/a") else b
                decimals = shown_decimals
                shown = f"({x.text} - {y.text}) / {base.text} = {format_number(value, decimals)}%"
            entries.append(Entry(table.rows[i], value, shown, decimals))
        return entries

    return description, values, make


__all__ = ["Entry", "may_hold_ratio", "may_state", "named_pairs", "pair_reading", "pair_tables", "pairs"]
