"""studygen.memo: a kept result is reused only while every file and folder it
was computed from is unchanged, and never kept when it may depend on more."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studygen import memo


@pytest.fixture
def cache(tmp_path_factory, monkeypatch):
    folder = tmp_path_factory.mktemp("cache")  # outside tmp_path: making it must not change a folder read
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(folder))
    return folder


def aged(*paths, seconds: float = 30.0) -> None:
    """Set mtimes back, out of memo's racy window, as files written long ago are."""
    when = time.time() - seconds
    for path in paths:
        os.utime(path, (when, when))


def computed(inputs: list) -> tuple[str, memo.Reads]:
    """Read every file of ``inputs`` (absent ones too) and list the folder of the first."""
    with memo.recording() as reads:
        texts = []
        for path in inputs:
            try:
                texts.append(path.read_text())
            except FileNotFoundError:
                texts.append("-")
        sorted(os.listdir(inputs[0].parent))
    return "|".join(texts), reads


def test_a_kept_value_comes_back_while_its_inputs_are_unchanged(tmp_path, cache):
    data = tmp_path
    (data / "a.json").write_text('{"latency_median_ms": 1.25}')
    aged(data / "a.json", data)
    value, reads = computed([data / "a.json"])
    assert str(data / "a.json") in reads.files and str(data) in reads.folders
    assert memo.store("kind", "k1", reads, {"value": value})
    assert memo.lookup("kind", "k1") == {"value": '{"latency_median_ms": 1.25}'}
    assert memo.lookup("kind", "other-key") is None


def test_a_content_change_of_the_same_size_and_mtime_is_a_miss(tmp_path, cache):
    # The digest is of the bytes, not of the stat: 1.25 -> 1.35 keeps size and mtime.
    path = tmp_path / "a.json"
    path.write_text('{"latency_median_ms": 1.25}')
    aged(path, tmp_path)
    _, reads = computed([path])
    assert memo.store("kind", "k", reads, 1)
    before = os.stat(path)
    path.write_text('{"latency_median_ms": 1.35}')
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_size == before.st_size
    assert memo.lookup("kind", "k") is None


def test_a_new_file_in_a_folder_read_is_a_miss(tmp_path, cache):
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(path, tmp_path)
    _, reads = computed([path])
    assert memo.store("kind", "k", reads, 1)
    (tmp_path / "b.json").write_text("{}")
    assert memo.lookup("kind", "k") is None
    (tmp_path / "b.json").unlink()
    assert memo.lookup("kind", "k") == 1


def test_a_file_looked_for_and_absent_is_a_miss_once_it_appears(tmp_path, cache):
    present, absent = tmp_path / "a.yaml", tmp_path / "sub" / "waivers.yaml"
    present.write_text("a: 1")
    (tmp_path / "sub").mkdir()
    aged(present, tmp_path, tmp_path / "sub")
    value, reads = computed([present, absent])
    assert value == "a: 1|-"
    assert memo.store("kind", "k", reads, value)
    absent.write_text("b: 2")
    assert memo.lookup("kind", "k") is None


def test_a_file_changed_while_the_computation_ran_is_not_kept(tmp_path, cache):
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(path, tmp_path)
    with memo.recording() as reads:
        path.read_text()
        path.write_text('{"x": 1}')  # written by someone else meanwhile (here: opened for writing)
    assert "a.json" in memo.why_unkeepable(reads, cache)
    assert not memo.store("kind", "k", reads, 1)
    assert not (cache / "kind" / "k.json").exists()


def test_a_file_modified_just_before_it_was_read_is_not_kept(tmp_path, cache):
    # Its mtime may not move again for an edit within the same clock tick.
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(tmp_path)
    _, reads = computed([path])
    assert "changed while it ran (or just before)" in memo.why_unkeepable(reads, cache)
    assert not memo.store("kind", "k", reads, 1)
    aged(path)
    _, reads = computed([path])
    assert memo.why_unkeepable(reads, cache) == ""


def test_a_computation_that_starts_a_process_or_writes_outside_the_cache_is_not_kept(tmp_path, cache):
    aged(tmp_path)
    with memo.recording() as reads:
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert memo.why_unkeepable(reads, cache) == "it raised the audit event subprocess.Popen"
    with memo.recording() as reads:
        (tmp_path / "out.txt").write_text("x")
    assert memo.why_unkeepable(reads, cache) == f"it wrote {tmp_path / 'out.txt'}"
    with memo.recording() as reads:
        (cache / "other").mkdir(parents=True)
        (cache / "other" / "kept.bin").write_bytes(b"x")
    assert memo.why_unkeepable(reads, cache) == ""


def test_reads_outside_a_recording_are_not_recorded(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("x")
    with memo.recording() as reads:
        pass
    path.read_text()
    assert reads.files == {} and reads.folders == {}


@pytest.mark.parametrize("garbage", [b"", b"not json", b'{"format": 1}', b'{"format": 99, "files": {}, "folders": {}, "value": 1}',
                                     b'{"format": 1, "files": [], "folders": {}, "value": 1}', b"[1, 2]"])
def test_an_unreadable_entry_is_a_miss_not_an_error(cache, garbage):
    (cache / "kind").mkdir(parents=True)
    (cache / "kind" / "k.json").write_bytes(garbage)
    assert memo.lookup("kind", "k") is None


def test_no_cache_folder_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", "")
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(path, tmp_path)
    _, reads = computed([path])
    assert not memo.store("kind", "k", reads, 1)
    assert memo.lookup("kind", "k") is None


def test_installed_code_is_left_to_the_code_key(tmp_path, cache):
    # Files of the studygen package and of the interpreter are not hashed per entry.
    aged(tmp_path)
    with memo.recording() as reads:
        (memo._PACKAGE / "rules.py").read_text()
        open(os.__file__, encoding="utf-8").close()
    assert memo.store("kind", "k", reads, 1)
    import json

    entry = json.loads((cache / "kind" / "k.json").read_text())
    assert entry["files"] == {} and entry["folders"] == {}


def test_the_code_key_changes_with_a_folder_on_the_import_path(tmp_path, monkeypatch):
    site_like, start = tmp_path / "site-packages", tmp_path / "script-folder"
    site_like.mkdir()
    start.mkdir()
    monkeypatch.setattr(sys, "path", [str(start), str(site_like), *sys.path[1:]])
    first = memo.code_key()
    assert memo.code_key() == first
    (start / "notes.txt").write_text("x")  # the script's folder (sys.path[0]) is no install location
    assert memo.code_key() == first
    (site_like / "newdist-1.0.dist-info").mkdir()  # a distribution installed
    assert memo.code_key() != first
    assert memo.entry_key("a", "b") != memo.entry_key("a", "c") != memo.entry_key("ab")


def test_a_recorded_file_now_a_fifo_or_device_is_a_miss_without_opening_it(tmp_path, cache):
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(path, tmp_path)
    _, reads = computed([path])
    assert memo.store("kind", "k", reads, 1)
    path.unlink()
    os.mkfifo(path)  # opening it for reading would wait for a writer forever
    assert memo.lookup("kind", "k") is None
    entry = cache / "kind" / "k.json"
    entry.write_text(entry.read_text().replace(str(path), "/dev/zero"))  # an endless device: a miss, read no further
    assert memo.lookup("kind", "k") is None


def test_a_folder_named_like_the_cache_but_beside_it_is_outside_the_cache(tmp_path, cache):
    # "<cache>-old/x" starts with the cache's name: written there, it is written outside the cache.
    sibling = cache.parent / (cache.name + "-old")
    sibling.mkdir()
    aged(tmp_path)
    with memo.recording() as reads:
        (sibling / "x.bin").write_bytes(b"x")
    assert memo.why_unkeepable(reads, cache) == f"it wrote {sibling / 'x.bin'}"
    (sibling / "in.txt").write_text("read")
    aged(sibling / "in.txt", sibling)
    with memo.recording() as reads:
        (sibling / "in.txt").read_text()
    assert memo.store("kind", "k", reads, 1)
    entry = json.loads((cache / "kind" / "k.json").read_text())
    assert str(sibling / "in.txt") in entry["files"]  # hashed: not taken for a cache file


def test_every_counted_file_is_tested_for_a_change_not_only_those_before_an_installed_one(tmp_path, cache):
    fresh = tmp_path / "fresh.json"
    aged(tmp_path)
    with memo.recording() as reads:
        open(os.__file__, encoding="utf-8").close()  # installed code first: not counted
        fresh.write_text("{}")  # written now, read now: racy
        fresh.read_text()
    reads.written.clear()  # as if someone else had written it
    assert "fresh.json changed while it ran" in memo.why_unkeepable(reads, cache, lambda name: name != os.__file__)


def test_an_entry_that_cannot_be_written_is_reported_not_kept(tmp_path, cache):
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(path, tmp_path)
    _, reads = computed([path])
    (cache / "kind" / "k.json").mkdir(parents=True)  # a folder where the entry would go
    assert memo.store("kind", "k", reads, 1) is False


def test_listings_by_descriptor_and_undecodable_names_are_handled(tmp_path, cache):
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.json").write_text("{}")
    os.close(os.open(os.path.join(os.fsencode(data), b"\xff-latin1.json"), os.O_CREAT | os.O_WRONLY))
    aged(data / "a.json", data, tmp_path)
    with memo.recording() as reads:
        descriptor = os.open(data, os.O_RDONLY)
        try:
            os.listdir(descriptor)  # by descriptor: nothing to record, and no error
        finally:
            os.close(descriptor)
        sorted(os.listdir(data))
        (data / "a.json").read_text()
    assert memo.why_unkeepable(reads, cache) == ""
    assert memo.store("kind", "k", reads, 1)  # a name that is not UTF-8 is hashed as its bytes
    assert memo.lookup("kind", "k") == 1
    os.unlink(os.path.join(os.fsencode(data), b"\xff-latin1.json"))
    assert memo.lookup("kind", "k") is None
    assert memo.entry_key("check", "/a/\udcff") != memo.entry_key("check", "/a/b")


def copy_of_package(tmp_path) -> Path:
    package = tmp_path / "package"
    (package / "sub" / "__pycache__").mkdir(parents=True)
    (package / "a.py").write_text("A = 1\n")
    (package / "sub" / "b.py").write_text("B = 2\n")
    (package / "sub" / "__pycache__" / "b.cpython-311.pyc").write_bytes(b"old")
    return package


def test_the_code_key_follows_every_package_file_but_bytecode(tmp_path, monkeypatch):
    package = copy_of_package(tmp_path)
    monkeypatch.setattr(memo, "_PACKAGE", package)
    first = memo.code_key()
    (package / "sub" / "__pycache__" / "b.cpython-311.pyc").write_bytes(b"newer bytecode")
    assert memo.code_key() == first
    (package / "sub" / "b.py").write_text("B = 22\n")  # an edit one level down
    assert memo.code_key() != first
    second = memo.code_key()
    (package / "sub" / "b.py").rename(package / "sub" / "c.py")  # the same bytes under another name
    assert memo.code_key() != second


def test_the_code_key_does_not_depend_on_the_working_directory(tmp_path, monkeypatch):
    first = memo.code_key()
    monkeypatch.chdir(tmp_path)
    assert memo.code_key() == first
