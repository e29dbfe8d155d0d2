"""Family names are validated; render writes only inside the project root;
study folders and documents named on the command line may live anywhere
(they are read, never written)."""

from __future__ import annotations

import json
import os
import shutil

from pathlib import Path

import pytest

from studygen.errors import UsageError
from studygen.study import validate_family_name
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import make_tiny_project, study_spec

import yaml


@pytest.mark.parametrize("name", ["deformable_detr", "rt-detr", "YOLO11", "a", "x_1-2"])
def test_valid_family_names(name):
    assert validate_family_name(name) == name


@pytest.mark.parametrize("name", ["", "with space", "semi;colon", "dollar$", "star*", "ümlaut", "tab\tname",
                                  "new\nline", "dot.name", "back\\slash", "nul\x00"])
def test_invalid_family_names_are_refused(name):
    with pytest.raises(UsageError, match="invalid family name .*: use letters, digits, '_' and '-'"):
        validate_family_name(name)


@pytest.fixture
def tiny(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project")
    assert run_cli("render", "--root", root).exit_code == 0
    return root


@pytest.mark.parametrize("name", ["bad name", "semi;colon", "star*", "ümlaut"])
@pytest.mark.parametrize("command", ["render", "check"])
def test_cli_refuses_invalid_family_names(command, name, tiny, run_cli):
    before = snapshot(tiny)
    result = run_cli(command, name, "--root", tiny)
    assert result.exit_code == 2
    assert result.out == ""
    assert result.err == f"studygen: invalid family name {name!r}: use letters, digits, '_' and '-'\n"
    assert snapshot(tiny) == before


@pytest.mark.parametrize("target", ["../etc", "..", "./nowhere", "/etc"])
def test_cli_refuses_paths_without_a_study_file(target, tiny, run_cli):
    result = run_cli("render", target, "--root", tiny)
    assert result.exit_code == 2
    why = "no study.yaml in that folder" if Path(target).exists() else "no such folder"
    assert result.err == f"studygen: {target}: {why}\n"


def test_study_file_with_a_path_as_family_is_a_schema_finding(tiny, run_cli):
    study = tiny / "families" / "tiny" / "study.yaml"
    spec = study_spec()
    spec["family"] = "../../outside"
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    before = snapshot(tiny)
    result = run_cli("render", "--root", tiny)
    assert result.exit_code == 2
    line = next(i for i, text in enumerate(study.read_text().splitlines(), start=1) if text.startswith("family:"))
    assert result.err == (f"studygen: families/tiny/study.yaml:{line}: '../../outside' does not match "
                          "'^[A-Za-z0-9_-]+$' (/family)\n")
    assert snapshot(tiny) == before


def test_render_refuses_a_study_folder_outside_the_root(tmp_path, tiny, run_cli):
    outside = tmp_path / "elsewhere" / "tiny"
    shutil.copytree(tiny / "families" / "tiny", outside)
    (outside / "README.md").unlink()
    shutil.rmtree(outside / "figures")
    before_root, before_outside = snapshot(tiny), snapshot(outside)
    result = run_cli("render", outside, "--root", tiny)
    assert result.exit_code == 2
    assert result.err.startswith(f"studygen: refusing to write {outside}/")
    assert result.err.rstrip("\n").endswith(f": outside {tiny}")
    assert result.err.count("\n") == 1
    assert snapshot(tiny) == before_root and snapshot(outside) == before_outside


def test_check_reads_a_study_folder_outside_the_root(tmp_path, tiny, run_cli):
    import json

    outside = tmp_path / "elsewhere" / "tiny"
    shutil.copytree(tiny / "families" / "tiny", outside)
    before = snapshot(outside)
    result = run_cli("check", outside, "--root", tiny, "--format", "json")
    assert result.err == ""
    findings = json.loads(result.out.rsplit("]", 1)[0] + "]")
    # Its README names the study file by a path outside the root, so it is
    # stale against its copy; check says so and writes nothing there.
    stale = [f for f in findings if f["code"] == "SG201"]
    assert [f["file"] for f in stale] == [str(outside / "README.md")]
    assert result.exit_code == 1
    assert snapshot(outside) == before


def test_render_refuses_a_family_folder_linked_outside_the_root(tmp_path, tiny, run_cli):
    outside = tmp_path / "linked-target"
    shutil.move(tiny / "families" / "tiny", outside)
    (tiny / "families" / "tiny").symlink_to(outside, target_is_directory=True)
    (outside / "README.md").write_text("old\n", encoding="utf-8")
    before = snapshot(outside)
    result = run_cli("render", "--root", tiny)
    assert result.exit_code == 2
    assert result.err.startswith("studygen: refusing to write ")
    assert snapshot(outside) == before


def test_render_refuses_a_readme_linked_outside_the_root(tmp_path, tiny, run_cli):
    target = tmp_path / "victim.md"
    target.write_text("not studygen's file\n", encoding="utf-8")
    readme = tiny / "families" / "tiny" / "README.md"
    readme.unlink()
    readme.symlink_to(target)
    result = run_cli("render", "--root", tiny)
    assert result.exit_code == 2
    assert result.err.startswith("studygen: refusing to write families/tiny/README.md: families/tiny/README.md is a "
                                 f"symbolic link to {target}, which leads outside {tiny} ")
    assert target.read_text(encoding="utf-8") == "not studygen's file\n"
    assert readme.is_symlink()


def test_render_refuses_a_figures_folder_linked_outside_the_root(tmp_path, tiny, run_cli):
    figures = tiny / "families" / "tiny" / "figures"
    assert any(figures.iterdir()), "the tiny study draws at least one figure"
    outside = tmp_path / "figures-elsewhere"
    outside.mkdir()
    shutil.rmtree(figures)
    figures.symlink_to(outside, target_is_directory=True)
    before = snapshot(tiny)
    result = run_cli("render", "--root", tiny)
    assert result.exit_code == 2
    assert result.err.startswith("studygen: refusing to write ")
    assert list(outside.iterdir()) == []
    assert snapshot(tiny) == before


def test_lint_reads_a_document_anywhere(tmp_path, run_cli):
    pytest.importorskip("studygen.lint")
    document = tmp_path / "outside" / "notes.md"
    document.parent.mkdir()
    document.write_text("# Notes\n\n| GPU | ms |\n| --- | --- |\n| H100 | 2.5 |\n", encoding="utf-8")
    result = run_cli("lint", document)
    assert result.exit_code == 0, result.out + result.err
    assert list(document.parent.iterdir()) == [document]


@pytest.mark.parametrize("command", ["render", "check"])
def test_a_dangling_record_link_is_named_where_it_lies_and_what_it_points_at(tmp_path, tiny, run_cli, command):
    # attack round: "/abs/path/measurements/tiny/gone.json: no such file", for a file a listing shows
    (tiny / "measurements" / "tiny" / "gone.json").symlink_to(tmp_path / "elsewhere" / "gone.json")
    before = snapshot(tiny)
    done = run_cli(command, "tiny", "--root", tiny)
    told = f"measurements/tiny/gone.json: is a symbolic link to {tmp_path / 'elsewhere' / 'gone.json'}, which does not exist"
    if command == "render":
        assert (done.exit_code, done.out, done.err) == (2, "", f"studygen: {told}\n")
    else:
        assert done.exit_code == 1 and told.replace(": is", ": SG202 is", 1) in done.out.splitlines()
    assert snapshot(tiny) == before


def test_a_record_linked_from_inside_the_project_is_named_by_its_link(tiny, run_cli):
    folder = tiny / "measurements" / "tiny"
    (tiny / "elsewhere").mkdir()
    (folder / "job-a.json").rename(tiny / "elsewhere" / "job-a.json")
    (folder / "job-a.json").symlink_to(tiny / "elsewhere" / "job-a.json")
    record = json.loads((folder / "job-a.json").read_text())
    record["results"][0]["value_ms"] = -1
    (tiny / "elsewhere" / "job-a.json").write_text(json.dumps(record, indent=2))
    done = run_cli("check", "tiny", "--root", tiny)
    assert [line.split(": SG202")[0] for line in done.out.splitlines() if "SG202" in line] == [
        "measurements/tiny/job-a.json:" + str(json.dumps(record, indent=2).split("\n").index('      "value_ms": -1,') + 1)]


def test_a_readme_that_links_outside_the_root_is_refused_naming_the_link(tmp_path, tiny, run_cli):
    # attack round: "refusing to write /abs/.../families/tiny/README.md: outside /abs/...", about a file inside
    target = tmp_path / "shared" / "README.md"
    target.parent.mkdir()
    target.write_text("kept as it is\n")
    readme = tiny / "families" / "tiny" / "README.md"
    readme.unlink()
    readme.symlink_to(target)
    before = snapshot(tiny)
    done = run_cli("render", "tiny", "--root", tiny)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: refusing to write families/tiny/README.md: families/tiny/README.md is a symbolic "
                        f"link to {target}, which leads outside {tiny} (render writes only there: replace the link "
                        "with the file or folder)\n")
    assert snapshot(tiny) == before and target.read_text() == "kept as it is\n"


def test_a_readme_that_links_inside_the_root_is_replaced_not_written_through(tiny, run_cli):
    readme = tiny / "families" / "tiny" / "README.md"
    rendered = readme.read_bytes()
    other = tiny / "families" / "other.md"  # a generated README gone stale (a hand-written one is refused)
    other.write_bytes(rendered + b"\nanother line\n")
    readme.unlink()
    readme.symlink_to(other)
    done = run_cli("render", "tiny", "--root", tiny)
    assert (done.exit_code, done.out) == (0, "wrote families/tiny/README.md\n")
    assert not readme.is_symlink() and readme.read_bytes() == rendered
    assert other.read_bytes() == rendered + b"\nanother line\n"


@pytest.fixture
def read_only():
    """Makes a folder read-only for this process (chmod, or chattr +i for root, whom modes do not stop)."""
    import subprocess

    made = []

    def make(folder: Path) -> None:
        if os.geteuid() != 0:
            folder.chmod(0o555)
        elif subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("root, and chattr +i is not available here")
        made.append(folder)

    yield make
    for folder in made:
        if os.geteuid() != 0:
            folder.chmod(0o755)
        else:
            subprocess.run(["chattr", "-i", str(folder)], check=True)


@pytest.mark.parametrize("where, named", [("families/tiny", "README.md"), ("families/tiny/figures", "figures/latency.svg")])
def test_a_read_only_family_folder_is_named_relative_to_the_root_and_nothing_is_written(tmp_path, tiny, run_cli,
                                                                                        read_only, where, named):
    # attack round: the message named both paths absolutely
    record = tiny / "measurements" / "tiny" / "job-a.json"
    record.write_text(record.read_text().replace('"value_ms": 2.5', '"value_ms": 2.4'))
    before = snapshot(tiny)
    read_only(tiny / where)
    done = run_cli("render", "tiny", "--root", tiny)
    assert (done.exit_code, done.out) == (2, "")
    first = "families/tiny/figures/latency.svg" if where.endswith("figures") else f"families/tiny/{named}"
    assert done.err == f"studygen: {first}: cannot write: {where} is not writable\n"
    assert snapshot(tiny) == before
