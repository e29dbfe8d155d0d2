"""Templates run in Jinja's immutable sandbox: reaching for ``__class__``,
module globals, imports or files, changing the study (its spec, its rows),
running past the step budget or the output limit, or printing an object's
repr fails with one line naming the template file and line (exit 1), and
nothing is written."""

from __future__ import annotations

import pytest

from studygen.render.engine import MAX_OUTPUT_CHARS, MAX_TEMPLATE_STEPS
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import TEMPLATE, make_tiny_project

HOSTILE_LINE = 3  # the line each case is inserted at (1-based)
TEMPLATE_FILE = "templates/tiny.md.j2"

REFUSED = "template refused by the sandbox: access to attribute"
NOT_FOUND = ("not found in families/tiny, templates (templates may include only template files there, named *.j2, "
             "*.jinja, *.jinja2)")

CASES = {
    "str __class__": ("{{ ''.__class__ }}", f"{REFUSED} '__class__' of 'str' object is unsafe"),
    "subclasses walk": ("{{ ''.__class__.__mro__[1].__subclasses__() }}", f"{REFUSED} '__class__' of 'str' object"),
    "list base subclasses": ("{{ [].__class__.__base__.__subclasses__() }}", f"{REFUSED} '__class__' of 'list' object"),
    "attr filter": ("{{ study.title | attr('__class__') }}", f"{REFUSED} '__class__' of 'str' object"),
    "format string": ("{{ '{0.__class__}'.format(study) }}", f"{REFUSED} '__class__' of 'StudyView' object"),
    "template reference context": ("{{ self._TemplateReference__context }}",
                                   f"{REFUSED} '_TemplateReference__context' of 'TemplateReference' object"),
    "cycler globals": ("{{ cycler.__init__.__globals__.os }}", f"{REFUSED} '__init__' of 'type' object"),
    "lipsum globals": ("{{ lipsum.__globals__['os'].popen('id').read() }}", "undefined name in template: 'lipsum' is undefined"),
    "method globals": ("{{ study.figures.__func__.__globals__ }}", f"{REFUSED} '__func__' of 'method' object"),
    "private view state": ("{{ study._study.root }}", f"{REFUSED} '_study' of 'StudyView' object"),
    "import module": ("{% import 'os' as os %}{{ os.system('id') }}", f"template 'os' {NOT_FOUND}"),
    "from import": ("{% from 'subprocess' import run %}", f"template 'subprocess' {NOT_FOUND}"),
    "include absolute file": ("{% include '/etc/passwd' %}", f"template '/etc/passwd' {NOT_FOUND}"),
    "include parent path": ("{% include '../../../../../../etc/hostname' %}",
                            f"template '../../../../../../etc/hostname' {NOT_FOUND}"),
    "extends absolute file": ("{% extends '/etc/passwd' %}", f"template '/etc/passwd' {NOT_FOUND}"),
    # the family folder is a template folder, but its README, study file and charts are no templates (attack
    # round: the README included itself, feeding the last render into the next; the study file printed as prose)
    "include the family README": ("{% include 'README.md' %}", f"template 'README.md' {NOT_FOUND}"),
    "import the study file": ("{% import 'study.yaml' as s %}", f"template 'study.yaml' {NOT_FOUND}"),
    "include a chart": ("{% include 'figures/latency.svg' %}", f"template 'figures/latency.svg' {NOT_FOUND}"),
    "include a record": ("{% include '../measurements/tiny/job-a.json' %}",
                         f"template '../measurements/tiny/job-a.json' {NOT_FOUND}"),
    # attack round: Jinja's lexer raised Python's ValueError; render named no line, check crashed (internal error)
    "integer past Python's digit limit": ("{{ 9" + "9" * 5000 + " }}", "template syntax error: an integer of 5001 "
                                          "digits; Python reads at most 4300"),
    "open builtin": ("{{ open('/etc/passwd').read() }}", "undefined name in template: 'open' is undefined"),
    "huge range": ("{{ range(10**9) | list | length }}", "The sandbox blocks ranges larger than MAX_RANGE"),
    "string repeat bomb": ("{{ 'x' * 10000000000 }}",
                           "template refused by the sandbox: '*' would make 10000000000 items; a template may make at most"),
    "list repeat bomb": ("{{ ([0] * 1000) * 1000000 }}", "template refused by the sandbox: '*' would make 1000000000 items"),
    "power bomb": ("{{ 10 ** (10 ** 10) }}", "template refused by the sandbox: '**' would make an integer of about"),
    # the template cannot change what check compares the README with
    "waiver appended": ("{% set _ = study.spec.setdefault('waivers', []).append({'code': 'SG201', 'match': '', "
                        "'reason': 'x'}) %}", f"{REFUSED} 'setdefault' of 'dict' object is unsafe."),
    "spec updated": ("{% set _ = study.spec.update({'title': 'x'}) %}", f"{REFUSED} 'update' of 'dict' object is unsafe."),
    "decision popped": ("{{ study.decision.pop('summary') }}", f"{REFUSED} 'pop' of 'dict' object is unsafe."),
    "row reached": ("{% for f in study.figures() %}{{ f._row.result.update({'value_ms': 1}) }}{% endfor %}",
                    f"{REFUSED} '_row' of 'TemplateRow' object is unsafe."),
    "row list changed": ("{% for f in study.figures() %}{{ (f.repeat_medians_ms or []).append(1) }}{% endfor %}",
                         f"{REFUSED} 'append' of 'list' object is unsafe."),
    "list grown while iterated": ("{% set xs = [1] %}{% for x in xs %}{{ xs.append(x) }}{% endfor %}",
                                  f"{REFUSED} 'append' of 'list' object is unsafe."),
    # bounded execution
    "nested loops": ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
                     f"template refused by the sandbox: more than {MAX_TEMPLATE_STEPS} steps (loop items and calls): "
                     "a loop that does not end, or loops nested too deep"),
    "calls in a loop": ("{% for i in range(100000) %}{% for j in range(100) %}{{ study.label('fp8') }}{% endfor %}"
                        "{% endfor %}", f"more than {MAX_TEMPLATE_STEPS} steps"),
    "output bomb": ("{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}",
                    f"template refused by the sandbox: output past {MAX_OUTPUT_CHARS} characters, more than a README "
                    "may hold"),
    # refused before it runs (it ran out of memory before issue 24)
    "memory": ("{{ ('x' * 10000000).replace('x', 'x' * 10000000) }}",
               "template refused by the sandbox: calling replace could make 100000000000000 characters or items, "
               "more than the 47108737 left of the 67108864 characters or items a template may make in all"),
    # no printable repr: an address differs from run to run
    "repr by format": ("{{ '%s'|format(study) }}", "template refused by the sandbox: prints an object, not a figure or "
                       "text ('<studygen.render.view.StudyView object at 0x"),
    "repr of a method": ("{{ study.table }}", "prints an object, not a figure or text ('TableHelpers.table of <studygen.render.view.StudyView object at 0x"),
    "repr by string filter": ("{{ study|string }}", "prints an object, not a figure or text"),
    "repr by pprint": ("{{ study|pprint }}", "prints an object, not a figure or text"),
    "repr by concatenation": ("{{ 'view: ' ~ study }}", "prints an object, not a figure or text ('view: <studygen"),
    "repr of a jinja object": ("{{ cycler(1, 2) }}", "prints an object, not a figure or text ('<jinja2.utils.Cycler"),
}


def _hostile_template(line: str) -> str:
    lines = TEMPLATE.splitlines()
    lines.insert(HOSTILE_LINE - 1, line)
    return "\n".join(lines) + "\n"


@pytest.fixture
def rendered_tiny(tmp_path, run_cli):
    """A tiny project rendered once with its good template (the 'old' state)."""
    root = make_tiny_project(tmp_path / "project")
    result = run_cli("render", "--root", root)
    assert result.exit_code == 0, result.err
    return root


@pytest.mark.parametrize("case", ["integer past Python's digit limit", "nested loops", "include the family README"])
def test_check_reports_a_hostile_template_as_sg201_at_its_line_without_an_internal_error(case, rendered_tiny, run_cli):
    line, expected = CASES[case]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("check", "--root", rendered_tiny)
    assert (result.exit_code, result.err) == (1, "")
    (found,) = [text for text in result.out.splitlines() if " SG201 cannot render: " in text]
    assert found.startswith(f"families/tiny/study.yaml: SG201 cannot render: {TEMPLATE_FILE}:{HOSTILE_LINE}: ")
    assert expected in found


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_template_fails_with_one_line_naming_template_line(case, rendered_tiny, run_cli):
    line, expected = CASES[case]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    before = snapshot(rendered_tiny)
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.out == ""
    assert result.err.count("\n") == 1, result.err
    assert result.err.startswith(f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: "), result.err
    assert expected in result.err
    assert "internal error" not in result.err and "Traceback" not in result.err
    assert snapshot(rendered_tiny) == before  # nothing written, no temp file left


def test_check_reports_hostile_template_as_sg201_with_its_line(rendered_tiny, run_cli):
    line, _ = CASES["cycler globals"]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("check", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err == ""
    expected = (f"families/tiny/study.yaml: SG201 cannot render: {TEMPLATE_FILE}:{HOSTILE_LINE}: "
                "template refused by the sandbox: access to attribute '__init__' of 'type' object is unsafe.")
    assert expected in result.out.splitlines()


def test_error_inside_included_template_names_that_file_and_line(rendered_tiny, run_cli):
    (rendered_tiny / "templates" / "part.md.j2").write_text("fine\nfine\n{{ [].__class__ }}\n", encoding="utf-8")
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("{% include 'part.md.j2' %}"), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err == ("studygen: templates/part.md.j2:3: template refused by the sandbox: "
                          "access to attribute '__class__' of 'list' object is unsafe.\n")


def test_syntax_error_in_included_template_names_that_file_and_line(rendered_tiny, run_cli):
    (rendered_tiny / "templates" / "part.md.j2").write_text("fine\n{% if %}\n", encoding="utf-8")
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("{% include 'part.md.j2' %}"), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err.startswith("studygen: templates/part.md.j2:2: template syntax error: ")
    assert result.err.count("\n") == 1


def test_symlinked_template_cannot_read_a_file_outside_the_template_folders(tmp_path, rendered_tiny, run_cli):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("SECRET-TOKEN-VALUE\n", encoding="utf-8")
    (rendered_tiny / "templates" / "link.md.j2").symlink_to(secret)
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("{% include 'link.md.j2' %}"), encoding="utf-8")
    before = snapshot(rendered_tiny)
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err == f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: template error: template 'link.md.j2' {NOT_FOUND}\n"
    assert "SECRET" not in result.out + result.err
    assert snapshot(rendered_tiny) == before


def test_a_template_named_link_to_the_family_readme_is_refused(rendered_tiny, run_cli):
    # the link lies in a template folder and resolves inside one; its target is the README render writes
    (rendered_tiny / "templates" / "readme.md.j2").symlink_to(rendered_tiny / "families" / "tiny" / "README.md")
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template("{% include 'readme.md.j2' %}"), encoding="utf-8")
    before = snapshot(rendered_tiny)
    result = run_cli("render", "--root", rendered_tiny)
    assert (result.exit_code, result.out) == (1, "")
    assert result.err == f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: template error: template 'readme.md.j2' {NOT_FOUND}\n"
    assert snapshot(rendered_tiny) == before


@pytest.mark.parametrize("command", ["render", "check"])
def test_a_study_file_naming_its_readme_as_its_template_is_refused(rendered_tiny, run_cli, command):
    study = rendered_tiny / "families" / "tiny" / "study.yaml"
    study.write_text(study.read_text(encoding="utf-8").replace("template: tiny.md.j2", "template: README.md"),
                     encoding="utf-8")
    before = snapshot(rendered_tiny)
    result = run_cli(command, "--root", rendered_tiny)
    assert result.exit_code == 1 and "Traceback" not in result.err
    # the study file's line of its template key, then the pointer (a new user's s27 report: no line was given)
    line = next(n for n, text in enumerate(study.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("template:"))
    message = (f"families/tiny/study.yaml:{line}: template 'README.md' not found in families/tiny, templates (a "
               "template file is named *.j2, *.jinja, *.jinja2) (/template)")
    if command == "render":
        assert result.err == f"studygen: {message}\n"
    else:
        assert f"families/tiny/study.yaml: SG201 cannot render: {message}" in result.out.splitlines()
    assert snapshot(rendered_tiny) == before


def test_recursive_macro_is_a_template_error(rendered_tiny, run_cli):
    line = "{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}"
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err.startswith(f"studygen: {TEMPLATE_FILE}:{HOSTILE_LINE}: template error: maximum recursion depth")


def test_modest_arithmetic_still_works(rendered_tiny, run_cli):
    line = "{{ '=' * 3 }} {{ 2 ** 10 }} {{ ([1] * 2) | length }} {{ 3 * 4 }}"
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 0, result.err
    readme = (rendered_tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    assert "=== 1024 2 12" in readme.replace("\\", "")  # mdformat may escape the '='


def test_a_template_that_changed_the_study_no_longer_makes_check_pass_a_hand_edited_readme(rendered_tiny, run_cli):
    readme = rendered_tiny / "families" / "tiny" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace("FP8 is not shipped", "FP8 is shipped"),
                      encoding="utf-8")
    line, _ = CASES["waiver appended"]
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("check", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert (f"families/tiny/study.yaml: SG201 cannot render: {TEMPLATE_FILE}:{HOSTILE_LINE}: template refused by the "
            "sandbox: access to attribute 'setdefault' of 'dict' object is unsafe.") in result.out.splitlines()


def test_loops_within_the_budget_run_and_count_every_item(rendered_tiny, run_cli):
    # steps: 990 x 1000 inner items, 990 outer items, 991 range() calls and namespace(): under the budget
    line = "{% set ns = namespace(n=0) %}{% for i in range(990) %}{% for j in range(1000) %}{% endfor %}" \
           "{% set ns.n = ns.n + 1 %}{% endfor %}loops: {{ ns.n }}"
    assert 990 * 1000 + 990 + 991 + 1 < MAX_TEMPLATE_STEPS
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 0, result.err
    assert "loops: 990" in (rendered_tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")


def test_loop_helpers_still_work_on_budgeted_loops(rendered_tiny, run_cli):
    line = ("{% for x in ['a', 'b', 'c'] %}{{ loop.index }}/{{ loop.length }}{{ '.' if loop.last else ',' }}"
            "{% else %}none{% endfor %} {% for x in [] %}x{% else %}empty{% endfor %}")
    (rendered_tiny / TEMPLATE_FILE).write_text(_hostile_template(line), encoding="utf-8")
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 0, result.err
    assert "1/3,2/3,3/3. empty" in (rendered_tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")


def test_a_missing_template_is_named_at_the_study_files_template_field(rendered_tiny, run_cli):
    study_file = rendered_tiny / "families" / "tiny" / "study.yaml"
    study_file.write_text(study_file.read_text(encoding="utf-8").replace("tiny.md.j2", "absent.md.j2"), encoding="utf-8")
    before = snapshot(rendered_tiny)
    result = run_cli("render", "--root", rendered_tiny)
    assert result.exit_code == 1
    assert result.err.startswith("studygen: families/tiny/study.yaml")
    assert "/template" in result.err and "template 'absent.md.j2' not found in families/tiny, templates" in result.err
    assert len(result.err.splitlines()) == 1
    assert snapshot(rendered_tiny) == before
