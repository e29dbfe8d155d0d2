"""Verdicts of the view, computed from repeats and per-image results.

- :meth:`VerdictHelpers.noise_verdict`: whether two latencies differ beyond
  run-to-run noise, from their per-repeat medians (SG204 accepts no other
  "within noise").
- :meth:`VerdictHelpers.ap_difference`: an AP difference in points with each
  side's job-to-job spread and, given per-image results, a paired bootstrap
  interval.

The statistics are in :mod:`studygen.render.stats`; the study file's
``bootstrap`` section sets resamples and seed.
"""

from __future__ import annotations

from ..errors import RecordError, TemplateError
from ..fsutil import resolved
from ..numbers import format_number
from ..records.kinds import Kind
from ..study.rows import Row
from ..textio import parse_json, read_text
from .produced import emit, helper
from .rows import restriction_text
from .spans import SpanHelpers
from .stats import MIN_REPEATS, PerImageAP, ap_difference, median_difference


class VerdictHelpers(SpanHelpers):
    """Noise verdicts and AP differences (see the module docstring)."""

    def _bootstrap_setting(self, name: str, default):
        return (self.spec.get("bootstrap") or {}).get(name, default)

    @helper("verdict")
    def noise_verdict(self, a_variant: str, b_variant: str, **filters) -> str:
        """Whether ``b_variant``'s latency differs from ``a_variant``'s beyond
        run-to-run noise, computed from per-repeat medians (at least 3 repeats
        a side, ``distribution.repeat_medians_ms``): prints the difference of
        medians (ms), each side's repeat spread, and a seeded percentile
        bootstrap interval of the median difference (see
        :func:`studygen.render.stats.median_difference`), then the verdict
        "within run-to-run noise" or "beyond run-to-run noise". With fewer
        repeats it prints that no verdict can be given, never a verdict.
        ``filters`` must select exactly one latency figure per variant
        (TemplateError otherwise)."""
        a = self.one(kind=Kind.LATENCY, variant=a_variant, **filters)
        b = self.one(kind=Kind.LATENCY, variant=b_variant, **filters)
        a_repeats = a._row.repeat_medians_ms or []
        b_repeats = b._row.repeat_medians_ms or []
        where = restriction_text(filters)
        where = f" ({where})" if where else ""
        la, lb = self.label(a_variant), self.label(b_variant)
        if len(a_repeats) < MIN_REPEATS or len(b_repeats) < MIN_REPEATS:
            return emit(f"no noise verdict for {lb} against {la}{where}: {len(a_repeats)} and {len(b_repeats)} "
                        f"repeat medians recorded, at least {MIN_REPEATS} a side are needed", [a._row, b._row],
                        kind="no_verdict")
        result = median_difference(a_repeats, b_repeats, resamples=self._bootstrap_setting("resamples", 10000),
                                   seed=self._bootstrap_setting("seed", 0))
        d = self.decimals("ms")
        ms = lambda v, sign=False: format_number(v, d, sign=sign)  # noqa: E731 - local shorthand
        text = (f"{lb} minus {la}{where}: {ms(result.difference_ms, True)} ms (median of repeat medians; "
                f"{la} {ms(result.spread_a[0])} to {ms(result.spread_a[1])} ms over {result.repeats_a} repeats, "
                f"{lb} {ms(result.spread_b[0])} to {ms(result.spread_b[1])} ms over {result.repeats_b} repeats); "
                f"{round(100 * result.confidence)}% bootstrap interval of the median difference "
                f"{ms(result.low_ms, True)} to {ms(result.high_ms, True)} ms ({result.resamples} resamples, "
                f"seed {result.seed}): {result.verdict}")
        return emit(text, [a._row, b._row], compared=[(a._row, b._row)])

    @helper("ap_difference")
    def ap_difference(self, a_variant: str, b_variant: str, **filters) -> str:
        """AP of ``b_variant`` minus ``a_variant`` in points, from one COCO AP
        figure each (``filters`` must select exactly one per variant), with the
        job-to-job spread of each figure when other jobs report it and, where
        both results name per-image results (``per_image``, a
        ``studygen-per-image-ap`` file relative to the record), a seeded paired
        per-image bootstrap interval (:func:`studygen.render.stats.ap_difference`).
        Undefined, saying which AP is, when either is COCOeval's -1 marker."""
        filters.setdefault("statistic", "AP")
        a = self.one(kind=Kind.COCO_AP, variant=a_variant, **filters)
        b = self.one(kind=Kind.COCO_AP, variant=b_variant, **filters)
        d = self.decimals("ap_delta_points")
        la, lb = self.label(a_variant), self.label(b_variant)
        if a._row.undefined or b._row.undefined:  # COCOeval's -1 marker: no difference to state
            return emit(f"{lb} minus {la}: undefined ({la} {a.number()}, {lb} {b.number()})", [a._row, b._row],
                        compared=[(a._row, b._row)])
        text = (f"{lb} minus {la}: {format_number(100 * (b.value - a.value), d, sign=True)} points "
                f"({la} {self.with_spread(a)}, {lb} {self.with_spread(b)})")
        paths = [row._row.result.get("per_image") for row in (a, b)]
        if all(paths):
            try:
                per_image = [PerImageAP(self._per_image(row._row, path)) for row, path in zip((a, b), paths)]
                result = ap_difference(*per_image, resamples=self._bootstrap_setting("ap_resamples", 1000),
                                       seed=self._bootstrap_setting("seed", 0))
            except ValueError as exc:
                raise TemplateError(f"ap_difference({a_variant!r}, {b_variant!r}): {exc}") from None
            text += (f"; {round(100 * result.confidence)}% per-image bootstrap interval "
                     f"{format_number(100 * result.low, d, sign=True)} to "
                     f"{format_number(100 * result.high, d, sign=True)} "
                     f"points ({result.resamples} resamples of {result.images} images, seed {result.seed})")
        else:
            text += "; no per-image results, so no bootstrap interval"
        return emit(text, [a._row, b._row], compared=[(a._row, b._row)])

    def _per_image(self, row: Row, path: str) -> dict:
        """The per-image results file named by a result, relative to its record (read once per render)."""
        cache = self.__dict__.setdefault("_per_image_cache", {})
        record = row.record
        full = resolved(record.path.parent / path, str(record.path.parent / path))
        if full not in cache:
            shown = self._study.rel(full)
            text = read_text(full, shown)
            try:  # read as records are: a byte order mark, deep nesting, a lone surrogate named at their place
                cache[full] = parse_json(text, shown)
            except RecordError as exc:
                raise TemplateError(f"per-image results {exc.line()}") from None
        return cache[full]
