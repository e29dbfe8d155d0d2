"""Finding one's way in templates: a misspelt helper or row field names the
valid ones, and the study guide's helper reference is the helpers' docstrings."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.engine import render_markdown
from studygen.render.reference import BEGIN, END, first_paragraph, helper_reference, replace_reference
from studygen.render.view import StudyView

from ..checks.studies import latency, load, record
from ..conftest import REPO


def test_the_study_guide_carries_the_generated_helper_reference():
    guide = (REPO / "docs" / "study-guide.md").read_text("utf-8")
    between = guide.split(BEGIN + "\n", 1)[1].split(END, 1)[0]
    assert between == helper_reference() + "\n", "run python -m studygen.render.reference --write docs/study-guide.md"


def test_the_reference_has_every_helper_with_its_docstring():
    reference = helper_reference()
    for name in StudyView.helper_names():
        assert f"| `study.{name}" in reference
    # parameters without annotations, first docstring paragraph on one line
    assert ("| `study.ratio_span(a_variant, b_variant, **filters)` | Range of a/b over every matching pair, "
            "e.g. ``0.97x`` or ``0.97x to 1.01x``. |") in reference
    assert "| `study.spec` | the study file as a mapping" in reference


def test_first_paragraph_joins_lines_turns_roles_into_code_and_escapes_pipes():
    doc = """Range of a | b, see :meth:`span` and
    :func:`~studygen.render.stats.median_difference`.

    Second paragraph, left out."""
    assert first_paragraph(doc) == "Range of a \\| b, see `span` and `studygen.render.stats.median_difference`."
    assert first_paragraph(None) == ""


def test_replace_reference_keeps_what_surrounds_the_markers():
    text = f"before\n{BEGIN}\nold table\n{END}\nafter\n"
    assert replace_reference(text, "new\n") == f"before\n{BEGIN}\nnew\n\n{END}\nafter\n"
    with pytest.raises(ValueError):
        replace_reference("no markers\n", "new\n")


def render_with(tmp_path, template: str) -> str:
    return render_markdown(load(tmp_path, records=[record("a", [latency("fp16", 5.0)])], template=template))


def test_an_unknown_helper_lists_the_helpers(tmp_path):
    with pytest.raises(TemplateError) as raised:
        render_with(tmp_path, "line one\n{{ study.figurs(kind='latency') }}\n")
    message = raised.value.message
    assert message.startswith("template error: unknown helper study.figurs; helpers are agreement_reference, ap_difference, ")
    assert ", figures, " in message and message.endswith(", with_spread")
    assert raised.value.place.line == 2


def test_an_unknown_row_field_lists_the_fields(tmp_path):
    with pytest.raises(TemplateError) as raised:
        render_with(tmp_path, "{{ study.one(kind='latency').timing }}\n")
    message = raised.value.message
    assert message.startswith("template error: a row has no field timing; its fields are approximate, backend, ")
    assert ", timing_method, " in message


def test_known_names_still_render(tmp_path):
    assert "5.0 ms on 800x800" in render_with(tmp_path, "{{ study.one(kind='latency') }} on {{ study.one(kind='latency').shape }}\n")
