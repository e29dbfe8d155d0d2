"""Study-file data in the generic template (issue: a recipe without a
description raised) and errors from study data naming the study file and the
JSON pointer of what a template asked for. Figures are made up for the tests."""

from __future__ import annotations

import pytest

from studygen.errors import TemplateError
from studygen.render.engine import render_markdown
from studygen.study import load_study

from ..checks.studies import FAMILY, latency, record, spec, write_project
from .test_generic_issue22 import generic


def test_a_recipe_without_a_description_renders(tmp_path):
    study = generic(tmp_path, [record("a", [latency("fp16", 5.0), latency("fp8", 4.0)])],
                    recipes={"linears": {"calibration_set": "calib-4"}})
    lines = render_markdown(study).splitlines()
    at = lines.index("### Recipe linears")
    # the heading, then the calibration set: no empty description, no placeholder
    assert lines[at + 1:at + 4] == ["", "Calibration set: `calib-4`.", ""]


def render_with(tmp_path, template, **overrides):
    study_dir = write_project(tmp_path, records=[record("a", [latency("fp16", 5.0)])], template=template,
                              study=spec(**overrides))
    return render_markdown(load_study(study_dir, tmp_path))


@pytest.mark.parametrize(("expression", "pointer", "missing"), [
    ("study.spec.recipes.linears.quantize", "/recipes/linears", "quantize"),
    ("study.spec.recipes['linears']['quantize']", "/recipes/linears", "quantize"),
    ("study.spec.variants[2].recipe_notes", "/variants/2", "recipe_notes"),
    ("study.decision.revisit_when", "/decision", "revisit_when"),
    ("study.spec.nothing_here", "", "nothing_here"),
])
def test_a_missing_study_file_field_names_the_study_file_and_pointer(tmp_path, expression, pointer, missing):
    template = "{{ generated_note }}\n\n{{ " + expression + " }}\n"
    with pytest.raises(TemplateError) as caught:
        render_with(tmp_path, template)
    error = caught.value
    assert error.path == f"families/{FAMILY}/study.yaml"
    assert error.place.pointer == (pointer or "/")
    assert f"has no '{missing}'" in error.message
    # and where the template asked for it
    assert f"templates/{FAMILY}.md.j2 line 3" in error.message


def test_a_study_file_field_a_template_tests_for_stays_a_plain_test(tmp_path):
    # `is defined` and .get() ask without failing: the error is for a field used, not one looked for
    template = ("{{ generated_note }}\n\n{{ 'yes' if study.spec.variants[0].recipe is defined else 'no' }} "
                "{{ study.spec.recipes.linears.get('quantize', 'none') }} {{ study.spec.recipes.linears.description }}\n")
    assert "no none FP8 linears" in render_with(tmp_path, template)


def test_the_pointer_escapes_slash_and_tilde_and_a_list_names_its_length(tmp_path):
    template = "{{ generated_note }}\n\n{{ study.spec.recipes['a/b~c'].quantize }}\n"
    with pytest.raises(TemplateError) as caught:
        render_with(tmp_path / "map", template, recipes={"a/b~c": {"description": "d", "calibration_set": "calib-4"}})
    assert caught.value.place.pointer == "/recipes/a~1b~0c"  # RFC 6901
    assert caught.value.message.startswith("the study file has no 'quantize' here (its fields: calibration_set, "
                                           "description) (asked for by templates/toy.md.j2 line 3)")
    with pytest.raises(TemplateError) as caught:
        render_with(tmp_path / "list", "{{ generated_note }}\n\n{{ study.spec.variants[7] }}\n")
    assert (caught.value.path, caught.value.place.pointer) == (f"families/{FAMILY}/study.yaml", "/variants")
    assert caught.value.message.startswith("the study file has no '7' here (a list of 3 items)")
