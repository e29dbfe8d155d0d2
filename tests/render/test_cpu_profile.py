"""A study profiled on a machine without a GPU (collect run --cpu): its
kernel-time section says the figures are CPU operator self times per forward,
a profile whose forwards disagree is listed as unstable under Known gaps, and
a latency's method names no CUDA setting. Per-forward totals are those of a
user's trial (tinyres, job laptop-1 and laptop-2; trial s21b)."""

from __future__ import annotations

from studygen.records.profile_spread import iteration_totals, profile_spread_reason
from studygen.study.timing import describe, timing_label, timing_signature

from ..checks.studies import collected_provenance, kernel_time, load, readme_lines, record
from .test_cpu_machine import TWO
from .test_host_bound_cells import GENERIC, cpu_latency

CPU_PROFILER = "torch.profiler without CUDA: CPU operator self time, ms per forward (no GPU kernels)"
STALLED = [0.397784, 0.373937, 7.046788, 22.576559, 0.396467]  # laptop-1 fp32 64x64: mean 6.158307
MOSTLY_STALLED = [19.647589, 20.212273, 4.151971, 24.603666, 15.034433]  # laptop-2 bf16 64x64: largest 1.25x the median
STEADY = [0.397784, 0.373937, 0.396467]


def cpu_profile(variant: str, totals: list[float], **extra) -> dict:
    """A collect run --cpu kernel-time result whose groups are Conv and other, per forward as ``totals`` say."""
    per_iteration = [{"label": f"forward {k}", "profiled_total_ms": t, "groups": {"Conv": round(t - 0.1, 6), "other": 0.1}}
                     for k, t in enumerate(totals, 1)]
    mean = round(sum(totals) / len(totals), 6)
    result = kernel_time(variant, {"Conv": round(mean - 0.1, 6), "other": 0.1}, shape="64x64", total=mean,
                         backend="pytorch", mode="eager", iterations=len(totals), profiler=CPU_PROFILER,
                         per_iteration=per_iteration)
    result.update(extra)
    return result


def cpu_study(tmp_path, *results):
    provenance = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, cpu="AMD EPYC")
    latencies = [cpu_latency("fp32", 0.319787, 0.32), cpu_latency("fp16", 0.561767, 0.56)]
    return load(tmp_path, records=[record("laptop-1", [*latencies, *results], provenance)], template=GENERIC, study=TWO)


def gaps(lines: list[str]) -> list[str]:
    """The Known gaps list ([] without the section)."""
    if "## Known gaps" not in lines:
        return []
    start = lines.index("## Known gaps")
    return [line for line in lines[start + 1:lines.index("", start + 2)] if line.startswith("- ")]


def test_the_rule_compares_the_largest_forward_with_the_smallest():
    assert profile_spread_reason({"per_iteration": [{"profiled_total_ms": t} for t in STEADY]}) is None
    # 1.5 times the smallest is still steady, a hair more is not
    assert profile_spread_reason({"per_iteration": [{"profiled_total_ms": 2.0}, {"profiled_total_ms": 3.0}]}) is None
    assert profile_spread_reason({"per_iteration": [{"profiled_total_ms": 2.0}, {"profiled_total_ms": 3.000001}]}) == (
        "the totals of its 2 profiled iterations disagree: iteration 2's 3.000001 ms is 1.5 times iteration 1's 2.0 ms "
        "(limit 1.5 times)")
    # four of five forwards stalled: the largest is 1.25 times the median but 5.9 times the smallest
    result = cpu_profile("fp16", MOSTLY_STALLED)
    assert profile_spread_reason(result) == (
        "the totals of its 5 profiled iterations disagree: forward 4's 24.603666 ms is 5.9 times forward 3's "
        "4.151971 ms (limit 1.5 times)")
    assert profile_spread_reason({"per_iteration": [{"profiled_total_ms": 22.6}]}) is None  # one forward: no spread


def test_iteration_totals_skip_entries_without_a_number_and_keep_counting_past_them():
    # a stray entry is passed over, not an end of the list; an iteration keeps
    # its place number (5 here) when unlabelled, and a bool or text is no total
    result = {"per_iteration": [{"label": "warm-up", "profiled_total_ms": "n/a"}, "not an entry",
                                {"label": "forward 1", "profiled_total_ms": True}, {"label": "forward 2", "profiled_total_ms": 4},
                                {"profiled_total_ms": 6.5}, {"label": "forward 4", "profiled_total_ms": None}]}
    assert iteration_totals(result) == [("forward 2", 4), ("iteration 5", 6.5)]
    assert profile_spread_reason(result) == (
        "the totals of its 2 profiled iterations disagree: iteration 5's 6.5 ms is 1.6 times forward 2's 4 ms "
        "(limit 1.5 times)")


def test_a_profile_with_a_zero_total_forward_has_no_ratio_to_report():
    # a forward that recorded no operator time gives no smallest to divide by
    assert profile_spread_reason({"per_iteration": [{"profiled_total_ms": 0.0}, {"profiled_total_ms": 3.2}]}) is None


def test_a_profile_whose_forwards_disagree_is_one_known_gap_and_a_steady_one_none(tmp_path):
    study = cpu_study(tmp_path, cpu_profile("fp32", STALLED), cpu_profile("fp16", STEADY))
    kernel_rows = [row for row in study.rows if row.kind == "kernel_time"]
    assert [(row.variant, row.group, row.unstable) for row in kernel_rows] == [
        ("fp32", "Conv", True), ("fp32", "other", True), ("fp32", "total", True),
        ("fp16", "Conv", False), ("fp16", "other", False), ("fp16", "total", False)]
    assert [line for line in gaps(readme_lines(study)) if "kernel-time" in line] == [
        "- Unstable kernel-time profile in job laptop-1 (fp32, 64 x 64): the totals of its 5 profiled iterations "
        "disagree: forward 4's 22.576559 ms is 60.4 times forward 2's 0.373937 ms (limit 1.5 times)."]


def test_a_profile_that_states_its_own_verdict_is_believed(tmp_path):
    study = cpu_study(tmp_path, cpu_profile("fp32", STALLED, unstable=False))
    assert not any(row.unstable for row in study.rows if row.kind == "kernel_time")
    assert not any("kernel-time" in line for line in gaps(readme_lines(study)))


def test_the_kernel_time_section_says_it_holds_cpu_operator_self_times(tmp_path):
    lines = readme_lines(cpu_study(tmp_path, cpu_profile("fp32", STALLED)))
    assert [line for line in lines if "no GPU was used" in line] == [
        "- In job laptop-1 (fp32, at 64 x 64, batch 1, eager), no GPU was used: each figure is the self time of its "
        "group's CPU operators per forward, not GPU kernel time, the mean over 5 profiled forwards; the least of "
        "their totals is 0.37 ms and the most 23 ms."]


def test_a_latency_timed_without_a_gpu_names_no_cuda_setting(tmp_path):
    study = cpu_study(tmp_path)
    row = next(row for row in study.rows if row.kind == "latency")
    assert describe(timing_signature(row), timing_label([row])) == "PyTorch eager, end-to-end time"
    # the same method on a machine with a GPU states its flags as before
    gpu = load(tmp_path / "gpu", records=[record("h100", [cpu_latency("fp32", 0.3, 0.3)])], template=GENERIC,
               study=TWO)
    gpu_row = next(row for row in gpu.rows if row.kind == "latency")
    assert describe(timing_signature(gpu_row), timing_label([gpu_row])) == (
        "PyTorch eager, end-to-end time, CUDA graphs off, data transfers off")
