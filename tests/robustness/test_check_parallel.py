"""check gives the same findings, in the same order, whether its studies run
in one process or in several (STUDYGEN_JOBS; large projects go parallel)."""

from __future__ import annotations

import json

from studygen.commands import check
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
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(check, "start_method", lambda: "fork")
    assert worker_count(root, dirs[:1]) == 1  # one study: no extra process
    assert worker_count(root, dirs[:2]) == 2  # forked workers: one per study, at most one per core
    assert worker_count(root, dirs) == 4
    monkeypatch.setattr(check, "start_method", lambda: "spawn")
    assert worker_count(root, dirs) == 1  # spawned workers import studygen again: a handful of records stays here
    for i in range(PARALLEL_MIN_RECORDS):
        (root / "measurements" / "tiny" / f"r{i}.json").write_text("{}", encoding="utf-8")
    assert worker_count(root, dirs) == 4
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0}, raising=False)
    assert worker_count(root, dirs) == 1  # one core
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    assert worker_count(root, dirs) == 1
    monkeypatch.setenv("STUDYGEN_JOBS", "3")
    assert worker_count(root, dirs) == 3  # asked for: more than the cores is allowed, not more than the studies
    monkeypatch.setenv("STUDYGEN_JOBS", "9")
    assert worker_count(root, dirs) == len(dirs)


def test_spawned_workers_wait_for_enough_records_in_all(tmp_path, monkeypatch):
    """Where workers would be spawned, the studies go parallel from
    PARALLEL_MIN_RECORDS run records in all, counted over every study's
    records folder (a study without one counts none)."""
    monkeypatch.delenv("STUDYGEN_JOBS", raising=False)
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(check, "start_method", lambda: "spawn")
    dirs = [tmp_path / "families" / name for name in ("a", "b", "c")]
    half = PARALLEL_MIN_RECORDS // 2
    for name, count in (("a", half), ("b", PARALLEL_MIN_RECORDS - 1 - half)):
        folder = tmp_path / "measurements" / name
        folder.mkdir(parents=True)
        for index in range(count):
            (folder / f"r{index}.json").write_text("{}", encoding="utf-8")
    assert worker_count(tmp_path, dirs) == 1  # one record short, spread over two studies
    (tmp_path / "measurements" / "b" / "last.json").write_text("{}", encoding="utf-8")
    assert worker_count(tmp_path, dirs) == 2


def test_the_cores_where_the_affinity_is_not_known(tmp_path, monkeypatch):
    import os

    monkeypatch.delenv("STUDYGEN_JOBS", raising=False)
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(check, "start_method", lambda: "fork")
    dirs = [tmp_path / "families" / name for name in ("a", "b", "c")]
    monkeypatch.setattr(os, "cpu_count", lambda: None)  # not known: one
    assert worker_count(tmp_path, dirs) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert worker_count(tmp_path, dirs) == 2


def test_workers_fork_on_linux_only(monkeypatch):
    import sys

    monkeypatch.setattr(sys, "platform", "linux")
    assert check.start_method() == "fork"
    for platform in ("darwin", "win32", "freebsd14"):
        monkeypatch.setattr(sys, "platform", platform)
        assert check.start_method() == "spawn"


def test_the_largest_study_is_handed_out_first(tmp_path):
    """Order of the studies given to the workers: most bytes of README and
    records first, ties in the order given (a directory named like a record
    and files that are neither are not counted; a study with no README or
    no records folder counts what it has)."""
    root = tmp_path
    sizes = {"a": (290, [10, 10]), "b": (50, [400]), "c": (0, []), "d": (300, []), "f": (5, []), "e": (0, [5])}
    dirs = []
    for name, (readme, records) in sizes.items():
        study_dir = root / "families" / name
        study_dir.mkdir(parents=True)
        dirs.append(study_dir)
        if readme:
            (study_dir / "README.md").write_text("x" * readme, encoding="utf-8")
        (study_dir / "notes.md").write_text("x" * 1000, encoding="utf-8")  # not the README: not counted
        if records:
            folder = root / "measurements" / name
            (folder / "datasets.json").mkdir(parents=True)  # a folder, however named, holds no bytes to read here
            for index, size in enumerate(records):
                (folder / f"job-{index}.json").write_text("x" * size, encoding="utf-8")
            (folder / "log.txt").write_text("x" * 5000, encoding="utf-8")  # no record
    # b: 50 + 400; a: 290 + 20; d: 300; f: 5 (README); e: 5 (a record); c: nothing
    assert check.largest_first(root, dirs) == [1, 0, 3, 4, 5, 2]
    assert check.largest_first(root, list(reversed(dirs))) == [4, 5, 2, 0, 1, 3]


def test_the_pool_has_as_many_processes_as_worker_count_gives(tmp_path, monkeypatch):
    # STUDYGEN_JOBS=3 over four studies: three processes, not one per core (the executor's default)
    from concurrent.futures import ProcessPoolExecutor

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
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    assert check.run_check(check.CheckOptions(root=root)) == findings
    assert started == [3]  # one process: no pool started


def test_a_checked_study_is_let_go_before_the_garbage_collector_resumes(tmp_path, monkeypatch):
    """check_study drops the study while collection is still paused: its
    objects are freed by reference counts then, instead of being walked by
    the first collection after the pause (which had walked every record)."""
    import gc
    import weakref

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
