"""SG211's reading of the built-in templates shipped as generated data
(studygen/checks/builtin_template_figures.py): current with the templates,
SG211 and Jinja, equal to what SG211 works out afresh, and used only for the
exact text it was worked out from, under that Jinja version (issue 25 item 5:
render runs the generic template's shipped code, so SG211 was the one parser
of it in every check)."""

from __future__ import annotations

import hashlib

import jinja2
import pytest

from studygen.checks import CheckContext, builtin_template_figures, sg211_literal_figures, template_figures_codegen
from studygen.render.engine import make_environment
from studygen.render.template_codegen import TEMPLATES

from .studies import latency, load, record


@pytest.fixture(autouse=True)
def _fresh_memos():
    """Each test works SG211's memos out afresh, and leaves none behind: a test's made-up shipped figures must not
    reach a later test's check."""
    sg211_literal_figures.figures_by_line.cache_clear()
    sg211_literal_figures.computed_reference_lines.cache_clear()
    yield
    sg211_literal_figures.figures_by_line.cache_clear()
    sg211_literal_figures.computed_reference_lines.cache_clear()


def _builtin_sources() -> dict[str, str]:
    env = make_environment([])
    return {path.name: env.loader.get_source(env, f"studygen/{path.name}")[0] for path in TEMPLATES.glob("*.j2")}


def test_the_committed_module_is_what_regeneration_writes_now():
    # fails after editing a built-in template, SG211 or its literal reading without regenerating
    assert template_figures_codegen.TARGET.read_text(encoding="utf-8") == template_figures_codegen.generated_figures_source()
    assert template_figures_codegen.main(["--check"]) == 0
    assert set(builtin_template_figures.FIGURES) == set(_builtin_sources()) == {"generic.md.j2"}
    assert builtin_template_figures.JINJA2_VERSION == jinja2.__version__


def test_each_entry_is_what_sg211_works_out_afresh_from_that_text():
    for name, source in _builtin_sources().items():
        digest, figures, lines = builtin_template_figures.FIGURES[name]
        assert digest == hashlib.sha256(source.encode("utf-8")).hexdigest()
        assert (figures, lines) == (sg211_literal_figures.worked_out_figures(source),
                                    sg211_literal_figures.worked_out_reference_lines(source)) == ((), ())
        assert sg211_literal_figures.shipped_figures(source) == (figures, lines)


def test_no_check_parses_the_generic_template(tmp_path, monkeypatch):
    """Failed before: SG211 parsed it (twice) in every check that read it."""
    parsed = []
    init = jinja2.parser.Parser.__init__
    monkeypatch.setattr(jinja2.parser.Parser, "__init__",
                        lambda self, env, text, *a, **k: parsed.append(text) or init(self, env, text, *a, **k))
    template = "{% extends 'studygen/generic.md.j2' %}{% block revisit %}It took 0.25 ms.{% endblock %}"
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=template)
    findings = sg211_literal_figures.check(CheckContext(study))
    assert [(f.file, f.line, f.message.split(" in prose")[0]) for f in findings] == [
        ("templates/toy.md.j2", 1, "template prints literal figure(s) 0.25")]
    assert parsed == [template]


def test_shipped_figures_are_used_for_their_text_and_jinja_version_alone(monkeypatch):
    source = _builtin_sources()["generic.md.j2"]
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    monkeypatch.setattr(sg211_literal_figures, "SHIPPED_FIGURES", {"generic.md.j2": (digest, ((3, ("9.5",)),), (7,))})
    assert sg211_literal_figures.figures_by_line(source) == ((3, ("9.5",)),)
    assert sg211_literal_figures.computed_reference_lines(source) == (7,)
    assert sg211_literal_figures.shipped_figures(source + "\nIt takes 0.5 ms.\n") is None
    assert sg211_literal_figures.figures_by_line(source + "\nIt takes 0.5 ms.\n") == ((len(source.split("\n")) + 1, ("0.5",)),)
    monkeypatch.setattr(sg211_literal_figures, "SHIPPED_JINJA2_VERSION", "0.0")
    assert sg211_literal_figures.shipped_figures(source) is None
    sg211_literal_figures.figures_by_line.cache_clear()
    assert sg211_literal_figures.figures_by_line(source) == ()
