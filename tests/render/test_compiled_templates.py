"""The built-in templates' Jinja code shipped as generated source
(studygen/render/compiled_templates.py): current with the templates and the
environment, used only for the exact text it was made from (and the Jinja
version), and rendering what Jinja's own generation renders."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import jinja2
import jinja2.meta
import pytest

from studygen.render import compiled_templates, limits, template_codegen, template_memo
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


def test_the_committed_modules_are_what_regeneration_writes_now():
    # fails after editing generic.md.j2, the environment or its code generator without regenerating
    texts = template_codegen.generated_modules()
    for target, text in texts.items():
        assert target.read_text(encoding="utf-8") == text, target.name
    assert template_codegen.main(["--check"]) == 0
    assert set(compiled_templates.GENERATED) == {path.name for path in template_codegen.TEMPLATES.glob("*.j2")}
    modules = {module for _, _, module in compiled_templates.GENERATED.values()}
    assert modules == {"studygen.render.generic_template_code"}
    assert set(texts) == {template_codegen.TARGET, *map(template_codegen.module_path, modules)}
    assert set(template_codegen.TARGET.parent.glob("*_template_code.py")) == set(texts) - {template_codegen.TARGET}


def _code_objects(code) -> list:
    """``code`` and the code objects within it, depth first."""
    found = [code]
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            found.extend(_code_objects(constant))
    return found


def _described(code) -> list:
    return [(each.co_qualname, each.co_filename, each.co_flags, each.co_firstlineno, list(each.co_positions()),
             each.co_code, each.co_names, each.co_varnames) for each in _code_objects(code)]


def test_the_shipped_code_object_is_the_one_compile_makes_of_jinjas_code():
    """The code object read through the import system is the one Python's compile made of Jinja's code
    under the template's file name: same instructions, constants, names, flags and line numbers (which
    Jinja maps to template lines), every code object in it named after the template's file."""
    env = make_environment([])
    for name, source, filename, _ in template_codegen.builtin_templates(env):
        compiled = limits.compile_generated(env.compile(source, name, filename, raw=True), filename)
        shipped = template_memo.shipped_code(shipped_template(source, name)[1], filename)
        assert shipped == compiled
        assert _described(shipped) == _described(compiled)
        assert {each.co_filename for each in _code_objects(shipped)} == {filename}
        assert len(_code_objects(shipped)) > 20  # a function per block and the root


def test_a_fresh_process_compiles_no_code_of_the_generic_template(tmp_path):
    """Python's compile() is not run on the generic template's code: its code object comes from the
    bytecode of its module, written by the import system the first time (here under a pycache prefix of
    the test's own) and read after that. Failed before: compile() of the code, under the template's file
    name, in every process."""
    probe = ("import builtins, json, sys\n"
             f"sys.pycache_prefix = {str(tmp_path / 'pycache')!r}\n"
             "sys.dont_write_bytecode = False\n"
             "seen, real = [], builtins.compile\n"
             "def spy(source, filename, *args, **kwargs):\n"
             "    seen.append(str(filename))\n"
             "    return real(source, filename, *args, **kwargs)\n"
             "builtins.compile = spy\n"
             "from studygen.render.engine import GENERIC_TEMPLATE, make_environment\n"
             "template = make_environment([]).get_template(GENERIC_TEMPLATE)\n"
             "print(json.dumps([seen, template.filename, template.root_render_func.__code__.co_filename]))\n")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    runs = [json.loads(subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True,
                                      text=True, timeout=300, check=True).stdout) for _ in range(2)]
    module_file = str(template_codegen.module_path("studygen.render.generic_template_code"))
    (first, filename, code_file), (second, _, _) = runs
    assert filename == code_file and filename.endswith("generic.md.j2")
    assert filename not in first and module_file in first  # the import system compiled the module's source once
    assert filename not in second and module_file not in second  # and read its bytecode after that


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


def test_a_missing_code_module_is_an_import_error_naming_it():
    with pytest.raises(ImportError, match="^the code of a built-in template is missing: studygen.render.gone_template_code$") as raised:
        template_memo.shipped_code("studygen.render.gone_template_code", "generic.md.j2")
    assert raised.value.name == "studygen.render.gone_template_code"


def test_two_built_in_templates_with_one_code_module_are_refused(monkeypatch):
    """``a.md.j2`` and ``a.txt.j2`` both map to ``a_template_code``: the second would overwrite the first's code
    with nothing but an indirect test to notice, so regeneration stops naming both."""
    env = make_environment([])
    shipped = template_codegen.builtin_templates(env)
    name, source, filename, digest = shipped[0]
    twin = ("generic.txt.j2", source, filename, digest)
    monkeypatch.setattr(template_codegen, "builtin_templates", lambda env: [*shipped, twin])
    with pytest.raises(ValueError, match=r"generic\.txt\.j2: its code module studygen\.render\.generic_template_code"):
        template_codegen.generated_modules()


def test_the_code_module_says_it_is_not_importable():
    """Its code names Jinja's ``environment``: importing it raises NameError, and its marker line says so."""
    path = template_codegen.module_path(template_codegen.code_module("generic.md.j2"))
    assert template_codegen.CODE_MARKER in path.read_text("utf-8").split("\n")[:5]
    with pytest.raises(NameError, match="environment"):
        exec(compile(path.read_text("utf-8"), str(path), "exec"), {})
