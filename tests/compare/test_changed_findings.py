"""``studygen diff`` of a finding whose figures moved: a trial listed 14
"finding appeared" and 14 "finding gone" lines for SG203 disagreements whose
values changed between two revisions, each pair about one measurement. A gone
and an appeared finding with the same code, file and measurement key are now
one "finding changed" line, old and new message side by side, counted apart
in every format; exit codes do not depend on findings. Findings are made up."""

from __future__ import annotations

import json

from studygen.compare import Revision, compare_family, compare_findings
from studygen.compare.report import Report, exit_code, format_github, format_markdown, format_text
from studygen.compare.report_json import format_json
from studygen.findings import Finding
from tests.checks.studies import latency, load, record

RECORD = "measurements/toy/b.json"
KEY_AP, KEY_AP50 = "toy|int8|AP", "toy|int8|AP50"


def _disagree(statistic: str, a: float, b: float, key: str, line: int, severity: str = "error") -> Finding:
    return Finding("SG203", f"same measurement disagrees across jobs: int8 {statistic}: {a} in job a; {b} in job b",
                   RECORD, line=line, pointer="/results/0/value", key=key, severity=severity)


OLD_AP, NEW_AP = _disagree("AP", 0.4718, 0.4476, KEY_AP, 50), _disagree("AP", 0.4718, 0.4391, KEY_AP, 52)
OLD_AP50, NEW_AP50 = (_disagree("AP50", 0.8820, 0.8285, KEY_AP50, 63),
                      _disagree("AP50", 0.8820, 0.8103, KEY_AP50, 65, severity="notice"))
UNKEYED_OLD = Finding("SG105", "'is within noise' with no spread stated (0.4476)", "families/toy/study.yaml", line=40)
UNKEYED_NEW = Finding("SG105", "'is within noise' with no spread stated (0.4391)", "families/toy/study.yaml", line=40)


def test_a_finding_about_one_measurement_with_new_figures_is_one_change():
    changes = compare_findings([OLD_AP, OLD_AP50], [NEW_AP50, NEW_AP])
    assert [(c.how, c.was, c.finding) for c in changes] == [("changed", OLD_AP, NEW_AP),
                                                           ("changed", OLD_AP50, NEW_AP50)]


def test_only_the_same_code_file_and_key_pair():
    other_file = Finding("SG203", NEW_AP.message, "measurements/toy/c.json", line=50, key=KEY_AP)
    other_code = Finding("SG207", NEW_AP.message, RECORD, line=50, key=KEY_AP)
    other_key = _disagree("AP", 0.4718, 0.4391, "toy|fp16|AP", 50)
    for head in (other_file, other_code, other_key):
        assert [c.how for c in compare_findings([OLD_AP], [head])] == ["gone", "appeared"], head
    # findings without a key say nothing of which measurement they are about: never paired
    assert [c.how for c in compare_findings([UNKEYED_OLD], [UNKEYED_NEW])] == ["gone", "appeared"]
    # two gone and one appeared of one key: the first pairs, the second stays gone
    twice = compare_findings([OLD_AP, _disagree("AP", 0.5, 0.4, KEY_AP, 70)], [NEW_AP])
    assert [(c.how, c.finding.line) for c in twice] == [("gone", 70), ("changed", 52)]


def _report(tmp_path, old=(OLD_AP, OLD_AP50, UNKEYED_OLD), new=(NEW_AP, NEW_AP50, UNKEYED_NEW)) -> Report:
    """One family whose figures are the same at both sides and whose findings are ``old`` and ``new``."""
    base = load(tmp_path / "base", records=[record("a", [latency("fp16", 10.0)])])
    head = load(tmp_path / "head", records=[record("a", [latency("fp16", 10.0)])])
    family = compare_family("toy", "families/toy/README.md", Revision(base, old, None), Revision(head, new, None))
    return Report("main (0123456789ab)", "the working tree", [family])


def test_every_format_prints_a_changed_finding_once_and_counts_it_apart(tmp_path):
    report = _report(tmp_path)
    text = format_text(report).splitlines()
    assert text[1:] == [
        "toy",
        "  finding gone: families/toy/study.yaml:40: SG105 [warning] 'is within noise' with no spread stated (0.4476)",
        "  finding changed: measurements/toy/b.json:52: SG203 [error] same measurement disagrees across jobs: int8 "
        "AP: 0.4718 in job a; 0.4476 in job b -> same measurement disagrees across jobs: int8 AP: 0.4718 in job a; "
        "0.4391 in job b",
        "  finding changed: measurements/toy/b.json:65: SG203 [error] same measurement disagrees across jobs: int8 "
        "AP50: 0.882 in job a; 0.8285 in job b -> [notice] same measurement disagrees across jobs: int8 AP50: 0.882 "
        "in job a; 0.8103 in job b",
        "  finding appeared: families/toy/study.yaml:40: SG105 [warning] 'is within noise' with no spread stated "
        "(0.4391)",
        "0 figures beyond their spread, 0 verdict changes; 0 within spread, 0 new, 0 removed, 1 unchanged, "
        "0 sentences changed, findings: 1 appeared, 1 gone, 2 changed"]
    data = json.loads(format_json(report))
    assert (data["summary"]["findings appeared"], data["summary"]["findings gone"],
            data["summary"]["findings changed"]) == (1, 1, 2)
    findings = data["families"][0]["findings"]
    assert [(f["change"], f["line"], (f.get("was") or {}).get("line")) for f in findings] == [
        ("gone", 40, None), ("changed", 52, 50), ("changed", 65, 63), ("appeared", 40, None)]
    assert findings[1]["was"]["message"] == OLD_AP.message and findings[1]["message"] == NEW_AP.message
    github = format_github(report).splitlines()
    assert github[1].startswith("::notice file=measurements/toy/b.json,line=52,title=studygen diff%3A SG203 changed::"
                                "SG203 [error] same measurement")
    assert github[2].startswith("::notice file=measurements/toy/b.json,line=65,")  # waived since: no warning
    markdown = format_markdown(report)
    assert "<summary>Findings that appeared, went or changed (4)</summary>" in markdown
    assert ("- changed: `measurements/toy/b.json:52` SG203 [error] `same measurement disagrees across jobs: int8 AP: "
            "0.4718 in job a; 0.4476 in job b` → `same measurement disagrees across jobs: int8 AP: 0.4718 in job a; "
            "0.4391 in job b`") in markdown.splitlines()
    assert [exit_code(report, fail_on) for fail_on in ("beyond-spread", "verdict", "never")] == [0, 0, 0]


def test_a_changed_finding_that_grew_more_severe_is_a_warning(tmp_path):
    waived = _disagree("AP", 0.4718, 0.4476, KEY_AP, 50, severity="notice")
    (line, _) = format_github(_report(tmp_path, (waived,), (NEW_AP,))).splitlines()
    assert line.startswith("::warning file=measurements/toy/b.json,line=52,title=studygen diff%3A SG203 changed::"
                           "SG203 [notice] same measurement")
