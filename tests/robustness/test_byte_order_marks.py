"""Issue 24, item 9: a UTF-8 byte order mark, as Windows editors write one,
changes nothing in any text input: each command gives the same exit code,
output and files with it as without it. Before, a trtexec log with one was
refused as cut short, a record, a dataset definition or a per-image file as
malformed JSON, a template put it at the head of the README, and lint read
the first heading as a paragraph; only the Kineto and COCO readers skipped it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.robustness.tiny import make_tiny_project

BOM = "\ufeff"
TRTEXEC = FIXTURES / "trtexec"
JETSON = FIXTURES / "public"  # a trtexec 7 run on a Jetson: its log and its --exportTimes file
KINETO = FIXTURES / "torch_profiler" / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
GROUND_TRUTH = {"images": [{"id": i, "width": 640, "height": 480} for i in (1, 2)],
                "categories": [{"id": 1, "name": "thing"}],
                "annotations": [{"id": n, "image_id": n % 2 + 1, "category_id": 1, "bbox": [40 * n, 20, 30, 40],
                                 "area": 1200, "iscrowd": 0} for n in range(1, 5)]}
DETECTIONS = [{"image_id": a["image_id"], "category_id": 1, "bbox": a["bbox"], "score": 0.5 + a["id"] / 10}
              for a in GROUND_TRUTH["annotations"]]


def _without_times(record: dict) -> dict:
    """A record without what differs from run to run (when and where it was collected)."""
    provenance = {k: v for k, v in record["provenance"].items() if k not in ("collected_at", "conversion_machine")}
    return {**record, "provenance": provenance}


def _collected(folder: Path, run_cli, monkeypatch, args: list) -> tuple:
    monkeypatch.chdir(folder)
    done = run_cli("collect", *args, "--family", "demo", "--job", "j", "--measurements", "m")
    records = {str(p.relative_to(folder)): _without_times(json.loads(p.read_text(encoding="utf-8")))
               if p.parent.name == "demo" else json.loads(p.read_text(encoding="utf-8"))
               for p in sorted((folder / "m").rglob("*.json"))}
    return done.exit_code, done.out, done.err, records


COLLECTOR_INPUTS = {
    "trtexec log": (["trtexec", "--log", "input"], (TRTEXEC / "trt10.16_build-and-run.log").read_text(encoding="utf-8")),
    "trtexec profile": (["trtexec", "--profile", "input"], (TRTEXEC / "detr-r50_profile.json").read_text(encoding="utf-8")),
    "trtexec times": (["trtexec", "--times", "input", "--log", JETSON / "jetson-trt7_googlenet_raw_googlenet_None_int8_10.txt"],
                      (JETSON / "jetson-trt7_googlenet_times_googlenet_None_int8_10.json").read_text(encoding="utf-8")),
    "Kineto trace": (["torch-profile", "--variant", "v", "--trace", "input"],
                     gzip.decompress(KINETO.read_bytes()).decode("utf-8")),
    "COCO annotations": (["coco", "--dataset", "d", "--annotations", "input", "--detections", "other"],
                         json.dumps(GROUND_TRUTH)),
    "COCO detections": (["coco", "--dataset", "d", "--annotations", "other", "--detections", "input"],
                        json.dumps(DETECTIONS)),
}


@pytest.mark.parametrize("case", list(COLLECTOR_INPUTS))
def test_a_byte_order_mark_on_a_collector_input_changes_nothing(case, tmp_path, run_cli, monkeypatch):
    args, text = COLLECTOR_INPUTS[case]
    outcomes = []
    for mark in ("", BOM):
        folder = tmp_path / ("with" if mark else "without")
        folder.mkdir()
        (folder / "input").write_text(mark + text, encoding="utf-8")
        other = DETECTIONS if "annotations" in case else GROUND_TRUTH
        (folder / "other").write_text(json.dumps(other), encoding="utf-8")
        outcomes.append(_collected(folder, run_cli, monkeypatch, args))
    without, with_mark = outcomes
    assert without[0] == 0, without[2]
    assert with_mark == without


def _project(root: Path) -> Path:
    return make_tiny_project(root)


PROJECT_FILES = ["measurements/tiny/job-a.json", "families/tiny/study.yaml",
                 "measurements/tiny/datasets/tiny-val-8.json", "templates/tiny.md.j2"]


@pytest.mark.parametrize("relative", PROJECT_FILES)
def test_a_byte_order_mark_on_a_project_file_changes_nothing(relative, tmp_path, run_cli):
    plain = _project(tmp_path / "plain")
    marked = _project(tmp_path / "marked")
    path = marked / relative
    path.write_text(BOM + path.read_text(encoding="utf-8"), encoding="utf-8")
    rendered = [run_cli("render", "--root", root) for root in (plain, marked)]
    assert rendered[0].exit_code == 0 and (rendered[1].exit_code, rendered[1].err) == (0, "")
    readmes = [(root / "families" / "tiny" / "README.md").read_bytes() for root in (plain, marked)]
    assert readmes[1] == readmes[0] and not readmes[1].startswith(BOM.encode("utf-8"))
    checked = [run_cli("check", "--root", root, "--no-cache") for root in (plain, marked)]
    assert (checked[1].exit_code, checked[1].out) == (checked[0].exit_code, checked[0].out)


def test_a_byte_order_mark_on_a_markdown_file_changes_nothing_for_lint(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    document = ("# Latency\n\nFP8 is 2x faster than fp16 here.\n\n| GPU | fp16 (ms) | FP8 (ms) |\n| --- | --- | --- |\n"
                "| H100 | 2.5 | 2.0 |\n")
    (tmp_path / "plain.md").write_text(document, encoding="utf-8")
    (tmp_path / "marked.md").write_text(BOM + document, encoding="utf-8")
    plain, marked = (run_cli("lint", name, "--format", "json") for name in ("plain.md", "marked.md"))
    found = [json.loads(done.out) for done in (plain, marked)]
    assert found[0], "the document must give lint something to find"
    assert [{**f, "file": "plain.md"} for f in found[1]] == found[0]
    assert marked.exit_code == plain.exit_code


def test_a_file_of_only_a_byte_order_mark_is_empty(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "input.log").write_text(BOM + "\n", encoding="utf-8")
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--measurements", "m", "--log", "input.log")
    assert (done.exit_code, done.err) == (2, "studygen: input.log: file is empty\n")
    assert not (tmp_path / "m").exists()


WIDE = [("utf-16", "UTF-16LE (byte order mark FF FE)"), ("utf-16-be", "UTF-16BE"),
        ("utf-16-le", "UTF-16LE"), ("utf-32", "UTF-32LE (byte order mark FF FE 00 00)")]


@pytest.mark.parametrize("codec, named", WIDE)
@pytest.mark.parametrize("relative", PROJECT_FILES)
def test_a_project_file_saved_as_utf_16_or_32_is_one_line_naming_its_encoding(relative, codec, named, tmp_path,
                                                                             run_cli):
    # attack round: it read "binary file (NUL bytes), not text", which sends a person looking for a binary
    root = _project(tmp_path)
    path = root / relative
    text = path.read_text(encoding="utf-8")
    path.write_bytes((BOM + text).encode(codec) if codec == "utf-16-be" else text.encode(codec))
    if codec == "utf-16-be":  # with its byte order mark
        named = "UTF-16BE (byte order mark FE FF)"
    told = f"{named} text, not UTF-8: studygen reads UTF-8 only (save the file as UTF-8)"
    if relative.endswith(".j2"):
        told = f"template cannot be read: {told}"
    rendered = run_cli("render", "--root", root)
    assert rendered.exit_code != 0 and "Traceback" not in rendered.err
    assert rendered.err == f"studygen: {relative}:1: {told}\n"
    checked = run_cli("check", "--root", root, "--no-cache")
    assert checked.exit_code == 1 and checked.err == ""
    assert [line for line in checked.out.splitlines() if told in line] == [
        f"families/tiny/study.yaml: SG201 cannot render: {relative}:1: {told}" if relative.endswith(".j2")
        else f"{relative}:1: SG202 {told}"]


def test_binary_data_is_still_named_binary(tmp_path):
    from studygen.errors import InputError
    from studygen.textio import decode_text, wide_unicode

    assert wide_unicode(b"\x7fELF\x02\x01\x01\x00\x00\x00") is None
    assert wide_unicode(b"\x00\x01\x02") is None and wide_unicode(b"\x01\x00\x02\x00") is None  # NULs every other byte
    assert wide_unicode("a\tb\r\n".encode("utf-16-le")) == "UTF-16LE"
    assert wide_unicode("{}".encode("utf-16-le")) == "UTF-16LE"
    assert wide_unicode("{}".encode("utf-16-be")) == "UTF-16BE"
    with pytest.raises(InputError, match=r"binary file \(NUL bytes\), not text$"):
        decode_text(b"\x7fELF\x02\x01\x01\x00\x00\x00", "x")
