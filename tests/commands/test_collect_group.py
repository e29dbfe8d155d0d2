"""The ``studygen collect`` group: subcommands, the lazily loaded ``run``,
light imports, and the console entry point run as a subprocess."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from studygen.commands import COLLECT_COMMANDS, COMMANDS, CommandEntry
from tests.collect.conftest import TORCH, TRTEXEC
from tests.conftest import REPO


def studygen(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "studygen", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def test_help_lists_every_subcommand(run_cli, workdir):
    done = run_cli("collect", "--help")
    assert done.exit_code == 0
    for name in ("agreement", "trtexec", "torch-profile", "coco", "env", "run"):
        assert f"\n  {name} " in done.out


def test_missing_run_module_is_listed_as_unavailable(run_cli, workdir, monkeypatch):
    monkeypatch.setitem(COLLECT_COMMANDS, "run",
                        CommandEntry("studygen.commands.no_such_module", "run_command", "Measure a study."))
    done = run_cli("collect", "--help")
    assert done.exit_code == 0
    assert "(unavailable: module studygen.commands.no_such_module is not installed)" in " ".join(done.out.split())
    done = run_cli("collect", "run", "--study", "x.yaml")
    assert done.exit_code == 2
    assert "collect run is unavailable: ModuleNotFoundError" in done.err


def test_collect_help_imports_no_heavy_module(workdir):
    code = ("import sys\nfrom studygen.cli import run\ntry:\n    run(['collect', '--help'])\nexcept SystemExit:\n    pass\n"
            "print('HEAVY', sorted(m for m in ('torch', 'pandas', 'transformers', 'pycocotools', 'faster_coco_eval', "
            "'studygen.commands.collect_run') if m in sys.modules))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", code], cwd=workdir, env=env, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in done.stdout, done.stdout + done.stderr


def test_console_entry_point_success_and_failure(workdir):
    ok = studygen("collect", "trtexec", "--family", "demo", "--job", "j", "--log", TRTEXEC / "trt8.6_unstable-gpu-compute.log",
                  "--measurements", "measurements", cwd=workdir)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == "wrote measurements/demo/j.json: 5 result(s) added (new record)\n"
    record = json.loads((workdir / "measurements" / "demo" / "j.json").read_text())
    assert record["provenance"]["gpu"] == "NVIDIA GeForce RTX 3090"
    bad = studygen("collect", "torch-profile", "--family", "demo", "--job", "k", "--trace",
                   TORCH / "cpu-only_kineto_trace.json.gz", "--measurements", "measurements", cwd=workdir)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("studygen: ")
    assert "no GPU kernel events" in bad.stderr
    assert not (workdir / "measurements" / "demo" / "k.json").exists()


def test_default_measurements_folder_is_under_the_project_root(workdir, run_cli):
    # a family of the project (families/<family>/study.yaml): an unknown one is refused inside a project
    shutil.copytree(REPO / "families" / "deformable_detr", workdir / "families" / "deformable_detr")
    nested = workdir / "families" / "somewhere"
    nested.mkdir()
    os.chdir(nested)
    done = run_cli("collect", "trtexec", "--family", "deformable_detr", "--job", "j", "--variant", "fp16", "--log",
                   TRTEXEC / "trt8.6_unstable-gpu-compute.log")
    assert done.exit_code == 0, done.err
    assert (workdir / "measurements" / "deformable_detr" / "j.json").exists()


def test_unknown_option_is_a_usage_error(run_cli, workdir):
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--nope")
    assert done.exit_code == 2
    assert "No such option '--nope'" in done.err


@pytest.mark.parametrize(("table", "name"), [*((COMMANDS, name) for name in COMMANDS),
                                           *((COLLECT_COMMANDS, name) for name in COLLECT_COMMANDS)])
def test_a_commands_summary_is_written_once_in_the_table(table, name):
    entry = table[name]
    command = getattr(importlib.import_module(entry.module), entry.attribute)
    assert command.name == name
    assert command.short_help == entry.summary and command.help.split("\n\n")[0] == entry.summary
    assert entry.summary not in (command.callback.__doc__ or "")  # the docstring adds to it, never repeats it


def test_help_lists_each_summary_without_importing_the_commands(run_cli):
    listed = " ".join(run_cli("--help").out.split())
    assert all(f"{name} {entry.summary}" in listed for name, entry in COMMANDS.items())
