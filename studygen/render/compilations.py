"""Compiled cells over every compilation of every job, and latency differences by kernel group.

A compiled cell is pooled over the jobs that measured it
(:mod:`studygen.study.compilations`): its figure is the median over every
compilation's median, its range theirs, and a ratio of two cells ranges over
every pair of their compilations.

- :meth:`CompilationHelpers.compilation_table`: per configuration (shapes by
  size), each variant's pooled figure with its range and how many
  compilations (and jobs) it rests on, and the ratio of two variants with its
  range over every pair of compilations;
- :meth:`CompilationHelpers.attribution_table`: a latency difference split
  into kernel-group differences and the unattributed rest
  (:mod:`studygen.study.attribution`), for two variants (pooled medians) and
  for the slowest against the fastest compilation of each cell;
- :meth:`CompilationHelpers.attribution_sentence`: the same split in one
  sentence for the summary;
- :meth:`CompilationHelpers.host_bound_latencies`: the latencies whose host
  issue time per forward is close to their median (:mod:`studygen.study.host_bound`);
- :meth:`CompilationHelpers.compilation_rule_text` and
  :meth:`CompilationHelpers.compilation_stops`: the rule that set how many
  compilations each cell got, and why each cell's compilations stopped.
"""

from __future__ import annotations

from typing import NamedTuple

from ..errors import TemplateError
from ..records.kinds import Kind
from ..study.attribution import Attribution
from ..study.compilations import PooledCell, pooled_attribution, pooled_cells, pooled_pairs
from ..study.host_bound import host_bound
from ..study.rows import Row
from ..study.timing import shown_rows
from .escaping import escape_cell, escape_label
from .host_bound import RULE_WORDS, host_bound_line
from .labels import gpu_label, shape_label
from .pooled import PooledCellHelpers
from .produced import cells_of, emit, helper
from .rows import restriction_text, shape_order
from .spans import SpanHelpers
from .tables import markdown_table

# compilation_rule.stopped (studygen.collect.run.compile_rule, which this layer cannot import) in words
STOPPED_WORDS = {
    "rule met": "rule met",
    "at most reached": "the most the rule allows, before the rule was met in every variant of the shape",
    "time limit": "the run's time limit, before the rule was met in every variant of the shape",
    "fixed count": "the fixed count",
    "failed compilation": "a compilation failed",
}


class AttributedDifference(NamedTuple):
    """A latency difference of one configuration split by kernel group:
    ``shape`` the configuration in words, ``what`` the difference in words (a table cell, labels escaped),
    ``rows`` the latency rows behind it, ``compared`` its same-job pairs
    (none for a difference inside one cell), ``between_compilations`` True
    for a variant's slowest minus its fastest compilation, False for b
    minus a."""

    shape: str
    what: str
    attribution: Attribution
    rows: list[Row]
    compared: list[tuple[Row, Row]]
    between_compilations: bool


class CompilationHelpers(SpanHelpers, PooledCellHelpers):
    """Compiled cells pooled over jobs and compilations (see the module docstring)."""

    def _ms_span(self, low: float, high: float) -> str:
        """``8.221 to 8.873``, or one figure when both print alike."""
        a, b = self._ms(low), self._ms(high)
        return a if a == b else f"{a} to {b}"

    def _cell_pairs(self, a_variant: str, b_variant: str, **filters) -> list[tuple[PooledCell, PooledCell]]:
        """Pooled ``(a, b)`` cells of the selected latency rows, shapes by size."""
        a_rows = self.figures(kind=Kind.LATENCY, variant=a_variant, **filters).rows
        b_rows = self.figures(kind=Kind.LATENCY, variant=b_variant, **filters).rows
        pairs = pooled_pairs(a_rows, b_rows)
        return sorted(pairs, key=lambda pair: shape_order(pair[1].first.shape))

    def _cell_label(self, cell: PooledCell, labels: list) -> str:
        """The configuration of a cell: its shape, with GPU and batch when other cells share the shape."""
        row = cell.first
        if sum(1 for other in labels if other.shape == row.shape) < 2:
            return shape_label(row.shape)
        return f"{shape_label(row.shape)}, {gpu_label(row.gpu)}, batch {row.batch}"

    @helper("table", markdown=True)
    def compilation_table(self, a_variant: str, b_variant: str, **filters) -> str:
        """Per configuration (shapes by size): each variant's latency over
        every compilation of every job (median, range, how many compilations
        and jobs) and a / b at the medians, with its range over every pair of
        compilations."""
        pairs = self._cell_pairs(a_variant, b_variant, **filters)
        la, lb = escape_label(self._label(a_variant)), escape_label(self._label(b_variant))
        headers = ["Shape HxW", f"{la} ms", f"{lb} ms", f"{la} / {lb}"]
        body, rows = [], []
        firsts = [b.first for _, b in pairs]
        with cells_of(headers, body):
            for a, b in pairs:
                body.append([escape_cell(self._cell_label(b, firsts)), self._pooled_figure(a), self._pooled_figure(b),
                             self._pooled_ratio(a, b)])
                rows += [*a.rows, *b.rows]
        return emit(markdown_table(body, headers), rows, headers)

    @helper("range")
    def pooled_ratio_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of a / b over every pair of compilations of every configuration
        (each cell pooled over its jobs), e.g. ``0.81x to 1.01x``; a cell
        without compilations counts with its figure."""
        pairs = self._cell_pairs(a_variant, b_variant, **filters)
        values = [bound for a, b in pairs for bound in a.ratio_bounds(b)]  # the range's ends are the pairs' ends
        rows = [row for a, b in pairs for row in (*a.rows, *b.rows)]
        compared = [pair for a, b in pairs for pair in a.same_job_pairs(b)]
        return self.derived_span(values, "ratio", "x", restriction_text(filters), rows=rows, compared=compared)

    @helper("figure")
    def compiled_comparison(self, a_variant: str, b_variant: str, **filters) -> list[str]:
        """One sentence per configuration (shapes by size) on what every
        compilation of every job says about b against a: when the two cells'
        ranges of compilation medians do not overlap, that every b compilation
        was slower (faster) than every a compilation and by how much (the
        smallest to the largest gap); when they overlap, that neither was
        faster in every compilation, with both ranges; then the medians'
        difference."""
        lines = []
        pairs = self._cell_pairs(a_variant, b_variant, **filters)
        firsts = [b.first for _, b in pairs]
        la, lb = self.label(a_variant), self.label(b_variant)
        for a, b in pairs:
            # the shape opens the sentence: it names the one row of the latency table the sentence is about
            where = f"At {self._cell_label(b, firsts)}, compiled"
            if b.low > a.high or b.high < a.low:
                way = "slower" if b.low > a.high else "faster"
                # the least and the most gap over every pair of compilations, from the ranges' ends (a rounded
                # difference is monotone in each operand and odd: the same floats every pair's gap gave)
                least, most = (b.low - a.high, b.high - a.low) if way == "slower" else (a.low - b.high, a.high - b.low)
                text = (f"{where}, {_every(b)} of {lb} was {way} than {_every(a)} of {la}, by "
                        f"{self._ms_span(least, most)} ms")
            else:
                text = (f"{where}, {_the(b)} of {lb} ({self._ms_span(b.low, b.high)} ms) and {_the(a)} of {la} "
                        f"({self._ms_span(a.low, a.high)} ms) overlap: neither was faster in every compilation")
            text += (f"; the medians are {self._ms(b.median_ms)} and {self._ms(a.median_ms)} ms, {lb} minus {la} "
                     f"{self._ms(b.median_ms - a.median_ms, True)} ms.")
            same_job = a.same_job_pairs(b)
            lines.append(emit(text, [*a.rows, *b.rows], compared=same_job))
        return lines

    @helper("range")
    def group_change(self, group: str, a_variant: str, b_variant: str, **filters) -> str:
        """How much more or less kernel time ``group`` takes per forward in b
        than in a, over every pair of compilations of every configuration (each
        cell pooled over its jobs; a profile without the group counts 0 ms):
        ``0.054 to 0.203 ms less``, ``0.3 ms more``, or ``from 0.203 ms less to
        0.054 ms more`` when pairs go both ways. Raises TemplateError when no
        pair of compilations has a profile."""
        pairs = self._cell_pairs(a_variant, b_variant, **filters)
        # every pair's b minus a lies between the least b minus the most a and the most b minus the least a,
        # which are pairs' differences themselves (the ends, not every pair, are computed)
        ends = []
        for a, b in pairs:
            xs, ys = ([c.groups.get(group, 0.0) for c in cell.profiled] for cell in (a, b))
            if xs and ys:
                ends += [min(ys) - max(xs), max(ys) - min(xs)]
        if not ends:
            raise TemplateError(f"group_change({group!r}, {a_variant!r}, {b_variant!r}): no profiled pair of compilations")
        low, high = min(ends), max(ends)
        if high <= 0 or low >= 0:
            small, large = sorted((abs(low), abs(high)))
            amount = self._ms(small) if self._ms(small) == self._ms(large) else f"{self._ms(small)} to {self._ms(large)}"
            text = f"{amount} ms {'less' if high <= 0 and low < 0 else 'more'}"
        else:
            text = f"from {self._ms(-low)} ms less to {self._ms(high)} ms more"
        rows = [row for a, b in pairs for row in (*a.rows, *b.rows)]
        where = restriction_text(filters)
        same_job = [pair for a, b in pairs for pair in a.same_job_pairs(b)]
        return emit(f"{text} ({where})" if where else text, rows, compared=same_job)

    def _attributions(self, a_variant: str, b_variant: str, **filters) -> list[AttributedDifference]:
        """Per configuration (shapes by size), b minus a at the pooled medians,
        then each variant's slowest against its fastest compilation."""
        found = []
        pairs = self._cell_pairs(a_variant, b_variant, **filters)
        firsts = [b.first for _, b in pairs]
        for a, b in pairs:
            label = self._cell_label(b, firsts)
            split = pooled_attribution(a, b)
            if split is not None:
                same_job = a.same_job_pairs(b)
                found.append(AttributedDifference(label, f"{escape_label(self._label(b_variant))} minus "
                                                         f"{escape_label(self._label(a_variant))}",
                                                  split, [*a.rows, *b.rows], same_job, between_compilations=False))
            for cell, variant in ((a, a_variant), (b, b_variant)):
                between = cell.between()
                if between is not None:
                    found.append(AttributedDifference(label, f"{escape_label(self._label(variant))}: slowest minus "
                                                             "fastest compilation",
                                                      between[2], list(cell.rows), [], between_compilations=True))
        return found

    @helper("table", markdown=True)
    def attribution_table(self, a_variant: str, b_variant: str, **filters) -> str:
        """Latency differences (ms per forward) split by kernel group: b minus a
        (medians over every compilation of every job) and, per variant, its
        slowest minus its fastest compilation; the last column is what no
        group accounts for."""
        found = self._attributions(a_variant, b_variant, **filters)
        groups = list(dict.fromkeys(g for line in found for g, _ in line.attribution.groups))
        headers = ["Shape HxW", "Difference", "Latency ms"] + [escape_cell(g) for g in groups] + ["Unattributed ms"]
        body, rows = [], []
        with cells_of(headers, body):
            for line in found:
                deltas = dict(line.attribution.groups)
                latency = emit(self._ms(line.attribution.latency_delta_ms, True), line.rows, compared=line.compared,
                               kind="ratio")
                body.append([escape_cell(line.shape), line.what, latency]
                            + [self._ms(deltas.get(g, 0.0), True) for g in groups]
                            + [self._ms(line.attribution.unattributed_ms, True)])
                rows += line.rows
        return emit(markdown_table(body, headers), rows, headers)

    @helper("figure")
    def attribution_sentence(self, a_variant: str, b_variant: str, **filters) -> str:
        """b minus a per configuration in words: the latency difference, the
        groups that carry it (largest first, those of at least a tenth of it)
        and the rest."""
        parts, rows, compared = [], [], []
        for line in self._attributions(a_variant, b_variant, **filters):
            if line.between_compilations:
                continue
            total = line.attribution.latency_delta_ms
            named = [f"{group} {self._ms(delta, True)} ms" for group, delta in line.attribution.groups
                     if total and abs(delta) >= abs(total) / 10]
            parts.append(f"at {line.shape} {self._ms(total, True)} ms"
                         + (f" ({', '.join(named)}; unattributed {self._ms(line.attribution.unattributed_ms, True)} ms)"
                            if named else ""))
            rows += line.rows
            compared += line.compared
        where = restriction_text(filters)
        text = (f"{self.label(b_variant)} minus {self.label(a_variant)}, by kernel group{f' ({where})' if where else ''}: "
                + "; ".join(parts) if parts else f"no profiled pair of {self.label(b_variant)} and {self.label(a_variant)}")
        return emit(text, rows, compared=compared)

    @helper()
    def compilation_count(self, **filters) -> int:
        """The most compilations any selected latency cell rests on, over every
        job that measured it (1 when none has several)."""
        return max([len(cell.compilations) for cell in self._compiled_cells(**filters)] + [1])

    def _compiled_cells(self, **filters) -> list:
        """The selected latency cells (:func:`pooled_cells`) that rest on
        numbered compilations: an eager cell's "compilations" are its jobs."""
        return [cell for cell in pooled_cells(self.figures(**filters).rows)
                if cell.numbered]

    @helper("figure")
    def compilation_counts(self, **filters) -> str:
        """How many compilations the selected latency cells rest on, over every
        job: ``6``, or ``6 to 9`` when cells differ."""
        cells = self._compiled_cells(**filters)
        counts = [len(cell.compilations) for cell in cells] or [1]
        low, high = min(counts), max(counts)
        return emit(str(low) if low == high else f"{low} to {high}", [r for cell in cells for r in cell.rows])

    @helper("figure")
    def compilation_rule_text(self, **filters) -> str:
        """The rule(s) the selected compiled latencies' records say set their
        number of compilations (``compilation_rule``), in words; ``''`` when
        no record keeps one."""
        rules, rows = {}, []
        for row in self.figures(kind=Kind.LATENCY, **filters).rows:
            rule = row.result.get("compilation_rule")
            if rule:
                rules.setdefault(_rule_words(rule), []).append(row)
                rows.append(row)
        return emit("; ".join(rules), rows) if rules else ""

    @helper("table", markdown=True)
    def compilation_stops(self, **filters) -> str:
        """One table row per compiled latency result that records its rule:
        job, shape, variant, how many compilations, how many of the last ones
        in a row fell inside the range of those before (``auto``), and why
        they stopped."""
        headers = ["Job", "Shape HxW", "Variant", "Compilations", "Last ones inside the range before them",
                   "Stopped by"]
        body, rows = [], []
        selected = [row for row in self.figures(kind=Kind.LATENCY, **filters).rows if row.result.get("compilation_rule")]
        selected.sort(key=lambda row: (shape_order(row.shape), row.job_id))
        with cells_of(headers, body):
            for row in selected:
                rule = row.result["compilation_rule"]
                streak = rule.get("inside_streak")
                needed = rule.get("consecutive_inside")
                inside = f"{streak} ({needed} needed)" if streak is not None and needed else "not recorded"
                body.append([escape_cell(row.job_id), shape_label(row.shape), escape_label(self._label(row.variant)),
                             str(rule["count"]), inside, STOPPED_WORDS.get(rule["stopped"], escape_cell(rule["stopped"]))])
                rows.append(row)
        return emit(markdown_table(body, headers), rows, headers)

    @helper("table", markdown=True)
    def host_table(self, **filters) -> str:
        """Per latency row: median, the host's issue and wall time per forward
        (``distribution.host_issue_ms_per_forward``, ``host_ms_per_forward``),
        the CV and the cores the measuring process was pinned to."""
        headers = ["Job", "Mode", "Shape HxW", "Variant", "Median ms", "Host issue ms per forward",
                   "Host wall ms per forward", "Coefficient of variation", "Pinned cores"]
        body, rows = [], []
        with cells_of(headers, body):
            for row in self.figures(**filters):
                result = row._row.result
                distribution = result.get("distribution") or {}
                if "host_ms_per_forward" not in distribution:
                    continue
                cores = (result.get("method") or {}).get("pinned_cores")
                body.append([row.job_id, row.mode, shape_label(row.shape), escape_label(self._label(row.variant)),
                             row.number(), self._ms(distribution["host_issue_ms_per_forward"]),
                             self._ms(distribution["host_ms_per_forward"]), self.percent(row.cv),
                             _core_range(cores)])
                rows.append(row._row)
        return emit(markdown_table(body, headers), rows, headers)

    @helper("figure")
    def host_bound_latencies(self, shown: bool = False, **filters) -> list[str]:
        """One line per selected latency row that is host-bound
        (:func:`studygen.study.host_bound.host_bound`: its host issue time
        per forward is at least 90 % of its median, its profiled kernels less), in table order (modes
        as the rows first give them, then shape, variant): variant, shape, mode and job, then the host's issue
        time, the median and, where profiled, the kernel total, e.g. ``fp32 at
        224 x 224 (eager, job h100-1): the host took 6.031 ms to issue each
        forward against a median of 6.185 ms; the profiled kernels take 1.159
        ms``. Such a figure times the host's pace; ``[]`` when none is. With
        ``shown``, of the rows the latency tables show only
        (:func:`studygen.study.timing.shown_rows`: each run's timing of its work)."""
        rows = self.figures(**filters).rows
        rows = shown_rows(rows) if shown else rows
        modes = {mode: i for i, mode in enumerate(dict.fromkeys(row.mode for row in rows))}  # as the tables come
        order = {name: i for i, name in enumerate(self._variant_order())}
        found = [f for f in (host_bound(row) for row in rows) if f]
        found.sort(key=lambda f: (modes[f.row.mode], shape_order(f.row.shape), order.get(f.row.variant, len(order))))
        return [emit(f"{self.label(f.row.variant)} at {shape_label(f.row.shape)} ({f.row.mode}, job "
                     f"{escape_cell(f.row.job_id)}): {host_bound_line(f, self._ms)}", [f.row]) for f in found]

    @helper()
    def host_bound_rule(self) -> str:
        """The rule that makes a latency host-bound, in words, for the sentence
        above :meth:`host_bound_latencies`' list."""
        return RULE_WORDS


def _count(cell: PooledCell) -> str:
    """``6 compilations``, ``9 compilations in 2 jobs``, ``1 compilation``."""
    count, jobs = len(cell.compilations), len(cell.jobs)
    return f"{count} compilation{'s' if count != 1 else ''}" + (f" in {jobs} jobs" if jobs > 1 else "")


def _every(cell: PooledCell) -> str:
    """``each of the 6 compilations``, ``each of the 9 compilations in 2 jobs``, ``the one compilation``."""
    return f"each of the {_count(cell)}" if len(cell.compilations) > 1 else f"the one {_count(cell)[2:]}"


def _the(cell: PooledCell) -> str:
    """``the 6 compilations``, ``the 9 compilations in 2 jobs``, ``the one compilation``."""
    return f"the {_count(cell)}" if len(cell.compilations) > 1 else f"the one {_count(cell)[2:]}"


def _rule_words(rule: dict) -> str:
    """A record's ``compilation_rule`` in words: ``a fixed 3 compilations (no
    test of whether a further compilation falls inside their range)``, or
    ``at least 6 compilations, then more until each of the last 3 fell inside
    the range of the ones before it, at most 12``. A fixed count says it
    tested nothing: a new user's three compilations of fp16 at 384 x 384
    (3.20 to 3.42 ms) read as the range a next one lands in, and one timed
    apart took 3.85 ms."""
    if rule.get("compilations") != "auto":
        return (f"a fixed {rule.get('compilations', rule['count'])} compilations (no test of whether a further "
                "compilation falls inside their range)")
    return (f"at least {rule['at_least']} compilations, then more until each of the last {rule['consecutive_inside']} "
            f"fell inside the range of the ones before it, at most {rule['at_most']}")


def _core_range(cores) -> str:
    """``[8, 9, ..., 15]`` → ``8-15``; None → ``not pinned``."""
    if not cores:
        return "not pinned"
    if list(cores) == list(range(min(cores), max(cores) + 1)) and len(cores) > 1:
        return f"{min(cores)}-{max(cores)}"
    return ", ".join(str(c) for c in cores)

