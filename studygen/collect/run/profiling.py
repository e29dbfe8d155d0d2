"""Kernel time per group from ``torch.profiler``, and the FP8 evidence.

A profiled run is separate from the timed run (the profiler adds overhead):
after W warm-up forwards, P forwards run under ``torch.profiler.profile`` with
CPU and CUDA activities. Every device event (kernels, memcpy, memset) is summed
per name over the P forwards and divided by P, so times are **ms per forward**;
the names are grouped by the study's kernel-group rules
(:mod:`studygen.collect.kernel_groups`, shared with ``collect torch-profile``).

FP8 evidence: the kernels whose names match the study's FP8 GEMM pattern
(cuBLASLt ``nvjet_sm90_qq…``: both operands FP8), each flagged when the
profiler linked it to an ``aten::_scaled_mm`` call, with time per forward and
calls; the other kernels launched under ``aten::_scaled_mm`` (the fused FP8
input cast, workspace memsets) listed apart; and the number of
fake-quantization kernel launches (ModelOpt's ``fake_e4m3fy`` and kin) per forward.

Without CUDA (CPU tests) there are no device events; the CPU operators' self
time is grouped instead and the record's ``profiler`` field says so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from ..kernel_groups import KernelGroupRules, KernelItem, group_times, groups_for_record


@dataclass
class Profile:
    """Per-forward device time by kernel name (``items``), the profiler's
    description, kernels launched by ``aten::_scaled_mm``, and the iteration count."""

    items: list[KernelItem]
    profiler: str
    scaled_mm_kernels: set
    iterations: int


CUDA_PROFILER = "torch.profiler (Kineto/CUPTI): device kernels, memcpy and memset, ms per forward"
CPU_PROFILER = "torch.profiler without CUDA: CPU operator self time, ms per forward (no GPU kernels)"


def profile_forwards(call, *, iterations: int, warmup: int, cuda: bool) -> Profile:
    """Profile ``iterations`` calls of ``call(i)`` after ``warmup`` unprofiled ones:
    device events on CUDA, CPU operators' self time without it."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    for i in range(warmup):
        call(i)
    if cuda:
        torch.cuda.synchronize()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with profile(activities=activities) as prof:
        for i in range(iterations):
            call(i)
        if cuda:
            torch.cuda.synchronize()
    if cuda:
        totals_us, counts, scaled_mm = _device_tally(prof.events(), torch.autograd.DeviceType.CUDA)
    else:
        totals_us, counts, scaled_mm = _cpu_tally(prof.key_averages())
    return Profile(items=per_forward_items(totals_us, counts, iterations),
                   profiler=CUDA_PROFILER if cuda else CPU_PROFILER, scaled_mm_kernels=scaled_mm, iterations=iterations)


def _device_tally(events, device_type) -> tuple[dict[str, float], dict[str, int], set]:
    """``(total us by name, launches by name, kernels launched by aten::_scaled_mm)``
    over the profiler's device events (kernels, memcpy, memset)."""
    totals_us: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    scaled_mm: set = set()
    for event in events:
        if event.device_type == device_type:
            totals_us[event.name] += event.time_range.elapsed_us()
            counts[event.name] += 1
        elif event.name == "aten::_scaled_mm":
            scaled_mm.update(kernel.name for kernel in event.kernels)
    return totals_us, counts, scaled_mm


def _cpu_tally(averages) -> tuple[dict[str, float], dict[str, int], set]:
    """``(self time us by operator, calls by operator, empty set)`` from ``key_averages()``,
    operators without self time left out."""
    totals_us: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for entry in averages:
        if entry.self_cpu_time_total > 0:
            totals_us[entry.key] += entry.self_cpu_time_total
            counts[entry.key] += entry.count
    return totals_us, counts, set()


def per_forward_items(totals_us: dict[str, float], counts: dict[str, int], iterations: int) -> list[KernelItem]:
    """Items with ``time_ms`` per forward (total us / 1000 / ``iterations``,
    rounded to 1 ns) and ``calls`` per forward (None unless the count divides
    evenly by ``iterations``), largest time first."""
    items = []
    for name, total in totals_us.items():
        calls = counts[name] // iterations if counts[name] % iterations == 0 else None
        items.append(KernelItem(name=name, time_ms=round(total / 1000.0 / iterations, 6), calls=calls))
    items.sort(key=lambda item: -item.time_ms)
    return items


def kernel_time_result(profile: Profile, rules: KernelGroupRules) -> dict:
    """The ``kernel_time`` result body for ``profile``: its items grouped by
    ``rules`` (groups with ms per forward and share, total, unclassified)."""
    grouped = group_times(profile.items, rules)
    return {
        "groups": groups_for_record(grouped),
        "profiled_total_ms": round(grouped.total_ms, 6),
        "unclassified_ms": round(grouped.unclassified_ms, 6),
        "unclassified_share": round(grouped.unclassified_share, 6),
        "iterations": profile.iterations,
        "profiler": profile.profiler,
        "rows_listed": True,
    }


def fp8_evidence(profile: Profile, gemm_pattern: str, fake_pattern: str) -> dict:
    """``{"kernels": [{name, time_ms, calls}], "fake_quant_kernels": n, ...}``:
    FP8 GEMM kernels (launched by ``aten::_scaled_mm`` or named by ``gemm_pattern``)
    with ms per forward, and fake-quantization kernel launches per forward."""
    gemm = re.compile(gemm_pattern, re.IGNORECASE)
    fake = re.compile(fake_pattern, re.IGNORECASE)
    kernels, companions, fake_calls, fake_ms = [], [], 0, 0.0
    for item in profile.items:
        entry = {"name": item.name, "time_ms": round(item.time_ms, 6)}
        if item.calls is not None:
            entry["calls"] = item.calls
        if fake.search(item.name):
            fake_calls += item.calls if item.calls is not None else 1
            fake_ms += item.time_ms
        elif gemm.search(item.name):
            kernels.append({**entry, "launched_by_scaled_mm": item.name in profile.scaled_mm_kernels})
        elif item.name in profile.scaled_mm_kernels:
            # launched under aten::_scaled_mm but not a GEMM: the fused FP8 input cast, a workspace memset
            companions.append(entry)
    return {"kernels": kernels, "fake_quant_kernels": fake_calls, "fake_quant_ms": round(fake_ms, 6),
            "gemm_kernel_pattern": gemm_pattern, "scaled_mm_companion_kernels": companions}
