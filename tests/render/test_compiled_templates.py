"""The built-in templates' Jinja code shipped as generated source
(studygen/render/compiled_templates.py): current with the templates and the
environment, used only for the exact text it was made from (and the Jinja
version), and rendering what Jinja's own generation renders."""

from __future__ import annotations

import jinja2
import jinja2.meta
import pytest

from studygen.render import compiled_templates, template_codegen, template_memo
from studygen.render.engine import GENERIC_TEMPLATE, make_environment, render_study
from studygen.render.template_memo import _SourceMemo, referenced_templates, shipped_template
from studygen.study import load_study
from tests.conftest import REPO

GENERIC_FAMILY = REPO / "families" / "hackathon_mnist_trtexec"  # its study file names studygen/generic.md.j2


@pytest.fixture
def generations(monkeypatch):
    """Template names Jinja lexes, parses and generates code for from now on, in a process that compiled nothing yet."""
    monkeypatch.setattr(template_memo, "_COMPILED", _SourceMemo(64))
    made = []
    generate = jinja2.Environment._generate

    def counted(self, source, name, filename=None, defer_init=False):
        made.append(name)
        return generate(self, source, name, filename, defer_init)

    monkeypatch.setattr(jinja2.Environment, "_generate", counted)
    return made


def _generic_source() -> tuple[str, str]:
    env = make_environment([])
    source, filename, _ = env.loader.get_source(env, GENERIC_TEMPLATE)
    return source, filename


def test_the_committed_module_is_what_regeneration_writes_now():
    # fails after editing generic.md.j2, the environment or its code generator without regenerating
    assert template_codegen.TARGET.read_text(encoding="utf-8") == template_codegen.generated_templates_source()
    assert template_codegen.main(["--check"]) == 0
    assert set(compiled_templates.GENERATED) == {path.name for path in template_codegen.TEMPLATES.glob("*.j2")}


def test_the_generic_template_is_not_generated_again(generations):
    template = make_environment([]).get_template(GENERIC_TEMPLATE)
    assert generations == []
    _, filename = _generic_source()
    # errors still name the template file: the code is compiled under its name and maps its lines back
    assert template.filename == filename and template.root_render_func.__code__.co_filename == filename
    assert template.get_corresponding_lineno(template.root_render_func.__code__.co_firstlineno) >= 1


def test_another_text_or_jinja_version_is_generated_by_jinja(generations, monkeypatch):
    source, filename = _generic_source()
    assert shipped_template(source, "generic.md.j2") is not None
    assert shipped_template(source) == shipped_template(source, "generic.md.j2")  # SG211 asks by text alone
    assert shipped_template(source + "\n", "generic.md.j2") is None
    assert shipped_template(source, "other.md.j2") is None
    make_environment([]).compile(source + "{# edited #}", "generic.md.j2", filename)
    assert generations == ["generic.md.j2"]
    monkeypatch.setattr(compiled_templates, "JINJA2_VERSION", "0.0")
    assert shipped_template(source, "generic.md.j2") is None
    make_environment([]).compile(source, "generic.md.j2", filename)
    assert generations == ["generic.md.j2", "generic.md.j2"]


def test_a_generic_family_renders_alike_from_the_shipped_code_and_from_jinja(generations, monkeypatch):
    study = load_study(GENERIC_FAMILY, REPO)
    assert study.spec["template"] == GENERIC_TEMPLATE
    shipped = render_study(study).readme
    assert generations == []
    monkeypatch.setattr(template_memo, "_COMPILED", _SourceMemo(64))
    monkeypatch.setattr(compiled_templates, "GENERATED", {})
    generated = render_study(study).readme
    assert generations == ["generic.md.j2"]
    assert shipped == generated == (GENERIC_FAMILY / "README.md").read_text(encoding="utf-8")  # the committed one


@pytest.fixture
def parses(monkeypatch):
    """Sources Jinja's parser is made for from now on (Environment.parse's, render's compile's, SG211's), in a
    process that parsed nothing yet."""
    monkeypatch.setattr(template_memo, "_PARSED", _SourceMemo(64))
    made = []
    init = jinja2.parser.Parser.__init__

    def counted(self, environment, source, *args, **kwargs):
        made.append(source)
        init(self, environment, source, *args, **kwargs)

    monkeypatch.setattr(jinja2.parser.Parser, "__init__", counted)
    return made


def test_the_templates_the_generic_one_names_are_known_without_parsing_it(parses):
    source, _ = _generic_source()
    expected = tuple(jinja2.meta.find_referenced_templates(jinja2.Environment().parse(source)))
    parses.clear()
    assert referenced_templates(make_environment([]), source) == expected
    assert parses == []
    edited = source + '{% include "other.md.j2" %}'
    assert referenced_templates(make_environment([]), edited) == ("other.md.j2",) and parses == [edited]
