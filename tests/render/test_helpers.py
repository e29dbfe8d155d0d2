"""View helpers are declared where they are defined (studygen/render/produced.py
``helper``): the kind of output each records, whether it prints Markdown, and
that a template reaches declared helpers only."""

from __future__ import annotations

import pytest

from studygen.checks import sg212_incomparable, sg213_unstable
from studygen.errors import TemplateError
from studygen.render.engine import render_markdown, trusted_result
from studygen.render.produced import OUTPUT_KINDS, HelperSpec, emit, helper, helper_spec, kinds_where, recording
from studygen.render.prose import Markdown
from studygen.render.view import VIEW_ATTRIBUTES, StudyView

from ..checks.studies import latency, load, record


def test_every_name_a_template_may_use_is_declared_or_a_study_file_attribute():
    names = StudyView.helper_names()
    assert set(VIEW_ATTRIBUTES) <= set(names) and "helper_names" not in names
    declared = {name for name in names if name not in VIEW_ATTRIBUTES}
    assert declared == {name for name in dir(StudyView) if helper_spec(getattr(StudyView, name))}
    markdown = {name for name in declared if helper_spec(getattr(StudyView, name)).markdown}
    assert markdown == {"table", "list_table", "dataset_table", "provenance_table", "repeated_measurements",
                        "compilation_table", "attribution_table", "host_table", "variant_entry", "compilation_stops",
                        "kernel_changes", "method_split_table", "escape"}
    assert helper_spec(StudyView.ratio_span).kind == "range" and helper_spec(StudyView.label).kind is None


def test_the_sandbox_lets_a_template_reach_exactly_the_helpers_and_jinjas_own_test_passes_each(tmp_path, monkeypatch):
    """A view's attribute is judged by the helper names alone; Jinja's test (a name not starting with "_",
    no function or type, nothing that changes a list, mapping or set) would pass every one of them, so the
    answer is Jinja's. Failed before: each of the template's reads of ``study.`` also ran Jinja's test,
    three isinstance checks against abstract collection classes (about 1,300 to render deformable_detr_h200_torch)."""
    import jinja2.sandbox
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from studygen.render.engine import make_environment

    view = StudyView(load(tmp_path, records=[record("job", [latency("fp16", 5.0)])]))
    jinja = ImmutableSandboxedEnvironment()
    for name in StudyView.helper_names():
        assert jinja.is_safe_attribute(view, name, getattr(view, name)), name
    env = make_environment([tmp_path])
    assert all(env.is_safe_attribute(view, name, None) for name in StudyView.helper_names())
    assert not any(env.is_safe_attribute(view, name, None) for name in ("_study", "__class__", "_label", "figure"))
    real = jinja2.sandbox.modifies_known_mutable

    def judged_by_jinja(obj, attr):
        assert not isinstance(obj, StudyView), attr
        return real(obj, attr)

    monkeypatch.setattr(jinja2.sandbox, "modifies_known_mutable", judged_by_jinja)
    text = env.from_string("{{ study.title }}: {{ study.figures(kind='latency')|length }}").render(study=view)
    assert text.endswith(": 1") and not env.is_safe_attribute([], "append", None)


def test_markdown_passes_through_only_from_a_helper_declared_so():
    @helper("table", markdown=True)
    def declared():
        return "| a |"

    def named_like_one():  # the old registry trusted any studygen method named like a Markdown helper
        return "| a |"

    named_like_one.__name__ = "table"
    assert isinstance(trusted_result(declared, declared()), Markdown)
    assert type(trusted_result(named_like_one, named_like_one())) is str
    assert type(trusted_result(StudyView.span, "0.5 ms")) is str  # declared, but prose


def test_an_output_records_its_helpers_kind_unless_told_another():
    @helper("ratio")
    def ratio():
        return emit("1.01x"), emit("none", kind="no_verdict")

    with recording() as log:
        ratio()
    assert [(item.kind, item.text) for item in log] == [("ratio", "1.01x"), ("no_verdict", "none")]
    with pytest.raises(ValueError, match="unknown output kind"):
        helper("ratios")
    with pytest.raises(ValueError, match="helper output of unknown kind None"):
        emit("no helper, no kind")


def test_a_helper_that_prints_no_figure_is_declared_unwrapped():
    def label():
        return emit("fp16")

    declared = helper()(label)
    assert declared is label and helper_spec(label) == HelperSpec(None, False)  # the function itself, marked
    assert helper_spec(helper(markdown=True)(lambda: "| a |")) == HelperSpec(None, True)
    with pytest.raises(ValueError, match="helper output of unknown kind None"):
        declared()  # it declares no kind for emit to record
    assert helper_spec(lambda: "fp16") is None
    ratio = helper("ratio")(lambda: emit("1.01x"))
    assert helper_spec(ratio) == HelperSpec("ratio", False) and ratio.__name__ == "<lambda>"


def test_checks_read_which_kinds_they_check_from_the_kinds():
    assert sg212_incomparable.CHECKED_KINDS == {"range", "ratio", "verdict", "no_verdict", "side_finding", "table"}
    assert sg213_unstable.CHECKED_KINDS == {"range", "ratio", "verdict", "side_finding"}
    assert kinds_where("concludes") <= kinds_where("side_by_side") <= set(OUTPUT_KINDS)


def test_a_template_cannot_call_what_is_not_declared(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.0)])], template="{{ study.helper_names() }}")
    with pytest.raises(TemplateError, match="access to attribute 'helper_names' of 'StudyView' object is unsafe"):
        render_markdown(study)
