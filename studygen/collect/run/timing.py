"""Latency timing: interleaved repeats, CUDA events, and the statistics a record keeps.

Method (:func:`time_interleaved`): for each of R repeats, every variant in
turn (round-robin, the starting variant rotated by one each repeat so none is
always first) runs W warm-up forwards, then N timed forwards back to back.
With ``host_sync="per_repeat"`` (the default) a CUDA event is recorded on the
current stream after the warm-up (queued behind it, no host wait) and after
each timed forward, and the host synchronizes once, after the last:
sample i is the device time between the events around forward i. The host
may run ahead of the GPU, so when the GPU is the bottleneck a sample is the
GPU time of one forward; when the host is (many small launches), it is the
host's time per forward, as a server issuing requests back to back sees it.
With ``host_sync="per_forward"`` the host waits for each forward's end event
(and the warm-up's end) before launching the next, so every sample also holds the launch latency and
host jitter of an idle GPU (the method of the first measured study, whose
samples varied 6 to 10 % in compiled mode). Without CUDA (tests) the host
clock (``time.perf_counter``) times each call and the record says so.

Statistics (:func:`summarize`): per-repeat medians; over all N x R samples the
median, p90, p99 (numpy's default linear interpolation), mean, standard
deviation (population) and coefficient of variation std/mean; the
repeat-to-repeat CV (std/mean of the per-repeat medians). The result is
flagged unstable when CV > ``unstable_cv`` (default 5 %) or when the repeat
medians spread wider than the widest within-repeat interquartile range
(repeats that disagree beyond their own spread, e.g. a bimodal process).
"""

from __future__ import annotations

import math
import os
import time
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Summary:
    """Statistics of one variant's samples, in ms."""

    distribution: dict
    median_ms: float
    unstable: bool
    unstable_reason: str | None
    statistics_ms: dict


def _percentile(values, q: float) -> float:
    import numpy as np

    return float(np.percentile(values, q))


def _std(values) -> float:
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


def summarize(repeats: list[list[float]], *, warmup: int, unstable_cv: float = 0.05) -> Summary:
    """Statistics of ``repeats`` (one list of per-iteration times in ms per repeat).

    Raises ValueError for no samples or unequal repeat lengths.
    """
    if not repeats or not all(repeats) or len({len(r) for r in repeats}) != 1:
        raise ValueError("summarize needs R >= 1 repeats of equal, non-zero length")
    samples = [v for r in repeats for v in r]
    repeat_medians = [_percentile(r, 50) for r in repeats]
    repeat_iqr = [_percentile(r, 75) - _percentile(r, 25) for r in repeats]
    mean = math.fsum(samples) / len(samples)
    std = _std(samples)
    cv = std / mean if mean > 0 else 0.0
    rmean = math.fsum(repeat_medians) / len(repeat_medians)
    repeat_cv = _std(repeat_medians) / rmean if rmean > 0 else 0.0
    median = _percentile(samples, 50)
    distribution = {
        "samples": len(samples),
        "repeats": len(repeats),
        "iterations_per_repeat": len(repeats[0]),
        "warmup_iterations": warmup,
        "repeat_medians_ms": [_r(v) for v in repeat_medians],
        "repeat_iqr_ms": [_r(v) for v in repeat_iqr],
        "median_ms": _r(median),
        "mean_ms": _r(mean),
        "std_ms": _r(std),
        "p90_ms": _r(_percentile(samples, 90)),
        "p99_ms": _r(_percentile(samples, 99)),
        "cv": _r(cv),
        "repeat_cv": _r(repeat_cv),
    }
    reasons = []
    if cv > unstable_cv:
        reasons.append(f"CV {cv * 100:.1f} % over all samples exceeds {unstable_cv * 100:g} %")
    spread = max(repeat_medians) - min(repeat_medians)
    if spread > max(repeat_iqr):  # one repeat: no spread, never flagged
        reasons.append(f"repeat medians span {spread:.3f} ms, more than the widest within-repeat "
                       f"interquartile range ({max(repeat_iqr):.3f} ms)")
    statistics = {"min": _r(min(samples)), "max": _r(max(samples)), "mean": _r(mean), "median": _r(median),
                  "std": _r(std), "p90": distribution["p90_ms"], "p99": distribution["p99_ms"]}
    return Summary(distribution=distribution, median_ms=_r(median), unstable=bool(reasons),
                   unstable_reason="; ".join(reasons) or None, statistics_ms=statistics)


def _r(value: float) -> float:
    """Round to 1 ns (6 decimals in ms): CUDA events resolve about 0.5 us."""
    return round(float(value), 6)


HOST_SYNC = ("per_repeat", "per_forward")


class Timer:
    """Times forwards: CUDA events on the current stream when ``cuda``, else ``time.perf_counter``.

    ``host_sync`` is ``"per_repeat"`` (events between back-to-back forwards, one
    synchronization after the last) or ``"per_forward"`` (the host waits for each
    forward). Raises ValueError for any other value. On the CPU each series
    notes torch's intra-op thread count (``intra_op_threads``), which the
    latency's method records.
    """

    def __init__(self, cuda: bool, host_sync: str = "per_repeat"):
        if host_sync not in HOST_SYNC:
            raise ValueError(f"host_sync must be one of {', '.join(HOST_SYNC)}, not {host_sync!r}")
        self.cuda = cuda
        self.host_sync = host_sync
        self.name = "cuda-events" if cuda else "perf-counter"
        # host time of the last series, ms per forward: (issue, wall); see host_per_forward
        self.last_host_ms: tuple[float, float] | None = None
        # on the CPU, torch's intra-op threads while the last series ran: the figures depend on them
        self.intra_op_threads: int | None = None

    def series(self, call, iterations: int) -> list[float]:
        """Run ``call(i)`` for i in 0..iterations-1; each forward's time in ms (length ``iterations``)."""
        if not self.cuda:
            import torch

            self.intra_op_threads = torch.get_num_threads()  # read before the clock starts
        started = time.perf_counter()
        if not self.cuda:
            times = []
            for i in range(iterations):
                began = time.perf_counter()
                call(i)
                times.append((time.perf_counter() - began) * 1000.0)
            wall_ms = (time.perf_counter() - started) * 1000.0 / iterations
            self.last_host_ms = (wall_ms, wall_ms)
            return times
        import torch

        events = [torch.cuda.Event(enable_timing=True) for _ in range(iterations + 1)]
        started = time.perf_counter()
        if self.host_sync == "per_forward":
            times = []
            for i in range(iterations):
                events[i].record()
                call(i)
                events[i + 1].record()
                events[i + 1].synchronize()
                times.append(float(events[i].elapsed_time(events[i + 1])))
            wall_ms = (time.perf_counter() - started) * 1000.0 / iterations
            self.last_host_ms = (wall_ms, wall_ms)
            return times
        events[0].record()
        for i in range(iterations):
            call(i)
            events[i + 1].record()
        issued = time.perf_counter()
        events[-1].synchronize()
        finished = time.perf_counter()
        self.last_host_ms = ((issued - started) * 1000.0 / iterations, (finished - started) * 1000.0 / iterations)
        return [float(events[i].elapsed_time(events[i + 1])) for i in range(iterations)]


def time_interleaved(calls: dict, *, repeats: int, iterations: int, warmup: int, timer: Timer,
                     on_step=None, host: dict | None = None) -> dict[str, list[list[float]]]:
    """Time each ``calls[variant](i)`` (i = iteration index, so inputs can rotate)
    round-robin within each repeat; returns ``{variant: [[ms, ...] per repeat]}``
    (R lists of N samples each).

    ``on_step(repeat, variant)`` is called after each variant's block (progress).
    ``host``, when given, receives ``{variant: [(issue_ms, wall_ms) per repeat]}``:
    the host's time per forward of each repeat (:attr:`Timer.last_host_ms`).
    """
    names = list(calls)
    times: dict[str, list[list[float]]] = {name: [] for name in names}
    for repeat in range(repeats):
        order = names[repeat % len(names):] + names[:repeat % len(names)]
        for name in order:
            call = calls[name]
            for i in range(warmup):
                call(i)
            if timer.cuda and timer.host_sync == "per_forward":
                import torch

                torch.cuda.synchronize()  # every forward starts on an idle GPU
            # per_repeat: no wait here. The first event is queued behind the warm-up, so the
            # warm-up stays out of the first sample and that sample is not an idle GPU's launch latency.
            times[name].append(timer.series(call, iterations))
            if host is not None:
                host.setdefault(name, []).append(timer.last_host_ms)
            if on_step:
                on_step(repeat, name)
    return times


def host_per_forward(per_repeat: list[tuple[float, float]]) -> dict:
    """``{"host_issue_ms_per_forward", "host_ms_per_forward"}``: medians over the
    repeats of the host's time per forward, in ms.

    *Issue* is the time the host took to return from the repeat's N calls (the
    kernel launches queued, before it waits for the GPU); *wall* runs to the end
    of the repeat's synchronization. With ``host_sync="per_repeat"`` an issue
    time close to the GPU samples means the host, not the GPU, set the pace
    (launch-bound, as eager forwards of ~1,000 kernels are); with
    ``per_forward`` and without CUDA both equal the wall time per forward.
    """
    issue = [pair[0] for pair in per_repeat]
    wall = [pair[1] for pair in per_repeat]
    return {"host_issue_ms_per_forward": _r(_percentile(issue, 50)), "host_ms_per_forward": _r(_percentile(wall, 50))}


@contextmanager
def pinned_to_cores(enabled: bool):
    """Pin the measuring process, every thread of it, to the upper half of the
    cores it may run on (at least one) for the block; yields the cores, or None
    when ``enabled`` is false or the platform has no ``sched_setaffinity``.

    Why: unpinned, the launching thread migrates between cores and shares them
    with whatever else runs. Pinning that thread alone to one core was measured
    to double eager latency on the H200 machine (21 to 40 ms per forward at
    800x800, threads the runtime starts later inherit that single core), so the
    whole process gets a half of the machine. The previous affinities are restored.
    """
    if not enabled or not hasattr(os, "sched_setaffinity"):
        yield None
        return
    allowed = sorted(os.sched_getaffinity(0))
    cores = allowed[len(allowed) // 2:]
    threads = _thread_ids()
    before = {}
    for tid in threads:
        try:
            before[tid] = os.sched_getaffinity(tid)
            os.sched_setaffinity(tid, cores)
        except OSError:  # a thread that ended meanwhile
            before.pop(tid, None)
    try:
        yield cores
    finally:
        for tid, mask in before.items():
            try:
                os.sched_setaffinity(tid, mask)
            except OSError:
                pass


def _thread_ids() -> list[int]:
    """The ids of this process's threads (Linux ``/proc/self/task``), else just this thread (0)."""
    try:
        return [int(name) for name in os.listdir("/proc/self/task")]
    except OSError:
        return [0]
