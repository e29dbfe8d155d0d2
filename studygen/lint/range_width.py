"""SG101's second reading: a prose range wider than every row it summarises.

SG101 reports a range that leaves rows out. A range can also cover every row
and still misstate them: "speedups of 1.2-3.0x" over rows that run 1.31 to
2.08x names two extremes that no row reaches. This module reports such a
range when all of these hold, so that a loose but honest bound stays silent:

- the column is the range's best covered candidate, in the range's own
  section and tied to its sentence by a header or heading word (or, for a
  clause claiming the range for every row, "across all batch sizes", in
  another section, tied so and holding one of its ends), and no other
  column of any tier holds either endpoint (a range whose end is another
  column's figure summarises that column, not this one);
- at most one endpoint rounds to a row's value at its printed digits;
- the range is printed with decimals, at most one fewer than the rows
  ("1.2-3.0x" over ``1.31x`` cells claims extremes), and one end lies more
  than 5 % beyond its nearest row ("1.30-2.10x" over rows up to 2.08x is a
  rounding); printed coarser ("2-6%" over ``2.62%``), an end is a round
  bound unless it is no multiple of five in its last digit and lies a whole
  printed step and 5 % beyond its nearest row ("13-35%" over rows from
  20.0%: :func:`_stated_beyond`);
- no hedge stands before it ("about", "~": :func:`.rounding.hedged_range`)
  and no bound word ("within", "under", "target", "budget") frames it as a
  limit the rows stay inside.

Inputs are :class:`studygen.lint.sg101_range_coverage.Candidate` objects (read
by attribute: this module sits below that one); the output is one
:class:`~studygen.findings.Finding` or None.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..numbers import format_number
from ..patterns import lazy_compile
from .claims import claims_most_rows
from .figures import Range, with_unit

# words that make a range a limit the rows stay inside, not the rows' extremes
_BOUND_BEFORE_RE = lazy_compile(
    r"\b(?:within|inside|under|below|above|beneath|band|bands|bounds?|bounded|target(?:s|ed)?|budget|limits?|thresholds?|"
    r"envelope|window|expected|expect|spec|tolerance)\b[^.;:]{0,24}$",
    re.IGNORECASE,
)


def loose_range(path: str, sentence, rng: Range, candidates: list, code: str) -> Finding | None:
    """The finding for ``rng`` when it is wider than every row of the
    column it summarises (module docstring), else None. ``candidates`` are
    the range's evaluated columns, every reportable one covered."""
    # its own section's column, or (for a clause claiming every row) another section's tied by words and holding
    # one of the range's ends
    tied = [c for c in candidates if c.covered and c.reportable and c.overlap and c.same_section]
    if not tied and any(c.found for c in candidates) and claims_most_rows(sentence, rng):  # "across all batch sizes"
        tied = [c for c in candidates if c.covered and c.reportable and c.overlap and c.found]
    if not tied:
        return None
    best = max(tied, key=lambda c: c.rank())
    if best.found > 1 or any(c.found for c in candidates if c is not best):
        return None  # both ends are its rows' figures, or an end is another column's figure
    reading = best.reading or rng
    before = sentence.text[: max(0, rng.start - sentence.start)]
    if _BOUND_BEFORE_RE.search(before[-48:]):
        return None
    entries = best.make_entries()
    if len(entries) < 2:
        return None
    if best.found:  # the end no row gives: a figure of another column ("fp32 takes 0.04 to 0.06 MiB", 0.04 an
        # fp16 cell) makes the range a summary of more than this column
        loose = [end for end in (reading.lo, reading.hi)
                 if not any(abs(e.value - end.value) <= end.half_step + 1e-9 for e in entries)]
        if any(_printed(sentence.block.document, reading.unit, end) for end in loose):
            return None
    finest_row = max(e.decimals for e in entries)
    printed = min(reading.lo.decimals, reading.hi.decimals)
    low = min(entries, key=lambda e: e.value)
    high = max(entries, key=lambda e: e.value)
    if printed < 1 or printed < finest_row - 1:
        # printed coarser than the rows: an end is a round bound ("2-6%" over 2.62 to 5.8%, "10-40%") unless it
        # is no multiple of five in its last digit and lies a whole printed step or more beyond its nearest row
        # ("13-35%" over rows from 20.0%: no row comes near 13)
        if not (_stated_beyond(low.value, reading.lo) or _stated_beyond(high.value, reading.hi)):
            return None
    elif not (_misses(low.value, reading.lo.value) or _misses(high.value, reading.hi.value)):
        return None  # both ends near the rows: a rounding, not a misstatement
    rows = with_unit(f"{format_number(low.value, low.decimals)} to {format_number(high.value, high.decimals)}", reading.unit)
    message = (
        f"range {rng.text} is wider than every row of {best.description} in the table at line {best.table.line}: "
        f"its {len(entries)} rows run {rows} ('{low.row.label or f'line {low.row.line}'}' to "
        f"'{high.row.label or f'line {high.row.line}'}')"
    )
    hint = f"narrow the range to {rows}, or word it as a bound the rows stay within"
    return Finding(code, message, path, sentence.line_at(rng.start), hint=hint)


def _printed(document, unit: str | None, end) -> bool:
    """True when a table column of ``unit`` in ``document`` prints a figure that rounds to the range end
    ``end`` (a Figure) at its printed digits."""
    tolerance = end.half_step + 1e-9
    return any(value is not None and abs(value.value - end.value) <= tolerance
               for series in document.series_by_unit.get(unit, ()) for value in series.values)


def _stated_beyond(row: float, end) -> bool:
    """True when a range's ``end`` (a Figure), printed coarser than the rows, is no round bound of the
    nearest ``row``: not a multiple of five in its last printed digit ("13", "4.9"; "35", "2.5" are), at
    least one printed step from the row, and more than 5 % beyond it (:func:`_misses`)."""
    step = 10.0 ** -end.decimals
    units = round(abs(end.value) / step)
    return units % 5 != 0 and abs(end.value - row) >= step and _misses(row, end.value)


def _misses(row: float, end: float) -> bool:
    """True when the range's ``end`` lies more than 5 % beyond the nearest
    row's value (2.10 for a largest row of 2.08 is near, 3.0 is not)."""
    return abs(end - row) > 0.05 * max(abs(row), 1e-12)


__all__ = ["loose_range"]
