"""A prose field of the study file printed as written, by the template or
inside a helper's output, is noted with its field (studygen/render/study_file.py,
produced.written), and escaped as before: the anchors that place it never let a
string open a heading, a quote, a list or a rule. Study files and sentences made
up for these tests."""

from __future__ import annotations

from markdown_it import MarkdownIt

from studygen.checks import CheckContext
from studygen.place import Place
from studygen.render.produced import WRITTEN

from ..checks.studies import latency, load, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
RECORDS = [record("job", [latency("fp16", 5.2), latency("fp8", 4.8)])]
STUDY_FILE = "families/toy/study.yaml"


def _written(context) -> list[tuple]:
    """``(text, pointer, field path, README line)`` of each study-file string the render noted as written."""
    return [(item.text, item.source.pointer, item.field_path, readme.locate(item))
            for item, readme in context.produced_outputs(kinds=(WRITTEN,))]


def test_a_prose_field_the_template_prints_is_noted_with_its_field(tmp_path):
    template = (HEADER + "{{ study.decision.summary }}\n\nCalibrated on {{ study.spec.recipes.linears.calibration_set }}.\n\n"
                "Again: {{ study.decision.summary|upper }} {{ study.decision.summary[:4] }}\n")
    summary = "Keep fp16 until the FP8 kernels improve."
    context = CheckContext(load(tmp_path, records=RECORDS, template=template,
                                study=spec(decision={"shipped": False, "summary": summary})))
    lines = context.rendered.readme.splitlines()
    assert lines[4:] == [summary, "", "Calibrated on calib-4.", "", f"Again: {summary.upper()} Keep"]
    # a calibration set is a name, not prose; a filter's result or a slice is no longer the field's words
    assert _written(context) == [("Toy detector: FP8 study", "/title", ("title",), 3),
                                 (summary, "/decision/summary", ("decision", "summary"), 5)]
    ((title, _), _) = context.produced_outputs(kinds=(WRITTEN,))
    assert title.source == Place(STUDY_FILE, 0, "/title")


def test_fields_inside_a_helpers_sentence_are_noted_each(tmp_path):
    not_measured = [{"config": "W4A8", "reason": "no kernel for it yet", "expectation": "a plan about half the size",
                     "because": "weights take half the bytes"}]
    context = CheckContext(load(tmp_path, records=RECORDS, template=HEADER + "- {{ study.expectation('W4A8') }}\n",
                                study=spec(not_measured=not_measured)))
    assert context.rendered.readme.splitlines()[4] == (
        "- Not measured: W4A8 (no kernel for it yet). Expected without a measurement: a plan about half the size, "
        "because weights take half the bytes.")
    assert _written(context)[1:] == [
        ("W4A8", "/not_measured/0/config", ("not_measured", 0, "config"), 5),
        ("no kernel for it yet", "/not_measured/0/reason", ("not_measured", 0, "reason"), 5),
        ("a plan about half the size", "/not_measured/0/expectation", ("not_measured", 0, "expectation"), 5),
        ("weights take half the bytes", "/not_measured/0/because", ("not_measured", 0, "because"), 5)]
    # the helper's own output is still one expectation, whose text holds no anchor
    (expectation,) = [item for item, _ in context.produced_outputs(kinds=("expectation",))]
    assert expectation.text == context.rendered.readme.splitlines()[4][2:]


def test_a_field_opening_like_a_block_stays_text(tmp_path):
    # An anchor before "# ..." hid the line's start from mdformat, which then dropped the escape: a revisit
    # condition "# ..." came out as "- # ...", a heading inside the list. The anchors now follow the opening.
    decision = {"shipped": False, "summary": "1. keep fp16",
                "revisit_when": ["# a faster GEMM lands", "> the vendor says so", "- twice over", "---"]}
    template = HEADER + "{{ study.decision.summary }}\n\n{% for c in study.revisit_conditions() %}- {{ c }}\n{% endfor %}"
    context = CheckContext(load(tmp_path, records=RECORDS, template=template, study=spec(decision=decision)))
    readme = context.rendered.readme
    assert readme.splitlines()[4:] == ["1\\. keep fp16", "", "- \\# a faster GEMM lands", "- \\> the vendor says so",
                                       "- \\- twice over", "- \\---"]
    tokens = MarkdownIt("commonmark").parse(readme)
    assert [t.type for t in tokens if t.nesting == 1] == [
        "heading_open", "paragraph_open", "bullet_list_open", *["list_item_open", "paragraph_open"] * 4]
    # each still placed on its line, past its opening; "---" has nothing past it, so it gets no place
    assert [(text, line) for text, _, _, line in _written(context)] == [
        ("Toy detector: FP8 study", 3), ("1. keep fp16", 5), ("# a faster GEMM lands", 7),
        ("> the vendor says so", 8), ("- twice over", 9), ("---", 0)]
