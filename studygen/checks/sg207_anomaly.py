"""SG207 cross-version and cross-GPU anomaly: the same metric of the same
configuration differing by a factor of at least ``anomaly_factor`` (study
file, default 1.5) between software versions of one GPU, or departing by
that factor from the usual ratio of two GPUs in the study, unless an explanation
entry (``explanations:`` with code SG207) in the study file accounts for it
(then a notice; its message never says "no explanation").

Same configuration = same configuration key (the measurement key without GPU
and software versions, :mod:`studygen.records.keys`) and, for a latency, the
same timing signature (:func:`studygen.study.timing.timing_signature`: CUDA
graphs, data transfers, spin-wait, host waits, with TensorRT's defaults for
unset flags), the key SG212 and the generic template's latency tables split
by: a run timed with CUDA graphs and no data transfers is not compared with
one timed with transfers and without graphs. Of the latencies trtexec prints for one run,
only its compute timing is compared (:func:`studygen.study.timing.compute_rows`:
GPU compute time where the run gives it, else host latency, else end-to-end
time): host latency and end-to-end time restate the GPU compute time with host
work added, so judging them too reports one configuration up to three times,
and a gap in them alone is a gap in the host. Enqueue time and the input and
output copy times are never compared
(:data:`studygen.study.timing.HOST_TIMINGS`): they time the host and its link
to the GPU, which a platform (GPU model, software versions) does not name.
For a kernel time, the same configuration is also a profile of the same kind
(:func:`profile_kind`): a ``collect run --cpu`` profile holds CPU operators'
self time per forward (:func:`studygen.records.profile_spread.cpu_operator_profile`),
another quantity than a GPU profile's kernel time of the same group, so the
two are never two platforms of one figure, nor a pair with a typical ratio
(an H100 trial: a CPU job's groups at 0.06x to 30x its GPU job's, seven
"anomalies" off their median). CPU profiles of two CPUs are compared as GPU
profiles of two GPUs are. A kernel time totalled over a whole Kineto trace
(no profiler steps) and one averaged per step are two quantities too
(:func:`studygen.study.timing.how_measured`): a trial's A100 whole-trace
totals were held against a V100's means per step as two platforms of one
figure.
Two comparisons:

1. Listed figures: per configuration, the figures are grouped by platform
   (GPU and software signature) and each platform's median is compared.
   Across software versions of one GPU the figure itself is the
   expectation: the slowest version at least ``factor`` times the fastest
   is an anomaly. Across GPUs a ratio says nothing by itself (an L4 is
   slower than an RTX 4090); what departs from the study's own pattern
   does. Each pair of platforms on different GPUs has a typical ratio: the
   median of its ratios over every configuration both measured, of one
   kind of figure, backend and mode, for a latency one timing signature,
   and for a kernel time one kind of profile. A configuration whose ratio
   is at least ``factor`` times that typical one, or at most its
   ``1 / factor``, is an anomaly, reported
   on the platform that is slower than the pattern. With fewer than
   :data:`MIN_SHARED` shared configurations the pair has no pattern and
   nothing is said: a notice there would fire on every two-GPU study for
   a difference that is the GPUs', and be waived unread.
2. A listed figure against a stated range: a source may give a range over
   rows it does not list (``value_min``/``value_max`` with ``range_over``).
   A listed figure of the same quantity (same configuration fields except
   shape, where the range gives none, since it spans every shape) and, of a
   kernel time, the same kind of profile, on another platform is compared
   with the range: an anomaly when the figure is at
   least ``factor`` times the range's maximum, or at most its minimum divided
   by ``factor``. A latency is never a range (the record schema has no
   latency range), so no timing signature is compared here.

A platform's median of several rows prints with the digits they carry
(:func:`studygen.numbers.format_pooled`), and the words name the batch and,
for a latency, the timing.
Zero and negative figures (counts, differences) are not compared by ratio.
The finding sits on the listed figure's record pointer and carries its
measurement key, so an explanation entry can name it.

Case (issue 22, new-user trial): fp32 enqueue time 0.0496826 ms on a
GTX 1070 (TensorRT 8.2.3, transfers on, no graphs) reported as 25.44x an
H100 run timed with ``--useCudaGraph --noDataTransfers`` (0.00195312 ms),
and a device-to-host copy of a few microseconds 1.78x across machines.

Case (new-user trial, trtexec logs of an RTX 4090, an L4 and an A100): every
L4 figure, at 2.2x to 2.7x the RTX 4090's, was an error (24 of them), while
the one figure that broke the pattern, an int8 engine at 640 x 640, batch 1
on the A100 (1.71 ms, 1.67x off the A100/RTX 4090 typical ratio), read like
the rest; and a pooled median printed as 5.606999999999999 ms.

Case (seed): fp16 GEMM time 0.409 ms on B200 with TensorRT 11.1 at 800 x 1067,
against 0.19 to 0.21 ms stated over the other rows (about 2x); the source
does not say why.
"""

from __future__ import annotations

import math
from typing import NamedTuple
from itertools import combinations
from statistics import median

from ..findings import Finding
from ..numbers import format_number, format_pooled
from ..records.keys import MeasurementKey, blanking
from ..records.kinds import NOT_MEASURED_STATISTIC, Kind
from ..records.profile_spread import cpu_operator_profile
from ..study.rows import Row
from ..study.timing import batch_words, compute_rows, how_measured, timing_name, timing_signature
from .base import row_finding

DEFAULT_FACTOR = 1.5
# Configurations two platforms of different GPUs must share before their typical ratio is known: with two, the
# median is their mean, which lies between them, so one departs above it and the other below and neither can be
# told to be the odd one; with one, the ratio is its own typical and could never depart.
MIN_SHARED = 3


_without_shape_and_platform = blanking("shape", "gpu", "software")

# What a kernel-time profile timed (profile_kind), and what a CPU operator profile's figures are called
GPU_KERNELS, CPU_OPERATORS = "GPU kernels", "CPU operators"
CPU_OPERATOR_TIME = "CPU operator self time"


def profile_kind(row: Row) -> str | None:
    """What a kernel-time row's profile timed: :data:`CPU_OPERATORS` (CPU
    operators' self time per forward,
    :func:`studygen.records.profile_spread.cpu_operator_profile`) or
    :data:`GPU_KERNELS`; None for a row of any other kind. Figures of two
    kinds of profile are two quantities: SG207 compares them nowhere."""
    if row.kind != Kind.KERNEL_TIME:
        return None
    return CPU_OPERATORS if cpu_operator_profile(row.record, row.result) else GPU_KERNELS


def _quantity(row: Row) -> MeasurementKey:
    """What a range stated over unlisted rows is compared by: the configuration
    key (no GPU, no software versions) without the shape, which such a range spans."""
    return _without_shape_and_platform(row.key)


def compared_rows(rows, compute: list[Row] | None = None) -> list[Row]:
    """The rows of ``rows`` whose figures take part, in row order: a positive
    value (ratios of counts and differences say nothing) and, of a latency,
    only its run's compute timing (``compute``, else :func:`studygen.study.timing.compute_rows`
    of ``rows``; never a timing of the host's part of a run)."""
    compute = {id(row) for row in (compute_rows(rows) if compute is None else compute)}
    return [row for row in rows
            if row.value is not None and row.statistic != NOT_MEASURED_STATISTIC and row.value > 0
            and (row.kind != Kind.LATENCY or id(row) in compute)]


def _platform(row: Row) -> tuple[str, str]:
    return (row.gpu or "", row.software or "")


def _platform_text(row: Row) -> str:
    gpu = row.gpu or "GPU not stated"
    software = row.software or "versions not stated"
    return f"{gpu}, {software}"


def _configuration_words(study, row: Row) -> str:
    """``fp16 batch 1 kernel time GEMM/MatMul at 800x1067`` or ``bf16 eager batch 1 kernel time attention``
    style words for the row's configuration: no GPU and no software versions,
    which the finding names beside each figure (SG203's ``_what`` names a
    measurement, its platform included)."""
    # the batch before the kind: two batches of one shape must not read alike, and an explanation's match
    # on "kernel time attention: " keeps naming its group; rows without one share the key, nothing to tell apart
    # a CPU profile's groups hold operators' self time: "kernel time" would name the GPU profile it is not
    kind_words = CPU_OPERATOR_TIME if profile_kind(row) == CPU_OPERATORS else row.kind.replace("_", " ")
    parts = [study.variant_label(row.variant), batch_words(row) if row.batch is not None else "", kind_words]
    if row.kind == Kind.LATENCY:
        # trtexec gives several timings of one run (GPU compute, enqueue, host latency): say which
        parts.append(f"({timing_name(row)})")
    if row.group:
        parts.append(row.group)
    if row.statistic and row.statistic not in ("unspecified",):
        parts.append(row.statistic)
    shape = f" at {row.shape}" if row.shape else ""
    return " ".join(p for p in parts if p) + shape


def _unit(row: Row) -> str:
    return f" {row.unit}" if row.unit and row.unit != "AP" else ""


def _jobs(rows: list[Row]) -> str:
    jobs = list(dict.fromkeys(r.job_id for r in rows))
    return f"job {jobs[0]}" if len(jobs) == 1 else f"jobs {', '.join(jobs)}"


def _pattern(row: Row) -> tuple:
    """What a platform pair's typical ratio is taken over: one kind of figure
    (latency, kernel time, plan size), metric, backend and mode, for a
    latency its timing signature (a GPU pair's ratio in GPU compute time
    says nothing of its ratio in host latency, nor eager's of compiled),
    and for a kernel time its kind of profile (:func:`profile_kind`) and
    what its figures span (:func:`~studygen.study.timing.how_measured`)."""
    return row.kind, row.metric, row.backend, row.mode, how_measured(row), profile_kind(row)


class Cell:
    """One configuration (configuration key, timing signature, kind of
    profile) on one platform: its rows and their median, the figure compared.
    Not frozen: one is made a platform of each configuration (a frozen class
    sets each field through ``object.__setattr__``)."""

    __slots__ = ("rows", "median")

    def __init__(self, rows: list[Row], median: float):
        self.rows, self.median = rows, median

    @property
    def text(self) -> str:
        """``5.607 ms on NVIDIA A100, versions not stated (jobs a, b)``: the median
        at the digits its rows carry (:func:`studygen.numbers.format_pooled`)."""
        first = self.rows[0]
        figure = format_pooled(self.median, [r.value for r in self.rows])
        return f"{figure}{_unit(first)} on {_platform_text(first)} ({_jobs(self.rows)})"


def configuration_cells(compared: list[Row]) -> dict[tuple, dict[tuple, Cell]]:
    """Configuration (configuration key, timing signature of a latency, kind
    of profile of a kernel time: :func:`profile_kind`) → platform → its
    :class:`Cell`, for the compared rows (:func:`compared_rows`), in row order."""
    groups: dict[tuple, dict[tuple, list[Row]]] = {}
    for row in compared:
        # how_measured and profile_kind, each asked only of the kind it tells apart (the others' are None)
        kind = row.kind
        measured = timing_signature(row) if kind == Kind.LATENCY else how_measured(row) if kind == Kind.KERNEL_TIME else None
        configuration = (row.key.config(), measured, profile_kind(row) if kind == Kind.KERNEL_TIME else None)
        groups.setdefault(configuration, {}).setdefault(_platform(row), []).append(row)
    # one row (nearly every platform): its value is its median, without sorting a list of one
    return {config: {p: Cell(rows, rows[0].value if len(rows) == 1 else median([r.value for r in rows]))
                     for p, rows in platforms.items()}
            for config, platforms in groups.items()}


def typical_ratios(cells: dict[tuple, dict[tuple, Cell]]) -> dict[tuple, dict[tuple, tuple[float, int]]]:
    """Pattern (:func:`_pattern`) → ``(platform a, platform b)`` (a sorts
    before b) → the median of the ratios a / b of every configuration both
    platforms measured, and how many there are, for platforms on different
    GPUs: the pair's pattern in this study, taken once for the whole check.
    Kept by pattern first, so that a pair of one configuration is looked up
    by its two platforms alone (a key holding the pattern hashed its dozen
    parts again for each of a configuration's pairs).

    The configurations measured on one set of platforms (in a study, most
    are measured on all of them) give their ratios as one list each, pair by
    pair in one order (:func:`_cross_pairs`), turned into one list a pair at
    the end: a pair is hashed once a platform set, not once a configuration."""
    by_set: dict[tuple, tuple[list[tuple[int, int]], list[list[float]]]] = {}
    for platforms in cells.values():
        ordered = tuple(sorted(platforms))
        medians = [platforms[platform].median for platform in ordered]
        found = by_set.get(key := (_cell_pattern(platforms), ordered))
        if found is None:
            found = by_set[key] = (_cross_pairs(ordered), [])
        found[1].append([medians[first] / medians[second] for first, second in found[0]])
    ratios: dict[tuple, dict[tuple, list[float]]] = {}
    for (pattern, ordered), (pairs, per_configuration) in by_set.items():
        by_pair = ratios.setdefault(pattern, {})
        for (first, second), shared in zip(pairs, zip(*per_configuration)):
            by_pair.setdefault((ordered[first], ordered[second]), []).extend(shared)
    return {pattern: {pair: (median(shared), len(shared)) for pair, shared in by_pair.items()}
            for pattern, by_pair in ratios.items()}


def _cross_pairs(ordered: tuple) -> list[tuple[int, int]]:
    """``(i, j)``, i < j, of each two platforms of ``ordered`` (sorted) on
    different GPUs, in the order of ``combinations``."""
    return [(first, second) for first, second in combinations(range(len(ordered)), 2)
            if ordered[first][0] != ordered[second][0]]


def _cell_pattern(platforms: dict[tuple, Cell]) -> tuple:
    """The :func:`_pattern` of one configuration's cells (platform → :class:`Cell`),
    the same for each: a configuration (:func:`configuration_cells`) is a
    configuration key, which holds the kind, metric, backend and mode, a
    timing signature and a kind of profile. Taken once a configuration, not
    once a pair of its platforms (20 platforms make 190 pairs)."""
    return _pattern(next(iter(platforms.values())).rows[0])


def _same_gpu_reasons(platforms: dict[tuple, Cell], factor: float) -> dict[tuple, list[str]]:
    """Platform → why it is an anomaly among the versions of its GPU: per GPU,
    the slowest platform when it is at least ``factor`` times the fastest."""
    reasons: dict[tuple, list[str]] = {}
    by_gpu: dict[str, list[tuple]] = {}
    medians = {}  # platform -> its median, read once (a key function looked it up twice a platform)
    for platform, cell in platforms.items():
        by_gpu.setdefault(platform[0], []).append(platform)
        medians[platform] = cell.median
    for same_gpu in by_gpu.values():
        high = max(same_gpu, key=medians.__getitem__)
        low = min(same_gpu, key=medians.__getitem__)
        ratio = medians[high] / medians[low]
        if ratio >= factor:
            reasons.setdefault(high, []).append(
                f"is {format_number(ratio, 2)}x the lowest version on this GPU ({platforms[low].text})")
    return reasons


class PairPattern(NamedTuple):
    """The typical ratios of one set of platforms (one pattern), looked up
    once a set: ``pairs``, ``(a, b, typical ratio of a / b, configurations
    both measured)`` for each cross-GPU pair of platform indexes (a < b) that
    shares :data:`MIN_SHARED` or more configurations (a pair with fewer has
    no pattern to depart from); and, where those pairs join every platform
    they name, a ``scale`` per platform index (None for a platform in no such
    pair) with ``slack``, the most any pair's typical ratio departs from the
    ratio of its two scales (1 where the typical ratios agree with each
    other, as when every GPU is a fixed factor faster than another).

    A configuration's platform medians divided by their scales then bound
    every pair's departure at once (:meth:`departs_nowhere`): with ``n`` a
    median over its scale, a pair's departure ``(m_a / m_b) / typical_ab``
    is ``(n_a / n_b) * (s_a / s_b) / typical_ab``, so it lies within
    ``max(n) / min(n) * slack`` of 1 either way."""

    pairs: list[tuple[int, int, float, int]]
    scale: list[float | None] | None
    slack: float

    @classmethod
    def of(cls, ordered: tuple, typical_by_pair: dict[tuple, tuple[float, int]]) -> PairPattern:
        """The pattern of the platforms ``ordered`` (sorted), from their pattern's typical ratios
        (:func:`typical_ratios`, one pattern's dict)."""
        pairs = []
        for first, second in _cross_pairs(ordered):
            usual, shared = typical_by_pair[(ordered[first], ordered[second])]
            if shared >= MIN_SHARED:
                pairs.append((first, second, usual, shared))
        scale = _scales(len(ordered), pairs)
        offsets = [] if scale is None else [scale[a] / scale[b] / usual for a, b, usual, _ in pairs]
        # figures hundreds of orders of magnitude apart make a scale or offset of 0 or infinity: no bound, each pair
        if scale is None or not all(0 < value < math.inf for value in [*offsets, *(value for value in scale if value is not None)]):
            return cls(pairs, None, math.inf)
        return cls(pairs, scale, max(max(offset, 1 / offset) for offset in offsets))

    def departs_nowhere(self, medians: list[float], factor: float) -> bool:
        """Whether no pair of ``medians`` (one per platform index) can depart
        from its typical ratio by ``factor`` or more either way (the bound in
        the class docstring; a hair of margin for rounding): when True, the
        pairs need not be looked at one by one. False when there is no bound."""
        if self.scale is None:
            return not self.pairs
        normal = [median / scale for median, scale in zip(medians, self.scale) if scale is not None]
        low = min(normal)
        return low > 0 and max(normal) / low * self.slack * (1 + 1e-9) < factor


def _scales(count: int, pairs: list[tuple[int, int, float, int]]) -> list[float | None] | None:
    """A scale per platform index such that each pair's typical ratio is about
    the ratio of its scales: 1 for the platform in the most pairs, each other
    reached through a pair from one already scaled (``s_b = s_a / typical_ab``);
    None for a platform in no pair. None (no bound) when the pairs do not join
    every platform they name."""
    if not pairs:
        return None
    degree = [0] * count
    for a, b, _, _ in pairs:
        degree[a] += 1
        degree[b] += 1
    scale: list[float | None] = [None] * count
    scale[degree.index(max(degree))] = 1.0
    placed = True
    while placed:
        placed = False
        for a, b, usual, _ in pairs:
            if scale[a] is not None and scale[b] is None:
                scale[b], placed = scale[a] / usual, True
            elif scale[b] is not None and scale[a] is None:
                scale[a], placed = scale[b] * usual, True
    named = {index for a, b, _, _ in pairs for index in (a, b)}
    return scale if all(scale[index] is not None for index in named) else None


def _cross_gpu_reasons(platforms: dict[tuple, Cell], typical: dict[tuple, dict[tuple, tuple[float, int]]],
                       factor: float, known: dict | None = None) -> dict[tuple, list[str]]:
    """Platform → why its figure departs from the study's pattern against a
    platform of another GPU: the ratio of the two is at least ``factor``
    times, or at most 1 / ``factor`` of, the median of that pair's ratios
    (:func:`typical_ratios`), when they share :data:`MIN_SHARED` or more
    configurations; the reason goes to the platform that is slower than the
    pattern. ``known``: the :class:`PairPattern` of each set of platforms,
    made once a set (by pattern and platforms) where a check passes one
    dict for all its configurations. A configuration whose medians depart
    nowhere by the pattern's bound (:meth:`PairPattern.departs_nowhere`:
    nearly every one) is done with without looking at its pairs."""
    reasons: dict[tuple, list[str]] = {}
    ordered = tuple(sorted(platforms))
    key = (_cell_pattern(platforms), ordered)
    pattern = None if known is None else known.get(key)
    if pattern is None:
        pattern = PairPattern.of(ordered, typical[key[0]])
        if known is not None:
            known[key] = pattern
    medians = [platforms[platform].median for platform in ordered]
    if pattern.departs_nowhere(medians, factor):
        return reasons
    for a, b, usual, shared in pattern.pairs:
        departure = (medians[a] / medians[b]) / usual
        if departure >= factor:
            slow, fast, usual_slow = a, b, usual
        elif departure * factor <= 1:
            slow, fast, usual_slow, departure = b, a, 1 / usual, 1 / departure
        else:
            continue
        reasons.setdefault(ordered[slow], []).append(
            f"is {format_number(medians[slow] / medians[fast], 2)}x {platforms[ordered[fast]].text}, "
            f"{format_number(departure, 2)}x the {format_number(usual_slow, 2)}x typical of these two platforms "
            f"(median over the {shared} configurations both measured)")
    return reasons


def listed_anomalies(study, compared: list[Row], factor: float) -> tuple[list[Finding], set[int]]:
    """Comparison 1 over the compared rows (:func:`compared_rows`); also the ids of rows already reported."""
    cells = configuration_cells(compared)
    typical = typical_ratios(cells)
    findings, reported, known = [], set(), {}
    for platforms in cells.values():
        if len(platforms) < 2:
            continue
        reasons = _same_gpu_reasons(platforms, factor)
        for platform, more in _cross_gpu_reasons(platforms, typical, factor, known).items():
            reasons.setdefault(platform, []).extend(more)
        for platform in sorted(reasons):
            cell = platforms[platform]
            findings.append(row_finding(
                "SG207", cell.rows[0],
                f"{_configuration_words(study, cell.rows[0])}: {cell.text} {'; and '.join(reasons[platform])}, "
                f"at or above the anomaly factor {format_number(factor, 2)}",
                hint="add an explanation (code SG207, key or match) to the study file, or re-measure"))
            reported.update(id(r) for r in cell.rows)
    return findings, reported


def range_anomalies(study, compared: list[Row], factor: float, reported: set[int]) -> list[Finding]:
    """Comparison 2: listed figures (the compared rows, :func:`compared_rows`)
    against ranges stated over unlisted rows."""
    ranges = [r for r in study.rows if r.value is None and r.value_min is not None and r.value_min > 0]
    findings = []
    for stated in ranges:
        for row in compared:
            if (id(row) in reported
                    or _platform(row) == _platform(stated)
                    or _quantity(row) != _quantity(stated)
                    or profile_kind(row) != profile_kind(stated)
                    or (stated.shape and row.shape != stated.shape)):
                continue
            if row.value >= factor * stated.value_max:
                ratio, side = row.value / stated.value_max, "above"
            elif row.value * factor <= stated.value_min:
                ratio, side = stated.value_min / row.value, "below"
            else:
                continue
            findings.append(row_finding(
                "SG207", row,
                f"{_configuration_words(study, row)}: {format_number(row.value)}{_unit(row)} "
                f"on {_platform_text(row)} "
                f"(job {row.job_id}) is {format_number(ratio, 2)}x {side} the {format_number(stated.value_min)} to "
                f"{format_number(stated.value_max)}{_unit(stated)} stated over the other rows (job {stated.job_id}: "
                f"{stated.range_over}), at or above the anomaly factor {format_number(factor, 2)}",
                hint="add an explanation (code SG207, key or match) to the study file, or re-measure"))
            reported.add(id(row))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    factor = float(study.spec.get("anomaly_factor", DEFAULT_FACTOR))
    compared = compared_rows(study.rows, study.compute_timing_rows)
    findings, reported = listed_anomalies(study, compared, factor)
    return findings + range_anomalies(study, compared, factor, reported)
