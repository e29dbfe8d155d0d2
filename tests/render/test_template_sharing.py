"""Templates compiled once per process for every environment that loads the
same source (issue 25 item 5: three shipped families share the generic
template), keyed on the source text itself, so a changed file is compiled
afresh and nothing read from disk is trusted."""

from __future__ import annotations

import traceback

import jinja2
import jinja2.meta
import pytest
from jinja2 import nodes

from studygen.render import limits, template_memo
from studygen.render.engine import GENERIC_TEMPLATE, make_environment
from studygen.render.template_memo import _SourceMemo, referenced_templates
from tests.conftest import REPO


def _render(folder, name="t.md.j2", **context):
    return make_environment([folder]).get_template(name).render(**context)


def test_two_environments_share_the_code_of_one_source(tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        folder.mkdir()
    source = "{% for x in items %}- {{ x }}\n{% endfor %}"
    one = make_environment([first]).compile(source, "shared-case.md.j2", "/same/shared-case.md.j2")
    two = make_environment([second]).compile(source, "shared-case.md.j2", "/same/shared-case.md.j2")
    assert one is two
    assert _render_code(one, first) == "- 1\n- 2\n"


def _render_code(code, folder):
    env = make_environment([folder])
    return env.template_class.from_code(env, code, env.make_globals(None)).render(items=[1, 2])


def test_a_changed_file_of_the_same_name_renders_its_new_text(tmp_path):
    template = tmp_path / "t.md.j2"
    template.write_text("first {{ n }}\n")
    assert _render(tmp_path, n=1) == "first 1\n"
    template.write_text("second {{ n }}\n")
    assert _render(tmp_path, n=2) == "second 2\n"


def test_the_same_text_under_another_name_keeps_its_own_name_in_errors(tmp_path):
    (tmp_path / "x.md.j2").write_text("{{ undefined_name }}\n")
    (tmp_path / "y.md.j2").write_text("{{ undefined_name }}\n")
    other = {"x.md.j2": "y.md.j2", "y.md.j2": "x.md.j2"}
    for name in ("x.md.j2", "y.md.j2"):
        with pytest.raises(jinja2.UndefinedError) as caught:
            _render(tmp_path, name)
        files = [frame.filename for frame in traceback.extract_tb(caught.value.__traceback__)]
        assert str(tmp_path / name) in files and str(tmp_path / other[name]) not in files


def test_a_source_that_does_not_parse_is_refused_every_time(tmp_path):
    env = make_environment([tmp_path])
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError):
            env.compile("{% for x in %}", "broken.md.j2", None)
    assert ("{% for x in %}", "broken.md.j2", None) not in template_memo._COMPILED.entries


def test_a_template_nested_too_deep_is_refused_by_a_second_environment_too(tmp_path):
    deep = "{{ x" + "|lower" * 60 + " }}"
    for _ in range(2):
        with pytest.raises(jinja2.TemplateSyntaxError, match="nested more than"):
            make_environment([tmp_path]).compile(deep, "deep.md.j2", None)


def test_referenced_templates_of_a_source_parsed_or_not(tmp_path):
    env = make_environment([tmp_path])
    source = '{% extends "base-case.md.j2" %}{% include name %}{% import "m-case.j2" as m %}'
    assert sorted(referenced_templates(env, source), key=str) == sorted(["base-case.md.j2", None, "m-case.j2"], key=str)
    other = '{% include "only-this-case.j2" %}'
    env.compile(other, "o.md.j2", None)  # parsed while compiling: its references are known without a parse
    assert referenced_templates(make_environment([tmp_path]), other) == ("only-this-case.j2",)


def test_the_memo_keeps_at_most_its_size_dropping_the_oldest():
    memo = _SourceMemo(2)
    for key in ("a", "b", "c"):
        memo.keep(key, key.upper())
    assert memo.get("a") is None
    assert (memo.get("b"), memo.get("c")) == ("B", "C")
    memo.keep("c", "C2")  # an existing key is replaced in place, nothing dropped
    assert (memo.get("b"), memo.get("c")) == ("B", "C2")


def test_code_compiled_for_deferred_initialisation_is_not_shared_with_the_normal_kind(tmp_path):
    env = make_environment([tmp_path])
    source = "deferred {{ 1 }}"
    deferred = env.compile(source, "d.md.j2", None, defer_init=True)
    assert deferred is not env.compile(source, "d.md.j2", None)
    assert env.compile(source, "d.md.j2", None, defer_init=True) is not deferred  # never kept


# Every statement and block kind of Jinja, each around written text, for the walk and SG211's written text.
EVERY_KIND = """intro {{ a }} text
{% set x = 1 %}{% set y %}captured {{ x }}{% endset %}
{% for i in items if i %}- {{ i }} row
{% else %}none
{% endfor %}
{% if a %}yes{% elif b %}maybe{% else %}no{% endif %}
{% macro m(p, q=2) %}macro {{ p }} body{% endmacro %}
{% call(z) m(1) %}caller {{ z }}{% endcall %}
{% filter upper %}filtered {{ a }}{% endfilter %}
{% with w = 3 %}with {{ w }}{% endwith %}
{% raw %}raw {{ not parsed }}{% endraw %}
{%- if a -%}  trimmed  {%- endif %}
{% block b %}block text {{ a[1:] ~ "z" }}{% endblock %}
{% include "part.md.j2" %}{% import "m.j2" as mm %}{% from "f" ~ "j.j2" import g %}{% include [n, "c.j2"] %}
{# comment #}last line
"""


def _shipped_sources() -> list[str]:
    env = make_environment([REPO / "templates"])
    names = [GENERIC_TEMPLATE, *(path.name for path in sorted((REPO / "templates").glob("*.j2")))]
    return [env.loader.get_source(env, name)[0] for name in names]


@pytest.mark.parametrize("which", range(1 + 1 + len(list((REPO / "templates").glob("*.j2")))))
def test_the_one_walk_lists_the_nodes_find_all_yields(which):
    # EVERY_KIND, the generic template and each of the project's templates
    source = [EVERY_KIND, *_shipped_sources()][which]
    parsed = make_environment([]).parsed(source)
    budget = [node for node in parsed.tree.find_all(nodes.Filter) if node.name == template_memo.BUDGET_FILTER]
    assert len(budget) == len(parsed.find_all(nodes.For)) >= 1  # each loop's iterable wrapped, once
    # the nodes Jinja finds in the tree render compiles, less the budget filters the loops' wrapping added
    assert [id(node) for node in parsed.nodes] == [id(node) for node in parsed.tree.find_all(nodes.Node)
                                                   if not any(node is wrapper for wrapper in budget)]
    for kinds in (nodes.For, nodes.Output, (nodes.Assign, nodes.For, nodes.With, nodes.Macro),
                  (nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends), nodes.TemplateData):
        assert [id(node) for node in parsed.find_all(kinds)] == [id(node) for node in parsed.tree.find_all(kinds)]
    assert parsed.references == tuple(jinja2.meta.find_referenced_templates(jinja2.Environment().parse(source)))


def test_the_names_every_kind_of_reference_gives():
    assert make_environment([]).parsed(EVERY_KIND).references == ("part.md.j2", "m.j2", None, None, "c.j2")


def test_compiling_a_shared_tree_leaves_it_as_parsed(monkeypatch):
    source = EVERY_KIND.replace("intro", "compiled-tree case")
    env = make_environment([])
    shared = env.parsed(source)
    env.compile(source, "case.md.j2", None)
    assert env.parsed(source) is shared
    monkeypatch.setattr(template_memo, "_PARSED", _SourceMemo(64))
    fresh = make_environment([]).parsed(source)
    assert fresh is not shared and fresh.tree == shared.tree and len(fresh.nodes) == len(shared.nodes) == 88


def test_a_template_nested_too_deep_in_two_places_is_refused_at_the_later():
    # the depth check named the first node past the limit it met, walking the last child first
    deep = "{{ 'x'" + "|lower" * 60 + " }}"
    source = f"{deep}\n\n{deep}\n{{{{ y }}}}\n"
    with pytest.raises(jinja2.TemplateSyntaxError) as refused:
        make_environment([]).parsed(source)
    assert refused.value.lineno == 3 and refused.value.message.startswith("blocks and expressions")
    just_deep = "{{ 'x'" + "|lower" * (limits.MAX_TEMPLATE_NESTING - 2) + " }}"
    assert len(make_environment([]).parsed(just_deep).nodes) == limits.MAX_TEMPLATE_NESTING  # its literal 50 levels down
