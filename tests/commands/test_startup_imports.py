"""What a studygen process imports before it does its work: each command
pays for what it uses, not for the modules beside it (issue 25 item 5:
``render`` of an unchanged family within 5x ``--help``; issue 11:
``--help`` within 1.3x ``import click``). Asserted on ``sys.modules`` of a
fresh process, never on times."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import REPO, copy_project


def modules_after(argv: list[str], cwd) -> set[str]:
    """The names in ``sys.modules`` after ``studygen ARGV`` ran in a fresh
    interpreter in ``cwd`` (its exit code must be 0). Studies are checked in
    that process (``STUDYGEN_JOBS=1``): forked workers would import what
    they need where this probe cannot see it."""
    probe = ("import json, sys\nfrom studygen.cli import run\n"
             f"code = run({argv!r})\n"
             "sys.stderr.write('MODULES ' + json.dumps(sorted(sys.modules)) + '\\n')\n"
             "sys.exit(code)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO), STUDYGEN_JOBS="1")
    done = subprocess.run([sys.executable, "-c", probe], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    line = next(line for line in done.stderr.splitlines() if line.startswith("MODULES "))
    return set(json.loads(line.removeprefix("MODULES ")))


def test_render_imports_no_check_nor_the_linter(tmp_path):
    project = copy_project(tmp_path / "project")
    loaded = modules_after(["render", "deformable_detr"], project)
    assert "studygen.render.engine" in loaded  # it did render
    assert not sorted(name for name in loaded if name == "studygen.lint" or name.startswith("studygen.lint."))
    # no check runs, so no check module is imported, nor their package (its waivers and base were 10 % of
    # rendering an unchanged family when render took SG220's wording from the check's module)
    assert not sorted(name for name in loaded if name == "studygen.checks" or name.startswith("studygen.checks."))


def test_render_imports_none_of_what_writes_records(tmp_path):
    """Loading a study checks its names (records.names) and writes nothing: what writes records stays out.
    Failed before: the study took its name rules from records.write, which imports jsonedit and provenance."""
    project = copy_project(tmp_path / "project")
    loaded = modules_after(["render", "deformable_detr"], project)
    assert not sorted(loaded & {"studygen.records.write", "studygen.records.jsonedit", "studygen.records.provenance"})
    assert "studygen.records.names" in loaded and "studygen.records.load" in loaded


def test_importing_one_check_module_leaves_the_others_out(tmp_path):
    probe = ("import sys\nimport studygen.checks.sg220_open_folders\n"
             "print(sorted(m for m in sys.modules if m.startswith(('studygen.lint', 'studygen.checks.sg2',"
             " 'studygen.checks.readme_markdown'))))")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "['studygen.checks.sg220_open_folders']"



def test_render_and_check_lay_out_tables_without_tabulate(tmp_path):
    """The view's tables are laid out by studygen.render.github_table, as tabulate would lay them; tabulate
    (about 10 ms to import) is left to ``studygen rows``. Failed before: render/tables.py called tabulate."""
    families = [path.parent.name for path in (REPO / "families").glob("*/study.yaml")]
    project = copy_project(tmp_path / "project", families)
    rendered = modules_after(["render", "deformable_detr_h200_torch"], project)
    checked = modules_after(["check"], project)
    assert "studygen.render.github_table" in rendered and "studygen.render.github_table" in checked  # tables made
    assert "tabulate" not in rendered and "tabulate" not in checked


def test_render_and_check_measure_cells_without_wcwidth(tmp_path):
    """Every cell of the shipped READMEs is printable ASCII or dashes, signs and ellipses of one column
    (studygen.terminal_width), measured by its length: wcwidth (about 6 ms to import) is left to a cell
    only it can measure, and mdformat-gfm's tables module, which imports it, to a table our renderer hands
    back. Failed before: building the formatter imported mdformat_gfm._tables_plugin, and with it wcwidth."""
    families = [path.parent.name for path in (REPO / "families").glob("*/study.yaml")]
    project = copy_project(tmp_path / "project", families)
    for argv in (["render", "deformable_detr_h200_torch"], ["check"]):
        loaded = modules_after(argv, project)
        assert "studygen.markdown_tables" in loaded and "mdformat" in loaded  # it did format Markdown
        assert not loaded & {"wcwidth", "mdformat_gfm._tables_plugin"}, argv


def test_the_console_leaves_what_is_alive_at_exit_out_of_the_collectors_reach(tmp_path):
    """console.main freezes the objects still alive before it exits: the
    interpreter's teardown then frees them without first walking all of them
    in its last collections (about 20 ms of a check of the shipped project).
    That teardown runs where Python's own exit is kept (``console.leave``:
    another thread alive, here one that lasts until the main thread stops).
    An atexit callback registered first runs last, after main's exit."""
    probe = ("import atexit, gc, threading, time\n"
             "atexit.register(lambda: print('frozen at exit:', gc.get_freeze_count()))\n"
             "def wait():\n"
             "    while threading.main_thread().is_alive():\n"
             "        time.sleep(0.01)\n"
             "threading.Thread(target=wait).start()\n"
             "from studygen.console import main\n"
             "print('frozen before:', gc.get_freeze_count())\n"
             "main(['--help'])\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(REPO)),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "frozen before: 0"
    frozen = int(lines[-1].removeprefix("frozen at exit: "))
    assert frozen > 1000  # click's and studygen's modules, functions and classes at least



def test_render_leaves_out_the_collectors_source_rules(tmp_path):
    """Loading a record migrates it, and the migration names one result field (``source_sha256``); the
    collectors' rules of sources and results, which only collect uses, stay out of a render.
    Failed before: the migration took the field's name from records.sources, which imports records.result."""
    project = copy_project(tmp_path / "project", families=("deformable_detr_h200_torch",))
    loaded = modules_after(["render", "deformable_detr_h200_torch"], project)
    assert "studygen.records.migrate" in loaded and "studygen.render.engine" in loaded
    assert not sorted(loaded & {"studygen.records.sources", "studygen.records.result"})
