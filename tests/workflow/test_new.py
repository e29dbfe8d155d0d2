"""Issue 22, a new user's report: a study made with ``studygen new`` and the
generic template, one variant collected and the other declared not measured
as the study guide advises, draws no finding about studygen's own text (its
title placeholder, its Variants list, a revisit condition), and the title
``new`` writes is a placeholder SG218 reports."""

from __future__ import annotations

import yaml

from studygen.checks import run_checks
from studygen.study import load_study
from studygen.study.scaffold import is_placeholder

from ..conftest import SHARED

LOG = SHARED / "fixtures" / "trtexec" / "trt10.16_build-and-run.log"


def new_user_study(tmp_path, run_cli, **edits):
    """``new demo2`` (fp32, fp16), fp32 collected from the guide's log, the study file then given ``edits``."""
    assert run_cli("new", "demo2", "--variants", "fp32,fp16", "--model", "m.onnx", "--revision", "353a4d73",
                   "--root", tmp_path).exit_code == 0
    collected = run_cli("collect", "trtexec", "--family", "demo2", "--job", "h100-a", "--variant", "fp32",
                        "--log", LOG, "--commit", "353a4d73", "--root", tmp_path)
    assert collected.exit_code == 0, collected.err
    study_file = tmp_path / "families" / "demo2" / "study.yaml"
    spec = yaml.safe_load(study_file.read_text(encoding="utf-8"))
    spec.update(edits)
    study_file.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    return load_study(study_file.parent, tmp_path)


def test_a_variant_declared_not_measured_draws_no_finding_on_studygen_s_own_text(tmp_path, run_cli):
    decision = {"shipped": False, "summary": "Keep fp32.",
                "revisit_when": ["someone publishes an FP16 run of this model"]}
    study = new_user_study(tmp_path, run_cli, not_measured=[{"config": "fp16", "reason": "no FP16 engine built"}],
                           decision=decision)
    assert run_cli("render", "demo2", "--root", tmp_path).exit_code == 0
    lines = study.readme_path.read_text(encoding="utf-8").splitlines()
    assert lines[2] == "# demo2 (edit this)"
    assert "- **fp16**" in lines and "- someone publishes an FP16 run of this model" in lines
    # before: the title new wrote ("# demo2: fp32, fp16"), the Variants list and the revisit line were SG206 errors
    assert [f for f in run_checks(load_study(study.study_dir, tmp_path)) if f.code == "SG206"] == []


def test_the_title_new_writes_is_a_placeholder_and_fails_a_study_ready_to_publish(tmp_path, run_cli):
    study = new_user_study(tmp_path, run_cli, status="ready",
                           description="Hackathon MNIST engine on one H100.", decision={"shipped": False,
                                                                                         "summary": "Keep fp32."},
                           not_measured=[{"config": "fp16", "reason": "no FP16 engine built"}])
    assert study.spec["title"] == "demo2 (edit this)"
    (placeholder,) = [f for f in run_checks(study) if f.code == "SG218"]
    assert (placeholder.pointer, placeholder.severity) == ("/title", "error")
    lines = study.study_path.read_text(encoding="utf-8").splitlines()
    assert lines[placeholder.line - 1] == "title: demo2 (edit this)"


def test_a_title_a_person_writes_is_no_placeholder():
    # the family name alone, or with its variants (new's old default), is a title someone may choose
    assert is_placeholder("alexnet_kineto (edit this)")
    for title in ("alexnet_kineto", "alexnet_kineto: fp32", "demo2: fp32, fp16", "Edit this engine: fp16 on H100"):
        assert not is_placeholder(title), title


def test_revisions_writes_the_commits_a_record_may_state_and_collect_holds_to_them(tmp_path, run_cli):
    made = run_cli("new", "demo3", "--variants", "fp32", "--model", "org/m", "--revision", "353a4d73",
                   "--revisions", " 331d8b23,76321B19,,c65790e1147b8cb4a22258c41533d29d13417fd4", "--root", tmp_path)
    assert made.exit_code == 0, made.err
    study_file = tmp_path / "families" / "demo3" / "study.yaml"
    assert yaml.safe_load(study_file.read_text(encoding="utf-8"))["model"] == {
        "id": "org/m", "revision": "353a4d73",
        "revisions": ["331d8b23", "76321B19", "c65790e1147b8cb4a22258c41533d29d13417fd4"]}

    def collect(revision, job):
        return run_cli("collect", "trtexec", "--family", "demo3", "--job", job, "--variant", "fp32", "--log", LOG,
                       "--checkpoint", f"org/m@{revision}", "--commit", "353a4d73", "--root", tmp_path)

    refused = collect("07271c31", "a")
    assert (refused.exit_code, refused.err) == (2, (
        "studygen: --checkpoint revision 07271c31 but the study file names model revisions 353a4d73, 331d8b23, "
        "76321B19, c65790e1147b8cb4a22258c41533d29d13417fd4: list 07271c31 under model.revisions if the input was "
        "made from that revision\n"))
    assert collect("76321b190daa", "a").exit_code == 0
    study = load_study(study_file.parent, tmp_path)
    assert [f for f in run_checks(study) if f.code == "SG209"] == []
    assert {row.key.revision for row in study.rows} == {"76321b1"}


def test_revisions_naming_one_commit_twice_or_with_a_blank_are_refused(tmp_path, run_cli):
    cases = {("--revision", "353a4d73", "--revisions", "353A4D73ff"):
             "studygen: --revisions: 353A4D73ff names the checkpoint --revision gives as 353a4d73; name each once\n",
             ("--revisions", "331d8b23,331D8B2"):
             "studygen: --revisions: 331D8B2 names the checkpoint --revisions gives as 331d8b23; name each once\n",
             ("--revisions", "v1.0 beta"):
             "studygen: --revisions: 'v1.0 beta' has a blank in it; separate revisions with commas\n"}
    for options, message in cases.items():
        done = run_cli("new", "demo4", "--variants", "fp32", *options, "--root", tmp_path)
        assert (done.exit_code, done.err) == (2, message), options
    assert not (tmp_path / "families" / "demo4").exists()
    kept = run_cli("new", "demo4", "--variants", "fp32", "--revisions", "v1.0,V1.0", "--root", tmp_path)
    assert kept.exit_code == 0, kept.err  # tags are names: V1.0 is another one
    assert yaml.safe_load((tmp_path / "families/demo4/study.yaml").read_text())["model"]["revisions"] == ["v1.0", "V1.0"]


def test_the_study_text_itself_refuses_revisions_naming_its_revision_again():
    import pytest

    from studygen.commands.new import NewOptions, parse_variants, study_text
    from studygen.errors import UsageError

    options = NewOptions(family="demo5", variants="fp32", revision="abc1234", revisions="ABC1234ff")
    with pytest.raises(UsageError, match="ABC1234ff names the checkpoint --revision gives as abc1234"):
        study_text(options, parse_variants("fp32"))
    assert "revisions" not in yaml.safe_load(study_text(NewOptions(family="demo5", variants="fp32"),
                                                        parse_variants("fp32")))["model"]
