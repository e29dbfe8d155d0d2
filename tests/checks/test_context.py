"""CheckContext: one render of a study shared by every check of a run, read
through cached properties; nothing is written onto the study."""

from __future__ import annotations

import json

from studygen.checks import CheckContext, run_checks
from studygen.checks.base import readme_finding, row_finding
from studygen.checks.readme_text import ReadmeText
from studygen.errors import TemplateError
from studygen.findings import WARNING, Finding
from studygen.place import Place
from studygen.render.produced import WRITTEN
from studygen.study import load_study

from .studies import latency, load, record, write_project

TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

fp16 takes {{ study.one(kind="latency", variant="fp16") }}.
"""


def test_the_render_is_made_once_and_read_through_the_context(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=TEMPLATE)
    context = CheckContext(study)
    rendered = context.rendered
    assert rendered is context.rendered and context.render_error is None
    assert "fp16 takes 5.889 ms." in rendered.readme.splitlines()
    assert isinstance(context.readme_text, ReadmeText) and context.readme_text is context.readme_text
    assert "5.889 ms" in [item.text for item in context.produced]
    assert {row.pointer for item in context.produced for row in item.rows} == {"/results/0/value_ms"}
    outputs = list(context.produced_outputs())
    # every output but the study file's title, printed as written: no helper's, so asked for by its kind only
    assert [item for item, _ in outputs] == [item for item in context.produced if item.kind != WRITTEN]
    ((title, _),) = context.produced_outputs(kinds=(WRITTEN,))
    assert (title.text, title.source, title.field_path) == (
        "Toy detector: FP8 study", Place("families/toy/study.yaml", 0, "/title"), ("title",))
    item, readme = next((item, readme) for item, readme in outputs if item.text == "5.889 ms")
    assert readme is context.readme_text and readme.locate(item) == rendered.readme.splitlines().index("fp16 takes 5.889 ms.") + 1
    assert list(context.produced_outputs(kinds=("table",))) == []


def test_checks_write_nothing_onto_the_study(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=TEMPLATE)
    before = set(study.__dict__)
    run_checks(study)
    # only the study's own derived memos (cached properties of what it loaded) may appear
    assert {name for name in set(study.__dict__) - before if not name.startswith("_records_by_path")} <= {
        "rows", "revisions", "compute_timing_rows"}


def test_a_study_with_problems_is_not_rendered(tmp_path):
    study_dir = write_project(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=TEMPLATE)
    path = tmp_path / "measurements" / "toy" / "job.json"
    document = json.loads(path.read_text())
    document["results"][0]["value_ms"] = "fast"
    path.write_text(json.dumps(document), encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    context = CheckContext(study)
    assert context.readme_text is None and list(context.produced_outputs()) == []
    assert "_render" not in context.__dict__  # readme_text did not render a study with an invalid record


def test_a_template_that_fails_is_the_render_error(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template="{{ study.no_such_helper() }}\n")
    context = CheckContext(study)
    assert isinstance(context.render_error, TemplateError)
    assert context.render_error.line().startswith("templates/toy.md.j2:1: ")
    assert (context.rendered, context.produced, context.readme_text) == (None, [], None)
    (finding,) = [f for f in run_checks(study) if f.code == "SG201"]
    assert finding.message == f"cannot render: {context.render_error.line()}"
    assert finding.file == "families/toy/study.yaml"


def test_findings_at_a_readme_line_and_at_a_row(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=TEMPLATE)
    assert readme_finding(study, "SG204", 7, "verdict") == Finding("SG204", "verdict", "families/toy/README.md", line=7)
    shown = readme_finding(study, "SG204", 3, "verdict", hint="compute it", severity=WARNING)
    assert (shown.hint, shown.severity) == ("compute it", WARNING)
    (row,) = study.rows
    found = row_finding("SG214", row, "random", hint="drop it")
    assert found == Finding("SG214", "random", "measurements/toy/job.json", line=row.line,
                            hint="drop it", pointer="/results/0/value_ms", key=row.key.text())
    assert found.line > 1
    plain = row_finding("SG214", row, "random", severity=WARNING)
    assert (plain.hint, plain.severity) == ("", WARNING)


def test_an_invalid_record_is_one_sg202_finding_with_the_hint(tmp_path):
    study_dir = write_project(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=TEMPLATE)
    path = tmp_path / "measurements" / "toy" / "job.json"
    path.write_text(path.read_text().replace('"value_ms": 5.889', '"value_ms": "fast"'), encoding="utf-8")
    findings = [f for f in run_checks(load_study(study_dir, tmp_path)) if f.code == "SG202"]
    line = next(i + 1 for i, text in enumerate(path.read_text().splitlines()) if '"fast"' in text)
    assert findings == [Finding("SG202", "'fast' is not of type 'number'", "measurements/toy/job.json", line=line,
                                pointer="/results/0/value_ms",
                                hint="fix the file so it validates against its schema (studygen/schemas/; see docs/study-guide.md)")]


def test_an_unloadable_study_is_one_sg202_finding_at_its_place():
    from studygen.checks.sg202_records import unloadable_study
    from studygen.errors import InputError

    (finding,) = unloadable_study(InputError("study.yaml: not a mapping", line=3), "families/toy")
    assert (finding.code, finding.file, finding.line, finding.message) == ("SG202", "families/toy", 3, "study.yaml: not a mapping")
    (finding,) = unloadable_study(InputError("bad", path="families/toy/study.yaml", pointer="/variants"), "families/toy")
    assert (finding.file, finding.pointer) == ("families/toy/study.yaml", "/variants")



def test_what_several_checks_read_of_the_study_file_is_worked_out_once_a_run(monkeypatch):
    # the shipped H200 study: SG210 and SG223 read its kernel_groups rules, SG213 and SG222 its quoted figures
    from pathlib import Path

    from studygen.checks import base, kernel_rule_use, prose_figures, prose_misattributed, sg210_kernel_coverage
    from studygen.checks import sg213_unstable, sg222_misquoted_figures, sg223_stale_grouping

    calls = []

    def counted(name, function):
        def call(*args):
            calls.append(name)
            return function(*args)
        return call

    quotations, study_rules = prose_figures.quotations, kernel_rule_use.study_rules
    for module in (base, prose_figures, sg213_unstable, sg222_misquoted_figures, prose_misattributed):
        monkeypatch.setattr(module, "quotations", counted("quotations", quotations), raising=False)
    for module in (base, kernel_rule_use, sg210_kernel_coverage, sg223_stale_grouping):
        monkeypatch.setattr(module, "study_rules", counted("study_rules", study_rules), raising=False)
    root = Path(__file__).resolve().parents[2]
    run_checks(load_study(root / "families" / "deformable_detr_h200_torch", root))
    assert sorted(calls) == ["quotations", "study_rules"]  # each twice a run before they were shared
