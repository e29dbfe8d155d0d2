"""records.profile_spread: what a kernel-time result's figures are (CPU
operators' self times or GPU kernel time) and what they span (a whole trace,
a mean per profiled iteration), called directly on invented results.

The profiler strings are the ones collect writes: ``collect run --cpu``'s
(:data:`CPU_PROFILER`), a Kineto trace's (``torch.profiler (Kineto trace ...)``
from ``collect torch-profile``), trtexec's profile."""

from __future__ import annotations

from pathlib import Path

from studygen.records.load import Record
from studygen.records.profile_spread import (CPU_PROFILER, CPU_SPAN, ITERATION_SPAN, WHOLE_TRACE_SPAN,
                                             cpu_operator_profile, kernel_span)

KINETO = "torch.profiler (Kineto trace, 79 kernel launches)"
GPU_MACHINE = {"gpu": "NVIDIA A100-SXM4-80GB", "gpu_count": 1}
CPU_MACHINE = {"gpu": None, "gpu_count": 0, "cpu": "AMD EPYC 7R13"}


def record(provenance: dict) -> Record:
    return Record(path=Path("m/job.json"), display_path="m/job.json", data={"provenance": provenance}, text="{}")


def test_a_profile_is_of_cpu_operators_by_its_profiler_or_its_machine():
    assert cpu_operator_profile(record(GPU_MACHINE), {"profiler": CPU_PROFILER})  # the name alone says so
    assert cpu_operator_profile(record(CPU_MACHINE), {"profiler": KINETO})  # a machine stated without a GPU
    assert cpu_operator_profile(record(CPU_MACHINE), {})
    assert not cpu_operator_profile(record(GPU_MACHINE), {"profiler": KINETO})
    assert not cpu_operator_profile(record(GPU_MACHINE), {})  # no profiler named: a GPU machine's kernels
    assert not cpu_operator_profile(record({"gpu_count": 0, "gpu": "NVIDIA L4"}), {})  # a GPU named: not "none"
    assert not cpu_operator_profile(record(GPU_MACHINE), {"profiler": f"trtexec; {CPU_PROFILER}"})  # not its start


def test_what_a_kernel_time_spans():
    assert kernel_span(record(GPU_MACHINE), {"profiler": KINETO}) == WHOLE_TRACE_SPAN  # no profiler steps read
    assert kernel_span(record(GPU_MACHINE), {"profiler": KINETO, "per_iteration": [{"label": "ProfilerStep#3"}]}) \
        == ITERATION_SPAN
    assert kernel_span(record(GPU_MACHINE), {"profiler": "trtexec --exportProfile"}) == ITERATION_SPAN
    assert kernel_span(record(GPU_MACHINE), {}) == ITERATION_SPAN  # no profiler named: not a Kineto trace
    assert kernel_span(record(CPU_MACHINE), {"profiler": KINETO}) == CPU_SPAN  # CPU before span
    assert kernel_span(record(GPU_MACHINE), {"profiler": CPU_PROFILER}) == CPU_SPAN
