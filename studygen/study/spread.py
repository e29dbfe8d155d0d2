"""The spread a figure's own record gives it, and the sources of job-to-job
spread a study file declares. SG203 (same measurement across jobs) and SG204
(noise verdicts) read both from here, so they agree on what counts as a
measured spread.

A figure has a spread when its record holds at least :data:`MIN_SPREAD_VALUES`
values it summarises:

- a latency: its per-repeat medians (``distribution.repeat_medians_ms``,
  written by ``collect run`` and by a repeated trtexec ingest);
- a kernel time per group, or the profiled total: the figure of each profiled
  iteration (``per_iteration[*].groups[group]`` or
  ``per_iteration[*].profiled_total_ms``, written by ``collect torch-profile``
  from a trace with ProfilerStep#N ranges).

Everything else (a transcribed figure, a plan size, an AP, a single-run
latency) has no spread of its own: SG203 compares it with the study file's
per-metric ``tolerances`` (:func:`tolerance`), also under a declared source
below, and never closer than its timer resolves (:mod:`studygen.study.resolution`).

A compiled figure also has the spread between its independent compilations
(:func:`compilation_spread`: ``compilations[*].median_ms`` of a latency,
``compilations[*].groups`` of a kernel time), and a figure several jobs
report has the spread between those jobs (:data:`JOBS`).
:func:`measured_spreads` lists every spread measured for one figure;
``studygen diff`` holds a change of a figure against the widest of them.

Declared sources (``spread_sources`` in the study file): independent
compilations (``compilation``: every job that runs ``torch.compile`` compiles
the model anew, and Inductor may pick other kernels each time), engine
builds (``engine_build``: every TensorRT job builds its own plan, with its own
tactic choice) and jobs (``job``: any two jobs, run in another session, on
another machine of the same model or on another day, for every figure; an
eager re-run on the same GPU model differed by 0.5 % in one kernel group
where each job's own spread was smaller). Two jobs that each compiled or built their own are expected
to differ by more than the repeat-to-repeat spread inside either job; a
declared source says so, with its reason, and, where the study measured it,
how far (``up_to_percent``).
"""

from __future__ import annotations

from typing import NamedTuple

from ..records.kinds import Kind, group_times_ms
from .rows import Row

# Fewest values a figure's spread is read from: what the bootstrap needs a side
# (studygen.render.stats.MIN_REPEATS, which this layer cannot import; a test keeps them equal).
MIN_SPREAD_VALUES = 3

REPEAT_MEDIANS = "repeat medians"
PROFILED_ITERATIONS = "profiled iterations"
COMPILATIONS = "compilations"  # one value per independent compilation of a compiled cell
JOBS = "jobs"  # one value per job reporting the same measurement key


class Spread(NamedTuple):
    """The values a figure summarises: ``values`` (in the row's unit) and
    ``source`` (:data:`REPEAT_MEDIANS`, :data:`PROFILED_ITERATIONS`,
    :data:`COMPILATIONS` or :data:`JOBS`)."""

    values: tuple[float, ...]
    source: str

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)

    @property
    def width(self) -> float:
        """``high - low``, in the row's unit: how far apart the values it summarises lie."""
        return self.high - self.low


def spread_of(row: Row) -> Spread | None:
    """The spread of one flattened row from its own record, None when the
    record holds fewer than :data:`MIN_SPREAD_VALUES` values behind it (or the
    row has no single value: a range, a not-measured result)."""
    if row.value is None:  # a range, a not-measured result, a share given as a range
        return None
    if row.kind == Kind.LATENCY:
        values = row.repeat_medians_ms or []
        source = REPEAT_MEDIANS
    elif row.kind == Kind.KERNEL_TIME:
        values = group_times_ms(row.result.get("per_iteration") or [], row.group) or []
        source = PROFILED_ITERATIONS
    else:
        return None
    if len(values) < MIN_SPREAD_VALUES:
        return None
    return Spread(_as_floats(values), source)


def compilation_spread(row: Row) -> Spread | None:
    """The spread between the independent compilations of a compiled row
    (``collect run`` with ``run.compilations``): each compilation's median of
    a latency (``compilations[*].median_ms``), each compilation's time of the
    row's kernel group (``compilations[*].groups[group]``, ``total``: its
    ``profiled_total_ms``; a compilation without kernels of the group counts
    0 ms: :func:`studygen.records.kinds.group_times_ms`). None for other rows
    and for fewer than two compilations."""
    if row.value is None:
        return None
    if row.kind == Kind.LATENCY:
        values = row.compilation_medians()
    elif row.kind == Kind.KERNEL_TIME:
        values = group_times_ms(row.result.get("compilations") or [], row.group) or []
    else:
        return None
    if len(values) < 2:
        return None
    return Spread(_as_floats(values), COMPILATIONS)


def compared_spreads(a: Row, b: Row) -> tuple[Spread | None, Spread | None]:
    """The samples two jobs' rows of one measurement are compared on (SG203):
    their compilations (:func:`compilation_spread`) where both figures are
    compiled cells of two or more compilations, else each one's repeats or
    profiled iterations (:func:`spread_of`). A compiled figure is the median
    of its compilations, and each compilation (its own process, its own
    Inductor choices) moves every repeat it times: the repeat medians of two
    compilations are no independent samples of the figure, and a test of
    them takes the scatter inside a compilation for the figure's. Case (a
    trial of ``collect run`` on an H100): three like jobs of a host-bound ViT
    compiled twice each, compilations 3.66 and 4.65 ms in the first job, 4.82
    and 5.29 in the second; their 10 and 10 repeat medians read as
    disagreeing at p < 0.0001, two errors on a re-run of one configuration."""
    compiled = compilation_spread(a), compilation_spread(b)
    if all(spread is not None for spread in compiled):
        return compiled
    return spread_of(a), spread_of(b)


def _as_floats(values) -> tuple[float, ...]:
    """``values`` as floats, a float read from a record kept as it is (a
    :class:`~studygen.numbers.SourceFloat` keeps the digits its source
    printed: ``studygen diff`` prints a spread's ends with them)."""
    return tuple(v if isinstance(v, float) else float(v) for v in values)


def measured_spreads(row: Row) -> list[Spread]:
    """Every spread measured for one row from its own record: its repeats or
    profiled iterations (:func:`spread_of`), then its compilations
    (:func:`compilation_spread`); ``[]`` when it has none. The spread between
    jobs needs the other jobs' rows: build it as ``Spread(values, JOBS)``."""
    return [spread for spread in (spread_of(row), compilation_spread(row)) if spread is not None]


def own_spread_width(row: Row) -> float | None:
    """The widest spread (row units) a row's own record measures for it: its
    repeats or profiled iterations, or its compilations (neither reads the
    study); None when it has none. The README prints the row to the first
    digit this width moves (:func:`studygen.numbers.readable_decimals`)."""
    widths = [spread.width for spread in measured_spreads(row)]
    return max(widths) if widths else None


def tolerance(study, row: Row) -> float:
    """Absolute tolerance (row units) the study file's ``tolerances`` give the
    row's metric, looked up by the metric (``coco``, ``gpu_compute``), then the
    kind (``latency``, ``plan_size``), then ``<kind>_<unit>`` (``latency_ms``);
    0.0 when the study sets none. It stands in for a spread a figure does not
    have (SG203, ``studygen diff``)."""
    table = study.spec.get("tolerances") or {}
    for name in tolerance_keys(row):
        if name in table:
            return float(table[name])
    return 0.0


def tolerance_keys(row: Row) -> list[str]:
    """The ``tolerances`` keys that set ``row``'s tolerance, in the order
    :func:`tolerance` looks them up: its metric, its kind, ``<kind>_<unit>``
    (a kernel time in ms: ``kernel_time``, ``kernel_time_ms``), each once."""
    unit = (row.unit or "").lower()
    names = (row.metric, row.kind, f"{row.kind}_{unit}" if unit else None)
    return [name for name in dict.fromkeys(names) if name]


# ---- declared sources of job-to-job spread -------------------------------

COMPILATION = "compilation"
ENGINE_BUILD = "engine_build"
JOB = "job"

# What a declared source covers: the rows whose job made its own compiled
# model or engine (a predicate on the flattened row), and how render words it.
SOURCE_APPLIES = {
    COMPILATION: lambda row: row.mode == "compile",
    ENGINE_BUILD: lambda row: row.backend == "tensorrt",
    JOB: lambda row: True,
}
SOURCE_WORDS = {COMPILATION: "independent compilations", ENGINE_BUILD: "independent engine builds",
                JOB: "independent jobs"}


class DeclaredSource(NamedTuple):
    """One ``spread_sources`` entry: ``source`` (a key of :data:`SOURCE_APPLIES`),
    ``reason`` (why the study expects it), ``up_to_percent`` (how far two
    jobs may differ, relative to their mean, in %; None: not bounded)."""

    source: str
    reason: str
    up_to_percent: float | None

    @property
    def words(self) -> str:
        return SOURCE_WORDS[self.source]

    def covers(self, row: Row) -> bool:
        return SOURCE_APPLIES[self.source](row)


def declared_sources(study) -> list[DeclaredSource]:
    """The study file's ``spread_sources`` (the schema allows only the known sources)."""
    return [DeclaredSource(entry["source"], entry["reason"], entry.get("up_to_percent"))
            for entry in study.spec.get("spread_sources") or []]


def declared_source_of(study, a: Row, b: Row) -> DeclaredSource | None:
    """The first declared source that covers both rows (each job compiled or
    built its own), None when none does."""
    for source in declared_sources(study):
        if source.covers(a) and source.covers(b):
            return source
    return None
