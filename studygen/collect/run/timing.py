"""Latency timing: interleaved repeats, CUDA events, and the statistics a record keeps.

Method (:func:`time_interleaved`): for each of R repeats, every variant in
turn (round-robin, the starting variant rotated by one each repeat so none is
always first) runs W warm-up forwards, then N timed forwards. One forward is
timed by a pair of CUDA events recorded on the current stream around the call,
and the stream is synchronized after each, so a sample is the device time of
one batch of requests from the first launch to the last kernel's end (launch
gaps included when the host is slower than the GPU). Without CUDA (tests) the
host clock (``time.perf_counter``) times the call instead, and the record says so.

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
import time
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

    return float(np.percentile(np.asarray(values, dtype=float), q))


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
    if len(repeats) > 1 and spread > max(repeat_iqr):
        reasons.append(f"repeat medians span {spread:.3f} ms, more than the widest within-repeat "
                       f"interquartile range ({max(repeat_iqr):.3f} ms)")
    statistics = {"min": _r(min(samples)), "max": _r(max(samples)), "mean": _r(mean), "median": _r(median),
                  "std": _r(std), "p90": distribution["p90_ms"], "p99": distribution["p99_ms"]}
    return Summary(distribution=distribution, median_ms=_r(median), unstable=bool(reasons),
                   unstable_reason="; ".join(reasons) or None, statistics_ms=statistics)


def _r(value: float) -> float:
    """Round to 1 ns (6 decimals in ms): CUDA events resolve about 0.5 us."""
    return round(float(value), 6)


class Timer:
    """Times one call: CUDA events on the current stream when ``cuda``, else ``time.perf_counter``."""

    def __init__(self, cuda: bool):
        self.cuda = cuda
        self.name = "cuda-events" if cuda else "perf-counter"

    def __call__(self, fn) -> float:
        """Run ``fn()`` once; its time in ms."""
        if self.cuda:
            import torch

            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            return float(start.elapsed_time(end))
        began = time.perf_counter()
        fn()
        return (time.perf_counter() - began) * 1000.0


def time_interleaved(calls: dict, *, repeats: int, iterations: int, warmup: int, timer: Timer,
                     on_step=None) -> dict[str, list[list[float]]]:
    """Time each ``calls[variant](i)`` (i = iteration index, so inputs can rotate)
    round-robin within each repeat; returns ``{variant: [[ms, ...] per repeat]}``.

    ``on_step(repeat, variant)`` is called after each variant's block (progress).
    """
    names = list(calls)
    times: dict[str, list[list[float]]] = {name: [] for name in names}
    for repeat in range(repeats):
        order = names[repeat % len(names):] + names[:repeat % len(names)]
        for name in order:
            call = calls[name]
            for i in range(warmup):
                call(i)
            if timer.cuda:
                import torch

                torch.cuda.synchronize()
            times[name].append([timer(lambda i=i: call(i)) for i in range(iterations)])
            if on_step:
                on_step(repeat, name)
    return times
