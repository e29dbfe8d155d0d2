"""A prose ratio or percent change between two rows of a nearby table (SG103).

"FP16 is 3.1x faster than FP32", "fp16 gives a 3.1x speedup over fp32",
"fp16 cuts latency by 70% relative to fp32": the clause names two rows of a
table by their labels, not the figures. When the clause holds

- exactly one figure, a ratio (``x``) or a percentage, neither hedged
  ("up to", "about", "~", "≥") nor denied nor part of a range, and no other
  figure (a number inside a row label the clause names, "1070" of "GTX
  1070" or "8" of "batch 8", is part of the name, no figure);
- exactly two row labels of one table (its first label column), matched
  whole-word and case-insensitively (spelling variants:
  :mod:`studygen.lint.row_axis`), each label naming one row only (a label
  inside a longer matched label, "int8" in "int8+sq", counts as the longer
  one), and no third; a parenthesis around one word is part of a label
  ("TensorRT (INT8)"), not a clause break;
- one measured column to read: the single column the clause names by its
  header words, else the table's only column of a time or throughput unit
  (ms, s, us, ns, tokens/s, images/s; or a header saying latency, time or
  throughput) when the clause speaks of speed ("faster", "speedup",
  "latency" …), else the table's only column of the quantity kind a noun of
  the clause names ("12% less time", "30% less memory":
  :func:`.variant_pairs.kinds_named`); of two columns the clause shares a
  word with, the one all of whose own header words it names ("total GPU
  memory" names ``Total Memory``, not ``Memory per GPU``); a clause naming
  two columns so, or a ratio column while it does not speak of speed, is
  skipped; where none of these gives a column, the one column the sentence's
  words before the clause name by its header ("In fp32, Conv takes 3.1x the
  time of norm": the clause starts after the comma);

the figure is recomputed both ways round (a ratio in ``x`` hedged only by a
word of approximation, "~2.3x", "about 3x", is read as well, and is false only
when neither order of the two cells, nor of a printed ratio column's, comes
within the margin of :mod:`studygen.lint.approximate` of it): ``a / b`` and ``b / a`` for a
ratio, ``(a - b) / a``, ``(a - b) / b`` and ``a / b`` in either order and
either sign for a percentage. Only when none fits to the printed digits
(truncation allowed, :func:`studygen.lint.derived.fits`) is it reported. A
ratio column printed beside the times ("speedup") gives the ratio between
two rows as well (their printed ratios over each other), never one the
rows named do not. When the clause says which row is the reference
("than", "vs", "over" before it) and which way the figure goes ("slower",
"a speedup", "lower latency", "cuts … by": :mod:`studygen.lint.ratio_direction`),
rows whose figures go the other way beyond their printed digits are a
finding whatever the size (cases ``sg103_pos_ratio_direction``,
``sg103_neg_ratio_direction``). A cell printing a range is read over all of
it (:mod:`.range_operands`): the figure is reported only outside the interval
the two cells give, and a direction only when the ranges do not overlap. "Higher" and "lower" go with the quantity the
clause names: "25% higher throughput" read from a latency column asks for the
smaller time, and said of a kind neither the column's nor its inverse, they
leave the direction unjudged.

The table is the nearest one above the paragraph in its section or the
nearest one below, or, when the sentence names another table's heading
("For the H100, …" below the A100 table), those under that heading
(:mod:`studygen.lint.heading_scope`); when two give such a reading, one
fitting clears it, and a finding needs exactly one table to read (cases
``sg103_pos_row_ratio``, ``sg103_neg_row_ratio``, tests/lint/test_heading_scope.py).
"""

from __future__ import annotations

import bisect
import re

from ..numbers import format_number
from ..patterns import lazy_compile
from .approximate import APPROXIMATE_BEFORE_RE, MARGIN, far_from
from .derived import derivation, fits, formulas_for, points_difference
from .document import Document, Sentence, Series, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .header_names import mention as header_mention
from .header_names import name_words
from .heading_scope import heading_index, heading_tables
from .range_operands import against, computed, fits_over, is_range, over_ranges
from .range_operands import cell as operand_cell
from .ratio_direction import LARGER, SMALLER, sign_unsettles_word, wanted_sign, written_direction
from .row_axis import label_spans, named_rows, nearby_tables
from .text import keywords, normalize
from .variant_pairs import SPEED_UNITS, SPEED_WORDS, THROUGHPUT, TIME, kind_of_series, kinds_named

HINT = "recompute the ratio or percentage from the two rows it compares (to their printed digits), or name the run it comes from"

_SPEED_RE = lazy_compile(
    r"\b(?:faster|slower|quicker|speed-?ups?|slowdowns?|latency|latencies|throughput|runtime|speed|"
    r"as\s+(?:fast|quick|slow)\s+as)\b", re.IGNORECASE)  # "twice as fast as": a ratio in words (.worded_ratios)
HEDGED_BEFORE_RE = lazy_compile(
    r"(?:~|≈|≥|≤|>|<|\bup\s*to|\bover|\bmore\s+than|\bat\s+least|\bat\s+most|\babout|\baround|\broughly|\bnearly|"
    r"\balmost|\bapprox(?:imately|\.)?|\bunder|\bbelow|\babove|\bless\s+than|\bclose\s+to|\bsome|\bsay|"
    r"\bnot|\bno|\bnever|\bif|\bwould|\bcould|\bexpect(?:ed)?|\btarget)\s*$",
    re.IGNORECASE,
)
# a word of summing: "A and B together are 40%" states the two rows' sum, not a change from one to the other
# (:mod:`studygen.lint.stated_sums` reads it)
SUM_RE = lazy_compile(
    r"\b(?:together|combined|between\s+them|in\s+total|jointly|add(?:s|ed)?\s+up\s+to|sum(?:s|med)?\s+to)\b",
    re.IGNORECASE)
HEDGED_AFTER_RE = lazy_compile(r"^\s*(?:\+|or\s+(?:more|so|less)|at\s+(?:most|best|least))", re.IGNORECASE)
HEDGE_WINDOW = 16
# a figure right after a batch word is the setting the clause speaks at ("at batch 1", "bs=8", "batch size of 16"),
# never an operand of its ratio
_SETTING_BEFORE_RE = lazy_compile(r"(?<![\w-])(?:batch(?:[\s_-]?sizes?)?|m?bs)\s*(?:=|:|of)?\s*$", re.IGNORECASE)
_CLAUSE_BREAKS = ",;()"
_CLAUSE_BREAK_RE = lazy_compile("[" + re.escape(_CLAUSE_BREAKS) + "]")
_LABEL_PARENTHESIS_RE = lazy_compile(r"\(([\w.+-]{1,16})\)")


class _Reading:
    """One table's reading of a clause: the column, the two rows and whether
    any formula fits."""

    def __init__(self, table: Table, series: Series, rows: tuple[int, int], fits: bool, against: int | None = None,
                 stated: tuple[str, str] | None = None):
        self.table, self.series, self.fits = table, series, fits
        self.rows = rows  # in the clause's order
        self.against = against  # the subject's index in rows when they go the other way than the clause says
        self.stated = stated  # (direction, its words) the clause states, when ``against`` is set


def figure_clause(sentence: Sentence, figure: Figure) -> tuple[int, int]:
    """(start, end) in the block text of the figure's clause: back to , ; ( or )
    or the sentence start, forward to the next or the sentence end. A
    parenthesis around one short word is part of a row's name ("TensorRT
    (INT8)"), no clause break."""
    # the sentence alone, its offsets shifted by ``base``: the block before it (a paragraph of a megabyte) made
    # each figure's clause cost the whole paragraph's length
    base = sentence.start
    breaks = _clause_breaks(sentence)
    before = bisect.bisect_left(breaks, figure.start - base)
    start = (breaks[before - 1] if before else -1) + 1 + base
    after = bisect.bisect_left(breaks, figure.end - base)
    return start, breaks[after] + base if after < len(breaks) else sentence.end


def _clause_breaks(sentence: Sentence) -> list[int]:
    """Offsets in ``sentence`` of its clause breaks (:data:`_CLAUSE_BREAKS`,
    a parenthesis around one short word no break), ascending; kept on the
    sentence: a sentence of thousands of figures made its text again and
    searched it for each figure, and SG103's row and joined readers both
    read each ratio's clause."""
    breaks = sentence.__dict__.get("_clause_breaks")
    if breaks is None:
        # the label's parentheses become spaces: the text keeps its length, so its offsets are the sentence's
        text = _LABEL_PARENTHESIS_RE.sub(lambda m: " " + m.group(1) + " ",
                                         sentence.block.text[sentence.start:sentence.end])
        breaks = sentence.__dict__["_clause_breaks"] = [match.start() for match in _CLAUSE_BREAK_RE.finditer(text)]
    return breaks


def _is_speed(series: Series) -> bool:
    # a column of a time or a rate: its unit (SPEED_UNITS) or a header word (SPEED_WORDS)
    return series.unit in SPEED_UNITS or bool(SPEED_WORDS & series.keywords)


def _column(table: Table, clause: str) -> Series | None:
    """The measured column the clause is about (see the module docstring)."""
    numeric = [s for s in table.series if s.column not in table.label_columns]
    if not numeric:
        return None
    words = keywords(normalize(clause))
    shared = frozenset.intersection(*(s.keywords for s in numeric)) if len(numeric) > 1 else frozenset()
    # the label column's header ("engine") names the rows, not a column ("engine size")
    shared |= keywords(normalize(" ".join(table.headers[c] for c in table.label_columns)))
    named = {id(s): s for s in numeric if (s.keywords - shared - {"x"}) & words}
    speed = bool(_SPEED_RE.search(clause))
    if speed and named and all(s.unit in RATIO_UNITS for s in named.values()):
        named = {}  # "a 2.4x speedup" beside a 'speedup' column: the ratio of the timed column it is printed from
    if len(named) > 1:
        # "total GPU memory" beside 'Memory per GPU' and 'Total Memory': the one column every word of which,
        # but the words all columns share, the clause names ("per" is not named)
        named = _named_whole(table, numeric, clause, named)
    if len(named) > 1:
        return None
    if named:
        series = next(iter(named.values()))
        # "halves the engine size and is 3.0x faster": a speed figure in a clause naming another column
        return series if series.unit not in RATIO_UNITS and (not speed or _is_speed(series)) else None
    # "12% less time", "30% less memory": the one column of the quantity kind the clause names
    kinds = kinds_named(clause, "")
    of_kind = [s for s in numeric if kind_of_series(s) in kinds]
    if len(of_kind) == 1:
        return of_kind[0]
    if not speed:
        return None
    timed = [s for s in numeric if s.unit not in RATIO_UNITS and _is_speed(s)]
    return timed[0] if len(timed) == 1 else None


def _lead_column(table: Table, lead: str) -> Series | None:
    """The one measured column of ``table`` that ``lead`` (words before a
    clause: "In fp32, ", "For the tf32 run, ") names by its header's own
    words, or None: a lead naming none or several, or naming a ratio
    column, names no column to read."""
    numeric = [s for s in table.series if s.column not in table.label_columns]
    if len(numeric) < 2:
        return None
    shared = frozenset.intersection(*(s.keywords for s in numeric))
    words = keywords(normalize(lead))
    named = [s for s in numeric if (s.keywords - shared - {"x"}) & words]
    return named[0] if len(named) == 1 and named[0].unit not in RATIO_UNITS else None


def _named_whole(table: Table, numeric: list[Series], clause: str, named: dict[int, Series]) -> dict[int, Series]:
    """``named`` (id -> series, columns the clause shares a word with) cut to
    the one whose header's own words (:func:`.header_names.name_words`, less
    those of every column of ``numeric``) the clause names every one of;
    ``named`` itself when not exactly one is."""
    words = {s.column: frozenset(name_words(table.headers[s.column])) for s in numeric}
    shared = frozenset.intersection(*words.values())
    whole = {key: s for key, s in named.items() if header_mention(clause, words[s.column] - shared) is not None}
    return whole if len(whole) == 1 else named


def _printed_ratios(table: Table, series: Series) -> list[Series]:
    """The table's ratio columns printed from ``series`` (an ``x`` column
    headed as a speedup or ratio): two rows' printed ratios give the ratio
    between the rows as well (3.76x over 1.00x is 3.76x)."""
    return [s for s in table.series if s.unit == "x" and s is not series and s.column not in table.label_columns]


# a rate and a time of the same work go opposite ways: "higher throughput" is a smaller time
_INVERSE_KINDS = {THROUGHPUT: TIME, TIME: THROUGHPUT}


def _series_sign(sign: int | None, direction: str, clause: str, series: Series) -> int | None:
    """``sign`` (subject minus reference, :func:`~.ratio_direction.wanted_sign`) for the column read,
    when the clause's "higher" or "lower" is said of the quantity it names ("25% higher throughput" read
    from a latency column): turned round for the inverse kind (a throughput against a time), None for
    another kind than the column's, whose direction the column cannot tell."""
    if direction not in (LARGER, SMALLER):
        return sign  # "faster", "better": wanted_sign already read them for the column's own kind
    named = kinds_named(clause, "")
    kind = kind_of_series(series)
    if not named or kind is None or named[0] == kind:
        return sign
    if _INVERSE_KINDS.get(named[0]) == kind:
        return None if sign is None else -sign
    return None


def _negated(figure: Figure) -> Figure:
    return figure._replace(value=-figure.value)


def _reading(table: Table, text: str, start: int, end: int, figure: Figure, lead: str = "") -> _Reading | None:
    """What ``table`` gives for the ratio or percentage ``figure`` of the
    clause ``text[start:end]``: None when the clause does not name two of its
    rows and a column to read; else whether a formula fits either way round,
    in the direction the clause states (:mod:`studygen.lint.ratio_direction`),
    by the measured column or by a ratio column printed beside it. A column
    the clause does not name may be named by ``lead``, the sentence before
    the clause ("In fp32, Conv takes 3.1x the time of norm")."""
    clause = text[start:end]
    rows = named_rows(table, clause)
    if rows is None:
        return None
    series = _column(table, clause) or (_lead_column(table, lead) if lead else None)
    if series is None:
        return None
    # a cell printing a range is read over its range (studygen.lint.range_operands)
    a, b = operand_cell(series, rows[0]), operand_cell(series, rows[1])
    if a is None or b is None:
        return None
    targets = (figure,) if figure.unit == "x" else (figure, _negated(figure))
    verdicts = [fits_over(f, x, y, t) for f in formulas_for(figure.unit, False) for x, y in ((a, b), (b, a)) for t in targets]
    if all(v is None for v in verdicts):
        return None
    # "-63% faster" states no direction of its own (:func:`~.ratio_direction.sign_unsettles_word`)
    written = written_direction(text, figure, start) if rows[2] is not None and not sign_unsettles_word(figure) else None
    sign = _series_sign(wanted_sign(written[0], kind_of_series(series)), written[0], clause, series) \
        if written else None
    subject, reference = (b, a) if rows[2] == 0 else (a, b)
    if against(subject, reference, sign):
        return _Reading(table, series, rows[:2], False, against=1 - rows[2], stated=written)
    if figure.unit == "x" and not any(verdicts):
        for printed in _printed_ratios(table, series):
            p, q = printed.values[rows[0]], printed.values[rows[1]]
            if p is not None and q is not None and any(fits("ratio", x, y, figure) for x, y in ((p, q), (q, p))):
                return _Reading(table, series, rows[:2], True)
    return _Reading(table, series, rows[:2], any(verdicts))


def _approximate_reading(table: Table, text: str, start: int, end: int, figure: Figure,
                         lead: str) -> tuple[tuple[Series, int, int], bool] | None:
    """((column, row, row), far) for an approximate ratio ``figure`` (its
    clause ``text[start:end]``) read in ``table`` as :func:`_reading` would:
    far when neither order of the two cells, nor of a printed ratio column's
    two cells, comes within :data:`~.approximate.MARGIN` of it; None when the
    clause names no two rows and a column of the table."""
    rows = named_rows(table, text[start:end])
    series = None if rows is None else _column(table, text[start:end]) or (_lead_column(table, lead) if lead else None)
    if series is None:
        return None
    a, b = operand_cell(series, rows[0]), operand_cell(series, rows[1])
    # an empty cell (measured or printed ratio) gives no reading; none at all is no finding (far_from)
    pairs = [(a, b)] + [(p.values[rows[0]], p.values[rows[1]]) for p in _printed_ratios(table, series)]
    readings = [computed("ratio", x, y) for p, q in pairs if p is not None and q is not None for x, y in ((p, q), (q, p))]
    return (series, rows[0], rows[1]), far_from(figure, [r for r in readings if r is not None])


def _approximate_finding(sentence: Sentence, figure: Figure, reading: tuple[Series, int, int]) -> tuple[int, str, str]:
    series, first, second = reading
    a, b = operand_cell(series, first), operand_cell(series, second)
    names = [series.table.rows[i].name() for i in (first, second)]
    ratios = " or ".join(f"{x.text} / {y.text} = {format_number(x.value / y.value, 2)}x" for x, y in ((a, b), (b, a)))
    return (sentence.line_at(figure.start),
            f"approximate {with_unit(figure.text, figure.unit)} between {names[0]} and {names[1]} is far from what "
            f"'{series.header}' of the table at line {series.table.line} gives: {ratios} (an approximate ratio is "
            f"read within {MARGIN} times of its printed digits)", HINT)


def row_ratio_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose ratio or percent change between two
    named rows that the rows' figures do not give (see the module docstring)."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        # the tables a clause of this block may read: a label column is what names two rows (a clause naming
        # another heading reads the tables under it)
        if not any(t.label_columns for t in nearby_tables(document, block)) and not heading_index(document):
            continue
        text = block.text
        for sentence in block.sentences:
            figures = [t.figure for t in sentence.tokens if t.figure is not None]
            starts = [f.start for f in figures]  # ascending: tokens come in text order
            in_ranges = sentence.range_ends
            in_labels: dict[tuple, int] = {}  # the figures of one sentence share their clauses
            for figure in figures:
                if figure.unit not in RATIO_UNITS or figure.start in in_ranges:
                    continue
                start, end = figure_clause(sentence, figure)
                # "3.1x over FP32 (4.20 ms vs 1.90 ms)": the parenthesis after the clause states its operands
                operands_end = text.find(")", end, sentence.end) if text.startswith("(", end) else end
                operands_end = sentence.end if operands_end == -1 else operands_end
                within = bisect.bisect_left(starts, operands_end) - bisect.bisect_left(starts, start)
                tables = None
                if within > 1:
                    tables = _tables(document, sentence, start, end)
                    key = (start, operands_end, *map(id, tables))
                    if key not in in_labels:
                        in_labels[key] = max(_in_labels(tables, text, start, operands_end, starts),
                                             _settings(text, start, operands_end, starts))
                    within -= in_labels[key]
                if within > (start <= figure.start < operands_end):
                    continue  # other figures: the clause states its operands (the pair check's to read)
                window = max(start, figure.start - HEDGE_WINDOW)
                blocked = HEDGED_AFTER_RE.match(text[figure.end:end]) or SUM_RE.search(text, start, end)
                hedged = HEDGED_BEFORE_RE.search(text, window, figure.start)
                # "~2.3x", "about 3x": read within a margin (studygen.lint.approximate); bounds and denials never
                approximate = hedged and not blocked and figure.unit == "x" and \
                    APPROXIMATE_BEFORE_RE.search(text, window, figure.start)
                if (hedged or blocked) and not approximate:
                    continue
                if tables is None:
                    tables = _tables(document, sentence, start, end)
                lead = text[sentence.start:start]
                if approximate:
                    far = [r for r in (_approximate_reading(t, text, start, end, figure, lead) for t in tables)
                           if r is not None]
                    if len(far) == 1 and far[0][1]:
                        found.append(_approximate_finding(sentence, figure, far[0][0]))
                    continue
                readings = [r for r in (_reading(t, text, start, end, figure, lead) for t in tables) if r is not None]
                if len(readings) != 1 or readings[0].fits:
                    continue
                found.append(_finding(sentence, figure, readings[0]))
    return found


def _tables(document: Document, sentence: Sentence, start: int, end: int) -> list[Table]:
    """The tables the clause ``start:end`` of ``sentence`` reads: those under a heading it names
    (:func:`~.heading_scope.heading_tables`), else the nearest above and below in its section."""
    named = heading_tables(sentence, start, end)
    return named if named is not None else nearby_tables(document, sentence.block)


def _in_labels(tables: list[Table], text: str, start: int, end: int, starts: list[int]) -> int:
    """How many figures of ``text[start:end]`` (their offsets ``starts``) lie
    inside a row label the clause names ("1070" of "the GTX 1070", "8" of
    "batch 8": :func:`~studygen.lint.row_axis.label_spans`): part of a name,
    not operands. The most any one table gives."""
    most = 0
    within = starts[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]
    for table in tables:
        spans = sorted(label_spans(table, text[start:end]))
        # the furthest end of the spans opening at or before each span's opening: a figure lies in a span when
        # the furthest end of those opening at or before it passes it
        opens, reach, furthest = [a for a, _ in spans], [], -1
        for _, b in spans:
            furthest = max(furthest, b)
            reach.append(furthest)
        inside = 0
        for at in within:
            index = bisect.bisect_right(opens, at - start) - 1
            inside += index >= 0 and reach[index] > at - start
        most = max(most, inside)
    return most


def _settings(text: str, start: int, end: int, starts: list[int]) -> int:
    """How many figures of ``text[start:end]`` (their offsets ``starts``) are
    the batch the clause speaks at ("1" of "at batch 1", "8" of "bs=8"): a
    setting, not an operand. Case (a new user, session 29): "fp16 is 1.5x
    faster than fp32 at batch 1." beside a table of 4.20 and 2.10 ms was not
    read, its "1" taken for a stated operand."""
    within = starts[bisect.bisect_left(starts, start):bisect.bisect_left(starts, end)]
    return sum(1 for at in within if _SETTING_BEFORE_RE.search(text, max(start, at - 24), at))


def _finding(sentence: Sentence, figure: Figure, reading: _Reading) -> tuple[int, str, str]:
    table, series = reading.table, reading.series
    first, second = (table.rows[i] for i in reading.rows)
    a, b = operand_cell(series, reading.rows[0]), operand_cell(series, reading.rows[1])
    if reading.against is not None:
        subject, reference = (first, second) if reading.against == 0 else (second, first)
        x, y = (a, b) if reading.against == 0 else (b, a)
        direction, words = reading.stated
        detail = (f"'{words}' says {subject.name()} is the {direction} one, but '{series.header}' of the table at "
                  f"line {table.line} has {x.text} against {y.text} for {reference.name()}"
                  + (" (ranges the cells print, which do not overlap)" if is_range(x, y) else ""))
        return (sentence.line_at(figure.start), f"{with_unit(figure.text, figure.unit)} between {first.name()} and "
                f"{second.name()} goes the wrong way: {detail}", HINT)
    formula = formulas_for(figure.unit, False)[0]
    if is_range(a, b):
        options = " or ".join(over_ranges(formula, x, y, figure) for x, y in ((a, b), (b, a)))
        return (sentence.line_at(figure.start), f"{with_unit(figure.text, figure.unit)} between {first.name()} and "
                f"{second.name()} does not follow from '{series.header}' of the table at line {table.line}: {options}",
                HINT)
    options = " or ".join(derivation(formula, x, y, figure) for x, y in ((a, b), (b, a)))
    points = points_difference(a, b, figure, series.unit)  # "12.26% AP" between rows 12.26 AP points apart
    stated = f" as a percent change: it is their difference in points ({points[0]}), and as a percent change" if points else ":"
    return (
        sentence.line_at(figure.start),
        f"{with_unit(figure.text, figure.unit)} between {first.name()} and {second.name()} does not follow from "
        f"'{series.header}' of the table at line {table.line}{stated} {options}",
        f"write the difference in points ('{points[1]}'), or a percent change computed from the two rows it compares"
        if points else HINT,
    )


__all__ = ["HEDGED_AFTER_RE", "HEDGED_BEFORE_RE", "HEDGE_WINDOW", "SUM_RE", "figure_clause", "row_ratio_findings"]
