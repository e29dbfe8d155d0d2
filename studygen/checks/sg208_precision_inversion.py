"""SG208 precision inversion (warning): a lower-precision variant that is
slower than a higher-precision one at the same shape, GPU, software and
timing method. Render lists each under side findings by itself.

Case (seed): at 800 x 1067 the fp16 engine is slower than the fp32 engine
(B200 14.747 vs 13.99 ms, B300 14.487 vs 13.62 ms).
"""

from __future__ import annotations

from itertools import combinations

from ..findings import Finding
from .base import row_finding
from ..numbers import format_number

# Bits per value: a variant with fewer bits is expected to be at least as fast.
PRECISION_BITS = {"fp32": 32, "tf32": 19, "bf16": 16, "fp16": 16, "fp8": 8, "int8": 8, "nvfp4": 4, "int4": 4}
SAME_CONFIG = ("family", "revision", "shape", "batch", "backend", "mode", "gpu", "software", "metric", "statistic")


def precision_inversions(study) -> list[tuple[dict, dict]]:
    """Pairs ``(lower_precision_row, higher_precision_row)`` of latency rows
    where the lower-precision variant has the larger latency (ms)."""
    groups: dict[tuple, list[dict]] = {}
    for row in study.rows:
        if row["kind"] != "latency" or row["value"] is None or row["precision"] not in PRECISION_BITS:
            continue
        groups.setdefault(tuple(row[f] for f in SAME_CONFIG), []).append(row)
    pairs = []
    for rows in groups.values():
        by_bits: dict[int, list[dict]] = {}
        for row in rows:
            by_bits.setdefault(PRECISION_BITS[row["precision"]], []).append(row)
        # Each higher-precision bucket sorted by latency: only the rows faster than a
        # lower-precision row are visited, so the cost follows the inversions found.
        for low_bits, high_bits in combinations(sorted(by_bits), 2):
            faster_first = sorted(by_bits[high_bits], key=lambda r: r["value"])
            for low in by_bits[low_bits]:
                for high in faster_first:
                    if high["value"] >= low["value"]:
                        break
                    pairs.append((low, high))
    return sorted(pairs, key=lambda p: (p[0]["gpu"] or "", p[0]["software"], p[0]["shape"] or "", p[0]["variant"], p[1]["variant"]))


def check(study) -> list[Finding]:
    findings = []
    for low, high in precision_inversions(study):
        where = f"{low['gpu'] or 'GPU not stated'}, {low['software'] or 'versions not stated'}, {low['shape']}"
        findings.append(row_finding(
            study, "SG208", low,
            f"{low['variant']} ({format_number(low['value'])} ms, job {low['job_id']}) is slower than "
            f"{high['variant']} ({format_number(high['value'])} ms, job {high['job_id']}) on {where}",
            hint="render lists it under side findings; explain it if it is expected"))
    return findings
