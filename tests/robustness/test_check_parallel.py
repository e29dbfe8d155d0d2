"""check gives the same findings, in the same order, whether its studies run
in one process or in several (STUDYGEN_JOBS; large projects go parallel)."""

from __future__ import annotations

import json

import pytest

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


@pytest.mark.parametrize("value", ["0", "00", "-1", "+2", "two", "\u00b2", "\u0663", " 3", "3 ", "3.0", "1e3", "0x2"])
def test_a_studygen_jobs_value_other_than_a_number_from_1_is_a_usage_error(tmp_path, monkeypatch, run_cli, value):
    """One line naming the variable, its value and what it takes, exit 2, and
    no study checked. Failed before: a superscript two (or an Arabic-Indic
    three) passed str.isdigit and crashed int() (an internal error); 0 and
    -1 were taken as unset."""
    root = _project(tmp_path)
    monkeypatch.setattr(check, "check_study", lambda *_: pytest.fail("a study was checked"))
    monkeypatch.setenv("STUDYGEN_JOBS", value)
    done = run_cli("check", "--root", root)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: STUDYGEN_JOBS={value!r}: expected the number of processes to check the studies "
                        "in, a whole number of 1 or more written in the digits 0-9 (1: all in this process), or the "
                        "variable unset or empty (check chooses)\n")


def test_a_long_or_undecodable_studygen_jobs_value_is_shown_short_and_readable(tmp_path, monkeypatch, run_cli):
    """Failed before: a 100,000-character value was printed whole in the error line, and a byte that is no
    UTF-8 (0xff, kept by os.environ as a lone surrogate) was shown as '\\udcff'."""
    root = _project(tmp_path)
    monkeypatch.setattr(check, "check_study", lambda *_: pytest.fail("a study was checked"))
    for value, shown in (("ab" + "7" * 99996 + "yz", "'ab777777777777777777'...(99960 more characters)...'777777777777777777yz'"),
                         ("3\udcff", "'3\\xff'"), ("x" * 40, repr("x" * 40)), ("4\n", "'4\\n'")):
        monkeypatch.setenv("STUDYGEN_JOBS", value)
        done = run_cli("check", "--root", root)
        assert (done.exit_code, done.out) == (2, "")
        assert done.err.startswith(f"studygen: STUDYGEN_JOBS={shown}: expected the number of processes"), done.err[:200]
        assert done.err.count("\n") == 1 and len(done.err) < 400


def test_the_studygen_jobs_values_taken(tmp_path, monkeypatch):
    dirs = [tmp_path / "families" / name for name in ("a", "b", "c")]
    monkeypatch.setattr(check, "start_method", lambda: "fork")
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for value, count in (("", 2), ("1", 1), ("2", 2), ("02", 2), ("3", 3), ("9", 3), ("9" * 5000, 3)):
        monkeypatch.setenv("STUDYGEN_JOBS", value)  # empty: as if unset, one per core
        assert (value[:5], check.worker_count(tmp_path, dirs)) == (value[:5], count)
    monkeypatch.setenv("STUDYGEN_JOBS", "9" * 5000)  # more digits than int() reads: no fewer processes asked
    assert check.jobs_asked() == check.MOST_JOBS
    # the number as written, zeros in it kept; from as many digits as MOST_JOBS has on, MOST_JOBS
    for value, asked in (("10", 10), ("0100", 100), ("999999999", 999999999), ("9999999999", check.MOST_JOBS)):
        monkeypatch.setenv("STUDYGEN_JOBS", value)
        assert (value, check.jobs_asked()) == (value, asked)


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


def test_a_study_s_size_is_its_readme_and_records(tmp_path):
    """Bytes of the README and the records (a directory named like a record
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
    assert check.study_sizes(root, dirs) == [310, 450, 0, 300, 5, 5]
    assert check.study_sizes(root, list(reversed(dirs))) == [5, 5, 300, 0, 450, 310]


def test_a_large_study_s_records_are_sized_by_a_sample(tmp_path):
    """Past SIZED_RECORDS records a folder's bytes are an evenly spaced sample's mean times the count: exact
    for records of one size (200 of 30 bytes: 6,000), near for two sizes taken in turn (the sample sees both)."""
    for name, sizes in (("even", [30] * 200), ("mixed", [20, 40] * 100)):
        folder = tmp_path / "measurements" / name
        folder.mkdir(parents=True)
        for index, size in enumerate(sizes):
            (folder / f"job-{index:03d}.json").write_text("x" * size, encoding="utf-8")
        (tmp_path / "families" / name).mkdir(parents=True)
    even, mixed = check.study_sizes(tmp_path, [tmp_path / "families" / "even", tmp_path / "families" / "mixed"])
    assert check.SIZED_RECORDS == 64 and even == 6000
    assert 20 * 200 < mixed < 40 * 200  # neither all small nor all large, whatever order the folder lists them in


def test_studies_are_dealt_largest_first_to_the_share_holding_least():
    from studygen.commands.forked_shares import split_by_size

    # the shipped project's sizes, roughly: the H200 study alone against the four others
    assert split_by_size([30, 81, 1463, 82, 151], 2) == [[2], [4, 3, 1, 0]]
    assert split_by_size([5, 5, 5], 2) == [[0, 2], [1]]  # ties: the earlier study, the earlier share
    assert split_by_size([10, 7, 6, 5, 4], 2) == [[0, 3], [1, 2, 4]]  # 10+5 against 7+6+4
    assert split_by_size([1, 2], 3) == [[1], [0], []]


def test_the_error_raised_is_the_first_failing_study_s_in_study_order(tmp_path, monkeypatch, run_cli):
    """Two studies fail: the error named is the one a single process meets
    first, whichever process checked which study (failed before: the pool's
    order, largest first, decided)."""
    root = make_tiny_project(tmp_path / "p", family="tiny")
    make_tiny_project(root, family="tiny_b", records=[run_record("tiny_b", note="x" * 5000)])  # dealt first

    def failing(study_dir, project_root):
        raise RuntimeError(f"boom in {study_dir.name}")

    monkeypatch.setattr(check, "loaded_and_checked", failing)  # forked children inherit it
    seen = {}
    for jobs in ("1", "2"):
        monkeypatch.setenv("STUDYGEN_JOBS", jobs)
        result = run_cli("check", "--root", root)
        seen[jobs] = (result.exit_code, result.err)
    assert seen["1"][0] == 2 and seen["1"][1].startswith("studygen: internal error: RuntimeError: boom in tiny ")
    assert seen["2"] == seen["1"]


def test_the_pool_has_as_many_processes_as_worker_count_gives(tmp_path, monkeypatch):
    # spawned workers, STUDYGEN_JOBS=3 over four studies: three processes, not one per core (the executor's default)
    from concurrent.futures import ProcessPoolExecutor

    started = []

    class RecordedPool(ProcessPoolExecutor):
        def __init__(self, max_workers=None, **kwargs):
            started.append(max_workers)
            super().__init__(max_workers=max_workers, **kwargs)

    root = _project(tmp_path)
    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", RecordedPool)  # check imports it lazily
    monkeypatch.setattr(check, "start_method", lambda: "spawn")  # the pool starts only spawned workers
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


def _session_processes(session: int) -> list[str]:
    import subprocess

    return subprocess.run(["pgrep", "-s", str(session)], capture_output=True, text=True).stdout.split()


# python -m studygen check as runpy runs it, after a finder that writes one byte on fd WRITE when studygen's
# __main__ imports studygen.console: SIGINT is held back from that moment (__main__), so every moment the test
# picks falls in studygen's own code. Measured from the child's start instead, a slow machine's interpreter was
# still importing site at 0.12 s (CI: "Fatal Python error: init_import_site ... KeyboardInterrupt", exit 1),
# which no code of studygen can answer (see test_interrupt_while_importing.py).
STARTED_CHECK = """
import os, runpy, sys
class Started:
    def find_spec(self, name, path=None, target=None):
        if name == "studygen.console":
            sys.meta_path.remove(self)
            os.write({write}, b"s")
            os.close({write})
        return None
sys.meta_path.insert(0, Started())
sys.argv = ["-m", "check"]
runpy.run_module("studygen", run_name="__main__", alter_sys=True)
"""


def test_an_interrupt_or_a_killed_parent_leaves_no_worker_and_no_traceback(tmp_path):
    """SIGINT to the whole process group (Ctrl-C) at moments while the
    studies are being checked (measured from studygen's first import, see
    STARTED_CHECK): exit 130 and one line, or the check had ended
    (exit 0); never a traceback, never a process left. SIGKILL to the parent
    alone: its children stop by themselves. Failed before with a process
    pool: workers printed tracebacks, a worker that survived the interrupt
    hung the parent, and a killed parent's idle workers stayed forever."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.conftest import REPO

    project = copy_project(tmp_path / "project")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env.pop("STUDYGEN_JOBS", None)
    interrupted = 0
    for delay in (0.06, 0.12, 0.18, 0.24, 0.3):
        for sent in (signal.SIGINT, signal.SIGKILL):
            read, write = os.pipe()
            run = subprocess.Popen([sys.executable, "-c", STARTED_CHECK.format(write=write)], cwd=project, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                                   pass_fds=(write,))
            os.close(write)
            started = os.read(read, 1)
            os.close(read)
            assert started == b"s", (delay, run.communicate(timeout=120))
            time.sleep(delay)
            try:
                os.killpg(run.pid, signal.SIGINT) if sent == signal.SIGINT else os.kill(run.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            _, err = run.communicate(timeout=120)
            if sent == signal.SIGINT:
                assert run.returncode in (0, 130, -signal.SIGINT), (delay, run.returncode, err)
                interrupted += run.returncode != 0
                assert err.strip() in ("", "studygen: interrupted"), (delay, err)
            for _ in range(100):  # a child ends once its current study is done (well under a second)
                if not _session_processes(run.pid):
                    break
                time.sleep(0.05)
            assert not _session_processes(run.pid), (delay, sent)
    assert interrupted  # some moment fell inside the check (the whole check takes about 0.35 s after that import)


def test_a_study_whose_worker_dies_is_one_finding_and_the_others_findings_stand(tmp_path, monkeypatch, run_cli):
    """The forked worker is killed in the first study it checks: that study is one SG202 error naming the
    signal, every other study's findings are those one process gives, exit 1 (failed before: one line,
    "internal error: RuntimeError: a worker process ended by signal SIGKILL before checking ...", exit 2,
    every finding lost; found by an attack)."""
    import os
    import signal

    root = make_tiny_project(tmp_path / "p", family="tiny")
    for family in ("tiny_b", "tiny_c", "tiny_d"):
        make_tiny_project(root, family=family)
    here, real = os.getpid(), check.loaded_and_checked

    def dies_in_a_child(study_dir, project_root):
        if os.getpid() != here:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(study_dir, project_root)

    monkeypatch.setattr(check, "loaded_and_checked", dies_in_a_child)  # forked children inherit it
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    alone = run_cli("check", "--root", root, "--format", "json")
    monkeypatch.setenv("STUDYGEN_JOBS", "2")
    monkeypatch.setattr(check, "start_method", lambda: "fork")
    split = run_cli("check", "--root", root, "--format", "json")
    assert split.exit_code == 1 and split.err == ""
    found, expected = json.loads(split.out), json.loads(alone.out)
    lost = [f for f in found if f["message"].startswith("not checked:")]
    assert len(lost) == 1 and lost[0]["code"] == "SG202" and lost[0]["severity"] == "error"
    assert lost[0]["message"] == "not checked: the worker process checking it ended by signal SIGKILL"
    family = lost[0]["file"].removeprefix("families/")
    assert family in ("tiny", "tiny_b", "tiny_c", "tiny_d")
    assert [f for f in found if f is not lost[0]] == [f for f in expected if not f["file"].endswith(f"/{family}/README.md")
                                                      and f"/{family}/" not in f["file"] and f["file"] != f"families/{family}"]
