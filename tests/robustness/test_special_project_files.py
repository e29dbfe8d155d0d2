"""Project files that check and render read back (the README, its figures,
records, the study file) in hostile forms end fast with one line naming the
file: a FIFO or a link to ``/dev/zero`` would hang the read, a file of
gigabytes took check past a minute, a symbolic link loop raised Python's
RuntimeError, and a 5,001-digit YAML integer PyYAML's ValueError."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from studygen.textio import MAX_DOCUMENT_BYTES
from tests.conftest import REPO
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import make_tiny_project

README = "families/tiny/README.md"
FIGURE = "families/tiny/figures/latency.svg"
RECORD = "measurements/tiny/job-a.json"
STUDY = "families/tiny/study.yaml"
MAX_RENDERED_BYTES = 4 * MAX_DOCUMENT_BYTES  # a README of MAX_DOCUMENT_BYTES characters, 4 bytes each at most
LOOP = "is a symbolic link loop (a link that leads back to itself), not a file"


@pytest.fixture
def tiny(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project")
    assert run_cli("render", "--root", root).exit_code == 0
    return root


def _studygen(root, *args):
    # timeout: a budget for the test run only (before the fix the FIFO and /dev/zero cases never ended)
    return subprocess.run([sys.executable, "-m", "studygen", *args, "--root", str(root), "tiny"], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120)


def _fifo(path):
    os.mkfifo(path)


def _dev_zero(path):
    os.symlink("/dev/zero", path)


def _self_loop(path):
    os.symlink(path.name, path)


@pytest.mark.parametrize("make, why", [(_fifo, "is a FIFO (named pipe), not a regular file"),
                                       (_dev_zero, "is a character device, not a regular file"),
                                       (_self_loop, LOOP)])
@pytest.mark.parametrize("target", [README, FIGURE])
def test_check_reports_an_output_that_is_no_regular_file_as_unreadable(tiny, target, make, why):
    (tiny / target).unlink()
    make(tiny / target)
    done = _studygen(tiny, "check")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{target}: SG201 cannot be read: {why}\n" in done.stdout


@pytest.mark.parametrize("make, why", [(_fifo, "is a FIFO (named pipe), not a regular file"), (_self_loop, LOOP)])
@pytest.mark.parametrize("target", [README, FIGURE])
def test_render_refuses_to_replace_an_output_that_is_no_regular_file(tiny, target, make, why):
    (tiny / target).unlink()
    make(tiny / target)
    before = snapshot(tiny)
    done = _studygen(tiny, "render")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("studygen: ")
    assert done.stderr.endswith(f"{target}: {why}\n")
    assert snapshot(tiny) == before


def test_an_output_larger_than_render_writes_is_unreadable_to_check_and_replaced_by_render(tiny, run_cli):
    size = MAX_RENDERED_BYTES + 1  # sparse: no disk used
    rendered = (tiny / README).read_bytes()
    os.truncate(tiny / README, size)
    done = run_cli("check", "tiny", "--root", tiny)
    assert done.exit_code == 1
    assert (f"{README}: SG201 cannot be read: file is {size} bytes; the limit is {MAX_RENDERED_BYTES} bytes "
            "(64 MiB)\n") in done.out
    assert run_cli("render", "tiny", "--root", tiny).exit_code == 0
    assert (tiny / README).read_bytes() == rendered


def test_a_record_that_is_a_symbolic_link_loop_is_sg202_in_check_and_refused_elsewhere(tiny, run_cli):
    os.symlink("loop.json", tiny / "measurements/tiny/loop.json")
    done = run_cli("check", "tiny", "--root", tiny)
    assert done.exit_code == 1 and "internal error" not in done.err
    assert f"measurements/tiny/loop.json: SG202 {LOOP}\n" in done.out
    for command in ("render", "rows"):
        before = snapshot(tiny)
        done = run_cli(command, "tiny", "--root", tiny)
        assert (done.exit_code, done.out) == (2, "")
        assert done.err == f"studygen: measurements/tiny/loop.json: {LOOP}\n"
        assert snapshot(tiny) == before


def test_a_study_file_that_is_a_symbolic_link_loop_is_named_as_such(tiny, run_cli):
    (tiny / STUDY).unlink()
    os.symlink("study.yaml", tiny / STUDY)
    for command in ("check", "render"):
        done = run_cli(command, "tiny", "--root", tiny)
        assert (done.exit_code, done.out, done.err) == (2, "", f"studygen: {STUDY}: {LOOP}\n")


def test_a_yaml_integer_past_pythons_digit_limit_is_sg202_at_its_line(tiny, run_cli):
    text = (tiny / STUDY).read_text(encoding="utf-8")
    line = text.count("\n") + 1
    (tiny / STUDY).write_text(text + "huge: 1" + "0" * 5000 + "\n", encoding="utf-8")
    done = run_cli("check", "tiny", "--root", tiny)
    assert (done.exit_code, done.err) == (1, "")
    assert done.out == (f"{STUDY}:{line}: SG202 malformed YAML: integer of 5001 characters is out of range (no "
                        "figure or setting has that many digits)\n1 error(s), 0 warning(s)\n")
