"""The resolution of a timed figure: the smallest difference its timer can express.

trtexec keeps each query's start and end times as 32-bit floats, in ms since
an event recorded when the inference run starts (``InferenceTrace`` in
TensorRT's ``samples/common/sampleInference.h``; the same since TensorRT 7),
and every time it prints is a difference of two of them. A float32 between
``2**e`` and ``2**(e+1)`` is a multiple of ``2**(e-23)``, so a run that
reaches ``T`` ms has times that are multiples of ``2**(floor(log2 T) - 23)``
ms by its end. A run of trtexec's default length, a 200 ms warm-up and 3 s
of timing, ends between 2048 and 4096 ms, so ``2**-12`` ms (0.244 µs) is the
coarsest step its times can have: the resolution is an upper bound. Queries
timed before 2048 ms have finer steps, and a figure may come from one: the
TensorRT 10.16 hackathon log (default length) prints a Latency median of
0.0440674 ms, 361 steps of ``2**-13``. Many figures sit on the coarse grid:
the two RTX 3090 TensorRT 8.6 logs give device-to-host medians of 16 and 15
steps of ``2**-12`` (0.00390625 and 0.00366211 ms). The bound is set by how
long the run lasted, not by the TensorRT version.

trtexec prints each time to 6 significant digits, so a printed figure may
also lie up to half a unit of its last digit from the time it stands for
(:func:`printed_rounding`).

A kernel-time figure (a group's time per iteration, a profile's total) sums
durations timed by CUDA events (trtexec's per-layer profile; the CUDA
runtime documents ``cudaEventElapsedTime`` at about 0.5 µs) or by CUPTI
activity records that a Kineto trace writes in microseconds (whole ones in
older traces). Its resolution is the stated floor
:data:`KERNEL_TIME_RESOLUTION_MS`, 1 µs: two jobs' groups of 0.07 and 0.12 µs
(a re-run's ``other`` group of a few reformat copies) differ by less than
either timer tells, and are no disagreement.

SG203 never calls two jobs' figures a
disagreement when they are apart by at most the resolution plus the two
roundings, and ``studygen diff`` never calls a figure's change between two
revisions beyond its spread when it is no larger: both read the one bound,
:func:`timer_allowance`.
"""

from __future__ import annotations

import math
import re

from ..records.kinds import KERNEL_TIME_METRIC, Kind
from .rows import Row

# Bits of a float32 significand after the leading one.
FLOAT32_FRACTION_BITS = 23
# trtexec's defaults when the command does not set them (its log prints "Duration: 3s (+ 200ms warm up)").
TRTEXEC_DEFAULT_DURATION_S = 3.0
TRTEXEC_DEFAULT_WARMUP_MS = 200.0
TRTEXEC_TIMER = "trtexec"
# trtexec prints its times through a C++ stream at the stream's default precision: 6 significant digits.
TRTEXEC_PRINTED_DIGITS = 6

# The floor below which two kernel-time figures (ms per iteration) are not told apart: 1 µs, the coarser of
# cudaEventElapsedTime's documented ~0.5 µs and a Kineto trace's microsecond timestamps (see the module docstring).
KERNEL_TIME_RESOLUTION_MS = 0.001

_FLAG = r"--{name}[=\s]+(-?[0-9]+(?:\.[0-9]+)?)"


def float32_step(magnitude: float) -> float:
    """The spacing of float32 values at ``magnitude`` (> 0): ``2**(floor(log2 magnitude) - 23)``.
    Raises ValueError for a magnitude <= 0."""
    if magnitude <= 0:
        raise ValueError(f"a float32 step needs a positive magnitude, not {magnitude}")
    return 2.0 ** (math.floor(math.log2(magnitude)) - FLOAT32_FRACTION_BITS)


def _flag(command: str, name: str) -> float | None:
    match = re.search(_FLAG.format(name=name), command)
    return float(match.group(1)) if match else None


def trtexec_run_end_ms(result: dict) -> float:
    """How long (ms since the run's start event) a trtexec run of ``result``
    lasted: its warm-up (``--warmUp``, default 200 ms) plus its timed part,
    the longer of ``--duration`` (default 3 s; -1, endless, counts as unknown)
    and queries over throughput (``distribution.samples / throughput_qps``:
    trtexec's throughput is queries over the host walltime, so this covers
    runs that ``--iterations`` made longer). With an implicit batch
    (``--batch=N``) trtexec counts N queries an iteration in its throughput
    while ``samples`` holds iterations (collect divides the query counts by
    N), so the samples are multiplied by N: the TensorRT 7 googlenet log's
    batch-4 run, 667 iterations at 886 qps, timed 667 x 4 / 886 = 3.011 s,
    its walltime, not 0.753 s."""
    command = (result.get("method") or {}).get("command") or ""
    warmup = _flag(command, "warmUp")
    duration = _flag(command, "duration")
    timed = [1000.0 * (TRTEXEC_DEFAULT_DURATION_S if duration is None else duration)]
    samples = (result.get("distribution") or {}).get("samples")
    throughput = result.get("throughput_qps")
    if samples and throughput:
        timed.append(1000.0 * samples * max(_flag(command, "batch") or 1.0, 1.0) / throughput)
    return (TRTEXEC_DEFAULT_WARMUP_MS if warmup is None else max(warmup, 0.0)) + max(max(timed), 0.0)


def resolution(row: Row) -> float:
    """The smallest difference (ms) the timer of a latency row can express:
    for trtexec's timer (``method.timer: trtexec``) the float32 step at the
    end of its run (:func:`float32_step` of :func:`trtexec_run_end_ms`; 2**-12
    ms for a run of the default length); :data:`KERNEL_TIME_RESOLUTION_MS`
    for a kernel-time figure in ms (a group, a profile's total; not a share);
    0.0 for every other row (a timer whose resolution nobody here has shown,
    a plan size, an AP)."""
    if row.kind == Kind.KERNEL_TIME and row.metric == KERNEL_TIME_METRIC:  # a share has its own metric
        return KERNEL_TIME_RESOLUTION_MS
    if row.kind != Kind.LATENCY or (row.result.get("method") or {}).get("timer") != TRTEXEC_TIMER:
        return 0.0
    end = trtexec_run_end_ms(row.result)
    return float32_step(end) if end > 0 else 0.0


def printed_rounding(row: Row) -> float:
    """How far a trtexec figure as printed may lie from the time it stands
    for: half a unit of its 6th significant digit (:data:`TRTEXEC_PRINTED_DIGITS`;
    213 steps of 2**-12 ms, 0.052001953125, print as 0.052002); 0.0 for
    rows :func:`resolution` gives none, for a kernel time (its floor is
    coarser than any printed digit), and for a zero."""
    if row.kind != Kind.LATENCY or not resolution(row) or not row.value:
        return 0.0
    return 0.5 * 10.0 ** (math.floor(math.log10(abs(row.value))) - (TRTEXEC_PRINTED_DIGITS - 1))


def timer_allowance(old, new) -> float:
    """The largest gap (ms) between a figure of the rows ``old`` and one of
    the rows ``new`` (each side one row's value, or the median of its rows'
    values) that their timers cannot tell from none: the coarsest
    :func:`resolution` among them plus, on each side, the largest
    :func:`printed_rounding` (a median of two figures is off by no more than
    the rounding of either). 0.0 when no row has a resolution: the gap is then
    as exact as the figures. SG203 holds two jobs' figures to it, one row a
    side; ``studygen diff`` a figure's change between two revisions, each
    side's jobs. ``old``, ``new``: sequences of rows (empty: no rounding)."""
    step = max((resolution(row) for row in (*old, *new)), default=0.0)
    if not step:
        return 0.0
    return step + max(map(printed_rounding, old), default=0.0) + max(map(printed_rounding, new), default=0.0)
