"""Result tables of the view (GFM pipe tables laid out as tabulate lays them: :mod:`.github_table`).

- :meth:`TableHelpers.table`: a grid, one table row per distinct index tuple
  (GPU and TensorRT by default), one column per variant, then derived columns
  (ratios, reductions, AP differences) computed from the cells.
- :meth:`TableHelpers.list_table`: one table row per selected row.

Every cell printed from a row carries the row's job-to-job spread, and every
record string is escaped for a table cell.
"""

from __future__ import annotations

from ..errors import TemplateError
from ..numbers import format_number
from ..records.kinds import KERNEL_SHARE_METRIC, RESULT_KINDS, Kind, kind_words
from ..records.keys import CPU_PREFIX
from ..records.profile_spread import CPU_SPAN, ITERATION_SPAN, WHOLE_TRACE_SPAN
from ..study.host_bound import host_bound
from ..study.rows import Row
from ..study.timing import describe, row_kernel_span, shown_rows, timing_label, timing_signature, timing_words
from .escaping import escape_cell, escape_label
from .github_table import github_table
from .labels import NOT_STATED, gpu_label, shape_label, version_label
from .pooled import PooledCellHelpers
from .produced import cells_of, emit, helper
from .rows import RowSet, TemplateRow, counted, field_order, spread_cells, undefined_text
from .spans import SpanHelpers, refuse_mixed_kernel_spans

INDEX_HEADERS = {"gpu": "GPU", "tensorrt": "TensorRT", "shape": "Shape HxW", "job_id": "Job", "mode": "Mode",
                 "backend": "Backend", "batch": "Batch", "group": "Kernel group", "dataset": "Image set",
                 "variant": "Variant", "metric": "Metric", "reference_variant": "Against",
                 "revision": "Checkpoint revision"}
# Index fields a table of one kind shows whether its rows set them or not: an engine plan holds kernels
# chosen for one GPU, one TensorRT release and the shapes and batch it was built for, so its size read
# without them compares nothing. A row that does not state one prints "not stated", never a guess.
ALWAYS_INDEXED = {Kind.PLAN_SIZE: ("gpu", "tensorrt", "shape", "batch")}
LIST_TABLE_COLUMNS = ("job_id", "gpu", "tensorrt", "shape", "variant", "group", "value")


def platform_fields_unneeded(rows) -> set[str]:
    """The platform fields (GPU, TensorRT) a table of COCO AP ``rows`` need not be indexed by: all of them
    where the rows come from two or more platforms and no variant has two figures of one statistic, image set,
    mode, shape, batch and revision that differ in GPU or TensorRT. An AP is the detections' score, not the GPU's: indexed by GPU, a trial's fp32 AP
    (scored on an H100's engine) and fp16 AP (an RTX 6000 Ada's) sat in two rows, each with a dash for the
    other variant and no difference column. The Provenance table names each job's GPU and software."""
    if not rows or any(row.kind != Kind.COCO_AP for row in rows):
        return set()
    seen: dict[tuple, tuple] = {}
    for row in rows:
        place = (row.variant, row.statistic, row.field("dataset"), row.field("mode"), row.field("shape"),
                 row.field("batch"), row.key.revision)
        platform = (row.field("gpu"), row.field("tensorrt"))
        if seen.setdefault(place, platform) != platform:
            return set()
    # one platform for all: the columns split no row, and name it
    return {"gpu", "tensorrt"} if len(set(seen.values())) > 1 else set()


def machine_header(machines) -> str:
    """The header of a column of measuring machines (``machines``: each a
    row's ``gpu``, :func:`~studygen.records.keys.measuring_machine`, or
    None): ``GPU``, or ``Machine`` where one of them is a CPU (a record
    measured without a GPU that names its CPU)."""
    return "Machine" if any(m and m.startswith(CPU_PREFIX) for m in machines) else "GPU"


def index_headers(index, rows) -> list[str]:
    """The headers of the ``index`` columns of a table of ``rows``
    (:data:`INDEX_HEADERS`; the GPU column's by :func:`machine_header`)."""
    return [machine_header(row.gpu for row in rows) if name == "gpu" else INDEX_HEADERS.get(name, name)
            for name in index]


def markdown_table(body: list[list[str]], headers: list[str]) -> str:
    """A GFM pipe table of already formatted cells (no number parsing, so
    ``5.850`` keeps its digits), as tabulate's ``github`` format writes it
    (:func:`.github_table.github_table`, without importing tabulate)."""
    return github_table(body, headers)


# Metric names as a reader says them, each with what its value is in: the agreement metrics, a
# kernel group's share, and the fixed metric of each result kind in the kind's own words.
METRIC_WORDS = {"logit_correlation": "logit correlation (Pearson r)", "nonfinite_count": "non-finite outputs (count)",
                "precision": "detection precision (fraction)", "recall": "detection recall (fraction)",
                "top1_agreement": "top-1 agreement (fraction)",
                KERNEL_SHARE_METRIC: "kernel share (%)",
                **{kind.metric: kind_words(kind) for kind in RESULT_KINDS.values() if kind.metric}}


def metric_words(metric: str) -> str:
    """``logit_correlation`` → ``logit correlation (Pearson r)``; a metric
    without an entry in :data:`METRIC_WORDS` with its underscores as spaces."""
    return METRIC_WORDS.get(metric, metric.replace("_", " "))


# How a cell marks a value that no input of its record states, after the value: where the value came from instead,
# then that the inputs do not state it. One form for every such field, so that a defaulted weight and a shape typed
# on the command line read alike; the record's provenance notes, listed under Provenance, say more. (Not in
# labels.py, whose code every chart's stamp covers: no chart prints these marks.)
UNSTATED = "{label} ({origin}, not in the input)"
DEFAULT_ORIGIN = "default"  # the collector's own value where nobody gave one
SHAPE_OPTION_ORIGIN = "from --shape"  # what collect's --shape said, the input stating no shape


def unstated_label(label: str, origin: str) -> str:
    """``label`` marked as stated by no input, ``origin`` saying whence it
    came: ``pretrained (default, not in the input)``, ``224 x 224 (from
    --shape, not in the input)`` (:data:`UNSTATED`)."""
    return UNSTATED.format(label=label, origin=origin)


def index_label(name: str, value) -> str:
    """A table cell for an index field; record strings (GPU names, versions)
    are escaped, metric names written in words (:func:`metric_words`)."""
    if name == "metric" and value:
        return escape_cell(metric_words(value))
    if name == "gpu":
        return escape_label(gpu_label(value))
    if name == "tensorrt":
        return escape_cell(version_label(value))
    if name == "shape":
        return escape_cell(shape_label(value))
    if name in ("batch", "revision") and value is None:
        return NOT_STATED
    return escape_cell("" if value is None else value)


def index_value(row, name: str):
    """What a table row of ``row`` (a study Row) is grouped by for the index
    field ``name``: the field's value, except that a checkpoint revision is
    its measurement key's form
    (:meth:`studygen.records.checkpoints.Revisions.key`), so that two
    spellings of one commit (``76321b19``, ``76321B190daa…``) make one
    table row and print alike, and two commits two rows."""
    return row.key.revision if name == "revision" else row.field(name)


def index_cell(name: str, value, rows) -> str:
    """:func:`index_label` of a table row whose figures are ``rows``
    (TemplateRows): a shape that collect took from ``--shape`` for any of
    them, their input stating none, is marked so
    (:data:`SHAPE_OPTION_ORIGIN`): the cell prints what someone
    typed beside shapes read from logs, and says which it is."""
    if name == "shape" and value and any(row._row.shape_from_option for row in rows):
        return escape_cell(unstated_label(shape_label(value), SHAPE_OPTION_ORIGIN))
    return index_label(name, value)


def grid_of(selected: RowSet, index: tuple[str, ...]) -> dict[tuple, dict[str, list[TemplateRow]]]:
    """``{index tuple: {variant: [rows]}}`` in the order rows come. A cell that
    several rows fall in (jobs that measured the same index tuple and variant,
    such as a re-run) keeps them all: the table prints them with their
    job-to-job spread, so a new job never breaks render."""
    grid: dict[tuple, dict[str, list[TemplateRow]]] = {}
    for row in selected:
        row_key = tuple(index_value(row._row, name) for name in index)
        grid.setdefault(row_key, {}).setdefault(row.variant, []).append(row)
    return grid


# What a figure is, besides where and by whom it was measured: figures that differ in one of these are
# different quantities (AP and AP50, GPU compute time and host latency), which one cell never holds.
WHAT_FIELDS = ("kind", "metric", "statistic", "group", "dataset", "unit", "reference_variant")


def refuse_mixed_cells(grid: dict[tuple, dict[str, list[TemplateRow]]], index: tuple[str, ...],
                       headers: dict[str, str]) -> None:
    """Raise TemplateError for the first cell of ``grid`` (:func:`grid_of`)
    whose rows differ in a field of :data:`WHAT_FIELDS`, naming the cell by
    its row's index values and its column's header (``headers``: variant ->
    header) and the values it would mix; a cell holds one statistic of one
    quantity, however many jobs measured it."""
    for row_key, cells in grid.items():
        for variant, rows in cells.items():
            for name in WHAT_FIELDS:
                values = list(dict.fromkeys(str(row._row.field(name)) for row in rows))
                if len(values) > 1:
                    where = ", ".join(f"{INDEX_HEADERS.get(field, field)} {index_label(field, value)}"
                                      for field, value in zip(index, row_key))
                    raise TemplateError(
                        f"table: the cell of {'row ' + where + ' and ' if where else ''}column {headers[variant]} "
                        f"would hold figures of different {name} ({', '.join(values)}): select one {name} with a "
                        f"filter or add {name} to the index (study.quality_filters() gives the filters of one "
                        "COCO statistic each)")


def derived_pairs(a_rows: list[TemplateRow], b_rows: list[TemplateRow]) -> list[tuple[TemplateRow, TemplateRow]]:
    """The ``(a, b)`` pairs a derived cell is computed from: the pairs of one
    job each, both with a value, in ``a_rows``' order; when no job has both,
    one pair across jobs, of the first row of each that has a value (a row
    without one, such as COCOeval's -1 marker, only where a side has no
    figure at all: the pair then reads undefined). Not
    :meth:`studygen.study.compilations.PooledCell.same_job_pairs`, which has
    no pair across jobs."""
    by_job = {row.job_id: row for row in b_rows if row.value is not None}
    pairs = [(a, by_job[a.job_id]) for a in a_rows if a.value is not None and a.job_id in by_job]
    if pairs:
        return pairs
    return [tuple(next((row for row in rows if row.value is not None), rows[0]) for rows in (a_rows, b_rows))]


# Derived columns: kind -> (value of an (a, b) pair, precision name, suffix).
DERIVED = {
    "ratio": (lambda a, b: a / b, "ratio", "x"),
    "reduction_percent": (lambda a, b: 100 * (a - b) / a, "percent", "%"),
    "delta_points": (lambda a, b: 100 * (b - a), "ap_delta_points", ""),
}


def ordered_keys(grid: dict[tuple, dict[str, TemplateRow]], jobs, index=(), sort: bool = False) -> list[tuple]:
    """The grid's index tuples by their ``index`` fields in turn: a shape
    and a batch by their numbers (:func:`~.rows.field_order`: ``640 x 640``
    before ``1280 x 1280``, batch 1 before 8), any other field in the order
    its values first came; with ``jobs``, first in their order (by the first
    listed job among a tuple's cells). The order rows came in (a record's,
    which follows its logs' file names as text and puts results
    re-collected with ``--replace`` last) never orders them. ``sort``: kept
    for templates that ask for it, and now the rule without it too."""
    first: list[dict] = [{} for _ in index]
    for row_key in grid:
        for position, value in enumerate(row_key[:len(index)]):
            first[position].setdefault(value, len(first[position]))

    def by_index(row_key: tuple) -> tuple:
        return tuple(field_order(name, value, first[position])
                     for position, (name, value) in enumerate(zip(index, row_key)))
    if not jobs:
        return sorted(grid, key=by_index)
    order = {job: i for i, job in enumerate(jobs)}
    return sorted(grid, key=lambda k: (min(order[row.job_id] for rows in grid[k].values() for row in rows), by_index(k)))


KERNEL_SPANS = (ITERATION_SPAN, WHOLE_TRACE_SPAN, CPU_SPAN)  # what row_kernel_span may give


class TableHelpers(SpanHelpers, PooledCellHelpers):
    """Grid and list tables (see the module docstring)."""

    @helper("table", markdown=True)
    def table(self, *, index=("gpu", "tensorrt"), variants=(), jobs=None, value_header="{label}",
              derived=(), sort=False, missing="not measured", span=None, **filters) -> str:
        """A Markdown table: one row per distinct ``index`` tuple, one column per
        variant (figures with their job-to-job spread), then derived columns.

        ``derived`` items are ``(kind, a, b, header)`` with kind ``ratio``
        (a / b), ``reduction_percent`` ((a - b) / a in %) or ``delta_points``
        (b - a in AP points). A cell that several rows fill shows the range
        over them and whose figures they are, no one job's figure as the
        cell's (``5.764 to 5.850 (2 jobs: a, b)``, ``5.0 to 8.0 (2 figures of
        1 job: a)``: :meth:`_cell_figure`), and its derived cells the range over same-job pairs,
        followed by the range over every job's figures where a figure is in
        no such pair (``1.00x (2 jobs: 0.96x to 1.00x)``, :meth:`_derived_cell`). A
        derived column whose two variants share no table row is left out. A
        cell no row fills reads ``missing``: "not measured" by default; the
        generic template, which may print several latency tables (one per way
        of timing), writes "—", since a variant absent from one table may be
        measured in another (lint SG106 reads "not measured" as a declaration).
        ``sort``: accepted for templates written for it; rows are always
        ordered by their index fields (shapes and batches by their numbers,
        see :func:`ordered_keys`), never in the order records list them.
        Raises TemplateError, naming the cell, when a cell would hold figures
        of different quantities (statistic, metric, group, image set:
        :func:`refuse_mixed_cells`). A shape that collect took from
        ``--shape`` for a figure of the row, its input stating none, reads
        ``224 x 224 (from --shape, not in the input)`` (:func:`index_cell`).
        ``span``: only the kernel times whose figures span that
        (:meth:`kernel_time_groups`; a span no kernel time can have raises
        TemplateError); kernel times of two spans in one table
        raise TemplateError (:func:`~.spans.refuse_mixed_kernel_spans`), its
        columns and ratios would set a whole trace's total beside a mean per
        step.
        """
        selected = self._of_span(self.figures(variant=list(variants), job_id=jobs, **filters), span)
        refuse_mixed_kernel_spans(selected.rows, "table")
        grid = grid_of(selected, index)
        # a derived column no table row can fill (its two variants never share a row) is left out, not all "n/a"
        derived = [column for column in derived
                   if any(column[1] in cells and column[2] in cells for cells in grid.values())]
        headers = index_headers(index, selected.rows)
        headers += [value_header.format(label=escape_label(self._label(v))) for v in variants]
        refuse_mixed_cells(grid, index, dict(zip(variants, headers[len(index):])))
        headers += [header for (_, _, _, header) in derived]
        body = []
        with cells_of(headers, body):
            for row_key in ordered_keys(grid, jobs, index, sort):
                body.append(self._grid_line(index, row_key, grid[row_key], variants, derived, missing))
        return emit(markdown_table(body, headers), selected.rows, headers)

    @helper()
    def leaves_a_cell_empty(self, *, index=("gpu", "tensorrt"), variants=(), jobs=None, span=None, **filters) -> bool:
        """True when :meth:`table`, given the same ``index``, ``variants``,
        ``jobs``, ``span`` and ``filters``, would print ``missing`` in some cell: a
        table row (index tuple) with no figure of one of the variants. What a
        template asks before it explains its dashes."""
        grid = grid_of(self._of_span(self.figures(variant=list(variants), job_id=jobs, **filters), span), index)
        return any(variant not in cells for cells in grid.values() for variant in variants)

    @staticmethod
    def _of_span(selected: RowSet, span: str | None) -> RowSet:
        """``selected`` without the kernel times whose figures do not span
        ``span`` (:func:`~studygen.study.timing.row_kernel_span`); as it is when ``span`` is None."""
        if span is None:
            return selected
        if span not in KERNEL_SPANS:  # a misspelt span kept no kernel time and printed a table of headers only
            raise TemplateError(f"span={span!r} is none of the spans a kernel time has: "
                                + ", ".join(repr(name) for name in KERNEL_SPANS))
        return RowSet([row for row in selected.rows if row_kernel_span(row) in (None, span)], selected.filters)

    def _grid_line(self, index, row_key: tuple, cells: dict[str, list[TemplateRow]], variants, derived,
                   missing: str = "not measured") -> list[str]:
        """One table row of :meth:`table`: index cells, variant cells (``missing`` where no row), derived cells."""
        figures = [row for rows in cells.values() for row in rows]
        line = [index_cell(name, value, figures) for name, value in zip(index, row_key)]
        line += [self._compiled_or_cell_figure(cells[v]) if v in cells else escape_cell(missing) for v in variants]
        for kind, a, b, _ in derived:
            pooled = (self._pooled_table_ratio([row._row for row in cells[a]], [row._row for row in cells[b]])
                      if kind == "ratio" and a in cells and b in cells else None)
            cell = pooled or (self._derived_cell(kind, cells[a], cells[b]) if a in cells and b in cells else "n/a")
            # a ratio with a host-bound timing on either side compares the host's work per forward (the README lists
            # such timings under the table): said in the cell, or it reads as the GPU's (a new user's tiny ResNet)
            if kind == "ratio" and any(host_bound(row._row) for side in (a, b) for row in cells.get(side, ())):
                cell += " (host-bound)"
            line.append(cell)
        return line

    def _compiled_or_cell_figure(self, rows: list[TemplateRow]) -> str:
        """A compiled latency of two or more compilations as
        :meth:`~.pooled.PooledCellHelpers._pooled_table_cell` prints it
        (its median alone may be no compilation's figure), any other cell as
        :meth:`_cell_figure` does."""
        return self._pooled_table_cell([row._row for row in rows]) or self._cell_figure(rows)

    def _cell_figure(self, rows: list[TemplateRow]) -> str:
        """A table cell for the rows of one index tuple and variant: one row
        prints with its job-to-job spread (:meth:`with_spread`); several rows
        print the range over them all and whose figures they are, no one
        row's figure as the cell's: ``5.764 to 5.850 (2 jobs: a, b)``,
        ``5.850 (2 jobs, each: a, b)`` when their figures are equal (the
        ends print by :func:`~.rows.spread_cells`' rule: 5.12 and 5.14
        print ``5.12 to 5.14``, never ``5.12 to 5.1`` or one figure), ``5.0 to 8.0 (2
        figures of 1 job: a)`` when a job gives several (jobs in row order)."""
        if len(rows) == 1:
            return self.with_spread(rows[0])
        if undefined := undefined_text(row._row for row in rows):
            return emit(undefined, [row._row for row in rows], kind="figure")
        figures = [row for row in rows if row.low is not None]  # a marker (COCOeval's -1) is no figure
        lowest = min(figures, key=lambda row: row.low)
        highest = max(figures, key=lambda row: row.high)
        jobs = list(dict.fromkeys(row.job_id for row in figures))
        whose = counted(len(jobs), "job")
        if len(figures) > len(jobs):
            whose = f"{len(figures)} figures of {whose}"
        # both ends take their digits together (spread_cells' rule): in order, told apart, their difference the range's
        low, high = spread_cells([lowest._row, highest._row], [lowest.low, highest.high])[0]
        named = ", ".join(escape_cell(job) for job in jobs)
        text = f"{low} to {high} ({whose}: {named}" if low != high else f"{low} ({whose}, each: {named}"
        left = len(rows) - len(figures)
        if left:
            text += f"; {left} undefined"
        return emit(text + ")", [row._row for row in rows], kind="figure")

    def _derived_cell(self, kind: str, a_rows: list[TemplateRow], b_rows: list[TemplateRow]) -> str:
        """A derived cell (see :data:`DERIVED`) over the same-job pairs (:func:`derived_pairs`) of two
        variant cells: one value, or ``low to high`` when jobs differ.

        When a figure of either cell lies in no same-job pair (a job measured
        only one of the variants, or no job both), the paired value is
        followed by its range over every job's figures, ``1.00x (2 jobs: 0.96x
        to 1.00x)``: a pair of one job is no more precise than the job-to-job
        spread of its figures (SG203), and the figures outside the pairs
        measure that spread. The range covers every combination of an ``a``
        figure with a ``b`` figure, as the pooled ratio of compilations does
        (``CompilationHelpers._pooled_ratio``)."""
        if kind not in DERIVED:
            raise TemplateError(f"table: unknown derived column {kind!r}; derived columns are {', '.join(DERIVED)}")
        pairs = derived_pairs(a_rows, b_rows)
        a_figures, b_figures = ([row for row in rows if row.value is not None] for rows in (a_rows, b_rows))
        in_pairs = {id(row) for pair in pairs for row in pair}
        if not a_figures or not b_figures:  # a side without a figure: no pair to compute, the cell is undefined
            return getattr(self, kind)(*pairs[0])
        if all(id(row) in in_pairs for row in (*a_figures, *b_figures)):
            if len(pairs) == 1:
                return getattr(self, kind)(*pairs[0])
            return emit(self._derived_text(kind, pairs), [row._row for pair in pairs for row in pair],
                        kind="ratio", compared=[(a._row, b._row) for a, b in pairs])
        every = [(a, b) for a in a_figures for b in b_figures]
        jobs = len({row.job_id for row in (*a_figures, *b_figures)})
        figures = [row._row for row in (*a_figures, *b_figures)]
        if not any(a.job_id == b.job_id for a, b in pairs):
            # no job measured both: the one pair derived_pairs falls back on is no more the cell's than any other
            over = self._derived_text(kind, every)
            return emit(f"{over} ({counted(len(every), 'pair')} across {counted(jobs, 'job')}; no job measured both)",
                        figures, kind="ratio", compared=[])
        over = self._derived_text(kind, every, f"{counted(jobs, 'job')}: ", f"{counted(jobs, 'job')}, each ")
        return emit(f"{self._derived_text(kind, pairs)} ({over})", figures,
                    kind="ratio", compared=[(a._row, b._row) for a, b in pairs if a.job_id == b.job_id])

    def _derived_text(self, kind: str, pairs: list[tuple[TemplateRow, TemplateRow]], before_range: str = "",
                      before_one: str = "") -> str:
        """The derived figures of ``pairs`` (:data:`DERIVED`, the study's precision): ``low to high``
        after ``before_range``, or the one figure they all print after ``before_one``."""
        compute, decimals_name, suffix = DERIVED[kind]
        values = [compute(a.value, b.value) for a, b in pairs]
        decimals, sign = self.decimals(decimals_name), kind == "delta_points"
        low, high = (format_number(v, decimals, sign=sign) + suffix for v in (min(values), max(values)))
        return before_one + low if low == high else f"{before_range}{low} to {high}"

    # ---- what a generic table needs to know ---------------------------------
    @helper()
    def variants_with(self, **filters) -> tuple[str, ...]:
        """Names of the study file's variants (in its order) that have rows
        matching ``filters``: the columns of a table of those rows."""
        present = {row.variant for row in self.figures(**filters)}
        return tuple(name for name in self._variant_order() if name in present)

    @helper()
    def index_fields(self, **filters) -> tuple[str, ...]:
        """Table index for the rows matching ``filters``: of GPU, TensorRT,
        mode, shape, batch, image set and the variant an agreement is
        measured against, those some row sets, GPU, shape and
        batch always when set (a batch all rows share is still what a reader
        needs: "batch 4"), the others only when rows differ in them
        (``("gpu", "shape", "batch")``); for rows of one kind in
        :data:`ALWAYS_INDEXED`, its fields whether set or not (a cell of a
        row that does not state one prints ``not stated``). The checkpoint
        revision (as the measurement key holds it, after the mode) only when
        the rows come from two or more (a record stating none counts as one
        more), so that a table never sets figures of two model files side by
        side as one model's, nor pools them in one cell; a study of one
        revision prints no such column."""
        rows = self.figures(**filters).rows
        always = set(ALWAYS_INDEXED.get(rows[0].kind, ())) if rows and len({row.kind for row in rows}) == 1 else set()
        unneeded = platform_fields_unneeded(rows)
        fields = []
        for name in ("gpu", "tensorrt", "mode", "shape", "batch", "dataset", "reference_variant"):
            values = {row.field(name) for row in rows} - {None}
            if name in unneeded:
                continue
            if name in always or values and (name in ("gpu", "shape", "batch") or len(values) > 1):
                fields.append(name)
            if name == "mode" and len({row.key.revision for row in rows}) > 1:
                fields.append("revision")
        return tuple(fields)

    @helper()
    def latency_groups(self, shown: bool = False, **filters) -> list[dict]:
        """The latency rows matching ``filters`` split by how they were timed
        (:func:`studygen.study.timing.timing_signature`), one group per
        signature in row order, so that a table per group never puts
        latencies measured differently in one column (SG212). Each group is
        ``{"filters": filters with its backend, mode and timing, "jobs": [job
        ids], "variants": (variant names), "heading": the method in words, or
        '' when there is one group}``. With ``shown``, only each run's timing
        of its work (:func:`studygen.study.timing.shown_rows`: trtexec's GPU
        compute time, a CPU run's end-to-end time), as the generic template's
        tables show them. A job whose rows of one backend, mode and timing
        carry two signatures lands in both groups (its tables then mix them,
        and SG212 says so)."""
        groups: dict[tuple, list] = {}
        for row in self._latency_rows(shown, filters):
            if row.value is not None or row.is_range:
                groups.setdefault(timing_signature(row), []).append(row)
        out = []
        for signature, rows in groups.items():
            # the group's own timing: a job whose runs show two timings (GPU compute in one, end-to-end in a CPU
            # run) prints each in its own table, not both in each
            narrowed = dict(filters, backend=signature[0], mode=signature[1], metric=signature[2])
            jobs = list(dict.fromkeys(row.job_id for row in rows))
            present = {row.variant for row in rows}
            variants = tuple(name for name in self._variant_order() if name in present)
            heading = "Timed as " + describe(signature, timing_label(rows)) if len(groups) > 1 else ""
            out.append({"filters": narrowed, "jobs": jobs, "variants": variants, "heading": heading})
        return out

    @helper()
    def latency_timing(self, shown: bool = False, **filters) -> str:
        """What the latency rows matching ``filters`` time, with their
        statistic, as their records say they were timed
        (:func:`studygen.study.timing.timing_words`): ``median GPU compute
        time``, ``median CUDA-event time per forward``, distinct ones in row
        order joined by ``; ``; with ``shown``, those of each run's timing of
        its work only (as :meth:`latency_groups`). For a heading over tables
        of those rows."""
        return "; ".join(dict.fromkeys(timing_words(row) for row in self._latency_rows(shown, filters)))

    def _latency_rows(self, shown: bool, filters: dict) -> list[Row]:
        """The rows matching ``filters``; with ``shown``, those of them a README
        shows (:func:`studygen.study.timing.shown_rows`: latency rows with a
        figure, each run's timing of its work)."""
        rows = self.figures(**filters).rows
        return shown_rows(rows) if shown else rows

    @helper()
    def ratio_columns(self, variants, kind: str = "ratio", header: str = "{a} / {b}") -> list[tuple]:
        """Derived columns of :meth:`table` comparing the first of ``variants``
        (the reference) with each other one: ``[(kind, first, other, header)]``,
        ``header`` formatted with both variants' labels."""
        first, *others = list(variants) or [None]
        return [(kind, first, other, header.format(a=escape_label(self._label(first)), b=escape_label(self._label(other))))
                for other in others]

    @helper("table", markdown=True)
    def list_table(self, row_set: RowSet, columns=LIST_TABLE_COLUMNS, value_header: str = "Value") -> str:
        """One table row per row of ``row_set`` (every row, in record order);
        a shape marked as :meth:`table` marks it."""
        refuse_mixed_kernel_spans(row_set.rows, "list_table")
        headers = [value_header if c == "value" else header for c, header in zip(columns, index_headers(columns, row_set.rows))]
        body = []
        with cells_of(headers, body):
            for row in row_set:
                body.append([self._list_cell(row, c) for c in columns])
        return emit(markdown_table(body, headers), row_set.rows, headers)

    def _list_cell(self, row: TemplateRow, column: str) -> str:
        """One cell of :meth:`list_table`."""
        if column == "value":
            return self.with_spread(row) if not row.is_range else f"{row.number()} (range over rows not listed)"
        if column == "variant":
            return escape_label(self._label(row.variant))
        return index_cell(column, index_value(row._row, column), [row])
