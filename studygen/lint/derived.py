"""Derived figures: the formulas a ratio, percentage or difference may
follow, whether a printed figure fits one to its printed digits, and which
definition a table column of derived figures follows.

*Fits to the printed digits*: the one rule of :mod:`studygen.lint.rounding`:
every figure stands for an interval (``0.97`` for 0.965 to 0.975; counts
exactly), and the formula's interval over its operands' intervals must meet
the derived figure's interval. A derived figure whose last digit was
truncated instead of rounded (``1.69x`` for 1.697) fits too: it is never
reported.

A column's definition is found by trying, for every formula of its unit:

- **two columns of the row** (``a / b``, ``(a - b) / a`` …): :func:`pair_fits`;
- **one column against a baseline row** (a speed column in % of the
  reference row, which prints 100%; a speedup column whose baseline row
  prints 1x; a "% saved" column empty at its baseline): :func:`baseline_fits`;
- **one column against the row before** (``8.6 (+299%)`` after ``2.2``, each
  row one more optimisation than the last): :func:`previous_fits`.

The definition that fits most rows is taken when it fits at least two rows
and two thirds of the rows it applies to (see :func:`best_fit`); one the
table declares may also be taken on a table too short for that
(:func:`declared_fits`).
"""

from __future__ import annotations


from ..numbers import format_number
from .document import Series, Table
from .figures import Figure, in_one_unit, with_unit
from .rounding import Interval, consistent, gives, quotient, stands_for
from .table_model import Definition, declared_definitions, is_derived, is_identity, row_groups


def _ratio_over(x: Interval, y: Interval) -> Interval | None:
    return quotient(x, y)


def _relative_to_first_over(x: Interval, y: Interval) -> Interval | None:
    # (a - b) / a * 100 = (1 - b / a) * 100
    r = quotient(y, x)
    return None if r is None else Interval((1 - r.hi) * 100, (1 - r.lo) * 100)


def _relative_to_second_over(x: Interval, y: Interval) -> Interval | None:
    # (a - b) / b * 100 = (a / b - 1) * 100
    r = quotient(x, y)
    return None if r is None else Interval((r.lo - 1) * 100, (r.hi - 1) * 100)


def _percent_ratio_over(x: Interval, y: Interval) -> Interval | None:
    r = quotient(x, y)
    return None if r is None else Interval(r.lo * 100, r.hi * 100)


def _difference_over(x: Interval, y: Interval) -> Interval:
    return Interval(x.lo - y.hi, x.hi - y.lo)


# name -> the formula's interval over two intervals of its operands (every formula is monotone in each operand,
# so the interval's ends lie at the operands' ends): what a pair of printed figures, or of ranges, allows
OVER_INTERVALS = {
    "ratio": _ratio_over,
    "relative_first": _relative_to_first_over,
    "relative_second": _relative_to_second_over,
    "percent_ratio": _percent_ratio_over,
    "difference": _difference_over,
}


def _over_printed(formula: str):
    over = OVER_INTERVALS[formula]
    return lambda a, b: over(stands_for(a), stands_for(b))


# name -> (interval over the operands' printed intervals, point function, how to print it)
FORMULAS = {
    "ratio": (_over_printed("ratio"), lambda a, b: a / b, "{a} / {b}"),
    "relative_first": (_over_printed("relative_first"), lambda a, b: (a - b) / a * 100, "({a} - {b}) / {a}"),
    "relative_second": (_over_printed("relative_second"), lambda a, b: (a - b) / b * 100, "({a} - {b}) / {b}"),
    "percent_ratio": (_over_printed("percent_ratio"), lambda a, b: a / b * 100, "{a} / {b}"),
    "difference": (_over_printed("difference"), lambda a, b: a - b, "{a} - {b}"),
}

def points_difference(a: Figure, b: Figure, derived: Figure, unit: str | None = None) -> tuple[str, str] | None:
    """(the arithmetic, the points) when a ``%`` figure printed beside two AP
    figures is their difference in points, not a percent change: ``("0.6311
    - 0.5185 = 0.1126, 11.26 points", "11.26 points")`` (AP of 0 to 1 in
    points of 100), ``("63.11 - 51.85 = 11.26 points", ...)`` (AP printed in
    percent), when the difference gives ``derived`` to its printed digits,
    either sign; None otherwise. ``unit``: the operands' unit where they
    print none (a table column's, "AP")."""
    if derived.unit != "%" or not any((f.unit or unit or "").startswith("AP") for f in (a, b)) or \
            (a.unit and b.unit and a.unit != b.unit):
        return None
    larger, smaller = (a, b) if a.value >= b.value else (b, a)
    scale = 100 if larger.value <= 1 else 1
    x, y = stands_for(larger), stands_for(smaller)
    low, high = (x.lo - y.hi) * scale, (x.hi - y.lo) * scale
    if not consistent(Interval(-high, -low) if derived.value < 0 else Interval(low, high), derived):
        return None
    difference = larger.value - smaller.value
    points = f"{format_number(difference * scale, derived.decimals)} points"
    shown = f"{larger.text} - {smaller.text} = "
    return shown + (points if scale == 1 else f"{format_number(difference, max(larger.decimals, smaller.decimals))}, {points}"), points


def formulas_for(unit: str | None, difference_header: bool, ratio_named: bool = False) -> tuple[str, ...]:
    """Formulas a derived figure of ``unit`` may follow: ratios for ``x``
    (and for a unitless column whose header names a ratio), the relative
    forms for ``%``, the difference for a column whose header names one."""
    if unit == "x" or (unit is None and ratio_named):
        return ("ratio",)
    if unit == "%":
        return ("relative_first", "relative_second", "percent_ratio")
    return ("difference",) if difference_header else ()


def fits(formula: str, a: Figure, b: Figure, derived: Figure) -> bool | None:
    """True when ``derived`` is ``formula(a, b)`` to the printed digits,
    rounded or truncated (:func:`studygen.lint.rounding.verdict`); None
    when the formula is undefined (a denominator that may be zero)."""
    computed = FORMULAS[formula][0](a, b)
    if computed is None:
        return None
    return consistent(computed, derived)


def recomputed(formula: str, a: Figure, b: Figure, derived: Figure, unit: str | None = None,
               least_decimals: int = 0) -> str:
    """``formula(a, b)`` printed at ``derived``'s digits, at least
    ``least_decimals`` (more when those would print the same text as
    ``derived``, or, for a whole-number claim, a single significant digit:
    "0.04395 / 0.03613 = 1.2x" beside "twice as fast", where "= 1x" read as
    two equal times), with the arithmetic."""
    _, point, pattern = FORMULAS[formula]
    try:
        value = point(a.value, b.value)
    except ZeroDivisionError:
        return f"{pattern.format(a=a.text, b=b.text)} is undefined"
    decimals = max(derived.decimals, least_decimals)
    text = format_number(value, decimals)
    while (text == derived.text or (derived.decimals == 0 and _significant(text) < 2)) \
            and decimals < derived.decimals + 3:
        decimals += 1
        text = format_number(value, decimals)
    unit = unit or derived.unit
    return f"{pattern.format(a=a.text, b=b.text)} = {with_unit(text, unit)}"


def _significant(text: str) -> int:
    """Significant digits of a printed figure: ``1`` 1, ``1.2`` 2, ``-3`` 1, ``0.05`` 1, ``12`` 2."""
    return len(text.lstrip("-").replace(".", "").lstrip("0"))


def derivation(formula: str, a: Figure, b: Figure, derived: Figure, unit: str | None = None,
               always_agree: bool = False) -> str:
    """:func:`recomputed` with the interval the printed inputs give
    (:func:`studygen.lint.rounding.gives`): ``7.53 / 3.20 = 2.35x (2.348x
    to 2.358x within the printed digits)``; the value one digit finer when
    its own digits fall outside the interval shown (or, ``always_agree``,
    outside the one its ends print alike and hide: ``0.97x``, not ``1.0x``)."""
    computed = FORMULAS[formula][0](a, b)
    if computed is None:
        return recomputed(formula, a, b, derived, unit)
    # "1500 / 1450 = 1.0x (1.03x to 1.04x …)": a value rounded to the printed figure's digits may fall outside
    # the interval, which is shown one digit finer; the value is then shown at that digit too
    finer = derived.decimals + 1
    ends = [float(format_number(end, finer)) for end in computed]
    value = FORMULAS[formula][1](a.value, b.value)
    outside = not ends[0] <= float(format_number(value, derived.decimals)) <= ends[1]
    interval = gives(computed, derived, unit)
    finer = finer if outside and (interval or always_agree) else 0
    return recomputed(formula, a, b, derived, unit, finer) + interval


class Fit:
    """A definition of a derived column and how well it fits.

    ``kind`` is ``pair`` (``first`` and ``second`` of the same row),
    ``baseline`` (``first`` of the row against ``first`` of the row's
    baseline row, ``baselines[row]``: one row for the table, or one per row
    group) or ``previous`` (``first`` of the row against the row before, in
    its row group); ``matched`` and ``missed`` are row indexes. ``declared``
    says why the table's layout or header declares this definition ("" for
    one inferred from the figures alone); ``close`` marks a declared one
    taken because every row is near it though few rows fit it exactly."""

    def __init__(self, kind: str, formula: str, first: Series, second: Series | None, baselines: dict[int, int],
                 matched: list[int], missed: list[int], reversed: bool = False, declared: str = "",
                 close: bool = False, by_words: bool = False):
        self.kind, self.formula, self.first, self.second, self.baselines = kind, formula, first, second, baselines
        self.matched, self.missed, self.declared, self.close = matched, missed, declared, close
        self.reversed = reversed  # a baseline fit computed as formula(baseline, row)
        self.by_words = by_words  # declared by the header's words (see table_model.Definition)

    def operands(self, row: int) -> tuple[Figure, Figure]:
        """(a, b) of ``row`` for this definition."""
        if self.kind == "pair":
            a, b = self.first.values[row], self.second.values[row]
        else:
            other = self.first.values[self.baselines[row] if self.kind == "baseline" else row - 1]
            a, b = (other, self.first.values[row]) if self.reversed else (self.first.values[row], other)
        return in_one_unit(a, b) or (a, b)

    def described(self, table: Table, row_word: str = "row", row: int | None = None) -> str:
        """What the definition computes ``row`` from, for a message;
        ``row_word``: what a row of ``table`` is to the reader ("column" for
        a transposed view)."""
        if self.kind == "pair":
            return f"'{self.first.header}' and '{self.second.header}' give"
        if self.kind == "baseline":
            baseline = self.baselines[row] if row is not None else next(iter(self.baselines.values()))
            label = table.rows[baseline].label
            name = f"{row_word} '{label}'" if label else f"the {row_word} at line {table.rows[baseline].line}"
            return f"'{self.first.header}' against the baseline {name} gives"
        return f"'{self.first.header}' against the {row_word} before gives"


def _in_one_unit(pairs) -> list[tuple[int, Figure, Figure]]:
    """``pairs`` of (row, a, b) with each a and b in one unit
    (:func:`~studygen.lint.figures.in_one_unit`: ``20480 MB`` against
    ``21.5 GB`` in GB); a pair whose units do not convert into each other
    (``812.4 ms`` and ``430.2 tok/s`` in one row of a Metric-per-row table)
    is left out: no change or ratio is formed from it."""
    return [(row, *same) for row, a, b in pairs if (same := in_one_unit(a, b)) is not None]


def _score(formula, target: Series, pairs) -> tuple[list[int], list[int]] | None:
    """(matched, missed) row indexes of ``formula`` over ``pairs`` of
    (row, a, b); None when it is undefined on a row."""
    matched, missed = [], []
    for row, a, b in pairs:
        verdict = fits(formula, a, b, target.values[row])
        if verdict is None:
            return None
        (matched if verdict else missed).append(row)
    return matched, missed


def _enough(matched: list[int], rows: int) -> bool:
    """An inferred definition: two rows at least, and two thirds of them."""
    return len(matched) >= 2 and len(matched) * 3 >= rows * 2


def _score_enough(formula, target: Series, pairs) -> tuple[list[int], list[int]] | None:
    """:func:`_score` when it is :func:`_enough`, else None; the rows after
    the miss that leaves too few to fit are not computed (an inferred
    definition over the rows that fit would not be taken)."""
    rows = len(pairs)
    matched, missed = [], []
    for row, a, b in pairs:
        verdict = fits(formula, a, b, target.values[row])
        if verdict is None:
            return None
        if verdict:
            matched.append(row)
            continue
        missed.append(row)
        left = rows - len(missed)  # the most rows that can still fit
        if left < 2 or left * 3 < rows * 2:
            return None
    return (matched, missed) if _enough(matched, rows) else None


# A declared definition every row of which lies within this share of the
# printed figure is the column's, though few rows fit it to the digits: the
# figures were derived from other measurements than those printed.
CLOSE = 0.10


def _close(formula: str, target: Series, pairs) -> bool:
    """True when every row's recomputed value is within :data:`CLOSE` of its
    printed figure, over three rows at least (two could agree by chance)."""
    if len(pairs) < 3:
        return False
    point = FORMULAS[formula][1]
    for row, a, b in pairs:
        printed = target.values[row].value
        try:
            value = point(a.value, b.value)
        except ZeroDivisionError:
            return False
        if printed == 0 or abs(value - printed) > CLOSE * abs(printed):
            return False
    return True


def pair_fits(target: Series, formulas, pool: list[Series]):
    """Fits of ``target`` as a formula over two columns of ``pool`` in the same row."""
    target_rows = [i for i, v in enumerate(target.values) if v is not None]
    for first in pool:
        if first is target:
            continue
        for second in pool:
            if second is first or second is target:
                continue
            pairs = _in_one_unit((i, first.values[i], second.values[i]) for i in target_rows
                                 if first.values[i] is not None and second.values[i] is not None)
            if len(pairs) < 3:
                continue
            for formula in formulas:
                scored = _score_enough(formula, target, pairs)
                if scored:
                    yield Fit("pair", formula, first, second, {}, *scored)


def _baseline_candidates(target: Series, operand: Series, rows) -> list[int]:
    """Rows of ``rows`` that may be the reference of ``target``: where it
    prints the identity (1x, 100%, 0%) or is empty while the operand is not."""
    found = []
    for index in rows:
        derived, figure = target.values[index], operand.values[index]
        if figure is None or figure.value == 0:
            continue
        if derived is None or derived.value in (1.0, 100.0, 0.0):
            found.append(index)
    return found


def _baseline_pairs(target: Series, first: Series, baselines: dict[int, int]):
    return _in_one_unit((i, first.values[i], first.values[b]) for i, b in baselines.items()
                        if target.values[i] is not None and first.values[i] is not None)


def _baseline_choices(table: Table, target: Series, first: Series):
    """Row -> baseline row maps to try: one baseline for the whole table
    (each of its first three candidates), or, when the table has row groups
    (:func:`studygen.lint.table_model.row_groups`), each group's first
    candidate for the group's rows."""
    groups = row_groups(table, target)
    if len(groups) == 1:
        for baseline in _baseline_candidates(target, first, range(len(table.rows)))[:3]:
            yield {i: baseline for i in range(len(table.rows)) if i != baseline}
        return
    chosen = {}
    for group in groups:
        candidates = _baseline_candidates(target, first, group)
        if candidates:
            chosen.update({i: candidates[0] for i in group if i != candidates[0]})
    if chosen:
        yield chosen


def baseline_fits(table: Table, target: Series, formulas, pool: list[Series]):
    """Fits of ``target`` as a formula of one column against its value in a
    baseline row, or in each row group's baseline row (the baseline rows
    themselves left out of the count)."""
    for first in pool:
        if first is target:
            continue
        for baselines in _baseline_choices(table, target, first):
            pairs = _baseline_pairs(target, first, baselines)
            if len(pairs) < 2:
                continue
            for formula in formulas:
                for ordered in (pairs, [(i, b, a) for i, a, b in pairs]):
                    scored = _score_enough(formula, target, ordered)
                    if scored:
                        yield Fit("baseline", formula, first, None, baselines, *scored, reversed=ordered is not pairs)


def _previous_pairs(table: Table, target: Series, first: Series):
    """(row, its figure, the figure of the row before) within each row group."""
    pairs = []
    for group in row_groups(table):
        for i in group[1:]:
            if target.values[i] is not None and first.values[i] is not None and first.values[i - 1] is not None:
                pairs.append((i, first.values[i], first.values[i - 1]))
    return _in_one_unit(pairs)


def previous_fits(table: Table, target: Series, formulas, pool: list[Series]):
    """Fits of ``target`` as a formula of one column against the row before
    in its row group (each row a step further than the last)."""
    for first in pool:
        if first is target:
            continue
        pairs = _previous_pairs(table, target, first)
        if len(pairs) < 2:
            continue
        for formula in formulas:
            scored = _score_enough(formula, target, pairs)
            if scored:
                yield Fit("previous", formula, first, None, {}, *scored)


# One last digit of a lone fitting row's figure spans at most this share of it: "3.0x" or "-10.5%" tell a
# formula apart, "2x" (1.5x to 2.5x) fits many by chance.
_TELLING_STEP = 0.10


def _telling(figure: Figure) -> bool:
    """True for a derived figure that a formula fits only on purpose: not
    an identity (1x, 100%, 0%) and printed to two significant digits at least."""
    if is_identity(figure.value, figure.unit):
        return False
    return 2 * figure.half_step <= _TELLING_STEP * abs(figure.value)


def _no_reading_gives(target: Series, formulas, row: int, a: Figure, b: Figure) -> bool:
    """True when no formula of ``formulas`` over (a, b), either way round,
    gives ``target``'s figure of ``row`` (an undefined one might); a ``%``
    figure may also be a difference in points (AP 37.40 to 36.90 printed
    "-0.50%")."""
    derived = target.values[row]
    readings = (*formulas, "difference") if target.unit == "%" else tuple(formulas)
    return all(fits(formula, x, y, derived) is False for formula in readings for x, y in ((a, b), (b, a)))


def _nearest_reading(formula: str, formulas, target: Series, row: int, a: Figure, b: Figure) -> bool:
    """True when ``formula(a, b)`` lies nearest ``target``'s figure of
    ``row`` among every formula of ``formulas`` either way round: the
    reading a finding on a row with nothing else to go by should show.
    Every reading must be defined (:func:`_no_reading_gives` holds)."""
    printed = target.values[row].value

    def distance(name: str, x: Figure, y: Figure) -> float:
        return abs(FORMULAS[name][1](x.value, y.value) - printed)

    return distance(formula, a, b) <= min(distance(f, x, y) for f in formulas for x, y in ((a, b), (b, a)))


def _few_rows_enough(definition: Definition, formula: str, formulas, target: Series, ordered,
                     scored: tuple[list[int], list[int]]) -> bool:
    """A declared definition on a table too short for :func:`_enough` (two
    rows, or one when the header's words state it: :func:`declared_fits`
    lets no shorter one through, and with three rows or more one miss leaves
    enough): one row fits it and the other is given by no reading of the
    same operands (either way round, any formula of the unit); a lone row
    under a header naming both columns is read the way that comes nearest
    its figure. The fitting row must be :func:`_telling`, and a pair of
    columns must share a unit: an inferred definition never decides on so
    few rows."""
    matched, missed = scored
    if len(missed) != 1 or not all(_telling(target.values[row]) for row in matched):
        return False
    if definition.second is not None and definition.first.unit != definition.second.unit:
        return False
    row, a, b = next(pair for pair in ordered if pair[0] == missed[0])
    if not _no_reading_gives(target, formulas, row, a, b):
        return False
    return bool(matched) or _nearest_reading(formula, formulas, target, row, a, b)


def declared_fits(table: Table, target: Series, formulas):
    """Fits of the definitions ``target``'s layout or header declares
    (:func:`studygen.lint.table_model.declared_definitions`), either way
    round: taken on the evidence an inferred one needs (:func:`_enough`),
    when every row is :func:`_close` to them, or on a table of one or two
    rows by :func:`_few_rows_enough` (the declaration is the evidence the
    figures cannot give)."""
    for definition in declared_definitions(table, target):
        if definition.kind == "pair":
            rows = [i for i, v in enumerate(target.values) if v is not None
                    and definition.first.values[i] is not None and definition.second.values[i] is not None]
            pairs = _in_one_unit((i, definition.first.values[i], definition.second.values[i]) for i in rows)
            kind, baselines = "pair", {}
        else:  # baseline
            baselines = next(_baseline_choices(table, target, definition.first), {})
            pairs = _baseline_pairs(target, definition.first, baselines)
            kind = "baseline"
        if len(pairs) < (1 if definition.by_words else 2):
            continue
        for formula in formulas:
            for ordered in (pairs, [(i, b, a) for i, a, b in pairs]):
                scored = _score(formula, target, ordered)
                if scored is None:
                    continue
                matched, missed = scored
                enough = _enough(matched, len(ordered))
                close = not enough and _close(formula, target, ordered)
                if close or enough or _few_rows_enough(definition, formula, formulas, target, ordered, scored):
                    first, second = definition.first, definition.second
                    if kind == "pair" and ordered is not pairs:
                        first, second = second, first
                    yield Fit(kind, formula, first, second, baselines, matched, missed,
                              reversed=kind == "baseline" and ordered is not pairs, declared=definition.why, close=close,
                              by_words=definition.by_words)


def best_fit(table: Table, target: Series, formulas, operands: dict, preferred: Series | None = None) -> Fit | None:
    """The definition of ``target`` that fits most of its rows (see the
    module docstring), or None when none fits enough of them. A definition
    the header's words state comes first; among equal fits: one over
    ``preferred`` (the column each cell names, :mod:`studygen.lint.named_operands`),
    one the table's layout declares, operands in the target's own column or
    sub-column, operands its header names, a pair of columns before a
    baseline row before the row before."""
    if "difference" in formulas:
        pool = list(operands.get(target.unit, []))
    else:
        pool = [s for unit, group in operands.items() for s in group]
    best, best_key = None, None
    kinds = {"pair": 2, "baseline": 1, "previous": 0}
    candidates = (*declared_fits(table, target, formulas), *pair_fits(target, formulas, pool),
                  *baseline_fits(table, target, formulas, pool), *previous_fits(table, target, formulas, pool))
    for fit in candidates:
        rows = len(fit.matched) + len(fit.missed)
        second = fit.second or fit.first
        aligned = (fit.first.sub == second.sub == target.sub) + (fit.first.varying == second.varying == target.varying)
        own_column = fit.first.column == target.column
        # prefer operands the header names ("Throughput Improvement" over throughputs)
        named = len(target.quantity & (fit.first.quantity | second.quantity))
        # a definition the header states comes first: a better fit over other columns would make the header wrong
        uses_preferred = preferred is not None and (fit.first is preferred or fit.second is preferred)
        key = (fit.by_words, len(fit.matched) / rows, uses_preferred, bool(fit.declared), own_column, aligned, named, kinds[fit.kind], len(fit.matched))
        if best_key is None or key > best_key:
            best, best_key = fit, key
    return best


def operand_pools(table: Table) -> dict[str | None, list[Series]]:
    """The table's series that a derived figure may be computed from, by
    unit (no ``x`` or ``%`` series, no column headed as a ratio)."""
    operands: dict[str | None, list[Series]] = {}
    for series in table.series:
        if not is_derived(series):
            operands.setdefault(series.unit, []).append(series)
    return operands
