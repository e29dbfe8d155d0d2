"""The rule table (studygen/rules.py) is the one place a finding code is declared.

Everything that names codes is read from it: default severities, the lint
and check registries, ``studygen lint --help`` and the README's table; and no
module other than the table and the code's own module writes a code as a
string literal (docstrings and comments citing a code are fine).
"""

from __future__ import annotations

import ast
import importlib
import re
import sys

import pytest

from studygen import checks, lint
from studygen.findings import CODES, Finding
from studygen.rules import ERROR, RULES, WARNING, help_line, lint_code_list, markdown_table, rules_in

from tests.conftest import REPO

PACKAGE = REPO / "studygen"
CODE = re.compile(r"SG\d{3}")


def test_one_rule_per_code_in_order_with_an_existing_module():
    codes = [rule.code for rule in RULES]
    assert codes == [f"SG10{i}" for i in range(1, 8)] + [f"SG2{i:02d}" for i in range(1, 27)]
    for rule in RULES:
        assert rule.severity in (ERROR, WARNING), rule
        assert rule.name and rule.summary and "\n" not in rule.summary and "|" not in rule.summary, rule
        module = importlib.import_module(rule.module)
        expected_prefix = "studygen.lint.sg1" if rule.code.startswith("SG1") else "studygen.checks."
        assert rule.module.startswith(expected_prefix), rule
        if rule.code[2] != "1" and rule.code != "SG216":
            assert rule.module.startswith(f"studygen.checks.{rule.code.lower()}_"), rule
        if rule.code.startswith("SG1"):
            assert rule.module.startswith(f"studygen.lint.{rule.code.lower()}_"), rule
        assert rule.code in (module.__doc__ or ""), f"{rule.module}'s docstring does not cite {rule.code}"


def test_default_severities_come_from_the_table():
    assert CODES == {rule.code: (rule.severity, rule.name) for rule in RULES}
    assert Finding("SG105", "m", "f.md").severity == WARNING
    assert Finding("SG208", "m", "f.md").severity == WARNING
    assert Finding("SG216", "m", "f.md").severity == ERROR


def test_registries_hold_every_module_the_table_names():
    assert [(code, module.__name__) for code, module in lint.CHECKS] == [
        (rule.code, rule.module) for rule in RULES if rule.code.startswith("SG1")]
    check_modules = [module.__name__ for module in checks.registered_checks()]
    # the lint rules run on the README through readme_markdown; waivers (SG216) run after every check
    assert check_modules == ["studygen.checks.readme_markdown"] + [
        rule.module for rule in rules_in("studygen.checks") if rule.code != "SG216"]
    assert all(callable(getattr(module, "check", None)) for module in checks.registered_checks())
    assert callable(checks.waivers.apply_waivers)


def test_lint_help_lists_the_lint_codes_from_the_table(run_cli):
    assert help_line(rules_in("studygen.lint")) == (
        "Codes: SG101 range coverage, SG102 statistic order, SG103 derived figure, SG104 Markdown structure, "
        "SG107 universal comparison contradicted (errors); SG105 noise wording, SG106 unmeasured stated as result (warnings).")
    result = run_cli("lint", "--help")
    assert result.exit_code == 0
    shown = " ".join(result.out.split())
    assert help_line(rules_in("studygen.lint")) in shown


def test_readme_table_is_the_rule_table():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert markdown_table() in readme, "README.md's finding-code table differs: paste `python -m studygen.rules`"
    assert markdown_table().count("\n") == len(RULES) + 2
    assert "| SG212 | error | yes | incomparable timings | latencies measured differently" in markdown_table()
    assert "| SG202 | error | no | invalid record | a record, dataset" in markdown_table()


def _docstring_nodes(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def code_literals() -> dict[str, set[str]]:
    """Code → dotted names of the modules whose string constants (docstrings
    left out) contain it."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstring_nodes(tree)
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                for code in CODE.findall(node.value):
                    found.setdefault(code, set()).add(name)
    return found


def test_each_code_is_written_only_in_the_table_and_its_own_module():
    modules = {rule.code: rule.module for rule in RULES}
    found = code_literals()
    assert set(found) <= set(modules), f"codes missing from the table: {sorted(set(found) - set(modules))}"
    wrong = {code: sorted(names - {"studygen.rules", modules[code]}) for code, names in found.items()
             if names - {"studygen.rules", modules[code]}}
    assert not wrong, f"codes written as literals outside rules.py and their module: {wrong}"
    assert all(len(names) <= 2 and "studygen.rules" in names for names in found.values()), found
    assert set(found) == set(modules)  # the scan sees the table itself


def test_the_scan_sees_literals_and_skips_docstrings(tmp_path, monkeypatch):
    module = tmp_path / "studygen" / "fake.py"
    module.parent.mkdir()
    module.write_text('"""SG999 cited in a docstring."""\n\ndef f():\n    """SG998 too."""\n    return "SG997 here"\n')
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "studygen")
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    assert code_literals() == {"SG997": {"studygen.fake"}}


def test_lint_page_lists_the_lint_codes_from_the_table():
    page = (REPO / "docs" / "lint.md").read_text(encoding="utf-8")
    assert lint_code_list() in page, "docs/lint.md's code list differs: paste `python -m studygen.rules lint`"
    assert lint_code_list().count("\n") == len(rules_in("studygen.lint")) == 7
    assert ("- SG104 (error, Markdown structure): a table row with the wrong cell count, a delimiter row that does "
            "not match its header or repeats inside a table body, an unclosed code fence; in check, also a family "
            "README that mdformat would rewrite.\n") in lint_code_list()


def test_code_of_names_the_code_a_module_implements():
    from studygen.rules import code_of

    assert code_of("studygen.checks.sg220_open_folders") == "SG220"
    assert code_of("studygen.lint.sg101_range_coverage") == "SG101"
    with pytest.raises(KeyError):
        code_of("studygen.checks")
