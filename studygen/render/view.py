"""What a template sees: a read-only view of a study with helpers that compute
every figure from records.

Templates hold no literal figures (SG211): they ask this view for figures,
ranges, ratios, tables and hedged wording. Each helper's output says what it
covers: a range spans every row it was given and prints any restriction the
template applied ("on TensorRT 11.4 only"), so no range can silently drop a row.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from ..errors import TemplateError
from ..numbers import format_number
from ..study.analyses import precision_inversions
from .text import escape_cell, escape_inline, gpu_label, shape_label, short_version

# Filters that define *what* is measured; any other filter narrows the rows and
# is printed as a restriction by the range helper.
QUANTITY_FILTERS = {"kind", "metric", "statistic", "group", "variant", "unit", "reference_variant"}
DEFAULT_DECIMALS = {"ratio": 2, "percent": 0, "ap_delta_points": 2, "ms": 3}  # derived figures only
UNIT_SUFFIX = {"ms": " ms", "MiB": " MiB", "%": "%", "points": " points", "AP": "", "": "", "modules": ""}


# ---- what the helpers printed ---------------------------------------------------
# Checks need to tell text a helper computed from records from text a person
# wrote (SG204 verdicts, SG206 hedged wording, SG205 counts, SG212/SG213 rows
# behind a range). While a ``recording()`` block is active, every helper call
# appends what it returned, with the rows it used, to the block's list.

@dataclass(frozen=True, eq=False)
class Produced:
    """One helper output: ``kind`` (figure, ratio, range, table, verdict,
    no_verdict, ap_difference, expectation, gap, side_finding, dataset),
    the text it returned, the figure rows it was computed from, and for tables
    the header cells (to find the table in the formatted README)."""

    kind: str
    text: str
    rows: tuple = ()
    headers: tuple = ()
    within: tuple = ()  # header cells of the table this output is a cell of


_PRODUCED: ContextVar[list | None] = ContextVar("studygen_produced", default=None)
_WITHIN: ContextVar[tuple] = ContextVar("studygen_within_table", default=())


@contextmanager
def _cells_of(headers):
    """Mark helper outputs made while building a table as cells of that table."""
    token = _WITHIN.set(tuple(headers))
    try:
        yield
    finally:
        _WITHIN.reset(token)


@contextmanager
def recording():
    """Collect :class:`Produced` entries of every helper call made inside the block."""
    log: list[Produced] = []
    token = _PRODUCED.set(log)
    try:
        yield log
    finally:
        _PRODUCED.reset(token)


def _emit(kind: str, text: str, rows=(), headers=()) -> str:
    """Return ``text`` unchanged, noting it as helper output when recording."""
    log = _PRODUCED.get()
    if log is not None:
        log.append(Produced(kind, str(text), tuple(rows), tuple(headers), () if headers else _WITHIN.get()))
    return text


def fmt(value, row: dict) -> str:
    """A source figure as printed: the study file's per-metric precision when it
    sets one (``precision: {latency_ms: 3}``), else the digits the source carries."""
    return format_number(value, row.get("display_decimals"))


@dataclass(frozen=True)
class Figure:
    """One figure from a record row (a value, or a range over unlisted rows)."""

    row: dict

    @property
    def value(self):
        return self.row["value"]

    @property
    def is_range(self) -> bool:
        return self.row["value"] is None and self.row["value_min"] is not None

    @property
    def low(self):
        return self.row["value_min"] if self.is_range else self.row["value"]

    @property
    def high(self):
        return self.row["value_max"] if self.is_range else self.row["value"]

    @property
    def unit(self) -> str:
        return self.row["unit"] or ""

    def number(self) -> str:
        """The figure without unit: ``5.850`` or ``0.19 to 0.21``."""
        prefix = "about " if self.row.get("approximate") else ""
        if self.is_range:
            return _emit("figure", f"{prefix}{fmt(self.low, self.row)} to {fmt(self.high, self.row)}", [self.row])
        return _emit("figure", prefix + fmt(self.value, self.row), [self.row])

    def __str__(self) -> str:
        return _emit("figure", self.number() + UNIT_SUFFIX.get(self.unit, f" {self.unit}"), [self.row])

    def __getattr__(self, name):
        try:
            return self.row[name]
        except KeyError:
            raise AttributeError(name) from None


class FigureSet:
    """Rows selected by filters, with the restriction text the filters imply."""

    def __init__(self, view: "StudyView", rows: list[dict], filters: dict):
        self.view = view
        self.rows = rows
        self.filters = filters

    def __iter__(self):
        return (Figure(r) for r in self.rows)

    def __str__(self) -> str:
        # An object repr would put a memory address in the README (never byte-identical).
        raise TemplateError("a set of figures cannot be printed as it is: use study.span, study.table or "
                            "study.list_table, or loop over it")

    def __len__(self):
        return len(self.rows)

    def restriction(self) -> str:
        """``on TensorRT 11.4 only`` style text for the narrowing filters, or ''."""
        words = []
        for name, value in self.filters.items():
            if name in QUANTITY_FILTERS or value is None:
                continue
            values = list(value) if isinstance(value, (list, tuple, set)) else [value]
            if name == "tensorrt":
                words.append("on TensorRT " + _and([short_version(v) for v in values]))
            elif name == "gpu":
                words.append("on " + _and([gpu_label(v) for v in values]))
            elif name == "shape":
                words.append("at " + _and([shape_label(v) for v in values]))
            elif name == "job_id":
                words.append(("in job " if len(values) == 1 else "in jobs ") + _and(values))
            else:
                words.append(f"{name} " + _and([str(v) for v in values]))
        return (", ".join(words) + " only") if words else ""


def _and(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _matches(row: dict, filters: dict) -> bool:
    for name, wanted in filters.items():
        if wanted is None:
            continue
        value = row.get(name)
        if name == "tensorrt" and value and not isinstance(wanted, (list, tuple, set)):
            if short_version(value) == str(wanted) or value == wanted:
                continue
            return False
        if isinstance(wanted, (list, tuple, set)):
            if value not in wanted and not (name == "tensorrt" and short_version(value) in wanted):
                return False
        elif value != wanted:
            return False
    return True


INDEX_HEADERS = {"gpu": "GPU", "tensorrt": "TensorRT", "shape": "Shape HxW", "job_id": "Job", "mode": "Mode",
                 "backend": "Backend", "batch": "Batch", "group": "Kernel group", "dataset": "Image set", "variant": "Variant"}


def _index_label(name: str, value) -> str:
    """A table cell for an index field; record strings (GPU names, versions) are escaped."""
    if name == "gpu":
        return escape_cell(gpu_label(value))
    if name == "tensorrt":
        return escape_cell(short_version(value))
    if name == "shape":
        return escape_cell(shape_label(value))
    return escape_cell("" if value is None else value)


class TableMixin:
    """Table helpers of :class:`StudyView` (Markdown via tabulate, GFM pipes)."""

    def spread(self, figure: Figure) -> str:
        """Job-to-job spread of the same measurement key, or '' when only one
        job reports it: ``2 jobs: 0.4639 to 0.4644``."""
        same = [r for r in self._study.rows if r["key"] == figure.row["key"] and r["value"] is not None]
        jobs = {r["job_id"] for r in same}
        if len(jobs) < 2:
            return ""
        low = min(same, key=lambda r: r["value"])
        high = max(same, key=lambda r: r["value"])
        return f"{len(jobs)} jobs: {fmt(low['value'], low)} to {fmt(high['value'], high)}"

    def with_spread(self, figure: Figure) -> str:
        """The figure, with its job-to-job spread next to it when there is one."""
        spread = self.spread(figure)
        same = [r for r in self._study.rows if r["key"] == figure.row["key"]] if spread else [figure.row]
        return _emit("figure", f"{figure.number()} ({spread})" if spread else figure.number(), same)

    def table(self, *, index=("gpu", "tensorrt"), variants=(), jobs=None, value_header="{label}",
              derived=(), **filters) -> str:
        """A Markdown table: one row per distinct ``index`` tuple, one column per
        variant (figures with their job-to-job spread), then derived columns.

        ``derived`` items are ``(kind, a, b, header)`` with kind ``ratio``
        (a / b), ``reduction_percent`` ((a - b) / a in %) or ``delta_points``
        (b - a in AP points). Raises TemplateError when two rows of the chosen
        jobs fall in one cell (pick ``jobs`` or add an index field).
        """
        from tabulate import tabulate

        selected = self.figures(variant=list(variants), job_id=jobs, **filters)
        grid: dict[tuple, dict[str, Figure]] = {}
        for figure in selected:
            row_key = tuple(figure.row[name] for name in index)
            cell = grid.setdefault(row_key, {})
            if figure.variant in cell:
                raise TemplateError(
                    f"table: two figures for {dict(zip(index, row_key))} variant {figure.variant} "
                    f"(jobs {cell[figure.variant].job_id} and {figure.job_id}); restrict jobs or add an index field")
            cell[figure.variant] = figure
        if jobs:
            order = {job: i for i, job in enumerate(jobs)}
            keys = sorted(grid, key=lambda k: min(order[f.job_id] for f in grid[k].values()))
        else:
            keys = list(grid)
        headers = [INDEX_HEADERS.get(name, name) for name in index]
        headers += [value_header.format(label=escape_cell(self.label(v))) for v in variants]
        headers += [header for (_, _, _, header) in derived]
        body = []
        with _cells_of(headers):
            for row_key in keys:
                cells = grid[row_key]
                line = [_index_label(name, value) for name, value in zip(index, row_key)]
                line += [self.with_spread(cells[v]) if v in cells else "not measured" for v in variants]
                for kind, a, b, _ in derived:
                    if a in cells and b in cells:
                        line.append(getattr(self, kind)(cells[a], cells[b]))
                    else:
                        line.append("n/a")
                body.append(line)
        return _emit("table", tabulate(body, headers=headers, tablefmt="github", disable_numparse=True),
                     [f.row for f in selected], headers)



class SectionsMixin:
    """Derived spans, datasets, provenance, side findings and known gaps."""

    def pairs(self, a_variant: str, b_variant: str, match=("job_id", "shape"), **filters) -> list[tuple[Figure, Figure]]:
        """``(a, b)`` figure pairs with equal ``match`` fields (same job and shape by default)."""
        a_rows = {tuple(f.row[m] for m in match): f for f in self.figures(variant=a_variant, **filters)}
        pairs = []
        for f in self.figures(variant=b_variant, **filters):
            key = tuple(f.row[m] for m in match)
            if key in a_rows and a_rows[key].value is not None and f.value is not None:
                pairs.append((a_rows[key], f))
        return pairs

    def ratio_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of a/b over every matching pair, e.g. ``0.97x`` or ``0.97x to 1.01x``."""
        pairs = self.pairs(a_variant, b_variant, **filters)
        values = [a.value / b.value for a, b in pairs]
        return self.derived_span(values, "ratio", "x", FigureSet(self, [], filters).restriction(), rows=_pair_rows(pairs))

    def reduction_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of (a - b) / a in % over every matching pair."""
        pairs = self.pairs(a_variant, b_variant, **filters)
        values = [100 * (a.value - b.value) / a.value for a, b in pairs]
        return self.derived_span(values, "percent", "%", FigureSet(self, [], filters).restriction(), rows=_pair_rows(pairs))

    def delta_points_span(self, a_variant: str, b_variant: str, **filters) -> str:
        """Range of b - a in AP points over every matching pair (same job)."""
        pairs = self.pairs(a_variant, b_variant, match=("job_id",), **filters)
        values = [100 * (b.value - a.value) for a, b in pairs]
        return self.derived_span(values, "ap_delta_points", " points", FigureSet(self, [], filters).restriction(),
                                 rows=_pair_rows(pairs))

    def saving_span(self, group: str, a_variant: str, b_variant: str, **filters) -> str:
        """Range of kernel-time savings a - b (ms) for ``group`` over every row
        pair and every stated difference range."""
        values, rows = _saving_values(self, group, a_variant, b_variant, **filters)
        return self.derived_span(values, "ms", " ms", FigureSet(self, [], filters).restriction(), rows=rows)

    def list_table(self, figure_set: "FigureSet", columns=("job_id", "gpu", "tensorrt", "shape", "variant", "group", "value"),
                   value_header: str = "Value") -> str:
        """One table row per figure of ``figure_set`` (every row, in record order)."""
        from tabulate import tabulate

        headers = [value_header if c == "value" else INDEX_HEADERS.get(c, c) for c in columns]
        with _cells_of(headers):
            body = [[_list_table_cell(self, f, c) for c in columns] for f in figure_set]
        return _emit("table", tabulate(body, headers=headers, tablefmt="github", disable_numparse=True),
                     figure_set.rows, headers)

    # ---- datasets and provenance --------------------------------------------
    def datasets(self) -> list[dict]:
        """Dataset definitions, sorted by id (each a dict with ``dataset_id``, ``count``, …)."""
        return [self._study.datasets[k].data for k in sorted(self._study.datasets)]

    def dataset_table(self) -> str:
        from tabulate import tabulate

        body = []
        for d in self.datasets():
            ids = "listed, sha256 " + d["image_ids_sha256"][:12] if "image_ids_sha256" in d else "not published"
            body.append([escape_cell(d["dataset_id"]), escape_cell(d["role"]), str(d["count"]),
                         escape_cell(d["source"]), escape_cell(d["selection"]), ids])
        headers = ["Image set", "Role", "Images", "Source", "Selection", "Image ids"]
        return _emit("dataset", tabulate(body, headers=headers, tablefmt="github", disable_numparse=True), (), headers)

    def provenance_table(self) -> str:
        """One row per job: GPU, software versions, checkpoint weights, where its figures come from."""
        from tabulate import tabulate

        body = []
        for record in self._study.records:
            p = record.provenance
            software = ", ".join(f"{k} {v}" for k, v in sorted((p.get("software") or {}).items()) if v)
            origin = "transcribed: " + p["source"]["citation"] if "source" in p else \
                f"collected by {p['collector']['name']} {p['collector']['version']}"
            body.append([escape_cell(record.job_id), escape_cell(gpu_label(p.get("gpu"))), escape_cell(software or "not stated"),
                         escape_cell(p["checkpoint"]["weights"]), escape_cell(origin)])
        headers = ["Job", "GPU", "Software", "Weights", "Figures"]
        return _emit("table", tabulate(body, headers=headers, tablefmt="github", disable_numparse=True), (), headers)

    def record_notes(self) -> list[tuple[str, str]]:
        """``(job_id, note)`` for every note in every record, in record order."""
        notes = []
        for record in self._study.records:
            for note in record.data.get("notes", []) + record.provenance.get("notes", []):
                notes.append((record.job_id, note))
        return notes

    # ---- side findings and known gaps ---------------------------------------
    def precision_inversions(self) -> list[str]:
        """Sentences for each lower-precision variant slower than a higher one (SG208's data)."""
        lines = []
        for low, high in precision_inversions(self._study):
            lines.append(
                f"{self.label(low['variant'])} is slower than {self.label(high['variant'])} on "
                f"{gpu_label(low['gpu'])} with TensorRT {short_version(low['tensorrt'])} at {shape_label(low['shape'])}: "
                f"{fmt(low['value'], low)} ms against {fmt(high['value'], high)} ms "
                f"({_jobs_phrase(low, high)})."
                if low["backend"] == "tensorrt" else
                f"{self.label(low['variant'])} is slower than {self.label(high['variant'])} on {gpu_label(low['gpu'])} "
                f"at {shape_label(low['shape'])} ({low['mode']}): {fmt(low['value'], low)} ms against "
                f"{fmt(high['value'], high)} ms.")
            _emit("side_finding", lines[-1], [low, high])
        return lines

    def repeated_measurements(self) -> str:
        """Table of every measurement key reported by two or more jobs, with each job's value and the spread."""
        from tabulate import tabulate

        by_key: dict[str, list[dict]] = {}
        for row in self._study.rows:
            if row["value"] is not None:
                by_key.setdefault(row["key"], []).append(row)
        body = []
        for key, rows in by_key.items():
            jobs = sorted({r["job_id"] for r in rows})
            if len(jobs) < 2:
                continue
            first = rows[0]
            what = f"{self.label(first['variant'])} {first['statistic'] or first['metric']}"
            values = [r["value"] for r in rows]
            spread = max(values) - min(values)
            decimals = max((r["decimals"] or 0) for r in rows)
            body.append([escape_cell(what), escape_cell(gpu_label(first["gpu"])), escape_cell(short_version(first["tensorrt"])),
                         "; ".join(f"{escape_cell(r['job_id'])}: {fmt(r['value'], r)}" for r in rows),
                         format_number(spread, decimals)])
        if not body:
            return ""
        headers = ["Measurement", "GPU", "TensorRT", "Value per job", "Spread"]
        return _emit("table", tabulate(body, headers=headers, tablefmt="github", disable_numparse=True),
                     [r for rows in by_key.values() if len({x["job_id"] for x in rows}) > 1 for r in rows], headers)

    def describe_key(self, key: str) -> str:
        """A measurement key in words: ``fp16 AP, B200, tensorrt=11.4.0.106,cuda=13, coco2017-val-heldout-400``
        (variant label, what is measured, shape, GPU, versions, dataset; empty parts left out)."""
        from ..records.keys import FIELDS

        parts = dict(zip(FIELDS, key.split("|")))
        if len(parts) != len(FIELDS):
            return key
        measured = parts["statistic"] if parts["statistic"] not in ("", "unspecified") else parts["kind"].replace("_", " ")
        what = " ".join(p for p in (self.label(parts["variant"]) if parts["variant"] else "", measured, parts["group"]) if p)
        where = [shape_label(parts["shape"]) if parts["shape"] else "", gpu_label(parts["gpu"]) if parts["gpu"] else "",
                 parts["software"], parts["dataset"]]
        return ", ".join(p for p in (what, *where) if p)

    def known_gaps(self) -> list[str]:
        """Everything the README must admit by itself: waivers and explanations
        with their reasons, image sets whose ids were not published, unstable
        timings, configurations not measured."""
        gaps = []
        for d in self.datasets():
            if "ids_not_published" in d:
                gaps.append(f"Image set {d['dataset_id']} ({d['count']} images): {d['ids_not_published']}.")
        for row in self._study.rows:
            if row["unstable"]:
                gaps.append(f"Unstable timing in job {row['job_id']} ({self.label(row['variant'])}, "
                            f"{shape_label(row['shape'])}): {row['unstable_reason'] or 'flagged unstable'}.")
        for w in self.spec.get("waivers", []):
            target = self.describe_key(w["key"]) if w.get("key") else w.get("match") or f"README line {w.get('line')}"
            gaps.append(f"Waived {w['code']} ({target}): {w['reason']}")
        for e in self.spec.get("explanations", []):
            target = self.describe_key(e["key"]) if e.get("key") else e.get("match") or "study"
            gaps.append(f"Explained {e['code']} ({target}): {e['text']}")
        return [_emit("gap", escape_inline(g)) for g in gaps]


class StudyView(TableMixin, SectionsMixin):
    """The object templates receive as ``study``."""

    def __init__(self, study):
        self._study = study
        self.spec = study.spec
        self.family = study.family
        self.title = study.spec["title"]
        self.decision = study.spec["decision"]
        self.model = study.spec["model"]

    # ---- selection -------------------------------------------------------
    def figures(self, **filters) -> FigureSet:
        """Rows whose fields equal the filters (a list means any of). Raises
        TemplateError for a filter that names no row field (a typo would
        otherwise select nothing, or everything)."""
        from ..study import ROW_COLUMNS

        unknown = sorted(set(filters) - set(ROW_COLUMNS))
        if unknown:
            raise TemplateError(f"unknown filter {', '.join(unknown)}; filters are row fields such as "
                                "kind, metric, variant, shape, gpu, tensorrt, job_id, group, mode")
        rows = [r for r in self._study.rows if _matches(r, filters)]
        return FigureSet(self, rows, filters)

    def one(self, **filters) -> Figure:
        """Exactly one figure; a TemplateError names the filters otherwise."""
        found = self.figures(**filters)
        if len(found) != 1:
            raise TemplateError(f"expected one figure for {filters}, found {len(found)}")
        return next(iter(found))

    def jobs(self) -> list[str]:
        return [r.job_id for r in self._study.records]

    # ---- computed figures ------------------------------------------------
    def percent(self, fraction) -> str:
        """A fraction (such as a coefficient of variation, std / mean) as a
        percentage with the study's ``cv_percent`` precision (default 1)."""
        return format_number(100 * fraction, self.spec.get("precision", {}).get("cv_percent", 1)) + "%"

    def decimals(self, name: str) -> int:
        return self.spec.get("precision", {}).get(name, DEFAULT_DECIMALS.get(name, 2))

    def ratio(self, numerator: Figure, denominator: Figure) -> str:
        """``numerator / denominator`` printed with the study's ``ratio`` precision, suffixed x."""
        return _emit("ratio", format_number(numerator.value / denominator.value, self.decimals("ratio")) + "x",
                     [numerator.row, denominator.row])

    def reduction_percent(self, before: Figure, after: Figure) -> str:
        """``(before - after) / before`` in %, with the study's ``percent`` precision."""
        return _emit("ratio", format_number(100 * (before.value - after.value) / before.value, self.decimals("percent")) + "%",
                     [before.row, after.row])

    def delta_points(self, before: Figure, after: Figure) -> str:
        """AP difference ``after - before`` in points (1 point = 0.01 AP), signed."""
        return _emit("ratio", format_number(100 * (after.value - before.value), self.decimals("ap_delta_points"), sign=True),
                     [before.row, after.row])

    def span(self, figure_set: FigureSet, unit: str | None = None) -> str:
        """A range over **every** row of ``figure_set`` (ranges over unlisted rows
        count with both ends), e.g. ``0.19 to 0.409 ms``; the restriction the
        template applied is printed after it."""
        if not len(figure_set):
            raise TemplateError(f"range over no rows: {figure_set.filters}")
        low_fig = min(figure_set, key=lambda f: f.low)
        high_fig = max(figure_set, key=lambda f: f.high)
        low, high = fmt(low_fig.low, low_fig.row), fmt(high_fig.high, high_fig.row)
        unit = unit if unit is not None else next(iter(figure_set)).unit
        suffix = UNIT_SUFFIX.get(unit, f" {unit}")
        text = low + suffix if low == high else f"{low} to {high}{suffix}"
        restriction = figure_set.restriction()
        return _emit("range", f"{text} ({restriction})" if restriction else text, figure_set.rows)

    def derived_span(self, values: list[float], decimals_name: str, suffix: str = "", restriction: str = "",
                     rows=()) -> str:
        """A range over computed values (ratios, reductions), all rows included;
        ``rows`` are the figure rows the values come from (recorded for checks)."""
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
        return _emit("range", f"{text} ({restriction})" if restriction else text, rows)

    # ---- verdicts computed from repeats and per-image results (see stats.py) ----
    def _bootstrap_setting(self, name: str, default):
        return (self.spec.get("bootstrap") or {}).get(name, default)

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
        from .stats import MIN_REPEATS, median_difference

        a = self.one(kind="latency", variant=a_variant, **filters)
        b = self.one(kind="latency", variant=b_variant, **filters)
        a_repeats = self._study.repeat_medians(a.row)
        b_repeats = self._study.repeat_medians(b.row)
        where = FigureSet(self, [], filters).restriction()
        where = f" ({where})" if where else ""
        la, lb = self.label(a_variant), self.label(b_variant)
        if len(a_repeats) < MIN_REPEATS or len(b_repeats) < MIN_REPEATS:
            return _emit("no_verdict",
                         f"no noise verdict for {lb} against {la}{where}: {len(a_repeats)} and {len(b_repeats)} "
                         f"repeat medians recorded, at least {MIN_REPEATS} a side are needed", [a.row, b.row])
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
        return _emit("verdict", text, [a.row, b.row])

    def ap_difference(self, a_variant: str, b_variant: str, **filters) -> str:
        """AP of ``b_variant`` minus ``a_variant`` in points, from one COCO AP
        figure each (``filters`` must select exactly one per variant), with the
        job-to-job spread of each figure when other jobs report it and, where
        both results name per-image results (``per_image``, a
        ``studygen-per-image-ap`` file relative to the record), a seeded paired
        per-image bootstrap interval (:func:`studygen.render.stats.ap_difference`)."""
        from .stats import PerImageAP, ap_difference

        filters.setdefault("statistic", "AP")
        a = self.one(kind="coco_ap", variant=a_variant, **filters)
        b = self.one(kind="coco_ap", variant=b_variant, **filters)
        d = self.decimals("ap_delta_points")
        la, lb = self.label(a_variant), self.label(b_variant)
        text = (f"{lb} minus {la}: {format_number(100 * (b.value - a.value), d, sign=True)} points "
                f"({la} {self.with_spread(a)}, {lb} {self.with_spread(b)})")
        paths = [self._study.result_of(f.row).get("per_image") for f in (a, b)]
        if all(paths):
            try:
                per_image = [PerImageAP(self._per_image(f.row, path)) for f, path in zip((a, b), paths)]
                result = ap_difference(*per_image, resamples=self._bootstrap_setting("ap_resamples", 1000),
                                       seed=self._bootstrap_setting("seed", 0))
            except ValueError as exc:
                raise TemplateError(f"ap_difference({a_variant!r}, {b_variant!r}): {exc}") from None
            text += (f"; {round(100 * result.confidence)}% per-image bootstrap interval "
                     f"{format_number(100 * result.low, d, sign=True)} to {format_number(100 * result.high, d, sign=True)} "
                     f"points ({result.resamples} resamples of {result.images} images, seed {result.seed})")
        else:
            text += "; no per-image results, so no bootstrap interval"
        return _emit("ap_difference", text, [a.row, b.row])

    def _per_image(self, row: dict, path: str) -> dict:
        """The per-image results file named by a result, relative to its record (read once per render)."""
        import json

        from ..textio import read_text

        cache = self.__dict__.setdefault("_per_image_cache", {})
        record = self._study.record_at(row["record"])
        full = (record.path.parent / path).resolve()
        if full not in cache:
            shown = self._study.rel(full)
            try:
                cache[full] = json.loads(read_text(full, shown))
            except json.JSONDecodeError as exc:
                raise TemplateError(f"per-image results {shown}: malformed JSON at line {exc.lineno}") from None
        return cache[full]

    # ---- wording ---------------------------------------------------------
    def expectation(self, config: str) -> str:
        """Hedged wording for a configuration the study declares not measured:
        ``Not measured: NVFP4 (not tried); expected, not measured: …, because …``."""
        for entry in self.spec.get("not_measured", []):
            if entry["config"] == config or config in entry.get("aliases", []):
                text = f"Not measured: {entry['config']} ({entry['reason']})"
                if entry.get("expectation"):
                    text += f"; expected, not measured: {entry['expectation']}"
                    if entry.get("because"):
                        text += f", because {entry['because']}"
                return _emit("expectation", text + ".")
        raise TemplateError(f"expectation({config!r}): not listed under not_measured in the study file")

    def not_measured(self) -> list[dict]:
        return list(self.spec.get("not_measured", []))

    def label(self, variant: str) -> str:
        return self._study.variant_label(variant)

    def gpu(self, value) -> str:
        return gpu_label(value)

    def version(self, value) -> str:
        return short_version(value)

    def shape(self, value) -> str:
        return shape_label(value)

    def escape(self, text) -> str:
        return escape_inline(text)

    def cell(self, text) -> str:
        return escape_cell(text)




def _jobs_phrase(*rows) -> str:
    jobs = list(dict.fromkeys(r["job_id"] for r in rows))
    return ("job " if len(jobs) == 1 else "jobs ") + " and ".join(jobs)


def _list_table_cell(view, figure: "Figure", column: str) -> str:
    row = figure.row
    if column == "value":
        return view.with_spread(figure) if not figure.is_range else f"{figure.number()} (range over rows not listed)"
    if column == "variant":
        return escape_cell(view.label(row["variant"]))
    return _index_label(column, row[column])


def _saving_values(view, group: str, a_variant: str, b_variant: str, **filters) -> tuple[list[float], list[dict]]:
    """Savings a - b (ms) from per-row pairs, plus both ends of stated difference
    ranges; and the rows they come from."""
    pairs = view.pairs(a_variant, b_variant, metric="kernel_time", group=group, **filters)
    values = [a.value - b.value for a, b in pairs]
    rows = _pair_rows(pairs)
    for delta in view.figures(kind="kernel_time_delta", group=group, variant=b_variant, reference_variant=a_variant, **filters):
        values.extend([-delta.low, -delta.high])
        rows.append(delta.row)
    return values, rows


def _pair_rows(pairs) -> list[dict]:
    """The rows of ``(a, b)`` figure pairs, flattened."""
    return [f.row for pair in pairs for f in pair]

