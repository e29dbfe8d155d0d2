"""Each ``{{ value }}`` of a template prints through one call,
``environment.printed(value)``, where render's code generator wrapped
Jinja's ``str(environment.finalize(value))`` in ``environment.produced(…)``
(issue 25 item 5: shorter code, which Python compiles faster). What a
template prints, and how it fails, is as before."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from studygen.render import limits, template_memo
from studygen.render.engine import _template_error, make_environment
from studygen.render.prose import Markdown
from studygen.render.template_memo import _SourceMemo


@pytest.fixture
def fresh_memo(monkeypatch):
    monkeypatch.setattr(template_memo, "_PARSED", _SourceMemo(64))
    monkeypatch.setattr(template_memo, "_COMPILED", _SourceMemo(64))


class Shown:
    """An object whose default repr holds its address (refused in the output)."""


CASES = [
    ("{{ a }} and {{ b }}\n{% for x in c %}- {{ x }}\n{% endfor %}", {"a": "B200\n\n# heading", "b": 7, "c": [None, 1.5, "*x*"]}),
    ("{{ a }}", {"a": Markdown("| kept | as is |")}),
    ("{% set s %}{{ a }}{% endset %}[{{ s }}]", {"a": "<b>"}),
    ("{% autoescape true %}{{ a }}{% endautoescape %} {{ a }}", {"a": "<b>_x_</b>"}),
    ("line one\n{{ a }}", {"a": Shown()}),
    ("{{ a }}", {"a": [1, "two"]}),
    ("{% autoescape on %}{{ a }}{% endautoescape %}|{% autoescape off %}{{ a }}{% endautoescape %}",
     {"a": "<i>", "on": True, "off": False}),  # escaping decided as it prints
    ("one\n\n{{ a }}", {"a": "x" * 80, "budget": 60}),  # the budget of 60 characters cannot hold what it prints
    ("one\n{{ a }}", {"a": "<" * 20, "budget": 60}),  # room for its 20 characters, not for the 80 escaped
    ("{{ a.b }}", {"a": {}}),
]


def _outcome(source: str, context: dict):
    env = make_environment([])
    if "budget" in context:
        env.budget = limits.TemplateBudget(limit=context["budget"])
    try:
        return "printed", env.from_string(source).render(**context)
    except Exception as exc:  # noqa: BLE001 - the failure is what is compared
        error = _template_error(exc, "case.md.j2")
        return "refused", error.message, error.place.line


@pytest.mark.parametrize("which", range(len(CASES)))
def test_what_a_template_prints_or_how_it_fails_is_as_before(fresh_memo, monkeypatch, which):
    source, context = CASES[which]
    one_call = _outcome(source, context)
    monkeypatch.setattr(template_memo, "_COMPILED", _SourceMemo(64))
    monkeypatch.setattr(limits, "_printed_in_one_call", lambda frame, finalize: False)  # the code as it was written
    assert one_call == _outcome(source, context)


def test_the_outcomes_compared_are_the_real_ones(fresh_memo):
    assert _outcome(*CASES[6]) == ("printed", "&amp;lt;i&amp;gt;|&lt;i&gt;")  # escaped for HTML, then for prose
    assert _outcome(*CASES[0]) == ("printed", "B200 # heading and 7\n- None\n- 1.5\n- *x*\n")  # line breaks folded
    assert _outcome(*CASES[1]) == ("printed", "| kept | as is |")
    refused = _outcome(*CASES[4])
    assert refused[0] == "refused" and refused[2] == 2 and "its address differs from run to run" in refused[1]
    assert _outcome(*CASES[7])[1:] == ("template refused by the sandbox: printing a value could make 80 characters or "
                                       "items, more than the 55 left of the 60 characters or items a template may make "
                                       "in all", 3)  # 60 less the 5 of "one\n\n"
    assert _outcome(*CASES[8])[1:] == ("template refused by the sandbox: the text it prints took what this template "
                                       "made past the 60 characters or items a template may make in all", 2)  # 4 + 80 > 60
    assert _outcome(*CASES[9])[0:2] == ("refused", "undefined name in template: 'dict object' has no attribute 'b'")


def test_a_print_is_one_call_outside_autoescape(fresh_memo):
    code = make_environment([]).compile("{{ a }}{% autoescape true %}{{ b }}{% endautoescape %}", raw=True)
    assert "yield environment.printed((undefined(name='a') if l_0_a is missing else l_0_a))" in code
    assert "environment.finalize(" not in code.split("autoescape")[0] and code.count("environment.printed(") == 1
    assert "environment.produced(escape(environment.finalize(" in code  # inside autoescape: as before


def test_only_a_finalize_of_the_value_alone_prints_in_one_call():
    plain = SimpleNamespace(eval_ctx=SimpleNamespace(volatile=False, autoescape=False))
    assert limits._printed_in_one_call(plain, SimpleNamespace(src="environment.finalize("))
    # a finalize given the context or the environment first, or none: Jinja's code, wrapped as before
    for src in ("environment.finalize(context, ", "environment.finalize(environment, ", None):
        assert not limits._printed_in_one_call(plain, SimpleNamespace(src=src))
