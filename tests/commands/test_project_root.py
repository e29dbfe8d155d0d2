"""Which project a target is read in, without --root: a study folder given as a path lies in the project above the
families/ it is in as written (symbolic links kept), a family name in the working directory's project; targets from
two projects are refused, and a target that is no study folder is named for what it is, before any root is sought."""

from __future__ import annotations

import json
import shutil

from tests.conftest import copy_project

FAMILY = "deformable_detr"
RECORD = "measurements/deformable_detr/b200-trt11.4.json"


def _move_out_and_link(project, family, to):
    """Replace ``project/families/<family>`` by a symbolic link to the folder ``to`` (moved there first unless it
    already exists)."""
    folder = project / "families" / family
    if not to.exists():
        folder.rename(to)
    else:
        shutil.rmtree(folder)
    folder.symlink_to(to, target_is_directory=True)


def test_a_linked_study_folder_finds_the_project_it_is_linked_into(tmp_path, monkeypatch, run_cli):
    # case a: families/<f> is a link to a folder in no project; the walk must start at the link, not where it leads
    project = copy_project(tmp_path / "sA")
    outside = tmp_path / "sExt" / "kept" / FAMILY
    outside.parent.mkdir(parents=True)
    _move_out_and_link(project, FAMILY, outside)
    monkeypatch.chdir(project)
    by_path = run_cli("check", f"families/{FAMILY}")
    by_name = run_cli("check", FAMILY)
    assert by_path.err == by_name.err == ""
    assert (by_path.exit_code, by_path.out) == (by_name.exit_code, by_name.out)
    # found in sA: its records are read from sA's measurements/, shown relative to sA
    assert f"\n{RECORD}:91: SG208 [warning] fp8-recipe72 (15.230 ms, job b200-trt11.4)" in by_path.out
    assert run_cli("rows", f"families/{FAMILY}", "kind=plan_size").out == run_cli("rows", FAMILY, "kind=plan_size").out


def test_a_study_folder_linked_to_another_project_reads_the_records_of_the_project_it_is_named_in(
        tmp_path, monkeypatch, run_cli):
    # case b: pA/families/<f> links to pB/families/<f>; by path and by name it is pA's study, read with pA's records
    project_b = copy_project(tmp_path / "pB")
    project_a = copy_project(tmp_path / "pA")
    _move_out_and_link(project_a, FAMILY, project_b / "families" / FAMILY)
    record = project_a / RECORD
    data = json.loads(record.read_text())
    data["results"][0]["value_ms"] = round(data["results"][0]["value_ms"] * 3, 4)  # pA measured something else
    record.write_text(json.dumps(data, indent=2) + "\n")
    monkeypatch.chdir(project_a)
    by_name = run_cli("check", FAMILY)
    by_path = run_cli("check", f"families/{FAMILY}")
    assert (by_path.exit_code, by_path.out, by_path.err) == (by_name.exit_code, by_name.out, by_name.err)
    # pA's edited record makes the shared README stale; pB's own records (what HEAD read) leave it clean
    assert by_path.exit_code == 1 and "SG201" in by_path.out
    monkeypatch.chdir(project_b)
    assert run_cli("check", FAMILY).out.splitlines()[-1].startswith("0 error(s)")
    # the same family named by name and by path is one study, checked once
    monkeypatch.chdir(project_a)
    both = run_cli("check", FAMILY, f"families/{FAMILY}")
    assert (both.exit_code, both.out) == (by_name.exit_code, by_name.out)


def test_targets_from_two_projects_are_refused_names_counting_as_the_working_directorys(
        tmp_path, monkeypatch, run_cli):
    # case c: a name is looked up in the working directory's project, so with a path into another project it is two
    project_a = copy_project(tmp_path / "pA", families=(FAMILY, "hackathon_mnist_trtexec"))
    project_b = copy_project(tmp_path / "pB")
    monkeypatch.chdir(project_a)
    for name in ("hackathon_mnist_trtexec", FAMILY):
        refused = run_cli("check", name, f"../pB/families/{FAMILY}")
        assert refused.exit_code == 2 and refused.out == ""
        assert refused.err == (f"studygen: the targets given lie in 2 projects ({name} in {project_a.resolve()}; "
                               f"../pB/families/{FAMILY} in {project_b.resolve()}; a family name is looked up in the "
                               "working directory's project): give them one project at a time, or --root DIR\n")
    # --root still wins: both are read in pB (the name is looked up there)
    wins = run_cli("check", FAMILY, f"../pB/families/{FAMILY}", "--root", project_b)
    assert wins.exit_code == 0 and wins.out.splitlines()[-1].startswith("0 error(s)")
    # two paths into one project, from outside it, are one project
    monkeypatch.chdir(tmp_path)
    one = run_cli("check", f"pA/families/{FAMILY}", "pA/families/hackathon_mnist_trtexec")
    assert one.exit_code == 0, one.err


def test_a_target_that_is_no_study_folder_is_named_for_what_it_is_outside_a_project(tmp_path, monkeypatch, run_cli):
    # case d: outside any project, the target's own fault is named, not the missing project root
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "empty").mkdir(parents=True)
    (elsewhere / "notes.txt").write_text("not a study\n")
    monkeypatch.chdir(elsewhere)
    expected = {
        "./missing": "./missing: no such folder",
        "missing/study": "missing/study: no such folder",
        "./notes.txt": "./notes.txt: not a folder (a STUDY_DIR is a folder holding study.yaml)",
        "notes.txt": "notes.txt: not a folder (a STUDY_DIR is a folder holding study.yaml)",
        "./empty": "./empty: no study.yaml in that folder",
        "empty": "empty: no study.yaml in that folder",
        "missing": (f"missing: no such folder, and no family either: no project root: no folder holding families/ at "
                    f"or above {elsewhere} (use --root DIR)"),
    }
    for command in ("check", "render"):
        for target, message in expected.items():
            result = run_cli(command, target)
            assert (result.exit_code, result.out, result.err) == (2, "", f"studygen: {message}\n"), (command, target)
    # a bad path is named before a good one is looked at
    project = copy_project(tmp_path / "p")
    result = run_cli("check", project / "families" / FAMILY, "./notes.txt")
    assert result.err == "studygen: ./notes.txt: not a folder (a STUDY_DIR is a folder holding study.yaml)\n"


def test_a_study_folder_of_another_project_is_refused_under_root(tmp_path, monkeypatch, run_cli):
    # --root pA with pB's study folder would check pB's study against pA's records and templates
    project_b = copy_project(tmp_path / "pB")
    project_a = copy_project(tmp_path / "pA")
    monkeypatch.chdir(tmp_path)
    refused = run_cli("check", "--root", str(project_a), str(project_b / "families" / FAMILY))
    assert refused.exit_code == 2 and refused.out == ""
    assert refused.err == (f"studygen: {project_b / 'families' / FAMILY}: a study of the project {project_b}, not of "
                           f"--root {project_a}: its records and templates are that project's (leave out --root, or "
                           "give its own)\n")
    own = run_cli("check", "--root", str(project_b), str(project_b / "families" / FAMILY))
    assert own.exit_code == 0 and own.out.splitlines()[-1].startswith("0 error(s)")
