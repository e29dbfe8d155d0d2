"""Rows a prose range's own sentence sets aside before SG101 reads it against a column.

- Baseline rows (:func:`baseline_rows`): the row a ratio column compares against prints
  the identity (1x, 100%, 0%) and is no value a range of ratios summarises.
- Bands (:func:`band_rows`): "Good (65-80% acceptance): 6 prompts (3.67-3.89x)" names,
  in parentheses, a band of another column's values; the range after it is about the rows
  whose value in that column lies inside the band, each end widened by half its last digit
  (65 stands for 64.5 to 65.5). The band is a selection, not a summary, so
  :func:`is_band` tells SG101 to leave it unread as a range.

Imported by :mod:`studygen.lint.sg101_range_coverage` only.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Sentence, Series
from .figures import RATIO_UNITS, Range
from .rounding import covers
from .text import figure_scope, keywords, normalize

# A row that is the comparison's reference: its ratio is the identity (1.00x, 100%, 0%).
_BASELINE_WORD_RE = lazy_compile(r"\b(?:baseline|reference|ref|none|default|original|vanilla|stock|naive|unoptimi[sz]ed)\b")
_REFERENCE_BEFORE = r"(?:of|vs\.?|versus|over|than|against|to|with|relative\s+to|compared\s+(?:to|with))\s+(?:the\s+)?"


def baseline_rows(series: Series, rng: Range, view, opening: str = "") -> set[int]:
    """Rows of an ``x`` or ``%`` series that are the comparison's reference
    SG101 leaves out: their value is the identity (1x; 100% or 0% for a percentage)
    and their label says baseline / reference / none / default …, or the
    clause names them as what is compared against ("0.40-0.55x of the
    fp16 reference"), or the sentence's ``opening`` reference phrase does
    (:func:`.text.reference_opening`: "Against fp16, the quantized engines take
    0.40-0.55x"). Empty when the range itself covers the identity."""
    if series.unit not in RATIO_UNITS:
        return set()
    identities = (1.0,) if series.unit == "x" else (100.0, 0.0)
    if any(covers(rng.lo, rng.hi, identity) for identity in identities):
        return set()
    rows = series.table.rows
    found = set()
    for index, figure in enumerate(series.values):
        if figure is None or figure.value not in identities:
            continue
        label = normalize(rows[index].label)
        if not label:
            continue
        if _BASELINE_WORD_RE.search(label) or any(
            re.search(_REFERENCE_BEFORE + re.escape(normalize(part)) + r"(?![\w])", text)
            for part in rows[index].label.split(" / ")
            for text in (view.normalized, opening)
        ):
            found.add(index)
    return found


# "(65-80% acceptance)", "(70 to 85 % hit rate)": the band's words (three at most) close its parenthesis
_BAND_WORDS_RE = lazy_compile(r"\s*([a-z][\w-]*(?:[ \t]+[a-z][\w-]*){0,2})\s*\)", re.IGNORECASE)
_BAND_OPEN_RE = lazy_compile(r"\(\s*$")


def _band_words(sentence: Sentence, rng: Range) -> frozenset[str] | None:
    """The keywords of ``rng``'s words when it is a band: in parentheses, its
    quantity's words (three at most) closing them, and a range of another
    unit after it in the sentence; None otherwise."""
    if rng.unit is None or not any(r.start > rng.end and r.unit != rng.unit for r in sentence.ranges):
        return None
    text = sentence.block.text
    if not _BAND_OPEN_RE.search(text, max(sentence.start, rng.start - 3), rng.start):
        return None
    after = _BAND_WORDS_RE.match(text, rng.end)
    return keywords(after.group(1)) if after else None


def is_band(sentence: Sentence, rng: Range) -> bool:
    """True when ``rng`` is a band selecting rows of another range of its sentence."""
    return _band_words(sentence, rng) is not None


def band_rows(series: Series, sentence: Sentence, rng: Range) -> set[int] | None:
    """Rows of ``series``'s table inside every band of ``sentence`` that scopes
    ``rng`` (in its clause, or in the sentence's lead before a colon ahead of
    it) and names another series of the table of the band's unit by a word of
    its header; None when no band does."""
    colon = sentence.text.find(":")
    lead_end = sentence.start + colon if colon != -1 and sentence.start + colon < rng.start else sentence.start
    relative = rng.start - sentence.start
    clause_start, clause_end = figure_scope(sentence.text, relative, relative + rng.end - rng.start)
    kept: set[int] | None = None
    for band in sentence.ranges:
        if band is rng or band.start >= rng.start:
            continue
        if not (band.end <= lead_end or clause_start <= band.start - sentence.start < clause_end):
            continue
        words = _band_words(sentence, band)
        if not words:
            continue
        for other in series.table.series:
            if other is series or other.unit != band.unit or not other.quantity & words:
                continue
            inside = {i for i, figure in enumerate(other.values) if figure is not None and covers(band.lo, band.hi, figure.value)}
            kept = inside if kept is None else kept & inside
            break
    return kept
