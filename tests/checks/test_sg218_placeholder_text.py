"""SG218 on placeholder text of any origin, not only the words ``studygen new``
writes: a new user's ``status: ready`` study with ``title: TODO``,
``description: TBD``, a summary ``'...'`` and ``revisit_when: [TODO]`` checked
with 0 errors, and its README published them. Each test failed on the code
before the fix (SG218 knew only "(edit this)" and "Not decided yet")."""

from __future__ import annotations

import json

import pytest

from studygen.checks import run_checks
from studygen.study import load_study
from studygen.study.placeholders import is_prose_field, placeholder_found

from .studies import FAMILY, codes, latency, record, spec, write_project

PLACEHOLDERS = [
    "TODO", "tbd", "TBA.", "FIXME", "xxx", "", "   ", "...", "…", ". . .", "[TODO]", "(tbd)", "- FIXME -",
    "<model name>", "<GPU>", "Fill in", "fill in the decision here", "Lorem ipsum dolor sit amet",
    "todo: say why fp8 was not shipped", "The int8 engine wins. TODO add the A100 runs.", "int8 takes XXX ms on the L4",
    "Batch 8 on the A100 is TBD", "ResNet-50 on <gpu name>, TensorRT 10.8", "fp16 on the L4 (todo)",
    "ResNet-50 on(<gpu>)", "fp16 at <batch>", "int8 engine: <plan size> MiB", "<gpu name> runs int8",
    "Decision: fixme", "TODO / TBD",
]
# A new user's decision summaries that checked with 0 errors: slots of common template languages left
# unfilled, "not applicable" alone, TBD spelled out, and instructions to the author.
TEMPLATE_SLOTS = [
    "{{ decision }}", "{{decision}}", "${DECISION}", "{decision}", "[decision]", "%DECISION%", "N/A", "n/a.",
    "To be decided.", "To be determined", "to be confirmed", "Write the decision here.", "Describe the result here.",
    "ResNet-50 on {{ gpu_name }}, TensorRT 10.8", "fp8 on ${GPU} at batch 8", "int8 takes %LATENCY% ms",
    "YOLO on {gpu_name}", "Shipped int8. [reason]", "Shipped int8. {reason}", "Int8 ships. The A100 run is to be determined.",
    "Decision: to be decided", "Shipped int8. Add the A100 figures here.", "Put the plan size here",
    "insert the reason here.", "{{ study.title }}",
]
PROSE_SLOTS = [
    "the engine maps {input} to a binding", "N/A rows are not measured", "latency (ms) [median]",
    "the shape [batch, 3, 640, 640] was fixed", "x[index] in the exporter's graph", "between 5% and 10% faster",
    "which precision to ship was to be decided by the A100 runs", "we add a reformat layer here because of the plan",
    "Add one warm-up pass; the timing cache helps here.", "a dict {} of options", "the ${} form of the exporter",
    "the {{ }} braces of Jinja", "the N/A-marked rows", "TensorRT writes its plan here, then the timing cache",
    "the {fp16, int8} pair", "see [the guide](docs/guide.md)", "the [decision] section of the study file explains it",
]
PROSE = [
    "the TODO list of the upstream exporter names fp8", "XXX-large checkpoint, fp16 engine", "a FIXME in onnx-graphsurgeon",
    "dashes fill in the cells a variant has no figure for", "TODOs left in the exporter do not touch the engine",
    "the tbd-flagged rows were dropped", "x<sup>2</sup> in the plan size", "latency < 2 ms > 1 ms", "one line<br>two",
    "see <https://example.org/run>", "int8 plans are 44% smaller than fp16 plans", "todo.txt of the exporter",
    # C++ template arguments of kernel names, as collect run's TF32 note quotes the largest such kernel
    "largest: void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>(Params)",
    "a std::vector<float> of scales", "the kernel reduce_kernel<float> ran 3 times", "a cast_<half> kernel",
    "at::native::<lambda> ran",
]


def placeholder_reason(text: str) -> str:
    """The reason alone: what these cases assert."""
    return placeholder_found(text)[0]


@pytest.mark.parametrize("text", PLACEHOLDERS + TEMPLATE_SLOTS)
def test_placeholder_text_is_told(text):
    assert placeholder_reason(text), text


@pytest.mark.parametrize("text", PROSE + PROSE_SLOTS)
def test_prose_that_mentions_a_marker_in_passing_is_not(text):
    assert placeholder_reason(text) == "", text


def test_the_reason_names_what_was_found():
    assert placeholder_reason("") == "it is empty"
    assert placeholder_reason("TBD.") == "it holds nothing but placeholder text"
    assert placeholder_reason("L4 at <shape>") == "the template slot <shape>"
    assert placeholder_reason("<model name>") == placeholder_reason("[TODO] <gpu>") == "it holds nothing but placeholder text"
    assert placeholder_reason("x<SUP>2</sup> in the plan") == ""  # an HTML element, its tags in any case
    assert placeholder_reason("fp8 takes xxx ms") == "'xxx' stands in for a fact"
    assert placeholder_reason("Shipped. Todo: the A100") == "'Todo' used as a note"
    assert placeholder_reason("Shipped. fill   in why") == "'fill in' used as a note"
    assert placeholder_reason("{{ decision }}") == placeholder_reason("N/A") == "it holds nothing but placeholder text"
    assert placeholder_reason("To be decided.") == "it holds nothing but placeholder text"
    assert placeholder_reason("fp8 on ${GPU} at batch 8") == "the template slot ${GPU}"
    assert placeholder_reason("YOLO on {gpu_name}") == "the template slot {gpu_name}"
    assert placeholder_reason("Shipped int8. [reason]") == "the template slot [reason]"
    # slots are named in the order they stand: the whole-sentence [reason] is the last, not the one inside
    assert placeholder_reason("fp8 [reason] on ${GPU}. [reason]") == "the template slot ${GPU}"
    assert placeholder_reason("The A100 run is to be determined.") == "'to be determined' stands in for a fact"
    assert placeholder_reason("Shipped int8. Add the A100 figures here.") == (
        "'Add the A100 figures here' is an instruction to the author")
    # a field that only says where its text goes (a new user's trial: "Summary goes here." passed)
    assert placeholder_reason("Your decision goes here") == "'Your decision goes here' marks text still to be written"
    assert placeholder_reason("The results come here!") == "'The results come here' marks text still to be written"
    assert placeholder_reason("GridSample: most of the time goes here.") == ""  # prose, not the field alone
    assert placeholder_reason("Everything 2.5 ms goes here.") == ""  # a figure: no slot
    assert placeholder_reason("fp16 goes here and fp8 there.") == ""


def test_prose_fields_are_those_a_readme_prints():
    assert is_prose_field(("title",)) and is_prose_field(("decision", "revisit_when", 3))
    assert is_prose_field(("variants", 0, "label")) and is_prose_field(("not_measured", 1, "because"))
    assert not is_prose_field(("kernel_groups", 0, "pattern"))  # a regular expression: "..." is one
    assert not is_prose_field(("decision", "revisit_when")) and not is_prose_field(("model", "id"))


def _study(tmp_path, template=None, notes=(), notes_field=None, **overrides):
    results = [latency("fp32", 3.5), latency("fp16", 2.25), latency("fp8", 1.75)]
    provenance_record = record("h200", results)
    provenance_record["provenance"]["notes"] = list(notes)
    kwargs = {"template": template} if template else {}
    if notes_field is not None:
        overrides["notes"] = notes_field
    study_dir = write_project(tmp_path, records=[provenance_record], study=spec(**{"status": "ready", **overrides}),
                              **kwargs)
    return load_study(study_dir, tmp_path)


def test_a_ready_study_of_placeholders_fails_check_at_each_field(tmp_path):
    study = _study(tmp_path, title="TODO", description="TBD",
                   decision={"shipped": True, "summary": "...", "revisit_when": ["TODO", "a newer TensorRT"]},
                   kernel_groups=[{"pattern": "...", "group": "<group name>"}])
    found = codes(run_checks(study), "SG218")
    assert [(f.pointer, f.severity) for f in found] == [  # in the study file's order
        ("/title", "error"), ("/decision/summary", "error"), ("/decision/revisit_when/0", "error"),
        ("/description", "error"), ("/kernel_groups/0/group", "error")]
    lines = study.study_path.read_text(encoding="utf-8").splitlines()
    assert [lines[f.line - 1].strip() for f in found] == [
        "title: TODO", "summary: '...'", "- TODO", "description: TBD", "group: <group name>"]
    assert found[1].message == ("decision/summary is placeholder text, not the study's words "
                                "(it holds nothing but placeholder text): '...'")


def test_a_draft_is_warned(tmp_path):
    study = _study(tmp_path, status="draft", description="YOLO at <shape> on the L4")
    (found,) = codes(run_checks(study), "SG218")
    assert (found.pointer, found.severity) == ("/description", "warning")


def test_a_placeholder_record_note_is_found_at_the_note(tmp_path):
    study = _study(tmp_path, notes=["weights from the exporter's release 3", "TODO: say which driver"])
    (found,) = codes(run_checks(study), "SG218")
    assert (found.file, found.pointer) == (f"measurements/{FAMILY}/h200.json", "/provenance/notes/1")
    text = (tmp_path / found.file).read_text(encoding="utf-8").splitlines()
    assert text[found.line - 1].strip() == '"TODO: say which driver"'
    assert json.loads((tmp_path / found.file).read_text())["provenance"]["notes"][1] == "TODO: say which driver"
    assert found.message == "a note of job h200 is placeholder text ('TODO' used as a note): 'TODO: say which driver'"
    assert found.hint == "the README prints a record's notes under Provenance: say what the note is about"


def test_a_pointer_escapes_a_key_as_rfc_6901_says(tmp_path):
    study = _study(tmp_path, notes_field={"fp8/int8 ~ choice": "TBD"})
    (found,) = codes(run_checks(study), "SG218")
    assert found.pointer == "/notes/fp8~1int8 ~0 choice"


TEMPLATE = """# {{ study.title }}

## Method

{{ study.provenance_table() }}

TODO

- fp8 on <gpu>
- a list item that says what it is
"""


def test_placeholder_text_of_a_template_is_found_at_its_readme_line(tmp_path):
    study = _study(tmp_path, template=TEMPLATE)
    found = codes(run_checks(study), "SG218")
    readme = study.rel(study.readme_path)
    # The template places no generated note, so render puts it and a blank line at the top: both
    # findings sit two lines below where they would in a template that places the note nowhere else.
    assert [(f.file, f.line) for f in found] == [(readme, 11), (readme, 13)]
    assert found[1].message == "template text is placeholder text (the template slot <gpu>): 'fp8 on <gpu>'"
    assert {(f.severity, f.hint) for f in found} == {("error", "write the section in the template, or leave it out")}
    draft = _study(tmp_path / "draft", template=TEMPLATE, status="draft")
    assert {f.severity for f in codes(run_checks(draft), "SG218")} == {"warning"}


def test_a_study_file_placeholder_the_readme_prints_is_reported_once(tmp_path):
    study = _study(tmp_path, template="# {{ study.title }}\n\n{{ study.decision.summary }}\n", title="TBD",
                   decision={"shipped": False, "summary": "Not shipped: XXX"})
    assert [(f.file, f.pointer) for f in codes(run_checks(study), "SG218")] == [
        (f"families/{FAMILY}/study.yaml", "/title"), (f"families/{FAMILY}/study.yaml", "/decision/summary")]


@pytest.mark.parametrize("summary", ["{{ decision }}", "${DECISION}", "[decision]", "%DECISION%", "N/A",
                                     "To be decided.", "Write the decision here."])
def test_a_ready_study_whose_decision_is_a_slot_or_an_instruction_fails_check(tmp_path, summary):
    study = _study(tmp_path, decision={"shipped": True, "summary": summary})
    (found,) = codes(run_checks(study), "SG218")
    assert (found.pointer, found.severity) == ("/decision/summary", "error")
    assert found.message.endswith(f": {summary!r}")


def test_the_place_found_is_where_the_matter_the_reason_names_begins():
    from studygen.study.placeholders import placeholder_found

    assert placeholder_found("ResNet-50 on <gpu name>, TensorRT 10.8") == ("the template slot <gpu name>", 13)
    assert placeholder_found("fp8 [reason] on ${GPU}. [reason]") == ("the template slot ${GPU}", 16)
    assert placeholder_found("int8 takes XXX ms on the L4") == ("'XXX' stands in for a fact", 11)
    assert placeholder_found("Int8 ships. The A100 run is to be determined.") == (
        "'to be determined' stands in for a fact", 28)
    assert placeholder_found("Int8 ships. To be  confirmed: the A100") == ("'To be confirmed' stands in for a fact", 12)
    assert placeholder_found("The int8 engine wins. TODO add the A100 runs.") == ("'TODO' used as a note", 22)
    assert placeholder_found("int8 wins, see todo: the A100") == ("'todo' used as a note", 15)
    assert placeholder_found("int8 wins on the L4 (fixme)") == ("'fixme' used as a note", 21)
    assert placeholder_found("Shipped int8. Add the A100 figures here.") == (
        "'Add the A100 figures here' is an instruction to the author", 14)
    assert placeholder_found(" Summary goes here.") == ("'Summary goes here' marks text still to be written", 1)
    assert placeholder_found("  TBD. ") == ("it holds nothing but placeholder text", 0)
    assert placeholder_found(" ") == ("it is empty", 0)
    assert placeholder_found("int8 plans are 44% smaller") == ("", 0)


def _long_text_findings(tmp_path, **overrides) -> dict:
    return {f.pointer: f for f in codes(run_checks(_study(tmp_path, **overrides)), "SG218")}


def test_a_long_field_is_quoted_short_with_its_placeholder_in_the_quote(tmp_path):
    """A 15,000-character summary made a finding line of 15,215 characters,
    the summary quoted whole; other findings quote at most 140 characters."""
    words = " ".join(f"word{index:04d}" for index in range(1360))  # 9 characters a word with its space
    summary = f"Not shipped: {words[:8999]} see <gpu name> for {words[9000:]}"
    description = f"{words[:1997]} about fp8 (edit  this)."
    notes = ["  " + "weights from release 3 " * 20 + "TODO: say which driver " + "and the clocks " * 30]  # quoted stripped
    findings = _long_text_findings(tmp_path, decision={"shipped": False, "summary": summary}, description=description,
                                   notes=notes)
    assert len(summary) > 12_000
    assert findings["/decision/summary"].message == (
        "decision/summary is placeholder text, not the study's words (the template slot <gpu name>): "
        f"'…{words[8973:8999]} see <gpu name> for {words[9000:9089]}…'")
    assert findings["/description"].message == (
        f"description still holds the placeholder studygen new wrote: '…{words[1980:1997]} about fp8 (edit  this).'")
    assert findings["/provenance/notes/0"].message == (
        "a note of job h200 is placeholder text ('TODO' used as a note): "
        f"'…release 3 weights from release 3 TODO: say which driver {'and the clocks ' * 5}and the…'")
    for finding in findings.values():
        quoted = finding.message.split(": '", 1)[1][:-1]
        assert len(quoted) <= 140 and quoted.startswith("…")


def test_a_short_field_and_a_long_one_whose_placeholder_opens_it_are_quoted_from_the_start(tmp_path):
    long = "TODO: " + "the A100 runs " * 20
    findings = _long_text_findings(tmp_path, title="  YOLO on <gpu>  ",
                                   decision={"shipped": False, "summary": long})
    assert findings["/title"].message.endswith(": 'YOLO on <gpu>'")  # whole and stripped, as before
    assert findings["/decision/summary"].message.endswith(f": '{long[:139].rsplit(' ', 1)[0]}…'")


def test_a_long_template_line_is_quoted_short_around_its_placeholder(tmp_path):
    line = "the engines were timed " * 12 + "TODO: name the clocks " + "of the runs " * 20
    study = _study(tmp_path, template="# {{ study.title }}\n\n" + line.strip() + "\n")
    (found,) = codes(run_checks(study), "SG218")
    assert found.message == ("template text is placeholder text ('TODO' used as a note): '…were timed the engines "
                             "were timed TODO: name the clocks " + "of the runs " * 6 + "of the…'")
