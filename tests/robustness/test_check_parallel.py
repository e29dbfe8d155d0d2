"""check gives the same findings, in the same order, whether its studies run
in one process or in several (STUDYGEN_JOBS; large projects go parallel)."""

from __future__ import annotations

import json

from studygen.commands.check import PARALLEL_MIN_RECORDS, worker_count
from tests.conftest import copy_project
from tests.robustness.tiny import make_tiny_project, run_record


def _project(tmp_path):
    root = copy_project(tmp_path / "project")
    make_tiny_project(root, family="tiny")
    make_tiny_project(root, family="tiny_b", records=[run_record("tiny_b", note="a | b")])
    broken = root / "families" / "tiny_c"
    broken.mkdir()
    (broken / "study.yaml").write_text("schema_version: 1\nfamily: [not, a, name]\n", encoding="utf-8")
    return root


def test_parallel_check_equals_serial_check(tmp_path, run_cli, monkeypatch):
    root = _project(tmp_path)
    assert run_cli("render", "tiny", "tiny_b", "deformable_detr", "--root", root).exit_code == 0
    (root / "families" / "tiny" / "README.md").write_text("hand edit\n", encoding="utf-8")  # an SG201 too
    outputs = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("STUDYGEN_JOBS", jobs)
        result = run_cli("check", "--root", root, "--format", "json")
        assert result.exit_code == 1 and result.err == ""
        outputs[jobs] = result.out
    assert outputs["1"] == outputs["2"]
    codes = {f["code"] for f in json.loads(outputs["2"])}
    assert {"SG201", "SG202"} <= codes
    assert any(f["file"] == "families/tiny_c/study.yaml" for f in json.loads(outputs["2"]))


def test_worker_count(tmp_path, monkeypatch):
    root = _project(tmp_path)
    dirs = sorted(p for p in (root / "families").iterdir())
    monkeypatch.delenv("STUDYGEN_JOBS", raising=False)
    assert worker_count(root, dirs[:1]) == 1
    assert worker_count(root, dirs) == 1  # a handful of records: one process
    for i in range(PARALLEL_MIN_RECORDS):
        (root / "measurements" / "tiny" / f"r{i}.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert worker_count(root, dirs) == 2
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    assert worker_count(root, dirs) == 1


def test_the_pool_has_as_many_processes_as_worker_count_gives(tmp_path, monkeypatch):
    # STUDYGEN_JOBS=3 over four studies: three processes, not one per core (the executor's default)
    from concurrent.futures import ProcessPoolExecutor

    from studygen.commands import check

    started = []

    class RecordedPool(ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    root = _project(tmp_path)
    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", RecordedPool)  # check imports it lazily
    monkeypatch.setenv("STUDYGEN_JOBS", "3")
    findings = check.run_check(check.CheckOptions(root=root))
    assert started == [3]
    assert any(f.file == "families/tiny_c/study.yaml" for f in findings)


def test_the_parent_does_before_forking_what_every_worker_would_do_first():
    """warm_before_fork leaves in the parent what forked workers inherit
    instead of each doing it on its first study: PyYAML with the study-file
    loaders, Jinja's sandbox, mdformat with its GFM plugin (its first text
    formatted), the compiled run-record check, every registered check module
    (failed before for the check modules: each worker imported them on its first study)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = str(Path(__file__).resolve().parents[2])  # this checkout's studygen, whatever is installed
    script = (
        "import sys\n"
        "import studygen.commands.check as check\n"
        "from studygen.records import load, schemas\n"
        "assert 'multiprocessing' not in sys.modules and 'concurrent.futures' not in sys.modules\n"
        "wanted = ('yaml', 'jinja2.sandbox', 'mdformat', 'mdformat_gfm', 'studygen.checks.readme_markdown',"
        " 'studygen.lint', 'studygen.checks.sg211_literal_figures', 'studygen.checks.sg221_same_run')\n"
        "assert not [m for m in wanted if m in sys.modules], [m for m in wanted if m in sys.modules]\n"
        "check.warm_before_fork()\n"
        "assert all(m in sys.modules for m in wanted), [m for m in wanted if m not in sys.modules]\n"
        "assert 'python' in load._LOADERS\n"
        "assert schemas.fast_run_check.cache_info().currsize == 1\n"
    )
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr


def test_a_checked_study_is_let_go_before_the_garbage_collector_resumes(tmp_path, monkeypatch):
    """check_study drops the study while collection is still paused: its
    objects are freed by reference counts then, instead of being walked by
    the first collection after the pause (which had walked every record)."""
    import gc
    import weakref

    from studygen.commands import check

    root = _project(tmp_path)
    freed_while_paused = []
    load = check.load_study

    def watched(study_dir, project_root):
        study = load(study_dir, project_root)
        weakref.finalize(study, lambda: freed_while_paused.append(not gc.isenabled()))
        return study

    pauses = []
    paused = check.collector_paused

    def counted():
        pauses.append(gc.isenabled())  # whether collection was on when this pause began
        return paused()

    monkeypatch.setattr(check, "load_study", watched)
    monkeypatch.setattr(check, "collector_paused", counted)
    assert gc.isenabled()
    findings = check.check_study(root / "families" / "tiny", root)
    assert freed_while_paused == [True] and gc.isenabled()
    assert pauses == [True]  # paused once, not again inside the pause
    assert all(f.code != "SG202" for f in findings)
