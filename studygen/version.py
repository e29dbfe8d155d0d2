"""Which studygen this is: the package version, with the commit it came
from, so that a version means one code.

The package version (``studygen.__version__``) changes only with a release,
and a study repository pins studygen by commit (pre-commit's ``rev:``, a
``pip install "studygen @ git+URL@SHA"``), so the version alone would name
every commit alike. The commit is taken from, in order:

1. what pip recorded when it installed studygen from a repository
   (``direct_url.json``, PEP 610: ``vcs_info.commit_id``), for the installed
   copy this code runs from;
2. the git checkout the package lives in (``git rev-parse HEAD``, and
   ``git status`` for uncommitted changes), for a clone run in place or
   installed in editable mode.

It is written as a PEP 440 local version: ``0.1.0+g0bec37b`` (``.dirty``
added for a checkout with changes); the version alone where neither says
(a copy installed from a folder, as pre-commit installs its hooks, which
write no record). Records name it as ``provenance.collector.version``.

Every collector (``collect run``, ``env``, ``trtexec``, ``torch-profile``,
``coco``) takes the version from :func:`collector_version`, through
:func:`studygen.collect.env.collector_block`. A ``collect run`` or ``collect
env`` record also names the project checkout's commit and dirty flag
(``provenance.repository_commit``, ``repository_dirty``); when studygen runs
from that same checkout the version is built from that one reading instead
of a second one of its own (which counted only tracked changes under the
package folder and could be taken at another moment), so the two cannot
say different things. An ingest reads the checkout once, by the same rule,
for the version alone. ``studygen --version`` (:func:`studygen_version`)
names the package's own checkout.
"""

from __future__ import annotations

import functools
import json
import subprocess
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from . import __version__
from .gitenv import QUICK_TIMEOUT_S, STATUS_SUBMODULES, git_environment, run_git, work_tree_place

PACKAGE_DIR = Path(__file__).resolve().parent
SHORT = 7  # hex digits of a commit shown, as git's short form


def local_version(version: str, commit: str | None, dirty: bool = False) -> str:
    """``version`` with ``commit`` as a PEP 440 local label (``0.1.0+g0bec37b``,
    ``.dirty`` after it for uncommitted changes); ``version`` alone without one."""
    if not commit:
        return version
    return f"{version}+g{commit[:SHORT].lower()}" + (".dirty" if dirty else "")


def recorded_commit(direct_url: str | None) -> str | None:
    """The commit a ``direct_url.json`` (PEP 610) records for an install
    from a version-control URL, or None (no file, another kind of install,
    or a file that is no such JSON object)."""
    if not direct_url:
        return None
    try:
        document = json.loads(direct_url)
    except ValueError:
        return None
    vcs = document.get("vcs_info") if isinstance(document, dict) else None
    commit = vcs.get("commit_id") if isinstance(vcs, dict) else None
    return commit if isinstance(commit, str) and commit else None


def installed_commit(distribution, package_dir: Path = PACKAGE_DIR) -> str | None:
    """The commit pip recorded for ``distribution`` (an importlib.metadata
    distribution of studygen) when its files are the package in
    ``package_dir``, else None (a checkout on the path, another copy
    installed, an install from a folder or an archive)."""
    located = distribution.locate_file("studygen/__init__.py")
    if Path(str(located)).resolve().parent != package_dir.resolve():
        return None
    return recorded_commit(distribution.read_text("direct_url.json"))


def checkout_commit(folder: Path = PACKAGE_DIR) -> tuple[str | None, bool]:
    """``(HEAD commit, uncommitted changes under folder)`` of the git checkout
    holding ``folder``, ``(None, False)`` when it is none or git is missing."""
    try:
        environment = git_environment(folder)
    except (OSError, subprocess.SubprocessError):
        return None, False

    def git(*args: str) -> str | None:
        try:
            done = run_git(folder, *args, environment=environment, timeout_s=QUICK_TIMEOUT_S)
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout if done.returncode == 0 else None

    head = git("rev-parse", "HEAD")
    if not head or not head.strip():
        return None, False
    status = git("status", "--porcelain", "--untracked-files=no", STATUS_SUBMODULES, "--", ".")
    return head.strip(), bool(status and status.strip())


@functools.lru_cache(maxsize=1)
def studygen_version() -> str:
    """This studygen's version with its commit (see the module docstring)."""
    return package_version(PACKAGE_DIR)


def package_version(package_dir: Path) -> str:
    """The version of the studygen package in ``package_dir``: the commit pip
    recorded for it, else its checkout's HEAD and changes (module docstring)."""
    commit = _pip_commit(package_dir)
    if commit:
        return local_version(__version__, commit)
    commit, dirty = checkout_commit(package_dir)
    return local_version(__version__, commit, dirty)


def _pip_commit(package_dir: Path) -> str | None:
    try:
        return installed_commit(metadata.distribution("studygen"), package_dir)
    except metadata.PackageNotFoundError:
        return None


def collector_version(root: Path | None, read_checkout: Callable[[], tuple[str | None, bool | None]],
                      package_dir: Path | None = None) -> str:
    """studygen's version as every collector records it
    (``provenance.collector.version``) in a record of the project at ``root``
    (None: a record outside any project).

    The commit pip recorded for the package (``package_dir``, default this
    one) wins. Else, when the package is code of ``root``'s checkout
    (:func:`same_checkout`), the version is made from ``read_checkout()``,
    the collector's ``(commit, dirty)`` reading of that checkout: the one
    its record states (``collect run``'s and ``collect env``'s
    ``repository_commit`` and ``repository_dirty``, read once or stated with
    ``--commit``/``--dirty``), or one made for the version alone (an ingest,
    whose record's commit is that of the code that made its input); so a
    record and its collector's version never disagree. ``.dirty`` only when
    dirty is True (an unknown state adds nothing). Else the package's own
    checkout decides (:func:`checkout_commit`). ``read_checkout`` is called
    only in the second case; git is read at most once more."""
    package_dir = package_dir or PACKAGE_DIR
    commit = _pip_commit(package_dir)
    if commit:
        return local_version(__version__, commit)
    if root is not None and same_checkout(root, package_dir):
        commit, dirty = read_checkout()
        return local_version(__version__, commit, dirty is True)
    commit, dirty = checkout_commit(package_dir)
    return local_version(__version__, commit, dirty)


def checkout_toplevel(folder: Path) -> Path | None:
    """The top folder of the git work tree holding ``folder`` (resolved,
    :func:`studygen.gitenv.work_tree_place`); None outside one, or when git
    is missing or fails."""
    try:
        place = work_tree_place(folder)
    except (OSError, subprocess.SubprocessError):
        return None
    return place[0].resolve() if place else None


def same_checkout(root: Path, package_dir: Path) -> bool:
    """``package_dir`` is part of the checkout at ``root``: both lie in one git
    work tree, or, neither being in one (a copy without ``.git``, whose commit
    ``--commit`` states), ``package_dir`` lies under ``root``."""
    package_top, root_top = checkout_toplevel(package_dir), checkout_toplevel(root)
    if package_top is not None or root_top is not None:
        return package_top == root_top
    return Path(package_dir).resolve().is_relative_to(Path(root).resolve())
