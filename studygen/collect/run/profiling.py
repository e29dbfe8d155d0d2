"""Kernel time per group from ``torch.profiler``, and the FP8 evidence.

A profiled run is separate from the timed run (the profiler adds overhead):
after W warm-up forwards, P forwards run, each under its own
``torch.profiler.profile`` session with CPU and CUDA activities (one session a
forward, ended after a device synchronization, so every event belongs to one
forward without matching clocks or launch ids). Every device event (kernels,
memcpy, memset) is summed per name over the P forwards and divided by P, so
times are **ms per forward**; each forward's own sums are kept too
(``per_iteration``: the spread of a group's kernel time over the profiled
forwards). The names are grouped by the study's kernel-group rules
(:mod:`studygen.collect.kernel_groups`, shared with ``collect torch-profile``).

Launch configurations: the first profiled forward's session is also written as
a Kineto trace (Chrome trace format, to a temporary file) and its kernel events'
``args`` are read for ``grid`` and ``block`` (threads per block, x y z),
``registers per thread`` and ``shared memory`` (bytes), as CUPTI reports them.
For an Inductor-generated Triton kernel these show which of its candidate
configurations ran (block = 32 x num_warps; grid = elements / XBLOCK). A
kernel is given its configuration only when all its launches in that forward
used one; a trace that cannot be written or read leaves the kernels without
one and says why (``launch_note``).

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

import json
import os
import re
import tempfile
import warnings
from collections import defaultdict
from dataclasses import dataclass, field

from ...records.profile_spread import CPU_PROFILER, profile_spread_reason
from ..inputs import significant
from ..kernel_groups import KernelGroupRules, KernelItem, group_times, groups_for_record
from ..tf32 import is_tf32_kernel


@dataclass
class Profile:
    """Per-forward device time by kernel name (``items``, mean over the
    forwards), the profiler's description, kernels launched by
    ``aten::_scaled_mm``, the iteration count, each forward's own items
    (``per_iteration``, ms in that forward), and each kernel's launch
    configuration (``launches``: name -> {grid, block, registers_per_thread,
    shared_memory_bytes}) with ``launch_note`` saying why there is none."""

    items: list[KernelItem]
    profiler: str
    scaled_mm_kernels: set
    iterations: int
    per_iteration: list[list[KernelItem]] = field(default_factory=list)
    launches: dict[str, dict] = field(default_factory=dict)
    launch_note: str | None = None


CUDA_PROFILER = "torch.profiler (Kineto/CUPTI): device kernels, memcpy and memset, ms per forward"
KINETO_SILENT = "6"  # Kineto's log levels run 0 (verbose) to 5 (USDT marks); 6 prints none


def profile_forwards(call, *, iterations: int, warmup: int, cuda: bool) -> Profile:
    """Profile ``iterations`` calls of ``call(i)`` after ``warmup`` unprofiled ones,
    one profiler session per call: device events on CUDA, CPU operators' self
    time without it. The first profiled call's launch configurations are read
    from its trace (:func:`launch_configs`)."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    for i in range(warmup):
        call(i)
    if cuda:
        torch.cuda.synchronize()
    else:
        # Kineto writes its tracing marks (two lines a session) and a failed GPU count to stderr on a
        # machine without CUDA: 40 lines under --quiet that say nothing of the run. Read at the first
        # session; a level the user set is kept.
        os.environ.setdefault("KINETO_LOG_LEVEL", KINETO_SILENT)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    totals_us: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    scaled_mm: set = set()
    per_iteration: list[list[KernelItem]] = []
    launches, launch_note = {}, None
    for i in range(iterations):
        with warnings.catch_warnings():
            # each session is read before the next starts: torch's notice that a session clears its events at
            # its end is no news, and it was the one line a GPU run printed under --quiet (trial s22)
            warnings.filterwarnings("ignore", message="Warning: Profiler clears events", category=UserWarning)
            with profile(activities=activities) as prof:
                call(i)
                if cuda:
                    torch.cuda.synchronize()
        if cuda:
            step_us, step_counts, step_scaled = _device_tally(prof.events(), torch.autograd.DeviceType.CUDA)
        else:
            step_us, step_counts, step_scaled = _cpu_tally(prof.key_averages())
        per_iteration.append(per_forward_items(step_us, step_counts, 1))
        for name, us in step_us.items():
            totals_us[name] += us
            counts[name] += step_counts[name]
        scaled_mm |= step_scaled
        if i == 0:
            launches, launch_note = _traced_launches(prof)
    return Profile(items=per_forward_items(totals_us, counts, iterations),
                   profiler=CUDA_PROFILER if cuda else CPU_PROFILER, scaled_mm_kernels=scaled_mm, iterations=iterations,
                   per_iteration=per_iteration, launches=launches, launch_note=launch_note)


def _traced_launches(prof) -> tuple[dict[str, dict], str | None]:
    """``(launch configurations by kernel name, None)`` read from ``prof``'s
    trace written to a temporary file, or ``({}, why)`` when it could not be
    written or read (the kernel times do not depend on it)."""
    # a private folder, removed with whatever the exporter left in it (a partial file, a file of its own)
    with tempfile.TemporaryDirectory(prefix="studygen-trace-", ignore_cleanup_errors=True) as folder:
        try:
            path = os.path.join(folder, "trace.json")
            prof.export_chrome_trace(path)
            with open(path, encoding="utf-8") as handle:
                return launch_configs(json.load(handle)), None
        except Exception as exc:  # noqa: BLE001 - recorded as the reason the kernels carry no launch configuration
            return {}, (f"no launch configurations: the profiler trace could not be written or read "
                        f"({type(exc).__name__})")


def launch_configs(trace) -> dict[str, dict]:
    """Launch configuration of each kernel in a Kineto trace (a Chrome-trace
    object with ``traceEvents``, or a bare event list): ``{name: {"grid": [x,
    y, z], "block": [x, y, z], "registers_per_thread": n,
    "shared_memory_bytes": n}}`` from the ``args`` of its ``"cat": "kernel"``
    events, the fields the trace gives. A kernel launched with more than one
    configuration is left out (no single configuration describes it)."""
    events = trace.get("traceEvents", []) if isinstance(trace, dict) else trace
    seen: dict[str, dict | None] = {}
    for event in events if isinstance(events, list) else []:
        if not isinstance(event, dict) or event.get("cat") != "kernel" or not isinstance(event.get("name"), str):
            continue
        args = event.get("args") if isinstance(event.get("args"), dict) else {}
        config = {}
        for key, field_name in LAUNCH_FIELDS.items():
            value = args.get(key)
            if key in ("grid", "block"):
                if isinstance(value, list) and len(value) == 3 and all(_whole(v) for v in value):
                    config[field_name] = [int(v) for v in value]
            elif _whole(value):
                config[field_name] = int(value)
        name = event["name"]
        if name in seen and seen[name] != config:
            seen[name] = None
        elif name not in seen:
            seen[name] = config
    return {name: config for name, config in seen.items() if config}


# Kineto's kernel-event args (CUPTI kernel activity fields) -> the record's names
LAUNCH_FIELDS = {"grid": "grid", "block": "block", "registers per thread": "registers_per_thread",
                 "shared memory": "shared_memory_bytes"}


def _whole(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0 and float(value).is_integer()


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
    ``rules`` (groups with ms per forward, their largest kernels with their
    launch configurations, total, unclassified) and, when the profile kept
    them, each profiled forward's total and groups (``per_iteration``, labels
    ``forward 1`` ...; ms) and whether they disagree (``unstable`` and
    ``unstable_reason``: :func:`~studygen.records.profile_spread.profile_spread_reason`)."""
    grouped = group_times(profile.items, rules)
    groups = groups_for_record(grouped)
    for group in groups:
        for kernel in group.get("kernels", []):
            kernel.update(profile.launches.get(kernel["name"], {}))
    result = {
        "groups": groups,
        "profiled_total_ms": round(grouped.total_ms, 6),
        "unclassified_ms": round(grouped.unclassified_ms, 6),
        "unclassified_share": round(grouped.unclassified_share, 6),
        "iterations": profile.iterations,
        "profiler": profile.profiler,
        "rows_listed": True,
    }
    if profile.per_iteration:
        result["per_iteration"] = [iteration_entry(f"forward {k}", items, rules)
                                   for k, items in enumerate(profile.per_iteration, 1)]
        # forwards that disagree (a host stall on a shared machine) are flagged as a latency's samples are
        reason = profile_spread_reason(result)
        result["unstable"] = reason is not None
        if reason:
            result["unstable_reason"] = reason
    if profile.launch_note:
        result["note"] = profile.launch_note
    return result


def iteration_entry(label: str, items: list[KernelItem], rules: KernelGroupRules) -> dict:
    """``{label, profiled_total_ms, groups: {group: ms}}`` of one profiled forward's items."""
    grouped = group_times(items, rules)
    return {"label": label, "profiled_total_ms": round(grouped.total_ms, 6),
            "groups": {group: round(ms, 6) for group, ms in grouped.groups.items()}}


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


def tf32_kernel_note(kernel: dict, variant: str, precision: str, where: str) -> str | None:
    """One line for the record's provenance notes when a variant declared
    ``fp32`` ran kernels whose names say TF32 tensor-core math
    (:func:`~studygen.collect.tf32.is_tf32_kernel`, the test ``collect
    torch-profile`` applies to a trace); None for another precision, a CPU
    profile or none such.

    ``kernel``: a ``kernel_time`` result of ``collect run`` (its groups' kernel
    lists: ``name``, ``time_ms`` per forward, ``calls`` per forward); ``where``
    names the cell (``224x224, batch 1, eager``). The note gives the launches
    per forward, their ms per forward and share of ``profiled_total_ms`` (3
    significant digits) and the largest. The lists hold each group's 20
    largest kernels, so the count is a lower bound, as the names are.

    Why: an fp32 ResNet timed on an H100 ran its first convolution and 8 GEMMs
    of cuDNN's as TF32 (19 % of its kernel time) while the record said only
    that fp32 convolutions "may" use TF32; the figures read as full FP32."""
    if precision.lower() != "fp32" or kernel.get("profiler") == CPU_PROFILER:
        return None
    tf32: dict[str, float] = {}
    launches = 0
    for group in kernel.get("groups", []):
        for entry in group.get("kernels", []):
            if is_tf32_kernel(entry["name"]):
                tf32[entry["name"]] = tf32.get(entry["name"], 0.0) + entry["time_ms"]
                launches += entry.get("calls") or 0
    if not tf32:
        return None
    spent = sum(tf32.values())
    total = kernel.get("profiled_total_ms") or 0.0
    share = f", {spent / total:.0%} of the kernel time" if total else ""  # a profile of no time has no share
    largest = max(tf32, key=lambda name: (tf32[name], name))
    count = f"{launches} kernel launches" if launches else f"{len(tf32)} kernels"
    return (f"{variant} at {where}: {count} per profiled forward ran TF32 tensor-core math by their names "
            f"({significant(spent, 3):g} ms per forward{share}; largest: {largest}), while variant {variant!r} is "
            "declared fp32: PyTorch lets cuDNN convolutions use TF32 by default on Ampere and newer GPUs "
            "(torch.backends.cudnn.allow_tf32), and matmuls where torch.backends.cuda.matmul.allow_tf32 is set; "
            "these figures are not full-FP32 arithmetic")
