"""git run on a repository studygen does not own starts none of the programs
its config names, and still answers what it is asked.

A repository's ``.git/config`` and hooks are files like any other: a folder
unpacked from an archive carries them. ``git status`` (run for the dirty flag
of ``collect env`` and of studygen's own version) starts ``core.fsmonitor``,
a filter driver's ``clean`` or ``process`` command for a file whose
timestamps changed, and the ``post-index-change`` hook when it writes the
refreshed index back.
"""

from __future__ import annotations

import os
import stat
import subprocess
import time

import pytest

from studygen.collect.env import git_state
from studygen.commands import revisions
from studygen.gitenv import QUICK_TIMEOUT_S, git_environment, run_git
from studygen.version import checkout_commit

IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org"}


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True,
                          env={**os.environ, **IDENTITY}).stdout


@pytest.fixture
def planted(tmp_path):
    """A committed repository whose config and hooks run a program that
    appends its name to ``ran.log`` (outside the repository): returns
    (repository, log)."""
    repo, log = tmp_path / "repo", tmp_path / "ran.log"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "pkg").mkdir()
    (repo / "pkg" / "weights.txt").write_text("measured on the bench\n")
    (repo / ".gitattributes").write_text("*.txt filter=tidy\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    program = tmp_path / "planted.sh"
    program.write_text(f'#!/bin/sh\necho "$PLANTED_AS" >> "{log}"\ncat\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    hook = repo / ".git" / "hooks" / "post-index-change"
    hook.write_text(f'#!/bin/sh\necho hook >> "{log}"\n')
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    git(repo, "config", "core.fsmonitor", f"PLANTED_AS=fsmonitor {program}")
    git(repo, "config", "filter.tidy.clean", f"PLANTED_AS=clean {program}")
    git(repo, "config", "filter.tidy.required", "true")
    git(repo, "config", "filter.spare.process", f"PLANTED_AS=process {program}")
    git(repo, "config", "filter.two words.clean", f"PLANTED_AS=spaced {program}")  # a driver named with a space
    (repo / "pkg" / "spare.txt").write_text("another\n")
    return repo, log


def touch_all(repo):
    """New timestamps on every tracked file: git must read them again to know they did not change."""
    for name in ("pkg/weights.txt", ".gitattributes"):
        os.utime(repo / name, (1_900_000_000, 1_900_000_000))


def test_plain_git_status_runs_what_the_planted_config_names(planted):
    # the case itself: without the environment, each program runs (so the tests below can fail)
    repo, log = planted
    touch_all(repo)
    subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], check=True, capture_output=True)
    assert set(log.read_text().split()) == {"fsmonitor", "clean", "hook"}


def test_version_and_collect_env_run_nothing_the_repository_names(planted):
    repo, log = planted
    head = git(repo, "rev-parse", "HEAD").strip()
    index = repo / ".git" / "index"
    index_before = index.stat().st_mtime_ns
    touch_all(repo)
    assert checkout_commit(repo / "pkg") == (head, False)  # timestamps alone are no change
    touch_all(repo)
    assert git_state(repo) == (head, False, None)  # nor is pkg/spare.txt, untracked
    assert not log.exists()
    assert index.stat().st_mtime_ns == index_before  # the repository is left as it was
    (repo / "pkg" / "weights.txt").write_text("changed\n")
    assert checkout_commit(repo / "pkg") == (head, True)
    assert not log.exists()


def test_only_the_repositorys_own_filters_are_turned_off(planted, tmp_path, monkeypatch):
    repo, _ = planted
    (tmp_path / ".gitconfig").write_text('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n')
    monkeypatch.setenv("HOME", str(tmp_path))  # the user's config: its filter driver is the user's own
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("GIT_INDEX_FILE", str(tmp_path / "elsewhere"))
    environment = git_environment(repo)
    settings = {environment[f"GIT_CONFIG_KEY_{i}"]: environment[f"GIT_CONFIG_VALUE_{i}"]
                for i in range(int(environment["GIT_CONFIG_COUNT"]))}
    assert settings == {"core.fsmonitor": "false", "filter.tidy.clean": "", "filter.tidy.required": "false",
                        "filter.spare.process": "", "filter.spare.required": "false",
                        "filter.two words.clean": "", "filter.two words.required": "false"}
    assert "GIT_INDEX_FILE" not in environment
    assert environment["GIT_OPTIONAL_LOCKS"] == "0" and environment["GIT_TERMINAL_PROMPT"] == "0"
    assert git_environment()["GIT_CONFIG_COUNT"] == "1"  # no repository: fsmonitor off, no git config run


def test_a_git_that_cannot_list_the_filter_drivers_runs_nothing(tmp_path, monkeypatch):
    # a git older than 2.26 refuses --show-scope (exit 129): the filters would stay on, so git_environment
    # refuses, and collect's environment says git was not run instead of running it
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\necho 'error: unknown option `show-scope'\"'\"'' >&2\nexit 129\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(OSError, match=r"could not list the repository's filter drivers \(error: unknown option"):
        git_environment(tmp_path)
    commit, dirty, problem = git_state(tmp_path)
    assert (commit, dirty) == (None, None) and problem.startswith("git not run: git config could not list")


@pytest.fixture
def latin1_named(tmp_path):
    """A committed repository, in a folder whose name is no UTF-8, holding a
    tracked file with such a name under pkg/, and git told to print names as
    they are (``core.quotePath`` false, as many set it to read accented names):
    returns (repository, tracked file)."""
    repo = tmp_path / os.fsdecode(b"caf\xe9-study")  # Latin-1, as an archive made on Windows unpacks
    (repo / "pkg").mkdir(parents=True)
    tracked = repo / "pkg" / os.fsdecode(b"r\xe9sum\xe9.txt")
    tracked.write_text("measured\n")
    git(repo, "init", "-q")
    git(repo, "config", "core.quotePath", "false")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "one")
    return repo, tracked


def test_names_that_are_no_utf8_are_read_not_refused(latin1_named):
    # git prints such names byte for byte; strict decoding made collect env (and collect run) fail with an
    # internal error instead of recording the commit and the dirty flag, and studygen's version likewise
    repo, tracked = latin1_named
    head = git(repo, "rev-parse", "HEAD").strip()
    assert git_state(repo) == (head, False, None)
    assert checkout_commit(repo / "pkg") == (head, False)
    (repo / os.fsdecode(b"new-\xe9.json")).write_text("{}\n")  # untracked, not ignored: still clean
    assert git_state(repo) == (head, False, None)
    tracked.write_text("changed\n")
    assert git_state(repo) == (head, True, None)
    assert checkout_commit(repo / "pkg") == (head, True)
    status = run_git(repo, "status", "--porcelain", environment=git_environment(repo), timeout_s=QUICK_TIMEOUT_S)
    assert status.stdout.splitlines() == [" M pkg/" + tracked.name, "?? " + os.fsdecode(b"new-\xe9.json")]


def test_diff_finds_a_repository_in_a_folder_whose_name_is_no_utf8(latin1_named):
    # rev-parse --show-toplevel prints the folder as the file system names it: it becomes the same path
    repo, _ = latin1_named
    assert revisions.repository_of(repo / "pkg") == revisions.Repository(repo, "pkg/", "sha1")


def test_a_git_error_naming_such_a_folder_reads_as_words(latin1_named):
    # git's message names the folder byte for byte: the byte it cannot decode is replaced, so the line prints
    repo, _ = latin1_named
    gone = repo.parent / os.fsdecode(b"gone-\xe9")
    done = run_git(gone, "rev-parse", "HEAD", environment=git_environment(), timeout_s=QUICK_TIMEOUT_S)
    assert done.returncode != 0
    first = done.stderr.splitlines()[0]
    assert first.startswith("fatal: ") and f"{repo.parent}/gone-\ufffd" in first  # "cannot change to '…'"


@pytest.fixture
def planted_submodule(tmp_path):
    """A committed superproject holding a submodule ``sub`` whose own config
    (``.git/modules/sub/config``, which the git started inside the submodule
    reads) names a filter driver that appends to ``ran.log``: returns
    (superproject, submodule folder, log)."""
    source, top, log = tmp_path / "source", tmp_path / "top", tmp_path / "ran.log"
    source.mkdir()
    git(source, "init", "-q")
    (source / "weights.txt").write_text("measured on the bench\n")
    (source / ".gitattributes").write_text("*.txt filter=tidy\n")
    git(source, "add", ".")
    git(source, "commit", "-q", "-m", "one")
    top.mkdir()
    git(top, "init", "-q")
    git(top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(source), "sub")
    git(top, "commit", "-q", "-m", "with a submodule")
    program = tmp_path / "planted.sh"
    program.write_text(f'#!/bin/sh\necho clean >> "{log}"\ncat\n')
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    git(top / "sub", "config", "filter.tidy.clean", str(program))  # lands in top/.git/modules/sub/config
    return top, top / "sub", log


def test_a_filter_planted_in_a_submodules_config_runs_in_neither_collect_env_nor_the_version(planted_submodule):
    top, sub, log = planted_submodule
    head = git(top, "rev-parse", "HEAD").strip()
    os.utime(sub / "weights.txt", (1_900_000_000, 1_900_000_000))
    subprocess.run(["git", "-C", str(top), "status", "--porcelain"], check=True, capture_output=True)
    assert log.read_text().split() == ["clean"]  # plain git status runs it, so the asserts below can fail
    log.unlink()
    os.utime(sub / "weights.txt", (1_900_000_100, 1_900_000_100))
    assert git_state(top) == (head, None, SUBMODULE_UNKNOWN)  # its files uncompared: never called clean
    os.utime(sub / "weights.txt", (1_900_000_200, 1_900_000_200))
    assert checkout_commit(top) == (head, False)
    assert not log.exists()


SUBMODULE_UNKNOWN = ("dirty state unknown: the files inside its submodules were not compared "
                     "(studygen runs no git inside a submodule)")


def test_a_changed_file_inside_a_submodule_leaves_the_dirty_flag_unknown_not_clean(planted_submodule):
    top, sub, log = planted_submodule
    head = git(top, "rev-parse", "HEAD").strip()
    (sub / "weights.txt").write_text("edited in the submodule\n")
    assert git_state(top) == (head, None, SUBMODULE_UNKNOWN)
    (top / "new.json").write_text("{}\n")  # untracked: no change, so still unknown
    assert git_state(top) == (head, None, SUBMODULE_UNKNOWN)
    git(top, "add", "new.json")  # staged outside the submodule: dirty whatever the submodule holds
    assert git_state(top) == (head, True, None)
    assert not log.exists()


def test_a_submodule_moved_to_another_commit_still_makes_the_superproject_dirty(planted_submodule):
    top, sub, log = planted_submodule
    head = git(top, "rev-parse", "HEAD").strip()
    git(sub, "commit", "-q", "--allow-empty", "-m", "moved")  # a plain git: may run the filter itself
    log.unlink(missing_ok=True)
    assert git_state(top) == (head, True, None)
    assert checkout_commit(top) == (head, True)
    assert not log.exists()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_hung_git_is_killed_with_the_processes_it_started(tmp_path, monkeypatch):
    # killing git alone at the timeout left a child it started (here a wrapper's) running, an orphan
    real_git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text("#!/bin/sh\ncase \" $* \" in *\" rev-parse \"*) sh -c 'echo $$ > \"$0.pid\"; exec sleep 30' \"$0\";; "
                       f"esac\nexec {real_git} \"$@\"\n")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(subprocess.TimeoutExpired):
        run_git(tmp_path, "rev-parse", "HEAD", environment=git_environment(), timeout_s=1)
    child = int(wrapper.with_name("git.pid").read_text())
    for _ in range(50):  # SIGKILL is delivered at once; the wait only lets init reap the orphan
        if not _alive(child):
            break
        time.sleep(0.1)
    assert not _alive(child)
    assert run_git(tmp_path, "--version", environment=git_environment(), timeout_s=QUICK_TIMEOUT_S).stdout.startswith(
        "git version")
