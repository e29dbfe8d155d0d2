"""``collect`` inputs and provenance: a changed tracked file makes the
repository dirty and an untracked one does not, as ``git describe --dirty``
reads it (``collect env`` and ``collect run`` agree), a shape is HxW with whole
numbers above 0, and an empty detections list is recorded with a warning
and a note, never as a silent AP of 0."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from studygen.collect.run.provenance import git_commit as _git_commit
from tests.collect.conftest import TORCH, TRTEXEC

BUILD_LOG = TRTEXEC / "trt10.16_build-and-run.log"


# --- tracked changes make the repository dirty, untracked files do not ------

def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True,
                   capture_output=True)


@pytest.fixture
def repo(workdir):
    git(workdir, "init", "-q")
    (workdir / ".gitignore").write_text("*.log\n")
    (workdir / "study.md").write_text("tracked\n")
    git(workdir, "add", ".gitignore", "study.md")
    git(workdir, "commit", "-q", "-m", "one")
    return workdir


def git_head(repo: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


def env_dirty(run_cli) -> bool | None:
    done = run_cli("collect", "env", "--no-torch")
    assert done.exit_code == 0, done.err
    return json.loads(done.out)["repository_dirty"]


def test_env_untracked_file_leaves_the_tree_clean_until_it_is_staged(run_cli, repo):
    # Failed before: a new user's untracked study.yaml made every record it collected say ".dirty"
    assert env_dirty(run_cli) is False
    (repo / "ignored.log").write_text("ignored\n")
    assert env_dirty(run_cli) is False
    (repo / "new_record.json").write_text("{}\n")
    assert env_dirty(run_cli) is False  # the commit's own files are as it holds them
    assert _git_commit(repo) == (git_head(repo), False)  # collect run's provenance says the same
    git(repo, "add", "new_record.json")
    assert env_dirty(run_cli) is True  # staged: a change of what the next commit holds
    assert _git_commit(repo) == (git_head(repo), True)


def test_env_dirty_does_not_depend_on_show_untracked_config(run_cli, repo):
    git(repo, "config", "status.showUntrackedFiles", "all")
    (repo / "new_record.json").write_text("{}\n")
    assert env_dirty(run_cli) is False
    assert _git_commit(repo)[1] is False


def test_env_tracked_change_makes_the_tree_dirty(run_cli, repo):
    (repo / "study.md").write_text("changed\n")
    assert env_dirty(run_cli) is True
    assert _git_commit(repo) == (git_head(repo), True)


def test_env_deleted_tracked_file_makes_the_tree_dirty(run_cli, repo):
    (repo / "study.md").unlink()
    assert env_dirty(run_cli) is True


# --- shapes are HxW with whole numbers above 0 ---------------------------------

SHAPE_REFUSAL = "studygen: invalid --shape {!r}: use HxW in pixels, each a whole number above 0, e.g. 800x1067\n"


@pytest.mark.parametrize("shape", ["0x0", "800x0", "0x800", "0800x800"])
@pytest.mark.parametrize("sub, args", [
    ("trtexec", ("--log", BUILD_LOG)),
    ("torch-profile", ("--trace", TORCH / "alexnet_kineto_trace.json.gz")),
    ("coco", ("--annotations", "gt.json", "--detections", "dt.json", "--dataset", "d")),
])
def test_shape_must_be_positive(collect, workdir, sub, args, shape):
    done = collect(sub, *args, "--shape", shape)
    assert done.exit_code == 2
    assert done.err == SHAPE_REFUSAL.format(shape)
    assert done.out == ""
    assert not (workdir / "measurements").exists()


# --- empty detections: recorded, with a warning and a note ---------------------

def test_empty_detections_warn_and_note(collect, workdir):
    (workdir / "gt.json").write_text(json.dumps({
        "images": [{"id": 1, "width": 640, "height": 480}],
        "categories": [{"id": 1, "name": "thing"}],
        "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [300, 300, 100, 100], "area": 10000,
                         "iscrowd": 0}]}))
    (workdir / "dt.json").write_text("[]\n")
    done = collect("coco", "--annotations", "gt.json", "--detections", "dt.json", "--dataset", "d")
    assert done.exit_code == 0, done.err
    assert done.err == "studygen: warning: dt.json: no detections: AP and AP50 are 0 by construction\n"
    results = {r["statistic"]: r for r in done.results}
    assert results["AP"]["value"] == 0.0 and results["AP50"]["value"] == 0.0 and results["APs"]["value"] == -1.0
    assert {r["note"] for r in done.results} == {"dt.json: no detections: AP and AP50 are 0 by construction"}


def test_detections_give_no_warning_and_no_note(collect, workdir):
    (workdir / "gt.json").write_text(json.dumps({
        "images": [{"id": 1, "width": 640, "height": 480}],
        "categories": [{"id": 1, "name": "thing"}],
        "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [300, 300, 100, 100], "area": 10000,
                         "iscrowd": 0}]}))
    (workdir / "dt.json").write_text(json.dumps([{"image_id": 1, "category_id": 1, "bbox": [300, 300, 100, 100],
                                                  "score": 0.9}]))
    done = collect("coco", "--annotations", "gt.json", "--detections", "dt.json", "--dataset", "d")
    assert done.exit_code == 0, done.err
    assert done.err == ""
    assert {r["statistic"]: r["value"] for r in done.results}["AP"] == pytest.approx(1.0, abs=1e-12)  # the box found
    assert not any("note" in r for r in done.results)


@pytest.mark.parametrize("where, value", [("/run/shapes/0", "0x64"), ("/run/compile_shapes/0", "64x0"),
                                          ("/agreement/shape", "0x0")])
def test_study_shapes_for_collect_run_must_be_positive(where, value):
    import yaml

    from studygen.collect.run.spec import build_plan
    from studygen.errors import RecordError
    from tests.run.conftest import TINY_STUDY

    study = yaml.safe_load(TINY_STUDY)
    _, block, field_name, *_ = where.split("/")
    if field_name == "shape":
        study.setdefault("agreement", {})["shape"] = value
    else:
        study.setdefault("run", {})[field_name] = [value]
    with pytest.raises(RecordError) as raised:
        build_plan(study, study_path="s.yaml")
    assert (raised.value.where, raised.value.message) == (
        where, f"invalid shape {value!r}: write HxW in pixels, each a whole number above 0")
