"""Names become file names and paths: matched whole (a trailing newline is
no letter, whatever ``$`` means in Python's ``re``), bounded in length (a
clear error, not "File name too long"), and ``collect`` writes a family's
records where its study reads them (the study file's ``measurements:``).
Issue 24: variant names follow the rule of job ids (collect run names files
after them), no name is a Windows device name, and no record is written
beside one whose name differs in case only (one file on macOS and Windows)."""

from __future__ import annotations

import json

import pytest
import yaml

from studygen.errors import UsageError
from studygen.records.schemas import schema_errors
from studygen.records.names import MAX_NAME_LENGTH, validate_family_name, validate_job_id
from tests.collect.conftest import TRTEXEC
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import make_tiny_project, run_record, study_spec

LOG = TRTEXEC / "trt10.16_build-and-run.log"  # 6 results
# an fp16 build (line 11 "Precision: FP32+FP16"), as the tiny study's fp16 variant needs: 5 results
FP16_LOG = TRTEXEC.parent / "public" / "hackathon-76321b19_trt8.4.1_result-FP16.log"


@pytest.mark.parametrize("check, what", [(validate_family_name, "family name"), (validate_job_id, "job id")])
def test_a_trailing_newline_is_no_part_of_a_name(check, what):
    assert check("ok-1") == "ok-1"
    with pytest.raises(UsageError) as raised:
        check("ok-1\n")
    assert raised.value.line() == f"invalid {what} 'ok-1\\n': use letters, digits, " + (
        "'_' and '-'" if what == "family name" else "'.', '_' and '-' (not first)")


@pytest.mark.parametrize("check, what", [(validate_family_name, "family name"), (validate_job_id, "job id")])
def test_a_name_longer_than_the_limit_is_refused_by_its_length(check, what):
    assert check("a" * MAX_NAME_LENGTH) == "a" * MAX_NAME_LENGTH
    with pytest.raises(UsageError) as raised:
        check("a" * (MAX_NAME_LENGTH + 1))
    assert raised.value.line() == (f"invalid {what} {'a' * 40!r}… ({MAX_NAME_LENGTH + 1} characters): at most "
                                   f"{MAX_NAME_LENGTH} (it becomes a file name)")


@pytest.mark.parametrize("kind, pointer, document", [
    ("study", "/family", {**study_spec(), "family": "tiny\n"}),
    ("run", "/job_id", {**run_record(), "job_id": "job-a\n"}),
    ("run", "/family", {**run_record(), "family": "tiny\n"}),
])
def test_schema_patterns_end_at_the_end_of_the_text_as_in_ecma_262(kind, pointer, document):
    # jsonschema searches with Python's re, where `$` also matches before a final newline
    errors = schema_errors(kind, document)
    assert (pointer, f"{document[pointer[1:]]!r} does not match {'^[A-Za-z0-9_-]+$' if pointer == '/family' else '^[A-Za-z0-9][A-Za-z0-9._-]*$'!r}") in errors
    fixed = {**document, pointer[1:]: document[pointer[1:]].rstrip("\n")}
    assert schema_errors(kind, fixed) == []


def test_a_shape_with_a_trailing_newline_is_refused(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--measurements", "m", "--log", LOG,
                   "--shape", "640x640\n")
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == ("studygen: invalid --shape '640x640\\n': use HxW in pixels, each a whole number above 0, "
                        "e.g. 800x1067\n")
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize("option, value, what", [("--job", "j" * 300, "job id"), ("--family", "f" * 300, "family name"),
                                                 ("--job", "j\n", "job id")])
def test_collect_refuses_long_and_newline_names_before_writing(tmp_path, run_cli, monkeypatch, option, value, what):
    monkeypatch.chdir(tmp_path)
    names = {"--family": "demo", "--job": "j1", option: value}
    done = run_cli("collect", "trtexec", "--family", names["--family"], "--job", names["--job"],
                   "--measurements", "m", "--log", LOG)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err.count("\n") == 1 and done.err.startswith(f"studygen: invalid {what} ")
    assert "Traceback" not in done.err and "too long" not in done.err
    assert not (tmp_path / "m").exists()


def _project_reading_records_from(root, folder: str):
    make_tiny_project(root, records=[])
    study = root / "families" / "tiny" / "study.yaml"
    study.write_text(yaml.safe_dump({**study_spec(), "measurements": folder}, sort_keys=False), encoding="utf-8")
    return root


def test_collect_writes_where_the_study_file_says_its_records_are(tmp_path, run_cli, monkeypatch):
    root = _project_reading_records_from(tmp_path / "project", "data/tiny-records")
    monkeypatch.chdir(root / "families" / "tiny")  # the project root is found above the working folder
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j1", "--variant", "fp16", "--log", FP16_LOG)
    assert done.exit_code == 0, done.err
    assert done.out.splitlines()[0] == f"wrote {root}/data/tiny-records/j1.json: 5 result(s) added (new record)"
    record = json.loads((root / "data" / "tiny-records" / "j1.json").read_text(encoding="utf-8"))
    assert len(record["results"]) == 5
    assert not (root / "measurements" / "tiny" / "j1.json").exists()


def test_collect_refuses_a_measurements_folder_in_the_project_the_study_does_not_read(tmp_path, run_cli,
                                                                                      monkeypatch):
    root = _project_reading_records_from(tmp_path / "project", "data/tiny-records")
    monkeypatch.chdir(root)
    before = snapshot(root)
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j1", "--variant", "fp16", "--log", FP16_LOG,
                   "--measurements", "measurements")
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == ("studygen: --measurements measurements writes measurements/tiny/, but "
                        "families/tiny/study.yaml reads the records of tiny from data/tiny-records/: leave "
                        "--measurements out, or give a folder outside the project for a record that belongs to "
                        "no study\n")
    assert snapshot(root) == before
    # the folder the study reads, named explicitly, is accepted
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j1", "--variant", "fp16", "--log", FP16_LOG,
                   "--measurements", "data")
    assert done.exit_code == 2 and "reads the records of tiny from data/tiny-records/" in done.err
    outside = tmp_path / "elsewhere"
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j1", "--variant", "fp16", "--log", FP16_LOG,
                   "--measurements", outside)
    assert done.exit_code == 0, done.err
    assert (outside / "tiny" / "j1.json").is_file()


def test_a_study_measurements_folder_outside_the_project_is_refused(tmp_path, run_cli, monkeypatch):
    root = _project_reading_records_from(tmp_path / "project", "../escape")
    monkeypatch.chdir(root)
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j1", "--variant", "fp16", "--log", FP16_LOG)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == f"studygen: refusing to write {root}/../escape/j1.json: outside {root}\n"
    assert not (tmp_path / "escape").exists()


# ---- issue 24, item 10: traversal, device names, look-alikes ----

@pytest.mark.parametrize("option, value, refusal", [
    ("--variant", "../x", "invalid variant name '../x': use letters, digits"),
    ("--variant", "a/b", "invalid variant name 'a/b': use letters, digits"),
    ("--variant", "/tmp/abs", "invalid variant name '/tmp/abs': use letters, digits"),
    ("--variant", "fp16\n", "invalid variant name 'fp16\\n': use letters, digits"),
    ("--variant", "fр16", "invalid variant name 'fр16': use letters, digits"),  # a Cyrillic р
    ("--variant", "COM1", "invalid variant name 'COM1': COM1 names a device on Windows"),
    ("--job", "CON", "invalid job id 'CON': CON names a device on Windows"),
    ("--job", "con.json", "invalid job id 'con.json': con names a device on Windows"),
    ("--job", "LPT1.x", "invalid job id 'LPT1.x': LPT1 names a device on Windows"),
    ("--family", "NUL", "invalid family name 'NUL': NUL names a device on Windows"),
    ("--family", "aux", "invalid family name 'aux': aux names a device on Windows"),
])
def test_collect_refuses_names_no_file_may_have_before_writing(tmp_path, run_cli, monkeypatch, option, value, refusal):
    # before: each wrote a record (m/d/CON.json, m/NUL/j.json, a variant '../x' in m/d/j.json, ...)
    monkeypatch.chdir(tmp_path)
    names = {"--family": "d", "--job": "j", "--variant": "fp16", option: value}
    done = run_cli("collect", "trtexec", *[part for pair in names.items() for part in pair], "--measurements", "m",
                   "--log", LOG)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err.startswith(f"studygen: {refusal}") and done.err.count("\n") == 1, done.err
    assert not (tmp_path / "m").exists()


def test_collect_refuses_a_record_beside_one_whose_name_differs_in_case_only(tmp_path, run_cli, monkeypatch):
    root = make_tiny_project(tmp_path / "project")
    monkeypatch.chdir(root)
    before = snapshot(root)
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "JOB-A", "--variant", "fp16", "--log", FP16_LOG)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == ("studygen: refusing to write measurements/tiny/JOB-A.json: measurements/tiny/job-a.json "
                        "differs from it in case only, and macOS and Windows hold the two as one file; use that name "
                        "or another one\n")
    assert snapshot(root) == before
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "job-b", "--variant", "fp16", "--log", FP16_LOG)
    assert done.exit_code == 0, done.err  # another name is fine


def test_a_family_folder_that_differs_in_case_only_is_refused(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--measurements", "m", "--log",
                   LOG).exit_code == 0
    done = run_cli("collect", "trtexec", "--family", "Demo", "--job", "k", "--measurements", "m", "--log", LOG)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err.startswith("studygen: refusing to write m/Demo/k.json: m/demo differs from it in case only")
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["demo"]


@pytest.mark.parametrize("edit, pointer, reason", [
    (lambda s: s["variants"][1].update(name="../../fp8"), "/variants/1/name",
     "'../../fp8' does not match '^[A-Za-z0-9][A-Za-z0-9._-]*$'"),
    (lambda s: s["variants"][1].update(name="fp8\u0000x"), "/variants/1/name",
     "'fp8\\x00x' does not match '^[A-Za-z0-9][A-Za-z0-9._-]*$'"),
    (lambda s: s["variants"][1].update(name="FP16"), "/variants/1/name",
     "variant name 'FP16' repeats 'fp16' (/variants/0/name), in case only or as it is: one file name on macOS and "
     "Windows"),
    (lambda s: s["variants"][1].update(name="fp16"), "/variants/1/name",
     "variant name 'fp16' repeats 'fp16' (/variants/0/name), in case only or as it is: one file name on macOS and "
     "Windows"),
    (lambda s: s["variants"][1].update(name="Aux.2"), "/variants/1/name",
     "invalid variant name 'Aux.2': Aux names a device on Windows, where no file or folder can be named so (whatever "
     "follows a dot)"),
])
def test_a_study_file_whose_variant_names_cannot_name_files_is_refused_at_its_line(tmp_path, run_cli, edit, pointer,
                                                                                   reason):
    # before: accepted, and collect run would write detections/<job>/../../fp8.json
    root = make_tiny_project(tmp_path / "project")
    spec = study_spec()
    edit(spec)
    study = root / "families" / "tiny" / "study.yaml"
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    line = [n for n, text in enumerate(study.read_text(encoding="utf-8").splitlines(), 1)
            if text.lstrip().startswith("- name:")][1]  # the second variant's
    done = run_cli("check", "--root", root)
    assert done.exit_code == 1
    assert f"families/tiny/study.yaml:{line}: SG202 {reason} ({pointer})" in done.out.splitlines(), done.out


@pytest.mark.parametrize("run, pointer, reason", [
    ({"shapes": ["640 x 640"], "modes": ["eager"]}, "/run/shapes/0", "'640 x 640' does not match '^[1-9][0-9]*x[1-9][0-9]*$'"),
    ({"shapes": ["640x640"], "modes": ["eager", "compiled"]}, "/run/modes/1",
     "'compiled' is not one of ['eager', 'compile']"),
    ({"shapes": ["640x640"], "modes": ["compile"], "compile_shapes": ["640X640"]}, "/run/compile_shapes/0",
     "'640X640' does not match '^[1-9][0-9]*x[1-9][0-9]*$'"),
])
def test_a_run_block_spelling_a_shape_or_mode_collect_run_refuses_is_an_invalid_study_file(tmp_path, run_cli, run,
                                                                                           pointer, reason):
    # before: check passed the study file and SG219 then said the declared "640 x 640" cells had no result
    root = make_tiny_project(tmp_path / "project")
    spec = study_spec()
    spec["run"] = run
    study = root / "families" / "tiny" / "study.yaml"
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    done = run_cli("check", "--root", root)
    assert done.exit_code == 1
    assert [line for line in done.out.splitlines() if "SG202" in line][0].endswith(f"SG202 {reason} ({pointer})"), \
        done.out
