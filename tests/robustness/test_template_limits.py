"""Issue 24, item 5: what a template makes is bounded as it is made.

Each line below makes 70 to 800 million characters in one step (a width, a
precision, a count, a join, a capture) and prints only its length, so the
README stays small: before the limits, render wrote ``70000000`` and exited 0
after allocating it all. Now each is refused before it runs, or as soon as
what it made passes the budget, with one line naming the template line
(exit 1, nothing written)."""

from __future__ import annotations

import json
import string

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2.sandbox import ImmutableSandboxedEnvironment

from studygen.render import limits
from studygen.render.limits import MAX_TEMPLATE_CHARS, printf_size, spec_size, text_size
from tests.robustness.snapshot import snapshot
from tests.robustness.test_sandbox import HOSTILE_LINE, TEMPLATE_FILE, _hostile_template, rendered_tiny  # noqa: F401

REFUSED = "template refused by the sandbox: "
MAKES = "characters or items, more than the"  # a refusal before the operation ran
IN_ALL = f"the {MAX_TEMPLATE_CHARS} characters or items a template may make in all"  # what it made so far passes it
X = "{% set x = 'x' * 10000000 %}"  # 10 million characters, the most one '*' may make

ALLOCATING = {
    "format width": ("{{ '{:>70000000}'.format('x')|length }}", "a format field could make 70000001 " + MAKES),
    "format precision": ("{{ '{:.70000000f}'.format(1.5)|length }}", "a format field could make 70000024 " + MAKES),
    "format width from an argument": ("{{ '{0:{1}}'.format('x', 70000000)|length }}",
                                      "a format field could make 70000001 " + MAKES),
    "format_map width": ("{{ '{a:>70000000}'.format_map({'a': 1})|length }}",
                         "a format field could make 70000002 " + MAKES),
    "printf width": ("{{ ('%70000000d' % 1)|length }}", "'%' could make 70000044 " + MAKES),
    "printf star width": ("{{ ('%*d' % (70000000, 1))|length }}", "'%' could make 70000049 " + MAKES),
    "format filter": ("{{ '%.70000000f'|format(1.5)|length }}", "filter format could make 70000078 " + MAKES),
    "center filter": ("{{ 'x'|center(70000000)|length }}", "filter center could make 70000000 " + MAKES),
    "indent filter": ("{{ 'a\\nb'|indent(70000000)|length }}", "filter indent could make 140000003 " + MAKES),
    "center": ("{{ 'x'.center(70000000)|length }}", "calling center could make 70000000 " + MAKES),
    "ljust": ("{{ 'x'.ljust(70000000)|length }}", "calling ljust could make 70000000 " + MAKES),
    "rjust": ("{{ 'x'.rjust(70000000)|length }}", "calling rjust could make 70000000 " + MAKES),
    "zfill": ("{{ '1'.zfill(70000000)|length }}", "calling zfill could make 70000000 " + MAKES),
    "expandtabs": ("{{ 'x\\t'.expandtabs(70000000)|length }}", "calling expandtabs could make 70000002 " + MAKES),
    "to_bytes": ("{{ (1).to_bytes(70000000, 'big')|length }}", "calling to_bytes could make 70000000 " + MAKES),
    "replace": (X + "{{ x.replace('x', 'xxxxxxxx')|length }}", "calling replace could make 80000000 " + MAKES),
    "replace filter": (X + "{{ x|replace('x', 'xxxxxxxx')|length }}", "filter replace could make 80000000 " + MAKES),
    "join filter": (X + "{{ ([x] * 8)|join|length }}", "filter join could make 80000000 " + MAKES),
    "join of an iterator": (X + "{{ '-'.join(([x] * 8)|select)|length }}", "calling join could make 80000007 " + MAKES),
    "~": (X + "{{ (x ~ x ~ x ~ x ~ x ~ x ~ x ~ x)|length }}", "'~' could make 80000000 " + MAKES),
    # the text of a list counts each string as its repr (up to 10 characters a character), counting
    # stops past the budget
    "printing a list": (X + "{{ ([x] * 8)|string|length }}", "filter string could make 100000020 " + MAKES),
    "printf of a list": (X + "{{ ('%s' % ([x] * 8,))|length }}", "'%' could make 100000054 " + MAKES),
    "captured output": ("{% set b %}{% for i in range(100000) %}{{ 'y' * 1000 }}{% endfor %}{% endset %}{{ b|length }}",
                        IN_ALL),
    "macro output": ("{% macro m() %}{% for i in range(100000) %}{{ 'y' * 1000 }}{% endfor %}{% endmacro %}"
                     "{{ m()|length }}", IN_ALL),
    "repeats in a loop": ("{% for i in range(100) %}{% set y = 'x' * 1000000 %}{% endfor %}done", IN_ALL),
    "slices in a loop": ("{% set x = 'x' * 1000000 %}{% for i in range(100) %}{% set y = x[1:] %}{% endfor %}done",
                         IN_ALL),
}


@pytest.mark.parametrize("case", list(ALLOCATING))
def test_a_template_that_makes_too_much_is_refused_at_its_line(case, rendered_tiny, run_cli):  # noqa: F811
    line, expected = ALLOCATING[case]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    before = snapshot(rendered_tiny)
    done = run_cli("render", "--root", rendered_tiny)
    assert (done.exit_code, done.out) == (1, ""), done.out[-300:]
    assert done.err.startswith(f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: {REFUSED}"), done.err
    assert expected in done.err and done.err.count("\n") == 1, done.err
    assert snapshot(rendered_tiny) == before


def test_check_reports_the_refusal_as_render_does(rendered_tiny, run_cli):  # noqa: F811
    line, expected = ALLOCATING["format width"]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    done = run_cli("check", "--root", rendered_tiny)
    assert done.exit_code == 1 and done.err == ""
    assert (f"families/tiny/study.yaml: SG201 cannot render: {TEMPLATE_FILE}:{HOSTILE_LINE}: {REFUSED}"
            f"{expected}") in done.out


MODEST = ("{{ '{:>6}|{:.2f}'.format('ab', 1.5) }}{{ '|{0:.>{1}}'.format(4, 3) }} {{ '%5d|%-4s|%*d' % (42, 'x', 3, 7) }} "
          "{{ 'x'|center(5) }}|{{ 'a\\nb'|indent(2) }}|{{ 'ab'.ljust(4, '.') }}{{ '7'.zfill(3) }} "
          "{{ 'a\\tb'.expandtabs(4) }} {{ 'aXbX'.replace('X', '--') }} {{ ['p', 'q']|join('+') }} "
          "{{ '-'.join(['r', 's']|map('upper')) }} {{ 'u' ~ 1 ~ 'v' }} {% set c %}{{ 'w' * 3 }}{% endset %}{{ c }} "
          "{{ '{k}'.format_map({'k': 'm'}) }} {{ [1, 2]|string }} {{ '<' ~ ('z'|safe) }}")


def test_modest_widths_counts_and_joins_still_make_what_they_did(rendered_tiny, run_cli):  # noqa: F811
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(MODEST), encoding="utf-8")
    done = run_cli("render", "--root", rendered_tiny)
    assert done.exit_code == 0, done.err
    readme = (rendered_tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if "1.50" in line).replace("\\", "")
    # "a\nb"|indent(2) folds to "a b" in prose, and mdformat folds the blanks of expandtabs
    # '~' joins as Jinja does outside autoescape: the '<' is escaped once, for prose (mdformat writes it \<),
    # not first by Markup's join (which would make it &amp;lt;)
    assert line == "ab|1.50|..4 42|x | 7 x |a b|ab..007 a b a--b-- p+q R-S u1v www m [1, 2] <z"


# ---- the bounds themselves: never below what the operation makes ----

texts = st.text(alphabet=string.printable + "é\u2028\x00😀", max_size=12)
leaves = texts | st.integers(min_value=-10**30, max_value=10**30) | st.floats(allow_nan=False) | st.none() | st.booleans()
values = st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                      | st.dictionaries(texts, inner, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(values)
def test_text_size_is_at_least_the_length_of_the_text(value):
    assert text_size(value) >= len(str(value))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="%-#0 +.*()sdfxra1234567890", max_size=12), st.lists(st.integers(0, 40), max_size=4))
def test_printf_size_is_at_least_the_length_of_what_percent_makes(template, numbers):
    try:
        made = template % tuple(numbers)
    except (TypeError, ValueError):
        return  # a template Python refuses makes nothing
    assert printf_size(template, tuple(numbers)) >= len(made)


def test_the_size_of_text_is_its_length_without_walking_a_container(monkeypatch):
    """Text (nearly every value a template prints) is measured by its length; jinja2's Namespace is looked up
    only for a container. Failed before: every call imported it first."""
    import sys

    from studygen.render.prose import Markdown

    monkeypatch.setitem(sys.modules, "jinja2.runtime", None)  # an import of it would fail now
    assert (text_size("5.850 ms"), text_size(Markdown("| a |")), text_size("")) == (8, 5, 0)
    with pytest.raises(ImportError):
        text_size(["5.850"])


def test_text_size_of_other_objects_and_indented_dumps():
    assert text_size(object()) >= len(str(object()))  # an object's own short str: "<object object at 0x…>"
    assert limits._nested_size([1, [2, 3]], 4) == 2 * (1 * 4 + 1) + 2 * (2 * 4 + 1)
    assert limits._nested_size({"a": 1}, "  ") >= len(json.dumps({"a": 1}, indent="  ")) - len(json.dumps({"a": 1}))
    assert limits._nested_size(7, 4) == 0


def test_nesting_is_refused_past_the_limit_not_at_it(tmp_path):
    from jinja2.exceptions import TemplateSyntaxError

    from studygen.render.engine import make_environment

    env = make_environment([tmp_path])
    # below the template (level 0): its output, one node a filter, the string: k filters reach level k + 2
    env.parse("{{ 'x'" + "|lower" * (limits.MAX_TEMPLATE_NESTING - 2) + " }}")
    with pytest.raises(TemplateSyntaxError, match="nested more than 50 levels deep"):
        env.parse("{{ 'x'" + "|lower" * (limits.MAX_TEMPLATE_NESTING - 1) + " }}")


def test_code_python_refuses_is_placed_at_line_0_when_no_template_line_maps_to_it():
    from jinja2.exceptions import TemplateSyntaxError

    with pytest.raises(TemplateSyntaxError) as raised:
        limits.compile_generated("x = " + "(" * 300 + ")" * 300 + "\n", "t.j2")
    assert raised.value.lineno == 0 and raised.value.filename == "t.j2"
    with pytest.raises(TemplateSyntaxError) as raised:
        limits.compile_generated("x = 1\ny = " + "(" * 300 + ")" * 300 + "\ndebug_info = '4=1&7=2'\n", "t.j2")
    assert raised.value.lineno == 7  # template line 7 made Python line 2


@pytest.mark.parametrize("spec, size", [("", 0), (">12", 12), ("0>5.3f", 5), ("_<7,", 7), (".9e", 9),
                                        ("1" * 40, 10**12)])
def test_spec_size_is_the_largest_number_in_a_format_spec(spec, size):
    assert spec_size(spec) == size


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab\t", max_size=10), st.text(alphabet="ab", max_size=2), st.text(alphabet="abc", max_size=4),
       st.integers(-1, 5), st.integers(0, 12))
def test_method_bounds_are_at_least_what_the_method_makes(text, old, new, count, width):
    for name, args in (("replace", (old, new, count)), ("center", (width,)), ("ljust", (width, "*")),
                       ("rjust", (width,)), ("zfill", (width,)), ("expandtabs", (width,)), ("join", ([text, new],)),
                       ("translate", ({97: new},))):
        method = getattr(text, name)
        assert limits.call_size(method, args, {}) >= len(method(*args)), (name, args)
    if len(new) >= len(old):  # a growing replace is bounded exactly
        assert limits.call_size(text.replace, (old, new, count), {}) == len(text.replace(old, new, count))
    assert limits.call_size(text.join, ([old, new],), {}) == len(text.join([old, new]))


def test_every_method_and_filter_a_template_can_reach_is_bounded():
    """A new Python or Jinja version that adds a method or a filter fails here until it is listed."""
    known = set(limits.SIZED_METHODS) | limits.LINEAR_METHODS | set(limits.NUMBER_METHODS)
    attributes = {"real", "imag", "numerator", "denominator"}
    for kind in (str, bytes, int, float):
        assert {m for m in dir(kind) if not m.startswith("_")} - attributes <= known, kind
    filters = set(limits.SIZED_FILTERS) | limits.PRINTING_FILTERS | limits.LINEAR_FILTERS
    assert set(ImmutableSandboxedEnvironment().filters) == filters


def test_an_unlisted_filter_or_method_is_refused_when_used():
    budget = limits.TemplateBudget()
    refused = limits.budgeted_filters({"novel": lambda value: value}, budget)["novel"]
    with pytest.raises(jinja2.exceptions.SecurityError, match="filter novel is not one studygen's template limits"):
        refused("x")

    class Text(str):
        def novel(self):
            return self

    with pytest.raises(jinja2.exceptions.SecurityError, match="Text.novel is not a method"):
        limits.call_size(Text("x").novel, (), {})


def test_the_budget_counts_what_was_made_and_refuses_past_its_limit():
    budget = limits.TemplateBudget(limit=10)
    assert budget.made_by("abcd", "x") == "abcd" and budget.made_by([1, 2], "x") == [1, 2] and budget.made == 6
    assert budget.made_by(12345, "x") == 12345 and budget.made == 6  # a number is not charged
    budget.room(4, "y")
    with pytest.raises(jinja2.exceptions.SecurityError, match="y could make 5 characters or items, more than the 4 "
                                                              "left of the 10 characters or items a template"):
        budget.room(5, "y")
    with pytest.raises(jinja2.exceptions.SecurityError, match="z took what this template made past the 10 characters"):
        budget.made_by("abcde", "z")


# ---- issue 24, item 6: deep templates are one template error, in render and check alike ----

DEEP = "template syntax error: blocks and expressions (filters, parentheses, operators) nested more than 50 levels deep"
DEEP_TEMPLATES = {
    "2,000 chained filters": ("{{ 'x'" + "|lower" * 2000 + " }}", DEEP),
    "5,000 nested parentheses": ("{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}", DEEP),
    "5,000 nested lists": ("{{ " + "[" * 5000 + "1" + "]" * 5000 + " }}", DEEP),
    "2,000 additions": ("{{ 1" + " + 1" * 2000 + " }}", DEEP),
    "200 nested ifs": ("{% if 1 %}" * 200 + "x" + "{% endif %}" * 200, DEEP),
    "60 nested macros": ("{% macro m() %}" * 60 + "{% endmacro %}" * 60, DEEP),
    # within the nesting limit, past Python's 20 statically nested blocks
    "25 nested loops": ("{% for i in [1] %}" * 25 + "{% endfor %}" * 25,
                        "template syntax error: nested too deeply for Python to compile (too many statically nested "
                        "blocks)"),
}


@pytest.mark.parametrize("case", list(DEEP_TEMPLATES))
def test_a_deep_template_is_one_template_error_in_render_and_in_check(case, rendered_tiny, run_cli):  # noqa: F811
    line, expected = DEEP_TEMPLATES[case]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    before = snapshot(rendered_tiny)
    rendered = run_cli("render", "--root", rendered_tiny)
    assert (rendered.exit_code, rendered.out) == (1, "")
    assert rendered.err == f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: {expected}" + (
        "; the limit is 50\n" if expected == DEEP else "\n")
    checked = run_cli("check", "--root", rendered_tiny)
    assert (checked.exit_code, checked.err) == (1, "")
    assert f"families/tiny/study.yaml: SG201 cannot render: {rendered.err[len('studygen: '):].rstrip()}" \
        in checked.out.splitlines()
    assert snapshot(rendered_tiny) == before


def test_nesting_within_the_limit_still_renders(rendered_tiny, run_cli):  # noqa: F811
    line = ("{{ 'X'" + "|lower" * 40 + " }} {{ " + "(" * 40 + "2" + ")" * 40 + " }} "
            + "{% if 1 %}" * 40 + "deep" + "{% endif %}" * 40 + " " + "{% for i in [1] %}" * 15 + "{{ i }}"
            + "{% endfor %}" * 15 + " end")
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    done = run_cli("render", "--root", rendered_tiny)
    assert done.exit_code == 0, done.err
    assert "\nx 2 deep 1 end\n" in (rendered_tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")


# ---- a template file is read as every text input is ----

@pytest.mark.parametrize("included", [False, True])
def test_a_template_that_is_not_utf8_is_one_template_error_in_render_and_check(included, rendered_tiny, run_cli):  # noqa: F811
    # check crashed with "internal error: UnicodeDecodeError" where render reported a template error
    bad = b"fine\n\xff\xfe here\n"
    if included:
        (rendered_tiny / "templates" / "part.md.j2").write_bytes(bad)
        (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("{% include 'part.md.j2' %}"), encoding="utf-8")
        expected = "templates/part.md.j2:2: template cannot be read: not UTF-8 text: byte 1 of the line (byte 6 of the file)"
    else:
        (rendered_tiny / TEMPLATE_FILE).write_bytes(bad)
        expected = f"{TEMPLATE_FILE}:2: template cannot be read: not UTF-8 text: byte 1 of the line (byte 6 of the file)"
    rendered = run_cli("render", "--root", rendered_tiny)
    assert (rendered.exit_code, rendered.out, rendered.err) == (1, "", f"studygen: {expected}\n")
    checked = run_cli("check", "--root", rendered_tiny)
    assert (checked.exit_code, checked.err) == (1, "")
    assert f"families/tiny/study.yaml: SG201 cannot render: {expected}" in checked.out.splitlines()


def test_a_template_whose_output_nests_too_deep_for_mdformat_is_a_template_error(rendered_tiny, run_cli):  # noqa: F811
    # issue 24: render and check stopped with "internal error: RecursionError" inside mdformat
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("x" + "*" * 20000 + "y" + "*" * 20000),
                                               encoding="utf-8")
    before = snapshot(rendered_tiny)
    expected = (f"{TEMPLATE_FILE}: template error: its output nests emphasis, links, quotes or lists too deeply for "
                "mdformat to format (more levels than Python's recursion limit)")
    rendered = run_cli("render", "--root", rendered_tiny)
    assert (rendered.exit_code, rendered.out, rendered.err) == (1, "", f"studygen: {expected}\n")
    checked = run_cli("check", "--root", rendered_tiny)
    assert (checked.exit_code, checked.err) == (1, "")
    assert f"families/tiny/study.yaml: SG201 cannot render: {expected}" in checked.out.splitlines()
    assert snapshot(rendered_tiny) == before
