"""Regressions from the hostile-user trial (B3, B4, B5, B13, B15, the silent
default variant): each ends in one line naming the file and the place, the
right exit code, and nothing written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.collect.conftest import TORCH, TRTEXEC
from tests.conftest import REPO

PROVENANCE = ("--gpu", "X", "--software", "tensorrt=10.16.1")
TIMES_ROW = {"startEnqMs": 0.0, "endEnqMs": 0.5, "startH2dMs": 0.5, "endH2dMs": 0.75, "startComputeMs": 0.75,
             "endComputeMs": 2.25, "startD2hMs": 2.25, "endD2hMs": 2.5, "h2dMs": 0.25, "computeMs": 1.5,
             "d2hMs": 0.25, "latencyMs": 2.0}


def times_file(path: Path, compute_ms: list[str]) -> Path:
    """An --exportTimes array with one row per computeMs text (written verbatim: 1e400 is no Python float)."""
    rows = [json.dumps(TIMES_ROW).replace('"computeMs": 1.5', f'"computeMs": {text}') for text in compute_ms]
    path.write_text("[\n" + ",\n".join(rows) + "\n]\n", encoding="utf-8")
    return path


def trtexec(run_cli, *args):
    """``collect trtexec`` for family demo, job j1, into ./measurements (outside any project, named); the GPU
    and TensorRT from options unless a --log names them."""
    provenance = () if "--log" in args else PROVENANCE
    return run_cli("collect", "trtexec", "--family", "demo", "--job", "j1", "--measurements", "measurements",
                   *provenance, *args)


def test_b3_overflowing_times_value_names_the_file_and_pointer(run_cli, workdir):
    path = times_file(workdir / "T.json", ["1.5", "1e400", "1.5"])
    done = trtexec(run_cli, "--shape", "800x800", "--variant", "v", "--times", path, "--measurements", "m")
    assert done.exit_code == 2
    assert done.err == ("studygen: T.json:/1/computeMs: number 1e400 is out of range: not a finite double "
                        "(it would read as infinity)\n")
    assert not (workdir / "m").exists()


def test_b3_overflowing_profile_average_names_the_file_and_pointer(run_cli, workdir):
    text = (TRTEXEC / "detr-r50_profile.json").read_text(encoding="utf-8")
    first = re.search(r'"averageMs"\s*:\s*[-0-9.eE+]+', text)
    damaged = text[:first.start()] + '"averageMs": 1e999' + text[first.end():]
    # the first layer row follows the {"count": N} object, so it is element 1 of the array
    assert "count" in json.loads(text)[0] and "averageMs" in json.loads(text)[1]
    (workdir / "P.json").write_text(damaged, encoding="utf-8")
    done = trtexec(run_cli, "--profile", workdir / "P.json", "--variant", "v", "--measurements", "m")
    assert done.exit_code == 2
    assert done.err == ("studygen: P.json:/1/averageMs: number 1e999 is out of range: not a finite double "
                        "(it would read as infinity)\n")
    assert not (workdir / "m").exists()


def test_b4_truncated_gzip_is_damaged_not_too_big(run_cli, workdir):
    whole = (TORCH / "alexnet_kineto_trace.json.gz").read_bytes()
    (workdir / "t.json.gz").write_bytes(whole[:300])
    # the cut file's last 4 bytes, read as ISIZE, claim more than the 500 MiB limit: the trial's false message
    assert int.from_bytes(whole[296:300], "little") > 524288000
    done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "j", "--trace", "t.json.gz",
                   "--measurements", "measurements")
    assert done.exit_code == 2
    assert done.err == ("studygen: t.json.gz: damaged gzip file: Compressed file ended before the "
                        "end-of-stream marker was reached\n")
    assert not (workdir / "measurements").exists()


def test_b5_measurements_family_folder_is_a_file(run_cli, workdir):
    (workdir / "measurements").mkdir()
    (workdir / "measurements" / "demo").write_text("not a folder\n")
    done = trtexec(run_cli, "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "v")
    assert done.exit_code == 2
    assert done.err == "studygen: measurements/demo: cannot create the folder: File exists\n"
    assert (workdir / "measurements" / "demo").read_text() == "not a folder\n"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
def test_b5_measurements_on_a_virtual_file_system(run_cli, workdir):
    done = trtexec(run_cli, "--log", TRTEXEC / "trt10.16_build-and-run.log", "--variant", "v",
                   "--measurements", "/proc/self")
    assert done.exit_code == 2
    assert done.err == "studygen: /proc/self/demo: cannot create the folder: No such file or directory\n"


def test_b13_negative_time_names_the_input_not_the_record(run_cli, workdir):
    path = times_file(workdir / "neg.json", ["1.5", "-1", "1.5"])
    done = trtexec(run_cli, "--times", path, "--variant", "v", "--measurements", "m")
    assert done.exit_code == 2
    assert done.err == "studygen: neg.json:/1/computeMs: computeMs is -1: a duration cannot be negative\n"
    assert not (workdir / "m").exists()


@pytest.fixture
def project_dir(tmp_path, monkeypatch):
    """A copy of the project's deformable_detr study as the working directory."""
    shutil.copytree(REPO / "families" / "deformable_detr", tmp_path / "families" / "deformable_detr")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_b15_unknown_family_inside_a_project_is_refused(run_cli, project_dir):
    done = run_cli("collect", "trtexec", "--family", "no_such_family", "--job", "j1", "--log",
                   TRTEXEC / "trt10.16_build-and-run.log")
    assert done.exit_code == 2
    assert done.err == ("studygen: unknown --family 'no_such_family': the project has no "
                        "families/no_such_family/study.yaml (known families: deformable_detr); give --measurements "
                        "outside the project for a record that belongs to no study\n")
    assert not (project_dir / "measurements").exists()


def test_b15_unknown_family_with_measurements_outside_the_project_is_allowed(run_cli, project_dir, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "m"
    done = run_cli("collect", "trtexec", "--family", "no_such_family", "--job", "j1", "--variant", "v", "--log",
                   TRTEXEC / "trt10.16_build-and-run.log", "--measurements", outside)
    assert done.exit_code == 0, done.err
    assert done.err == ""
    assert (outside / "no_such_family" / "j1.json").is_file()


def test_b15_env_does_not_start_a_record(run_cli, workdir):
    done = run_cli("collect", "env", "--family", "demo", "--job", "new", "--role", "measuring", "--no-torch")
    assert done.exit_code == 2
    assert done.err == ("studygen: no such record measurements/demo/new.json: collect results into --job new first "
                        "(a record without results is not written)\n")
    assert done.out == ""
    assert not (workdir / "measurements").exists()


def test_default_variant_is_noted(run_cli, workdir):
    done = trtexec(run_cli, "--log", TRTEXEC / "trt10.16_build-and-run.log")
    assert done.exit_code == 0, done.err
    record = json.loads((workdir / "measurements" / "demo" / "j1.json").read_text())
    assert {r["variant"] for r in record["results"]} == {"unnamed"}
    assert ("--variant not given and no study file names one: results recorded as variant 'unnamed' (the default)"
            in record["provenance"]["notes"])
