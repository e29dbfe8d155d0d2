"""A project as it is at a git revision, read through git without touching
the repository: no checkout, no change to its working tree, index or refs.

``studygen diff`` compares two such trees (or one and the working tree). git
is run as a subprocess with a fixed argument list, never through a shell, with
``--end-of-options`` before every revision it is given (a revision that
starts with ``-`` cannot become an option), and only these read-only
commands: ``rev-parse`` (top level, prefix, object format, shallow or not,
revisions), ``symbolic-ref`` (the default branch), ``merge-base``,
``ls-tree -r -z --full-tree`` (the files under a folder at a commit, with
their blob ids) and ``cat-file --batch`` (their contents, one blob at a time,
so memory stays bounded by :data:`CHUNK_BYTES` whatever a file's size).

A tree is the files under the project's study folders (:data:`STUDY_FOLDERS`
and the record folders study files name elsewhere), each with its git blob id
(the sha1, or sha256 in a sha256 repository, of ``blob <size>\\0<content>``;
computed here for working-tree files), so two trees can be compared without
reading either. :func:`materialize` writes chosen files of a revision into a
private temporary folder outside the repository, where the study loaders read
them exactly as ``check`` reads a working tree. A symbolic link of the
revision is read from the revision's objects (its blob is the path it
holds) and followed through the revision's own links and folders
(:func:`link_target`), never through the disk; it is written as a copy of
the file it names there, or left out when it names none (a path outside the
project's study files, an absolute one, a folder, a loop): no link is
written, so nothing a loader reads there lies outside the copy. Case
(attack): links were written as links when the disk said they stayed
inside; ``measurements/toy/evil.json -> x/../../../secret.json``, placed
before ``x -> ../..``, looked inside while ``x`` was not there yet, and read
through both, it was a record outside the repository, whose figures the
diff reported as the revision's. What it writes is bounded
before a byte is written, from the size ``cat-file`` gives in each object's
header: one file no larger than its reader reads (:func:`reader_limit`),
one revision's files no more than :data:`MAX_REVISION_BYTES` in all. Case
(attack round): a commit of about 3 MiB packed, four files of 300 MB of
zeros, made diff write 1386 MB under TMPDIR before any loader refused them.

Errors (exit 2, one line): no git, a path outside a git repository, an unknown
revision, a repository without a commit, and a shallow clone where the merge
base with the default branch cannot be found.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import InputError, UsageError
from ..gitenv import git_environment, kill_session, run_git, work_tree_place
from ..textio import MAX_DOCUMENT_BYTES, MAX_RENDERED_BYTES, read_bytes

# Folders of a project root that hold what a study is made of.
STUDY_FOLDERS = ("families", "measurements", "templates")
# The default branch, in the order looked for when BASE is not given.
DEFAULT_BRANCHES = ("refs/heads/main", "refs/heads/master", "refs/remotes/origin/main", "refs/remotes/origin/master")
# How long diff waits for one git command: it walks whole trees and histories (ls-tree -r, merge-base,
# cat-file of every study file), and a person waits for the answer it has no other way to give
# (the shorter waits of collect and the version: studygen.gitenv.QUICK_TIMEOUT_S).
GIT_TIMEOUT_S = 300
CHUNK_BYTES = 1 << 20  # a blob is copied to disk this many bytes at a time
_MODES = {"100644": "file", "100755": "file", "120000": "link"}  # ls-tree modes written out; others (submodules) are not
_GITLINK = "160000"  # a submodule's mode
# The most one revision's files take in diff's temporary folder: 16 READMEs or figures at their limit, or 64 records at
# theirs. check keeps every record of a study in memory, several times its bytes on disk, so a project past this is
# past what check and diff can load.
MAX_REVISION_BYTES = 16 * MAX_RENDERED_BYTES


def reader_limit(path: str) -> int:
    """The most bytes studygen reads of the file at ``path`` (relative to the
    project root): a family's README and figures, render's outputs read back
    by check, :data:`~studygen.textio.MAX_RENDERED_BYTES`; study files,
    records, dataset definitions and templates
    :data:`~studygen.textio.MAX_DOCUMENT_BYTES`; any other file (a log kept
    beside the records) is read by no loader, and gets the larger limit."""
    parts = PurePosixPath(path).parts
    if parts[:1] == ("families",) and (parts[2:] == ("README.md",) or parts[2:3] == ("figures",)):
        return MAX_RENDERED_BYTES
    if parts[:1] == ("templates",) or path.endswith((".json", ".yaml", ".yml")):
        return MAX_DOCUMENT_BYTES
    return MAX_RENDERED_BYTES


@dataclass
class WriteBudget:
    """Bytes of one revision written to disk so far (``written``), and the most it may write (``limit``)."""

    limit: int = MAX_REVISION_BYTES
    written: int = 0

    def take(self, size: int, path: str, label: str) -> None:
        """Count ``size`` more bytes, for ``path`` at revision ``label``; InputError
        (nothing counted) when they would pass :attr:`limit`."""
        if self.written + size > self.limit:
            raise InputError(f"at {label}: with this file the revision's files reach {self.written + size:,} bytes, "
                             f"more than the {self.limit:,} bytes diff writes of one revision; nothing more is "
                             "written", path=path)
        self.written += size


@dataclass(frozen=True)
class Repository:
    """The git repository a project root lies in: ``toplevel`` its top-level
    folder, ``prefix`` the project root relative to it (``""`` or ``"sub/dir/"``),
    ``object_format`` ``sha1`` or ``sha256``."""

    toplevel: Path
    prefix: str
    object_format: str


@dataclass(frozen=True)
class Entry:
    """A file of a tree: ``oid`` its git blob id, ``kind`` ``file`` or ``link``."""

    oid: str
    kind: str = "file"


@dataclass(frozen=True)
class Tree:
    """The study files of a project at one revision: ``files`` maps a path
    relative to the project root (POSIX form) to its :class:`Entry`;
    ``commit`` is None for the working tree; ``label`` says which revision it
    is in words (``4f2a9c1 (merge base of HEAD and origin/main)``)."""

    label: str
    commit: str | None
    files: dict[str, Entry]
    budget: WriteBudget = field(default_factory=WriteBudget, compare=False, repr=False)  # of :func:`materialize`
    # path of a link -> the path its blob holds, read by :func:`materialize` from the revision's objects
    link_texts: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # paths committed as submodules (gitlinks): no file of the tree, but a checkout holds a folder there
    gitlinks: set[str] = field(default_factory=set, compare=False, repr=False)

    def under(self, folder: str) -> dict[str, Entry]:
        """The files under ``folder`` (a path relative to the project root)."""
        prefix = folder.rstrip("/") + "/"
        return {path: entry for path, entry in self.files.items() if path.startswith(prefix)}


def _git(repo_dir: Path, *args: str, check: bool = True, text: bool = True) -> subprocess.CompletedProcess:
    """``git -C repo_dir args`` (fixed argument list, no shell); UsageError when
    git is missing, or (``check``) when it fails, with git's first line."""
    try:
        done = run_git(repo_dir, *args, environment=git_environment(), timeout_s=GIT_TIMEOUT_S, text=text)
    except FileNotFoundError:
        raise UsageError("git is not installed or not on PATH (studygen diff reads revisions through git)") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git {args[0]} took longer than {GIT_TIMEOUT_S} s") from None
    if check and done.returncode != 0:
        message = done.stderr if text else done.stderr.decode("utf-8", "replace")
        first = next((line.strip() for line in message.splitlines() if line.strip()), f"exit status {done.returncode}")
        raise UsageError(f"git {args[0]} failed: {first}")
    return done


def repository_of(root: Path) -> Repository:
    """The repository ``root`` lies in. Raises UsageError when it lies in none."""
    try:
        place = work_tree_place(root, timeout_s=GIT_TIMEOUT_S)
    except FileNotFoundError:
        raise UsageError("git is not installed or not on PATH (studygen diff reads revisions through git)") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"git rev-parse took longer than {GIT_TIMEOUT_S} s") from None
    if place is None:
        raise UsageError(f"{root} is not inside a git repository (studygen diff compares git revisions)")
    toplevel, prefix = place
    object_format = _git(root, "rev-parse", "--show-object-format", check=False).stdout.strip() or "sha1"
    return Repository(toplevel, prefix, object_format)


def resolve(repo: Repository, revision: str) -> str:
    """The commit id ``revision`` names. Raises UsageError for an unknown one."""
    if not revision or revision.startswith("-"):
        raise UsageError(f"unknown revision '{revision}'")
    done = _git(repo.toplevel, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}",
                check=False)
    if done.returncode != 0:
        raise UsageError(f"unknown revision '{revision}' (no commit of that name in {repo.toplevel})")
    return done.stdout.strip()


def is_shallow(repo: Repository) -> bool:
    """Whether the repository is a shallow clone (its history is cut off)."""
    return _git(repo.toplevel, "rev-parse", "--is-shallow-repository", check=False).stdout.strip() == "true"


def default_branch(repo: Repository) -> str | None:
    """The default branch's ref: ``origin/HEAD``'s target, else the first of
    :data:`DEFAULT_BRANCHES` that exists; None when there is none."""
    done = _git(repo.toplevel, "symbolic-ref", "--quiet", "refs/remotes/origin/HEAD", check=False)
    candidates = ([done.stdout.strip()] if done.returncode == 0 and done.stdout.strip() else []) + list(DEFAULT_BRANCHES)
    for ref in candidates:
        if _git(repo.toplevel, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}",
                check=False).returncode == 0:
            return ref
    return None


def default_base(repo: Repository) -> tuple[str, str]:
    """``(commit, label)`` of the revision a diff without BASE starts from:
    the merge base of HEAD and the default branch (:func:`default_branch`),
    else HEAD when there is no default branch. Raises UsageError in a shallow
    clone where neither can be told (the history that holds the merge base,
    or the default branch, is not there) and for unrelated histories."""
    head = resolve_head(repo)
    branch = default_branch(repo)
    shallow = is_shallow(repo)
    if branch is None:
        if shallow:
            raise UsageError("shallow clone without a default branch (origin/HEAD, main or master): name BASE, "
                             "e.g. studygen diff origin/main, after fetching it (actions/checkout: fetch-depth: 0)")
        return head, f"{head[:12]} (HEAD: no default branch found)"
    short = branch.removeprefix("refs/heads/").removeprefix("refs/remotes/")
    done = _git(repo.toplevel, "merge-base", "--end-of-options", "HEAD", branch, check=False)
    if done.returncode != 0 or not done.stdout.strip():
        if shallow:
            raise UsageError(f"shallow clone: the merge base of HEAD and {short} is not in the fetched history; "
                             f"name BASE, or fetch the whole history (git fetch --unshallow; actions/checkout: fetch-depth: 0)")
        raise UsageError(f"HEAD and {short} have no common commit: name BASE")
    commit = done.stdout.split()[0]
    return commit, f"{commit[:12]} (merge base of HEAD and {short})"


def resolve_head(repo: Repository) -> str:
    """HEAD's commit. Raises UsageError in a repository without a commit."""
    done = _git(repo.toplevel, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    if done.returncode != 0:
        raise UsageError(f"{repo.toplevel}: the repository has no commit yet")
    return done.stdout.strip()


def _safe_relative(path: str) -> bool:
    """A path that stays inside the folder it is joined to: relative, no ``..``, no empty part."""
    parts = PurePosixPath(path).parts
    return bool(parts) and not path.startswith("/") and all(part not in ("", ".", "..") for part in parts)


def list_revision(repo: Repository, commit: str, folders, gitlinks: set[str] | None = None) -> dict[str, Entry]:
    """The files under ``folders`` (relative to the project root) at
    ``commit``: path relative to the project root → :class:`Entry`. Folders
    absent at that commit give nothing; submodules and unsafe paths are left
    out (a submodule's path is added to ``gitlinks`` where one is given)."""
    folders = [f.strip("/") for f in folders if _safe_relative(f.strip("/"))]
    if not folders:
        return {}
    done = _git(repo.toplevel, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", commit, "--",
                *[repo.prefix + folder for folder in folders], text=False)
    files = {}
    for item in done.stdout.split(b"\0"):
        if not item:
            continue
        meta, _, name = item.partition(b"\t")
        mode, _, oid = meta.decode("ascii").split(" ")
        path = name.decode("utf-8", "surrogateescape")
        if mode not in _MODES or not path.startswith(repo.prefix):
            if mode == _GITLINK and gitlinks is not None and _safe_relative(path[len(repo.prefix):]):
                gitlinks.add(path[len(repo.prefix):])
            continue
        relative = path[len(repo.prefix):]
        if _safe_relative(relative):
            files[relative] = Entry(oid, _MODES[mode])
    return files


def blob_id(content: bytes, object_format: str = "sha1") -> str:
    """git's blob id of ``content`` (``git hash-object``): the hash of
    ``blob <size>\\0`` followed by the content (git's object format)."""
    digest = hashlib.sha256() if object_format == "sha256" else hashlib.sha1()
    digest.update(b"blob %d\0" % len(content))
    digest.update(content)
    return digest.hexdigest()


def list_working_tree(repo: Repository, root: Path, folders) -> dict[str, Entry]:
    """The files under ``folders`` of the working tree at ``root``, with the
    blob id of what a study loader reads there (a link's target's content);
    unreadable files and folders are left out (check reports them)."""
    files = {}
    for folder in folders:
        folder = folder.strip("/")
        if not _safe_relative(folder):
            continue
        base = root / folder
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                full = Path(dirpath) / name
                try:  # the guarded reader: a FIFO or device under the folder hung diff
                    content = read_bytes(full)
                except InputError:
                    continue
                oid = blob_id(content, repo.object_format)
                if full.is_symlink() and not Path(os.path.realpath(full)).is_relative_to(os.path.realpath(root)):
                    oid = f"outside:{oid}"  # not the committed file's input: check refuses it (studygen.study)
                files[full.relative_to(root).as_posix()] = Entry(oid)
    return files


def materialize(repo: Repository, tree: Tree, paths, dest: Path) -> None:
    """Write the files ``paths`` of ``tree`` (a revision) under ``dest`` as
    plain files, read from the revision's objects alone: a regular file with
    its content; a symbolic link with the content of the file it names in
    the same revision (:func:`link_target`, which follows the revision's own
    links, never the disk), or nothing when it names no file of the tree
    (a path outside the project's study files, absolute, a folder, a loop,
    nothing). No link is written, so nothing under ``dest`` leads outside
    it. Paths ``tree`` lacks are left out. Contents come from one ``git
    cat-file --batch`` process, one blob at a time. Raises InputError naming
    the path and the revision, before any of the blob is written, for a file
    larger than its reader reads (:func:`reader_limit`; a link's own blob:
    :data:`MAX_LINK_BYTES`) or one that would take the tree's files past
    ``tree.budget`` (every call for one tree counts together)."""
    requested = sorted({path for path in paths if path in tree.files})
    if not requested:
        return
    try:
        # a session of its own: the watchdog kills git and whatever git started (a wrapper's child holding the pipe)
        process = subprocess.Popen(["git", "-C", str(repo.toplevel), "cat-file", "--batch"], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=git_environment(),
                                   start_new_session=True)
    except FileNotFoundError:
        raise UsageError("git is not installed or not on PATH (studygen diff reads revisions through git)") from None
    scratch = dest.with_name(dest.name + ".blob")  # beside dest: each blob once, then placed at its paths
    # The reads below block on git's pipe: a git that never answers is killed after GIT_TIMEOUT_S, which ends them.
    watchdog = threading.Timer(GIT_TIMEOUT_S, kill_session, (process,))
    watchdog.start()
    try:
        if any(tree.files[path].kind == "link" for path in requested):
            _read_link_texts(process, tree)
        for oid, targets in _sources(tree, requested).items():
            size = _blob_size(process, oid, targets[0], tree.label)
            _refuse_oversize(tree, targets, size)
            _copy_blob(process.stdout, size, scratch)
            process.stdout.read(1)  # the newline after each object
            for path in targets:
                target = dest / path
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(scratch, target)
    except (UsageError, OSError):
        if watchdog.finished.is_set():  # killed: what failed is git taking too long, not the object
            raise UsageError(f"git cat-file took longer than {GIT_TIMEOUT_S} s") from None
        raise
    finally:
        watchdog.cancel()
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:  # a pipe to a killed git
                pass
        kill_session(process)  # a git still running after its input closed has nothing left to give
        process.wait()
        scratch.unlink(missing_ok=True)


# A symbolic link's blob is its target's path: no longer than a path may be (PATH_MAX on Linux).
MAX_LINK_BYTES = 4096
# Links followed in one path before it counts as a loop (Linux's MAXSYMLINKS).
MAX_LINK_HOPS = 40


def _blob_size(process, oid: str, path: str, label: str) -> int:
    """Ask ``git cat-file --batch`` for ``oid`` (the blob of ``path``) and read its header: the blob's size in bytes.
    Raises UsageError when the object is no blob."""
    process.stdin.write(oid.encode("ascii") + b"\n")
    process.stdin.flush()
    header = process.stdout.readline().split()
    if len(header) != 3 or header[1] != b"blob":
        raise UsageError(f"git cat-file could not read {path} ({oid[:12]}) at {label}")
    return int(header[2])


def _read_link_texts(process, tree: Tree) -> None:
    """Fill ``tree.link_texts`` with the path each link of the tree holds
    (every link: one may lead through another). Raises InputError for a
    link blob longer than :data:`MAX_LINK_BYTES`."""
    for path, entry in sorted(tree.files.items()):
        if entry.kind != "link" or path in tree.link_texts:
            continue
        size = _blob_size(process, entry.oid, path, tree.label)
        if size > MAX_LINK_BYTES:
            raise InputError(f"at {tree.label}: {size:,} bytes, more than the {MAX_LINK_BYTES:,} bytes studygen reads "
                             "of such a file; diff writes none of it", path=path)
        text = process.stdout.read(size)
        process.stdout.read(1)  # the newline after each object
        tree.link_texts[path] = text.decode("utf-8", "surrogateescape")


def _sources(tree: Tree, paths: list[str]) -> dict[str, list[str]]:
    """Blob id -> the paths it is written at: a file's own blob, a link's
    target's (:func:`link_target`, which gives a file itself); a link to no
    file of the tree is left out."""
    folders = {str(parent) for path in tree.files for parent in PurePosixPath(path).parents} - {"."}
    sources: dict[str, list[str]] = {}
    for path in paths:
        source = link_target(tree, path, folders)
        if source is not None:
            sources.setdefault(tree.files[source].oid, []).append(path)
    return sources


def link_target(tree: Tree, path: str, folders: set[str]) -> str | None:
    """The regular file of ``tree`` that ``path`` names, each link on the
    way followed as the revision holds it (``tree.link_texts``, relative to
    the link's folder, as the kernel follows one), never as the disk does;
    ``folders``: every folder of the tree. None when the way leaves the
    project root, passes a link that is absolute or unread, or a name that
    is no folder of the tree, takes more than :data:`MAX_LINK_HOPS` links
    (a loop), or ends at no regular file (a folder, nothing)."""
    pending = list(PurePosixPath(path).parts)
    reached: list[str] = []
    hops = 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            if not reached:
                return None  # above the project root
            reached.pop()
            continue
        here = "/".join([*reached, part])
        entry = tree.files.get(here)
        if entry is not None and entry.kind == "link":
            hops += 1
            text = tree.link_texts.get(here)
            if text is None or text.startswith("/") or hops > MAX_LINK_HOPS:
                return None
            pending = text.split("/") + pending
            continue
        if pending and here not in folders:
            return None  # a name that is no folder, with more of the way after it
        reached.append(part)
    final = "/".join(reached)
    entry = tree.files.get(final)
    return final if entry is not None and entry.kind == "file" else None


def _refuse_oversize(tree: Tree, targets: list[str], size: int) -> None:
    """InputError when a blob of ``size`` bytes is larger than a reader of
    one of the ``targets`` paths reads, or its copies, one per path, would
    pass the tree's write budget (the one blob being copied, bounded by the
    first test, is removed after)."""
    for path in targets:
        limit = reader_limit(path)
        if size > limit:
            raise InputError(f"at {tree.label}: {size:,} bytes, more than the {limit:,} bytes studygen reads of "
                             "such a file; diff writes none of it", path=path)
    tree.budget.take(size * len(targets), targets[0], tree.label)


def _copy_blob(stream, size: int, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        left = size
        while left:
            chunk = stream.read(min(left, CHUNK_BYTES))
            if not chunk:
                raise UsageError(f"git cat-file ended early while writing {path.name}")
            out.write(chunk)
            left -= len(chunk)
