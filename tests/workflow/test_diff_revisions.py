"""studygen.commands.revisions: a project's study files at a git revision, read without touching the repository."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from studygen.commands import revisions
from studygen.commands.revisions import Tree
from studygen.errors import InputError, UsageError
from studygen.gitenv import git_environment
from tests.workflow.test_diff import commit, git


@pytest.fixture
def repo(tmp_path) -> Path:
    """A repository whose project root is a subfolder (``studies/``), with a link inside it and one leaving it."""
    repo = tmp_path / "repo"
    root = repo / "studies"
    (root / "families" / "toy").mkdir(parents=True)
    (root / "families" / "toy" / "study.yaml").write_text("family: toy\n")
    (root / "measurements" / "toy").mkdir(parents=True)
    (root / "measurements" / "toy" / "a.json").write_text('{"job": "a"}\n')
    (root / "measurements" / "toy" / "copy.json").write_text('{"job": "a"}\n')  # same blob as a.json
    (root / "templates").mkdir()
    os.symlink("../measurements/toy/a.json", root / "templates" / "inside.json")
    os.symlink("../../../outside.txt", root / "templates" / "outside.json")
    (repo / "README.md").write_text("not a study file\n")
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "first")
    return repo


def test_blob_ids_are_gits(tmp_path):
    path = tmp_path / "f.txt"
    for content in (b"", b"one line\n", bytes(range(256)) * 3):
        path.write_bytes(content)
        expected = subprocess.run(["git", "hash-object", str(path)], capture_output=True, text=True, check=True).stdout.strip()
        assert revisions.blob_id(content) == expected
    assert revisions.blob_id(b"x", "sha256") != revisions.blob_id(b"x")
    assert len(revisions.blob_id(b"x", "sha256")) == 64


def test_a_revision_lists_the_study_folders_of_a_project_in_a_subfolder(repo):
    info = revisions.repository_of(repo / "studies" / "families")
    assert (info.toplevel, info.prefix, info.object_format) == (repo, "studies/families/", "sha1")
    info = revisions.repository_of(repo / "studies")
    files = revisions.list_revision(info, revisions.resolve(info, "HEAD"), revisions.STUDY_FOLDERS)
    assert sorted(files) == ["families/toy/study.yaml", "measurements/toy/a.json", "measurements/toy/copy.json",
                             "templates/inside.json", "templates/outside.json"]
    assert files["templates/inside.json"].kind == "link" and files["measurements/toy/a.json"].kind == "file"
    assert files["measurements/toy/a.json"].oid == files["measurements/toy/copy.json"].oid
    assert revisions.list_revision(info, revisions.resolve(info, "HEAD"), ["../README.md", "/etc", "absent"]) == {}


def test_the_working_tree_lists_what_a_loader_reads(repo):
    info = revisions.repository_of(repo / "studies")
    (repo / "studies" / "measurements" / "toy" / "b.json").write_text('{"job": "b"}\n')  # untracked
    files = revisions.list_working_tree(info, repo / "studies", revisions.STUDY_FOLDERS)
    committed = revisions.list_revision(info, revisions.resolve(info, "HEAD"), revisions.STUDY_FOLDERS)
    assert files["measurements/toy/b.json"].oid == revisions.blob_id(b'{"job": "b"}\n')
    assert files["measurements/toy/a.json"] == committed["measurements/toy/a.json"]
    assert files["templates/inside.json"].oid == committed["measurements/toy/a.json"].oid  # the target's content
    assert "templates/outside.json" not in files  # a dangling link: nothing to read


def test_a_fifo_in_the_working_tree_is_left_out_not_waited_on(repo):
    # reading a named pipe blocks until a writer comes: diff hung on one under measurements/
    info = revisions.repository_of(repo / "studies")
    os.mkfifo(repo / "studies" / "measurements" / "toy" / "pipe.json")
    files = revisions.list_working_tree(info, repo / "studies", revisions.STUDY_FOLDERS)
    assert "measurements/toy/pipe.json" not in files and "measurements/toy/a.json" in files


def test_materialize_writes_files_and_the_files_links_name_inside(repo, tmp_path):
    info = revisions.repository_of(repo / "studies")
    commit_id = revisions.resolve(info, "HEAD")
    tree = Tree("HEAD", commit_id, revisions.list_revision(info, commit_id, revisions.STUDY_FOLDERS))
    dest = tmp_path / "out" / "tree"
    revisions.materialize(info, tree, list(tree.files) + ["measurements/toy/not-there.json"], dest)
    assert (dest / "measurements/toy/a.json").read_text() == '{"job": "a"}\n'
    assert (dest / "measurements/toy/copy.json").read_text() == '{"job": "a"}\n'
    # a link to a file of the revision is written as a copy of that file, never as a link
    inside = dest / "templates/inside.json"
    assert inside.read_text() == '{"job": "a"}\n' and not inside.is_symlink()
    assert not os.path.lexists(dest / "templates/outside.json")
    assert not (dest / "measurements/toy/not-there.json").exists()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["tree"]  # the scratch blob is gone
    assert git(repo, "status", "--porcelain") == ""


def test_default_base_without_a_default_branch_is_head(repo):
    info = revisions.repository_of(repo)
    git(repo, "branch", "-m", "main", "trunk")
    commit_id, label = revisions.default_base(info)
    assert commit_id == git(repo, "rev-parse", "HEAD").strip()
    assert label == f"{commit_id[:12]} (HEAD: no default branch found)"


def test_unrelated_histories_need_a_base(repo):
    info = revisions.repository_of(repo)
    git(repo, "checkout", "-q", "--orphan", "other")
    commit(repo, "an unrelated root")
    with pytest.raises(UsageError, match="^HEAD and main have no common commit: name BASE$"):
        revisions.default_base(info)


def test_a_repository_without_a_commit(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    with pytest.raises(UsageError, match="the repository has no commit yet"):
        revisions.default_base(revisions.repository_of(empty))


def test_an_absolute_link_is_left_out_even_when_it_points_inside(tmp_path):
    dest = tmp_path / "out" / "tree"
    repo = tmp_path / "repo"
    (repo / "templates" / "deep" / "er").mkdir(parents=True)
    (repo / "templates" / "a.j2").write_text("a\n")
    os.symlink(str(dest / "templates" / "a.j2"), repo / "templates" / "absolute.j2")
    os.symlink("../../a.j2", repo / "templates" / "deep" / "er" / "relative.j2")  # alone in its folder
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "links")
    info = revisions.repository_of(repo)
    commit_id = revisions.resolve(info, "HEAD")
    tree = Tree("HEAD", commit_id, revisions.list_revision(info, commit_id, ["templates"]))
    revisions.materialize(info, tree, list(tree.files), dest)
    assert not os.path.lexists(dest / "templates" / "absolute.j2")
    assert (dest / "templates" / "deep" / "er" / "relative.j2").read_text() == "a\n"


def test_an_object_that_is_no_blob_is_refused(repo, tmp_path):
    info = revisions.repository_of(repo / "studies")
    commit_id = revisions.resolve(info, "HEAD")
    folder = git(repo, "rev-parse", "HEAD:studies/templates").strip()  # a tree, not a blob
    tree = Tree("HEAD", commit_id, {"templates/x.j2": revisions.Entry(folder)})
    with pytest.raises(UsageError, match=r"^git cat-file could not read templates/x\.j2 \(" + folder[:12] + r"\) at HEAD$"):
        revisions.materialize(info, tree, ["templates/x.j2"], tmp_path / "tree")
    link = Tree("HEAD", commit_id, {"templates/y.j2": revisions.Entry(folder, "link")})  # a link's object, the same
    with pytest.raises(UsageError, match=r"^git cat-file could not read templates/y\.j2 \(" + folder[:12] + r"\) at HEAD$"):
        revisions.materialize(info, link, ["templates/y.j2"], tmp_path / "tree")


def test_git_failures_are_one_line(repo, monkeypatch):
    info = revisions.repository_of(repo)
    with pytest.raises(UsageError, match=r"^git ls-tree failed: fatal: "):
        revisions.list_revision(info, "0" * 40, ["studies"])
    monkeypatch.setattr(revisions, "GIT_TIMEOUT_S", 1e-6)
    with pytest.raises(UsageError, match=r"^git rev-parse took longer than 1e-06 s$"):
        revisions.repository_of(repo)


@pytest.mark.parametrize("hang", [
    "exec sleep 600",  # git itself hangs
    # a wrapper whose child holds the pipe: killing the wrapper alone ends no read; the child marks that it
    # outlived the wrapper, which a read that waited for it finds
    'sh -c \'sleep 20; touch "$0.outlived"\' "$0"; exit 0',
    'printf "%s blob 100\\nabc" "$(head -c 40)"; exec sleep 600',  # hangs part-way through an object
], ids=["git", "wrapper-child", "mid-object"])
def test_a_git_cat_file_that_never_answers_is_one_line_after_the_timeout(repo, tmp_path, monkeypatch, hang):
    # a git that hangs on cat-file (a lock, a file system that stops answering) and runs every other command
    info = revisions.repository_of(repo / "studies")
    tree = revisions.Tree("HEAD", revisions.resolve(info, "HEAD"),
                          revisions.list_revision(info, revisions.resolve(info, "HEAD"), revisions.STUDY_FOLDERS))
    real_git = subprocess.run(["sh", "-c", "command -v git"], capture_output=True, text=True, check=True).stdout.strip()
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\ncase " $* " in *" cat-file "*) {hang};; esac\nexec {real_git} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(revisions, "GIT_TIMEOUT_S", 1)
    with pytest.raises(UsageError, match=r"^git cat-file took longer than 1 s$"):
        revisions.materialize(info, tree, list(tree.files), tmp_path / "tree")
    assert not (tmp_path / "tree.blob").exists()
    assert not wrapper.with_name("git.outlived").exists()  # the wrapper and its child were killed together


def test_git_runs_on_the_repository_of_the_root_whatever_git_variables_say(repo, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    git(elsewhere, "init", "-q")
    monkeypatch.setenv("GIT_DIR", str(elsewhere / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(elsewhere))
    assert revisions.repository_of(repo / "studies").toplevel == repo
    environment = git_environment()
    assert "GIT_DIR" not in environment and "GIT_WORK_TREE" not in environment
    assert environment["GIT_TERMINAL_PROMPT"] == "0"


# Attack round: a commit of about 3 MiB packed (four 300 MB files of zeros) made diff write 1386 MB under TMPDIR
# before any loader looked at a size: each blob's size is in cat-file's header, and is refused from it.
def test_reader_limits_follow_what_reads_each_file():
    from studygen.textio import MAX_DOCUMENT_BYTES, MAX_RENDERED_BYTES

    assert [revisions.reader_limit(path) for path in (
        "families/toy/README.md", "families/toy/figures/latency.svg", "families/toy/study.yaml",
        "measurements/toy/a.json", "measurements/toy/datasets/d.json", "templates/toy.md.j2",
        "measurements/toy/logs/run.log", "families/toy/notes/README.md", "families/README.md",
        "families/toy/kernel_groups.yml")] == [
        MAX_RENDERED_BYTES, MAX_RENDERED_BYTES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES,
        MAX_DOCUMENT_BYTES, MAX_RENDERED_BYTES, MAX_RENDERED_BYTES, MAX_RENDERED_BYTES, MAX_DOCUMENT_BYTES]
    assert (MAX_DOCUMENT_BYTES, MAX_RENDERED_BYTES, revisions.MAX_REVISION_BYTES) == (2**24, 2**26, 2**30)


def _oversized(repo, name: str, size: int) -> tuple:
    root = repo / "studies"
    (root / "measurements" / "toy" / name).write_bytes(b"0" * size)
    commit(repo, "big")
    info = revisions.repository_of(root)
    commit_id = revisions.resolve(info, "HEAD")
    return info, Tree("HEAD", commit_id, revisions.list_revision(info, commit_id, revisions.STUDY_FOLDERS))


def test_a_blob_larger_than_its_reader_reads_is_refused_before_a_byte_is_written(repo, tmp_path):
    info, tree = _oversized(repo, "big.json", 2**24 + 1)
    dest = tmp_path / "out" / "tree"
    with pytest.raises(InputError) as refused:
        revisions.materialize(info, tree, sorted(tree.files), dest)
    assert refused.value.line() == ("measurements/toy/big.json: at HEAD: 16,777,217 bytes, more than the 16,777,216 "
                                    "bytes studygen reads of such a file; diff writes none of it")
    written = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert sum(p.stat().st_size for p in written) < 100  # the small files before it at most, no scratch blob left
    assert not (dest / "measurements/toy/big.json").exists() and not (tmp_path / "out" / "tree.blob").exists()
    # at the limit it is written
    info, tree = _oversized(repo, "big.json", 2**24)
    revisions.materialize(info, tree, ["measurements/toy/big.json"], tmp_path / "again")
    assert (tmp_path / "again/measurements/toy/big.json").stat().st_size == 2**24


def test_one_revision_writes_at_most_its_budget_counting_every_copy_and_every_call(repo, tmp_path):
    info = revisions.repository_of(repo / "studies")
    commit_id = revisions.resolve(info, "HEAD")
    files = revisions.list_revision(info, commit_id, revisions.STUDY_FOLDERS)
    # a.json and copy.json: one 13-byte blob, written twice; study.yaml 12 bytes
    tree = Tree("HEAD", commit_id, files, budget=revisions.WriteBudget(limit=38))
    revisions.materialize(info, tree, ["measurements/toy/a.json", "measurements/toy/copy.json"], tmp_path / "t")
    assert tree.budget.written == 26
    revisions.materialize(info, tree, ["families/toy/study.yaml"], tmp_path / "t")  # 26 + 12 = 38: at the limit
    assert tree.budget.written == 38
    tree = Tree("HEAD", commit_id, files, budget=revisions.WriteBudget(limit=37))
    revisions.materialize(info, tree, ["measurements/toy/a.json", "measurements/toy/copy.json"], tmp_path / "u")
    with pytest.raises(InputError) as refused:
        revisions.materialize(info, tree, ["families/toy/study.yaml"], tmp_path / "u")
    assert refused.value.line() == ("families/toy/study.yaml: at HEAD: with this file the revision's files reach 38 "
                                    "bytes, more than the 37 bytes diff writes of one revision; nothing more is written")
    assert tree.budget.written == 26 and not (tmp_path / "u/families/toy/study.yaml").exists()


def test_diff_refuses_an_oversized_file_in_one_line_and_leaves_nothing_in_tmpdir(repo, tmp_path, monkeypatch, run_cli):
    import tempfile

    base = git(repo, "rev-parse", "HEAD").strip()
    _oversized(repo, "zz0.json", 2**24 + 5)
    scratch = tmp_path / "tmpdir"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    done = run_cli("diff", base, "HEAD", "--root", repo / "studies")
    head = git(repo, "rev-parse", "HEAD").strip()
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: measurements/toy/zz0.json: at HEAD ({head[:12]}): 16,777,221 bytes, more than the "
                        "16,777,216 bytes studygen reads of such a file; diff writes none of it\n")
    assert list(scratch.iterdir()) == []


def test_a_link_through_a_link_placed_after_it_never_reads_outside_the_revision(tmp_path):
    # templates/a.j2 -> "x/../../outside.txt" is placed first (names in order); x -> ".." comes after it. Checked
    # against the disk, a.j2 looked inside (x was not there yet: dest/outside.txt) and x too (dest); read through
    # both, a.j2 is tmp_path/out/outside.txt, outside the revision. In the revision's own tree, x leads to the
    # project root and two '..' from there leave it: a.j2 is no file of the revision
    dest = tmp_path / "out" / "tree"
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "outside.txt").write_text("a file of the disk, no file of the revision\n")
    repo = tmp_path / "repo"
    (repo / "templates").mkdir(parents=True)
    (repo / "templates" / "b.j2").write_text("b\n")
    os.symlink("x/../../outside.txt", repo / "templates" / "a.j2")
    os.symlink("..", repo / "templates" / "x")
    os.symlink("x/templates/b.j2", repo / "templates" / "c.j2")  # through x, and back inside: b.j2
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "links")
    info = revisions.repository_of(repo)
    commit_id = revisions.resolve(info, "HEAD")
    tree = Tree("HEAD", commit_id, revisions.list_revision(info, commit_id, ["templates"]))
    assert [tree.files[p].kind for p in ("templates/a.j2", "templates/x", "templates/c.j2")] == ["link"] * 3
    revisions.materialize(info, tree, list(tree.files), dest)
    assert not os.path.lexists(dest / "templates" / "a.j2")
    assert not os.path.lexists(dest / "templates" / "x")  # a link to a folder: nothing is written for it
    assert (dest / "templates" / "c.j2").read_text() == "b\n" and not (dest / "templates" / "c.j2").is_symlink()
    assert sorted(p.name for p in (dest / "templates").iterdir()) == ["b.j2", "c.j2"]


def test_a_committed_link_to_a_record_outside_the_repository_gives_no_figure(tmp_path, monkeypatch, run_cli):
    # A record outside the repository, and a committed link measurements/toy/evil.json -> x/../../../secret.json
    # with measurements/toy/x -> ../.. (the project root). diff's copy of the revision lies 3 folders below
    # tmp_path (tmp_path/tmp/studygen-diff-*/head): read through the links as a loader reads it, evil.json was
    # tmp_path/secret.json, and its job showed as a new figure of the revision
    import json
    import tempfile

    from tests.checks.studies import latency, record, write_project

    repo = tmp_path / "repo"
    write_project(repo, records=[record("main", [latency("fp16", 10.0, repeats=[9.9, 10.0, 10.1])])])
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "the toy study")
    secret = record("leak", [latency("fp16", 77.0)])
    (tmp_path / "secret.json").write_text(json.dumps(secret, indent=2) + "\n")
    (repo / "measurements" / "toy" / "evil.json").symlink_to("x/../../../secret.json")
    (repo / "measurements" / "toy" / "x").symlink_to("../..")
    (repo / "measurements" / "toy" / "outside.json").symlink_to(tmp_path / "secret.json")  # absolute, plain
    commit(repo, "links to a record outside the repository")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))

    out = run_cli("diff", "HEAD~1", "HEAD", "--root", repo)
    assert "77.0" not in out.out and "leak" not in out.out, out.out
    # refused, as check refuses a record that leads outside the project: the head cannot be read
    assert out.out.splitlines()[1:3] == [
        "toy", "  unreadable: the head could not be read: 2 SG202 errors in measurements/toy/evil.json, "
        "measurements/toy/outside.json (first: a file that leads outside the project's files at HEAD ("
        + out.out.split("at HEAD (")[1].split(")")[0] + "), to x/../../../secret.json: not read (a commit holds the "
        "symbolic link, not what it leads to)); its figures and findings are not compared"]
    assert out.exit_code == 1
    assert list((tmp_path / "tmp").iterdir()) == []  # the copy is gone


def test_a_link_is_followed_through_the_revisions_own_links_and_folders():
    files = {"templates/b.j2": revisions.Entry("b" * 40), "templates/deep/c.j2": revisions.Entry("c" * 40)}
    texts = {"templates/loop1": "loop2", "templates/loop2": "loop1", "templates/via-file": "b.j2/../b.j2",
             "templates/ghost": "nothere/../b.j2", "templates/folder": "deep", "templates/in-folder": "folder/c.j2",
             "templates/absolute": "/etc/passwd", "templates/up": "../templates/./b.j2", "templates/above": "../../b.j2",
             "templates/double": "deep//c.j2"}
    texts.update({f"templates/chain{i}": f"chain{i + 1}" for i in range(40)})
    texts["templates/chain40"] = "b.j2"  # chain1 takes 40 links to b.j2, chain0 41
    files.update({path: revisions.Entry("1" * 40, "link") for path in [*texts, "templates/unread"]})
    tree = Tree("HEAD", "0" * 40, files, link_texts=texts)
    folders = {"templates", "templates/deep"}
    targets = {path: revisions.link_target(tree, path, folders) for path in sorted(files)}
    assert {path: target for path, target in targets.items() if target} == {
        "templates/b.j2": "templates/b.j2", "templates/deep/c.j2": "templates/deep/c.j2",
        "templates/in-folder": "templates/deep/c.j2", "templates/up": "templates/b.j2",
        "templates/double": "templates/deep/c.j2", **{f"templates/chain{i}": "templates/b.j2" for i in range(1, 41)}}
    assert targets["templates/chain0"] is None and targets["templates/unread"] is None


def test_a_link_blob_longer_than_a_path_is_refused(tmp_path):
    repo = tmp_path / "repo"
    (repo / "templates").mkdir(parents=True)
    (repo / "templates" / "a.j2").write_text("a\n")
    git(repo, "init", "-q", "-b", "main")
    long_text = tmp_path / "long.txt"
    long_text.write_text("x/" * 2048 + "a.j2")  # 4,100 bytes: no link's target is that long
    oid = git(repo, "hash-object", "-w", str(long_text)).strip()
    git(repo, "update-index", "--add", "--cacheinfo", f"120000,{oid},templates/long.j2")
    git(repo, "add", "templates/a.j2")
    git(repo, "commit", "-q", "-m", "a long link")
    info = revisions.repository_of(repo)
    commit_id = revisions.resolve(info, "HEAD")
    tree = Tree("HEAD", commit_id, revisions.list_revision(info, commit_id, ["templates"]))
    revisions.materialize(info, tree, ["templates/a.j2"], tmp_path / "files" / "tree")  # no link asked: none read
    assert (tmp_path / "files" / "tree" / "templates" / "a.j2").read_text() == "a\n" and tree.link_texts == {}
    with pytest.raises(InputError) as refused:
        revisions.materialize(info, tree, ["templates/a.j2", "templates/long.j2"], tmp_path / "out" / "tree")
    assert refused.value.line() == ("templates/long.j2: at HEAD: 4,100 bytes, more than the 4,096 bytes studygen "
                                    "reads of such a file; diff writes none of it")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.j2"))
