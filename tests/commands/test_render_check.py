"""render and check on a copy of the shipped study: exit codes, exact messages, nothing half-written."""

from __future__ import annotations

import re

import json
import subprocess
import sys

from studygen.records.load import load_record
from studygen.records.migrate import migrate

RECORD = "measurements/deformable_detr/b200-trt11.4.json"
README = "families/deformable_detr/README.md"


def load_record_line(project, pointer: str) -> int:
    """1-based line of ``pointer`` in the record RECORD of ``project``."""
    from studygen.records.jsonpos import line_of_pointer

    return line_of_pointer((project / RECORD).read_text(), pointer)


def _edit_record(project, mutate):
    path = project / RECORD
    data = json.loads(path.read_text())
    mutate(data)
    path.write_text(json.dumps(data, indent=2) + "\n")


def test_render_is_byte_identical_to_committed_and_idempotent(project, run_cli):
    committed = (project / README).read_bytes()
    first = run_cli("render", "--root", project)
    assert first.exit_code == 0, first.err
    assert (project / README).read_bytes() == committed
    second = run_cli("render", "--root", project)
    assert second.exit_code == 0 and second.out == ""
    assert (project / README).read_bytes() == committed


def test_wrong_type_is_sg202_with_file_pointer_and_line(project, run_cli):
    _edit_record(project, lambda d: d["results"][3].__setitem__("value_ms", "fast"))
    result = run_cli("check", "deformable_detr", "--root", project)
    assert result.exit_code == 1
    lines = [text for text in result.out.splitlines() if "SG202" in text]
    assert len(lines) == 1
    text = (project / RECORD).read_text().splitlines()
    line_no = next(i + 1 for i, text in enumerate(text) if '"fast"' in text)
    assert lines[0] == (f"{RECORD}:{line_no}: SG202 'fast' is not of type 'number' (/results/3/value_ms)")


def test_render_refuses_invalid_record_and_writes_nothing(project, run_cli):
    before = (project / README).read_bytes()
    _edit_record(project, lambda d: d["results"][3].__setitem__("value_ms", "fast"))
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    line_no = next(i + 1 for i, text in enumerate((project / RECORD).read_text().splitlines()) if '"fast"' in text)
    assert result.err == f"studygen: {RECORD}:{line_no}: 'fast' is not of type 'number' (/results/3/value_ms)\n"
    assert (project / README).read_bytes() == before


def test_render_and_check_name_a_missing_figure_at_one_place(project, run_cli):
    # a result that lost its value_ms: render said "RECORD:/results/2: ..." where check said "RECORD:N: SG202 ...
    # (/results/2)", two names for one place; both now give the file, the line and the pointer
    _edit_record(project, lambda d: d["results"][2].pop("value_ms"))
    render = run_cli("render", "--root", project)
    check = run_cli("check", "deformable_detr", "--root", project)
    assert (render.exit_code, check.exit_code) == (2, 1)
    line_no = load_record_line(project, "/results/2")
    message = "'value_ms' is a required property"
    assert render.err == f"studygen: {RECORD}:{line_no}: {message} (/results/2)\n"
    assert f"{RECORD}:{line_no}: SG202 {message} (/results/2)" in check.out.splitlines()


def test_hand_edit_of_readme_is_sg201_with_diff(project, run_cli):
    path = project / README
    text = path.read_text()
    path.write_text(text.replace("| B200 | 11.4.0.106 | 800 x 800  | 5.889  |", "| B200 | 11.4.0.106 | 800 x 800  | 5.123  |"))
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert f"{README}:" in result.out and "SG201 README is stale" in result.out
    assert "-| B200 | 11.4.0.106 | 800 x 800  | 5.123  |" in result.out
    assert "+| B200 | 11.4.0.106 | 800 x 800  | 5.889  |" in result.out


def test_changed_record_makes_readme_stale(project, run_cli):
    _edit_record(project, lambda d: d["results"][0].__setitem__("value_ms", 5.901))
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert "+| B200 | 11.4.0.106 | 800 x 800  | 5.901  |" in result.out


def test_malformed_json_names_file_and_line(project, run_cli):
    (project / RECORD).write_text('{\n  "schema_version": 1,\n  "job_id": \n}\n')
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    assert result.err.startswith(f"studygen: {RECORD}:4: malformed JSON: Expecting value (column 1)")
    check = run_cli("check", "--root", project)
    assert f"{RECORD}:4: SG202 malformed JSON: Expecting value" in check.out


def test_missing_required_field(project, run_cli):
    _edit_record(project, lambda d: d.pop("job_id"))
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert f"{RECORD}:1: SG202 'job_id' is a required property" in result.out


def test_family_without_records(project, run_cli):
    for path in (project / "measurements" / "deformable_detr").glob("*.json"):
        path.unlink()
    result = run_cli("render", "--root", project)
    assert result.exit_code == 1  # nothing else to render; the family is reported, not an error of the call
    assert result.err == ("studygen: families/deformable_detr/study.yaml: not rendered: no records: "
                          "measurements/deformable_detr/ holds no *.json run record (collect its first records)\n")


def test_unknown_family_is_usage_error(project, run_cli):
    for command in ("render", "check"):
        result = run_cli(command, "no_such_family", "--root", project)
        assert result.exit_code == 2
        assert result.err == "studygen: unknown family 'no_such_family' (known: deformable_detr)\n"


def test_invalid_family_name(project, run_cli):
    result = run_cli("render", "../etc", "--root", project)
    assert result.exit_code == 2
    assert result.err in ("studygen: ../etc: no study.yaml in that folder\n", "studygen: ../etc: no such folder\n")
    result = run_cli("check", "/nonexistent/dir", "--root", project)
    assert (result.exit_code, result.err) == (2, "studygen: /nonexistent/dir: no such folder\n")
    result = run_cli("check", str(project / "families"), "--root", project)
    assert (result.exit_code, result.err) == (2, f"studygen: {project / 'families'}: no study.yaml in that folder\n")


def test_a_family_named_twice_is_checked_once(project, run_cli):
    once = run_cli("check", "deformable_detr", "--root", project)
    twice = run_cli("check", "deformable_detr", "deformable_detr", "--root", project)
    assert twice.out == once.out and twice.exit_code == once.exit_code == 0


def test_template_error_names_template_line(project, run_cli):
    template = project / "templates" / "deformable_detr.md.j2"
    lines = template.read_text().splitlines()
    lines.insert(4, "{{ study.no_such_helper() }}")
    template.write_text("\n".join(lines) + "\n")
    before = (project / README).read_bytes()
    result = run_cli("render", "--root", project)
    assert result.exit_code == 1
    assert result.err.startswith("studygen: ")
    assert "deformable_detr.md.j2:5: template error: unknown helper study.no_such_helper; helpers are " in result.err
    assert (project / README).read_bytes() == before


def test_template_syntax_error(project, run_cli):
    template = project / "templates" / "deformable_detr.md.j2"
    template.write_text(template.read_text() + "\n{% for x in %}\n")
    result = run_cli("render", "--root", project)
    assert result.exit_code == 1
    assert "template syntax error" in result.err and re.search(r"deformable_detr\.md\.j2:\d+: ", result.err)


def test_root_is_found_by_walking_up(project, monkeypatch, run_cli):
    monkeypatch.chdir(project / "measurements" / "deformable_detr")
    assert run_cli("render").exit_code == 0


def test_a_study_folder_given_as_a_path_finds_its_project_from_anywhere(project, tmp_path, monkeypatch, run_cli):
    # run from a folder outside any project: the root is looked for above the study folder, not above the cwd
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    study_dir = project / "families" / "deformable_detr"
    checked = run_cli("check", study_dir)
    assert checked.exit_code == 0, checked.err
    assert checked.out.splitlines()[-1].startswith("0 error(s)")
    assert run_cli("rows", study_dir, "kind=plan_size").exit_code == 0
    assert run_cli("render", study_dir).out == ""  # found, and up to date
    # --root naming another project is refused for this study folder: its records and templates would be the
    # other project's (every variant would lack results: 5 SG219 errors that are no fault of the study)
    other = tmp_path / "other"
    (other / "families").mkdir(parents=True)
    refused = run_cli("check", study_dir, "--root", other)
    assert refused.exit_code == 2 and refused.out == "" and f"a study of the project {project}, not of --root" in refused.err
    # a study folder in no project: one line, exit 2
    loose = tmp_path / "loose" / "demo"
    loose.mkdir(parents=True)
    (loose / "study.yaml").write_text((study_dir / "study.yaml").read_text())
    alone = run_cli("check", loose)
    assert alone.exit_code == 2 and alone.out == ""
    assert alone.err == f"studygen: no project root: no folder holding families/ at or above {loose} (use --root DIR)\n"


def test_newer_schema_version_is_refused(project, run_cli):
    _edit_record(project, lambda d: d.__setitem__("schema_version", 7))
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2
    assert "schema_version 7 is newer than this studygen reads (4)" in result.err


def test_a_shipped_version_1_record_loads_as_version_4_and_its_file_is_left_alone():
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "measurements" / "deformable_detr_h200_torch" / "h200-eager.json"
    before = path.read_bytes()
    assert json.loads(before)["schema_version"] == 1
    record = load_record(path)
    assert record.data["schema_version"] == 4
    # the content is what the file holds, version aside: 1 -> 2 -> 3 -> 4 only add optional fields
    assert {**record.data, "schema_version": 1} == json.loads(before)
    assert path.read_bytes() == before
    # a version-1 collect run kernel time has no forwards of its own (its spread is unknown)
    kernels = [r for r in record.results if r["kind"] == "kernel_time"]
    assert kernels and not any("per_iteration" in r for r in kernels)


def test_a_record_is_written_at_the_lowest_version_that_holds_its_fields():
    from pathlib import Path

    from studygen.records.migrate import version_of

    folder = Path(__file__).resolve().parents[2] / "measurements" / "deformable_detr_h200_torch"
    # the shipped eager job holds no version 2 field; the re-measured compiled jobs hold several
    assert version_of(load_record(folder / "h200-eager.json").data) == 1
    compiled = load_record(folder / "h200-compile-800x800.json").data
    assert version_of(compiled) == 2 and json.loads((folder / "h200-compile-800x800.json").read_text())[
        "schema_version"] == 2
    # each version 2 field alone makes it 2
    base = {"results": [{"kind": "latency", "compile": {"backend": "inductor"}},
                        {"kind": "kernel_time", "groups": [{"group": "GEMM", "kernels": [{"name": "k", "time_ms": 1}]}],
                         "compilations": [{"compilation": 1}], "per_iteration": [{"label": "forward 1"}]}]}
    assert version_of(base) == 1  # per_iteration of a kernel_time is version 1 (collect torch-profile)
    for path, value in [((0, "compilation_rule"), {}), ((1, "differing_groups"), []),
                        ((0, "compile", "inductor_config"), {}), ((0, "compile", "inductor_environment"), {}),
                        ((1, "compilations", 0, "per_iteration"), []), ((1, "compilations", 0, "kernels"), {}),
                        ((1, "groups", 0, "kernels", 0, "grid"), [1, 1, 1]),
                        ((1, "groups", 0, "kernels", 0, "block"), [1, 1, 1]),
                        ((1, "groups", 0, "kernels", 0, "registers_per_thread"), 1),
                        ((1, "groups", 0, "kernels", 0, "shared_memory_bytes"), 0)]:
        document = json.loads(json.dumps(base))
        holder = document["results"]
        for step in path[:-1]:
            holder = holder[step]
        holder[path[-1]] = value
        assert version_of(document) == 2, path
    # a compilations entry of a latency (not a kernel_time) with kernels is not the version 2 field
    assert version_of({"results": [{"kind": "latency", "compilations": [{"kernels": {}}]}]}) == 1
    # an input's digest makes it 3, whatever else it holds
    assert version_of({"results": [{"kind": "latency", "source_sha256": "0" * 64}]}) == 3
    assert version_of({"results": [dict(base["results"][0], compilation_rule={}), {"kind": "latency",
                                                                                    "source_sha256": "0" * 64}]}) == 3
    # a CPU latency's thread count makes it 4, beside a digest too
    threads = {"kind": "latency", "method": {"timer": "perf-counter", "intra_op_threads": 1}}
    assert version_of({"results": [threads]}) == 4
    assert version_of({"results": [dict(threads, source_sha256="0" * 64)]}) == 4
    assert version_of({"results": [{"kind": "latency", "method": {"timer": "perf-counter"}}]}) == 1


def test_migration_from_version_0(tmp_path):
    old = {"schema_version": 0, "job_id": "j", "family": "f", "gpu": "NVIDIA H200",
           "software": {"torch": "2.11.0"}, "checkpoint": {"id": "m", "weights": "random-init", "seed": 0},
           "collector": {"name": "x", "version": "0"}, "measurements": []}
    migrated = migrate(old, path="r.json")
    assert migrated["schema_version"] == 4  # 0 -> 1 -> 2 -> 3 -> 4
    assert migrated["provenance"]["gpu"] == "NVIDIA H200"
    assert migrated["results"] == [] and "measurements" not in migrated
    path = tmp_path / "r.json"
    path.write_text(json.dumps(old))
    assert load_record(path).provenance["software"] == {"torch": "2.11.0"}


def test_help_imports_no_heavy_module():
    code = ("import sys; from studygen.cli import run; run(['--help']); "
            "print(sorted(m for m in ('pandas', 'torch', 'transformers', 'jinja2', 'jsonschema') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().endswith("[]")


def test_table_row_with_a_missing_cell_is_sg104(project, run_cli):
    path = project / README
    lines = path.read_text().splitlines()
    index = next(i for i, text in enumerate(lines) if text.startswith("| B300 | 11.4.0.106 | 800 x 800  |"))
    lines[index] = "| B300 | 11.4.0.106 | 800 x 800  | 5.816  | 5.764            |"
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    sg104 = [text for text in result.out.splitlines() if " SG104 " in text]
    cells = [text for text in sg104 if "has 5 cells but its header (line 65) has 6" in text]
    assert len(cells) == 1 and cells[0].startswith(f"{README}:{index + 1}: SG104 ")
    # mdformat would pad the row: the README is not formatter-stable either
    assert any(text.startswith(f"{README}:{index + 1}: SG104 mdformat (gfm, wrap keep) rewrites") for text in sg104)


def _figure_bytes(project):
    return {path.name: path.read_bytes() for path in sorted((project / "families/deformable_detr/figures").iterdir())}


def test_render_refuses_a_hand_written_readme_and_writes_nothing(project, run_cli):
    # attack round: a README without studygen's note was replaced, exit 0; now one line naming it, exit 2,
    # and neither the README nor the figures a changed record would redraw are written
    _edit_record(project, lambda d: d["results"][0].__setitem__("value_ms", 5.901))
    figures = _figure_bytes(project)
    hand = "# Deformable DETR on B200\n\nOur notes: FP8 ran 5.9 ms at 800x800; see the lab wiki.\n"
    (project / README).write_text(hand)
    result = run_cli("render", "--root", project)
    assert (result.exit_code, result.out) == (2, "")
    assert result.err == (f"studygen: {README}: holds no studygen generated note, so it was written by hand and render "
                          "would replace it: move it away (e.g. git mv it to NOTES.md), then render\n")
    assert (project / README).read_text() == hand and _figure_bytes(project) == figures


def test_render_replaces_a_readme_that_holds_its_note_even_from_another_family_name(project, run_cli):
    # render's own README, stale, or rendered before the family was renamed: still render's to replace
    (project / README).write_text("<!-- Generated by `studygen render old_name` from measurements/old_name/ and "
                                  "families/old_name/study.yaml; edit those, not this file. -->\n\n# Old\n")
    result = run_cli("render", "--root", project)
    assert result.exit_code == 0 and f"wrote {README}" in result.out
    assert (project / README).read_text().startswith("<!-- Generated by `studygen render deformable_detr` from")


def test_a_template_that_places_no_note_renders_again_after_its_inputs_change(project, run_cli):
    # a user's own template without {{ generated_note }} rendered once; the next render, after the study changed,
    # took that README for a hand-written one and refused (exit 2) for good. Render now puts the note at the top.
    (project / "templates/deformable_detr.md.j2").write_text("# {{ study.title }}\n\nMeasured on B200.\n")
    (project / README).unlink()
    assert run_cli("render", "deformable_detr", "--root", project).exit_code == 0
    study_file = project / "families/deformable_detr/study.yaml"
    study_file.write_text(re.sub(r"(?m)^title: .*$", 'title: "Deformable DETR, second look"', study_file.read_text()))
    again = run_cli("render", "deformable_detr", "--root", project)
    assert (again.exit_code, again.err) == (0, "")
    assert (project / README).read_text() == (
        "<!-- Generated by `studygen render deformable_detr` from measurements/deformable_detr/ and "
        "families/deformable_detr/study.yaml; edit those, not this file. -->\n\n"
        "# Deformable DETR, second look\n\nMeasured on B200.\n")


def test_a_readme_past_what_render_writes_is_judged_by_its_start(project, run_cli):
    import os

    from studygen.textio import MAX_RENDERED_BYTES

    # sparse files: no disk used. Render's own README grown past the limit starts with its note: replaced
    committed = (project / README).read_bytes()
    os.truncate(project / README, MAX_RENDERED_BYTES + 1)
    assert run_cli("render", "--root", project).exit_code == 0
    assert (project / README).read_bytes() == committed
    # one written by hand, as long, holds no note where render would have put it: refused
    (project / README).write_bytes(b"# Notes\n")
    os.truncate(project / README, MAX_RENDERED_BYTES + 1)
    result = run_cli("render", "--root", project)
    assert result.exit_code == 2 and result.err.startswith(f"studygen: {README}: holds no studygen generated note")
    assert (project / README).stat().st_size == MAX_RENDERED_BYTES + 1


def test_the_start_of_a_readme_is_read_no_further_than_render_writes(tmp_path):
    import os

    from studygen.render.generated import _head
    from studygen.textio import MAX_RENDERED_BYTES

    path = tmp_path / "README.md"
    path.write_bytes(b"# Notes\n")
    os.truncate(path, MAX_RENDERED_BYTES + 4096)  # sparse
    head = _head(path)
    assert len(head) == MAX_RENDERED_BYTES and head.startswith(b"# Notes\n\0")
    path.write_bytes(b"short")
    assert _head(path) == b"short"


def test_a_family_folder_without_a_study_file_is_an_error_of_plain_check(project, run_cli):
    (project / "families" / "lost").mkdir()  # its study file never committed
    (project / "families" / "lost" / "README.md").write_text("# Lost\n")
    (project / "families" / ".hidden").mkdir()  # hidden folders are no families
    checked = run_cli("check", "--root", project, "--format", "json")
    assert checked.exit_code == 1
    (found,) = [f for f in json.loads(checked.out) if f["code"] == "SG202"]
    assert (found["severity"], found["file"], found["line"], found["pointer"]) == ("error", "families/lost", 0, None)
    assert found["message"] == "families/lost holds no study.yaml: nothing of family 'lost' is checked or rendered"
    assert found["hint"] == "add its study file (studygen new makes one), or remove the folder"
    text = run_cli("check", "--root", project)
    assert text.out.splitlines()[0] == ("families/lost: SG202 families/lost holds no study.yaml: nothing of family "
                                        "'lost' is checked or rendered")
    # a family named on the command line is checked alone: the stray folder is not its concern
    assert run_cli("check", "deformable_detr", "--root", project).exit_code == 0
    # without the folder, plain check passes again
    (project / "families" / "lost").rename(project / "lost-moved")
    assert run_cli("check", "--root", project).exit_code == 0


def test_each_study_is_freed_before_the_collector_resumes(tmp_path, monkeypatch):
    """render drops each study inside its pause of the cyclic collector, so that the study's objects are freed
    by their reference counts, not scanned by the collection resuming starts. Failed before: the loop kept
    the last study in a variable past the pause (21,000 tracked objects for deformable_detr_h200_torch)."""
    import contextlib
    import weakref

    from studygen.commands import render
    from tests.conftest import copy_project

    project = copy_project(tmp_path / "project", families=("deformable_detr", "deformable_detr_h200_torch"))
    studies, alive_at_resume = [], []
    real_load, real_paused = render.load_study, render.collector_paused

    def load_study(study_dir, root):
        study = real_load(study_dir, root)
        studies.append(weakref.ref(study))
        return study

    @contextlib.contextmanager
    def paused():
        with real_paused():  # the collector stays off while the studies still alive are counted
            yield
            alive_at_resume.append(sum(ref() is not None for ref in studies))

    monkeypatch.setattr(render, "load_study", load_study)
    monkeypatch.setattr(render, "collector_paused", paused)
    outcome = render.run_render(render.RenderOptions(root=project))
    assert outcome.changed == [] and outcome.not_rendered == []
    assert len(studies) == 2 and alive_at_resume == [0, 0]


def test_a_study_file_key_yaml_reads_as_true_is_one_sg202_and_the_other_studies_are_all_checked(tmp_path, monkeypatch,
                                                                                                 run_cli):
    """``on:`` under ``run:`` made check stop at that study with "internal error: AttributeError: 'bool' object
    has no attribute 'isprintable'" (exit 2) and print no finding of any other study; render said the same."""
    from tests.conftest import copy_project

    families = ("deformable_detr", "deformable_detr_h200_torch", "hackathon_mnist_trtexec")
    project = copy_project(tmp_path / "project", families=families)
    monkeypatch.setenv("STUDYGEN_JOBS", "1")
    before = run_cli("check", "--root", project, "--format", "json")
    assert before.exit_code == 0
    broken = "families/deformable_detr_h200_torch/"
    others = [f for f in json.loads(before.out) if not f["file"].startswith(("measurements/deformable_detr_h200_torch/",
                                                                             broken))]
    assert len(others) > 10 and len(others) < len(json.loads(before.out))  # the broken study had findings of its own
    study = project / broken / "study.yaml"
    lines = study.read_text(encoding="utf-8").splitlines(keepends=True)
    at = lines.index("run:\n") + 1
    study.write_text("".join([*lines[:at], "  on: 3\n", *lines[at:]]), encoding="utf-8")
    after = run_cli("check", "--root", project, "--format", "json")
    assert after.exit_code == 1 and after.err == ""
    words = "key on is not text; YAML reads the unquoted on as true or false: quote it ('on') to keep it as written"
    refusal = {"code": "SG202", "severity": "error", "file": f"{broken}study.yaml", "line": at + 1, "pointer": "/run/on",
               "message": words}
    assert [{k: f[k] for k in refusal} for f in json.loads(after.out)[:1]] == [refusal]
    assert json.loads(after.out)[1:] == others
    text = run_cli("check", "--root", project)
    assert text.out.splitlines()[0] == f"{broken}study.yaml:{at + 1}: SG202 {words} (/run/on)"
    rendered = run_cli("render", "--root", project)
    assert (rendered.exit_code, rendered.err) == (2, f"studygen: {broken}study.yaml:{at + 1}: {words} (/run/on)\n")
