"""SG103 derived figures: a ratio, speedup, reduction or percentage must
equal what the figures it is derived from give, to the printed digits.

**Table columns.** A column in ``x`` or ``%``, or one whose header names a
difference (saving, delta, reduction …), is matched against every formula
over two other columns of one unit in the same row: ``a / b`` (x),
``(a - b) / a``, ``(a - b) / b`` and ``a / b`` in % (both ways round), and
``a - b`` for a difference column. The formula that fits most rows is taken
as the column's definition when it fits at least two rows and two thirds of
them; each row it does not fit is a finding that shows the recomputed value.
No formula fitting is no finding (the column may compare with something the
table does not hold).

**Prose.** In one clause, a ratio or percentage next to two figures of one
unit compared ("14.75 vs 13.99 ms, 1.05x", "drops from 0.4644 to 0.4625
(-0.4%)") must fit one of the same formulas.

*Fits to the printed digits*: every figure stands for an interval (``0.97``
for 0.965 to 0.975); the formula's interval over its operands' intervals
must meet the derived figure's interval.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..numbers import format_number
from .document import Document, Series, Table
from .figures import RATIO_UNITS, Figure, interval, with_unit

CODE = "SG103"

_DERIVED_HEADER_WORDS = frozenset({"saving", "saved", "diff", "difference", "delta", "reduction", "overhead", "gain", "change", "speedup", "ratio"})


def _ratio_interval(a: Figure, b: Figure) -> tuple[float, float] | None:
    a_lo, a_hi = interval(a)
    b_lo, b_hi = interval(b)
    if b_lo <= 0 <= b_hi:
        return None
    quotients = (a_lo / b_lo, a_lo / b_hi, a_hi / b_lo, a_hi / b_hi)
    return min(quotients), max(quotients)


def _ratio(a, b):
    return _ratio_interval(a, b)


def _relative_to_first(a, b):
    # (a - b) / a * 100 = (1 - b / a) * 100
    r = _ratio_interval(b, a)
    return None if r is None else ((1 - r[1]) * 100, (1 - r[0]) * 100)


def _relative_to_second(a, b):
    # (a - b) / b * 100 = (a / b - 1) * 100
    r = _ratio_interval(a, b)
    return None if r is None else ((r[0] - 1) * 100, (r[1] - 1) * 100)


def _percent_ratio(a, b):
    r = _ratio_interval(a, b)
    return None if r is None else (r[0] * 100, r[1] * 100)


def _difference(a, b):
    a_lo, a_hi = interval(a)
    b_lo, b_hi = interval(b)
    return a_lo - b_hi, a_hi - b_lo


# name -> (interval function, point function, how to print it)
FORMULAS = {
    "ratio": (_ratio, lambda a, b: a / b, "{a} / {b}"),
    "relative_first": (_relative_to_first, lambda a, b: (a - b) / a * 100, "({a} - {b}) / {a}"),
    "relative_second": (_relative_to_second, lambda a, b: (a - b) / b * 100, "({a} - {b}) / {b}"),
    "percent_ratio": (_percent_ratio, lambda a, b: a / b * 100, "{a} / {b}"),
    "difference": (_difference, lambda a, b: a - b, "{a} - {b}"),
}


def formulas_for(unit: str | None, difference_header: bool) -> tuple[str, ...]:
    """Formulas a derived figure of ``unit`` may follow."""
    if unit == "x":
        return ("ratio",)
    if unit == "%":
        return ("relative_first", "relative_second", "percent_ratio")
    return ("difference",) if difference_header else ()


def fits(formula: str, a: Figure, b: Figure, derived: Figure) -> bool | None:
    """True when ``derived`` is ``formula(a, b)`` to the printed digits;
    None when the formula is undefined (a zero denominator)."""
    interval_of, point, _ = FORMULAS[formula]
    if b.value != 0 and (formula != "relative_first" or a.value != 0):
        # the printed operands give a value inside the derived figure's digits: fits
        if abs(point(a.value, b.value) - derived.value) <= derived.half_step:
            return True
    computed = interval_of(a, b)
    if computed is None:
        return None
    low, high = interval(derived)
    return computed[0] <= high + 1e-12 and low - 1e-12 <= computed[1]


def recomputed(formula: str, a: Figure, b: Figure, derived: Figure, unit: str | None = None) -> str:
    """``formula(a, b)`` printed at ``derived``'s digits (more when those
    would print the same text as ``derived``), with the arithmetic."""
    _, point, pattern = FORMULAS[formula]
    try:
        value = point(a.value, b.value)
    except ZeroDivisionError:
        return f"{pattern.format(a=a.text, b=b.text)} is undefined"
    decimals = derived.decimals
    text = format_number(value, decimals)
    while text == derived.text and decimals < derived.decimals + 3:
        decimals += 1
        text = format_number(value, decimals)
    unit = unit or derived.unit
    return f"{pattern.format(a=a.text, b=b.text)} = {with_unit(text, unit)}"


def check(document: Document) -> list[Finding]:
    """SG103 findings of tables and prose."""
    findings: list[Finding] = []
    for table in document.tables:
        findings.extend(_table_findings(document, table))
    for block in document.prose:
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            if len(sentence.tokens) >= 3:
                findings.extend(_prose_findings(document, sentence))
    return findings


# --- tables ---------------------------------------------------------------------


def _table_findings(document: Document, table: Table) -> list[Finding]:
    if len(table.rows) < 2 or len(table.series) < 3:
        return []
    operands: dict[str | None, list[Series]] = {}
    for series in table.series:
        if series.unit not in RATIO_UNITS:
            operands.setdefault(series.unit, []).append(series)
    findings = []
    for target in table.series:
        difference_header = bool(_DERIVED_HEADER_WORDS & target.keywords)
        formulas = formulas_for(target.unit, difference_header)
        if not formulas:
            continue
        best = _best_fit(table, target, formulas, operands)
        if best is None:
            continue
        formula, first, second, misses, matches = best
        for row_index in misses:
            row = table.rows[row_index]
            a, b, d = first.values[row_index], second.values[row_index], target.values[row_index]
            findings.append(Finding(
                CODE,
                f"{row.name()}: '{target.header}' is {with_unit(d.text, target.unit)} but "
                f"'{first.header}' and '{second.header}' give {recomputed(formula, a, b, d, target.unit)} "
                f"(that formula fits the column's other {matches} rows)",
                document.path,
                row.line,
                hint="recompute the figure from the row's own values, or say in the header what it is computed from",
            ))
    return findings


def _best_fit(table: Table, target: Series, formulas, operands):
    """(formula, a, b, rows it misses, rows it fits) of the best-fitting
    definition of ``target``, or None when none fits enough rows."""
    pools = [operands.get(target.unit, [])] if "difference" in formulas else [p for u, p in operands.items()]
    best = None
    best_key = None
    target_rows = [i for i, v in enumerate(target.values) if v is not None]
    for pool in pools:
        for first in pool:
            if first is target:
                continue
            for second in pool:
                if second is first or second is target:
                    continue
                rows = [i for i in target_rows if first.values[i] is not None and second.values[i] is not None]
                if len(rows) < 3:
                    continue
                for formula in formulas:
                    matched, missed = [], []
                    for i in rows:
                        verdict = fits(formula, first.values[i], second.values[i], target.values[i])
                        if verdict is None:
                            break
                        (matched if verdict else missed).append(i)
                    else:
                        if len(matched) < 2 or len(matched) * 3 < len(rows) * 2:
                            continue
                        aligned = (first.sub == second.sub == target.sub) + (first.varying == second.varying == target.varying)
                        # prefer operands the header names ("Throughput Improvement" over throughputs)
                        named = len(target.quantity & (first.quantity | second.quantity))
                        key = (len(matched) / len(rows), aligned, named, len(matched))
                        if best_key is None or key > best_key:
                            best_key = key
                            best = (formula, first, second, missed, len(matched))
    return best


# --- prose -------------------------------------------------------------------------

_COMPARE_GAP_RE = re.compile(r"\s*(?:vs\.?|versus|against|compared\s+(?:to|with)|→|->|over)\s*", re.IGNORECASE)


_MAX_GAP = 30  # characters between a derived figure and the figures it is derived from


def _adjacent(text: str, starts: list[int], derived: Figure, a: Figure, b: Figure) -> bool:
    """True when ``derived`` sits right before or after the pair (a, b),
    with no other figure and no sentence break between them."""
    if derived.start >= b.end:
        gap_start, gap_end = b.end, derived.start
    elif derived.end <= a.start:
        gap_start, gap_end = derived.end, a.start
    else:
        return False
    if gap_end - gap_start > _MAX_GAP or ";" in text[gap_start:gap_end]:
        return False
    return not any(gap_start < s < gap_end for s in starts)


def _prose_findings(document: Document, sentence) -> list[Finding]:
    text = sentence.block.text
    tokens = [t for t in sentence.tokens if t.figure is not None]
    pairs = []  # (first figure, second figure)
    for rng in sentence.ranges:
        if rng.kind == "change":
            pairs.append((rng.lo, rng.hi))
    for first, second in zip(tokens, tokens[1:]):
        if _COMPARE_GAP_RE.fullmatch(text, first.end, second.start):
            pairs.append((first.figure, second.figure))
    pairs = [(a, b) for a, b in pairs if a.unit not in RATIO_UNITS and b.unit not in RATIO_UNITS and (a.unit == b.unit or a.unit is None or b.unit is None)]
    if not pairs:
        return []
    in_ranges = {r.lo.start for r in sentence.ranges} | {r.hi.start for r in sentence.ranges}
    starts = [t.start for t in tokens]
    findings = []
    for token in tokens:
        derived = token.figure
        if derived.unit not in RATIO_UNITS or derived.start in in_ranges:
            continue
        near = [(a, b) for a, b in pairs if _adjacent(text, starts, derived, a, b)]
        if not near:
            continue
        formulas = formulas_for(derived.unit, False)
        verdicts = [fits(f, x, y, derived) for a, b in near for f in formulas for x, y in ((a, b), (b, a))]
        if any(verdicts) or all(v is None for v in verdicts):
            continue  # it fits, or no formula is defined over these figures
        a, b = min(near, key=lambda p: min(abs(p[0].start - derived.start), abs(p[1].end - derived.end)))
        options = " or ".join(recomputed(f, x, y, derived) for f in formulas[:1] for x, y in ((a, b), (b, a)))
        findings.append(Finding(
            CODE,
            f"{with_unit(derived.text, derived.unit)} does not follow from {a.text} and {with_unit(b.text, b.unit or a.unit)}: {options}",
            document.path,
            sentence.line_at(derived.start),
            hint="recompute the ratio or percentage from the figures it compares (to their printed digits), or say what else it is computed from",
        ))
    return findings


__all__ = ["check", "fits", "formulas_for", "recomputed"]
