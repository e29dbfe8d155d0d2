"""SVG charts of what the records hold: what each is drawn from, and its stamp.

- ``latency``: latency per variant and shape, of the one timing the tables
  show, one row of panels per timing method as the tables are split (CUDA
  graphs, data transfers, backend, mode: latencies timed differently never
  share an axis), the timing named on the y-axis. Where a result has repeats,
  every repeat's median is a point and the overall median a bar across them,
  so the spread is visible; where only a published figure exists (transcribed
  records), one point per job. Nothing with a figure is left out: a row
  without a shape gets a panel of its own.
- ``kernel_time``: kernel time per group as stacked bars per variant, for
  every (job, shape) whose record lists at least two groups with times; in
  ms on one linear axis, or, when the bars' totals span more than
  :data:`SPAN_LIMIT` times, as each group's share of its bar's total with
  the totals printed above the bars (:mod:`.share_bars`); always as shares
  when the runs' figures span different things (a whole trace's total
  beside a mean per profiled step), each total printed with what it spans.

A chart whose data is absent is omitted and the README says why. This
module selects each chart's numbers and labels from the study and digests
them; :mod:`.drawing` turns them into SVG bytes.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..numbers import format_number, readable_decimals
from ..records.kinds import Kind
from ..records.profile_spread import CPU_SPAN, ITERATION_SPAN, WHOLE_TRACE_SPAN, kernel_span
from ..study.rows import Row
from ..study.timing import TIMING_WORDS, describe, shown_rows, timing_names, timing_signature
from .drawing import draw_kernel_times, draw_latency
from .drawing_code import DRAWING_MODULES, SHARE_DRAWING_MODULES, code_sha256
from .labels import gpu_label, shape_label, short_version
from .rows import batch_order, fmt, shape_order
from .share_bars import draw_kernel_shares

STAMP_PREFIX = b"<!-- studygen figure: inputs sha256:"

# The start of matplotlib's warning when a figure's tick labels, titles and legends leave its axes no room
# (matplotlib/_constrained_layout.py, "axes sizes collapsed to zero"): the layout is then skipped.
LAYOUT_COLLAPSED = "constrained_layout not applied"
# What that means for the chart, said once in studygen's words (render prints it beside the file's path).
LAYOUT_COLLAPSED_NOTE = ("its labels and legend need more room than the figure's size leaves, so it is drawn without "
                         "studygen's layout: the plot keeps matplotlib's default place and size, small beside its "
                         "labels, which may overlap it (none is cut off); shorter variant labels, job ids or kernel "
                         "group names give it room")


@dataclass
class Chart:
    """One chart: where it goes, alt text or the reason it is omitted, the
    digest of what it is drawn from, and how to draw it.

    Drawing is deferred: ``check`` compares the committed file's stamp with
    :attr:`inputs_sha256` and draws only when they differ (a chart costs
    ~0.5 s of matplotlib; a 20-family project would spend most of its check
    redrawing charts that are current). The idea is cog's output checksum.
    """

    name: str
    path: Path
    alt: str
    omitted_because: str = ""
    inputs_sha256: str | None = None
    draw: Callable[[], bytes] | None = None
    _svg: bytes | None = field(default=None, repr=False)
    notes: list[str] = field(default_factory=list)  # what drawing it showed (LAYOUT_COLLAPSED_NOTE), once drawn

    @property
    def present(self) -> bool:
        return self.draw is not None

    def drawing(self) -> bytes:
        """The chart as matplotlib writes it (SVG bytes, no stamp); drawn
        once. matplotlib's warning that the layout collapsed (a one- or two-bar
        kernel-time chart with a long bar label and long group names: its
        4-inch width holds neither) becomes :data:`LAYOUT_COLLAPSED_NOTE` in
        :attr:`notes`, not a line of matplotlib's on stderr; other warnings
        pass on as they came. The bytes are the same either way: the drawing
        code is that of every committed chart, whose stamps digest it."""
        if self._svg is None:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self._svg = self.draw()
            for warning in caught:
                if str(warning.message).startswith(LAYOUT_COLLAPSED):
                    if LAYOUT_COLLAPSED_NOTE not in self.notes:
                        self.notes.append(LAYOUT_COLLAPSED_NOTE)
                else:
                    warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
        return self._svg

    @property
    def svg(self) -> bytes | None:
        """The file's bytes: the drawing with the stamp line after the XML
        declaration (``<!-- studygen figure: inputs sha256:I drawing sha256:D -->``,
        I = :attr:`inputs_sha256`, D = sha256 of the drawing); None when omitted."""
        if not self.present:
            return None
        return stamp(self.drawing(), self.inputs_sha256)

    def is_current(self, committed: bytes) -> bool:
        """True when ``committed`` (a file's bytes) is what this chart renders to.

        Without drawing when its stamp names these inputs and its drawing hashes
        to the stamped digest (so a hand edit of the SVG is still caught);
        otherwise by drawing and comparing bytes.
        """
        if not self.present:
            return False
        stamped = stamp_digests(committed)
        if stamped is not None and stamped[0] == self.inputs_sha256:
            return drawing_sha256(committed) == stamped[1]
        return committed == self.svg

    def markdown(self, readme_dir: Path) -> str:
        """The README's embed (relative path, alt text) or the omission sentence."""
        if not self.present:
            return f"Figure omitted: {self.omitted_because}."
        rel = self.path.relative_to(readme_dir).as_posix()
        return f"![{self.alt}]({rel})"


def stamp(drawing: bytes, inputs_sha256: str) -> bytes:
    """``drawing`` (an SVG from matplotlib, whose first line is the XML
    declaration) with the stamp line inserted after that first line."""
    head, _, rest = drawing.partition(b"\n")
    line = STAMP_PREFIX + f"{inputs_sha256} drawing sha256:{hashlib.sha256(drawing).hexdigest()} -->".encode()
    return head + b"\n" + line + b"\n" + rest


def stamp_digests(data: bytes) -> tuple[str, str] | None:
    """``(inputs sha256, drawing sha256)`` of a stamped chart file (its
    second line, :func:`stamp`'s), or None when that line is no stamp; read
    without copying the drawing out: a chart of 4,000 points is 0.9 MB, which
    the reading before copied three times into fresh memory (15 of SG201's
    20 ms over the scale benchmark's eight studies)."""
    first = data.find(b"\n")
    if first < 0:
        return None
    second = data.find(b"\n", first + 1)
    line = data[first + 1:second] if second >= 0 else data[first + 1:]
    if not line.startswith(STAMP_PREFIX) or not line.endswith(b" -->"):
        return None
    fields = line[len(STAMP_PREFIX):-len(b" -->")].split(b" drawing sha256:")
    if len(fields) != 2:
        return None
    return fields[0].decode("ascii", "replace"), fields[1].decode("ascii", "replace")


def drawing_sha256(data: bytes) -> str:
    """sha256 (hex) of the drawing in a stamped chart file (its first line,
    then what follows the stamp line: what :func:`stamp` was given), hashed
    from ``data`` in place."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1)
    view = memoryview(data)
    digest = hashlib.sha256(view[:first + 1])
    if second >= 0:
        digest.update(view[second + 1:])
    return digest.hexdigest()


def inputs_digest(name: str, inputs, modules: tuple[str, ...] = DRAWING_MODULES) -> str:
    """sha256 over the chart's name, the data it is drawn from (JSON, floats
    as repr), matplotlib's version and the code that draws it (``modules`` of
    this package: :mod:`.drawing` and :mod:`.labels`, plus :mod:`.share_bars`
    for a chart drawn as shares): a change to any of them makes a committed
    chart's stamp stale, and a change to a module a chart does not use leaves
    it current."""
    payload = json.dumps([name, inputs, matplotlib_version(), code_sha256(modules)], sort_keys=True,
                         ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


@functools.cache
def matplotlib_version() -> str:
    """The installed matplotlib's version, as its package metadata states it
    (equal to ``matplotlib.__version__``), read without importing matplotlib:
    the import costs ~0.3 s, most of a fresh family's ``studygen check``.
    Only the metadata's header block is read (:func:`header_version`):
    ``importlib.metadata.version`` parses the whole file, ~10 ms a process
    for matplotlib's 80 kB long description. Raises
    importlib.metadata.PackageNotFoundError when it is not installed."""
    distribution = importlib.metadata.distribution("matplotlib")
    return header_version(distribution.read_text("METADATA") or "") or distribution.version


def header_version(metadata: str) -> str | None:
    """The ``Version`` field of a package's core metadata text, read off its
    header block (the lines before the first empty one) as the email parser
    ``importlib.metadata`` uses reads a header: the name in any case, the
    value without the blanks after the colon. None where the header block
    states no version on one line of its own (then the caller parses it all).
    Source: the Python packaging core metadata specification (``Version``
    is a required single-use field in the header block)."""
    lines = metadata.split("\n\n", 1)[0].split("\n")
    for index, line in enumerate(lines):
        name, colon, value = line.partition(":")
        if colon and name.lower() == "version":
            folded = index + 1 < len(lines) and lines[index + 1][:1] in (" ", "\t")
            return None if folded else value.lstrip(" \t").rstrip("\r")
    return None


def printable(text: str) -> str:
    """``text`` with control characters (a carriage return or tab from a hand-edited
    record) as spaces: the chart's font has no glyph for them. Newlines stay."""
    if text.isprintable():  # no control character at all (nearly every label): nothing to replace
        return text
    return "".join(" " if (ord(ch) < 32 and ch != "\n") or ord(ch) == 127 else ch for ch in text)


def one_line(text: str) -> str:
    """:func:`printable` on one line (a label under a tick or in the legend)."""
    return printable(text).replace("\n", " ")


def _job_label(row: Row) -> str:
    parts = [gpu_label(row.gpu)]
    if row.tensorrt:
        parts.append(f"TensorRT {short_version(row.tensorrt)}")
    if row.mode and row.backend == "pytorch":
        parts.append(row.mode)
    return one_line(" ".join(parts))


def _platform_label(row: Row, made: dict) -> str:
    """:func:`_job_label` of ``row``, kept in ``made`` by the fields it reads (GPU, TensorRT version, mode, backend)."""
    fields = (row.gpu, row.tensorrt, row.mode, row.backend)
    label = made.get(fields)
    if label is None:
        label = made[fields] = _job_label(row)
    return label


# Row fields that may tell two points or bars apart, in the order a label adds them.
TELLING_FIELDS = (("batch", "batch {}"), ("job_id", "{}"), ("gpu", None), ("tensorrt", "TensorRT {}"),
                  ("mode", "{}"), ("backend", "{}"))


def distinct_labels(labelled: list[tuple[str, Row]]) -> list[str]:
    """The labels of ``labelled`` (``(label, row)`` pairs), each label that
    two or more rows share extended by the fields that differ among those
    rows (:data:`TELLING_FIELDS`: batch, job, GPU, TensorRT, mode, backend),
    so that no two points or bars of one chart read alike unless their rows
    agree in all of them (then numbered ``#1``, ``#2`` in row order).
    Labels no other row shares stay as they are."""
    by_label: dict[str, list[int]] = {}
    for index, (label, _) in enumerate(labelled):
        by_label.setdefault(label, []).append(index)
    out = [label for label, _ in labelled]
    for label, indexes in by_label.items():
        if len(indexes) < 2:
            continue
        rows = [labelled[i][1] for i in indexes]
        differing = [(name, pattern) for name, pattern in TELLING_FIELDS
                     if len({repr(row.field(name)) for row in rows}) > 1]
        for i, row in zip(indexes, rows):
            parts = [gpu_label(row.gpu) if pattern is None else pattern.format(row.field(name))
                     for name, pattern in differing]
            out[i] = printable(" ".join([label, *parts]))
        if not differing:
            for number, i in enumerate(indexes, 1):
                out[i] = f"{label} #{number}"
    return out


def latency_rows(study) -> list[Row]:
    """The latency rows with a value the chart plots, with or without a shape:
    of each run, the timing the generic template's tables show
    (:func:`studygen.study.timing.shown_rows`: trtexec's GPU compute time of
    its six timings, a CPU run's end-to-end time beside a GPU run's
    CUDA-event time), each drawn in the row of panels of its own timing
    method (:func:`_named_timing_groups`)."""
    return [r for r in shown_rows(study.rows) if r.value is not None]


def axis_words(statistic: str | None, timing: str | None, timing_text: str | None = None) -> str:
    """What a latency axis shows, as a reader names it: ``median GPU compute
    time`` (statistic, then the timing in :data:`studygen.study.timing.TIMING_WORDS`,
    or ``timing_text``, the timing as its rows' records name it:
    :func:`studygen.study.timing.timing_name`), ``median latency, timing not
    stated`` where the record says ``unspecified`` or nothing (the Deformable
    DETR logs transcribed from the seed)."""
    stated = lambda value: value if value and value != "unspecified" else None  # noqa: E731
    timing_words = (timing_text or TIMING_WORDS.get(timing, timing)) if stated(timing) else None
    statistic = stated(statistic)
    if timing_words and statistic:
        return f"{statistic} {timing_words}"
    if timing_words:
        return f"{timing_words}, statistic not stated"
    return f"{statistic} latency, timing not stated" if statistic else "latency, timing and statistic not stated"


def _named_timing_groups(rows: list[Row]) -> list[tuple[str, list[Row], list[str], str]]:
    """``rows`` split as the generic template splits its latency tables (by
    :func:`studygen.study.timing.timing_signature`, and by statistic, so that
    a median and a p99 never share an axis), in row order: ``[(the method in
    words, as the table heading says it after "Timed as", its rows, their
    timing names (:func:`~studygen.study.timing.timing_names`) and those
    names joined as :func:`~studygen.study.timing.timing_label` joins them)]``. The
    latency chart names a group's timing in its heading, on its axis and in
    its alt text from these names, where it named every row's timing for
    each (three passes over the rows, 9 ms per 1,000 records of the scale
    benchmark)."""
    groups: dict[tuple, list[Row]] = {}
    for row in rows:
        groups.setdefault((*timing_signature(row), row.statistic), []).append(row)
    named = []
    for key, picked in groups.items():
        names = timing_names(picked)
        label = " and ".join(names)  # timing_label's words, from the names listed once
        named.append((describe(key[:-1], label), picked, names, label))
    return named


def _method_row(index: int, method: str, picked: list[Row], titled: bool,
                timing_text: str) -> tuple[list, dict, str]:
    """One timing method's row of the latency chart: ``([title, [[shape,
    panel title]], y-axis label], {(index, shape, variant): points}, its
    sentence of the alt text)``; ``titled``: the row is headed "Timed as …"
    (the chart has several); ``timing_text``: the rows' :func:`~studygen.study.timing.timing_label`."""
    shapes = sorted({r.shape or "" for r in picked}, key=shape_order)
    titles = [shape_label(s) for s in shapes]  # a row without a shape: a panel of its own, NO_SHAPE
    row_spec = ["Timed as " + method if titled else "", [list(pair) for pair in zip(shapes, titles)],
                f"{axis_words(picked[0].statistic, picked[0].metric, timing_text)} (ms)"]
    # points of several batches in one row of panels: each says its batch, as the table's Batch column does
    several_batches = len({r.batch for r in picked}) > 1
    by_panel: dict[tuple, list[Row]] = {}  # (method, shape, variant) -> its rows, in row order
    for row in picked:
        by_panel.setdefault((index, row.shape or "", row.variant), []).append(row)
    panels, job_labels = {}, {}  # job_labels: _job_label by the fields it reads (a chart's rows share a few platforms)
    for panel, cell in by_panel.items():
        labels = distinct_labels([(_platform_label(row, job_labels) + (f" batch {row.batch}" if several_batches else ""),
                                   row) for row in cell])
        panels[panel] = [(label, row.value, row.repeat_medians_ms or []) for label, row in zip(labels, cell)]
    sentence = f"{'Timed as ' + method + ', at' if titled else 'at'} {_ranges_by_shape_and_batch(picked)}"
    return row_spec, panels, sentence


def _span(rows: list[Row]) -> str:
    """``low to high`` of ``rows``' figures (one figure when they print alike),
    the ends as the tables print them (fmt: the study's precision or the
    readable digits), not every source digit."""
    low, high = min(rows, key=lambda r: r.value), max(rows, key=lambda r: r.value)
    ends = fmt(low.value, low), fmt(high.value, high)
    return ends[0] if ends[0] == ends[1] else f"{ends[0]} to {ends[1]}"


def _results(count: int) -> str:
    return f"{count} result{'' if count == 1 else 's'}"


def _ranges_by_shape_and_batch(picked: list[Row]) -> str:
    """The alt text's figures of one timing method: a range per shape, and
    within a shape per batch when the method's rows hold several batches.
    A latency at batch 1 and one at batch 4, or at 800 x 800 and at
    800 x 1067, time different work: one range over both would read as the
    spread of one measurement. ``28 x 28: 0.1526 to 0.1536 ms over 2 results``;
    ``224 x 224: 1.973 ms at batch 1, 91.60 ms at batch 128 (2 results)``;
    several shapes joined by ``; ``."""
    several_batches = len({r.batch for r in picked}) > 1
    by_shape: dict[str, list[Row]] = {}
    for row in picked:
        by_shape.setdefault(row.shape or "", []).append(row)
    parts = []
    for shape in sorted(by_shape, key=shape_order):
        rows = by_shape[shape]
        if not several_batches:
            parts.append(f"{shape_label(shape)}: {_span(rows)} ms over {_results(len(rows))}")
            continue
        by_batch: dict = {}
        for row in rows:
            by_batch.setdefault(row.batch, []).append(row)
        ranges = [f"{_span(by_batch[batch])} ms at {_batch_words(batch)}" for batch in sorted(by_batch, key=batch_order)]
        parts.append(f"{shape_label(shape)}: {', '.join(ranges)} ({_results(len(rows))})")
    return "; ".join(parts)


def _batch_words(batch) -> str:
    return "batch not stated" if batch is None else f"batch {batch}"


def latency_chart(study) -> Chart:
    """Latency (ms) per variant: one row of panels per timing method (as the
    tables split them, :func:`_named_timing_groups`), one panel per shape HxW in
    each (rows without a shape in a panel of their own), one timing
    (:func:`latency_rows`), its name on the y-axis (:func:`axis_words`);
    the alt text gives each method's range per shape, and per batch where
    the method holds several (:func:`_ranges_by_shape_and_batch`)."""
    path = study.charts_dir / "latency.svg"
    rows = latency_rows(study)
    if not rows:
        return Chart(Kind.LATENCY, path, "", "the records hold no latency figure")
    groups = _named_timing_groups(rows)
    methods, panels, sentences = [], {}, []
    for index, (method, picked, _, label) in enumerate(groups):
        row_spec, row_panels, sentence = _method_row(index, method, picked, len(groups) > 1, label)
        methods.append(row_spec)
        panels.update(row_panels)
        sentences.append(sentence)
    present = {variant for _, _, variant in panels}
    variants = [v for v in study.variants if v in present]
    labels = {v: one_line(study.variant_label(v)) for v in variants}
    inputs = {"methods": methods,
              "points": [[index, shape, variant, label, value, repeats]
                         for (index, shape, variant), picked in panels.items() for label, value, repeats in picked],
              "variants": [[v, labels[v]] for v in variants]}
    # every row's axis words: a group's rows share their statistic and timing (its key), not always their timer
    named = {axis_words(picked[0].statistic, picked[0].metric, name) for _, picked, names, _ in groups for name in names}
    words = named.pop() if len(named) == 1 else "latencies"  # several statistics: each method's axis names its own
    head = f"{words[0].upper()}{words[1:]}{',' if ',' in words else ''} per variant"
    alt = (f"{head} {sentences[0]}" if len(groups) == 1 else
           f"{head}, one row of panels per timing method ({len(groups)}). " + ". ".join(sentences))
    return Chart(Kind.LATENCY, path, alt, inputs_sha256=inputs_digest(Kind.LATENCY, inputs),
                 draw=functools.partial(draw_latency, methods, panels, variants, labels))


# A stacked bar shows its groups only while it stands tall enough: at more than this ratio between the largest
# and the smallest bar total (the TensorRT 7 GoogLeNet files: 1.96 ms at batch 1, 92.3 ms at batch 128) the
# small bars fall under a tenth of the axis, a few pixels in which seven groups cannot be told apart.
SPAN_LIMIT = 10.0


def three_digits(ms: float) -> str:
    """``ms`` with three significant digits (92.2963 → ``92.3``, 1.9634 → ``1.96``,
    9.996 → ``10.0``; 0 → ``0``), by the README's own rule
    (:func:`~studygen.numbers.readable_decimals`): a label above a bar, whose
    exact figure the table gives."""
    if ms <= 0:
        return "0"
    return format_number(ms, readable_decimals(ms, None, significant=3))


def kernel_chart(study) -> Chart:
    """Kernel time per group (ms), stacked bars per variant, one bar group per
    (job, shape); drawn as each group's share of its bar's total, totals
    printed above the bars, when the totals span more than :data:`SPAN_LIMIT`
    times (or a total is 0 beside one that is not)."""
    path = study.charts_dir / "kernel_time.svg"
    bars = []  # (label, {group: ms})
    labelled = []  # (label, a row of the result): what tells two bars of one label apart
    spans = []  # what each bar's figures span (kernel_span)
    for record in study.records:
        for result in record.results:
            if result["kind"] != Kind.KERNEL_TIME:
                continue
            timed = {g["group"]: g["time_ms"] for g in result["groups"] if "time_ms" in g}
            if len(timed) >= 2:
                variant = one_line(study.variant_label(result["variant"]))
                label = f"{record.job_id}\n{variant}"
                if result.get("shape"):  # a profile without a shape names none
                    label += f" {shape_label(result['shape'])}"
                if result.get("mode") and result["mode"] not in variant.split():  # a label "bf16 eager" names it
                    label += f" {printable(result['mode'])}"
                bars.append((label, {printable(group): ms for group, ms in timed.items()}))
                spans.append(kernel_span(record, result))
                labelled.append((label, next(r for r in study.rows if r.result is result)))
    bars = [(label, timed) for label, (_, timed) in zip(distinct_labels(labelled), bars)]
    if not bars:
        return Chart(Kind.KERNEL_TIME, path, "",
                     "no record lists kernel time for two or more groups of one profiled run "
                     "(ranges over rows the source does not list cannot be stacked)")
    groups = sorted({g for _, timed in bars for g in timed})

    runs = f"{len(bars)} profiled run{'' if len(bars) == 1 else 's'}"
    totals = [math.fsum(timed.values()) for _, timed in bars]
    if len(set(spans)) > 1:  # a whole trace's total beside a mean per step: never on one ms axis
        return _mixed_span_chart(path, bars, groups, totals, spans, runs)
    if max(totals) <= SPAN_LIMIT * min(totals):
        alt = f"Kernel time per group, stacked per variant, for {runs}; groups: {', '.join(groups)}"
        inputs = [[label, sorted(timed.items())] for label, timed in bars]
        return Chart(Kind.KERNEL_TIME, path, alt, inputs_sha256=inputs_digest(Kind.KERNEL_TIME, inputs),
                     draw=functools.partial(draw_kernel_times, bars, groups))
    alt = (f"Kernel time per group as a percentage of each run's total, stacked per variant, for {runs} whose "
           f"totals ({three_digits(min(totals))} to {three_digits(max(totals))} ms, printed above the bars) differ "
           f"more than {format_number(SPAN_LIMIT, 0)}-fold; groups: {', '.join(groups)}")
    return _share_chart(path, bars, groups, totals, [f"{three_digits(total)} ms" for total in totals], alt)


# what a bar's total is, under it in a share chart of runs whose figures span different things
SPAN_WORDS = {WHOLE_TRACE_SPAN: "whole trace", ITERATION_SPAN: "per iteration", CPU_SPAN: "CPU, per forward"}


def _mixed_span_chart(path, bars, groups, totals, spans, runs) -> Chart:
    """The kernel-time chart of runs whose figures span different things
    (``spans``: :func:`~studygen.records.profile_spread.kernel_span` per bar):
    each group's share of its own run's total, the total and what it spans
    printed above each bar, the spans named in the alt text."""
    printed = [f"{three_digits(total)} ms\n{SPAN_WORDS[span]}" for total, span in zip(totals, spans)]
    alt = (f"Kernel time per group as a percentage of each run's total, stacked per variant, for {runs} whose "
           f"figures span different things ({'; '.join(dict.fromkeys(spans))}), so no bar is set on another's ms "
           f"scale; each total and what it spans is printed above its bar; groups: {', '.join(groups)}")
    return _share_chart(path, bars, groups, totals, printed, alt)


def _share_chart(path, bars, groups, totals, printed: list[str], alt: str) -> Chart:
    """The kernel-time chart of ``bars`` (label, {group: ms}) drawn as each
    group's share (%) of its bar's total (``totals``, ms), ``printed`` above
    each bar (:mod:`.share_bars`), with ``alt`` as its text."""
    shares = [(label, {group: 100 * ms / total if total > 0 else 0.0 for group, ms in timed.items()})
              for (label, timed), total in zip(bars, totals)]
    inputs = {"shares": [[label, sorted(part.items())] for label, part in shares], "totals": printed}
    return Chart(Kind.KERNEL_TIME, path, alt,
                 inputs_sha256=inputs_digest(Kind.KERNEL_TIME, inputs, SHARE_DRAWING_MODULES),
                 draw=functools.partial(draw_kernel_shares, shares, groups, printed))


CHARTS = {Kind.LATENCY: latency_chart, Kind.KERNEL_TIME: kernel_chart}  # a chart per kind, named after it


def render_charts(study) -> dict[str, Chart]:
    """Every chart of the study, by name (``latency``, ``kernel_time``); an
    omitted chart says why (:attr:`Chart.omitted_because`)."""
    return {name: build(study) for name, build in CHARTS.items()}
