"""Kernel times of different spans never share a column, a range, a ratio or
an ms axis. A new user's trial put an A100 Kineto trace without profiler
steps (its figures totals over the whole trace) and a V100 trace of five
steps (its figures means per step) in one "fp32 (ms)" column; only the lines
under the table told them apart.

The figures are read off the traces by hand (a Python sum of the trace
events, no studygen code): the AlexNet trace's 79 kernels last 10692 µs in
all; the ns-resolution trace's kernels launched in ProfilerStep#101 to #105
last 93.697, 93.734, 93.602, 93.705 and 93.416 ms, a mean of 93.631 ms."""

from __future__ import annotations

import json

import pytest

from studygen.errors import TemplateError
from studygen.records.trace_notes import UNMATCHED_NOTE, unmatched_note
from studygen.render.charts import kernel_chart
from studygen.render.view import StudyView
from studygen.study import load_study
from studygen.study.timing import measurement_of

from ..conftest import FIXTURES
from .test_generic_template import tables_of
from .test_kernel_profile_source import kernel_section

ALEXNET = FIXTURES / "torch_profiler" / "alexnet_kineto_trace.json.gz"  # A100, no ProfilerStep
STEPPED = FIXTURES / "public" / "hta_ns_resolution_trace_rank-0.pt.trace.json.gz"  # V100, 5 steps
TRITON = FIXTURES / "public" / "hta_triton_example_triton_example.json.gz"  # A100, 1 step


def _project(tmp_path, run_cli, monkeypatch, jobs) -> StudyView:
    """`new` with fp32 and fp16, `collect torch-profile` of each ``(job, variant, trace)``, `render`; the view."""
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "demo", "--variants", "fp32,fp16").exit_code == 0
    for job, variant, trace in jobs:
        done = run_cli("collect", "torch-profile", "--family", "demo", "--job", job, "--variant", variant,
                       "--mode", "eager", "--trace", trace)
        assert done.exit_code == 0, done.err
    done = run_cli("render", "demo")
    assert done.exit_code == 0, done.err
    return StudyView(load_study(tmp_path / "families" / "demo", tmp_path))


def _readme(tmp_path) -> str:
    return (tmp_path / "families" / "demo" / "README.md").read_text()


def test_a_whole_trace_total_and_a_mean_per_step_print_in_tables_of_their_own(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, [("a100", "fp32", ALEXNET), ("v100", "fp32", STEPPED)])
    section = kernel_section(_readme(tmp_path))
    tables = tables_of(section)
    # before: one table, its "fp32 (ms)" column holding 10.69 (whole trace) above 93.6 (mean per step)
    assert len(tables) == 2
    whole, stepped = tables
    assert whole[0] == ["GPU", "Kernel group", "fp32 (ms over the whole trace)"]
    assert stepped[0] == ["GPU", "Kernel group", "fp32 (ms per iteration)"]
    assert [row for row in whole if row[1] == "total"] == [["A100-PG509-200", "total", "10.69"]]
    assert [row for row in stepped if row[1] == "total"] == [["Tesla V100-SXM2-32GB", "total", "93.6"]]
    assert {row[0] for row in whole[1:]} == {"A100-PG509-200"}
    assert {row[0] for row in stepped[1:]} == {"Tesla V100-SXM2-32GB"}
    assert "A total over the whole trace, in job a100:" in section
    assert "A mean per profiled iteration, in job v100:" in section
    assert section.index("in job a100:") < section.index("fp32 (ms over the whole trace)") \
        < section.index("in job v100:") < section.index("fp32 (ms per iteration)")


def test_one_span_keeps_one_table_and_its_plain_header(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, [("v100", "fp32", STEPPED)])
    section = kernel_section(_readme(tmp_path))
    assert [table[0] for table in tables_of(section)] == [["GPU", "Kernel group", "fp32 (ms)"]]
    assert "in job" not in section.split("|")[0]


def test_ratios_ranges_and_tables_across_spans_are_refused(tmp_path, run_cli, monkeypatch):
    view = _project(tmp_path, run_cli, monkeypatch, [("a100", "fp32", ALEXNET), ("v100", "fp16", STEPPED)])
    fp32 = view.one(metric="kernel_time", group="total", variant="fp32")
    fp16 = view.one(metric="kernel_time", group="total", variant="fp16")
    assert (fp32.value, round(fp16.value, 3)) == (10.692, 93.631)
    # before: 0.11x, an A100 whole-trace total over a V100 mean per step
    with pytest.raises(TemplateError, match=r"a total over the whole trace \(job a100\); a mean per profiled "
                                            r"iteration \(job v100\)"):
        view.ratio(fp32, fp16)
    with pytest.raises(TemplateError, match="reduction_percent"):
        view.reduction_percent(fp32, fp16)
    with pytest.raises(TemplateError, match="a range over"):
        view.span(view.figures(metric="kernel_time", group="total"))
    with pytest.raises(TemplateError, match="^table would set"):
        view.table(index=("gpu", "group"), variants=("fp32", "fp16"), metric="kernel_time",
                   derived=view.ratio_columns(("fp32", "fp16")))
    with pytest.raises(TemplateError, match="^list_table would set"):
        view.list_table(view.figures(metric="kernel_time", group="total"))
    # one span selected, the table prints its own figures only
    only = view.table(index=("gpu", "group"), variants=("fp16",), metric="kernel_time", group="total",
                      span="a mean per profiled iteration")
    assert tables_of(only)[0][1:] == [["Tesla V100-SXM2-32GB", "total", "93.6"]]
    # attack 24: a span no kernel time has (misspelt) kept none and printed a table of headers alone
    with pytest.raises(TemplateError, match=r"^span='per step' is none of the spans a kernel time has: 'a mean per "
                                            r"profiled iteration', 'a total over the whole trace', \"CPU operators"):
        view.table(index=("gpu", "group"), variants=("fp16",), metric="kernel_time", span="per step")
    with pytest.raises(TemplateError, match="^span='per step'"):
        view.leaves_a_cell_empty(index=("gpu", "group"), variants=("fp16",), metric="kernel_time", span="per step")
    # the generic README splits them, each variant in the table of its span
    tables = tables_of(kernel_section(_readme(tmp_path)))
    assert [table[0][2:] for table in tables] == [["fp32 (ms over the whole trace)"], ["fp16 (ms per iteration)"]]


def test_two_jobs_of_one_key_but_different_spans_are_no_job_to_job_spread(tmp_path, run_cli, monkeypatch):
    # both A100-PG509-200, fp32, eager, no shape: one key; AlexNet's whole trace, the Triton example's one step
    view = _project(tmp_path, run_cli, monkeypatch, [("whole", "fp32", ALEXNET), ("step", "fp32", TRITON)])
    whole, step = (view.one(metric="kernel_time", group="total", job_id=job) for job in ("whole", "step"))
    assert whole._row.key == step._row.key
    assert measurement_of(whole._row) != measurement_of(step._row)
    assert view.spread(whole) == view.spread(step) == ""  # before: "2 jobs: ..." across the two spans
    section = kernel_section(_readme(tmp_path))
    assert "2 jobs" not in section
    stepped = json.loads((tmp_path / "measurements" / "demo" / "step.json").read_text())["results"][0]
    assert stepped["iterations"] == 1 and "per_iteration" not in json.loads(
        (tmp_path / "measurements" / "demo" / "whole.json").read_text())["results"][0]


def test_the_chart_of_runs_of_two_spans_draws_shares_and_names_each_span(tmp_path, run_cli, monkeypatch):
    view = _project(tmp_path, run_cli, monkeypatch, [("a100", "fp32", ALEXNET), ("v100", "fp32", STEPPED)])
    # 93.6 / 10.7 is under the 10-fold limit: before, both bars stood on one ms axis
    chart = kernel_chart(view._study)
    assert "whose figures span different things (a total over the whole trace; a mean per profiled iteration)" \
        in chart.alt
    assert "percentage of each run's total" in chart.alt
    svg = chart.drawing().decode()
    assert "whole trace" in svg and "per iteration" in svg


def test_the_unmatched_note_is_singular_for_one_kernel_and_old_notes_still_read():
    assert unmatched_note(1) == "1 kernel matched no rule"
    assert unmatched_note(18) == "18 kernels matched no rule"
    for note, count in (("79 kernel launches of 16 kernels; 1 kernel matched no rule; times in ms", "1"),
                        ("79 kernel launches of 16 kernels; 1 kernels matched no rule; times in ms", "1"),
                        ("4 kernel launches; 18 kernels matched no rule", "18")):
        assert UNMATCHED_NOTE.search(note).group(1) == count


def test_a_collected_trace_with_one_unmatched_kernel_says_it_in_the_singular(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, [("a100", "fp32", ALEXNET)])
    note = json.loads((tmp_path / "measurements" / "demo" / "a100.json").read_text())["results"][0]["note"]
    # AlexNet's 79 launches of 16 kernels; the default rules leave one kernel in other
    assert note.startswith("79 kernel launches of 16 kernels; ")
    assert "; 1 kernel matched no rule;" in note
    assert "Group other includes 1 distinct kernel (by name, not launches) that matches no kernel_groups rule." in _readme(tmp_path)


def test_sg207_holds_no_whole_trace_total_against_a_mean_per_step(tmp_path, run_cli, monkeypatch):
    # the trial's shape: fp32 and fp16 each on an A100 (whole traces) and a V100 (steps); before, five SG207
    # errors set the A100 totals (10.73 ms fp16) against the V100 means per step (303.3 ms) as two platforms
    jobs = [("a100-fp32", "fp32", ALEXNET), ("v100-fp32", "fp32", STEPPED),
            ("a100-fp16", "fp16", FIXTURES / "public" /
             "hta_critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz"),
            ("v100-fp16", "fp16", FIXTURES / "public" / "hta_timeline_analysis_sampled_rank-0.json.gz")]
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "demo", "--variants", "fp32,fp16").exit_code == 0
    for job, variant, trace in jobs:
        gpu = ["--gpu", "Tesla V100-SXM2-32GB"] if job == "v100-fp16" else []  # that trace names no GPU
        done = run_cli("collect", "torch-profile", "--family", "demo", "--job", job, "--variant", variant,
                       "--mode", "eager", "--trace", trace, *gpu)
        assert done.exit_code == 0, done.err
    done = run_cli("check", "demo")
    assert "SG207" not in done.out + done.err
    assert "SG210" in done.out + done.err  # the check ran: 67% of v100-fp16's kernel time is in no group
