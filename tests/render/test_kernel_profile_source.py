"""The generic template's kernel-time section says where trtexec's per-layer
times come from: trtexec's profiler (``--dumpProfile`` table or
``--exportProfile`` file) times each layer in a profiled run that
synchronises after every layer, so those times carry that overhead and do
not divide the GPU compute latency of an unprofiled run beside them. The
sentence is built from each result's ``profiler`` and ``source_locator``
fields; a kernel time from another profiler gets none."""

from __future__ import annotations

from studygen.render.engine import render_markdown

from ..checks.studies import kernel_time, latency, record
from ..conftest import FIXTURES
from .test_generic_template import generic_study

DUMP_PROFILE = FIXTURES / "trtexec" / "trt10.16_dump-profile.log"


def kernel_section(markdown: str) -> str:
    return markdown.split("### Kernel time per group (ms)")[1].split("\n## ")[0]


def test_a_dump_profile_read_from_a_real_log_is_said_to_come_from_a_profiled_run(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "demo", "--variants", "fp32").exit_code == 0
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "h100", "--variant", "fp32",
                   "--log", DUMP_PROFILE)
    assert done.exit_code == 0, done.err
    assert run_cli("render", "demo").exit_code == 0
    section = kernel_section((tmp_path / "families" / "demo" / "README.md").read_text())
    # source_locator trt10.16_dump-profile.log:83 (its '=== Profile' line); profiler 'trtexec --dumpProfile (...)'
    assert ("- In job h100, the per-layer times come from the --dumpProfile table of trt10.16_dump-profile.log, "
            "which trtexec takes in a profiled run that synchronises after each layer: they include that overhead "
            "and do not divide the latency of a run timed without the profiler.") in section.splitlines()


def test_each_job_and_source_once_and_no_sentence_for_another_profiler(tmp_path):
    export = "trtexec --exportProfile (p.json; averageMs: mean per iteration)"
    a = record("a", [latency("fp16", 5.0),
                     kernel_time("fp16", {"GEMM/MatMul": 0.4}, profiler=export, source_locator="p.json:line 1"),
                     kernel_time("fp16", {"GEMM/MatMul": 0.8}, shape="800x800", profiler=export,
                                 source_locator="p.json:line 40")])
    b = record("b", [latency("fp16", 5.5),
                     kernel_time("fp16", {"GEMM/MatMul": 0.5}, profiler="torch.profiler (Kineto trace)",
                                 source_locator="trace.json"),
                     kernel_time("fp16", {"GEMM/MatMul": 0.6}, shape="800x800", profiler="trtexec --dumpProfile")])
    lines = [line for line in kernel_section(render_markdown(generic_study(tmp_path, [a, b]))).splitlines()
             if "per-layer times" in line]
    assert lines == ["- In job a, the per-layer times come from the --exportProfile file p.json, which trtexec takes "
                     "in a profiled run that synchronises after each layer: they include that overhead and do not "
                     "divide the latency of a run timed without the profiler.",
                     "- In job b, the per-layer times come from a --dumpProfile table, which trtexec takes in a "
                     "profiled run that synchronises after each layer: they include that overhead and do not divide "
                     "the latency of a run timed without the profiler."]


def test_a_separately_profiled_run_gets_one_sentence_on_the_profilers_overhead(tmp_path):
    # a user's int8 log run with --separateProfileRun: its --exportProfile layers add up to 0.4527 ms against a
    # 0.292246 ms mean GPU compute time (55% above). The sentence on where the layer times come from says why; a
    # second one repeating it with figures (SG210's, worded as if something were wrong) is no longer written.
    export = "trtexec --exportProfile (p.json; averageMs: mean per iteration)"
    method = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True,
              "separate_profile_run": True}
    compute = latency("fp16", 0.275391, "224x224", statistics_ms={"mean": 0.292246, "median": 0.275391},
                      method=method)
    profile = kernel_time("fp16", {"Conv": 0.438, "other": 0.0147}, "224x224", total=0.4527, profiler=export,
                          source_locator="p.json:line 1")
    apart = kernel_section(render_markdown(generic_study(tmp_path / "apart", [record("rtx3080", [compute, profile])])))
    assert [line for line in apart.splitlines() if line.startswith("- ")] == [
        "- In job rtx3080, the per-layer times come from the --exportProfile file p.json, which trtexec takes in a "
        "profiled run that synchronises after each layer: they include that overhead and do not divide the latency "
        "of a run timed without the profiler."]
    # the same figures from a run whose log states that it profiled while timed: the layers ran inside that
    # time, so a larger total is another run's profile, said in a second sentence
    inside = dict(compute, method=dict(method, separate_profile_run=False))
    text = kernel_section(render_markdown(generic_study(tmp_path / "inside", [record("rtx3080", [inside, profile])])))
    assert [line for line in text.splitlines() if "adds up to" in line] == [
        "- In job rtx3080 (fp16 at 224 x 224, batch 1, engine), the layers' kernel time adds up to 0.4527 ms, 55% "
        "above the 0.2922 ms mean GPU compute time of the same run: the run profiled its layers while it was "
        "timed, which makes the profile another run's, so its groups do not divide that latency."]


def test_a_mean_worked_out_from_per_iteration_times_prints_at_the_readmes_digits(tmp_path):
    # an --exportTimes file gives no mean: collect works one out from its iterations and the record keeps all of
    # it (0.523718364105 ms); the sentence prints it as the README prints a time with no spread of its own, four
    # significant digits, as it prints the layers' total beside it (0.6388 of 0.638812 ms, 22% above)
    export = "trtexec --exportProfile (p.json; averageMs: mean per iteration)"
    method = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True,
              "separate_profile_run": False}
    compute = latency("fp16", 0.4913, "224x224", statistics_ms={"mean": 0.523718364105, "median": 0.4913},
                      method=method)
    profile = kernel_time("fp16", {"Conv": 0.5104, "other": 0.128412}, "224x224", total=0.638812, profiler=export,
                          source_locator="p.json:line 1")
    text = kernel_section(render_markdown(generic_study(tmp_path, [record("titan", [compute, profile])])))
    (line,) = [line for line in text.splitlines() if "adds up to" in line]
    assert "adds up to 0.6388 ms, 22% above the 0.5237 ms mean GPU compute time" in line
