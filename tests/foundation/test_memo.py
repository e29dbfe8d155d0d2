"""studygen.memo: a kept result is reused only while every file and folder it
was computed from is unchanged, and never kept when it may depend on more."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studygen import fsutil, memo


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
    assert "a.json" in memo.why_unkeepable(reads)
    assert not memo.store("kind", "k", reads, 1)
    assert not (cache / "kind" / "k.json").exists()


def test_a_file_modified_just_before_it_was_read_is_not_kept(tmp_path, cache):
    # Its mtime may not move again for an edit within the same clock tick.
    path = tmp_path / "a.json"
    path.write_text("{}")
    aged(tmp_path)
    _, reads = computed([path])
    assert "changed while it ran (or just before)" in memo.why_unkeepable(reads)
    assert not memo.store("kind", "k", reads, 1)
    aged(path)
    _, reads = computed([path])
    assert memo.why_unkeepable(reads) == ""


def test_a_computation_that_starts_a_process_or_writes_outside_the_cache_is_not_kept(tmp_path, cache):
    aged(tmp_path)
    with memo.recording() as reads:
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    assert memo.why_unkeepable(reads) == "it raised the audit event subprocess.Popen"
    with memo.recording() as reads:
        (tmp_path / "out.txt").write_text("x")
    assert memo.why_unkeepable(reads) == f"it wrote {tmp_path / 'out.txt'}"
    with memo.recording() as reads:
        (fsutil.cache_folder("other") / "kept.bin").write_bytes(b"x")
    assert memo.why_unkeepable(reads) == ""
    with memo.recording() as reads:  # in the cache's folder, but in none that studygen keeps things in
        (cache / "stray.txt").write_text("x")
    assert memo.why_unkeepable(reads) == f"it wrote {cache / 'stray.txt'}"


def test_a_cache_set_inside_the_records_folder_leaves_the_records_inputs(tmp_path, monkeypatch):
    # STUDYGEN_CACHE_DIR at the records folder: only the folders studygen keeps things in are not inputs.
    records = tmp_path / "measurements"
    (records / "datasets").mkdir(parents=True)
    (records / "a.json").write_text("{}")
    (records / "datasets" / "coco.json").write_text("{}")
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(records))
    fsutil.cache_folder("kind")
    aged(records / "a.json", records / "datasets" / "coco.json", records / "datasets", records / "kind", records)
    value, reads = computed([records / "a.json", records / "datasets" / "coco.json"])
    assert memo.store("kind", "k", reads, value)
    entry = json.loads((records / "kind" / "k.json").read_text())
    assert set(entry["files"]) == {str(records / "a.json"), str(records / "datasets" / "coco.json")}
    for path in (records / "a.json", records / "datasets" / "coco.json"):
        path.write_text('{"edited": 1}')
        assert memo.lookup("kind", "k") is None
        path.write_text("{}")
        assert memo.lookup("kind", "k") == value


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


def hostile_entry(cache, tmp_path, **parts) -> None:
    (cache / "kind").mkdir(parents=True, exist_ok=True)
    entry = {"format": memo.ENTRY_FORMAT, "files": {}, "folders": {}, "probes": {}, "value": 1, **parts}
    (cache / "kind" / "k.json").write_text(json.dumps(entry))


def test_an_entry_naming_a_device_a_fifo_or_a_nul_is_a_miss_without_reading_it(tmp_path, cache):
    # Reading /dev/zero never ends and opening a FIFO waits for a writer: neither is opened for its bytes.
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for files in ({"/dev/zero": "x"}, {str(fifo): "x"}, {"a\0b": "x"}, {str(tmp_path): "x"}):
        hostile_entry(cache, tmp_path, files=files)
        assert memo.lookup("kind", "k") is None
    hostile_entry(cache, tmp_path, files={"/dev/zero": ""}, folders={"a\0b": ""}, probes={"a\0b": "absent"})
    assert memo.lookup("kind", "k") == 1  # what such names stand for: nothing that can be read
    hostile_entry(cache, tmp_path, files={str(fifo): 5})
    assert memo.lookup("kind", "k") is None


def kept_reading(path, text: str = "{}") -> None:
    """``path`` written with ``text`` long ago, read in a recording, and kept under "k"."""
    path.write_text(text)
    aged(path, path.parent)
    _, reads = computed([path])
    assert memo.store("kind", "k", reads, 1)


def test_a_file_of_another_size_is_not_read(tmp_path, cache):
    path = tmp_path / "huge.json"
    kept_reading(path)
    os.truncate(path, 64 * 1024 ** 3)  # sparse: hashing it would read 64 GiB of zeros
    assert memo._file_digest(str(path), "2:whatever") == f"{64 * 1024 ** 3}:"
    assert memo.lookup("kind", "k") is None


def test_an_entry_that_is_a_fifo_huge_or_deeply_nested_is_a_miss(tmp_path, cache):
    (cache / "kind").mkdir(parents=True)
    entry = cache / "kind" / "k.json"
    os.mkfifo(entry)
    assert memo.lookup("kind", "k") is None
    entry.unlink()
    entry.write_text("[" * 100_000 + "]" * 100_000)
    assert memo.lookup("kind", "k") is None
    entry.write_text(json.dumps({"format": memo.ENTRY_FORMAT, "files": {}, "folders": {}, "probes": {}, "value": 1}))
    assert memo.lookup("kind", "k") == 1
    os.truncate(entry, memo.MAX_ENTRY_BYTES + 1)
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
    assert memo.why_unkeepable(reads) == f"it wrote {sibling / 'x.bin'}"
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
    assert "fresh.json changed while it ran" in memo.why_unkeepable(reads, lambda name: name != os.__file__)


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
    assert memo.why_unkeepable(reads) == ""
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
    # A relative entry ("" or "src", as pytest or a user may add) is read against the working directory.
    monkeypatch.setattr(sys, "path", [sys.path[0], "", "relative-folder", *sys.path[1:]])
    first = memo.code_key()
    monkeypatch.chdir(tmp_path)
    assert memo.code_key() == first


def test_a_path_only_tested_is_a_miss_once_it_appears_or_changes_kind(tmp_path, cache):
    # Nothing in sub/ is opened or listed: only stat'ed (Path.exists, os.path.islink, Path.resolve).
    sub = tmp_path / "sub"
    sub.mkdir()
    (tmp_path / "a.svg").write_text("a")
    (tmp_path / "b.svg").write_text("b")
    chart, link = sub / "chart.svg", sub / "link.svg"
    link.symlink_to(tmp_path / "a.svg")
    with memo.recording() as reads:
        value = [chart.exists(), os.path.islink(link), link.resolve().name]
    assert value == [False, True, "a.svg"]
    assert reads.probes[str(chart)] == "absent"
    assert reads.probes[str(link)] == f"link {tmp_path / 'a.svg'} -> file"
    assert memo.store("kind", "k", reads, value)
    assert memo.lookup("kind", "k") == value
    chart.write_text("drawn")
    assert memo.lookup("kind", "k") is None
    chart.unlink()
    chart.mkdir()
    assert memo.lookup("kind", "k") is None
    chart.rmdir()
    assert memo.lookup("kind", "k") == value
    link.unlink()
    link.symlink_to(tmp_path / "b.svg")
    assert memo.lookup("kind", "k") is None


def test_stat_is_wrapped_only_while_recording(tmp_path):
    original = os.stat
    with memo.recording():
        with memo.recording() as inner:
            assert os.stat is not original
            os.path.isfile(tmp_path / "x")
        assert os.stat is not original
    assert os.stat is original and os.lstat is memo._OS_LSTAT
    assert inner.probes == {str(tmp_path / "x"): "absent"}


def test_an_edit_of_the_same_size_and_mtime_while_it_ran_is_not_kept_as_the_new_bytes(tmp_path, cache):
    # The digest kept is of the bytes when they were read, not when the result was stored:
    # an edit meanwhile that restores size and mtime (rsync -a, touch -d) leaves the entry a miss.
    path = tmp_path / "a.json"
    path.write_text('{"latency_median_ms": 1.25}')
    aged(path, tmp_path)
    before = os.stat(path)
    with memo.recording() as reads:
        value = path.read_text()
        path.write_bytes(b'{"latency_median_ms": 1.35}')  # another process, meanwhile
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    reads.written.clear()  # the write above stands for another process's: this computation wrote nothing
    assert memo.store("kind", "k", reads, value)
    assert memo.lookup("kind", "k") is None
    path.write_text(value)
    assert memo.lookup("kind", "k") == value


def test_a_folder_changed_back_to_its_mtime_while_it_ran_is_not_kept_as_the_new_listing(tmp_path, cache):
    (tmp_path / "a.json").write_text("{}")
    aged(tmp_path / "a.json", tmp_path)
    before = os.stat(tmp_path)
    with memo.recording() as reads:
        names = sorted(os.listdir(tmp_path))
        os.rename(tmp_path / "a.json", tmp_path / "b.json")
        os.utime(tmp_path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert memo.store("kind", "k", reads, names)
    assert memo.lookup("kind", "k") is None


def test_a_listing_of_the_working_directory_without_a_name_is_recorded(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with memo.recording() as reads:
        os.listdir()
        list(os.scandir())
    assert list(reads.folders) == [str(tmp_path)]


def test_a_project_under_the_interpreters_prefix_is_still_an_input(tmp_path, cache, monkeypatch):
    # /usr/src/app with Python installed in /usr: only the standard library and site-packages are installed code.
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    monkeypatch.setattr(sys, "exec_prefix", str(tmp_path))
    memo._installed_prefixes.cache_clear()
    try:
        record = tmp_path / "src" / "app" / "a.json"
        record.parent.mkdir(parents=True)
        kept_reading(record)
        record.write_text('{"edited": 1}')
        assert memo.lookup("kind", "k") is None
    finally:
        memo._installed_prefixes.cache_clear()


def test_path_states_and_the_wrapped_stats_answer_as_the_originals(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("a")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "to-sub").symlink_to(tmp_path / "sub")
    assert [memo.path_state(str(tmp_path / name)) for name in ("a.txt", "sub", "pipe", "nothing", "dangling", "to-sub")] \
        == ["file", "folder", "other", "absent", f"link {tmp_path / 'gone'} -> absent", f"link {tmp_path / 'sub'} -> folder"]
    descriptor = os.open(tmp_path, os.O_RDONLY)
    try:
        with memo.recording() as reads:
            assert stat.S_ISLNK(os.stat(tmp_path / "to-sub", follow_symlinks=False).st_mode)
            assert stat.S_ISLNK(os.lstat("to-sub", dir_fd=descriptor).st_mode)  # relative to the descriptor
            assert stat.S_ISDIR(os.stat("to-sub", dir_fd=descriptor).st_mode)
    finally:
        os.close(descriptor)
    assert list(reads.probes) == [str(tmp_path / "to-sub")]  # by descriptor: nothing to record
