"""A compiled cell over every compilation of every job that measured it.

A *cell* is one measurement key of a latency (variant, shape, mode, GPU,
software, batch, ...; :class:`~studygen.records.keys.MeasurementKey`) timed
one way (:func:`~studygen.study.timing.measurement_of`): every job that
reports it measured the same thing, and every independent
compilation of every such job is one sample of what compiling the cell gives.
So the cell's figure is the median over all of them, its range their min to
max, and a ratio of two cells ranges over every pair of their compilations.

Each job's compilations come from its latency result (``compilations[*]``:
number, ``median_ms``) and, for the kernel profile of each, from the
kernel_time result beside it in the record (``compilations[*].groups`` and,
for the groups that differed between that job's compilations,
``compilations[*].kernels``). A job without ``compilations`` (eager, an
ingested or older record) counts as one compilation: its figure and its
profile (the result's ``groups``).

Case (issue 26): the committed FP8 job at 800 x 800 measured 8.984 to 9.491 ms
over 3 compilations and a re-run 8.346 to 10.123 ms over 3 more; the README
listed each job's range by itself, and its ratio column compared one job's
figures with the other's.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import NamedTuple

from ..records.kinds import Kind
from .attribution import Attribution, attribute, kernel_result_of, median_groups
from .rows import Row
from .timing import rows_by_measurement, variant_free_measurement


@dataclass(frozen=True)
class Compilation:
    """One independent compilation of a cell (or one job's figure without
    any): the ``job_id``, its ``number`` in that job (None: the job records no
    compilations), its ``median_ms``, its kernel profile ``groups`` (group ->
    ms per forward; None without a profile) and the kernels listed for the
    groups that differed in its job (group -> ``[{name, time_ms, grid, block,
    ...}]``; empty when none are listed)."""

    job_id: str
    number: int | None
    median_ms: float
    groups: dict[str, float] | None
    kernels: dict[str, list[dict]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``compilation 3 of job h200-compile`` (``job h200-compile`` without a number)."""
        return f"compilation {self.number} of job {self.job_id}" if self.number is not None else f"job {self.job_id}"


def job_compilations(row: Row) -> list[Compilation]:
    """The compilations of one latency row's job, in compilation order (one
    from its figure when the result keeps none; ``[]`` for a row without a
    value)."""
    if row.kind != Kind.LATENCY or row.value is None:
        return []
    kernel = kernel_result_of(row) or {}
    profiles = {entry["compilation"]: entry for entry in kernel.get("compilations") or []}
    entries = row.result.get("compilations") or []
    if not entries:
        groups = {group["group"]: group["time_ms"] for group in kernel.get("groups") or [] if "time_ms" in group}
        return [Compilation(row.job_id, None, row.value, groups or None)]
    found = []
    for entry in entries:
        profile = profiles.get(entry["compilation"]) or {}
        found.append(Compilation(row.job_id, entry["compilation"], entry["median_ms"],
                                 dict(profile["groups"]) if "groups" in profile else None,
                                 dict(profile.get("kernels") or {})))
    return found


class PooledCell(NamedTuple):
    """Every latency row of one measurement key (one per job, in record order)
    and every compilation of them (job by job, in compilation order)."""

    rows: tuple[Row, ...]
    compilations: tuple[Compilation, ...]

    @property
    def first(self) -> Row:
        return self.rows[0]

    @property
    def jobs(self) -> list[str]:
        return list(dict.fromkeys(row.job_id for row in self.rows))

    @property
    def medians(self) -> list[float]:
        return [c.median_ms for c in self.compilations]

    @property
    def median_ms(self) -> float:
        """The median over every compilation's median (ms): with one job,
        the record's own figure (``collect run`` writes that median)."""
        return statistics.median(self.medians)

    @property
    def low(self) -> float:
        return min(self.medians)

    @property
    def high(self) -> float:
        return max(self.medians)

    @property
    def profiled(self) -> list[Compilation]:
        return [c for c in self.compilations if c.groups is not None]

    @property
    def numbered(self) -> bool:
        """Whether the cell rests on numbered compilations (``collect run``
        with ``run.compilations``), not only on its jobs' figures."""
        return any(c.number is not None for c in self.compilations)

    def same_job_pairs(self, other: "PooledCell") -> list[tuple[Row, Row]]:
        """``(row of this cell, row of other)`` for each two rows of one job:
        the pairs a figure comparing the two cells compares within a job."""
        return [(x, y) for x in self.rows for y in other.rows if x.job_id == y.job_id]

    def ratio_bounds(self, other: "PooledCell") -> tuple[float, float]:
        """``(least, most)`` of this cell's compilation medians over the
        other's, over every pair of their compilations (``len(compilations)``
        times the other's pairs): the least median over the other's most,
        the most over its least. Every median is positive and a rounded
        quotient never decreases with its dividend nor grows with its
        divisor, so these are the very floats the pairs give; each pair's
        was computed and kept before (two cells of 10,000 compilations held
        10**8 ratios, 4 GB, to print one table cell)."""
        return self.low / other.high, self.high / other.low

    def profile(self) -> dict[str, float] | None:
        """Per kernel group, the median over the profiled compilations (ms per
        forward); None when no compilation has a profile."""
        profiled = self.profiled
        return median_groups([c.groups for c in profiled]) if profiled else None

    def fastest(self) -> Compilation:
        """The compilation with the lowest median (the first such in order)."""
        return min(self.compilations, key=lambda c: c.median_ms)

    def slowest(self) -> Compilation:
        """The compilation with the highest median (the first such in order)."""
        return max(self.compilations, key=lambda c: c.median_ms)

    def between(self) -> tuple[Compilation, Compilation, Attribution] | None:
        """``(fastest, slowest, slowest minus fastest by kernel group)`` over
        every compilation of the cell; None with fewer than two compilations,
        or when either of the two has no profile."""
        if len(self.compilations) < 2:
            return None
        fastest, slowest = self.fastest(), self.slowest()
        if fastest.groups is None or slowest.groups is None:
            return None
        return fastest, slowest, attribute(fastest.median_ms, slowest.median_ms, fastest.groups, slowest.groups)


def pooled_cell(rows: list[Row]) -> PooledCell:
    """The :class:`PooledCell` of latency rows of one measurement (key and timing signature)."""
    return PooledCell(tuple(rows), tuple(c for row in rows for c in job_compilations(row)))


def pooled_cells(rows: list[Row]) -> list[PooledCell]:
    """The latency rows with a value, pooled by measurement
    (:func:`~studygen.study.timing.measurement_of`: jobs that timed one key
    two ways, the host waiting for each forward in one and not in the other,
    are two cells), in the order the measurements first come."""
    grouped = rows_by_measurement(row for row in rows if row.kind == Kind.LATENCY and row.value is not None)
    return [pooled_cell(rows) for rows in grouped.values()]


def pooled_attribution(a: PooledCell, b: PooledCell) -> Attribution | None:
    """``b`` minus ``a`` by kernel group, each at its median over every
    compilation (latency: :attr:`PooledCell.median_ms`; groups:
    :meth:`PooledCell.profile`); None when either has no profile."""
    pa, pb = a.profile(), b.profile()
    if pa is None or pb is None:
        return None
    return attribute(a.median_ms, b.median_ms, pa, pb)


def pooled_pairs(a_rows: list[Row], b_rows: list[Row]) -> list[tuple[PooledCell, PooledCell]]:
    """``(a cell, b cell)`` for each configuration timed one way
    (:func:`~studygen.study.timing.variant_free_measurement`)
    both variants' latency rows measured, in the order of ``b_rows``."""
    a_cells = {variant_free_measurement(cell.first): cell for cell in pooled_cells(a_rows)}
    return [(a_cells[variant_free_measurement(cell.first)], cell) for cell in pooled_cells(b_rows)
            if variant_free_measurement(cell.first) in a_cells]
