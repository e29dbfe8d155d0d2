"""Records and templates that parse but must not become figures: refused with one line."""

from __future__ import annotations

import json
import shutil

import pytest

RECORD = "measurements/deformable_detr/b200-trt11.4.json"
README = "families/deformable_detr/README.md"


def _replace(project, relative, old, new, count=1):
    path = project / relative
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, count))


@pytest.mark.parametrize("written, message", [
    ("1e400", "number 1e400 is out of range (not a finite double)"),
    ("-1E+400", "number -1E+400 is out of range (not a finite double)"),
    # an underflow read as 0 rendered "5.850 ms against 0.0 ms" and "0.00x", check at 0 errors
    ("1e-400", "number 1e-400 is out of range (too small for a double: it would read as 0)"),
    ("0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
     "000000000000000000000000000000000000000000000000000000000003", "number 0.0000000000…0000000003 is out of "
     "range (too small for a double: it would read as 0)"),
    ("5e-324", "number 5e-324 is out of range (below the smallest normal double, 2.225e-308; no measurement "
               "is that small)"),
    ("9" * 400, "integer 999999999999…9999999999 (400 digits) is out of range (beyond a double's range, about 1.8e308)"),
    ("-" + "2" * 309, "integer -22222222222…2222222222 (309 digits) is out of range (beyond a double's range, about 1.8e308)"),
])
def test_numbers_out_of_a_doubles_range_are_refused_at_their_pointer(project, run_cli, written, message):
    # a 400-digit integer was "templates/deformable_detr.md.j2:7: template error: int too large to
    # convert to float" in render and an internal error in check: neither named the record
    _replace(project, RECORD, '"value_ms": 5.889', f'"value_ms": {written}')
    line = next(i + 1 for i, text in enumerate((project / RECORD).read_text().splitlines()) if written in text)
    before = (project / README).read_bytes()
    render = run_cli("render", "--root", project)
    assert render.err == f"studygen: {RECORD}:{line}: malformed JSON: {message} (/results/0/value_ms)\n"
    assert render.exit_code == 2 and (project / README).read_bytes() == before
    check = run_cli("check", "--root", project)
    assert check.exit_code == 1
    assert f"{RECORD}:{line}: SG202 malformed JSON: {message} (/results/0/value_ms)\n" in check.out


def test_numbers_a_double_holds_are_read_as_written():
    from studygen.textio import parse_json

    document = parse_json('{"a": 0.0, "b": -0.0, "c": 0e5, "d": 2.2250738585072014e-308, "e": 1e-300, '
                          '"f": -' + "9" * 308 + ', "g": 1.7976931348623157e308}', "r.json")
    assert document == {"a": 0.0, "b": 0.0, "c": 0.0, "d": 2.2250738585072014e-308, "e": 1e-300,
                        "f": -int("9" * 308), "g": 1.7976931348623157e308}
    assert parse_json("-" + "1" * 309, "r.json") == -int("1" * 309)  # 309 digits, within a double
    assert document["f"] == -(10 ** 308 - 1) and document["d"].source == "2.2250738585072014e-308"


@pytest.mark.parametrize("old, new, message", [
    ('"value_ms": 5.889', '"value_ms": NaN', "malformed JSON: NaN is not valid JSON"),
    ('"value_ms": 5.889', '"value_ms": 5.889, "value_ms": 99.0', "malformed JSON: duplicate key 'value_ms' (the last would silently win)"),
])
def test_values_that_would_become_wrong_figures(project, run_cli, old, new, message):
    _replace(project, RECORD, old, new)
    line = next(i + 1 for i, text in enumerate((project / RECORD).read_text().splitlines()) if new.split(",")[-1].strip() in text)
    render = run_cli("render", "--root", project)
    assert render.exit_code == 2
    assert render.err == f"studygen: {RECORD}:{line}: {message}\n"
    check = run_cli("check", "--root", project)
    assert check.exit_code == 1
    assert f"{RECORD}:{line}: SG202 {message}" in check.out


def test_deep_nesting_is_refused_not_a_crash(project, run_cli):
    _replace(project, RECORD, '"notes": [', '"deep": ' + "[" * 100000 + "]" * 100000 + ', "notes": [')
    text = (project / RECORD).read_text(encoding="utf-8")
    line = text[: text.index('"deep": ')].count("\n") + 1  # every bracket on one line: level 101 opens there
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    assert result.err == f"studygen: {RECORD}:{line}: malformed JSON: nested too deeply to read (the limit is 100 levels)\n"


def test_nesting_past_the_limit_that_python_can_parse_is_refused_at_its_pointer(project, run_cli):
    # the record's object is level 1, so 100 lists in it reach level 101: they parse, but the schema
    # checker and the writers recurse. Refused at the list on level 101
    _replace(project, RECORD, '"notes": [', '"deep": ' + "[" * 100 + "]" * 100 + ', "notes": [')
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    pointer = "/deep" + "/0" * 99
    assert result.err == (f"studygen: {RECORD}:{pointer}: nested more than 100 levels deep (lists or mappings); "
                          "the limit is 100\n")  # no line known: the pointer alone, as check prints it too
    line = _line_of(project, RECORD, '"deep": [[')
    _replace(project, RECORD, "[" * 100 + "]" * 100, "[" * 99 + "]" * 99)  # level 100: only the schema refuses it
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2 and "nested more than" not in result.err
    assert result.err == (f"studygen: {RECORD}:{line}: Additional properties are not allowed ('deep' was unexpected) "
                          "(/deep)\n")


def test_undeclared_variant_is_sg202(project, run_cli):
    _replace(project, "measurements/deformable_detr/pytorch-fp32-reference.json", '"variant": "fp32"', '"variant": "int4"')
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert ("measurements/deformable_detr/pytorch-fp32-reference.json:33: SG202 variant 'int4' is not declared in "
            "families/deformable_detr/study.yaml (declared: fp16, fp32, fp8-recipe72, fp8-recipe72-heads) (/results/0/variant)"
            ) in result.out


def test_job_id_must_match_file_name(project, run_cli):
    shutil.copy(project / RECORD, project / "measurements/deformable_detr/copy.json")
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert ("measurements/deformable_detr/copy.json:3: SG202 job_id 'b200-trt11.4' differs from the file name 'copy.json' (/job_id)"
            in result.out)


def test_printing_a_row_set_is_a_template_error(project, run_cli):
    _replace(project, "templates/deformable_detr.md.j2", "{{ study.decision.summary }}",
             "{{ study.decision.summary }} {{ study.figures(kind='latency') }}")
    result = run_cli("render", "--root", project)
    assert result.exit_code == 1
    assert "a set of figures cannot be printed as it is" in result.err


def test_unknown_filter_is_a_template_error(project, run_cli):
    _replace(project, "templates/deformable_detr.md.j2", "{{ study.decision.summary }}",
             "{{ study.span(study.figures(kind='latency', varaint='fp16')) }}")
    result = run_cli("render", "--root", project)
    assert result.exit_code == 1
    assert "unknown filter varaint" in result.err
    assert result.err.startswith("studygen: templates/deformable_detr.md.j2:"), result.err
    assert result.err.split(":")[2].isdigit(), result.err  # the template line


def test_readme_that_is_a_folder(project, run_cli):
    (project / README).unlink()
    (project / README).mkdir()
    render = run_cli("render", "--root", project)
    assert render.exit_code == 2
    assert render.err.startswith("studygen: ") and "cannot write: Is a directory" in render.err
    check = run_cli("check", "--root", project)
    assert check.exit_code == 1
    assert f"{README}: SG201 cannot be read: is a folder, not a file" in check.out


def test_dollar_signs_in_a_gpu_name_are_text(project, run_cli):
    path = project / "measurements/deformable_detr/b300-trt11.4.json"
    data = json.loads(path.read_text())
    data["provenance"]["gpu"] = "NVIDIA $\\frac{x$ B300"
    path.write_text(json.dumps(data, indent=2) + "\n")
    assert run_cli("render", "--root", project).exit_code == 0
    assert "$\\\\frac{x$ B300" in (project / README).read_text() or "frac{x" in (project / README).read_text()


def test_a_truncated_dataset_definition_is_one_finding(project, run_cli):
    # the trial found 1 SG202 and 14 knock-on SG205 "has no definition" for the results naming it
    path = project / "measurements/deformable_detr/datasets/coco2017-val-heldout-400.json"
    path.write_text(path.read_text()[:40])
    result = run_cli("check", "--root", project, "--format", "json")
    findings = [f for f in json.loads(result.out) if f["severity"] == "error"]
    assert [(f["code"], f["file"]) for f in findings] == [
        ("SG202", "measurements/deformable_detr/datasets/coco2017-val-heldout-400.json")]


def test_a_fifo_named_like_a_record_is_refused_not_waited_on(project, run_cli):
    import os

    os.mkfifo(project / "measurements/deformable_detr/pipe.json")
    result = run_cli("check", "--root", project, "--format", "json")
    problems = [f for f in json.loads(result.out) if f["code"] == "SG202"]
    assert [(f["file"], f["message"]) for f in problems] == [
        ("measurements/deformable_detr/pipe.json", "is a FIFO (named pipe), not a regular file")]


def test_a_record_above_the_document_limit_is_refused(project, run_cli):
    path = project / RECORD
    data = json.loads(path.read_text())
    data["description"] = "x" * (16 * 2**20)
    path.write_text(json.dumps(data))
    result = run_cli("check", "--root", project, "--format", "json")
    problems = [f for f in json.loads(result.out) if f["code"] == "SG202"]
    assert len(problems) == 1 and problems[0]["file"] == RECORD
    assert problems[0]["message"].endswith("bytes; the limit is 16777216 bytes (16 MiB)")


def test_a_byte_order_mark_is_read_past_as_in_every_text_input():
    from studygen.textio import parse_json

    assert parse_json('\ufeff{"schema_version": 1}', "r.json") == {"schema_version": 1}


@pytest.mark.parametrize("text, message", [
    ('{"schema_version": ' + "9" * 5000 + "}",
     "1: malformed JSON: integer 999999999999…9999999999 (5000 digits) is out of range (beyond a double's "
     "range, about 1.8e308) (/schema_version)"),
])
def test_json_refusals_speak_of_the_file_not_of_python(text, message):
    from studygen.errors import RecordError
    from studygen.textio import parse_json

    with pytest.raises(RecordError) as refused:
        parse_json(text, "r.json")
    assert refused.value.line() == "r.json:" + message


def test_a_zero_shape_in_a_record_is_sg202(project, run_cli):
    _replace(project, RECORD, '"shape": "800x800"', '"shape": "0x800"')
    result = run_cli("check", "--root", project, "--format", "json")
    problems = [f for f in json.loads(result.out) if f["code"] == "SG202"]
    assert len(problems) == 1 and problems[0]["file"] == RECORD
    assert problems[0]["message"] == "'0x800' does not match '^[1-9][0-9]*x[1-9][0-9]*$'"


def test_a_misspelt_key_is_placed_at_itself_not_at_its_object(project, run_cli):
    # An unexpected key used to be placed at the object holding it (the study file's line 1 for a
    # top-level typo), and a misspelt required key was reported as the required key missing.
    study = project / "families/deformable_detr/study.yaml"
    text = study.read_text(encoding="utf-8")
    assert text.count("\ndescription:") == 1 and text.count("    precision: fp32\n") == 1
    line_of_description = text[:text.index("\ndescription:")].count("\n") + 2
    study.write_text(text.replace("\ndescription:", "\ndescripton:"), encoding="utf-8")
    result = run_cli("check", "--root", project)
    assert (f"families/deformable_detr/study.yaml:{line_of_description}: SG202 Additional properties are not "
            "allowed ('descripton' was unexpected) (/descripton)") in result.out
    text = text.replace("    precision: fp32\n", "    precison: fp32\n")
    study.write_text(text, encoding="utf-8")
    line_of_typo = text[:text.index("    precison: fp32")].count("\n") + 1
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    assert result.err == (f"studygen: families/deformable_detr/study.yaml:{line_of_typo}: Additional properties are not "
                          "allowed ('precison' was unexpected) (/variants/0/precison)\n")


def _line_of(project, relative, needle):
    return next(i + 1 for i, text in enumerate((project / relative).read_text().splitlines()) if needle in text)


@pytest.mark.parametrize("written", ["0", "-0.0", "0.0e5", "-1.5"])
def test_a_latency_that_is_not_positive_is_sg202_at_its_pointer(project, run_cli, written):
    # a median of 0 ms rendered as "5.850 ms against 0.0 ms" and "0.00x" with check at 0 errors
    _replace(project, RECORD, '"value_ms": 5.889', f'"value_ms": {written}')
    line = _line_of(project, RECORD, f'"value_ms": {written}')
    shown = {"0.0e5": "0.0"}.get(written, written)  # jsonschema prints the value read
    message = f"{shown} is less than or equal to the minimum of 0"
    before = (project / README).read_bytes()
    render = run_cli("render", "--root", project)
    assert (render.exit_code, render.err) == (2, f"studygen: {RECORD}:{line}: {message} (/results/0/value_ms)\n")
    assert (project / README).read_bytes() == before
    check = run_cli("check", "--root", project)
    assert check.exit_code == 1
    assert f"{RECORD}:{line}: SG202 {message} (/results/0/value_ms)\n" in check.out


@pytest.mark.parametrize("field", ["median_ms", "p99_ms"])
def test_a_distribution_statistic_of_zero_ms_is_refused(tmp_path, run_cli, field):
    from tests.conftest import copy_project

    project = copy_project(tmp_path / "project", families=("deformable_detr_h200_torch",))
    path = project / "measurements/deformable_detr_h200_torch/h200-eager.json"
    data = json.loads(path.read_text())
    result = next(i for i, r in enumerate(data["results"]) if field in r.get("distribution", {}))
    data["results"][result]["distribution"][field] = 0
    path.write_text(json.dumps(data, indent=2))
    check = run_cli("check", "--root", project, "--format", "json")
    problems = [(f["file"], f["message"], f["pointer"]) for f in json.loads(check.out) if f["code"] == "SG202"]
    assert problems == [("measurements/deformable_detr_h200_torch/h200-eager.json",
                         "0 is less than or equal to the minimum of 0", f"/results/{result}/distribution/{field}")]


def test_an_unexpected_key_that_cannot_print_on_one_line_keeps_its_objects_place(project, run_cli):
    # the key's own pointer would carry its newline into the message: the object's place is kept
    _replace(project, RECORD, '"notes": [', '"bad\\nkey": 1, "notes": [')
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    assert result.err == f"studygen: {RECORD}:1: Additional properties are not allowed ('bad\\nkey' was unexpected)\n"


def test_a_dataset_definition_refused_by_a_pointer_is_placed_at_its_line(project, run_cli):
    # As run records are: "path:line: CODE message (pointer)", never "path:/pointer:" (trial report).
    folder = project / "measurements/deformable_detr/datasets"
    (folder / "empty.json").write_text("{}\n")
    (folder / "renamed.json").write_text((folder / "coco2017-val-calib-256.json").read_text())
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert ("measurements/deformable_detr/datasets/empty.json:1: SG202 this studygen needs schema_version 1 for "
            "dataset definitions (/schema_version)") in result.out
    line = next(n for n, text in enumerate((folder / "renamed.json").read_text().splitlines(), 1) if '"dataset_id"' in text)
    assert (f"measurements/deformable_detr/datasets/renamed.json:{line}: SG202 dataset_id 'coco2017-val-calib-256' "
            "differs from the file name 'renamed.json' (/dataset_id)") in result.out
    assert ":/" not in result.out.replace("https:/", "")
