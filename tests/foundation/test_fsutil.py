"""Display paths, write guards, writer liveness and the record layout of
studygen.fsutil, each function on its own (expected strings written out by
hand from the paths the tests make)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from studygen import fsutil
from studygen.errors import InputError, UsageError
from studygen.numbers import SourceFloat


def test_shown_path_is_relative_to_the_base_or_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    assert fsutil.shown_path(tmp_path / "a" / "b.json", tmp_path) == "a/b.json"
    assert fsutil.shown_path(tmp_path / "c.json", tmp_path / "a") == str(tmp_path / "c.json")  # outside: as given
    monkeypatch.chdir(tmp_path / "a")
    assert fsutil.shown_path(tmp_path / "a" / "b.json") == "b.json"
    assert fsutil.shown_path(tmp_path / "c.json") == str(tmp_path / "c.json")


def test_shown_paths_in_a_folder_inside_and_outside_the_base(tmp_path):
    folder = tmp_path / "measurements" / "toy"
    folder.mkdir(parents=True)
    shown = fsutil.shown_paths_in(folder, tmp_path)
    assert shown(folder / "job-1.json") == "measurements/toy/job-1.json"
    assert shown(tmp_path / "other.json") == "other.json"  # not directly in the folder: shown_path's answer
    outside = fsutil.shown_paths_in(tmp_path, folder)  # the folder is not inside the base
    assert outside(tmp_path / "x.json") == str(tmp_path / "x.json")


def test_ensure_inside_accepts_the_folders_and_what_they_hold(tmp_path):
    root, extra = tmp_path / "root", tmp_path / "records"
    root.mkdir()
    extra.mkdir()
    assert fsutil.ensure_inside(root / "out" / "x.md", root) == (root / "out" / "x.md").resolve()
    assert fsutil.ensure_inside(root, root) == root.resolve()
    assert fsutil.ensure_inside(extra / "j.json", root, extra) == (extra / "j.json").resolve()
    with pytest.raises(UsageError) as raised:
        fsutil.ensure_inside(root / ".." / "escape.md", root, extra)
    assert raised.value.message == f"refusing to write {root / '..' / 'escape.md'}: outside {root}, {extra}"
    with pytest.raises(UsageError):
        fsutil.ensure_inside(tmp_path / "rootless" / "x.md", root)  # a name that starts like the folder


def test_process_alive():
    assert fsutil._process_alive(os.getpid())
    assert fsutil._process_alive(os.getppid())
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    assert not fsutil._process_alive(int(ended.stdout))
    assert not fsutil._process_alive(2 ** 40)  # no such pid on any system (OverflowError)


def test_dump_json_keeps_source_text_in_lists_tuples_and_nested_objects():
    document = {"rows": [SourceFloat("1.50"), (SourceFloat("2.0"), 3)], "nested": {"x": SourceFloat("1e-1")},
                "same": SourceFloat("0.25")}
    assert fsutil.dump_json(document, indent=None) == \
        '{"rows": [1.50, [2.0, 3]], "nested": {"x": 1e-1}, "same": 0.25}\n'
    plain = {"a": [1, 2], "b": {"c": "d"}}
    assert fsutil.dump_json(plain) == '{\n  "a": [\n    1,\n    2\n  ],\n  "b": {\n    "c": "d"\n  }\n}\n'


def test_a_lock_path_that_cannot_be_opened_is_refused_naming_the_folder(tmp_path):
    (tmp_path / fsutil.LOCK_FILE).mkdir()  # a folder where the lock file goes: open() fails with EISDIR
    with pytest.raises(InputError) as raised:
        with fsutil.folder_lock(tmp_path, timeout_s=1, shown="measurements/toy"):
            pass
    assert raised.value.message == "cannot lock the folder for writing: Is a directory"
    assert str(raised.value.place.path) == "measurements/toy"


def test_without_flock_the_lock_lets_writers_through_and_leaves_no_file(tmp_path, monkeypatch):
    # Windows has no fcntl: the lock is then no lock, and must neither make a file nor close a descriptor
    monkeypatch.setattr(fsutil, "fcntl", None)
    kept = os.dup(1)
    try:
        with fsutil.folder_lock(tmp_path / "new", timeout_s=1):
            assert not (tmp_path / "new" / fsutil.LOCK_FILE).exists()
        os.fstat(kept)
        os.fstat(1)  # still open: the -1 "descriptor" is never closed
    finally:
        os.close(kept)
    assert not (tmp_path / "new" / fsutil.LOCK_FILE).exists()


HOLDER = """
import sys, time
from pathlib import Path
from studygen import fsutil
with fsutil.folder_lock(Path(sys.argv[1]), timeout_s=10):
    print("held", flush=True)
    time.sleep(float(sys.argv[2]))
"""


def test_a_writer_waiting_on_a_lock_file_its_holder_removes_takes_the_new_one(tmp_path):
    # the holder removes the lock file before letting go; the waiter, flocked on the removed file,
    # must notice (its path names no file, or another one) and lock the file at the path instead
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path), "1.0"], stdout=subprocess.PIPE,
                              text=True, env=env)
    try:
        assert holder.stdout.readline() == "held\n"
        assert (tmp_path / fsutil.LOCK_FILE).exists()
        with fsutil.folder_lock(tmp_path, timeout_s=20):
            assert holder.poll() is not None or holder.wait(10) == 0  # we hold it only once the holder let go
            assert (tmp_path / fsutil.LOCK_FILE).exists()
        assert not (tmp_path / fsutil.LOCK_FILE).exists()
    finally:
        holder.wait(10)
    assert holder.returncode == 0


def test_a_lock_taken_with_stdin_closed_is_removed_on_release(tmp_path):
    # with descriptor 0 free, the lock file's descriptor is 0: a real descriptor, to unlink and close
    saved = os.dup(0)
    os.close(0)
    try:
        with fsutil.folder_lock(tmp_path, timeout_s=5):
            assert (tmp_path / fsutil.LOCK_FILE).exists()
            assert os.fstat(0).st_ino == os.stat(tmp_path / fsutil.LOCK_FILE).st_ino
        lock_left = (tmp_path / fsutil.LOCK_FILE).exists()
    finally:
        os.dup2(saved, 0)
        os.close(saved)
    assert not lock_left


def test_a_lock_path_that_is_a_symbolic_link_is_refused_and_its_target_not_created(tmp_path):
    # a link planted where the lock goes would have made the lock create (and flock) a file elsewhere
    target = tmp_path / "elsewhere"
    folder = tmp_path / "measurements"
    folder.mkdir()
    (folder / fsutil.LOCK_FILE).symlink_to(target)
    with pytest.raises(InputError) as raised:
        with fsutil.folder_lock(folder, timeout_s=1, shown="measurements/toy"):
            pass
    assert raised.value.message == (f"cannot lock the folder for writing: {fsutil.LOCK_FILE} there is a symbolic "
                                    "link (studygen makes its own lock file; remove the link)")
    assert not target.exists()


def test_an_exclusive_write_never_replaces_a_file_another_writer_made(tmp_path):
    # studygen new: two runs at once must not overwrite each other's study file
    from studygen.fsutil import atomic_write_text

    target = tmp_path / "study.yaml"
    atomic_write_text(target, "first\n", exclusive=True)
    with pytest.raises(FileExistsError):
        atomic_write_text(target, "second\n", exclusive=True)
    assert target.read_text() == "first\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.yaml"]  # no temp file left
    atomic_write_text(target, "third\n")  # the default still replaces
    assert target.read_text() == "third\n"


def test_a_link_in_the_base_folder_is_shown_by_its_name_as_a_file_there_is(tmp_path):
    (tmp_path / "real.json").write_text("{}")
    os.symlink(tmp_path / "real.json", tmp_path / "lnk.json")
    os.symlink(tmp_path / "loop.json", tmp_path / "loop.json")  # a link to itself: shown by its folder too
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "real.json", tmp_path / "sub" / "lnk.json")
    shown_path, shown_paths_in = fsutil.shown_path, fsutil.shown_paths_in
    assert shown_path(tmp_path / "lnk.json", tmp_path) == "lnk.json"  # it was ./lnk.json
    assert shown_path(tmp_path / "loop.json", tmp_path) == "loop.json"
    assert shown_path(tmp_path / "sub" / "lnk.json", tmp_path) == os.path.join("sub", "lnk.json")
    for name in ("real.json", "lnk.json", "loop.json"):  # the one-folder form agrees with it
        assert shown_paths_in(tmp_path, tmp_path)(tmp_path / name) == shown_path(tmp_path / name, tmp_path) == name


def test_shown_paths_in_reads_a_path_in_the_folder_off_its_text(tmp_path, monkeypatch):
    """A path directly in the folder is told by its text (no parent Path made
    and compared, no joined Path: two Path objects a record); any other is
    asked as before, and every answer is shown_path's."""
    import pathlib

    folder = tmp_path / "measurements" / "toy"
    (folder / "sub").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    cases = [(folder, tmp_path, [folder / "job-1.json", folder / "sub" / ".." / "job-2.json", tmp_path / "o.json"]),
             (pathlib.Path("measurements/toy"), tmp_path, [pathlib.Path("measurements/toy/job-3.json")]),
             (pathlib.Path("."), tmp_path, [pathlib.Path("job-4.json"), pathlib.Path("measurements/x.json")])]
    for folder_given, base, paths in cases:
        shown = fsutil.shown_paths_in(folder_given, base)
        assert [shown(path) for path in paths] == [fsutil.shown_path(path, base) for path in paths]
    shown = fsutil.shown_paths_in(folder, tmp_path)
    monkeypatch.setattr(pathlib.PurePath, "parent", property(lambda self: pytest.fail("made a parent Path")))
    assert shown(folder / "job-1.json") == "measurements/toy/job-1.json"
    assert fsutil.shown_paths_in(pathlib.Path("."), tmp_path)(pathlib.Path("job-4.json")) == "job-4.json"
