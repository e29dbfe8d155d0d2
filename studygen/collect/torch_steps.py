"""Which ``ProfilerStep#N`` of a Kineto trace each kernel belongs to.

Steps are recorded on the CPU (``user_annotation`` or ``cpu_op``) and, in
recent PyTorch, again on the GPU (``gpu_user_annotation``; on ROCm a few µs
long and tens of ms after their CPU range, see the MI300X fixtures). The
CPU ranges are used when there are any, the GPU ones otherwise; a step named
twice on one side is one range (their union).

Against CPU ranges a kernel belongs to the step that holds its **launch**:
the runtime or driver call (``cudaLaunchKernel``, ``hipLaunchKernel``,
``hipExtModuleLaunchKernel``, ``cuLaunchKernel`` …) whose ``correlation`` id
the kernel carries, the join PyTorch's profiler and HTA make. Its own GPU
start says nothing of its step: a GPU runs work queued before the profiler's
window first (in the MI300X ResNet fixture,
../shared/fixtures/torch_profiler/rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz,
757 kernels, 30.8 ms, correlation ids 4066-5178, no launch in the trace,
run in the first 30 ms of ProfilerStep#15). A kernel whose launch is not
in the trace is in no step. Only a trace holding none of its kernels'
launches is matched by the kernels' own start (nothing else is left to go
by), and a note says so; so is every kernel against GPU ranges, which are
GPU time themselves.
"""

from __future__ import annotations

import collections
import re
from dataclasses import dataclass, field

from ..errors import InputError
from .inputs import is_number

STEP_NAME = re.compile(r"^ProfilerStep#(\d+)$")
# Kineto writes ts and dur in µs, rounded (to 1 µs in older PyTorch, to 1 ns in newer): an end computed as
# ts + dur may pass the next event's start by up to 1 µs without the events overlapping.
TIMESTAMP_SLACK_US = 1.0
GPU_STEP_CATEGORY = "gpu_user_annotation"


@dataclass
class StepRanges:
    """ProfilerStep ranges by side: name → [start, end] µs, merged when a
    name comes twice on one side; and every step event by side and thread
    (pid, tid) as ``[start, end, index, name]``, to refuse overlaps."""

    cpu: dict[str, list[float]] = field(default_factory=dict)
    gpu: dict[str, list[float]] = field(default_factory=dict)
    events: dict[tuple, list] = field(default_factory=lambda: collections.defaultdict(list))

    def add(self, category: str, name: str, start: float, end: float, track: tuple = (), index: int = 0) -> None:
        is_gpu = category == GPU_STEP_CATEGORY
        side = self.gpu if is_gpu else self.cpu
        span = side.get(name)
        if span is None:
            side[name] = [start, end]
        else:
            span[0], span[1] = min(span[0], start), max(span[1], end)
        self.events[(is_gpu, track)].append([start, end, index, name])

    def overlap(self, gpu: bool) -> tuple[tuple, list, list] | None:
        """``(track, earlier, later)``: the two step events of other names on
        one thread of one side that overlap by more than
        :data:`TIMESTAMP_SLACK_US`, the later one first in the file among
        such pairs; None when the steps of every thread follow one another
        (one name written twice is one step, never an overlap)."""
        found = []
        for (is_gpu, track), spans in self.events.items():
            if is_gpu != gpu:
                continue
            spans.sort()
            latest = spans[0]  # the span reaching furthest so far: a short step inside a long one overlaps it
            for span in spans[1:]:
                if span[0] < latest[1] - TIMESTAMP_SLACK_US and span[3] != latest[3]:
                    found.append((span[2], track, latest, span))
                if span[1] > latest[1]:
                    latest = span
        return min(found, key=lambda item: item[0])[1:] if found else None

    def chosen(self) -> tuple[list[tuple[float, float, str]], bool, str | None]:
        """``(ranges sorted by start, by_launch, note)``: the CPU ranges
        (kernels matched by their launch), else the GPU ones (by the
        kernel's own start)."""
        if self.cpu:
            note = None
            if self.gpu:
                note = (f"ProfilerStep ranges appear on the CPU ({len(self.cpu)}) and on the GPU "
                        f"({len(self.gpu)}, {GPU_STEP_CATEGORY}): each step counted once, by its CPU range")
            return sorted((s, e, n) for n, (s, e) in self.cpu.items()), True, note
        note = ("ProfilerStep ranges appear on the GPU only (gpu_user_annotation): kernels matched by their own start"
                if self.gpu else None)
        return sorted((s, e, n) for n, (s, e) in self.gpu.items()), False, note


def refuse_overlapping_steps(steps: StepRanges, by_launch: bool, display: str, pointer_base: str) -> None:
    """Steps of one thread run one after another: two that overlap (a step
    recorded twice, traces concatenated) would give kernels to the wrong step
    and make the mean per iteration wrong."""
    pair = steps.overlap(gpu=not by_launch)
    if pair is None:
        return
    track, (start, end, index, name), (later_start, _, later_index, later_name) = pair
    where = f"pid {track[0]} tid {track[1]}" if track else "one thread"
    raise InputError(f"{later_name} (event {later_index}) starts at ts {later_start:.3f} µs inside {name} (event "
                     f"{index}, ts {start:.3f} to {end:.3f} µs) on {where}: steps of one thread cannot overlap "
                     "(a step recorded twice, or traces joined?), so kernels per iteration would be wrong",
                     path=display, pointer=f"{pointer_base}/{later_index}")


def assign_steps(times: list[float], ranges: list[tuple[float, float, str]]) -> list[str | None]:
    """The step of each time (µs) in ``times``: the range ``(start, end,
    name)`` that starts last at or before it and has not ended; None outside
    every range. One pass over the times and the ranges, both sorted (the
    cost grows with their counts added, not multiplied)."""
    out: list[str | None] = [None] * len(times)
    if not ranges:
        return out
    order = sorted(range(len(times)), key=times.__getitem__)
    current = -1
    for index in order:
        moment = times[index]
        while current + 1 < len(ranges) and ranges[current + 1][0] <= moment:
            current += 1
        if current >= 0 and moment <= ranges[current][1]:
            out[index] = ranges[current][2]
    return out


@dataclass
class Attribution:
    """Each kernel's step (``labels``, None in none), the step names in time
    order (``steps``), how many kernels were launched outside every step
    (``outside``), the durations (µs) of the kernels whose launch the trace
    lacks though it holds others' (``unlaunched``, left out of every step,
    under one kind: ``"before"`` when each one's correlation id is below
    every launch's recorded, so they were queued before the profiler's
    window; ``"missing"`` otherwise, launches dropped from a trimmed trace,
    as in HTA's trace_compare test data), and a note on how steps were read
    (or None)."""

    labels: list[str | None]
    steps: list[str]
    outside: int
    unlaunched: dict[str, list[float]]
    note: str | None


def attribute(kernel_events: list[tuple], launches: dict, steps: StepRanges, display: str,
              pointer_base: str) -> Attribution:
    """The step of each kernel of ``kernel_events`` (``(name, dur µs, ts µs,
    device, correlation)``), by the launch time (µs) ``launches`` gives its
    correlation id against CPU ranges (see the module). Raises InputError for
    steps of other names that overlap on one thread."""
    ranges, by_launch, note = steps.chosen()
    refuse_overlapping_steps(steps, by_launch, display, pointer_base)
    by_launch = by_launch or not ranges  # no steps: in none, yet the kernels without a launch are told apart
    launch_times = [launches.get(correlation) for *_, correlation in kernel_events]
    if all(moment is None for moment in launch_times):
        if by_launch and ranges:
            note = "; ".join(filter(None, (note, "the trace holds no kernel's launch (runtime event of its "
                                           "correlation id): kernels matched to steps by their own start")))
        by_launch = False  # no launch recorded at all: the kernels' own start is the only clue left
    if not by_launch:
        labels = assign_steps([ts for _, _, ts, _, _ in kernel_events], ranges)
        outside = sum(1 for label in labels if label is None) if ranges else 0
        return Attribution(labels, [name for _, _, name in ranges], outside, {}, note)
    launched = [index for index, moment in enumerate(launch_times) if moment is not None]
    labels: list[str | None] = [None] * len(kernel_events)
    for index, label in zip(launched, assign_steps([launch_times[index] for index in launched], ranges)):
        labels[index] = label
    outside = sum(1 for index in launched if labels[index] is None) if ranges else 0
    unlaunched = [(correlation, dur) for (_, dur, _, _, correlation), moment in zip(kernel_events, launch_times)
                  if moment is None]
    first = min((correlation for correlation in launches if is_number(correlation)), default=None)
    # CUPTI and roctracer number calls in order: ids below every launch recorded were queued before the window
    before = first is not None and all(is_number(correlation) and correlation < first for correlation, _ in unlaunched)
    by_kind = {"before" if before else "missing": [dur for _, dur in unlaunched]} if unlaunched else {}
    return Attribution(labels, [name for _, _, name in ranges], outside, by_kind, note)
