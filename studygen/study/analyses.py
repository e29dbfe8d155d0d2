"""Analyses of a loaded study that both render and checks need.

Render lists precision inversions under side findings; SG208 reports the
same pairs, so both read them from here (the study layer, below both).
"""

from __future__ import annotations

from itertools import combinations
from operator import attrgetter

from .rows import Row
from .timing import compute_rows, timing_signature

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
    (:func:`~studygen.study.timing.compute_rows`: GPU compute time where the
    run gives it): a precision claims faster compute, and trtexec's copy and
    enqueue times of one run (case: int8 0.0130 ms slower than fp16 0.0113
    ms, a device-to-host copy) or its host latency would each state the
    claim again, or against it, for work the precision does not change."""
    groups: dict[tuple, list[Row]] = {}
    for row in compute_rows(study.rows):
        if row.value is None or row.precision not in PRECISION_BITS:
            continue
        groups.setdefault((_same_config(row), timing_signature(row)), []).append(row)
    pairs = []
    for rows in groups.values():
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
                    pairs.append((low, high))
    return sorted(pairs, key=lambda p: (p[0].gpu or "", p[0].software, p[0].shape or "", p[0].variant, p[1].variant))


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
