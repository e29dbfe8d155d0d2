"""trtexec ``--exportTimes`` reader: per-iteration timings, the resolution of
the figures derived from its timestamps, and trtexec's own statistics.

Format (seen in ../shared/fixtures/trtexec and in TensorRT's
``samples/common/sampleReporting.cpp``, ``exportJSONTrace``): an array of
per-iteration objects, times in ms printed with C++'s default six
significant digits; several arrays concatenated in one file (``cat
times_*.json``) are several runs, matched to the log's runs in order by the
result builders. The writers differ by version (:data:`TIMES_KEY_SETS`):

* **TensorRT 8.2+** keys ``startEnqMs, endEnqMs, startH2dMs, endH2dMs,
  startComputeMs, endComputeMs, startD2hMs, endD2hMs, h2dMs, computeMs,
  d2hMs, latencyMs`` (lower-case ``d``). The writers that also print
  ``endToEndMs`` (the 8.2 era) export every iteration of the trace, the
  warm-up included; the later ones (no ``endToEndMs``) skip the warm-up.
* **TensorRT 7** keys ``startInMs, endInMs, inMs, computeMs, outMs,
  latencyMs, endToEndMs``, next to ``startEnqMs``/``endEnqMs``. This writer
  swaps the enqueue and input stamps (in the fixture ``endEnqMs −
  startEnqMs`` equals ``inMs`` in every iteration, and ``endInMs −
  startInMs`` reproduces the log's Enqueue Time), and its arrays include
  the warm-up iterations.

Enqueue time is not exported: it is the difference of two timestamps. A
timestamp printed with six significant digits near 5000 ms carries 0.01
ms, so such a difference cannot resolve a 5 µs enqueue: the resolution of
each difference is the larger step of its two stamps
(:func:`printed_step`), and a derived timing with any difference below its
resolution (a zero among them) is not derived at all (left out with a note,
``TimesRun.left_out``). An array that is zero in every iteration (H2D and
D2H with data transfers off) is no latency either.

Which iterations are warm-up, and whether the file belongs to the log at
all, is decided with the log (:mod:`.align`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from ...errors import InputError
from ...fsutil import shown_path
from ..inputs import is_number, significant
from .exports import json_arrays
from .times_order import PRINTED_DIGITS, check_iterations, printed_step

# The longest duration a record holds, in ms: an hour, the record schema's maximum of a time (value_ms,
# statistics_ms); no iteration takes longer. Refused in the file, at its pointer, before any statistic is
# computed: a duration of 1e200 ms overflowed the standard deviation (an internal error), and one of 4e6 ms was
# refused only by the schema, at a line of the record that was never written.
MAX_DURATION_MS = 3_600_000

TIMES_KEYS_82 = {"startEnqMs", "endEnqMs", "startH2dMs", "endH2dMs", "startComputeMs", "endComputeMs",
                 "startD2hMs", "endD2hMs", "h2dMs", "computeMs", "d2hMs", "latencyMs"}
TIMES_KEYS_7 = {"startInMs", "endInMs", "inMs", "computeMs", "outMs", "latencyMs", "endToEndMs"}


@dataclass(frozen=True)
class TimesKeySet:
    """The keys one TensorRT version's ``--exportTimes`` writes: ``name`` (as
    records cite it), the ``required`` keys that recognise it, ``timings``
    (timing name → key of its per-iteration duration in ms), ``optional``
    timings read when present, the stamp pairs an enqueue time may be the
    difference of (``enqueue_pairs``: the first pair unless the data shows
    it measures ``h2d_key`` instead, see :func:`enqueue_pair`), and whether
    the writer exports the warm-up iterations (``warmup_exported``; for
    8.2+ it depends on ``endToEndMs``, see :meth:`exports_warmup`)."""

    name: str
    required: frozenset[str]
    timings: dict[str, str]
    optional: dict[str, str] = field(default_factory=dict)
    enqueue_pairs: tuple[tuple[str, str], ...] = (("startEnqMs", "endEnqMs"),)
    h2d_key: str | None = None
    warmup_exported: bool | None = None

    def exports_warmup(self, keys: set[str]) -> bool:
        """Whether an array with these ``keys`` holds the warm-up iterations."""
        if self.warmup_exported is not None:
            return self.warmup_exported
        return "endToEndMs" in keys


# Tried in order: the first whose required keys an array's first object holds.
TIMES_KEY_SETS = (
    TimesKeySet("TensorRT 8.2+", frozenset(TIMES_KEYS_82),
                {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "h2dMs", "d2h": "d2hMs"},
                optional={"end_to_end": "endToEndMs"}),
    TimesKeySet("TensorRT 7", frozenset(TIMES_KEYS_7),
                {"host_latency": "latencyMs", "gpu_compute": "computeMs", "h2d": "inMs", "d2h": "outMs",
                 "end_to_end": "endToEndMs"},
                enqueue_pairs=(("startEnqMs", "endEnqMs"), ("startInMs", "endInMs")), h2d_key="inMs",
                warmup_exported=True),
)


def times_key_set(keys: set[str]) -> TimesKeySet | None:
    """The key set of :data:`TIMES_KEY_SETS` that ``keys`` (the keys of an
    array's first object) hold, or None."""
    for key_set in TIMES_KEY_SETS:
        if key_set.required <= keys:
            return key_set
    return None


def _round_to_step(value: float, step: float) -> float:
    """``value`` rounded to the decimal place of ``step`` (removes the binary
    noise of a difference such as 3.019999999999982)."""
    if step <= 0:
        return value
    return round(value, max(0, -math.floor(math.log10(step) + 1e-9)))


@dataclass
class Derived:
    """A timing derived from two stamps: the per-iteration differences
    (rounded to their step), the largest step (``resolution_ms``), how
    many differences fall below their step, and the keys."""

    values: list[float]
    resolution_ms: float
    below: int
    keys: tuple[str, str]


def derive(items: list[dict], start_key: str, end_key: str, display: str, pointer: str) -> Derived:
    """``end − start`` of every iteration (InputError naming the pointer when
    a stamp is missing, the end comes first or
    comes more than :data:`MAX_DURATION_MS` after the start)."""
    values, resolution, below = [], 0.0, 0
    for position, item in enumerate(items):
        start, end = item.get(start_key), item.get(end_key)
        if not (is_number(start) and is_number(end)):
            raise InputError(f"{start_key}/{end_key} missing or not numbers", path=display, pointer=f"{pointer}/{position}")
        if end < start:
            raise InputError(f"{end_key} {end} is before {start_key} {start}", path=display,
                             pointer=f"{pointer}/{position}/{end_key}")
        if end - start > MAX_DURATION_MS:
            raise InputError(_too_long(f"{end_key} − {start_key}", end - start), path=display,
                             pointer=f"{pointer}/{position}/{end_key}")
        step = max(printed_step(start), printed_step(end))
        difference = _round_to_step(end - start, step)
        resolution = max(resolution, step)
        if difference < step or difference == 0:
            below += 1
        values.append(difference)
    return Derived(values, resolution, below, (start_key, end_key))


def enqueue_pair(key_set: TimesKeySet, items: list[dict], display: str, pointer: str) -> tuple[Derived | None, str]:
    """The enqueue timing of an array and a note on how it was read: the
    first of ``key_set.enqueue_pairs`` unless its differences equal the
    exported H2D time in every iteration (within their resolution), which
    makes it the H2D pair and the other one the enqueue (TensorRT 7's
    swapped stamps). ``(None, why)`` when no pair fits or a stamp is missing."""
    keys = set(items[0])
    pairs = [pair for pair in key_set.enqueue_pairs if set(pair) <= keys]
    if not pairs:
        return None, "no enqueue stamps"
    first = derive(items, *pairs[0], display, pointer)
    if key_set.h2d_key is None or len(pairs) < 2:
        return first, f"{pairs[0][1]} − {pairs[0][0]}"
    h2d = [item.get(key_set.h2d_key) for item in items]

    def measures_h2d(derived: Derived) -> bool:
        return all(is_number(h) and abs(d - h) <= derived.resolution_ms + printed_step(h)
                   for d, h in zip(derived.values, h2d))

    if not measures_h2d(first):
        return first, f"{pairs[0][1]} − {pairs[0][0]}"
    second = derive(items, *pairs[1], display, pointer)
    if measures_h2d(second):
        return None, f"both {pairs[0][0]}/{pairs[0][1]} and {pairs[1][0]}/{pairs[1][1]} measure {key_set.h2d_key}"
    return second, (f"{pairs[1][1]} − {pairs[1][0]}: this writer swaps the enqueue and input stamps "
                    f"({pairs[0][1]} − {pairs[0][0]} equals {key_set.h2d_key} in every iteration)")


# --- exportTimes -------------------------------------------------------------

@dataclass
class TimesRun:
    """One array of ``--exportTimes``: per-iteration timings in ms by timing
    (``host_latency`` from latencyMs, ``gpu_compute`` from computeMs, …),
    the ``key_set``, each iteration's ``startComputeMs`` (trtexec's warm-up
    test, None when absent), the resolution of derived timings
    (``resolution_ms``), how each derived timing was read (``derivation``),
    the timings left out with the reason (``left_out``) and whether the
    writer exports the warm-up (``warmup_exported``)."""

    index: int
    line: int
    key_set: str
    timings: dict[str, list[float]]
    compute_starts: list[float] | None = None
    resolution_ms: dict[str, float] = field(default_factory=dict)
    derivation: dict[str, str] = field(default_factory=dict)
    left_out: dict[str, str] = field(default_factory=dict)
    warmup_exported: bool = False
    warmup_dropped: int = 0

    @property
    def data_transfers(self) -> bool | None:
        """What the array shows about data transfers: False when its H2D and
        D2H times are 0 in every iteration (left out as zeros: trtexec ran
        with ``--noDataTransfers``), True when it holds a copy time that is
        not (a copy was timed), None when it holds neither (no copy times)."""
        if "h2d" in self.timings or "d2h" in self.timings:
            return True
        zero = [timing for timing in ("h2d", "d2h") if "is 0 in every iteration" in self.left_out.get(timing, "")]
        return False if len(zero) == 2 else None

    @property
    def iterations(self) -> int:
        return len(next(iter(self.timings.values()))) if self.timings else 0

    def without_first(self, count: int) -> "TimesRun":
        """The same array without its first ``count`` iterations (the warm-up)."""
        return TimesRun(index=self.index, line=self.line, key_set=self.key_set,
                        timings={name: values[count:] for name, values in self.timings.items()},
                        compute_starts=self.compute_starts[count:] if self.compute_starts is not None else None,
                        resolution_ms=dict(self.resolution_ms), derivation=dict(self.derivation),
                        left_out=dict(self.left_out), warmup_exported=self.warmup_exported,
                        warmup_dropped=self.warmup_dropped + count)


def _too_long(what: str, number: float) -> str:
    return (f"{what} is {number:g} ms: longer than an hour ({MAX_DURATION_MS:,} ms), the most a record holds "
            "(no iteration takes that long); nothing written")


def _refuse_over_an_hour(items: list[dict], mapping: dict[str, str], display: str, pointer: str) -> None:
    """InputError at the first duration of ``items`` above :data:`MAX_DURATION_MS` (after the stamps are
    compared, so that a duration its own stamps contradict is refused as that first)."""
    for position, item in enumerate(items):
        for key in mapping.values():
            if item[key] > MAX_DURATION_MS:
                raise InputError(_too_long(key, item[key]), path=display, pointer=f"{pointer}/{position}/{key}")


def _durations(items: list, mapping: dict[str, str], display: str, pointer: str) -> dict[str, list[float]]:
    """Each timing's per-iteration values (InputError for a missing,
    non-numeric or negative duration)."""
    timings: dict[str, list[float]] = {name: [] for name in mapping}
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError("expected objects with latencyMs, computeMs, …", path=display, pointer=f"{pointer}/{position}")
        for timing, key in mapping.items():
            number = item.get(key)
            if not is_number(number):
                raise InputError(f"{key} is missing or not a number", path=display, pointer=f"{pointer}/{position}/{key}")
            if number < 0:
                # a duration in ms: checked here so the message names this file, not the record built from it
                raise InputError(f"{key} is {number}: a duration cannot be negative", path=display,
                                 pointer=f"{pointer}/{position}/{key}")
            timings[timing].append(number)
    return timings


def parse_times(path: Path, display: str | None = None) -> list[TimesRun]:
    """Parse a ``--exportTimes`` file (one array or several concatenated).

    Timings: ``host_latency`` ← latencyMs (H2D + compute + D2H in both key
    sets), ``gpu_compute`` ← computeMs, ``h2d`` ← h2dMs (8.2+) or inMs (7),
    ``d2h`` ← d2hMs or outMs, ``end_to_end`` ← endToEndMs, ``enqueue`` ←
    the difference of the enqueue stamps (:func:`enqueue_pair`) when every
    difference is resolved. Timings that are zero in every iteration, and
    an unresolved enqueue, go to ``left_out`` with the reason. Raises
    InputError for malformed JSON (repeated keys and out-of-range numbers
    included), an unknown key set, a missing, non-numeric or negative
    duration, one longer than an hour (:data:`MAX_DURATION_MS`), stamps out of order, or an iteration that contradicts itself
    or comes before the one it follows (:func:`.times_order.check_iterations`).
    """
    display = display or shown_path(path)
    name = Path(display).name
    runs = []
    for index, value, line, pointer in json_arrays(path, display, "per-iteration timings (trtexec --exportTimes)"):
        first = value[0]
        if not isinstance(first, dict):
            raise InputError("expected objects with latencyMs, computeMs, …", path=display, pointer=f"{pointer}/0")
        keys = set(first)
        found = times_key_set(keys)
        if found is None:
            raise InputError(f"unknown --exportTimes keys {sorted(keys)} (expected TensorRT 8.2+ "
                             "startH2dMs…latencyMs or TensorRT 7 startInMs…endToEndMs)", path=display, pointer=f"{pointer}/0")
        mapping = dict(found.timings)
        mapping.update({timing: key for timing, key in found.optional.items() if key in keys})
        run = TimesRun(index=index, line=line, key_set=found.name, timings=_durations(value, mapping, display, pointer),
                       warmup_exported=found.exports_warmup(keys))
        check_iterations(value, display, pointer)
        _refuse_over_an_hour(value, mapping, display, pointer)
        if "startComputeMs" in keys:
            run.compute_starts = [item.get("startComputeMs") for item in value]
            if not all(is_number(start) for start in run.compute_starts):
                run.compute_starts = None
        enqueue, how = enqueue_pair(found, value, display, pointer)
        if enqueue is None:
            run.left_out["enqueue"] = f"enqueue not derived from {name} array {index + 1}: {how}"
        elif enqueue.below:
            run.left_out["enqueue"] = (
                f"enqueue not derived from {name} array {index + 1}: {enqueue.below} of {len(enqueue.values)} "
                f"differences {enqueue.keys[1]} − {enqueue.keys[0]} are below the {enqueue.resolution_ms:g} ms "
                f"resolution of its timestamps (printed with {PRINTED_DIGITS} significant digits)")
        else:
            run.timings["enqueue"] = enqueue.values
            run.resolution_ms["enqueue"] = enqueue.resolution_ms
            run.derivation["enqueue"] = how
        for timing, values in list(run.timings.items()):
            if values and not any(values):
                del run.timings[timing]
                run.left_out[timing] = (f"{mapping.get(timing, timing)} of {name} array {index + 1} is 0 in every "
                                        "iteration: data transfers were off, not a latency" if timing in ("h2d", "d2h")
                                        else f"{mapping.get(timing, timing)} of {name} array {index + 1} is 0 in "
                                        "every iteration: not a latency")
        runs.append(run)
    return runs


def trtexec_percentile(sorted_values: list[float], percentile: float) -> float:
    """trtexec's percentile (sampleReporting.cpp ``findPercentile``):
    ``sorted[max(n − 1 − floor((1 − p/100)·n), 0)]`` on ascending values."""
    count = len(sorted_values)
    exclude = int((1 - percentile / 100) * count)
    return sorted_values[max(count - 1 - exclude, 0)]


def trtexec_median(sorted_values: list[float]) -> float:
    """trtexec's median (``findMedian``): the middle value, or the mean of
    the two middle values for an even count."""
    count = len(sorted_values)
    if count % 2:
        return sorted_values[count // 2]
    return significant((sorted_values[count // 2 - 1] + sorted_values[count // 2]) / 2)


def timing_statistics(values: list[float]) -> dict[str, float]:
    """Statistics of per-iteration timings in ms: min, max, mean, median,
    p90, p95, p99 (trtexec's rules), std (population, as trtexec's
    coefficient of variation uses) and cv = std / mean (a fraction).
    Computed figures are rounded to 12 significant digits (binary noise only)."""
    ordered = sorted(values)
    mean = statistics.fmean(ordered)
    std = statistics.pstdev(ordered, mu=mean)
    return {
        "min": ordered[0], "max": ordered[-1], "mean": significant(mean), "median": trtexec_median(ordered),
        "p90": trtexec_percentile(ordered, 90), "p95": trtexec_percentile(ordered, 95),
        "p99": trtexec_percentile(ordered, 99), "std": significant(std),
        "cv": significant(std / mean) if mean > 0 else 0.0,
    }
