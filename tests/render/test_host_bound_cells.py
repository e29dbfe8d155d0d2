"""The generic template on PyTorch latencies: a compiled cell of several
compilations and a ratio against it say what they rest on, and timings the
host set the pace of say so (studygen.study.host_bound).

Case (a trial of collect run on an H100: a random-init ViT of hidden size
192 and 12 layers at 224 x 224): the compiled fp16 cell
printed "4.2", the median of compilations at 3.660 and 4.649 ms and neither
one's figure; eager fp32 6.185 ms and fp16 6.677 ms, with the host taking
6.031 and 7.133 ms to issue each forward and the kernels 1.159 and 0.467 ms,
read as GPU times, and the side finding "fp16 is slower than fp32" with them.
The figures below are made up for the tests.
"""

from __future__ import annotations

import pytest

from ..checks.studies import collected_provenance, load, readme_lines, record, spec

GENERIC = '{% extends "studygen/generic.md.j2" %}\n'
EVENTS = {"timer": "cuda-events", "cuda_graph": False, "data_transfers": False, "host_sync": "per_repeat"}


def torch_latency(variant: str, mode: str, value_ms: float, issue_ms: float, compilations=()) -> dict:
    result = {"kind": "latency", "variant": variant, "shape": "224x224", "batch": 1, "backend": "pytorch",
              "mode": mode, "timing": "gpu_compute", "statistic": "median", "value_ms": value_ms,
              "method": dict(EVENTS),
              "distribution": {"repeats": 3, "repeat_medians_ms": [value_ms - 0.02, value_ms, value_ms + 0.02],
                               "host_issue_ms_per_forward": issue_ms, "host_ms_per_forward": issue_ms + 0.001}}
    if compilations:
        result["compilations"] = [{"compilation": i, "median_ms": m, "repeat_medians_ms": [m - 0.02, m, m + 0.02]}
                                  for i, m in enumerate(compilations, 1)]
    return result


def kernels(variant: str, mode: str, total: float) -> dict:
    return {"kind": "kernel_time", "variant": variant, "shape": "224x224", "batch": 1, "backend": "pytorch",
            "mode": mode, "groups": [{"group": "GEMM/MatMul", "time_ms": total}], "profiled_total_ms": total}


def study_of(tmp_path, results):
    two = spec(variants=[{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}], recipes={})
    provenance = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)
    return load(tmp_path, records=[record("trial", results, provenance)], template=GENERIC, study=two)


def cells(lines: list[str], heading: str) -> list[list[str]]:
    """The body cells of the first table after the line starting with ``heading``."""
    after = lines[next(i for i, line in enumerate(lines) if line.startswith(heading)):]
    first = next(i for i, line in enumerate(after) if line.startswith("|"))
    table = after[first:first + next(i for i, line in enumerate(after[first:]) if not line.startswith("|"))]
    return [[cell.strip() for cell in line.split("|")[1:-1]] for line in table[2:]]


def test_a_compiled_cell_and_its_ratio_name_their_compilations(tmp_path):
    # fp32 compiled twice (5.0 and 5.6 ms, median 5.3), fp16 three times (3.0, 4.0, 3.4: median 3.4); host far ahead
    study = study_of(tmp_path, [torch_latency("fp32", "compile", 5.3, 1.2, [5.0, 5.6]),
                                torch_latency("fp16", "compile", 3.4, 1.1, [3.0, 4.0, 3.4])])
    lines = readme_lines(study)
    assert "Timed as" not in "\n".join(lines)  # one way of timing: one table, no heading
    assert cells(lines, "### Latency") == [["H100 80GB HBM3", "224 x 224", "1", "5.3 (2 compilations: 5.0 to 5.6)",
                                            "3.4 (3 compilations: 3.0 to 4.0)",
                                            "1.56x (6 pairs of compilations: 1.25x to 1.87x)"]]
    assert not any(line.startswith("Host-bound timings") for line in lines)


def test_host_bound_latencies_say_whose_time_they_are_and_so_does_the_inversion(tmp_path):
    # eager: fp32 8.0 ms issued in 7.9 ms (99 %), fp16 9.0 ms in 8.2 ms (91 %); kernels 2.5 and 1.1 ms.
    # compiled fp16: 3.0 ms issued in 2.6 ms (87 %, under the 90 % rule): no line
    study = study_of(tmp_path, [torch_latency("fp32", "eager", 8.0, 7.9), torch_latency("fp16", "eager", 9.0, 8.2),
                                kernels("fp32", "eager", 2.5), kernels("fp16", "eager", 1.1),
                                torch_latency("fp16", "compile", 3.0, 2.6), kernels("fp16", "compile", 0.9)])
    lines = readme_lines(study)
    listed = lines[lines.index(next(line for line in lines if line.startswith("Host-bound timings:"))) + 2:]
    assert listed[:3] == [
        "- fp32 at 224 x 224 (eager, job trial): the host took 7.900 ms to issue each forward against a median of "
        "8.000 ms; the profiled kernels take 2.500 ms",
        "- fp16 at 224 x 224 (eager, job trial): the host took 8.200 ms to issue each forward against a median of "
        "9.000 ms; the profiled kernels take 1.100 ms",
        ""]
    finding = next(line for line in lines if line.startswith("- fp16 on H100"))
    assert finding.endswith(" Both timings are host-bound: the host took 8.200 ms (fp16) and 7.900 ms (fp32) to "
                            "issue each forward, while the profiled kernels take 1.100 and 2.500 ms, so the gap is in "
                            "the host's work per forward, not in the GPU's.")
    # the timing words of a PyTorch run name no spin-wait, a trtexec setting it does not have
    assert "Timed as PyTorch eager, CUDA-event time per forward, CUDA graphs off, data transfers off, forwards " \
           "queued back to back:" in lines


def test_one_host_bound_side_is_named_and_a_template_may_leave_the_clause_out(tmp_path):
    # fp16 eager 9.0 ms issued in 8.5 ms (host-bound); fp32 eager 8.0 ms issued in 4.0 ms (not)
    from studygen.render.view import StudyView

    study = study_of(tmp_path, [torch_latency("fp32", "eager", 8.0, 4.0), torch_latency("fp16", "eager", 9.0, 8.5)])
    view = StudyView(study)
    assert view.precision_inversions(metric="gpu_compute") == [
        "fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 9.0 ms against 8.0 ms. The fp16 "
        "timing is host-bound: the host took 8.500 ms to issue each forward, so that figure times the host at least "
        "as much as the GPU."]
    assert view.precision_inversions(metric="gpu_compute", host_bound=False) == [
        "fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 9.0 ms against 8.0 ms."]


def _inversions(tmp_path, jobs: dict[str, list[dict]]) -> list[str]:
    from studygen.render.view import StudyView

    two = spec(variants=[{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}], recipes={})
    provenance = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)
    study = load(tmp_path, records=[record(job, results, provenance) for job, results in jobs.items()],
                 template=GENERIC, study=two)
    return StudyView(study).precision_inversions(metric="gpu_compute")


def test_a_timing_issued_in_exactly_nine_tenths_of_its_median_is_host_bound(tmp_path):
    # fp16 eager 10.0 ms issued in 9.0 ms, the rule's edge; fp32 eager 8.0 ms issued in 2.0 ms
    assert _inversions(tmp_path, {"trial": [torch_latency("fp32", "eager", 8.0, 2.0),
                                            torch_latency("fp16", "eager", 10.0, 9.0)]}) == [
        "fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 10.0 ms against 8.0 ms. The fp16 "
        "timing is host-bound: the host took 9.000 ms to issue each forward, so that figure times the host at least "
        "as much as the GPU."]


def test_an_inversion_neither_side_of_which_is_host_bound_says_nothing_of_the_host(tmp_path):
    # issue times of 3.0 and 4.0 ms against medians of 8.0 and 9.0 ms: the GPU sets the pace
    assert _inversions(tmp_path, {"trial": [torch_latency("fp32", "eager", 8.0, 3.0),
                                            torch_latency("fp16", "eager", 9.0, 4.0)]}) == [
        "fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 9.0 ms against 8.0 ms."]


def test_two_host_bound_sides_without_profiles_give_no_kernel_totals(tmp_path):
    # fp32 eager 8.0 ms issued in 7.6 ms, fp16 eager 9.0 ms in 8.8 ms; no kernel_time result
    assert _inversions(tmp_path, {"trial": [torch_latency("fp32", "eager", 8.0, 7.6),
                                            torch_latency("fp16", "eager", 9.0, 8.8)]}) == [
        "fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 9.0 ms against 8.0 ms. Both timings "
        "are host-bound: the host took 8.800 ms (fp16) and 7.600 ms (fp32) to issue each forward, so the gap is in "
        "the host's work per forward, not in the GPU's."]


def test_a_side_measured_by_two_jobs_gives_the_least_issue_time_every_job_keeps(tmp_path):
    # fp16 eager in job a: 9.0 ms issued in 8.6 ms, in job b: 9.2 ms in 8.9 ms; fp32 8.0 ms issued in 3.0 ms
    found = _inversions(tmp_path, {"a": [torch_latency("fp32", "eager", 8.0, 3.0), torch_latency("fp16", "eager", 9.0, 8.6)],
                                   "b": [torch_latency("fp32", "eager", 8.0, 3.0), torch_latency("fp16", "eager", 9.2, 8.9)]})
    assert len(found) == 1
    assert found[0].endswith(" The fp16 timing is host-bound: the host took at least 8.600 ms to issue each forward in "
                             "every job, so that figure times the host at least as much as the GPU.")


def test_a_latency_row_without_a_figure_is_not_host_bound(tmp_path):
    import dataclasses

    from studygen.study.host_bound import host_bound

    study = study_of(tmp_path, [torch_latency("fp16", "eager", 9.0, 8.5)])
    (row,) = [row for row in study.rows if row.result.get("kind") == "latency"]
    assert host_bound(row).issue_ms == 8.5
    assert host_bound(dataclasses.replace(row, value=None)) is None


def _pooled_view(tmp_path, results, **spec_fields):
    from studygen.render.view import StudyView

    two = spec(variants=[{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}], recipes={},
               **spec_fields)
    provenance = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)
    study = load(tmp_path, records=[record("trial", results, provenance)], template=GENERIC, study=two)
    by_variant = {}
    for row in study.rows:
        by_variant.setdefault((row.result["variant"], row.result["kind"]), []).append(row)
    return StudyView(study), by_variant


def test_a_pooled_cell_and_its_ratio_are_noted_with_their_rows(tmp_path):
    from studygen.render.produced import recording

    view, rows = _pooled_view(tmp_path, [torch_latency("fp32", "compile", 5.3, 1.2, [5.0, 5.6]),
                                         torch_latency("fp16", "compile", 3.4, 1.1, [3.0, 4.0, 3.4])])
    a, b = rows["fp32", "latency"], rows["fp16", "latency"]
    with recording() as log:
        assert view._pooled_table_cell(a) == "5.3 (2 compilations: 5.0 to 5.6)"
        assert view._pooled_table_ratio(a, b) == "1.56x (6 pairs of compilations: 1.25x to 1.87x)"
    assert [(item.kind, item.rows) for item in log] == [("figure", tuple(a)), ("ratio", (*a, *b))]
    assert log[1].compared == ((a[0], b[0]),)  # one job's two figures: a ratio within the job


@pytest.mark.parametrize("fp32, fp16, ratio", [
    # 5.0 and 5.6 ms (median 5.3) over 4.0 ms: 1.33x, 1.25x and 1.40x
    ([5.0, 5.6], [4.0], "1.33x (2 pairs of compilations: 1.25x to 1.40x)"),
    ([4.0], [5.0, 5.6], "0.75x (2 pairs of compilations: 0.71x to 0.80x)"),
])
def test_a_ratio_against_one_compilation_spans_the_other_sides_compilations(tmp_path, fp32, fp16, ratio):
    median = {2: lambda ms: round(sum(ms) / 2, 3), 1: lambda ms: ms[0]}
    view, rows = _pooled_view(tmp_path, [torch_latency("fp32", "compile", median[len(fp32)](fp32), 1.0, fp32),
                                         torch_latency("fp16", "compile", median[len(fp16)](fp16), 1.0, fp16)])
    assert view._pooled_table_ratio(rows["fp32", "latency"], rows["fp16", "latency"]) == ratio
    one = rows["fp16" if len(fp16) == 1 else "fp32", "latency"]
    assert view._pooled_table_cell(one) is None  # one compilation: the cell prints as it always has


def test_compilations_whose_ends_print_alike_say_each_once(tmp_path):
    from studygen.study.compilations import pooled_cell

    # fp32: three compilations at 6.25 ms; fp16: 4.10012, 4.10021 and 4.10034 ms, alike at the study's 3 decimals
    view, rows = _pooled_view(tmp_path, [torch_latency("fp32", "compile", 6.25, 1.2, [6.25, 6.25, 6.25]),
                                         torch_latency("fp16", "compile", 4.10021, 1.1, [4.10012, 4.10034, 4.10021])])
    fp32, fp16 = rows["fp32", "latency"], rows["fp16", "latency"]
    assert view._pooled_table_cell(fp32) == "6.25 (3 compilations, each 6.25)"
    # a cell's own digits tell 4.10012 from 4.10034: a range still
    assert view._pooled_table_cell(fp16) == "4.1002 (3 compilations: 4.1001 to 4.1003)"
    # the compilation table prints the study's ms decimals, where both cells' ends print alike
    assert view._pooled_figure(pooled_cell(fp32)) == "6.250 (3 compilations, each 6.250)"
    assert view._pooled_figure(pooled_cell(fp16)) == "4.100 (3 compilations, each 4.100)"


def test_kernel_times_are_no_pooled_latency_cell(tmp_path):
    view, rows = _pooled_view(tmp_path, [torch_latency("fp32", "compile", 5.3, 1.2, [5.0, 5.6]),
                                         kernels("fp32", "compile", 2.0)])
    assert view._pooled_table_cell(rows["fp32", "latency"]) == "5.3 (2 compilations: 5.0 to 5.6)"
    assert view._pooled_table_cell(rows["fp32", "latency"] + rows["fp32", "kernel_time"]) is None
    assert view._pooled_table_cell(rows["fp32", "kernel_time"]) is None


def test_a_pooled_ratio_takes_the_studys_ratio_decimals(tmp_path):
    view, rows = _pooled_view(tmp_path, [torch_latency("fp32", "compile", 5.3, 1.2, [5.0, 5.6]),
                                         torch_latency("fp16", "compile", 3.4, 1.1, [3.0, 4.0, 3.4])],
                              precision={"ratio": 3})
    assert view._pooled_table_ratio(rows["fp32", "latency"], rows["fp16", "latency"]) == \
        "1.559x (6 pairs of compilations: 1.250x to 1.867x)"


def test_two_jobs_host_times_are_the_bound_every_job_keeps(tmp_path):
    # job one: fp32 8.0 ms issued in 7.9, fp16 9.0 in 8.2 (kernels 2.5 and 1.1); job two: fp32 10.0 in 9.6, fp16
    # 11.0 in 10.4 (kernels 2.6 and 1.3). The clause printed each side's span ("8.200 to 10.400 ms (fp16)"), which
    # lint then read as a summary of the host-time column and found the other variants' rows outside it (SG101 on
    # a README render wrote): each side is the bound every job keeps, the host's least and the kernels' most
    from studygen.render.view import StudyView

    two = spec(variants=[{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}], recipes={})
    provenance = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)
    jobs = [record("one", [torch_latency("fp32", "eager", 8.0, 7.9), torch_latency("fp16", "eager", 9.0, 8.2),
                           kernels("fp32", "eager", 2.5), kernels("fp16", "eager", 1.1)], provenance),
            record("two", [torch_latency("fp32", "eager", 10.0, 9.6), torch_latency("fp16", "eager", 11.0, 10.4),
                           kernels("fp32", "eager", 2.6), kernels("fp16", "eager", 1.3)], provenance)]
    view = StudyView(load(tmp_path, records=jobs, template=GENERIC, study=two))
    (finding,) = view.precision_inversions(metric="gpu_compute")
    assert finding.endswith(" Both timings are host-bound: the host took at least 8.200 ms (fp16) and at least "
                            "7.900 ms (fp32) to issue each forward in every job, while the profiled kernels take at "
                            "most 1.300 and at most 2.600 ms, so the gap is in the host's work per forward, not in "
                            "the GPU's."), finding


# ---- collect run --cpu: wall-clock timings, no GPU (trial s21) ------------------------------------------------

HOST_CLOCK = {"timer": "perf-counter", "cuda_graph": False, "data_transfers": False}


def cpu_latency(variant: str, value_ms: float, issue_ms: float) -> dict:
    """A collect run --cpu figure: the host clock, end_to_end, the host issuing the whole forward."""
    result = torch_latency(variant, "eager", value_ms, issue_ms)
    result.update(timing="end_to_end", method=dict(HOST_CLOCK))
    return result


def test_a_study_timed_by_the_host_clock_only_shows_its_latencies_and_no_gpu_waits(tmp_path):
    # fp32 0.445 ms, bf16 0.583 ms: both issued in about their median (the CPU does the work); before, the
    # generic template showed gpu_compute figures only, so these reached the chart and SG208 but no table
    study = study_of(tmp_path, [cpu_latency("fp32", 0.445, 0.450), cpu_latency("fp16", 0.583, 0.593)])
    lines = readme_lines(study)
    assert "### Latency (ms, median end-to-end time)" in lines
    # two decimals: the repeat medians spread 0.04 ms
    assert cells(lines, "### Latency") == [["H100 80GB HBM3", "224 x 224", "1", "0.45", "0.58", "0.76x"]]
    text = "\n".join(lines)
    assert "Host-bound" not in text and "host-bound" not in text  # no GPU waits for a host that does the work
    assert "- fp16 on H100 80GB HBM3 at 224 x 224 (eager) is slower than fp32 with 0.58 ms against 0.45 ms." in lines


def test_the_timing_shown_is_each_runs_timing_of_its_work(tmp_path):
    from studygen.study.timing import shown_rows

    eager = torch_latency("fp32", "eager", 5.0, 1.0)
    cpu = cpu_latency("fp32", 0.445, 0.450)
    same_run_host = dict(eager, timing="host_latency", value_ms=5.2)  # the eager run's host latency: one run
    for results, shown in (([eager], [5.0]), ([cpu], [0.445]), ([eager, cpu], [5.0, 0.445]),
                           ([eager, same_run_host], [5.0]), ([cpu, same_run_host], [0.445, 5.2]), ([], [])):
        rows = study_of(tmp_path / str(len(list(tmp_path.iterdir()))), results).rows
        assert [row.value for row in shown_rows(rows)] == shown, results


def test_a_timing_whose_kernels_fill_its_median_is_the_gpus_whatever_the_host_issue_time(tmp_path):
    # A large network at a large batch: the host waits for launch slots, so its issue time follows the GPU's
    # pace. fp32 12.0 ms, issued in 11.7 ms, kernels 11.5 ms (96 % of the median): the GPU's time.
    # bf16 10.0 ms, issued in 9.9 ms, kernels 8.9 ms (89 %, under the 90 % rule): still host-bound.
    study = study_of(tmp_path, [torch_latency("fp32", "eager", 12.0, 11.7), kernels("fp32", "eager", 11.5),
                                torch_latency("fp16", "eager", 10.0, 9.9), kernels("fp16", "eager", 8.9)])
    lines = readme_lines(study)
    start = lines.index(next(line for line in lines if line.startswith("Host-bound timings:")))
    assert lines[start].startswith("Host-bound timings: where the host took at least 90 % of a forward's median "
                                   "time to issue the forward (host issue time per forward, recorded by collect run) "
                                   "and the profiled kernels fill under 90 % of it, the GPU waits")
    assert lines[start + 2:start + 4] == [
        "- fp16 at 224 x 224 (eager, job trial): the host took 9.900 ms to issue each forward against a median of "
        "10.000 ms; the profiled kernels take 8.900 ms", ""]


def test_a_timing_whose_kernels_take_exactly_nine_tenths_of_its_median_is_the_gpus(tmp_path):
    study = study_of(tmp_path, [torch_latency("fp32", "eager", 8.0, 7.9), kernels("fp32", "eager", 7.2)])
    assert not any(line.startswith("Host-bound timings") for line in readme_lines(study))


def test_a_ratio_cell_resting_on_a_host_bound_timing_says_so(tmp_path):
    # a new user's tiny ResNet: its eager ratio read as the GPU's. fp32 eager 8.0 ms issued in 7.9 ms (host-bound),
    # fp16 eager 6.0 ms issued in 2.0 ms: 8.0 / 6.0 = 1.33x, one side the host's pace; compiled fp32 5.0 ms and
    # fp16 4.0 ms, issued in 1.0 ms each: 1.25x, the GPU's, unmarked
    study = study_of(tmp_path, [torch_latency("fp32", "eager", 8.0, 7.9), torch_latency("fp16", "eager", 6.0, 2.0),
                                torch_latency("fp32", "compile", 5.0, 1.0), torch_latency("fp16", "compile", 4.0, 1.0)])
    lines = readme_lines(study)
    assert cells(lines, "Timed as PyTorch eager") == [["H100 80GB HBM3", "224 x 224", "1", "8.0", "6.0",
                                                       "1.33x (host-bound)"]]
    assert cells(lines, "Timed as PyTorch torch.compile") == [["H100 80GB HBM3", "224 x 224", "1", "5.0", "4.0", "1.25x"]]


def test_compiled_cells_say_how_many_compilations_and_that_a_fixed_count_tested_no_further_one(tmp_path):
    # a new user's fp16 at 384 x 384: three compilations, 3.20 to 3.42 ms, read as the range a next compilation lands
    # in; one compiled and timed apart took 3.85 ms. A fixed count tested nothing of the kind, and says so
    fixed = {"compilations": 3, "count": 3, "stopped": "fixed count"}
    fp32 = dict(torch_latency("fp32", "compile", 3.22, 1.0, [3.11, 3.25, 3.22]), compilation_rule=fixed)
    fp16 = dict(torch_latency("fp16", "compile", 3.34, 1.0, [3.20, 3.42, 3.34]), compilation_rule=fixed)
    lines = readme_lines(study_of(tmp_path, [fp32, fp16]))
    assert ("Compiled cells: each compilation ran in its own process with an empty Inductor cache, and a cell prints "
            "the median and range of its compilations' medians; how many compilations each got: a fixed 3 "
            "compilations (no test of whether a further compilation falls inside their range).") in lines
    # an eager study prints no such line
    assert not any(line.startswith("Compiled cells:") for line in readme_lines(
        study_of(tmp_path / "eager", [torch_latency("fp32", "eager", 8.0, 2.0)])))
