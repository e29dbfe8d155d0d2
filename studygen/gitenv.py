"""The environment studygen runs git in, so that a repository's own files
decide what git reads and never what it runs.

git is run on repositories studygen does not own (a study checkout, a
folder unpacked from an archive, the checkout studygen itself lies in), and
a repository's config can name programs that read-only commands start:
``core.fsmonitor`` (run by ``git status`` and anything that refreshes the
index), filter drivers' ``clean``/``process`` commands (run by ``git status``
to compare a file whose timestamps changed) and hooks (``post-index-change``,
run when a refreshed index is written back). The environment built here
turns each off:

- git's own variables (``GIT_DIR``, ``GIT_WORK_TREE``, ``GIT_INDEX_FILE``,
  ``GIT_CONFIG_PARAMETERS`` …) are left out, so git reads the repository the
  folder lies in, with the config it holds;
- ``core.fsmonitor=false``, given as command-line config
  (``GIT_CONFIG_COUNT``, git 2.31), which outranks every config file;
- the filter drivers the repository's own config files define (scopes
  ``local`` and ``worktree``; system and user config are the user's own, as
  git-lfs's usually is) get empty commands and ``required=false``, so git
  compares the file's bytes as they are;
- ``GIT_OPTIONAL_LOCKS=0``: the index is not written back (git's
  ``status`` then neither changes the repository nor runs that hook);
- ``GIT_TERMINAL_PROMPT=0``: git never waits for a password.

A submodule's config lies in the superproject's ``.git/modules/<name>/config``
and is read by the git that ``git status`` starts inside the submodule, where
none of the settings above reach its filter drivers. ``status`` is therefore
run with :data:`STATUS_SUBMODULES` (``--ignore-submodules=dirty``): a
submodule counts as changed when its checked-out commit differs from the
recorded one, read from its HEAD without a git started inside it, and its
work-tree files are not compared (a changed file inside a submodule does not
show in the status; ``collect env`` then records the dirty state as unknown).

Every git command studygen runs has such an environment and goes through
:func:`run_git`: collect's commit and dirty flag (:mod:`studygen.collect.env`),
studygen's own version (:mod:`studygen.version`) and ``studygen diff``'s
reads of revisions (:mod:`studygen.commands.revisions`); both of the last
find the work tree a folder lies in with :func:`work_tree_place`, except the one
``git cat-file --batch`` that diff streams blobs from, which it starts itself
and kills after its timeout.

Source: git-config(1) (``core.fsmonitor``, ``filter.<driver>.*``, the
``GIT_CONFIG_COUNT`` variables, ``--show-scope``, ``core.quotePath``), git(1)
(``GIT_OPTIONAL_LOCKS``), githooks(5) (``post-index-change``).
"""

from __future__ import annotations

import locale
import os
import signal
import subprocess
from pathlib import Path

# git variables that are the caller's to keep: they narrow what git reads, never redirect it
KEPT_VARIABLES = ("GIT_CONFIG_NOSYSTEM", "GIT_CEILING_DIRECTORIES")
# config scopes written by whoever made the repository (the rest are the user's and the machine's)
REPOSITORY_SCOPES = ("local", "worktree")
# How long a git command may take before it counts as hung. These guard against a git that never answers (a
# lock or a file system that hangs); a healthy repository answers each in well under a second, so none is a
# speed limit. QUICK: commands that read refs, config or the index entries of one folder (rev-parse, config,
# the status of studygen's own package folder): milliseconds on any repository. STATUS: ``git status`` of a
# whole work tree, which stats every tracked file and, after a fresh copy or unpack, reads each one again (a
# large study repository on a cold disk takes seconds). diff waits longer for its walks of whole trees and
# histories (studygen.commands.revisions.GIT_TIMEOUT_S): a person is waiting for that answer, and without it
# there is nothing to show, where collect and the version only lose a commit or a dirty flag on a timeout.
QUICK_TIMEOUT_S = 10
STATUS_TIMEOUT_S = 30
# Every ``git status`` studygen runs takes this (see the module docstring): no git runs inside a submodule.
STATUS_SUBMODULES = "--ignore-submodules=dirty"


def git_environment(repository: Path | None = None) -> dict[str, str]:
    """This process's environment made safe for git (see the module
    docstring). With ``repository`` (a folder inside a work tree), the filter
    drivers its config defines are turned off too, which takes one
    ``git config`` run there; commands that never compare work-tree files
    (``rev-parse``, ``ls-tree``, ``cat-file``) need none.

    Raises OSError when git cannot be started or cannot list the filter
    drivers (a git older than 2.26 has no ``--show-scope``: rather no git
    command than one that may run a planted filter), and subprocess.TimeoutExpired
    when ``git config`` takes over :data:`QUICK_TIMEOUT_S` seconds."""
    environment = {name: value for name, value in os.environ.items()
                   if not name.startswith("GIT_") or name in KEPT_VARIABLES}
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["GIT_OPTIONAL_LOCKS"] = "0"
    settings = [("core.fsmonitor", "false")]
    if repository is not None:
        settings += _filters_off(repository, environment)
    environment["GIT_CONFIG_COUNT"] = str(len(settings))
    for index, (key, value) in enumerate(settings):
        environment[f"GIT_CONFIG_KEY_{index}"] = key
        environment[f"GIT_CONFIG_VALUE_{index}"] = value
    return environment


def _filters_off(repository: Path, environment: dict[str, str]) -> list[tuple[str, str]]:
    """Config settings that empty every filter command the repository's own
    config files define (includes followed) and make the driver optional."""
    done = run_git(repository, "config", "--includes", "--show-scope", "--null", "--get-regexp",
                   r"^filter\..*\.(clean|smudge|process)$", environment=environment, timeout_s=QUICK_TIMEOUT_S)
    if done.returncode not in (0, 1):  # 1: no filter defined; anything else: the drivers are unknown, so fail closed
        reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[0]
        raise OSError(f"git config could not list the repository's filter drivers ({reason})")
    fields = done.stdout.split("\0")  # scope, key and value (a newline between them), scope, ...
    settings: list[tuple[str, str]] = []
    for scope, entry in zip(fields[0::2], fields[1::2]):
        key = entry.split("\n", 1)[0]
        if scope in REPOSITORY_SCOPES:
            driver = key[:key.rindex(".")]  # filter.<driver>
            settings += [(key, ""), (f"{driver}.required", "false")]
    return settings


def run_git(folder: Path, *args: str, environment: dict[str, str], timeout_s: float,
            text: bool = True) -> subprocess.CompletedProcess:
    """``git -C folder args...`` (a fixed argument list, no shell), its
    output captured, in ``environment``: :func:`git_environment` of
    ``folder`` for a command that compares work-tree files (``status``),
    ``git_environment()`` for one that reads only refs and objects.

    With ``text``, stdout is decoded as the file system names files
    (:func:`os.fsdecode`: undecodable bytes kept as surrogate escapes, so a
    path git prints becomes the same :class:`~pathlib.Path`) and
    stderr, words for a person, with undecodable bytes replaced: git prints
    a file name as the file system holds it wherever ``core.quotePath`` is
    false, and a name that is no UTF-8 (a Latin-1 ``café.json`` from an
    unpacked archive) made strict decoding raise. Line ends as git wrote them.

    Raises FileNotFoundError when git is not installed, another OSError when
    it cannot be started, subprocess.TimeoutExpired after ``timeout_s``
    seconds. git runs in a session of its own, killed whole on the timeout
    (:func:`kill_session`): killing git alone left a child it started (a
    wrapper script's, a hook's) running on as an orphan."""
    with subprocess.Popen(["git", "-C", str(folder), *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=environment, start_new_session=True) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            kill_session(process)
            process.communicate()
            raise
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    if text:
        done.stdout = os.fsdecode(done.stdout)
        done.stderr = done.stderr.decode(locale.getpreferredencoding(False), "replace")  # as text=True decoded it
    return done


def kill_session(process: subprocess.Popen) -> None:
    """Kill ``process`` and every process in its session (it was started with
    ``start_new_session``); nothing when they are gone already."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def work_tree_place(folder: Path, timeout_s: float = QUICK_TIMEOUT_S) -> tuple[Path, str] | None:
    """``(top, prefix)`` of the git work tree holding ``folder``: its top
    folder as git prints it and ``folder``'s path below it (``pkg/``, empty at
    the top), read by one ``git rev-parse`` that compares no work-tree file;
    None outside a work tree (or inside a ``.git`` folder). Raises as
    :func:`run_git` does: FileNotFoundError without git, another OSError,
    subprocess.TimeoutExpired after ``timeout_s`` seconds."""
    done = run_git(folder, "rev-parse", "--show-toplevel", "--show-prefix", environment=git_environment(),
                   timeout_s=timeout_s)
    lines = done.stdout.split("\n") if done.returncode == 0 else []
    if not lines or not lines[0].strip():
        return None
    return Path(lines[0]), lines[1] if len(lines) > 1 else ""
