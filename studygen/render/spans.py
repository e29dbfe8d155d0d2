"""Ranges and computed figures of the view.

- Computed figures from two rows: ratio, reduction in %, AP difference in points.
- Ranges over rows (:meth:`SpanHelpers.span`): every selected row counts (a
  row that is itself a range over unlisted rows counts with both ends), and the
  restriction the template applied is printed after the range, so no range can
  silently drop a row.
- Ranges over values computed from row pairs (ratios, reductions, AP
  differences, kernel-time savings), with the pairs' rows recorded for checks.
- Spread of one measurement over jobs (:meth:`SpanHelpers.spread`): the range
  of the values that different jobs report under the same measurement key.
"""

from __future__ import annotations

from ..errors import TemplateError
from ..numbers import format_number
from ..records.kinds import KERNEL_TIME_METRIC, Kind
from ..study.rows import Row
from ..study.spread import compilation_spread
from ..study.timing import row_kernel_span
from .produced import emit, helper
from .rows import (RowSet, TemplateRow, ViewBase, counted, fmt, restriction_text, spread_cells, undefined_text,
                   unit_suffix)


def pair_rows(pairs) -> list[Row]:
    """The rows of ``(a, b)`` template-row pairs, flattened: ``[a0, b0, a1, b1, ...]``."""
    return [row._row for pair in pairs for row in pair]


def row_pairs(pairs) -> list[tuple[Row, Row]]:
    """``(a, b)`` template-row pairs as row pairs (what :attr:`~.produced.Produced.compared` holds)."""
    return [(a._row, b._row) for a, b in pairs]


def _ends(row: Row) -> list[float]:
    """The values a range over ``row`` must cover: its figure (both ends of
    a range over unlisted rows) and each of its compilations' values."""
    compiled = compilation_spread(row)
    return [end for end in (row.low, row.high, *(compiled.values if compiled is not None else ())) if end is not None]


def _either_undefined(a: TemplateRow, b: TemplateRow) -> str | None:
    """What a figure computed from ``a`` and ``b`` prints when either holds a
    marker instead of a figure (COCOeval's -1): why, never a number; None
    when both hold figures."""
    why = a._row.undefined or b._row.undefined
    return emit(why, [a._row, b._row], compared=[(a._row, b._row)]) if why else None


def refuse_mixed_kernel_spans(rows, what: str) -> None:
    """Raise TemplateError when ``rows`` (study Rows) hold kernel times whose
    figures span different things (:func:`~studygen.study.timing.row_kernel_span`:
    a whole trace's total beside a mean per profiled step, CPU operators'
    self time beside GPU kernel time), naming ``what`` would set them
    together and a job of each span: no table, range or computed figure
    puts them on one scale (SG212 refuses the same in a study file's prose)."""
    jobs: dict[str, str] = {}
    for row in rows:
        span = row_kernel_span(row)
        if span is not None:
            jobs.setdefault(span, row.job_id)
    if len(jobs) > 1:
        named = "; ".join(f"{span} (job {job})" for span, job in jobs.items())
        raise TemplateError(f"{what} would set kernel times that span different things side by side: {named}; "
                            "select the rows of one span (study.kernel_time_groups() gives each span's jobs and "
                            "study.table takes span=)")


class SpanHelpers(ViewBase):
    """Computed figures, ranges and job-to-job spread (see the module docstring)."""

    # ---- one computed figure from two rows ---------------------------------
    @helper()
    def percent(self, fraction) -> str:
        """A fraction (such as a coefficient of variation, std / mean) as a
        percentage with the study's ``cv_percent`` precision (default 1)."""
        return self._cv_percent(fraction)

    def _cv_percent(self, fraction: float) -> str:
        """``fraction`` x 100 with the study file's ``precision.cv_percent``
        decimals (1 unless set), suffixed %: the one rule for a coefficient
        of variation in a README (docs/study-guide.md, "Derived figures")."""
        return format_number(100 * fraction, self.spec.get("precision", {}).get("cv_percent", 1)) + "%"

    @helper("ratio")
    def ratio(self, numerator: TemplateRow, denominator: TemplateRow) -> str:
        """``numerator / denominator`` printed with the study's ``ratio`` precision, suffixed x."""
        refuse_mixed_kernel_spans([numerator._row, denominator._row], "ratio")
        if undefined := _either_undefined(numerator, denominator):
            return undefined
        return emit(format_number(numerator.value / denominator.value, self.decimals("ratio")) + "x",
                    [numerator._row, denominator._row], compared=[(numerator._row, denominator._row)])

    @helper("ratio")
    def reduction_percent(self, before: TemplateRow, after: TemplateRow) -> str:
        """``(before - after) / before`` in %, with the study's ``percent`` precision."""
        refuse_mixed_kernel_spans([before._row, after._row], "reduction_percent")
        if undefined := _either_undefined(before, after):
            return undefined
        return emit(format_number(100 * (before.value - after.value) / before.value, self.decimals("percent")) + "%",
                    [before._row, after._row], compared=[(before._row, after._row)])

    @helper("ratio")
    def delta_points(self, before: TemplateRow, after: TemplateRow) -> str:
        """AP difference ``after - before`` in points (1 point = 0.01 AP), signed;
        ``undefined: …`` when either AP is COCOeval's -1 marker."""
        if undefined := _either_undefined(before, after):
            return undefined
        return emit(format_number(100 * (after.value - before.value), self.decimals("ap_delta_points"), sign=True),
                    [before._row, after._row], compared=[(before._row, after._row)])

    # ---- ranges ------------------------------------------------------------
    @helper("range")
    def span(self, row_set: RowSet, unit: str | None = None) -> str:
        """A range over **every** row of ``row_set`` (ranges over unlisted rows
        count with both ends, and a compiled figure with each of its
        independent compilations: :func:`studygen.study.spread.compilation_spread`),
        e.g. ``0.19 to 0.409 ms``; the restriction the template applied is
        printed after it. ``unit`` overrides the first row's unit. Raises
        TemplateError for an empty set."""
        if not len(row_set):
            raise TemplateError(f"range over no rows: {row_set.filters}")
        refuse_mixed_kernel_spans(row_set.rows, f"a range over {row_set.filters}")
        ends = [(end, row) for row in row_set.rows for end in _ends(row)]
        if undefined := undefined_text(row_set.rows):
            return emit(undefined, row_set.rows)
        if not ends:
            raise TemplateError(f"range over rows without a figure: {row_set.filters}")
        low_value, lowest = min(ends, key=lambda pair: pair[0])
        high_value, highest = max(ends, key=lambda pair: pair[0])
        low, high = fmt(low_value, lowest), fmt(high_value, highest)
        suffix = unit_suffix(unit if unit is not None else next(iter(row_set)).unit)
        text = low + suffix if low == high else f"{low} to {high}{suffix}"
        if left := sum(1 for row in row_set.rows if row.undefined):
            text += f" ({left} undefined)"  # a marker (COCOeval's -1) is no end of the range, and is said
        where = row_set.restriction()
        return emit(f"{text} ({where})" if where else text, row_set.rows)

    @helper("range")
    def derived_span(self, values: list[float], decimals_name: str, suffix: str = "", restriction: str = "",
                     rows=(), compared=()) -> str:
        """A range over computed values (ratios, reductions), all rows included,
        printed with the study's ``decimals_name`` precision: ``0.97x to 1.01x``,
        ``0.11 to 0.14 ms``; ``rows`` are the rows the values come from and
        ``compared`` the ``(a, b)`` row pairs they compare (both recorded for
        checks). Raises TemplateError when ``values`` is empty."""
        if not values:
            raise TemplateError("range over no values")
        d = self.decimals(decimals_name)
        low, high = format_number(min(values), d), format_number(max(values), d)
        if low == high:
            text = f"{low}{suffix}"
        elif suffix in ("x", "%"):
            text = f"{low}{suffix} to {high}{suffix}"
        else:
            text = f"{low} to {high}{suffix}"
        return emit(f"{text} ({restriction})" if restriction else text, rows, compared=compared)

    @helper()
    def pairs(self, a_variant: str, b_variant: str, match=("job_id", "shape"),
              **filters) -> list[tuple[TemplateRow, TemplateRow]]:
        """``(a, b)`` row pairs with equal ``match`` fields (same job and shape
        by default), both with a value, in the order of ``b_variant``'s rows."""
        a_rows = {tuple(row._row.field(m) for m in match): row for row in self.figures(variant=a_variant, **filters)}
        pairs = []
        for row in self.figures(variant=b_variant, **filters):
            key = tuple(row._row.field(m) for m in match)
            if key in a_rows and a_rows[key].value is not None and row.value is not None:
                pairs.append((a_rows[key], row))
        refuse_mixed_kernel_spans(pair_rows(pairs), f"pairs({a_variant!r}, {b_variant!r})")
        return pairs

    @helper("range")
    def ratio_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of a/b over every matching pair, e.g. ``0.97x`` or ``0.97x to 1.01x``."""
        pairs = self.pairs(a_variant, b_variant, **filters)
        values = [a.value / b.value for a, b in pairs]
        return self.derived_span(values, "ratio", "x", restriction_text(filters), rows=pair_rows(pairs),
                                 compared=row_pairs(pairs))

    @helper("range")
    def reduction_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of (a - b) / a in % over every matching pair."""
        pairs = self.pairs(a_variant, b_variant, **filters)
        values = [100 * (a.value - b.value) / a.value for a, b in pairs]
        return self.derived_span(values, "percent", "%", restriction_text(filters), rows=pair_rows(pairs),
                                 compared=row_pairs(pairs))

    @helper("range")
    def delta_points_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of b - a in AP points over every matching pair (same job)."""
        pairs = self.pairs(a_variant, b_variant, match=("job_id",), **filters)
        values = [100 * (b.value - a.value) for a, b in pairs]
        return self.derived_span(values, "ap_delta_points", " points", restriction_text(filters), rows=pair_rows(pairs),
                                 compared=row_pairs(pairs))

    @helper("range")
    def saving_span(self, group: str, a_variant: str, b_variant: str, **filters) -> str:
        """Range of kernel-time savings a - b (ms) for ``group`` over every row
        pair and every stated difference range."""
        values, rows = self._saving_values(group, a_variant, b_variant, **filters)
        return self.derived_span(values, "ms", " ms", restriction_text(filters), rows=rows)

    def _saving_values(self, group: str, a_variant: str, b_variant: str, **filters) -> tuple[list[float], list[dict]]:
        """Savings a - b (ms) from per-row pairs, plus both ends of stated
        difference ranges (``kernel_time_delta`` rows, b - a, so negated);
        and the row dicts they come from."""
        pairs = self.pairs(a_variant, b_variant, metric=KERNEL_TIME_METRIC, group=group, **filters)
        values = [a.value - b.value for a, b in pairs]
        rows = pair_rows(pairs)
        for delta in self.figures(kind=Kind.KERNEL_TIME_DELTA, group=group, variant=b_variant,
                                  reference_variant=a_variant,
                                  **filters):
            values.extend([-delta.low, -delta.high])
            rows.append(delta._row)
        return values, rows

    # ---- spread of one measurement over jobs ---------------------------------
    @helper()
    def spread(self, row: TemplateRow) -> str:
        """Job-to-job spread of the same measurement (its key and, of a
        latency, how it was timed: CUDA graphs on in one job and off in
        another are two measurements; of a kernel time, what its figures
        span: a whole trace's total and a mean per step are two), or '' when only one job reports it:
        ``2 jobs: 0.4639 to 0.4644``. Its ends take their digits together
        (:meth:`_spread_texts`): 14.233 and 14.616 print ``14.2 to 14.6``,
        not ``14 to 15``."""
        same = [r for r in self.same_measurement_rows(row._row) if r.value is not None]
        if len({r.job_id for r in same}) < 2:
            return ""
        return self._spread_texts(row._row, same)[1]

    def _spread_texts(self, row: Row, same: list[Row]) -> tuple[str | None, str]:
        """``row``'s figure and the job-to-job spread of ``same`` (its
        measurement's rows with a value, of two or more jobs) as one cell
        prints them: the figure (None when ``row`` is not among ``same``:
        it prints as it does alone) and ``2 jobs: low to high``. The
        figure and both ends print by :func:`~.rows.spread_cells`' rule, so
        that the cell reads as the arithmetic its sources give: ends in
        order, different ends never alike, their difference the spread's
        (2.04 and 1.985 print ``2.04 (2 jobs: 1.985 to 2.04)``, not ``2.0
        (2 jobs: 2.0 to 2.0)``), no figure past its source's digits."""
        low = min(same, key=lambda r: r.value)
        high = max(same, key=lambda r: r.value)
        printed = [low, high, *([row] if any(r is row for r in same) else [])]
        texts, _ = spread_cells(printed)
        figure = texts[2] if len(texts) == 3 else None
        return figure, f"{counted(len({r.job_id for r in same}), 'job')}: {texts[0]} to {texts[1]}"

    @helper("figure")
    def with_spread(self, row: TemplateRow) -> str:
        """The figure, with its job-to-job spread next to it when there is
        one (:meth:`spread`), the figure's digits taken with the spread's
        ends: ``14.6 (2 jobs: 14.2 to 14.6)``."""
        same = [r for r in self.same_measurement_rows(row._row) if r.value is not None]
        if len({r.job_id for r in same}) < 2:
            return emit(row.number(), [row._row])
        figure, spread = self._spread_texts(row._row, same)
        number = row._figure_text(figure) if figure is not None and not row._row.undefined else row.number()
        return emit(f"{number} ({spread})", list(self.same_measurement_rows(row._row)))
