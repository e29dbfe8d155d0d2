"""Compiled cells over their independent compilations, and latency differences by kernel group.

- :meth:`CompilationHelpers.compilation_table`: per shape, each variant's
  median over compilations with the range of the compilations' medians, and
  the ratio of two variants with its range over every pair of compilations;
- :meth:`CompilationHelpers.attribution_table`: a latency difference split
  into kernel-group differences and the unattributed rest
  (:mod:`studygen.study.attribution`), for two variants and for the slowest
  against the fastest compilation of each;
- :meth:`CompilationHelpers.attribution_sentence`: the same split in one
  sentence for the summary.
"""

from __future__ import annotations

from itertools import product

from ..numbers import format_number
from ..records.kinds import Kind
from ..study.attribution import attribute, between_compilations, cell_profile
from .labels import escape_cell, shape_label
from .produced import cells_of, emit, helper
from .rows import restriction_text
from .spans import SpanHelpers
from .tables import markdown_table


class CompilationHelpers(SpanHelpers):
    """Spread between compilations and attribution by kernel group (see the module docstring)."""

    def _ms(self, value: float, sign: bool = False) -> str:
        return format_number(value, self.decimals("ms"), sign=sign)

    def _over_compilations(self, row) -> str:
        """``8.188 (3 compilations: 8.159 to 8.236)``, or the figure alone with one compilation."""
        medians = row._row.compilation_medians()
        if len(medians) < 2:
            return row.number()
        return f"{row.number()} ({len(medians)} compilations: {self._ms(min(medians))} to {self._ms(max(medians))})"

    @helper("table", markdown=True)
    def compilation_table(self, a_variant: str, b_variant: str, **filters) -> str:
        """Per shape: each variant's latency (median over compilations, their
        range) and a / b with its range over every pair of compilations."""
        pairs = self.pairs(a_variant, b_variant, kind=Kind.LATENCY, **filters)
        la, lb = escape_cell(self.label(a_variant)), escape_cell(self.label(b_variant))
        headers = ["Shape HxW", f"{la} ms", f"{lb} ms", f"{la} / {lb}"]
        body, rows = [], []
        with cells_of(headers):
            for a, b in pairs:
                body.append([shape_label(a.shape), self._over_compilations(a), self._over_compilations(b),
                             self._ratio_over_compilations(a, b)])
                rows += [a._row, b._row]
        return emit(markdown_table(body, headers), rows, headers)

    def _ratio_over_compilations(self, a, b) -> str:
        d = self.decimals("ratio")
        ratio = f"{format_number(a.value / b.value, d)}x"
        a_medians = a._row.compilation_medians()
        b_medians = b._row.compilation_medians()
        if len(a_medians) < 2 or len(b_medians) < 2:
            return ratio
        values = [x / y for x, y in product(a_medians, b_medians)]
        return f"{ratio} ({format_number(min(values), d)}x to {format_number(max(values), d)}x)"

    def _attributions(self, a_variant: str, b_variant: str, **filters) -> list[tuple[str, str, object, list, bool]]:
        """``(shape, what, Attribution, rows, between variants)`` for b - a and for each variant's compilations."""
        found = []
        for a, b in self.pairs(a_variant, b_variant, kind=Kind.LATENCY, **filters):
            pa, pb = cell_profile(a._row), cell_profile(b._row)
            if pa is not None and pb is not None:
                found.append((a.shape, f"{self.label(b_variant)} minus {self.label(a_variant)}",
                              attribute(pa[0], pb[0], pa[1], pb[1]), [a._row, b._row], True))
            for row, variant in ((a, a_variant), (b, b_variant)):
                spread = between_compilations(row._row)
                if spread is not None:
                    found.append((row.shape, f"{self.label(variant)}: slowest minus fastest compilation", spread,
                                  [row._row], False))
        return found

    @helper("table", markdown=True)
    def attribution_table(self, a_variant: str, b_variant: str, **filters) -> str:
        """Latency differences (ms per forward) split by kernel group: b minus a
        (medians over compilations) and, per variant, its slowest minus its
        fastest compilation; the last column is what no group accounts for."""
        found = self._attributions(a_variant, b_variant, **filters)
        groups = list(dict.fromkeys(g for _, _, attribution, _, _ in found for g, _ in attribution.groups))
        headers = ["Shape HxW", "Difference", "Latency ms"] + [escape_cell(g) for g in groups] + ["Unattributed ms"]
        body, rows = [], []
        with cells_of(headers):
            for shape, what, attribution, used, _ in found:
                deltas = dict(attribution.groups)
                body.append([shape_label(shape), escape_cell(what), self._ms(attribution.latency_delta_ms, True)]
                            + [self._ms(deltas.get(g, 0.0), True) for g in groups]
                            + [self._ms(attribution.unattributed_ms, True)])
                rows += used
        return emit(markdown_table(body, headers), rows, headers)

    @helper("figure")
    def attribution_sentence(self, a_variant: str, b_variant: str, **filters) -> str:
        """b minus a per shape in words: the latency difference, the groups that
        carry it (largest first, those of at least a tenth of it) and the rest."""
        parts, rows = [], []
        for shape, _, attribution, used, between_variants in self._attributions(a_variant, b_variant, **filters):
            if not between_variants:
                continue
            total = attribution.latency_delta_ms
            named = [f"{group} {self._ms(delta, True)} ms" for group, delta in attribution.groups
                     if total and abs(delta) >= abs(total) / 10]
            parts.append(f"at {shape_label(shape)} {self._ms(total, True)} ms"
                         + (f" ({', '.join(named)}; unattributed {self._ms(attribution.unattributed_ms, True)} ms)"
                            if named else ""))
            rows += used
        where = restriction_text(filters)
        text = (f"{self.label(b_variant)} minus {self.label(a_variant)}, by kernel group{f' ({where})' if where else ''}: "
                + "; ".join(parts) if parts else f"no profiled pair of {self.label(b_variant)} and {self.label(a_variant)}")
        return emit(text, rows)

    @helper()
    def compilation_count(self, **filters) -> int:
        """The most independent compilations any selected latency row keeps (1 when none keeps any)."""
        return max([len(row._row.compilation_medians()) for row in self.figures(**filters)] + [1])

    @helper("table", markdown=True)
    def host_table(self, **filters) -> str:
        """Per latency row: median, the host's issue and wall time per forward
        (``distribution.host_issue_ms_per_forward``, ``host_ms_per_forward``),
        the CV and the cores the measuring process was pinned to."""
        headers = ["Job", "Mode", "Shape HxW", "Variant", "Median ms", "Host issue ms per forward",
                   "Host wall ms per forward", "Coefficient of variation", "Pinned cores"]
        body, rows = [], []
        with cells_of(headers):
            for row in self.figures(**filters):
                result = row._row.result
                distribution = result.get("distribution") or {}
                if "host_ms_per_forward" not in distribution:
                    continue
                cores = (result.get("method") or {}).get("pinned_cores")
                body.append([row.job_id, row.mode, shape_label(row.shape), escape_cell(self.label(row.variant)),
                             row.number(), self._ms(distribution["host_issue_ms_per_forward"]),
                             self._ms(distribution["host_ms_per_forward"]), self.percent(row.cv),
                             _core_range(cores)])
                rows.append(row._row)
        return emit(markdown_table(body, headers), rows, headers)


def _core_range(cores) -> str:
    """``[8, 9, ..., 15]`` → ``8-15``; None → ``not pinned``."""
    if not cores:
        return "not pinned"
    if list(cores) == list(range(min(cores), max(cores) + 1)) and len(cores) > 1:
        return f"{min(cores)}-{max(cores)}"
    return ", ".join(str(c) for c in cores)
