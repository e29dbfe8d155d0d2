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
per-metric ``tolerances``.

Declared sources (``spread_sources`` in the study file): independent
compilations (``compilation``: every job that runs ``torch.compile`` compiles
the model anew, and Inductor may pick other kernels each time) and engine
builds (``engine_build``: every TensorRT job builds its own plan, with its own
tactic choice). Two jobs that each compiled or built their own are expected
to differ by more than the repeat-to-repeat spread inside either job; a
declared source says so, with its reason, and, where the study measured it,
how far (``up_to_percent``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..records.kinds import Kind
from .rows import Row

# Fewest values a figure's spread is read from: what the bootstrap needs a side
# (studygen.render.stats.MIN_REPEATS, which this layer cannot import; a test keeps them equal).
MIN_SPREAD_VALUES = 3

REPEAT_MEDIANS = "repeat medians"
PROFILED_ITERATIONS = "profiled iterations"


@dataclass(frozen=True)
class Spread:
    """The values a figure summarises: ``values`` (in the row's unit) and
    ``source`` (:data:`REPEAT_MEDIANS` or :data:`PROFILED_ITERATIONS`)."""

    values: tuple[float, ...]
    source: str

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)


def spread_of(study, row: Row) -> Spread | None:
    """The spread of one flattened row from its own record, None when the
    record holds fewer than :data:`MIN_SPREAD_VALUES` values behind it (or the
    row has no single value: a range, a not-measured result)."""
    if row.value is None:  # a range, a not-measured result, a share given as a range
        return None
    if row.kind == Kind.LATENCY:
        values = row.repeat_medians()
        source = REPEAT_MEDIANS
    elif row.kind == Kind.KERNEL_TIME:
        values = _iteration_values(row.result, row.group)
        source = PROFILED_ITERATIONS
    else:
        return None
    if len(values) < MIN_SPREAD_VALUES:
        return None
    return Spread(tuple(float(v) for v in values), source)


def _iteration_values(result: dict, group: str | None) -> list[float]:
    """Per-iteration kernel times (ms) of ``group`` (``total``: the profiled
    total); empty when an iteration lacks the group (no complete sample)."""
    values = []
    for iteration in result.get("per_iteration") or []:
        if group == "total":
            values.append(iteration["profiled_total_ms"])
        elif group in (iteration.get("groups") or {}):
            values.append(iteration["groups"][group])
        else:
            return []
    return values


# ---- declared sources of job-to-job spread -------------------------------

COMPILATION = "compilation"
ENGINE_BUILD = "engine_build"

# What a declared source covers: the rows whose job made its own compiled
# model or engine (a predicate on the flattened row), and how render words it.
SOURCE_APPLIES = {
    COMPILATION: lambda row: row.mode == "compile",
    ENGINE_BUILD: lambda row: row.backend == "tensorrt",
}
SOURCE_WORDS = {COMPILATION: "independent compilations", ENGINE_BUILD: "independent engine builds"}


@dataclass(frozen=True)
class DeclaredSource:
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
