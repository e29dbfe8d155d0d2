"""Single-figure claims (SG101): "trains 5x faster", "70% less memory",
"up to 3x faster".

A figure in ``x`` or ``%`` written with the direction it goes ("faster",
"less", "smaller", "speedup" …) claims what the tables of the document
measure. It is read against **every column of the document that states the
same thing** (:func:`backing`; the :data:`MAX_BACKING` nearest), wherever it stands (an introduction's claim
and the tables thirty lines and a heading further down): columns of its unit
whose cells print the same direction word ("2x faster", "70% less"), or
whose header names the quantity the claim names right after its direction
("less memory" for a ``Memory use`` column), or, for a speed claim, a column
headed as a speedup ("speedup", "x faster", "relative speed"; in ``x`` or
printed without a unit). Row labels the clause names restrict each table to those rows, as
for ranges; a table whose labels the clause does not name but another
table's it does is left out.

The claim is *overstated* when it exceeds every row of every such column by
more than the printed digits of both allow (``5x`` stands for 4.5 to 5.5);
the finding states the scope it was read against: each column and the line
of its table, how many rows, and the largest. A bound is a claim about the
largest row as well: "up to 3x" and "as much as 3x" are overstated the same
way. An estimate ("~3x", "about 40%", "nearly 2x") is read with the margin of
:mod:`studygen.lint.approximate`: overstated only when every row lies below its
printed interval divided by that margin (``~4x`` over rows of at most 2.1x),
and not read when its sentence prints two other figures, the operands it may
come from ("went from 36.75 to 117.38, a ~3.19x speedup"). Not reported: a floor ("over 2x", "at least 2x": a run the
tables do not show may have passed it), a bound from above ("at most 2x",
"under 10%"), an average ("on average 2x"), a claim below every row, a figure the sentence denies ("not 5x faster"), a column
whose cells print lower bounds (">75%": the claim may be what it reached), and a claim whose figure follows a
name no table of the document holds ("RMSNorm 4x faster" beside tables of whole-model configurations): it
speaks of a measurement the document does not show (a name: capitals after its first letter, or letters and
digits mixed; held when it, or each part of it between ``+``, ``/`` or ``-``, is a word of a table's header or
cells).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import NamedTuple

from ..patterns import lazy_compile
from .approximate import APPROXIMATE_BEFORE_RE, MARGIN, widened
from .document import Block, Document, Sentence, Series
from .figures import Figure, with_unit
from .named_references import claim_reference, other_reference
from .text import LARGEST_BOUND_RE, STOPWORDS, figure_scope, stem
from .vocabulary import DIRECTION_WORDS, claims_majority

# The direction a claim or a cell goes; stems, so "faster" and "fast" meet.
# (a speedup is a direction too: "a 3x speedup")
_DIRECTION_RE = lazy_compile(rf"\s*({'|'.join(DIRECTION_WORDS)}|speedups?|speed-ups?)\b\s*([A-Za-z][\w-]*)?", re.IGNORECASE)
# Directions that a speedup column ("speedup", "x faster") states without printing them in its cells.
_SPEED_DIRECTIONS = frozenset({"faster", "quicker", "speedup", "speedups", "speed-up", "speed-ups"})
# "~3x", "about 40%", "nearly 2x": an estimate; "at most 2x", "under 10%": a bound from above; "on average": a mean.
_NOT_A_CLAIM_RE = lazy_compile(
    r"(?:~|≈|≤|<|\babout|\baround|\broughly|\bnearly|\balmost|\bapprox(?:imately|\.)?|\bclose\s+to|\bsome|"
    r"\bat\s+most|\bas\s+little\s+as|\bunder|\bbelow|\bless\s+than|\bbetween|\bon\s+average|\baverage|\bavg\.?|"
    r"\bnot|\bnever|\bno)\s*$",
    re.IGNORECASE,
)
# "up to 3x", "as much as 40%": the largest row, checked like a plain claim.
# "over 2x", "at least 2x", "more than 40%": a floor that a run the tables do not show may have passed.
_FLOOR_RE = lazy_compile(r"(?:≥|>|\bover|\bmore\s+than|\bat\s+least|\babove|\bbeyond)\s*$", re.IGNORECASE)
# A header that names a speed ratio: it states a "faster" claim without printing the word in its cells.
_SPEEDUP_HEADER_RE = lazy_compile(r"\bspeed-?ups?\b|\b(?:x|times)\s+faster\b|\brelative\s+speed\b", re.IGNORECASE)
_HEDGE_WINDOW = 16  # characters before a figure that may hold its hedge or bound
# A cell that states a lower bound (">75%", "over 2x", "at least 3x", "70%+"): a claim above it does not exceed it.
_LOWER_BOUND_BEFORE_RE = lazy_compile(r"(?:>|≥|\bover|\bmore\s+than|\bat\s+least|\babove)\s*[*_]*\s*$", re.IGNORECASE)
_CONTENT_SKIP = frozenset({"than", "with", "and", "or", "for", "in", "on", "at", "to", "vs", "versus", "while", "when",
                           "over", "compared", "relative"})
_RATIO_CLAIM_UNITS = ("x", "%")
# The word a claim's figure follows directly, maybe after emphasis and a colon ("**RMSNorm** 4x", "SiLU+Mul: 2x")
_SUBJECT_BEFORE_RE = lazy_compile(r"([A-Za-z][\w+./-]*?)[*_]*\s*:?\s*[*_]*\s*$")
_NAME_PART_RE = lazy_compile(r"[+/-]")
_TABLE_WORD_RE = lazy_compile(r"[a-z0-9][\w.]*")


class Claim(NamedTuple):
    """A single figure and the direction it goes ("5x faster"), with the
    bound written before it ("up to"; "" for a plain claim)."""

    figure: Figure
    direction: str  # the direction word, lower case ("faster")
    quantity: str  # the word after the direction ("memory"), "" when none names one
    bound: str = ""
    approximate: str = ""  # the word of approximation before the figure ("~", "about"), read with a margin

    @property
    def text(self) -> str:
        """The claim as a finding quotes it: ``up to 3x faster``."""
        figure = self.figure
        number = f"{figure.text}{figure.unit}" if figure.unit in _RATIO_CLAIM_UNITS else figure.text
        hedge = self.approximate + ("" if self.approximate in ("~", "≈") else " ") if self.approximate else ""
        return f"{self.bound + ' ' if self.bound else ''}{hedge}{number} {self.direction}"


def claims_of(sentence: Sentence) -> list[Claim]:
    """The claims of a sentence: figures in x or % outside its ranges, each
    followed by a direction word and not an estimate (see the module docstring)."""
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
        window = max(sentence.start, figure.start - _HEDGE_WINDOW)
        # "~3x faster", "about 40% less": read against the margin of studygen.lint.approximate
        approximate = APPROXIMATE_BEFORE_RE.search(text, window, figure.start)
        if (_NOT_A_CLAIM_RE.search(text, window, figure.start) and approximate is None) or \
                _FLOOR_RE.search(text, window, figure.start):
            continue
        if approximate is not None and _stated_operands(sentence) >= 2:
            continue  # "from 36.75 up to 117.38, a ~3.19x speedup": its own figures give it (the pair check's)
        bound = LARGEST_BOUND_RE.search(text, window, figure.start)
        following = (match.group(2) or "").lower()
        quantity = "" if following in STOPWORDS or following in _CONTENT_SKIP else following
        direction = match.group(1).lower()
        found.append(Claim(figure, direction, quantity, " ".join(bound.group(0).split()).lower() if bound else "",
                           " ".join(approximate.group(0).split()).lower() if approximate else ""))
    return found


def _stated_operands(sentence: Sentence) -> int:
    """How many figures of ``sentence`` are neither ratios nor percentages:
    two may be the operands an approximate ratio of the sentence comes from."""
    return sum(1 for t in sentence.tokens if t.figure is not None and t.figure.unit not in _RATIO_CLAIM_UNITS)


def cell_direction(cell: str, figure: Figure) -> str:
    """The direction word printed after ``figure`` in a cell ("2x faster" ->
    "faster"), "" when none."""
    match = _DIRECTION_RE.match(cell, figure.end)
    return match.group(1).lower() if match else ""


def _states_same(series: Series, claim: Claim) -> bool:
    """True when ``series`` measures what ``claim`` states: most of its cells
    print the claim's direction, or its header names the claim's quantity,
    or (a speed claim) its header names a speedup."""
    if claim.quantity and stem(claim.quantity) not in {stem(w) for w in series.keywords}:
        return False  # "4x faster downloading" is not about a training-speed column
    rows = series.table.rows
    present = series.present_indexes
    directions = [cell_direction(rows[i].cells[series.column], series.values[i]) for i in present]
    if sum(1 for d in directions if d == claim.direction) * 2 > len(present):
        return True
    if claim.direction in _SPEED_DIRECTIONS and _SPEEDUP_HEADER_RE.search(series.header):
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


# Columns a claim is read against, nearest first: enough for any document a
# person writes by hand, and a bound that keeps lint linear in a generated one.
MAX_BACKING = 64


def backing(document: Document, claim: Claim, order: int = 0) -> list[Series]:
    """The columns of the document that state what ``claim`` states (at most
    :data:`MAX_BACKING`, those of the tables nearest block position
    ``order``), nearest first: its unit's series, and for an ``x`` claim the
    speedup columns printed without a unit. The full list per kind of claim
    is found once per document."""
    key = ("backing", claim.figure.unit, claim.direction, claim.quantity)
    found = document.memo.get(key)
    if found is None:
        candidates = list(document.series_by_unit.get(claim.figure.unit, ()))
        if claim.figure.unit == "x":
            candidates += [s for s in document.series_by_unit.get(None, ()) if _SPEEDUP_HEADER_RE.search(s.header)]
            candidates.sort(key=lambda s: (s.table.order, s.column, s.sub))
        stating = [s for s in candidates if _states_same(s, claim)]
        # the tables' orders are listed once per document, not once per claim: a document of many small tables,
        # each with a claim, took time quadratic in its length (attack round: 2 MB, 114 s)
        found = document.memo[key] = stating, [s.table.order for s in stating]
    stating, orders = found
    if len(stating) > MAX_BACKING:
        middle = bisect_left(orders, order)
        stating = stating[max(0, middle - MAX_BACKING):middle + MAX_BACKING]
    return sorted(stating, key=lambda s: (abs(s.table.order - order), s.table.order))[:MAX_BACKING]


class Scope:
    """What an overstated claim was read against: each column with the
    values of the rows it was compared with."""

    def __init__(self, columns: list[tuple[Series, list[Figure]]]):
        self.columns = columns

    @property
    def rows(self) -> int:
        return sum(len(values) for _, values in self.columns)

    @property
    def largest(self) -> tuple[Series, Figure]:
        """The column and figure of the largest row."""
        return max(((s, v) for s, values in self.columns for v in values), key=lambda pair: pair[1].value)


def name_shaped(word: str) -> bool:
    """True for a word written as a name: a capital after its first letter
    (RMSNorm, GEMM, SiLU+Mul) or letters and digits mixed (A100, W8A8)."""
    return any(c.isupper() for c in word[1:]) or (any(c.isdigit() for c in word) and any(c.isalpha() for c in word))


def _table_words(document: Document) -> frozenset[str]:
    """The lower-case words of every table's headers and cells; found once per document."""
    words = document.memo.get("table words")
    if words is None:
        found = set()
        for table in document.tables:
            for text in (*table.headers, *(cell for row in table.rows for cell in row.cells)):
                found.update(_TABLE_WORD_RE.findall(text.lower()))
        words = document.memo["table words"] = frozenset(found)
    return words


def untabled_subject(document: Document, sentence: Sentence, claim: Claim) -> str | None:
    """The name ``claim``'s figure directly follows when no table of the
    document holds it ("RMSNorm 4x faster" where the tables time whole
    configurations), else None: the claim speaks of a measurement the
    document does not show. A name is held when it, or each part of it
    between ``+``, ``/`` or ``-`` (each of two characters or more), is a
    word of a table."""
    text = sentence.block.text
    subject = _SUBJECT_BEFORE_RE.search(text, max(sentence.start, claim.figure.start - 48), claim.figure.start)
    if subject is None or not name_shaped(subject.group(1)):
        return None
    name = subject.group(1).rstrip(".").lower()
    words = _table_words(document)
    parts = [part for part in _NAME_PART_RE.split(name) if len(part) >= 2]
    if name in words or (parts and all(part in words for part in parts)):
        return None
    return name


def overstated(document: Document, block: Block, sentence: Sentence, claim: Claim) -> Scope | None:
    """The scope of a claim that exceeds every row of every column stating
    the same thing (restricted to the rows the clause names), nearest table
    first; None when no column states it or one holds a row it does not
    exceed."""
    figure = claim.figure
    low_edge = widened(figure).lo if claim.approximate else figure.value - figure.half_step
    columns = []
    stating = backing(document, claim, block.order)
    if stating and untabled_subject(document, sentence, claim) is not None:
        return None  # "RMSNorm 4x faster": a kernel the tables do not time, not a row they hold
    view = sentence.clause_view(figure.start, figure.end - figure.start) if stating else None
    reference = claim_reference(sentence.block.text, figure.end, sentence.end) if stating else frozenset()
    for series in stating:
        if other_reference(series, reference):
            continue  # "1200x faster than the naive loop" is no row of a 'vs Target' column
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
        columns.append((series, values))
    return Scope(columns) if columns else None


# The clause a range claims for: back to the last clause break before it, on to the next ';', ': ' or sentence end
# ("Slight perplexity increase (~1-1.4%) in most cases"; not "(7.951 to 8.572 ms) overlap: neither was faster in
# every compilation", whose "every" is the next clause's)
_CLAIM_STOP_RE = lazy_compile(r";|[.:]\s")


def claims_most_rows(sentence: Sentence, rng) -> bool:
    """True when the clause of range ``rng`` claims it for most or all rows
    ("in most cases", "across the board": :func:`studygen.lint.vocabulary.claims_majority`)."""
    text = sentence.block.text
    start, _ = figure_scope(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    stop = _CLAIM_STOP_RE.search(text, rng.end, sentence.end)
    return claims_majority(text[sentence.start + start:stop.start() if stop else sentence.end])


def claim_finding(sentence: Sentence, claim: Claim, scope: Scope) -> tuple[int, str, str]:
    """(line, message, hint) of an overstated claim, with the scope it was
    read against: each column and its table's line and heading, the rows,
    the largest."""
    _, largest = scope.largest
    shown = with_unit(largest.text, claim.figure.unit)
    by_table: dict[int, list[Series]] = {}
    for column, _ in scope.columns:
        by_table.setdefault(id(column.table), []).append(column)
    parts = []
    for columns in by_table.values():
        names = [f"'{c.header}'" for c in columns]
        named = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
        table = columns[0].table
        under = f" under '{table.headings[0]}'" if table.headings and len(scope.columns) > 1 else ""
        parts.append(f"{named} in the table at line {table.line}{under}")
    where = parts[0] if len(scope.columns) == 1 else "every column that states it: " + "; ".join(parts)
    message = f"'{claim.text}' exceeds every row of {where} ({scope.rows} rows, largest {shown})"
    if claim.approximate:
        message += f"; an approximate figure is read within {MARGIN} times of its printed digits"
    hint = f"state what the tables measure (at most {shown}), or name the measurement the claim comes from"
    return sentence.line_at(claim.figure.start), message, hint


__all__ = ["Claim", "Scope", "claim_finding", "claims_most_rows", "backing", "cell_direction", "claims_of", "overstated", "states_lower_bound"]
