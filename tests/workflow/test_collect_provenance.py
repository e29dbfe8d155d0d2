"""Issue 14 item 4 (part): an ingested log's record takes the checkpoint from
the study file and gets a repository commit and driver from the command line,
so SG209 can be satisfied without a waiver."""

from __future__ import annotations

import json

from studygen.checks import CheckContext, sg209_provenance
from studygen.study import load_study

from ..conftest import FIXTURES

LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"


def _new(run_cli, root, *extra):
    assert run_cli("new", "demo", "--variants", "fp32,int8", "--root", root, *extra).exit_code == 0


def _collect(run_cli, root, monkeypatch, *extra, job="h100-a"):
    monkeypatch.chdir(root)
    return run_cli("collect", "trtexec", "--family", "demo", "--job", job, "--variant", "fp32", "--log", LOG, *extra)


def _provenance(root, job="h100-a"):
    return json.loads((root / "measurements" / "demo" / f"{job}.json").read_text())["provenance"]


def test_checkpoint_from_the_study_file_and_commit_from_the_command_line(tmp_path, run_cli, monkeypatch):
    _new(run_cli, tmp_path, "--model", "org/model-trained", "--revision", "353a4d73")
    result = _collect(run_cli, tmp_path, monkeypatch, "--commit", "353A4D73", "--driver", "580.1")
    assert result.exit_code == 0, result.err
    provenance = _provenance(tmp_path)
    assert provenance["checkpoint"] == {"id": "org/model-trained", "revision": "353a4d73", "weights": "pretrained"}
    assert provenance["repository_commit"] == "353a4d73" and provenance["repository_dirty"] is False
    assert provenance["driver"] == "580.1"
    assert provenance["collector"]["command"].endswith("--driver 580.1 --commit 353A4D73")
    study = load_study(tmp_path / "families" / "demo", tmp_path)
    assert sg209_provenance.check(CheckContext(study)) == []


def test_without_commit_or_revision_sg209_still_asks_for_them(tmp_path, run_cli, monkeypatch):
    _new(run_cli, tmp_path)
    assert _collect(run_cli, tmp_path, monkeypatch).exit_code == 0
    provenance = _provenance(tmp_path)
    assert provenance["checkpoint"]["id"] == "demo" and provenance["checkpoint"]["revision"] is None
    assert "repository_commit" not in provenance
    study = load_study(tmp_path / "families" / "demo", tmp_path)
    pointers = sorted(f.pointer for f in sg209_provenance.check(CheckContext(study)))
    assert pointers == ["/provenance/checkpoint/revision", "/provenance/repository_commit"]


def test_random_init_seed_and_dirty_tree(tmp_path, run_cli, monkeypatch):
    _new(run_cli, tmp_path, "--model", "org/m")
    spec_path = tmp_path / "families/demo/study.yaml"
    spec_path.write_text(spec_path.read_text().replace("  revision: null\n",
                                                       "  revision: null\n  weights: random-init\n  seed: 7\n"))
    assert _collect(run_cli, tmp_path, monkeypatch, "--commit", "abcdef1", "--dirty").exit_code == 0
    provenance = _provenance(tmp_path)
    assert provenance["checkpoint"] == {"id": "org/m", "revision": None, "weights": "random-init", "seed": 7}
    assert provenance["repository_dirty"] is True
    assert "notes" not in provenance or not any("weights not given" in n for n in provenance["notes"])


def test_contradicting_or_malformed_options_are_refused(tmp_path, run_cli, monkeypatch):
    _new(run_cli, tmp_path, "--model", "org/m", "--revision", "abc1234")
    cases = {
        ("--checkpoint", "org/other"): "studygen: --checkpoint org/other but the study file's model is org/m\n",
        ("--checkpoint", "org/m@fff0000"): "studygen: --checkpoint revision fff0000 but the study file names model "
                                          "revision abc1234: list fff0000 under model.revisions if the input was "
                                          "made from that revision\n",
        ("--commit", "12345"): "studygen: invalid --commit '12345': give the commit as 7 to 40 hex digits "
                               "(git rev-parse HEAD in the repository that made the engine or run)\n",
        ("--commit", "g" * 7): "studygen: invalid --commit 'ggggggg': give the commit as 7 to 40 hex digits "
                               "(git rev-parse HEAD in the repository that made the engine or run)\n",
        ("--dirty",): "studygen: --dirty says the tree at --commit had changes: give --commit SHA too\n",
    }
    for extra, message in cases.items():
        result = _collect(run_cli, tmp_path, monkeypatch, *extra)
        assert (result.exit_code, result.err) == (2, message), extra
    assert not (tmp_path / "measurements" / "demo").exists() or not any((tmp_path / "measurements" / "demo").iterdir())
    same = _collect(run_cli, tmp_path, monkeypatch, "--checkpoint", "org/m@abc1234", "--commit", "a" * 40)
    assert same.exit_code == 0, same.err
    assert _provenance(tmp_path)["repository_commit"] == "a" * 40


def _new_with_revisions(run_cli, root):
    """A project whose study names revision 353a4d73 and lists two more (one abbreviated, one whole)."""
    _new(run_cli, root, "--model", "org/m", "--revision", "353a4d73")
    spec_path = root / "families/demo/study.yaml"
    spec_path.write_text(spec_path.read_text().replace(
        "  revision: 353a4d73\n", "  revision: 353a4d73\n  revisions: [76321b19, c65790e1147b8cb4a22258c41533d29d13417fd4]\n"))


def test_a_revision_the_study_file_neither_names_nor_lists_is_refused(tmp_path, run_cli, monkeypatch):
    """Logs of one model repository at several commits: each record states the commit its input came from."""
    _new_with_revisions(run_cli, tmp_path)
    refused = _collect(run_cli, tmp_path, monkeypatch, "--checkpoint", "org/m@07271c31")
    assert (refused.exit_code, refused.err) == (2, (
        "studygen: --checkpoint revision 07271c31 but the study file names model revisions 353a4d73, 76321b19, "
        "c65790e1147b8cb4a22258c41533d29d13417fd4: list 07271c31 under model.revisions if the input was made from "
        "that revision\n"))
    assert not (tmp_path / "measurements" / "demo").exists() or not any((tmp_path / "measurements" / "demo").iterdir())


def test_each_revision_the_study_file_names_or_lists_is_recorded_as_given(tmp_path, run_cli, monkeypatch):
    # given -> recorded: a listed one, an abbreviation of a listed one, a longer form of the named one, none
    cases = {"76321b19": "76321b19", "c65790e": "c65790e", "353A4D73ffff": "353A4D73ffff", None: "353a4d73"}
    for number, (given, recorded) in enumerate(cases.items()):
        root = tmp_path / f"p{number}"
        root.mkdir()
        _new_with_revisions(run_cli, root)
        checkpoint = ("--checkpoint", f"org/m@{given}") if given else ()
        result = _collect(run_cli, root, monkeypatch, *checkpoint, "--commit", "abcdef1")
        assert result.exit_code == 0, (given, result.err)
        assert _provenance(root)["checkpoint"]["revision"] == recorded
        study = load_study(root / "families" / "demo", root)
        assert sg209_provenance.check(CheckContext(study)) == [], given


def test_the_study_model_spelt_otherwise_is_accepted_and_another_model_refused(tmp_path, run_cli, monkeypatch):
    # collect and SG209 share one rule for the model id: a Hugging Face id case aside, its address, a cache folder
    accepted = ["ORG/M@ABC1234", "https://huggingface.co/org/m@abc1234def", "/hub/models--org--m/snapshots/1@abc1234"]
    for number, checkpoint in enumerate(accepted):
        root = tmp_path / f"p{number}"
        root.mkdir()
        _new(run_cli, root, "--model", "org/m", "--revision", "abc1234")
        done = _collect(run_cli, root, monkeypatch, "--checkpoint", checkpoint, "--commit", "abcdef1")
        assert done.exit_code == 0, (checkpoint, done.err)
        assert _provenance(root)["checkpoint"]["id"] == checkpoint.rsplit("@", 1)[0]  # recorded as given
        study = load_study(root / "families" / "demo", root)
        assert sg209_provenance.check(CheckContext(study)) == [], checkpoint
        assert {row.key.revision for row in study.rows} == {"abc1234"}
    refused = _collect(run_cli, tmp_path / "p0", monkeypatch, "--checkpoint", "org/m2@abc1234", job="other")
    assert (refused.exit_code, refused.err) == (2, "studygen: --checkpoint org/m2 but the study file's model is org/m\n")


def test_a_revision_left_to_the_study_file_keeps_the_records_own_when_the_study_allows_it(tmp_path, run_cli,
                                                                                           monkeypatch):
    # the record was collected at a listed revision; a second collect into the job without --checkpoint must not
    # read the study file's model.revision (353a4d73) as the user's word against the record's (c65790e1)
    _new_with_revisions(run_cli, tmp_path)
    first = _collect(run_cli, tmp_path, monkeypatch, "--checkpoint", "org/m@c65790e1")
    assert first.exit_code == 0, first.err
    second = run_cli("collect", "trtexec", "--family", "demo", "--job", "h100-a", "--variant", "int8",
                     "--log", FIXTURES / "trtexec" / "trt10.16_no-data-transfers.log")
    assert second.exit_code == 0, second.err
    assert "3 result(s) added" in second.out
    assert _provenance(tmp_path)["checkpoint"] == {"id": "org/m", "revision": "c65790e1", "weights": "pretrained"}
    study = load_study(tmp_path / "families" / "demo", tmp_path)
    assert {row.key.revision for row in study.rows} == {"c65790e"}


def test_a_revision_left_to_the_study_file_against_a_record_it_does_not_allow_says_where_it_came_from(
        tmp_path, run_cli, monkeypatch):
    _new_with_revisions(run_cli, tmp_path)
    assert _collect(run_cli, tmp_path, monkeypatch, "--checkpoint", "org/m@c65790e1").exit_code == 0
    spec_path = tmp_path / "families/demo/study.yaml"  # the study no longer lists the record's revision
    spec_path.write_text(spec_path.read_text().replace(", c65790e1147b8cb4a22258c41533d29d13417fd4", ""))
    record = tmp_path / "measurements" / "demo" / "h100-a.json"
    before = record.read_bytes()
    refused = run_cli("collect", "trtexec", "--family", "demo", "--job", "h100-a", "--variant", "int8",
                      "--log", FIXTURES / "trtexec" / "trt10.16_no-data-transfers.log")
    assert refused.exit_code != 0
    assert refused.err == (
        "studygen: measurements/demo/h100-a.json:/provenance/checkpoint/revision: the record says checkpoint "
        "revision 'c65790e1', which the study file does not allow; the command line gives no revision, and "
        "'353a4d73' is the study file's model.revision; if the input was made from revision c65790e1, list it under "
        "the study file's model.revisions and give --checkpoint org/m@c65790e1, else collect with --replace REASON "
        "to correct the record\n")
    assert record.read_bytes() == before
