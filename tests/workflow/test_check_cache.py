"""``studygen check`` reuses a study's findings while nothing it read has
changed, and checks afresh after any change to what it read: a record, a
new record, the README, a chart, the template, the study file, or the
working directory the findings' paths are shown from.

A hit is made visible by editing the kept entry: its findings then carry a
mark no check writes."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

MARK = "KEPT-ENTRY-MARK"


@pytest.fixture
def cache(tmp_path_factory, monkeypatch):
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(folder))
    return folder / "check-findings"


def age(root: Path) -> None:
    """Every file and folder under ``root`` dated a minute back (as a checkout
    made earlier), outside the cache's window for files modified just now."""
    when = time.time() - 60
    for folder, _, files in os.walk(root):
        for name in files:
            os.utime(Path(folder) / name, (when, when))
        os.utime(folder, (when, when))


def checked(run_cli, project, *extra):
    result = run_cli("check", "deformable_detr", "--root", project, "--format", "json", *extra)
    return result.exit_code, json.loads(result.out)


def mark_entry(cache: Path) -> None:
    (entry_path,) = cache.glob("*.json")
    entry = json.loads(entry_path.read_text())
    entry["value"][0]["message"] = MARK
    entry_path.write_text(json.dumps(entry))


def marked(findings) -> bool:
    return any(finding["message"] == MARK for finding in findings)


@pytest.fixture
def kept(run_cli, project, cache):
    """The project checked once, its entry marked: a hit shows the mark."""
    age(project)
    code, first = checked(run_cli, project)
    assert code == 0 and first, "the shipped family has warnings to keep"
    mark_entry(cache)
    code, again = checked(run_cli, project)
    assert marked(again) and code == 0
    assert len(again) == len(first)
    return first


def test_an_unchanged_study_reuses_its_findings(kept, run_cli, project):
    code, findings = checked(run_cli, project)
    assert marked(findings)
    assert [f["code"] for f in findings] == [f["code"] for f in kept]


def test_no_cache_checks_afresh_and_keeps_nothing(kept, run_cli, project, cache):
    code, findings = checked(run_cli, project, "--no-cache")
    assert not marked(findings) and findings == kept
    assert len(list(cache.glob("*.json"))) == 1


def edit_record(project: Path) -> None:
    path = project / "measurements" / "deformable_detr" / "b200-trt11.4.json"
    path.write_bytes(path.read_bytes() + b"\n")  # a byte more, the same record


def add_record(project: Path) -> None:
    folder = project / "measurements" / "deformable_detr"
    (folder / "b200-trt11.4-copy.json").write_bytes((folder / "b200-trt11.4.json").read_bytes())


def edit_readme(project: Path) -> None:
    path = project / "families" / "deformable_detr" / "README.md"
    path.write_text(path.read_text() + "\nOne more line.\n")


def edit_chart(project: Path) -> None:
    path = project / "families" / "deformable_detr" / "figures" / "latency.svg"
    path.write_bytes(path.read_bytes().replace(b"</svg>", b"<!-- edited --></svg>"))


def edit_template(project: Path) -> None:
    path = project / "templates" / "deformable_detr.md.j2"
    path.write_text(path.read_text() + "\n")


def add_template(project: Path) -> None:
    (project / "templates" / "generic.md.j2").write_text("{% extends 'generic.md.j2' %}\n")


def edit_study_file(project: Path) -> None:
    path = project / "families" / "deformable_detr" / "study.yaml"
    path.write_text(path.read_text() + "\n# a comment\n")


@pytest.mark.parametrize("change", [edit_record, add_record, edit_readme, edit_chart, edit_template, add_template,
                                    edit_study_file])
def test_a_change_to_what_the_check_read_checks_afresh(kept, run_cli, project, change):
    change(project)
    code, findings = checked(run_cli, project)
    assert not marked(findings)
    age(project)  # the fresh findings are kept once the change is out of the racy window
    code, again = checked(run_cli, project)
    assert again == findings


def test_a_record_edited_again_to_its_old_bytes_reuses_the_entry(kept, run_cli, project):
    path = project / "measurements" / "deformable_detr" / "b200-trt11.4.json"
    original = path.read_bytes()
    path.write_bytes(original + b" ")
    assert not marked(checked(run_cli, project)[1])
    path.write_bytes(original)
    age(project)
    assert marked(checked(run_cli, project)[1])  # the key is the content, not the file's date


def test_another_working_directory_has_its_own_entry(kept, run_cli, project, cache, monkeypatch):
    # A path a message shows may be relative to the working directory, so it is part of the key.
    monkeypatch.chdir(project / "families")
    code, findings = checked(run_cli, project)
    assert not marked(findings) and findings == kept
    assert len(list(cache.glob("*.json"))) == 2


def test_a_fresh_edit_is_not_kept_until_it_is_out_of_the_racy_window(kept, run_cli, project, cache):
    edit_readme(project)
    checked(run_cli, project)
    assert len(list(cache.glob("*.json"))) == 1  # the entry of the old README only; the new one not kept
    code, findings = checked(run_cli, project)
    assert not marked(findings)


def missing_chart_findings(findings) -> list:
    return [f for f in findings if f["code"] == "SG201" and f["file"].endswith("latency.svg")]


def test_a_chart_written_where_it_was_missing_checks_afresh(run_cli, project, cache):
    # The check only tests that the chart exists (nothing else in figures/ is read or listed):
    # the chart's absence is an input as much as a file's bytes are.
    chart = project / "families" / "deformable_detr" / "figures" / "latency.svg"
    drawn = chart.read_bytes()
    chart.unlink()
    age(project)
    code, missing = checked(run_cli, project)
    assert code == 1 and "missing" in missing_chart_findings(missing)[0]["message"]
    assert len(list(cache.glob("*.json"))) == 1
    chart.write_bytes(drawn)  # as studygen render writes it
    age(project)
    code, findings = checked(run_cli, project)
    assert missing_chart_findings(findings) == []
    assert findings == checked(run_cli, project, "--no-cache")[1]


def test_a_template_put_earlier_on_the_search_path_in_a_folder_nothing_was_read_from(run_cli, project, cache):
    # Jinja looks for parts/note.md.j2 in the family folder first (a stat, no listing),
    # then finds it in templates/; a copy later made in the family's parts/ is the one used.
    (project / "templates" / "parts").mkdir()
    (project / "templates" / "parts" / "note.md.j2").write_text("")
    template = project / "templates" / "deformable_detr.md.j2"
    first_line, rest = template.read_text().split("\n", 1)
    template.write_text(f"{first_line}\n{{% set note %}}{{% include 'parts/note.md.j2' %}}{{% endset %}}\n{rest}")
    (project / "families" / "deformable_detr" / "parts").mkdir()
    (project / "families" / "deformable_detr" / "parts" / "README.txt").write_text("notes for the family\n")
    age(project)
    code, before = checked(run_cli, project)
    assert code == 0 and len(list(cache.glob("*.json"))) == 1
    (project / "families" / "deformable_detr" / "parts" / "note.md.j2").write_text("{{ 1 // 0 }}")
    age(project)
    code, findings = checked(run_cli, project)
    assert code == 1 and any("cannot render: families/deformable_detr/parts/note.md.j2" in f["message"] for f in findings)
    assert findings == checked(run_cli, project, "--no-cache")[1]


@pytest.mark.parametrize("field, value", [("line", "7"), ("message", 5), ("file", None), ("detail", ["a diff"]),
                                          ("hint", {}), ("pointer", 3), ("line", True), ("severity", "fatal"),
                                          ("code", "SG999"), ("extra", "x")])
def test_a_damaged_entry_is_checked_afresh_never_printed_or_crashed_on(kept, run_cli, project, cache, field, value):
    (entry_path,) = cache.glob("*.json")
    entry = json.loads(entry_path.read_text())
    entry["value"][0][field] = value
    for output_format in ("text", "github", "json"):
        entry_path.write_text(json.dumps(entry))  # a fresh check replaces it: damage it again
        result = run_cli("check", "deformable_detr", "--root", project, "--format", output_format)
        assert result.exit_code == 0 and result.err == ""
        assert MARK not in result.out
    assert json.loads(result.out) == kept


@pytest.mark.parametrize("inside", ["measurements/deformable_detr", "."])
def test_a_cache_folder_set_inside_the_project_still_sees_every_edit(run_cli, project, monkeypatch, inside):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(project / inside))
    age(project)
    checked(run_cli, project)
    age(project)
    code, kept = checked(run_cli, project)
    assert list((project / inside / "check-findings").glob("*.json"))
    path = project / "measurements" / "deformable_detr" / "b200-trt11.4.json"
    path.write_text(path.read_text().replace('"value_ms": ', '"value_ms": 1', 1))
    age(project)
    code, findings = checked(run_cli, project)
    assert findings != kept
    assert findings == checked(run_cli, project, "--no-cache")[1]
