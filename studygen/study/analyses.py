"""Analyses of a loaded study that both render and checks need.

Render lists precision inversions under side findings; SG208 reports the
same pairs, so both read them from here (the study layer, below both).
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter
from typing import NamedTuple

from ..records.keys import blanking
from ..records.kinds import PROFILED_TOTAL_GROUP, Kind
from .rows import Row
from .timing import timing_signature

# Bits per value: a variant with fewer bits is expected to be at least as fast.
PRECISION_BITS = {"fp32": 32, "tf32": 19, "bf16": 16, "fp16": 16, "fp8": 8, "int8": 8, "nvfp4": 4, "int4": 4}
SAME_CONFIG = ("family", "revision", "shape", "batch", "backend", "mode", "gpu", "software", "metric", "statistic")
_same_config = attrgetter(*SAME_CONFIG)  # a row's SAME_CONFIG values as one tuple, without a generator per row


def precision_inversions(study) -> list[tuple[Row, Row]]:
    """Pairs ``(lower_precision_row, higher_precision_row)`` of latency rows
    of one configuration (:data:`SAME_CONFIG`) and way of timing
    (:func:`~studygen.study.timing.timing_signature`: a pair timed with CUDA
    graphs on one side only mixes precision and timing, SG212) where the
    lower-precision variant has the larger latency (ms).

    Only the timing of each run that times its GPU work is judged
    (:attr:`~studygen.study.Study.compute_timing_rows`: GPU compute time where the
    run gives it): a precision claims faster compute, and trtexec's copy and
    enqueue times of one run (case: int8 0.0130 ms slower than fp16 0.0113
    ms, a device-to-host copy) or its host latency would each state the
    claim again, or against it, for work the precision does not change.

    A pair is of one job wherever a job measured both variants of it
    (:func:`_measured_together`): two jobs are two runs, on two machines or
    at two times, and their gap mixes the precision with the run (case, a
    user's GPU trial: job b's FP8 5.5 ms against job a's fp16 5.0 ms read as
    an inversion, while job a's own FP8 took 4.0 ms). Rows of two jobs are
    paired only where no job measured both, as when an fp32 engine was
    timed in a job of its own (the seed: fp16 14.747 ms in job
    b200-trt11.4 against fp32 13.99 ms in job b200-trt11.4-fp32-engine):
    there they are the only comparison the records hold."""
    groups: dict[tuple, list[Row]] = {}
    for row in study.compute_timing_rows:
        if row.value is None or row.precision not in PRECISION_BITS:
            continue
        groups.setdefault((_same_config(row), timing_signature(row)), []).append(row)
    pairs = []
    for rows in groups.values():
        if len(rows) < 2:
            continue  # one row pairs with none
        together = None  # made when a pair of two jobs needs it (most groups have no inversion)
        by_bits: dict[int, list[dict]] = {}
        for row in rows:
            by_bits.setdefault(PRECISION_BITS[row.precision], []).append(row)
        # Each higher-precision bucket sorted by latency: only the rows faster than a
        # lower-precision row are visited, so the cost follows the inversions found.
        for low_bits, high_bits in combinations(sorted(by_bits), 2):
            faster_first = sorted(by_bits[high_bits], key=lambda r: r.value)
            for low in by_bits[low_bits]:
                for high in faster_first:
                    if high.value >= low.value:
                        break
                    if low.job_id != high.job_id and together is None:
                        together = _measured_together(rows)
                    if low.job_id == high.job_id or (low.variant, high.variant) not in together:
                        pairs.append((low, high))
    return sorted(pairs, key=lambda p: (p[0].gpu or "", p[0].software, p[0].shape or "", p[0].variant, p[1].variant))


def _measured_together(rows: list[Row]) -> set[tuple[str, str]]:
    """``(variant, other variant)``, both ways, for every two variants that
    one job of ``rows`` measured both of."""
    by_job: dict[str, set[str]] = {}
    for row in rows:
        by_job.setdefault(row.job_id, set()).add(row.variant)
    return {(a, b) for variants in by_job.values() for a in variants for b in variants if a != b}


# Kernel time in no named group: above this share of a profile's total, SG210 warns and the generic README says so.
UNCLASSIFIED_LIMIT = 0.10
UNCLASSIFIED_GROUPS = ("other", "unclassified")


def unclassified_share(result: dict) -> float | None:
    """The share (0..1) of a ``kernel_time`` result's profiled total that no
    grouping rule matched: ``unclassified_share``, else ``unclassified_ms``
    over ``profiled_total_ms``, else the time of a group named ``other`` or
    ``unclassified`` over the total; None without a total, or when none of
    them is given (a group given only as a range has no time)."""
    total = result.get("profiled_total_ms")
    if not total:
        return None
    share = result.get("unclassified_share")
    if share is None and result.get("unclassified_ms") is not None:
        share = result["unclassified_ms"] / total
    if share is None:
        other = [g["time_ms"] for g in result["groups"] if g["group"].lower() in UNCLASSIFIED_GROUPS and "time_ms" in g]
        share = sum(other) / total if other else None
    return share


# A profile's per-layer kernel total above its run's GPU compute time by more than this share: the profile is of
# another run, or of a run whose profiler added time to each layer (SG210 warns; the generic README says so).
KERNEL_OVER_COMPUTE_LIMIT = 0.02


class KernelOverCompute(NamedTuple):
    """A kernel-time profile whose per-layer total (``total``, the row of
    group ``total``) is above the GPU compute time of the run it profiled
    (``compute``, a GPU compute latency row of the same job and
    configuration) by more than :data:`KERNEL_OVER_COMPUTE_LIMIT`;
    ``compute_ms`` and ``statistic`` the compute figure compared (the mean
    where the latency prints one, as profiles give per-iteration means, else
    its headline value)."""

    total: Row
    compute: Row
    compute_ms: float
    statistic: str

    @property
    def excess(self) -> float:
        """How far the total is above the compute time, as a share (0.1: 10% above)."""
        return self.total.value / self.compute_ms - 1

    @property
    def profiled_in_timed_run(self) -> bool:
        """True when the compute row's run states that trtexec profiled its
        layers in the timed run itself (``method.separate_profile_run``
        false); False where the record does not say (None, absent)."""
        return separate_profile_run(self.compute) is False


def separate_profile_run(row: Row) -> bool | None:
    """A latency row's ``method.separate_profile_run`` as its record states
    it: True when trtexec profiled the layers in a run of their own
    (``--separateProfileRun``), False when in the timed run, None where the
    record does not say (no log read, a TensorRT 7 log)."""
    return (row.result.get("method") or {}).get("separate_profile_run")


_without_quantity = blanking("kind", "metric", "statistic", "group", "dataset")


def _run_configuration(row: Row) -> tuple:
    """What a kernel-time profile and the GPU compute latency of its run share: the job and the measurement
    key without kind, metric, statistic, group and dataset."""
    return row.job_id, _without_quantity(row.key)


def _compute_figure(row: Row) -> tuple[float, str]:
    """``(ms, statistic)`` of a GPU compute latency row: its mean where the result prints one, else its value."""
    mean = (row.result.get("statistics_ms") or {}).get("mean")
    return (mean, "mean") if isinstance(mean, (int, float)) and mean > 0 else (row.value, row.statistic or "unspecified")


def kernel_time_over_compute(study) -> list[KernelOverCompute]:
    """Kernel-time profiles whose per-layer total (``profiled_total_ms``)
    exceeds the GPU compute time of the same job and configuration (variant,
    shape, batch, backend, mode, GPU, versions) by more than
    :data:`KERNEL_OVER_COMPUTE_LIMIT`, in row order. Layers run inside the
    GPU compute time of an iteration, so their per-iteration total cannot be
    above it: a larger one was profiled in another run, or in a run whose
    per-layer timing added overhead. Where several GPU compute latencies
    match (runs timed differently), the largest is the one compared: the
    total must exceed them all.

    A GPU compute time whose run states a separate profiling run
    (:func:`separate_profile_run` True: trtexec's ``--separateProfileRun``)
    bounds nothing: by design its layers were timed in another run that
    synchronises after each layer, so their total carries that overhead and
    may lie any distance above the compute time without anything being
    wrong (case: a ResNet-18 int8 log of TensorRT 8.5, 0.3597 ms of layers
    against 0.1349 ms of compute). The README says so of every trtexec
    profile (``kernel_time_profile_sources``); only compute times of runs
    that profiled in the timed run, or that do not say, are compared."""
    totals = [row for row in study.rows if row.kind == Kind.KERNEL_TIME and row.group == PROFILED_TOTAL_GROUP and row.value]
    if not totals:
        return []  # no profile: the compute times need not be gathered
    compute: dict[tuple, tuple[float, str, Row]] = {}
    for row in study.rows:
        if row.kind == Kind.LATENCY and row.metric == "gpu_compute" and row.value is not None and row.value > 0 \
                and separate_profile_run(row) is not True:
            ms, statistic = _compute_figure(row)
            key = _run_configuration(row)
            if key not in compute or ms > compute[key][0]:
                compute[key] = (ms, statistic, row)
    found = []
    for row in totals:
        match = compute.get(_run_configuration(row))
        if match and row.value > match[0] * (1 + KERNEL_OVER_COMPUTE_LIMIT):
            found.append(KernelOverCompute(row, match[2], match[0], match[1]))
    return found
