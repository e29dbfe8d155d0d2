"""Findings about a sentence the study file holds name the study file's field,
not the README that prints it (checks/base.py at_written_field): the README is
generated and never edited, so "README.md:9: SG204 ... use study.noise_verdict"
sent a generic-template user to a file they must not touch, with a helper their
study file cannot call. Findings about the template's own words stay on the
README. The study, its figures and its sentences are made up for these tests."""

from __future__ import annotations

from studygen.checks import CheckContext, run_checks
from studygen.records.load import yaml_line
from studygen.study import load_study

from .studies import latency, record, spec, write_project

README = "families/toy/README.md"
STUDY_FILE = "families/toy/study.yaml"
# a template of a generic-template user: the built-in one, block by block unchanged
GENERIC = '{% extends "studygen/generic.md.j2" %}\n'
SUMMARY = "Ship fp16. The FP8 engine gained 0.4 ms at 800 x 800, which is within the noise of the timer."
RECORDS = [record("job", [latency("fp16", 5.2), latency("fp8", 4.8)])]


def _rendered_project(tmp_path, template: str, summary: str = SUMMARY):
    """The study loaded, its README written as render writes it, and the README's lines."""
    study_dir = write_project(tmp_path, records=RECORDS, template=template,
                              study=spec(decision={"shipped": False, "summary": summary}))
    study = load_study(study_dir, tmp_path)
    readme = CheckContext(study).rendered.readme
    study.readme_path.write_text(readme, encoding="utf-8")
    return study, readme.splitlines()


def _by_code(findings, *codes):
    return sorted((f for f in findings if f.code in codes), key=lambda f: f.code)


def test_a_verdict_in_the_decision_summary_is_reported_at_the_summary(tmp_path):
    study, lines = _rendered_project(tmp_path, GENERIC)
    readme_line = lines.index(SUMMARY) + 1
    summary_line = yaml_line(study.spec_text, "decision", "summary")
    assert summary_line > 0
    lint, verdict = _by_code(run_checks(study), "SG105", "SG204")
    field = f"edit /decision/summary in this file, which the README prints as written ({README} line {readme_line}): "
    assert (lint.file, lint.line, lint.pointer) == (STUDY_FILE, summary_line, "/decision/summary")
    assert lint.message == "'within the noise' with no spread, repeat count or test stated in the same paragraph"
    assert lint.hint == field + ("state the spread (± std, min to max or a confidence interval), how many repeats it "
                                 "is over, or the test used; or state the difference without calling it noise; then "
                                 "run studygen render")
    assert (verdict.file, verdict.line, verdict.pointer) == (STUDY_FILE, summary_line, "/decision/summary")
    assert verdict.message == (
        'verdict "within the noise" about 0.4 ms is written by hand, not computed: no record holds repeated '
        'timings (at least 3 repeat medians a side) to support it; sentence: "The FP8 engine gained 0.4 ms at 800 x '
        '800, which is within the noise of the timer."')
    # what to write in the field instead: a study file cannot call a template helper
    assert verdict.hint == field + ("say what was measured instead, the spread of each figure (min to max, or ± std) "
                                    "and how many repeats it covers, and let the reader judge; or remove the claim; "
                                    "then run studygen render")
    assert "noise_verdict" not in verdict.hint + verdict.message


def test_the_same_sentence_written_by_the_template_stays_on_the_readme(tmp_path):
    template = GENERIC + "{% block summary %}## Summary and decision\n\n" + SUMMARY + "\n\n{% endblock %}\n"
    study, lines = _rendered_project(tmp_path, template, summary="Ship fp16.")
    readme_line = lines.index(SUMMARY) + 1
    lint, verdict = _by_code(run_checks(study), "SG105", "SG204")
    assert [(f.file, f.line, f.pointer) for f in (lint, verdict)] == [(README, readme_line, None)] * 2
    assert lint.hint.startswith("state the spread")
    assert verdict.hint.startswith("remove the verdict, or collect repeated runs and use study.noise_verdict(a, b, ...)")


def test_a_line_shared_with_the_template_or_stale_on_disk_keeps_lint_on_the_readme(tmp_path):
    # lint names a line, not a place in it: only a line that is the field and nothing else, as render prints it
    # now, is the field's. SG204 reads the place of the phrase, so it names the field either way.
    template = GENERIC + "{% block summary %}Our call: {{ study.decision.summary }}\n\n{% endblock %}\n"
    study, lines = _rendered_project(tmp_path, template)
    shared = lines.index(f"Our call: {SUMMARY}") + 1
    lint, verdict = _by_code(run_checks(study), "SG105", "SG204")
    assert (lint.file, lint.line) == (README, shared)
    assert (verdict.file, verdict.pointer) == (STUDY_FILE, "/decision/summary")

    study, lines = _rendered_project(tmp_path / "stale", GENERIC)
    at = lines.index(SUMMARY)
    lines[at] = SUMMARY.replace("0.4 ms", "0.5 ms")  # edited by hand: SG201, and this line is no longer render's
    study.readme_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    findings = run_checks(study)
    (lint,) = _by_code(findings, "SG105")
    assert (lint.file, lint.line, lint.pointer) == (README, at + 1, None)
    assert [f.line for f in _by_code(findings, "SG201") if f.file == README] == [at + 1]


def test_a_verdict_in_a_revisit_condition_names_its_entry(tmp_path):
    # a list item of the helper's: lint's line is the item's once its "- " is read past
    condition = "the gap is no longer statistically insignificant"
    decision = {"shipped": False, "summary": "Ship fp16.", "revisit_when": ["a driver update", condition]}
    study_dir = write_project(tmp_path, records=RECORDS, template=GENERIC, study=spec(decision=decision))
    study = load_study(study_dir, tmp_path)
    readme = CheckContext(study).rendered.readme
    study.readme_path.write_text(readme, encoding="utf-8")
    lint, verdict = _by_code(run_checks(study), "SG105", "SG204")
    entry = (STUDY_FILE, yaml_line(study.spec_text, "decision", "revisit_when", 1), "/decision/revisit_when/1")
    assert [(f.file, f.line, f.pointer) for f in (lint, verdict)] == [entry] * 2
    assert verdict.message.startswith('verdict "statistically insignificant" is written by hand')
    item_line = readme.splitlines().index(f"- {condition}") + 1
    assert lint.hint.startswith(f"edit /decision/revisit_when/1 in this file, which the README prints as written "
                                f"({README} line {item_line}): state the spread")


def test_a_lint_finding_in_a_folded_field_names_the_line_of_its_figure(tmp_path):
    # lint names a README line, which prints the whole field: the figure its message opens with ("60% does not
    # follow ...") finds the sentence's own line in the study file, where the field's first line was named before
    study_dir = write_project(tmp_path, records=RECORDS, template=GENERIC,
                              study=spec(decision={"shipped": False, "summary": "Ship fp16."}))
    path = study_dir / "study.yaml"
    folded = ("  summary: >-\n    Ship fp16.\n    The engines were timed alike.\n"
              "    Convolution takes 5.363 of 10.692 ms, 60%.\n")
    path.write_text(path.read_text(encoding="utf-8").replace("  summary: Ship fp16.\n", folded), encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    study.readme_path.write_text(CheckContext(study).rendered.readme, encoding="utf-8")
    (share,) = _by_code(run_checks(study), "SG103")
    figure_line = study.spec_text.splitlines().index("    Convolution takes 5.363 of 10.692 ms, 60%.") + 1
    assert figure_line > yaml_line(study.spec_text, "decision", "summary")
    assert (share.file, share.line, share.pointer) == (STUDY_FILE, figure_line, "/decision/summary")
    assert share.message == "60% does not follow from 5.363 and 10.692 ms: 5.363 / 10.692 = 50%"


def test_each_finding_in_a_folded_summary_names_its_own_sentence_line(tmp_path):
    # two sentences say "2x" and another "1.2x": the figure a message opens with, read as text, stood at several
    # lines and every finding named the field's first line; read as a figure, and told apart by the other figures
    # its message names, it is the sentence at fault (a new user's "8x ... slower" was reported at "summary: >-")
    records = [record("job", [latency("fp16", 5.2), latency("fp8", 4.8), latency("fp32", 26.0)])]
    study_dir = write_project(tmp_path, records=records, template=GENERIC,
                              study=spec(decision={"shipped": False, "summary": "Ship fp16."}))
    path = study_dir / "study.yaml"
    sentences = ["Ship fp8.",
                 "FP8 runs in 4.8 ms where fp32 needs 26.0 ms, a 1.2x gap worth having.",
                 "FP8 is 2x faster than fp16 (4.8 ms against 5.2 ms).",
                 "At 5.2 ms against 26.0 ms, fp16 is 2x faster than fp32.",
                 "The latency ranges from 4.8 to 5.2 ms across precisions.",
                 "fp32 is faster than fp16 on every GPU."]
    folded = "  summary: >-\n" + "".join(f"    {sentence}\n" for sentence in sentences)
    path.write_text(path.read_text(encoding="utf-8").replace("  summary: Ship fp16.\n", folded), encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    study.readme_path.write_text(CheckContext(study).rendered.readme, encoding="utf-8")
    lines = study.spec_text.splitlines()
    line_of = {sentence: lines.index(f"    {sentence}") + 1 for sentence in sentences}
    placed = sorted((f.line, f.code, f.message.split(":")[0]) for f in run_checks(study) if f.file == STUDY_FILE)
    assert placed == [
        # the ratio before its figures; the table reader does not repeat a ratio its own printed cells refute
        (line_of[sentences[2]], "SG103", "2x does not follow from 4.8 and 5.2 ms"),
        (line_of[sentences[3]], "SG103", "2x does not follow from 5.2 and 26.0 ms"),  # the figures before it
        (line_of[sentences[4]], "SG101", "range 4.8 to 5.2 ms leaves out row 'H200 / 800 x 800 / 1' (26.0 ms) of "
                                         "'fp32 (ms)' and 'fp16 (ms)' and 'FP8 (ms)' in the table at README.md line 34"),
        (line_of[sentences[5]], "SG107", "'fp32 is faster than fp16 on every GPU' is contradicted by the table at "
                                         "README.md line 34 ('fp32 (ms)' against 'fp16 (ms)', 1 row named)"),
    ]
