"""The generic template says, beside the kernel-time table, what each
profiler trace's figures span. A user's trial put a ResNet trace (rank 0 of
an 8-rank NCCL job on device 2, ProfilerStep#15 to #17, 757 kernels queued
before the profiler's window) beside an AlexNet trace with no steps: both
printed "Kernel time per group (ms)" and "for 1 profiled run", one a mean
per step, the other a whole-trace total, and only the records' notes told
them apart (:mod:`studygen.render.kernel_spans`)."""

from __future__ import annotations

import json

import yaml

from studygen.render.engine import render_markdown

from ..checks.studies import kernel_time, record
from ..conftest import FIXTURES
from .test_generic_template import generic_study
from .test_kernel_profile_source import kernel_section

TORCH = FIXTURES / "torch_profiler"
RESNET = TORCH / "rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz"
ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"
KINETO = "torch.profiler (Kineto trace, CUDA, CUPTI; GPU kernel events, dur in µs)"


def _collected_section(tmp_path, run_cli, monkeypatch, trace, variant, rules) -> list[str]:
    """The kernel-time section's list lines after `new`, `collect torch-profile` of ``trace`` and `render`."""
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "demo", "--variants", variant).exit_code == 0
    study_file = tmp_path / "families" / "demo" / "study.yaml"
    spec = yaml.safe_load(study_file.read_text())
    spec["kernel_groups"] = [{"pattern": pattern, "group": group} for pattern, group in rules]
    study_file.write_text(yaml.safe_dump(spec, sort_keys=False))
    done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "j", "--variant", variant,
                   "--mode", "eager", "--trace", trace)
    assert done.exit_code == 0, done.err
    assert run_cli("render", "demo").exit_code == 0
    section = kernel_section((tmp_path / "families" / "demo" / "README.md").read_text())
    return [line for line in section.splitlines() if line.startswith("- ")]


def test_a_rank_of_a_distributed_step_says_its_steps_device_rank_and_left_out_kernels(tmp_path, run_cli,
                                                                                      monkeypatch):
    rules = [("nccl", "NCCL communication"), ("batch_norm", "batch norm"), ("igemm|gemm|xdlops|Cijk_", "GEMM and conv"),
             ("transpose", "transpose")]
    lines = _collected_section(tmp_path, run_cli, monkeypatch, RESNET, "bf16", rules)
    # step totals 22.299043, 22.264198 and 21.871163 ms, printed at the digits the table's 22.1 ms total carries
    assert lines == [
        "- In job j (bf16, eager), each figure is the mean per profiled step over 3 steps (ProfilerStep#15 to #17); "
        "a step's total kernel time ranges from 21.9 to 22.3 ms. The kernels ran on device 2, as rank 0 of 8 (nccl); "
        "the time of its communication kernels (group NCCL communication) includes waiting for the other ranks, not "
        "only transfers. 757 kernels (30.8 ms) launched before the first profiled step are left out of every step. "
        "Group other includes 18 distinct kernels (by name, not launches) that match no kernel_groups rule."]
    result = json.loads((tmp_path / "measurements" / "demo" / "j.json").read_text())["results"][0]
    assert (result["device"], result["distributed"]) == (2, {"rank": 0, "world_size": 8, "backend": "nccl"})


def test_a_trace_without_steps_says_its_figures_are_whole_trace_totals(tmp_path, run_cli, monkeypatch):
    # its distributedInfo is {"rank": 0} alone: no world size, so no rank is said
    lines = _collected_section(tmp_path, run_cli, monkeypatch, ALEXNET, "fp32",
                               [("sgemm|gemm", "GEMM"), ("conv|scudnn|fprop|fft2d", "conv")])
    assert lines[0] == ("- In job j (fp32, eager), each figure is the total over the whole trace (no profiler steps). "
                        "The kernels ran on device 0. Group other includes 9 distinct kernels (by name, not launches) "
                        "that match no kernel_groups rule.")
    assert "distributed" not in json.loads((tmp_path / "measurements" / "demo" / "j.json").read_text())["results"][0]


def _trace_result(variant: str, groups: dict[str, float], **extra) -> dict:
    return kernel_time(variant, groups, shape=None, backend="pytorch", mode="eager", profiler=KINETO,
                       total=round(sum(groups.values()), 6), **extra)


def test_invented_records_two_steps_missing_launches_and_other_profilers(tmp_path):
    two_steps = _trace_result(
        "fp16", {"GEMM": 1.5, "other": 0.5}, source_locator="t.json.gz:device 1", device=1,
        iterations=2, note="12 kernel launches of 3 kernels; mean per iteration over 2 ProfilerStep ranges; "
                           "1 kernels matched no rule",
        per_iteration=[{"label": "ProfilerStep#3", "profiled_total_ms": 1.8, "groups": {"GEMM": 1.4, "other": 0.4}},
                       {"label": "ProfilerStep#4", "profiled_total_ms": 2.2, "groups": {"GEMM": 1.6, "other": 0.6}}])
    no_step_kernel = _trace_result(
        "fp16", {"GEMM": 3.0}, source_locator="u.json", distributed={"rank": 3, "world_size": 4},
        note="no kernel falls in the trace's 2 ProfilerStep ranges: times are totals over the whole trace")
    trtexec = kernel_time("fp16", {"GEMM": 0.4}, profiler="trtexec --exportProfile (p.json)", source_locator="p.json")
    del two_steps["shape"], no_step_kernel["shape"]
    provenance_notes = ["t.json.gz (device 1): 2 kernels (0.25 ms) whose launch event is missing from the trace "
                        "(their step is unknown): left out",
                        "t.json.gz: 5 kernels (9.9 ms) launched before the first profiled step, no launch event in "
                        "the trace: left out",
                        "u.json: 1 kernel (0.5 ms) launched before profiling began (no launch event in the trace): "
                        "counted in the whole-trace totals"]
    first = record("a", [two_steps, trtexec])
    first["provenance"]["notes"] = provenance_notes
    second = record("b", [no_step_kernel])
    second["provenance"]["notes"] = provenance_notes
    section = kernel_section(render_markdown(generic_study(tmp_path, [first, second])))
    # the note of another device's kernels (t.json.gz without a device) belongs to no result here
    assert [line for line in section.splitlines() if "each figure" in line] == [
        "- In job a (fp16, batch 1, eager), each figure is the mean per profiled step over 2 steps "
        "(ProfilerStep#3 and #4); a step's total kernel time ranges from 1.8 to 2.2 ms. The kernels ran on device 1. "
        "2 kernels (0.25 ms) whose launch the trace lacks are left out of every step. Group other includes 1 distinct "
        "kernel (by name, not launches) that matches no kernel_groups rule.",
        "- In job b (fp16, batch 1, eager), each figure is the total over the whole trace (no kernel in its "
        "profiler steps). The kernels ran as rank 3 of 4. 1 kernel (0.5 ms) launched before profiling began is "
        "counted in the totals."]


def test_a_note_counting_more_kernels_than_a_trace_holds_is_not_read(tmp_path):
    # attack s20: a hand-edited result note (no length limit) with a 5,000-digit count stopped render with
    # Python's int() error blamed on the generic template; a count past 18 digits is no note the collector wrote
    huge = "9" * 5000
    result = _trace_result("fp16", {"GEMM": 1.5, "other": 0.5}, note=f"3 kernel launches; {huge} kernels matched no rule")
    marked = record("a", [result])
    fitting = _trace_result("fp32", {"GEMM": 2.5, "other": 0.5}, note=f"3 kernel launches; {'9' * 18} kernels matched no rule")
    del result["shape"], fitting["shape"]
    section = kernel_section(render_markdown(generic_study(tmp_path, [marked, record("b", [fitting])])))
    lines = [line for line in section.splitlines() if "each figure" in line]
    assert lines == [
        "- In job a (fp16, batch 1, eager), each figure is the total over the whole trace (no profiler steps).",
        "- In job b (fp32, batch 1, eager), each figure is the total over the whole trace (no profiler steps). "
        f"Group other includes {'9' * 18} distinct kernels (by name, not launches) that match no kernel_groups rule."]
