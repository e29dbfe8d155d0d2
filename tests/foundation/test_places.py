"""One location type: errors, load problems and findings carry a Place, and
one function turns an error (or a load problem) into a finding. The printed
forms are the contract, one for both (``Place.said``): ``path:N: message
(pointer)`` for an error that knows its line and pointer, ``path:N: message``
or ``path:/pointer: message`` for one that knows one of them, and
``path:N: CODE message (pointer)`` for a finding."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from studygen.errors import InputError, RecordError, StudygenError, TemplateError
from studygen.findings import Finding, error_finding, format_github, format_json, format_text
from studygen.place import Place
from studygen.records.load import load_record
from studygen.study import Problem

PACKAGE = Path(__file__).resolve().parents[2] / "studygen"


def test_error_prints_its_line_or_its_pointer():
    assert RecordError("malformed JSON: x", path="r.json", line=4).line() == "r.json:4: malformed JSON: x"
    assert RecordError("bad type", path="r.json", pointer="/results/3/value_ms").line() == "r.json:/results/3/value_ms: bad type"
    # a schema error knows both: it prints them as the finding at the same place does, the line first (where an
    # editor jumps), the pointer after the message (which field). Before, render said "r.json:/results/3/value_ms:
    # bad type" where check said "r.json:12: SG202 bad type (/results/3/value_ms)"
    both = RecordError("bad type", path="r.json", line=12, pointer="/results/3/value_ms")
    assert both.line() == "r.json:12: bad type (/results/3/value_ms)"
    assert format_text([error_finding("SG202", both)]).splitlines()[0] == "r.json:12: SG202 bad type (/results/3/value_ms)"
    assert both.place == Place("r.json", 12, "/results/3/value_ms")
    assert InputError("no such file", path="x.log").line() == "x.log: no such file"
    assert StudygenError("no project root").line() == "no project root"
    assert str(TemplateError("undefined", path="t.md.j2", line=3)) == "t.md.j2:3: undefined"


def test_error_path_and_where_read_its_place():
    error = RecordError("m", path="s.yaml", pointer="/run/shapes/0")
    assert (error.path, error.where) == ("s.yaml", "/run/shapes/0")
    assert RecordError("m", path="s.yaml", line=7).where == "line 7"
    assert RecordError("m").path is None and RecordError("m").where is None
    given = Place("a.json", 2, "/b")
    assert RecordError("m", place=given).place is given


def test_where_argument_is_gone():
    # a place is a Place (or line=/pointer=), never a string parsed back
    with pytest.raises(TypeError, match="where"):
        RecordError("m", path="p", where="line 5")
    with pytest.raises(TypeError, match="where"):
        StudygenError("m", where="/images/1/sha256")


def _error_classes() -> set[str]:
    """Names of StudygenError and every subclass of it, however deep."""
    found, todo = set(), [StudygenError]
    while todo:
        cls = todo.pop()
        found.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return found


def where_arguments(source: str, error_classes: set[str]) -> list[int]:
    """Lines of ``source`` that call an error class (by name, or as an
    attribute such as ``errors.InputError``) with a ``where=`` keyword."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if callee in error_classes and any(keyword.arg == "where" for keyword in node.keywords):
            lines.append(node.lineno)
    return lines


def test_where_scan_sees_every_form_of_the_call():
    classes = _error_classes()
    assert {"StudygenError", "UsageError", "InputError", "RecordError", "TemplateError", "ConflictError"} <= classes
    source = ('raise InputError("m", path=p, where=f"line {n}")\n'
              'x = errors.RecordError("m",\n    where="/a")\n'
              'y = InputError("m", path=p, line=3)\n'
              'z = np.divide(a, b, where=b > 0)\n')
    assert where_arguments(source, classes) == [1, 2]


def test_no_module_passes_where_to_an_error():
    classes = _error_classes()
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50 and PACKAGE / "errors.py" in modules
    offenders = [f"{path.relative_to(PACKAGE.parent)}:{line}"
                 for path in modules
                 for line in where_arguments(path.read_text(encoding="utf-8"), classes)]
    assert offenders == [], "give line=N, pointer='/…' or place=Place(...), not where=: " + ", ".join(offenders)


def test_finding_place_and_every_output_form():
    finding = Finding("SG202", "'fast' is not of type 'number'", "r.json", line=12, pointer="/results/3/value_ms")
    assert finding.place == Place("r.json", 12, "/results/3/value_ms")
    assert str(finding.place) == "r.json:12"
    assert str(Finding("SG202", "m", "r.json", pointer="/count").place) == "r.json:/count"
    assert str(Finding("SG202", "m", "r.json").place) == "r.json"
    assert str(Place()) == "" and str(Place(line=3, pointer="/a")) == ""
    assert format_text([finding]).splitlines()[0] == "r.json:12: SG202 'fast' is not of type 'number' (/results/3/value_ms)"
    assert format_github([finding]).splitlines()[0] == (
        "::error file=r.json,line=12,title=SG202::SG202 'fast' is not of type 'number' (/results/3/value_ms)")
    (shown,) = json.loads(format_json([finding]))
    assert list(shown) == ["code", "message", "file", "line", "severity", "hint", "pointer", "key", "detail", "waived_reason"]
    assert (shown["file"], shown["line"], shown["pointer"]) == ("r.json", 12, "/results/3/value_ms")
    assert Finding.at(Place("r.json", 12, "/results/3/value_ms"), "SG202", "'fast' is not of type 'number'") == finding


def test_one_conversion_from_error_to_finding():
    finding = error_finding("SG202", RecordError("bad", path="r.json", line=9, pointer="/job_id"), hint="fix it")
    assert (finding.code, finding.message, finding.place, finding.hint) == ("SG202", "bad", Place("r.json", 9, "/job_id"), "fix it")
    # a line only stays a line only; a file comes from ``path`` when the error names none
    assert error_finding("SG202", RecordError("bad", path="s.yaml", line=3)) == Finding("SG202", "bad", "s.yaml", line=3)
    assert error_finding("SG202", RecordError("bad"), path="families/x").place == Place("families/x")
    assert error_finding("SG202", RecordError("bad")) == Finding("SG202", "bad", "")
    assert error_finding("SG202", RecordError("bad", path="s.yaml"), path="families/x").file == "s.yaml"
    problem = Problem.at("d.json", "count 3 but 2 image ids listed", "/count")
    assert error_finding("SG202", problem).place == Place("d.json", 0, "/count")


def test_problem_of_a_load_error_keeps_its_place_and_raises_it_again(tmp_path):
    path = tmp_path / "job.json"
    path.write_text('{\n  "schema_version": 7\n}\n', encoding="utf-8")
    with pytest.raises(RecordError) as raised:
        load_record(path, "measurements/f/job.json")
    assert raised.value.place == Place("measurements/f/job.json", 2, "/schema_version")
    problem = Problem.of_error(raised.value, "shown/job.json")
    assert (problem.path, problem.line, problem.pointer) == ("shown/job.json", 2, "/schema_version")
    assert problem.error().line() == ("shown/job.json:2: schema_version 7 is newer than this studygen reads (4); upgrade "
                                      "studygen (/schema_version)")
    # the whole document ("/") is no place worth a pointer: its line says as much
    path.write_text("[1]\n", encoding="utf-8")
    with pytest.raises(RecordError) as raised:
        load_record(path, "job.json")
    assert raised.value.line() == "job.json:1: top level must be a JSON object (/)"
    assert Problem.of_error(raised.value, "job.json").place == Place("job.json", 1, None)
    assert Problem.of_error(raised.value, "job.json").error().line() == "job.json:1: top level must be a JSON object"
