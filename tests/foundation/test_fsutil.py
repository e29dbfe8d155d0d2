"""Display paths, write guards, writer liveness and the record layout of
studygen.fsutil, each function on its own (expected strings written out by
hand from the paths the tests make)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from studygen import fsutil
from studygen.errors import UsageError
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
