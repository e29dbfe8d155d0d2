"""Issue 22, part B1: the generic template publishes a study a reviewer would
let through. Each test here failed on the code before its fix.

Figures are made up for the tests; each expected value is read off the
records written here."""

from __future__ import annotations

import yaml

from studygen.checks import run_checks
from studygen.render.charts import distinct_labels, kernel_chart, latency_chart
from studygen.render.engine import GENERIC_TEMPLATE, render_markdown
from studygen.study import load_study

from ..checks.studies import FAMILY, collected_provenance, codes, kernel_time, latency, record, spec, write_project
from .test_generic_template import tables_of


def generic(tmp_path, records, **overrides):
    """A project whose study file names the generic template, with ``overrides`` of the toy study file."""
    study_dir = write_project(tmp_path, records=records, study=spec(**overrides))
    (tmp_path / "templates" / f"{FAMILY}.md.j2").unlink()
    study_file = study_dir / "study.yaml"
    study_file.write_text(yaml.safe_dump(dict(yaml.safe_load(study_file.read_text()), template=GENERIC_TEMPLATE),
                                         sort_keys=False))
    return load_study(study_dir, tmp_path)


def torch_latency(variant, value, mode="eager", shape="800x800", **extra):
    method = {"timer": "cuda_event", "cuda_graph": mode == "compile", "data_transfers": False, "host_sync": "per_repeat"}
    return latency(variant, value, shape, backend="pytorch", mode=mode, method=method, **extra)


def torch_provenance(gpu="NVIDIA H100 PCIe"):
    provenance = collected_provenance(gpu=gpu)
    provenance["software"] = {"torch": "2.4.1", "cuda": "12.4"}
    return provenance


# ---- the latency figure: one timing, labels that differ ------------------------------------------

def test_the_latency_figure_plots_only_the_timing_its_table_shows(tmp_path):
    # trtexec prints six timings per run; the table shows GPU compute time, so must the figure
    results = [latency("fp16", 0.154663), latency("fp16", 0.290894, timing="host_latency"),
               latency("fp16", 0.0022583, timing="h2d"), latency("fp32", 0.153595),
               latency("fp32", 0.31, timing="end_to_end")]
    study = generic(tmp_path, [record("a", results)])
    chart = latency_chart(study)
    # the ends as the table prints them: 4 significant digits (issue 22, 6-7 digit latencies)
    assert chart.alt == "Median GPU compute time per variant at 800 x 800: 0.1536 to 0.1547 ms over 2 results"


def test_a_latency_figure_of_one_timing_names_it_too(tmp_path):
    # one timing in the records: nothing chosen, but the words still say which timing it is
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0), latency("fp32", 7.5)])])
    assert latency_chart(study).alt == "Median GPU compute time per variant at 800 x 800: 5.0 to 7.5 ms over 2 results"


def test_kernel_bars_of_one_log_run_at_several_batches_are_told_apart_by_batch(tmp_path):
    # one trtexec log, one variant and shape, three batches: the label named job, variant and shape only
    results = [kernel_time("fp16", {"Conv": 1.0 * b, "other": 0.5}, "224x224", batch=b) for b in (1, 4, 16)]
    study = generic(tmp_path, [record("xavier-trt7", results)])
    labels = [label for label, _ in kernel_chart(study).draw.args[0]]
    assert labels == ["xavier-trt7\nfp16 224 x 224 engine batch 1", "xavier-trt7\nfp16 224 x 224 engine batch 4",
                      "xavier-trt7\nfp16 224 x 224 engine batch 16"]


def test_latency_points_of_one_panel_are_told_apart_by_batch(tmp_path):
    results = [latency("fp16", 1.5, batch=1), latency("fp16", 4.25, batch=4)]
    study = generic(tmp_path, [record("a", results)])
    panels = latency_chart(study).draw.args[1]
    assert [label for label, _, _ in panels[(0, "800x800", "fp16")]] == ["H200 TensorRT 11.4 batch 1",
                                                                      "H200 TensorRT 11.4 batch 4"]


def test_labels_that_agree_in_every_field_are_numbered(tmp_path):
    results = [latency("fp16", 1.5), latency("fp16", 1.6)]
    study = generic(tmp_path, [record("a", results)])
    assert distinct_labels([("x", row) for row in study.rows]) == ["x #1", "x #2"]
    assert distinct_labels([("x", study.rows[0]), ("y", study.rows[1])]) == ["x", "y"]


# ---- no findings of its own -----------------------------------------------------------------------

def test_tensorrt_and_pytorch_latencies_of_one_variant_get_a_table_each(tmp_path):
    # one table would put a TensorRT engine and a PyTorch eager latency in one column: SG212 at the README
    trt = record("trt", [latency("fp16", 0.42)])
    torch = record("torch", [torch_latency("fp16", 3.75)], torch_provenance())
    study = generic(tmp_path, [trt, torch])
    text = render_markdown(study)
    tables = tables_of(text)
    assert tables[1] == [["GPU", "Shape HxW", "Batch", "fp16 (ms)"], ["H100 PCIe", "800 x 800", "1", "3.75"]]
    assert tables[2] == [["GPU", "Shape HxW", "Batch", "fp16 (ms)"], ["H200", "800 x 800", "1", "0.42"]]
    assert ("Timed as PyTorch eager, CUDA-event time per forward, CUDA graphs off, data transfers off, forwards "
            "queued back to back:") in text.splitlines()
    readme = study.rel(study.readme_path)
    assert [f for f in run_checks(study) if f.file == readme and f.code == "SG212"] == []


def test_eager_and_compiled_latencies_are_not_one_column(tmp_path):
    job = record("run", [torch_latency("fp16", 3.75), torch_latency("fp16", 2.5, mode="compile")], torch_provenance())
    study = generic(tmp_path, [job])
    readme = study.rel(study.readme_path)
    assert [f for f in run_checks(study) if f.file == readme and f.code == "SG212"] == []
    assert len(tables_of(render_markdown(study))) == 1 + 2 + 1  # variants, a latency table per mode, provenance


def test_a_pytorch_study_has_no_tensorrt_column_in_its_repeated_measurements(tmp_path):
    a = record("a", [torch_latency("fp16", 3.75)], torch_provenance())
    b = record("b", [torch_latency("fp16", 3.8)], torch_provenance())
    text = render_markdown(generic(tmp_path, [a, b]))
    repeated = tables_of(text.split("### Same measurement in several jobs")[1])[0]
    assert repeated[0] == ["Measurement", "GPU", "Value per job", "Spread"]
    assert repeated[1] == ["fp16 median CUDA-event time per forward 800 x 800", "H100 PCIe", "a: 3.75; b: 3.8", "0.05"]


def test_a_batch_every_row_shares_is_stated(tmp_path):
    results = [latency("fp16", 0.154663, "28x28", batch=4), latency("fp32", 0.153595, "28x28", batch=4)]
    tables = tables_of(render_markdown(generic(tmp_path, [record("a", results)])))
    assert tables[1] == [["GPU", "Shape HxW", "Batch", "fp32 (ms)", "fp16 (ms)", "fp32 / fp16"],
                         ["H200", "28 x 28", "4", "0.1536", "0.1547", "0.99x"]]  # 0.153595 / 0.154663


def test_a_ratio_column_no_row_can_fill_is_left_out(tmp_path):
    # fp16 measured at one shape, fp32 at another: no table row holds both, the column was all "n/a"
    a = record("a", [latency("fp16", 0.154663), latency("fp32", 0.153595, "800x1067")])
    tables = tables_of(render_markdown(generic(tmp_path, [a])))
    assert tables[1] == [["GPU", "Shape HxW", "Batch", "fp32 (ms)", "fp16 (ms)"],
                         ["H200", "800 x 800", "1", "—", "0.1547"],
                         ["H200", "800 x 1067", "1", "0.1536", "—"]]


# ---- what the README must say ------------------------------------------------------------------

def test_a_failed_compilation_is_stated_with_its_reason(tmp_path):
    failed = {"kind": "not_measured", "variant": "fp16", "shape": "800x800", "batch": 1, "backend": "pytorch",
              "mode": "compile", "metric": "latency", "reason": "the compilation failed: the worker exited with code 1"}
    job = record("run", [torch_latency("fp16", 3.75), failed], torch_provenance())
    text = render_markdown(generic(tmp_path, [job]))
    assert ("- Latency of fp16 at 800 x 800 (compile) in job run: the compilation failed: the worker exited "
            "with code 1.") in text.splitlines()


def test_kernel_time_mostly_in_no_named_group_is_stated(tmp_path):
    # TensorRT 7 layer names matched no grouping rule: 10.6 of 12.5 ms in "other"
    profile = kernel_time("fp16", {"Conv": 1.9, "other": 10.6}, "224x224", total=12.5, batch=4)
    small = kernel_time("fp16", {"Conv": 1.9, "other": 0.1}, "224x224", total=2.0, batch=1)  # 5 %: not said
    text = render_markdown(generic(tmp_path, [record("jetson", [profile, small])]))
    said = [line for line in text.splitlines() if "in no named group" in line]
    assert said == ["- In job jetson (fp16 at 224 x 224, batch 4, engine), 85% of the profiled 12.5 ms of kernel "
                    "time is in no named group: the grouping rules match none of those kernel or layer names."]


# ---- placeholders and declared variants without results are findings ------------------------------

def test_placeholders_of_studygen_new_warn_in_a_draft_and_fail_a_study_ready_to_publish(tmp_path, run_cli):
    assert run_cli("new", "fresh", "--variants", "fp32,fp16", "--revision", "abc1234", "--root", tmp_path).exit_code == 0
    study_file = tmp_path / "families" / "fresh" / "study.yaml"
    expected = {("SG218", "/title"), ("SG218", "/description"), ("SG218", "/decision/summary"), ("SG219", "/variants/0"),
                ("SG219", "/variants/1")}

    def unfinished():
        findings = [f for f in run_checks(load_study(study_file.parent, tmp_path)) if f.code in ("SG218", "SG219")]
        return {(f.code, f.pointer) for f in findings}, {f.severity for f in findings}, findings

    assert unfinished()[:2] == (expected, {"warning"})  # new writes status: draft
    study_file.write_text(study_file.read_text().replace("status: draft", "status: ready"))
    found, severities, findings = unfinished()
    assert (found, severities) == (expected, {"error"})
    placeholder = next(f for f in findings if f.pointer == "/description")
    assert study_file.read_text().splitlines()[placeholder.line - 1].startswith("description: What model")
    # without a status the study is ready to publish
    study_file.write_text(study_file.read_text().replace("status: ready\n", ""))
    assert unfinished()[:2] == (expected, {"error"})


def test_written_text_and_variants_said_not_measured_draw_no_finding(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0)])],
                    description="ResNet-50 on one H200, TensorRT 11.4.",
                    not_measured=[{"config": "fp32", "reason": "the baseline is the fp16 engine"},
                                  {"config": "FP8 engine", "aliases": ["fp8"], "reason": "not tried"}])
    assert codes(run_checks(study), "SG218") == [] and codes(run_checks(study), "SG219") == []


def test_a_declared_variant_without_results_is_named(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])])
    (finding,) = codes(run_checks(study), "SG219")
    lines = (tmp_path / "families" / FAMILY / "study.yaml").read_text().splitlines()
    assert (finding.file, finding.pointer) == (f"families/{FAMILY}/study.yaml", "/variants/0")
    assert lines[finding.line - 1] == "- name: fp32" and lines[finding.line - 2] == "variants:"
    assert "variant fp32 is declared" in finding.message


def test_an_edit_marker_anywhere_in_the_study_file_is_found(tmp_path):
    variants = yaml.safe_load("[{name: fp16, precision: fp16, label: 'fp16 engine (edit this)'}]")
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0)])], variants=variants)
    assert [f.pointer for f in codes(run_checks(study), "SG218")] == ["/variants/0/label"]


def test_side_findings_name_the_batch_and_keep_to_the_timing_the_tables_show(tmp_path):
    # one log, two batches: fp8 slower than fp16 at both; its host latency inverted too (not in any table)
    results = [latency("fp16", 1.25, batch=1), latency("fp8", 1.5, batch=1),
               latency("fp16", 4.0, batch=4), latency("fp8", 4.5, batch=4),
               latency("fp16", 2.0, batch=1, timing="host_latency"), latency("fp8", 2.5, batch=1, timing="host_latency")]
    text = render_markdown(generic(tmp_path, [record("a", results)]))
    side = text.split("## Side findings")[1].split("##")[0].strip().splitlines()
    assert side == ["- FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800, batch 1: 1.5 ms against 1.25 ms "
                    "(job a).",
                    "- FP8 is slower than fp16 on H200 with TensorRT 11.4.0.106 at 800 x 800, batch 4: 4.5 ms against 4.0 ms "
                    "(job a)."]


def test_a_variant_line_says_each_word_once(tmp_path):
    variants = yaml.safe_load("""
- {name: fp32, precision: fp32, label: fp32}
- {name: fp16, precision: fp16}
- {name: fast, precision: int8, label: Fast engine}
- {name: fp8, precision: fp8, recipe: linears, label: FP8}
""")
    text = render_markdown(generic(tmp_path, [record("a", [latency("fp16", 1.0), latency("fast", 0.5),
                                                             latency("fp32", 2.0), latency("fp8", 0.75)])],
                                   variants=variants))
    listed = text.split("## Variants")[1].split("###")[0].strip().splitlines()
    assert listed == ["- **fp32**", "- **fp16**", "- **Fast engine** (`fast`): int8", "- **FP8** (`fp8`), recipe `linears`"]


def test_a_cell_whose_jobs_print_alike_says_so_once(tmp_path):
    a = record("a", [latency("fp16", 0.0439453)])
    b = record("b", [latency("fp16", 0.0439453)])
    tables = tables_of(render_markdown(generic(tmp_path, [a, b])))
    assert tables[1][1][-1] == "0.04395 (2 jobs, each: a, b)"  # 0.0439453 to 4 significant digits


def test_a_kernel_bar_without_a_shape_says_no_shape_and_its_mode_once(tmp_path):
    variants = yaml.safe_load("[{name: fp16, precision: fp16, label: fp16 eager}]")
    profile = kernel_time("fp16", {"GEMM/MatMul": 0.2, "other": 0.1}, backend="pytorch", mode="eager")
    del profile["shape"]
    study = generic(tmp_path, [record("h100", [profile], torch_provenance())], variants=variants)
    assert [label for label, _ in kernel_chart(study).draw.args[0]] == ["h100\nfp16 eager"]
    # one bar: the alt text counts it in the singular ("for 1 profiled runs" before)
    assert kernel_chart(study).alt == ("Kernel time per group, stacked per variant, for 1 profiled run; "
                                       "groups: GEMM/MatMul, other")


def test_a_note_several_records_hold_is_said_once(tmp_path):
    note = "weights not given on the command line: recorded as pretrained (the default)"
    provenance = [dict(collected_provenance(), notes=[note] + extra) for extra in ([], ["read from line 3"], [])]
    jobs = [record(job, [latency("fp16", 1.0 + i)], provenance[i]) for i, job in enumerate(("a", "b", "c"))]
    text = render_markdown(generic(tmp_path, jobs))
    notes = text.split("## Provenance")[1].split("\n- ", 1)[1].splitlines()
    assert notes == [f"a, b and c: {note}", "- b: read from line 3"]


def test_no_side_finding_compares_latencies_timed_differently(tmp_path):
    # fp8 of job a (data transfers off) against fp16 of job b (on): a pair SG212 flagged in the generated README
    off = {"timer": "trtexec", "data_transfers": False}
    a = record("a", [latency("fp8", 14.89, method=off), latency("fp16", 113.0, method=off)])
    b = record("b", [latency("fp16", 1.0, method={"timer": "trtexec", "data_transfers": True})])
    study = generic(tmp_path, [a, b])
    assert "## Side findings" not in render_markdown(study)
    readme = study.rel(study.readme_path)
    assert [f for f in run_checks(study) if f.file == readme and f.code == "SG212"] == []


def test_findings_of_unfinished_study_files_say_what_to_do(tmp_path):
    # a variant named under not_measured by its label, not its name, is said; fp32 is not
    variants = yaml.safe_load("[{name: fp32, precision: fp32}, {name: fp16, precision: fp16},"
                              " {name: fp8, precision: fp8, label: FP8 engine}]")
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0)])], variants=variants,
                    description="Toy detector (edit this)", not_measured=[{"config": "FP8 engine", "reason": "not tried"}])
    (missing,) = codes(run_checks(study), "SG219")
    assert missing.pointer == "/variants/0"
    assert missing.hint == ("collect fp32, add it under not_measured with the reason it was not measured "
                            "(- {config: fp32, reason: WHY}), or remove it")
    (placeholder,) = codes(run_checks(study), "SG218")
    assert placeholder.message == "description still holds the placeholder studygen new wrote: 'Toy detector (edit this)'"
    assert placeholder.hint.startswith("write what the study is (title, description) and what was decided")


def test_a_typo_under_not_measured_is_pointed_at_not_asked_for_again(tmp_path):
    # "in8" was meant for int8 and "fp61" for the recipe of fp8 (its label differs); "fp8 kv cache" names
    # neither, and fp32, far from every unmatched name, keeps the hint that asks for an entry
    variants = yaml.safe_load("[{name: fp16, precision: fp16}, {name: int8, precision: int8},"
                              " {name: fp8, precision: fp8, label: FP8 engine, recipe: fp16-first},"
                              " {name: fp32, precision: fp32}]")
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0)])], variants=variants,
                    not_measured=[{"config": "in8", "reason": "no calibrator"},
                                  {"config": "fp16-frist", "reason": "not built"},
                                  {"config": "fp8 kv cache", "reason": "out of scope"}])
    hints = {f.pointer: f.hint for f in codes(run_checks(study), "SG219")}
    assert hints == {
        "/variants/1": "not_measured names 'in8', which is no variant: if it means int8, correct it there; else collect "
                       "int8, add it under not_measured with the reason it was not measured (- {config: int8, reason: "
                       "WHY}), or remove it",
        "/variants/2": "not_measured names 'fp16-frist', which is no variant: if it means fp8, correct it there; else "
                       "collect fp8, add it under not_measured with the reason it was not measured (- {config: fp8, "
                       "reason: WHY}), or remove it",
        "/variants/3": "collect fp32, add it under not_measured with the reason it was not measured (- {config: fp32, "
                       "reason: WHY}), or remove it"}


def test_the_not_measured_section_says_each_entry_once_with_its_versions_as_given(tmp_path):
    # the heading says "Not measured"; each entry names its configuration, and the table beside it prints the
    # version the entry can be matched with (8.2.3, not 8.2)
    a = record("a", [latency("fp32", 0.1536)], collected_provenance(gpu="NVIDIA GeForce GTX 1070", tensorrt="8.2.3"))
    b = record("b", [latency("fp16", 0.1526)], collected_provenance(gpu="NVIDIA GeForce GTX 1070", tensorrt="8.0.3"))
    study = generic(tmp_path, [a, b], not_measured=[{"config": "fp16 on TensorRT 8.2.3", "reason": "the build failed",
                                                     "expectation": "about the fp32 time", "because": "8.0.3 shows it"}])
    text = render_markdown(study)
    section = text.split("## Not measured")[1].split("##")[0].strip().splitlines()
    assert section == ["- fp16 on TensorRT 8.2.3 (the build failed). Expected without a measurement: about the fp32 "
                       "time, because 8.0.3 shows it."]
    (table,) = [t for t in tables_of(text) if t[0][0] == "GPU" and "fp32 (ms)" in t[0]]
    assert [row[1] for row in table[1:]] == ["8.2.3", "8.0.3"]


def test_labels_of_points_on_two_gpus_name_the_gpus(tmp_path):
    a = record("a", [latency("fp16", 1.5)], collected_provenance(gpu="NVIDIA B200"))
    b = record("a2", [latency("fp16", 1.6)], collected_provenance(gpu="NVIDIA H200"))
    study = generic(tmp_path, [a, b])
    assert distinct_labels([("x", row) for row in study.rows]) == ["x a B200", "x a2 H200"]


# ---- the note under Results says only what is true -------------------------------------------------

DASHES = "A dash marks a variant without a figure in that table."
BOTH = ("A dash marks a variant without a figure in that table; runs that recorded why they have none are listed "
        "under Runs without a figure.")
RUNS = "Runs that recorded why they have no figure are listed under Runs without a figure."


def results_note(text: str) -> list[str]:
    """The paragraphs between ``## Results`` and the first table section."""
    return [line for line in text.split("## Results")[1].split("###")[0].splitlines() if line.strip()]


def test_the_results_note_explains_dashes_only_where_a_table_has_one(tmp_path):
    # fp32 and fp16 at one shape: every cell filled, nothing to explain (the note was printed all the same)
    full = record("a", [latency("fp16", 0.154663), latency("fp32", 0.153595)])
    assert results_note(render_markdown(generic(tmp_path / "full", [full]))) == []
    # fp32 at a second shape only: its fp16 cell is a dash
    gap = record("a", [latency("fp16", 0.154663), latency("fp32", 0.153595), latency("fp32", 0.31, "800x1067")])
    assert results_note(render_markdown(generic(tmp_path / "gap", [gap]))) == [DASHES]
    # latencies complete on two GPUs, the B200 job's plan size of fp32 only: the dash is in the plan size table
    def plan(variant, mib):
        return {"kind": "plan_size", "variant": variant, "backend": "tensorrt", "mode": "engine", "value_mib": mib}

    a = record("a", [latency("fp16", 0.154663), latency("fp32", 0.153595), plan("fp16", 6.5), plan("fp32", 12.5)])
    b = record("b", [latency("fp16", 0.1), latency("fp32", 0.2), plan("fp32", 12.25)],
               collected_provenance(gpu="NVIDIA B200"))
    text = render_markdown(generic(tmp_path / "plan", [a, b]))
    assert results_note(text) == [DASHES]
    (plan_row,) = [row for table in tables_of(text) for row in table if "12.25" in row]
    assert plan_row[0] == "B200" and plan_row[-3:] == ["12.25", "—", "n/a"]  # fp32, fp16, reduction


def test_a_plan_size_names_its_tensorrt_version_shape_and_batch_or_says_they_are_not_stated(tmp_path):
    # one GPU, one TensorRT version, one shape and batch: the other index fields would be left out as shared,
    # yet a plan size means nothing without them; the second job's record states none of them
    def plan(variant, mib, **where):
        return {"kind": "plan_size", "variant": variant, "backend": "tensorrt", "mode": "engine", "value_mib": mib,
                **where}

    built = record("a", [latency("fp16", 0.5), plan("fp16", 6.5, shape="640x640", batch=8), plan("fp32", 12.5,
                                                                                                shape="640x640", batch=8)])
    bare = record("b", [latency("fp16", 0.4), plan("fp16", 7.25)], collected_provenance(tensorrt=None))
    tables = tables_of(render_markdown(generic(tmp_path, [built, bare])))
    (table,) = [t for t in tables if any("(MiB)" in cell for cell in t[0])]
    assert [row[:4] for row in table] == [["GPU", "TensorRT", "Shape HxW", "Batch"],
                                          ["H200", "11.4.0.106", "640 x 640", "8"],
                                          ["H200", "not stated", "shape not stated", "not stated"]]
    assert [row[-3:] for row in table[1:]] == [["12.5", "6.5", "48%"], ["—", "7.25", "n/a"]]


def test_the_results_note_points_to_runs_without_a_figure_only_when_there_are_some(tmp_path):
    failed = {"kind": "not_measured", "variant": "fp16", "shape": "800x800", "batch": 1, "backend": "pytorch",
              "mode": "compile", "metric": "latency", "reason": "the compilation failed: the worker exited with code 1"}
    # every latency cell filled; the failed compilation has no table cell of its own
    job = record("run", [torch_latency("fp16", 3.75), torch_latency("fp32", 7.5), failed], torch_provenance())
    text = render_markdown(generic(tmp_path / "runs", [job]))
    assert results_note(text) == [RUNS] and "## Runs without a figure" in text
    # the same with fp32 measured at a second shape only: both halves
    both = record("run", [torch_latency("fp16", 3.75), torch_latency("fp32", 7.5),
                          torch_latency("fp32", 30.0, shape="1600x1600"), failed], torch_provenance())
    assert results_note(render_markdown(generic(tmp_path / "both", [both]))) == [BOTH]


def test_a_kernel_total_above_its_runs_compute_time_is_stated(tmp_path):
    # 5.4153 ms of layers against a 4.82 ms mean GPU compute time of the same job and configuration: 12% above
    compute = latency("fp16", 4.75, "224x224", batch=4, statistics_ms={"mean": 4.82, "median": 4.75})
    profile = kernel_time("fp16", {"Conv": 5.2153, "other": 0.2}, "224x224", total=5.4153, batch=4)
    text = render_markdown(generic(tmp_path, [record("trt", [compute, profile])]))
    said = [line for line in text.splitlines() if "adds up to" in line]
    # the total prints as the kernel-time table prints it (3 decimals)
    assert said == ["- In job trt (fp16 at 224 x 224, batch 4, engine), the layers' kernel time adds up to 5.415 ms, "
                    "12% above the 4.82 ms mean GPU compute time of the same run: the profile was taken in another "
                    "run, or profiling added time to each layer, so its groups do not divide that latency."]
    within = kernel_time("fp16", {"Conv": 4.7, "other": 0.1}, "224x224", total=4.8, batch=4)
    text = render_markdown(generic(tmp_path / "b", [record("trt", [compute, within])]))
    assert "adds up to" not in text


def test_a_declared_shape_without_results_is_named_unless_said_not_measured(tmp_path):
    # a GPU trial: run.shapes declared 224x224 and 256x256, the run stopped at 256x256 and nothing said so
    run = {"shapes": ["800x800", "800x1067"], "modes": ["eager", "compile"], "compile_variants": ["fp16"]}
    results = [torch_latency("fp16", 3.0), torch_latency("fp16", 2.5, mode="compile"),
               torch_latency("fp8", 2.0), torch_latency("fp8", 2.4, shape="800x1067")]
    study = generic(tmp_path, [record("a", results, torch_provenance())], run=run, status="draft",
                    not_measured=[{"config": "fp32", "reason": "not run"}])
    findings = codes(run_checks(study), "SG219")
    assert [(f.message, f.pointer, f.severity) for f in findings] == [
        ("variant fp16 is declared at shape 800x1067 (run.shapes), but no record has a result for it there "
         "(eager, compile) and not_measured does not name it", "/run/shapes/1", "warning")]
    text = (tmp_path / "families" / FAMILY / "study.yaml").read_text()
    assert text.splitlines()[findings[0].line - 1].strip() == "- 800x1067"
    assert findings[0].hint == ("collect fp16 at 800x1067, add 800x1067 under not_measured with the reason it was "
                                "not measured, or remove it from run.shapes")
    said = generic(tmp_path / "said", [record("a", results, torch_provenance())], run=run,
                   not_measured=[{"config": "fp32", "reason": "not run"},
                                 {"config": "800x1067", "reason": "the model refuses it"}])
    assert codes(run_checks(said), "SG219") == []
