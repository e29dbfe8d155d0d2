"""``collect`` inputs and provenance: untracked files make the repository
dirty (``collect env`` and ``collect run`` agree), a shape is HxW with whole
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


# --- untracked files make the repository dirty --------------------------------

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


def env_dirty(run_cli) -> bool | None:
    done = run_cli("collect", "env", "--no-torch")
    assert done.exit_code == 0, done.err
    return json.loads(done.out)["repository_dirty"]


def test_env_untracked_file_makes_the_tree_dirty(run_cli, repo):
    assert env_dirty(run_cli) is False
    (repo / "ignored.log").write_text("ignored\n")
    assert env_dirty(run_cli) is False  # ignored files are not the commit's business
    (repo / "new_record.json").write_text("{}\n")
    assert env_dirty(run_cli) is True


def test_env_dirty_does_not_depend_on_show_untracked_config(run_cli, repo):
    git(repo, "config", "status.showUntrackedFiles", "no")
    (repo / "new_record.json").write_text("{}\n")
    assert env_dirty(run_cli) is True
    assert _git_commit(repo)[1] is True  # collect run's provenance says the same


def test_env_tracked_change_makes_the_tree_dirty(run_cli, repo):
    (repo / "study.md").write_text("changed\n")
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
