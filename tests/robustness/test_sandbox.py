"""Templates run in Jinja's sandbox: reaching for ``__class__``, module
globals, imports or files fails with one line naming the template file and
line (exit 1), and nothing is written."""

from __future__ import annotations

import pytest

from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import TEMPLATE, make_tiny_project

HOSTILE_LINE = 3  # the line each case is inserted at (1-based)
TEMPLATE_FILE = "templates/tiny.md.j2"

REFUSED = "template refused by the sandbox: access to attribute"
NOT_FOUND = "not found in families/tiny, templates (templates may include only files there)"

CASES = {
    "str __class__": ("{{ ''.__class__ }}", f"{REFUSED} '__class__' of 'str' object is unsafe"),
    "subclasses walk": ("{{ ''.__class__.__mro__[1].__subclasses__() }}", f"{REFUSED} '__class__' of 'str' object"),
    "list base subclasses": ("{{ [].__class__.__base__.__subclasses__() }}", f"{REFUSED} '__class__' of 'list' object"),
    "attr filter": ("{{ study.title | attr('__class__') }}", f"{REFUSED} '__class__' of 'str' object"),
    "format string": ("{{ '{0.__class__}'.format(study) }}", f"{REFUSED} '__class__' of 'StudyView' object"),
    "template reference context": ("{{ self._TemplateReference__context }}",
                                   f"{REFUSED} '_TemplateReference__context' of 'TemplateReference' object"),
    "cycler globals": ("{{ cycler.__init__.__globals__.os }}", f"{REFUSED} '__init__' of 'type' object"),
    "lipsum globals": ("{{ lipsum.__globals__['os'].popen('id').read() }}", f"{REFUSED} '__globals__' of 'function' object"),
    "method globals": ("{{ study.figures.__func__.__globals__ }}", f"{REFUSED} '__func__' of 'method' object"),
    "private view state": ("{{ study._study.root }}", f"{REFUSED} '_study' of 'StudyView' object"),
    "import module": ("{% import 'os' as os %}{{ os.system('id') }}", f"template 'os' {NOT_FOUND}"),
    "from import": ("{% from 'subprocess' import run %}", f"template 'subprocess' {NOT_FOUND}"),
    "include absolute file": ("{% include '/etc/passwd' %}", f"template '/etc/passwd' {NOT_FOUND}"),
    "include parent path": ("{% include '../../../../../../etc/hostname' %}",
                            f"template '../../../../../../etc/hostname' {NOT_FOUND}"),
    "extends absolute file": ("{% extends '/etc/passwd' %}", f"template '/etc/passwd' {NOT_FOUND}"),
    "open builtin": ("{{ open('/etc/passwd').read() }}", "undefined name in template: 'open' is undefined"),
    "huge range": ("{{ range(10**9) | list | length }}", "The sandbox blocks ranges larger than MAX_RANGE"),
    "string repeat bomb": ("{{ 'x' * 10000000000 }}",
                           "template refused by the sandbox: '*' would make 10000000000 items; a template may make at most"),
    "list repeat bomb": ("{{ ([0] * 1000) * 1000000 }}", "template refused by the sandbox: '*' would make 1000000000 items"),
    "power bomb": ("{{ 10 ** (10 ** 10) }}", "template refused by the sandbox: '**' would make an integer of about"),
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
