"""The schema checks shipped as generated source (studygen/records/schema_checks.py):
current with the schema files, used only for the schema text they were made
from, and replaced by checks compiled in the process for any other text."""

from __future__ import annotations

import json
import shutil

import pytest
import yaml

from studygen.records import schema_checks, schema_codegen, schemas
from studygen.textio import parse_json
from tests.conftest import REPO

SHIPPED_RECORD = REPO / "measurements" / "deformable_detr" / "b200-trt11.4.json"
SHIPPED_STUDY = REPO / "families" / "deformable_detr" / "study.yaml"


@pytest.fixture
def fresh_checks():
    """The cached checks made anew before and after the test (they read the schema folder once)."""
    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()
    yield
    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()


def test_the_committed_module_is_what_regeneration_writes_now():
    # fails after a schema edit (or a fastjsonschema upgrade) without python -m studygen.records.schema_codegen
    assert schema_codegen.TARGET.read_text(encoding="utf-8") == schema_codegen.generated_checks_source()
    assert schema_codegen.main(["--check"]) == 0


def test_it_records_each_schema_file_it_was_made_from():
    assert set(schema_checks.SOURCE_SHA256) == set(schemas.SCHEMA_FILES.values())
    for kind in schemas.SCHEMA_FILES:
        assert schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind))
        assert not schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind) + b"\n")
    assert set(schema_checks.DOCUMENT_CHECKS) == {"run", "study", "dataset"}
    assert set(schema_checks.RUN_RESULT_CHECKS) == set(json.loads(schemas.schema_bytes("run"))["$defs"]["result"]
                                                       ["properties"]["kind"]["enum"])


def test_the_shipped_schemas_are_checked_without_compiling(fresh_checks, monkeypatch):
    def no_compiling(schema):
        raise AssertionError("compiled in the process although the generated checks apply")

    monkeypatch.setattr(schemas, "compiled_check", no_compiling)
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    assert schemas.fast_run_check()(record)
    record["job_id"] = "bad job"
    assert not schemas.fast_run_check()(record)
    assert schemas.fast_document_check("study")(yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8")))


def test_an_edited_schema_is_compiled_in_the_process_not_checked_by_the_generated_code(
        fresh_checks, monkeypatch, tmp_path):
    edited = tmp_path / "schemas"
    shutil.copytree(schemas.SCHEMA_DIR, edited)
    run = json.loads((edited / schemas.SCHEMA_FILES["run"]).read_text(encoding="utf-8"))
    run["properties"]["job_id"]["maxLength"] = 8  # the shipped limit is 128
    (edited / schemas.SCHEMA_FILES["run"]).write_text(json.dumps(run), encoding="utf-8")
    study = json.loads((edited / schemas.SCHEMA_FILES["study"]).read_text(encoding="utf-8"))
    study["properties"]["family"]["maxLength"] = 3
    (edited / schemas.SCHEMA_FILES["study"]).write_text(json.dumps(study), encoding="utf-8")
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    study_file = yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8"))
    assert len(record["job_id"]) > 8 and len(study_file["family"]) > 3
    assert schemas.fast_run_check()(record) and schemas.fast_document_check("study")(study_file)  # shipped text

    for cached in (schemas.fast_run_check, schemas.fast_document_check):
        cached.cache_clear()
    monkeypatch.setattr(schemas, "SCHEMA_DIR", edited)
    assert not schemas.shipped_checks_apply("run", schemas.schema_bytes("run"))
    assert not schemas.fast_run_check()(record)  # the generated check (limit 128) would accept it
    assert not schemas.fast_document_check("study")(study_file)
    assert schemas.fast_document_check("dataset") is not None  # an unedited file keeps its generated check
    assert schemas.shipped_checks_apply("dataset", schemas.schema_bytes("dataset"))


def test_under_another_fastjsonschema_version_the_checks_are_compiled_in_the_process(fresh_checks, monkeypatch):
    # the generated code is what fastjsonschema FASTJSONSCHEMA_VERSION made; before it was shipped, every process
    # compiled the schema with the fastjsonschema installed, so an installed copy with another version must too
    import fastjsonschema

    compiled = []
    real = schemas.compiled_check
    monkeypatch.setattr(schemas, "compiled_check", lambda schema: compiled.append(schema) or real(schema))
    monkeypatch.setattr(fastjsonschema, "VERSION", "2.0.0")
    for kind in schemas.SCHEMA_FILES:
        assert not schemas.shipped_checks_apply(kind, schemas.schema_bytes(kind))
    record = parse_json(SHIPPED_RECORD.read_text(encoding="utf-8"), str(SHIPPED_RECORD))
    assert schemas.fast_run_check()(record)
    assert schemas.fast_document_check("study")(yaml.safe_load(SHIPPED_STUDY.read_text(encoding="utf-8")))
    assert len(compiled) >= 3  # the envelope, each result kind of the record, the study file


def _fastjsonschemas_own_checks(monkeypatch) -> dict:
    """``(table, key) -> validate`` as fastjsonschema writes each shipped check: names and messages
    formatted, each number's type tested twice, every referenced check called."""
    monkeypatch.setattr(schema_codegen, "lean_checks", lambda code: code)
    monkeypatch.setattr(schema_codegen, "with_shortcuts", lambda code, schema: code)
    checks = {}
    for _, table, key, code in schema_codegen._compiled_pieces()[1]:
        namespace: dict = {}
        exec(compile(code, f"<{table} {key}>", "exec"), namespace)  # noqa: S102 - fastjsonschema's own output
        checks[table, key] = namespace["validate"]
    return checks


def _accepts(check, document) -> bool:
    try:
        check(document)
    except schema_checks.JsonSchemaValueException:
        return False
    return True


def _entry_lists(value, path=()):
    """``(path, key)`` of every list of entries under a "kernels" key (directly, or in a mapping of lists
    as in compilations) or a "per_iteration" key within ``value``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("kernels", "per_iteration") and isinstance(item, list) and item:
                yield (*path, key), key
            elif key == "kernels" and isinstance(item, dict):
                yield from (((*path, key, name), "kernels") for name, entries in item.items() if entries)
            else:
                yield from _entry_lists(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _entry_lists(item, (*path, index))


BREAKINGS = {"kernels": (lambda e: e.pop("name"), lambda e: e.update(time_ms="0.5"), lambda e: e.update(grid=[1, 2]),
                         # the number tests (type_tested_once): a bool, a fraction or a negative where a count
                         # goes, a bool time; a count written 3.0 passes as fastjsonschema's own test lets it
                         lambda e: e.update(calls=True), lambda e: e.update(calls=2.5), lambda e: e.update(calls=3.0),
                         lambda e: e.update(grid=[1, 2, -1]), lambda e: e.update(block=[1, False, 1]),
                         lambda e: e.update(time_ms=True), lambda e: e.update(time_ms=-0.1)),
             "per_iteration": (lambda e: e.update(profiled_total_ms=-1), lambda e: e.update(surprise=1),
                               lambda e: e.update(profiled_total_ms=False))}


def _broken_kernel_entries(result: dict):
    """Copies of ``result`` with one referenced entry (the first or last of each kernel or per-iteration
    list) broken in each way its $def refuses: a kernel entry without a name, with a string time, with
    a grid of two numbers; a per-iteration entry with a negative total or an unknown key. The first two
    lists of each place (a group's kernels, a compilation's kernels by name, ...) of each result."""
    taken: dict = {}
    for path, key in _entry_lists(result):
        place = (key, tuple(step for step in path if isinstance(step, str))[:-1])
        taken[place] = taken.get(place, 0) + 1
        if taken[place] > 2:
            continue
        for index in (0, -1):
            for breaking in BREAKINGS[key]:
                broken = json.loads(json.dumps(result))
                entries = broken
                for step in path:
                    entries = entries[step]
                breaking(entries[index])
                yield broken


def test_unformatted_reference_names_change_no_answer(monkeypatch):
    """The generated checks (names of referenced checks left unformatted) accept and refuse exactly what
    fastjsonschema's own code does, over every shipped run record's envelope and results and copies of
    them with one kernel or per-iteration entry broken."""
    own = _fastjsonschemas_own_checks(monkeypatch)
    generated = {**{("DOCUMENT_CHECKS", k): f() for k, f in schema_checks.DOCUMENT_CHECKS.items()},
                 **{("RUN_RESULT_CHECKS", k): f() for k, f in schema_checks.RUN_RESULT_CHECKS.items()}}
    assert set(own) == set(generated)
    answers = {True: 0, False: 0}
    for path in sorted((REPO / "measurements").glob("*/*.json")):
        record = parse_json(path.read_text(encoding="utf-8"), str(path))
        cases = [(("DOCUMENT_CHECKS", "run"), record)]
        for result in record["results"]:
            key = ("RUN_RESULT_CHECKS", result["kind"])
            cases += [(key, result), *((key, broken) for broken in _broken_kernel_entries(result))]
            # a string enum (enum_as_set): a value in another case, a value of another type, each listed value
            cases += [(key, {**result, "backend": backend}) for backend in ("TensorRT", 7, "pytorch", "other")]
        for key, document in cases:
            answer = _accepts(own[key], document)
            assert _accepts(generated[key], document) == answer, (path.name, key)
            answers[answer] += 1
    assert answers[True] >= 80 and answers[False] >= 100  # every shipped result, and every broken copy refused
    assert answers[False] > answers[True]


def test_the_generated_checks_format_no_name_from_locals():
    """Failed before: each call of a referenced check (one per kernel entry) built its name with
    str.format(**locals()), copying every local of the calling function."""
    source = schema_codegen.TARGET.read_text(encoding="utf-8")
    calls = [line for line in source.splitlines() if line.lstrip().startswith("validate_")]
    assert len([line for line in calls if "[{" in line]) == 4 and not [line for line in calls if "locals()" in line]
    line = ('        validate____defs_dim3(data__grid, custom_formats, (name_prefix or "data") + '
            '".kernels[{data__kernels_x}].grid".format(**locals()))')
    assert schema_codegen.unformatted_reference_names(line) == line.removesuffix(".format(**locals()))") + ")"
    raising = '    raise JsonSchemaValueException("" + (name_prefix or "data") + ".a[{x}]".format(**locals()) + " must")'
    assert schema_codegen.unformatted_reference_names(raising) == raising


def test_the_generated_checks_format_no_message_and_test_each_numbers_type_once():
    """Failed before: a refusal's message was made with str.format(**locals()) (a kernel-time group fails two
    of its three oneOf branches, each a copy of every local of the checking function), and each bounded number
    had its type tested again after the test that raised for any other type."""
    source = schema_codegen.TARGET.read_text(encoding="utf-8")
    assert "locals()" not in source
    assert source.count("if True:  # its type tested above") >= 100
    assert source.count(", (int, float, Decimal)) and not isinstance(") == 4  # nullable integers and one anyOf
    code = ('    raise JsonSchemaValueException("" + (name_prefix or "data") + ".a[{x}]".format(**locals()) + " must")\n'
            '    if not isinstance(v, (int)) and not (isinstance(v, float) and v.is_integer()) or isinstance(v, bool):\n'
            '        raise JsonSchemaValueException("" + (name_prefix or "data") + ".v must be integer")\n'
            '    if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):\n'
            '        if v < 0:\n'
            '    if not isinstance(w, (int, float, Decimal)) or isinstance(w, bool):\n'
            '        raise JsonSchemaValueException("w")\n'
            '    if isinstance(v, (int, float, Decimal)) and not isinstance(v, bool):\n'
            '    if not isinstance(n, (int, NoneType)) and not (isinstance(n, float) and n.is_integer()) or isinstance(n, bool):\n'
            '        raise JsonSchemaValueException("n")\n'
            '    if isinstance(n, (int, float, Decimal)) and not isinstance(n, bool):\n'
            '    if not isinstance(u, (int, float, Decimal)) or isinstance(u, bool):\n'
            '        count += 1\n'
            '    if isinstance(u, (int, float, Decimal)) and not isinstance(u, bool):\n')
    lean = schema_codegen.lean_checks(code).splitlines()
    assert lean[0] == '    raise JsonSchemaValueException("" + (name_prefix or "data") + ".a[{x}]" + " must")'
    assert lean[3] == "    if True:  # its type tested above"
    # another variable tested (w, then v) and a nullable integer (None fails the second test) stay
    assert lean[7] == code.splitlines()[7] and lean[10] == code.splitlines()[10]
    assert lean[13] == code.splitlines()[13]  # the first test raised nothing: the second one decides
    chain = ("        if not (isinstance(data__mode, str) and data__mode == 'engine' or isinstance(data__mode, str) and "
             "data__mode == 'eager'):")
    assert schema_codegen.enum_as_set(chain) == "        if not (isinstance(data__mode, str) and data__mode in {'engine', 'eager'}):"
    single = "        if not (isinstance(data__kind, str) and data__kind == 'latency'):"
    assert schema_codegen.enum_as_set(single) == single
