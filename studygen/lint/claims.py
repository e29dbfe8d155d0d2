"""Single-figure claims (SG101): "trains 5x faster", "70% less memory".

A figure in ``x`` or ``%`` written with the direction it goes ("faster",
"less", "smaller" …) claims what the table beside it measures. It is read
against the columns of its unit that state the same thing: their cells
print the same direction word ("2x faster", "70% less"), or their header
names the quantity the claim names right after its direction ("less
memory" for a ``Memory use`` column). Row labels the clause names restrict
it to those rows, as for ranges.

The claim is *overstated* when it exceeds every row of every such column
by more than the printed digits of both allow (``5x`` stands for 4.5 to
5.5). A claim below every row, a bound ("up to 30x", "over 2x", "~3x") and
a figure the sentence denies are not reported: understating, or stating
only a bound, is no inconsistency.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..patterns import lazy_compile
from .document import Block, Document, Sentence, Series
from .figures import Figure
from .text import STOPWORDS, stem
from .vocabulary import DIRECTION_WORDS

# The direction a claim or a cell goes; stems, so "faster" and "fast" meet.
_DIRECTION_RE = lazy_compile(rf"\s*({'|'.join(DIRECTION_WORDS)})\b\s*([A-Za-z][\w-]*)?", re.IGNORECASE)
# "up to 30x", "over 2x", "~3x", "about 40%": a bound or an estimate, not a measured claim.
_HEDGE_RE = lazy_compile(
    r"(?:~|≈|≥|≤|>|<|\bup\s*to|\bupto|\bover|\bmore\s+than|\bat\s+least|\bat\s+most|\babout|\baround|\broughly|"
    r"\bnearly|\balmost|\bapprox(?:imately|\.)?|\bas\s+much\s+as|\bas\s+little\s+as|\bbetween|\bunder|\bbelow|"
    r"\babove|\bbeyond|\bless\s+than|\bclose\s+to|\bon\s+average|\baverage|\bavg\.?|\bnot)\s*$",
    re.IGNORECASE,
)
_HEDGE_WINDOW = 16  # characters before a figure that may hold its hedge
# A cell that states a lower bound (">75%", "over 2x", "at least 3x", "70%+"): a claim above it does not exceed it.
_LOWER_BOUND_BEFORE_RE = lazy_compile(r"(?:>|≥|\bover|\bmore\s+than|\bat\s+least|\babove)\s*[*_]*\s*$", re.IGNORECASE)
_CONTENT_SKIP = frozenset({"than", "with", "and", "or", "for", "in", "on", "at", "to", "vs", "versus", "while", "when"})
_RATIO_CLAIM_UNITS = ("x", "%")


@dataclass(frozen=True)
class Claim:
    """A single figure and the direction it goes ("5x faster")."""

    figure: Figure
    direction: str  # the direction word, lower case ("faster")
    quantity: str  # the word after the direction ("memory"), "" when none names one


def claims_of(sentence: Sentence) -> list[Claim]:
    """The claims of a sentence: figures in x or % outside its ranges, each
    followed by a direction word and not hedged (see the module docstring)."""
    text = sentence.block.text
    in_ranges = sentence.range_ends
    found = []
    for token in sentence.tokens:
        figure = token.figure
        if figure is None or figure.unit not in _RATIO_CLAIM_UNITS or figure.start in in_ranges:
            continue
        match = _DIRECTION_RE.match(text, figure.end, sentence.end)
        if match is None:
            continue
        if _HEDGE_RE.search(text, max(sentence.start, figure.start - _HEDGE_WINDOW), figure.start):
            continue
        following = (match.group(2) or "").lower()
        quantity = "" if following in STOPWORDS or following in _CONTENT_SKIP else following
        found.append(Claim(figure, match.group(1).lower(), quantity))
    return found


def cell_direction(cell: str, figure: Figure) -> str:
    """The direction word printed after ``figure`` in a cell ("2x faster" ->
    "faster"), "" when none."""
    match = _DIRECTION_RE.match(cell, figure.end)
    return match.group(1).lower() if match else ""


def _states_same(series: Series, claim: Claim) -> bool:
    """True when ``series`` measures what ``claim`` states: most of its cells
    print the claim's direction, or its header names the claim's quantity."""
    if claim.quantity and stem(claim.quantity) not in {stem(w) for w in series.keywords}:
        return False  # "4x faster downloading" is not about a training-speed column
    rows = series.table.rows
    present = series.present_indexes
    directions = [cell_direction(rows[i].cells[series.column], series.values[i]) for i in present]
    if sum(1 for d in directions if d == claim.direction) * 2 > len(present):
        return True
    return bool(claim.quantity)


def _restricted(series: Series, view) -> list[int] | None:
    """The rows of ``series`` holding a figure among those ``view`` names (all
    when it names none); None when it names only other tables' rows."""
    rows = series.table.restrict(view)
    return None if rows is None else [i for i in rows if series.values[i] is not None]


def states_lower_bound(cell: str, figure: Figure) -> bool:
    """True when the cell prints ``figure`` as a lower bound (``>75%``,
    ``over 2x``, ``at least 3x``, ``70%+``)."""
    return bool(_LOWER_BOUND_BEFORE_RE.search(cell, 0, figure.start)) or cell[figure.end:].lstrip(" *_").startswith("+")


def overstated(document: Document, block: Block, sentence: Sentence, claim: Claim) -> tuple[Series, list[float]] | None:
    """(the column, its values) when ``claim`` exceeds every row of every
    column that states the same thing (restricted to the rows the clause
    names); None when no column states it or one holds a row it does not
    exceed."""
    figure = claim.figure
    view = sentence.clause_view(figure.start, figure.end - figure.start)
    low_edge = figure.value - figure.half_step
    reported = None
    for series in document.series_by_unit.get(figure.unit, ()):
        if not _states_same(series, claim):
            continue
        rows = _restricted(series, view)
        if rows is None:
            continue
        if len(rows) < 2:
            # "Tune Falcon and Yi 2x faster with 60% less memory": the subject the
            # sentence opens with scopes each claim, not only the clause it sits in
            rows = _restricted(series, sentence.view) or []
        if len(rows) < 2:
            continue
        values = [series.values[i] for i in rows]
        if any(v.value + v.half_step >= low_edge - 1e-9 for v in values):
            return None  # a row reaches the claim: it is a summit, not an overstatement
        cells = series.table.rows
        if any(states_lower_bound(cells[i].cells[series.column], series.values[i]) for i in rows):
            return None  # a row measured only a bound (">75%"): the claim may be what it reached
        nearest = abs(series.table.order - block.order)
        if reported is None or nearest < reported[0]:
            reported = (nearest, series, [v.value for v in values])
    return None if reported is None else (reported[1], reported[2])


__all__ = ["Claim", "cell_direction", "claims_of", "overstated", "states_lower_bound"]
