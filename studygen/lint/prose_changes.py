"""A percent change between two variants in prose, read against the table
that measures both (SG103).

"int8 plans are 44% smaller than fp16 plans", "int8 cuts the fp16 latency
by 38% on the L4", "a 38% reduction in latency", "int8 gives 60% more
throughput": the clause states one percentage ``P`` with the way it goes,
names two variants (or one, against the table's only other one) and a
quantity, and maybe rows ("on the L4", "at batch 8"). The variants,
quantity and rows are tied to one table by :mod:`studygen.lint.variant_pairs`
(a clause that cannot be tied to exactly one table is not read). Each named
row then gives the change as the table's figures allow, over their printed
intervals (:mod:`studygen.lint.rounding`; a cell printing a range, over the
whole range: :mod:`studygen.lint.range_operands`):

- a decrease ("smaller", "less", "lower", "fewer", "shorter", "reduces …
  by", "saves P%", "shaves P% off", "a P% reduction/saving/drop in") is
  ``(y - x) / y``;
- an increase ("more", "higher", "larger", "increases … by", "grows by") is
  ``(x - y) / y``; a figure's place said by "above" or "below" ("4% above
  fp32") is an increase or a decrease;
- a change named by a noun alone after a comparison ("fp16 is 1.42x faster
  than fp32, a 40% reduction") is of the quantity the comparative compares
  (a reduction beside "faster": the time);
- "faster" (and "slower") has two readings, both accepted: the time saved
  (``(y - x) / y`` of a time) and the speed gained (``y / x - 1`` of a
  time; for throughput columns the same with the figures swapped).

How the figure is held to the rows depends on its words: a plain figure
over several rows must lie within their span (from the smallest row to the
largest; one row: that row); "up to" and "as much as" is the largest row;
"on average" the rows' mean (arithmetic of the changes, or geometric of the
ratios they come from, as speedups are usually averaged); "about", "around",
"roughly", "~", "nearly" allow rounding the figure to its own significant
digits ("about 60%" is 55 to 65%); "at least", "over", "more than" need one row to reach it; "at
most", "under", "less than" one row at or below it. A percentage column of
the same table printing ``P`` in a named row also backs it. A figure denied
("not 40% faster") is not read, nor one whose first reference after the
figure is a bound the study set ("10% lower than the budget", "under its
8 ms target"), no variant, nor one stated as a need ("23 ms (a 35% reduction
needed)", "requires a 20% cut", "must be 10% smaller"): a goal, which no
measured pair of rows gives. Only when no reading fits is it reported.

A clause naming two rows of the table by their labels, one of them the
reference ("X uses 20% less total memory than Y"), compares those rows in
the column it names, not two columns: :mod:`studygen.lint.prose_rows` reads
it, and it is not read here.

Cases: ``sg103_pos_percent_change_claims``, ``sg103_neg_percent_change_claims``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Container
from typing import NamedTuple

from ..numbers import format_number
from ..patterns import lazy_compile
from .derived import FORMULAS
from .document import Document, Sentence
from .figures import Figure
from .range_operands import computed, from_ends, is_range
from .ratio_direction import BETTER, LARGER, SMALLER, WORSE, sign_unsettles_word, written_direction
from .rounding import Interval, consistent, printed_interval
from .row_axis import named_rows
from .row_variants import RowPair, row_change
from .text import CLAUSE_REACH, LARGEST_BOUND_RE
from .variant_pairs import CLAUSE_END_RE, HIGHER_IS_BETTER, TIME, Pair, kinds_named, metric_kinds, tie

HINT = "recompute the percentage from the table's figures for both variants in the rows it is about, or name the run it comes from"

_DECREASE, _INCREASE, _FASTER, _SLOWER = "decrease", "increase", "faster", "slower"
_WORD_SENSE = {
    "smaller": _DECREASE, "less": _DECREASE, "lower": _DECREASE, "fewer": _DECREASE, "shorter": _DECREASE,
    "cheaper": _DECREASE,
    "more": _INCREASE, "higher": _INCREASE, "larger": _INCREASE, "bigger": _INCREASE, "greater": _INCREASE,
    "longer": _INCREASE, "above": _INCREASE, "below": _DECREASE,
    "faster": _FASTER, "quicker": _FASTER, "slower": _SLOWER,
}
_NOUN_SENSE = {"reduction": _DECREASE, "decrease": _DECREASE, "drop": _DECREASE, "saving": _DECREASE,
               "cut": _DECREASE, "increase": _INCREASE, "gain": _INCREASE, "rise": _INCREASE, "speedup": _FASTER,
               "speed-up": _FASTER}
_VERB_SENSE = {"reduc": _DECREASE, "decreas": _DECREASE, "cut": _DECREASE, "lower": _DECREASE, "shrink": _DECREASE,
               "shrank": _DECREASE, "trim": _DECREASE, "increas": _INCREASE, "rais": _INCREASE,
               "grow": _INCREASE, "grew": _INCREASE, "climb": _INCREASE, "rise": _INCREASE, "rose": _INCREASE}

_WORDS = "|".join(sorted(_WORD_SENSE, key=len, reverse=True))
# "44% smaller", "38% less time"
_AFTER_RE = lazy_compile(rf"\s*({_WORDS})\b", re.IGNORECASE)
# "a 38% reduction in latency", "a 20% throughput gain"
_NOUN_AFTER_RE = lazy_compile(
    r"\s*((?:[A-Za-z][\w-]*\s+){0,2}?)(" + "|".join(_NOUN_SENSE) + r")s?\b", re.IGNORECASE, needs=tuple(_NOUN_SENSE))
# "by up to 38%", "by about 38%": a hedge between "by" and the figure
_HEDGE_BEFORE = r"(?:(?:up\s*to|about|around|roughly|nearly|almost|approximately|~|≈|at\s+least|at\s+most|over|" \
                r"more\s+than|less\s+than|on\s+average)\s*)?$"
_BY = r"by\s+" + _HEDGE_BEFORE
# "reduces the fp16 latency by 38%", "faster by 38%"; an object word may join two words by a slash, as a kernel
# group's name does ("cuts GEMM/MatMul time by 2%"): a slash that broke the object left the change unread
_VERB_BEFORE_RE = lazy_compile(
    r"\b(reduc|decreas|cut|lower|shrink|shrank|trim|increas|rais|grow|grew|climb|rise|rose)\w*\s+((?:[`*_]*[\w.+-]+(?:/[\w.+-]+)*[`*_]*\s+){0,5}?)" + _BY,
    re.IGNORECASE, needs=tuple(_VERB_SENSE))
_WORD_BEFORE_RE = lazy_compile(rf"\b({_WORDS})\s+" + _BY, re.IGNORECASE)
# a comparative anywhere in a clause ("1.42x faster than fp32"): what a change named by a noun alone is of
_CLAUSE_COMPARATIVE_RE = lazy_compile(rf"\b({_WORDS})\s+than\b", re.IGNORECASE)
# "a 40% reduction in power", "... of memory": the noun names its own quantity after it
_NOUN_OBJECT_RE = lazy_compile(r"\s+(?:in|of|on)\s+[A-Za-z]", re.IGNORECASE)


def _noun_end(change) -> int:
    """Where ``change``'s written words (``40% reduction``) end in its clause (the clause's end if not found)."""
    at = change.clause.find(change.written, change.figure.start - change.clause_start)
    return at + len(change.written) if at >= 0 else len(change.clause)
# "saves 12% of the time", "shaves 12% off", "cuts 38% from the latency": a verb of saving, the figure its object
_SAVING_VERB_RE = lazy_compile(
    r"\b(?:sav(?:e|es|ed|ing)|shav(?:e|es|ed|ing)|cut(?:s|ting)?|trim(?:s|med|ming)?)\s+" + _HEDGE_BEFORE, re.IGNORECASE,
    needs=("sav", "shav", "cut", "trim"))

# "10% lower than the budget", "stays 5% under its 8 ms target": the figure is measured against a bound the
# study set, not against another variant; read as a change between the table's two variants, a true sentence
# was reported with the variants' own change. Only the first reference after the figure counts ("10% lower than
# fp16, within the 16 ms budget" is still a change against fp16).
_REFERENCE_LEAD_RE = lazy_compile(
    r"\b(?:than|vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to|above|below|under|within)\s+",
    re.IGNORECASE)
_TARGET_RE = lazy_compile(
    r"(?:(?:the|a|an|its|our|their|this|that)\s+)?(?:[\w.-]+\s+){0,2}?"
    r"(?:budgets?|targets?|thresholds?|limits?|goals?|requirements?|deadlines?|SLAs?|SLOs?|caps?)\b",
    re.IGNORECASE)


def _against_target(change: Change) -> bool:
    """True when the first reference after ``change``'s figure is a bound
    ("than the budget", "below its 8 ms target"), no variant."""
    lead = _REFERENCE_LEAD_RE.search(change.clause, change.figure.end - change.clause_start)
    return lead is not None and _TARGET_RE.match(change.clause, lead.end()) is not None


# "a 35% reduction needed", "(35% reduction required)": the change a goal asks for, not one measured
_NEEDED_AFTER_RE = lazy_compile(r"[*_]*\s*(?:(?:is|are|was|would\s+be)\s+)?(?:still\s+)?(?:needed|required|necessary)\b",
                                re.IGNORECASE)
# "requires a 20% cut", "needs 35% less", "must be 10% smaller"
_NEEDED_BEFORE_RE = lazy_compile(
    r"\b(?:needs?|needed|requires?|required|must(?:\s+be)?|has\s+to\s+be|have\s+to\s+be)\s+(?:an?\s+|by\s+)?$",
    re.IGNORECASE)
_NEGATION_RE = lazy_compile(r"\b(?:not|never|no|rather\s+than|instead\s+of|if|would|could)\b[^,;:]{0,40}$",
                            re.IGNORECASE)
_HEDGES = (
    ("max", LARGEST_BOUND_RE),
    ("mean", lazy_compile(r"(?:\bon\s+average|\baverage\s+of|\baveraging|\bmean\s+of)\s*(?:an?\s+|by\s+)?$",
                          re.IGNORECASE)),
    ("about", lazy_compile(r"(?:~|≈|\babout|\baround|\broughly|\bnearly|\balmost|\bapprox(?:imately|\.)?|"
                           r"\bclose\s+to|\bsome)\s*$", re.IGNORECASE)),
    ("floor", lazy_compile(r"(?:≥|>|\bat\s+least|\bover|\bmore\s+than|\babove|\bbeyond)\s*$", re.IGNORECASE)),
    ("ceiling", lazy_compile(r"(?:≤|<|\bat\s+most|\bunder|\bbelow|\bless\s+than)\s*$", re.IGNORECASE)),
)
_AVERAGE_AFTER_RE = lazy_compile(r"^[^,;]{0,60}\bon\s+average\b", re.IGNORECASE)
_HEDGE_WINDOW = 24


class Change(NamedTuple):
    """One stated percent change: the figure, its sense (decrease, increase,
    faster, slower), its hedge ("" plain, max, mean, about, floor, ceiling),
    the clause it sits in and the object of its verb ("the fp16 time")."""

    figure: Figure
    sense: str
    hedge: str
    clause: str
    object_text: str
    written: str  # the words as written ("44% smaller", "reduces the latency by 38%")
    comparative: str  # the comparative word ("smaller", "faster"), "" for a verb or noun
    clause_start: int  # block-text offset of the clause


def _clause(sentence: Sentence, figure: Figure) -> tuple[int, int]:
    """The figure's clause: from the last ';' or ', and' before it to the next
    one, at most :data:`CLAUSE_REACH` characters from the figure each way."""
    text = sentence.block.text
    start = max(sentence.start, figure.start - CLAUSE_REACH)
    for match in CLAUSE_END_RE.finditer(text, start, figure.start):
        start = match.end()
    stop = min(sentence.end, figure.end + CLAUSE_REACH)
    after = CLAUSE_END_RE.search(text, figure.end, stop)
    return start, after.start() if after else stop


def _hedge(before: str) -> str:
    for name, pattern in _HEDGES:
        if pattern.search(before):
            return name
    return ""


def changes_of(sentence: Sentence) -> list[Change]:
    """The percent changes a sentence states (see the module docstring)."""
    text = sentence.block.text
    found = []
    in_ranges = sentence.range_ends
    for token in sentence.tokens:
        figure = token.figure
        if figure is None or figure.unit != "%" or figure.start in in_ranges or figure.value <= 0:
            continue
        start, end = _clause(sentence, figure)
        before = text[start:figure.start]
        object_text, sense, written = "", None, ""
        after = _AFTER_RE.match(text, figure.end, end)
        noun = _NOUN_AFTER_RE.match(text, figure.end, end)
        verb = _VERB_BEFORE_RE.search(before)
        word = _WORD_BEFORE_RE.search(before)
        saving = _SAVING_VERB_RE.search(before)
        if after:
            sense, written = _WORD_SENSE[after.group(1).lower()], text[figure.start:after.end()]
        elif noun:
            sense, written = _NOUN_SENSE[noun.group(2).lower()], text[figure.start:noun.end()]
        elif verb:
            sense, object_text = _VERB_SENSE[verb.group(1).lower()], verb.group(2)
            written = text[start + verb.start():figure.end]
        elif word:
            sense, written = _WORD_SENSE[word.group(1).lower()], text[start + word.start():figure.end]
        elif saving:
            sense, written = _DECREASE, text[start + saving.start():figure.end]
        if sense is None or _NEGATION_RE.search(before[-60:]):
            continue
        written_end = after.end() if after else noun.end() if noun else figure.end
        if _NEEDED_AFTER_RE.match(text, written_end, end) or _NEEDED_BEFORE_RE.search(before[-_HEDGE_WINDOW:]):
            continue  # "a 35% reduction needed": a goal, not a change two measured rows give
        if sense == _DECREASE and figure.value >= 100:
            continue
        hedge = _hedge(before[-_HEDGE_WINDOW:])
        if not hedge and _AVERAGE_AFTER_RE.match(text[figure.end:end]):
            hedge = "mean"
        comparative = after.group(1) if after else word.group(1) if word and not (noun or verb) else ""
        found.append(Change(figure, sense, hedge, text[start:end], object_text, " ".join(written.split()),
                            comparative.lower(), start))
    return found


# the formulas of each sense over a before and an after, either one first; the readings below pick the order
_SENSE_FORMULAS = {_DECREASE: ("relative_first",), _INCREASE: ("relative_second",),
                   _FASTER: ("relative_first", "relative_second"), _SLOWER: ("relative_first", "relative_second")}
# ratio_direction's words for a percent that no change word of this module reads ("drops by 12%", "a 12% gain")
_DIRECTION_SENSE = {SMALLER: _DECREASE, LARGER: _INCREASE, BETTER: _FASTER, WORSE: _SLOWER}


def change_formulas(sentence: Sentence, figure: Figure) -> tuple[str, ...] | None:
    """Names of :data:`~.derived.FORMULAS` that the percent ``figure`` of
    ``sentence`` may follow over two figures it compares, as its words state
    the change (:func:`changes_of`, else
    :func:`~.ratio_direction.written_direction`): a decrease ``(a - b) / a``
    (relative_first), an increase ``(a - b) / b`` (relative_second), "faster",
    "slower" or "better" either; each tried with either figure first, only
    the larger first gives a positive figure. None when the words give no
    direction (any formula may fit)."""
    for change in changes_of(sentence):
        if change.figure.start == figure.start:
            return _SENSE_FORMULAS[change.sense]
    written = written_direction(sentence.block.text, figure, sentence.start)
    return _SENSE_FORMULAS[_DIRECTION_SENSE[written[0]]] if written and not sign_unsettles_word(figure) else None


def _readings(change: Change, kind: str) -> tuple[tuple[str, bool], ...]:
    """(formula, x first) pairs a change may follow for a quantity ``kind``:
    the formula over (x, y) when True, over (y, x) when False."""
    higher = kind in HIGHER_IS_BETTER
    sense = change.sense
    if sense == _DECREASE:
        return (("relative_first", False),)  # (y - x) / y
    if sense == _INCREASE:
        return (("relative_second", True),)  # (x - y) / y
    if (sense == _FASTER) != higher:  # faster on a time, slower on a throughput: x is the smaller figure
        return (("relative_first", False), ("relative_second", False))  # (y - x) / y, y / x - 1
    return (("relative_first", True), ("relative_second", True))  # (x - y) / x, x / y - 1


def _own_operands(sentence: Sentence, change: Change) -> bool:
    """Whether two figures of one unit that the change's own clause prints
    give it, one over the other either way, as a decrease or an increase:
    the change is then about them, not about the table's columns. Case (a
    generated README, found by the generic template's property test): render's
    note "the layers' kernel time adds up to 20.00 ms, 1900% above the 1.0 ms
    median" of an fp32 run was read as fp32 against the table's fp16 column."""
    low, high = change.clause_start, change.clause_start + len(change.clause)
    figures = [token.figure for token in sentence.tokens if token.figure is not None and token.figure.unit
               and token.figure.unit not in ("%", "x") and low <= token.figure.start < high]
    return any(a.unit == b.unit and (values := computed(formula, a, b)) is not None and consistent(values, change.figure)
               for a in figures for b in figures if a is not b for formula in ("relative_first", "relative_second"))


def _row_intervals(pair: Pair | RowPair, formula: str, x_first: bool) -> list[tuple[int, Interval, float | None]]:
    """(row, the change's interval, its value) of each named row; a row whose
    cells print a range (:mod:`.range_operands`) gives the interval over the
    range and no value."""
    point = FORMULAS[formula][1]
    found = []
    for row, x_ends, y_ends in pair.ends():
        x, y = from_ends(x_ends), from_ends(y_ends)
        a, b = (x, y) if x_first else (y, x)
        values = computed(formula, a, b)
        if values is None:
            continue
        if is_range(a, b):
            found.append((row, values, None))
        elif b.value:
            found.append((row, values, point(a.value, b.value)))
    return found


def _about(figure: Figure) -> Interval:
    """The values "about P" allows: P rounded at its own significant digits
    (trailing zeros of a whole number are not significant: "about 60" is 55 to 65)."""
    step = 2 * figure.half_step
    if figure.decimals == 0:
        value = int(round(figure.value))
        while value and value % 10 == 0 and step < abs(figure.value):
            value //= 10
            step *= 10
    return Interval(figure.value - step / 2, figure.value + step / 2)


# the sign that turns a change of each formula back into the ratio it comes from: (a - b) / b is a / b - 1,
# (a - b) / a is 1 - b / a
_RATIO_SIGN = {"relative_second": 1, "relative_first": -1}


def _geometric_mean(intervals: list[Interval], formula: str) -> Interval | None:
    """The change the geometric mean of the rows' ratios gives ("1.10x on average" over speedups of 2.5x
    and 0.72x is "10% faster on average"), over the rows' change ``intervals`` in percent of ``formula``;
    None for a formula that is no ratio less one, or a ratio not above zero."""
    sign = _RATIO_SIGN.get(formula)
    if sign is None:
        return None
    ends = [sorted((1 + sign * i.lo / 100, 1 + sign * i.hi / 100)) for i in intervals]
    if any(low <= 0 for low, _ in ends):
        return None
    count = len(ends)
    # the geometric mean grows with each ratio, so its ends are those of the ratios' ends
    low = math.exp(sum(math.log(lo) for lo, _ in ends) / count)
    high = math.exp(sum(math.log(hi) for _, hi in ends) / count)
    a, b = sign * (low - 1) * 100, sign * (high - 1) * 100
    return Interval(min(a, b), max(a, b))


def _holds(change: Change, intervals: list[Interval], formula: str = "") -> bool:
    """Whether the rows' change ``intervals`` (of ``formula``) give the stated figure as its hedge reads it;
    "on average" is the arithmetic mean of the changes or the geometric mean of the ratios they come from."""
    figure = change.figure
    low = Interval(min(i.lo for i in intervals), min(i.hi for i in intervals))
    high = Interval(max(i.lo for i in intervals), max(i.hi for i in intervals))
    span = Interval(low.lo, high.hi)
    stated = printed_interval(figure)
    if change.hedge == "max":
        return consistent(high, figure)
    if change.hedge == "mean":
        count = len(intervals)
        if consistent(Interval(sum(i.lo for i in intervals) / count, sum(i.hi for i in intervals) / count), figure):
            return True
        geometric = _geometric_mean(intervals, formula)
        return geometric is not None and consistent(geometric, figure)
    if change.hedge == "about":
        return span.meets(_about(figure))
    if change.hedge == "floor":
        return high.hi >= stated.lo - 1e-12
    if change.hedge == "ceiling":
        return low.lo <= stated.hi + 1e-12
    return consistent(span, figure)


def _printed_backing(pair: Pair | RowPair, figure: Figure) -> bool:
    """True when a percentage column of the pair's table prints ``figure`` in a named row."""
    rows = pair.rows if isinstance(pair, Pair) else [row for two in pair.pairs for row in two]
    for series in pair.table.series:
        if series.unit != "%":
            continue
        for row in rows:
            value = series.values[row]
            if value is not None and printed_interval(value).meets(printed_interval(figure)):
                return True
    return False


def change_findings(document: Document, recomputed: Container[tuple[int, str, frozenset[str]]] = (),
                    ) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each stated percent change between two
    variants that the one table measuring both does not give (see the module
    docstring). A change already found wrong against the figures its own
    sentence prints, ``recomputed`` holding (line, figure text, the two
    figures' texts), is left out when every named row's cells print those
    same two figures (one fault, stated once); so is one that two figures
    its own clause prints give (:func:`_own_operands`)."""
    found = []
    for block in document.prose:
        if "%" not in block.text:
            continue
        for sentence in block.sentences:
            for change in changes_of(sentence):
                finding = _finding(document, sentence, change, recomputed)
                if finding is not None:
                    found.append(finding)
    return found


def _finding(document: Document, sentence: Sentence, change: Change,
             recomputed: Container[tuple[int, str, frozenset[str]]] = ()) -> tuple[int, str, str] | None:
    # "cuts H100 TTFT by 26%": a serving metric's name says the kind where no quantity word or comparative does
    kinds = kinds_named(change.clause, change.comparative) or metric_kinds(change.clause)
    if not kinds and not change.comparative and not _NOUN_OBJECT_RE.match(change.clause, _noun_end(change)):
        # "fp16 is 1.42x faster than fp32, a 40% reduction": a change named by a noun alone (not "a 40%
        # reduction in power") is of the quantity the clause's comparative compares
        other = _CLAUSE_COMPARATIVE_RE.search(change.clause)
        kinds = kinds_named(change.clause, other.group(1)) if other else ()
        if TIME in kinds and change.sense == _DECREASE:
            kinds = (TIME,)  # a reduction beside "faster" is of the time: a rate it would raise
    if not kinds:
        return None
    figure = change.figure
    if _against_target(change):
        return None
    start = change.clause_start - sentence.start
    view = sentence.segment_view(start, start + len(change.clause))  # the whole clause names the rows
    pair = tie(document, change.clause, kinds, view, change.object_text)
    if pair is None:
        # "the H100 chunked TPOT is 20% lower than baseline": the variants are rows of a label column
        pair = row_change(document, change.clause, kinds, view, sentence.block.order)
    if pair is None or _printed_backing(pair, figure) or _own_operands(sentence, change):
        return None
    rows = named_rows(pair.table, change.clause)
    if rows is not None and rows[2] is not None:
        # "X uses 20% less total memory than Y": two rows, one the reference, in the column named; a change
        # between rows (studygen.lint.prose_rows), not between the named column and the table's other one
        return None
    readings = []
    for formula, x_first in _readings(change, pair.kind):
        rows = _row_intervals(pair, formula, x_first)
        if not rows:
            continue
        if _holds(change, [interval for _, interval, _ in rows], formula):
            return None
        readings.append((formula, x_first, rows))
    if not readings:
        return None
    line = sentence.line_at(figure.start)
    if all((line, figure.text, frozenset((from_ends(x).text, from_ends(y).text))) in recomputed for _, x, y in pair.ends()):
        return None  # the sentence prints these cells and its own reading already recomputes the change from them
    return line, _message(change, pair, readings), HINT


_HEDGE_WORDS = {"max": ", read as the largest row", "mean": ", read as the rows' mean",
                "about": ", read as rounded to its own digits", "floor": ", read as a floor",
                "ceiling": ", read as a ceiling", "": ""}


def _message(change: Change, pair: Pair | RowPair, readings) -> str:
    figure = change.figure
    table = pair.table
    formula, x_first, rows = readings[0]
    pattern = FORMULAS[formula][2]
    # two columns by their headers, or two rows by their variant labels in the column read
    x, y = (pair.x.header, pair.y.header) if isinstance(pair, Pair) else (pair.x, pair.y)
    of = "" if isinstance(pair, Pair) else f" of '{pair.series.header}'"
    a, b = (x, y) if x_first else (y, x)
    shown = []
    for row, values, value in rows[:4]:
        label = table.rows[row].label or f"line {table.rows[row].line}"
        shown.append(f"{label} {_percent(value, values, figure.decimals + 1)}")
    more = f" and {len(rows) - 4} more" if len(rows) > 4 else ""
    other = ""
    if len(readings) > 1:
        formula2, x2, rows2 = readings[1]
        values = ", ".join(_percent(v, i, figure.decimals + 1) for _, i, v in rows2[:4])
        a2, b2 = (x, y) if x2 else (y, x)
        other = f"; read as {FORMULAS[formula2][2].format(a=repr(a2), b=repr(b2))}: {values}"
    return (f"'{change.written}'{_HEDGE_WORDS[change.hedge]} does not follow from the table at line {table.line}: "
            f"{pattern.format(a=repr(a), b=repr(b))}{of} gives {', '.join(shown)}{more} "
            f"({len(rows)} row{'s' if len(rows) != 1 else ''}){other}")


def _percent(value: float | None, values: Interval, decimals: int) -> str:
    """A row's change for a message: its value, or the interval over the ranges its cells print (no value)."""
    if value is not None:
        return format_number(value, decimals) + "%"
    return f"{format_number(values.lo, decimals)}% to {format_number(values.hi, decimals)}% over the ranges the cells print"


__all__ = ["Change", "change_findings", "change_formulas", "changes_of"]
