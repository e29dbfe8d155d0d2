"""Templates compiled once per process for every environment that loads the
same source (issue 25 item 5: three shipped families share the generic
template), keyed on the source text itself, so a changed file is compiled
afresh and nothing read from disk is trusted."""

from __future__ import annotations

import traceback

import jinja2
import pytest

from studygen.render import engine
from studygen.render.engine import _SourceMemo, make_environment, referenced_templates


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
    assert ("{% for x in %}", "broken.md.j2", None) not in engine._COMPILED.entries


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
