"""A trtexec build that failed, collected, reaches the README as a run
without a figure and answers SG219 for its variant (it was tried)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg219_unmeasured_variant
from studygen.study import load_study

from ..conftest import FIXTURES

FAILED_FP16 = FIXTURES / "public" / "hackathon-c65790e1_trt8.2.3_result-FP16-failed.txt"


def test_a_failed_build_is_listed_under_runs_without_a_figure(tmp_path, run_cli, monkeypatch):
    assert run_cli("new", "demo", "--variants", "fp16", "--root", tmp_path).exit_code == 0
    monkeypatch.chdir(tmp_path)
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "t4", "--variant", "fp16", "--log", FAILED_FP16)
    assert done.exit_code == 0, done.err
    assert run_cli("render", "demo").exit_code == 0
    readme = (tmp_path / "families" / "demo" / "README.md").read_text()
    section = readme.split("## Runs without a figure\n\n", 1)[1].split("\n\n", 1)[0]
    assert section == ("- Latency of fp16 at 28 x 28 (engine) in job t4: trtexec reported FAILED "
                       "(hackathon-c65790e1_trt8.2.3_result-FP16-failed.txt line 113); the run printed no error "
                       "line ([E]) before it.")
    study = load_study(tmp_path / "families" / "demo", tmp_path)
    assert sg219_unmeasured_variant.check(CheckContext(study)) == []
    # the pull request body lists it too: its results cell's dash points there (a new user's, session 28)
    body = run_cli("render", "--pr-body", "demo")
    assert body.exit_code == 0, body.err
    assert "## Runs without a figure\n\n- Latency of fp16 at 28 x 28 (engine) in job t4: trtexec reported FAILED" in body.out


def test_a_failed_build_is_checked_against_the_declared_precision(tmp_path, run_cli, monkeypatch):
    # a failed fp16 build is no finding about fp32: the precision check reads failed runs too
    assert run_cli("new", "demo", "--variants", "fp32,fp16", "--root", tmp_path).exit_code == 0
    monkeypatch.chdir(tmp_path)
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "t4", "--variant", "fp32", "--log", FAILED_FP16)
    assert done.exit_code == 2
    assert "variant 'fp32' is declared fp32" in done.err and "FP16" in done.err, done.err
    assert not (tmp_path / "measurements" / "demo" / "t4.json").exists()
