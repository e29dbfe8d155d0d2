"""Chart stamps: the matplotlib version in a stamp comes from the package
metadata, so checking a family whose charts are current never imports
matplotlib (issue 11: its import was most of one family's check time)."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

from studygen.render import charts

from ..conftest import REPO


def test_stamp_version_is_the_version_matplotlib_reports():
    import matplotlib

    assert charts.matplotlib_version() == matplotlib.__version__ == importlib.metadata.version("matplotlib")


def test_the_version_is_read_off_the_metadata_header_as_the_email_parser_reads_it():
    # a long description follows the first empty line: a "Version:" there is text, not the field
    text = ("Metadata-Version: 2.1\nName: plotting\nversion:  3.11.2\nSummary: x\n\n"
            "Version: 9.9 is what this description mentions\n")
    assert charts.header_version(text) == "3.11.2"
    assert charts.header_version("Metadata-Version: 2.1\nVersion: 1.0.post1\r\n\nbody") == "1.0.post1"
    assert charts.header_version("Name: p\n\nVersion: 2.0\n") is None  # only in the body
    assert charts.header_version("Name: p\nVersion: 2.0\n  .dev1\n") is None  # folded: left to the full parser
    assert charts.header_version("") is None


def test_stamp_changes_with_the_matplotlib_version(monkeypatch):
    before = charts.inputs_digest("latency", [["a", 1.5]])
    monkeypatch.setattr(charts, "matplotlib_version", lambda: "0.0.0")
    assert charts.inputs_digest("latency", [["a", 1.5]]) != before


def test_checking_a_family_with_current_charts_imports_no_matplotlib():
    code = ("import sys\n"
            "from studygen.cli import run\n"
            f"code = run(['check', '--root', {str(REPO)!r}, 'deformable_detr_h200_torch'])\n"
            "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.splitlines()[-1] == "0 []", done.stdout + done.stderr


def _without_docs_and_imports_by_walk(tree):
    """The code digest's stripping as it was: every node of ``ast.walk`` (expressions too) whose body is a list."""
    import ast

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        kept = [child for child in body if not isinstance(child, (ast.Import, ast.ImportFrom))]
        if kept and isinstance(kept[0], ast.Expr) and isinstance(getattr(kept[0], "value", None), ast.Constant) \
                and isinstance(kept[0].value.value, str):
            kept = kept[1:]
        node.body = kept or [ast.Pass()]
    return tree


def test_the_code_digest_strips_bodies_without_walking_expressions(monkeypatch):
    """Only statement fields are read to reach every body; the committed charts' stamps hold the digest the
    walk over every node gave. Failed before: the stripping walked every node (ast.walk)."""
    import ast
    import hashlib

    here = REPO / "studygen" / "render"
    expected = hashlib.sha256()
    for module in charts.DRAWING_MODULES:
        tree = _without_docs_and_imports_by_walk(ast.parse((here / module).read_text("utf-8")))
        expected.update(ast.dump(tree).encode("utf-8"))

    def refused(node):
        raise RuntimeError("ast.walk reads every expression")

    with monkeypatch.context() as patched:
        patched.setattr(ast, "walk", refused)
        charts._code_dump.cache_clear()  # each module dumped afresh under the refusal
        digest = charts._code_sha256.__wrapped__(charts.DRAWING_MODULES)
    assert digest == expected.hexdigest()


def test_each_drawing_module_is_parsed_once_for_every_chart_that_names_it(monkeypatch):
    """A latency chart digests drawing.py and labels.py, a chart drawn as shares those and share_bars.py: the
    three modules are parsed three times in all, not five, and each digest is still the sha256 over the dumps
    of its modules in order. Failed before: drawing.py and labels.py were parsed again for the second chart."""
    import ast
    import hashlib

    parsed = []
    real_parse = ast.parse

    def counted(source, *args, **kwargs):
        parsed.append(source)
        return real_parse(source, *args, **kwargs)

    shares = charts.DRAWING_MODULES + ("share_bars.py",)
    with monkeypatch.context() as patched:
        patched.setattr(ast, "parse", counted)
        charts._code_dump.cache_clear()
        both = [charts._code_sha256.__wrapped__(modules) for modules in (charts.DRAWING_MODULES, shares)]
    assert len(parsed) == 3
    here = REPO / "studygen" / "render"
    for modules, digest in zip((charts.DRAWING_MODULES, shares), both):
        expected = hashlib.sha256()
        for module in modules:
            tree = _without_docs_and_imports_by_walk(real_parse((here / module).read_text("utf-8")))
            expected.update(ast.dump(tree).encode("utf-8"))
        assert digest == expected.hexdigest()


def test_the_stripping_equals_the_walk_on_every_module_of_the_project():
    """Nested functions and classes, loops with else, try with handlers and finally, with, match: every
    Python file of studygen stripped both ways dumps alike (docstrings and imports gone)."""
    import ast

    sources = [path.read_text("utf-8") for path in sorted((REPO / "studygen").rglob("*.py"))]
    sources.append("def f():\n    '''doc'''\n    import os\n    for x in y:\n        '''d'''\n    else:\n"
                   "        import re\n    try:\n        pass\n    except E:\n        '''h'''\n    finally:\n"
                   "        import sys\n    match v:\n        case 1:\n            '''m'''\n            g = lambda: 0\n")
    assert len(sources) > 200
    for source in sources:
        stripped = ast.dump(charts._without_docs_and_imports(ast.parse(source)))
        assert stripped == ast.dump(_without_docs_and_imports_by_walk(ast.parse(source)))
    last = charts._without_docs_and_imports(ast.parse(sources[-1])).body[0]
    # bodies only: an else or finally block keeps its imports, as the walk left them
    assert isinstance(last.body[0], ast.For) and isinstance(last.body[0].orelse[0], ast.Import)
    assert isinstance(last.body[1].handlers[0].body[0], ast.Pass) and isinstance(last.body[1].finalbody[0], ast.Import)
    assert isinstance(last.body[2].cases[0].body[0], ast.Assign)
