"""The code digest in every chart's stamp (studygen/render/drawing_code.py): what
it strips from the drawing modules' syntax trees, that each module is parsed
once, and the digests written at development time, used only for the bytes
they were worked out from under the Python minor version they name (issue 25
item 5: parsing and dumping the drawing modules was about 6 ms of every
render and check of a study with charts)."""

from __future__ import annotations

import ast
import hashlib
import shutil
import subprocess
import sys

import pytest

from studygen.render import drawing_code, drawing_code_digests, drawing_codegen

from ..conftest import REPO

HERE = REPO / "studygen" / "render"


@pytest.fixture(autouse=True)
def _fresh_memos():
    """Each test digests afresh and leaves no memo behind (a made-up entry must not reach a later test)."""
    drawing_code.code_sha256.cache_clear()
    drawing_code._code_dump.cache_clear()
    yield
    drawing_code.code_sha256.cache_clear()
    drawing_code._code_dump.cache_clear()


def _without_docs_and_imports_by_walk(tree):
    """The code digest's stripping as it was: every node of ``ast.walk`` (expressions too) whose body is a list."""
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
    here = REPO / "studygen" / "render"
    expected = hashlib.sha256()
    for module in drawing_code.DRAWING_MODULES:
        tree = _without_docs_and_imports_by_walk(ast.parse((here / module).read_text("utf-8")))
        expected.update(ast.dump(tree).encode("utf-8"))

    def refused(node):
        raise RuntimeError("ast.walk reads every expression")

    with monkeypatch.context() as patched:
        patched.setattr(ast, "walk", refused)
        drawing_code._code_dump.cache_clear()  # each module dumped afresh under the refusal
        digest = drawing_code.computed_code_sha256(drawing_code.DRAWING_MODULES)
    assert digest == expected.hexdigest()


def test_each_drawing_module_is_parsed_once_for_every_chart_that_names_it(monkeypatch):
    """A latency chart digests drawing.py and labels.py, a chart drawn as shares those and share_bars.py: the
    three modules are parsed three times in all, not five, and each digest is still the sha256 over the dumps
    of its modules in order. Failed before: drawing.py and labels.py were parsed again for the second chart."""
    parsed = []
    real_parse = ast.parse

    def counted(source, *args, **kwargs):
        parsed.append(source)
        return real_parse(source, *args, **kwargs)

    shares = drawing_code.DRAWING_MODULES + ("share_bars.py",)
    with monkeypatch.context() as patched:
        patched.setattr(ast, "parse", counted)
        drawing_code._code_dump.cache_clear()
        both = [drawing_code.computed_code_sha256(modules) for modules in (drawing_code.DRAWING_MODULES, shares)]
    assert len(parsed) == 3
    here = REPO / "studygen" / "render"
    for modules, digest in zip((drawing_code.DRAWING_MODULES, shares), both):
        expected = hashlib.sha256()
        for module in modules:
            tree = _without_docs_and_imports_by_walk(real_parse((here / module).read_text("utf-8")))
            expected.update(ast.dump(tree).encode("utf-8"))
        assert digest == expected.hexdigest()


def test_the_stripping_equals_the_walk_on_every_module_of_the_project():
    """Nested functions and classes, loops with else, try with handlers and finally, with, match: every
    Python file of studygen stripped both ways dumps alike (docstrings and imports gone)."""
    sources = [path.read_text("utf-8") for path in sorted((REPO / "studygen").rglob("*.py"))]
    sources.append("def f():\n    '''doc'''\n    import os\n    for x in y:\n        '''d'''\n    else:\n"
                   "        import re\n    try:\n        pass\n    except E:\n        '''h'''\n    finally:\n"
                   "        import sys\n    match v:\n        case 1:\n            '''m'''\n            g = lambda: 0\n")
    assert len(sources) > 200
    for source in sources:
        stripped = ast.dump(drawing_code._without_docs_and_imports(ast.parse(source)))
        assert stripped == ast.dump(_without_docs_and_imports_by_walk(ast.parse(source)))
    last = drawing_code._without_docs_and_imports(ast.parse(sources[-1])).body[0]
    # bodies only: an else or finally block keeps its imports, as the walk left them
    assert isinstance(last.body[0], ast.For) and isinstance(last.body[0].orelse[0], ast.Import)
    assert isinstance(last.body[1].handlers[0].body[0], ast.Pass) and isinstance(last.body[1].finalbody[0], ast.Import)
    assert isinstance(last.body[2].cases[0].body[0], ast.Assign)


def _walked_digest(modules) -> str:
    """The code digest as the stamps of the committed charts hold it, worked out here from the files."""
    expected = hashlib.sha256()
    for module in modules:
        expected.update(ast.dump(_without_docs_and_imports_by_walk(ast.parse((HERE / module).read_text("utf-8"))))
                        .encode("utf-8"))
    return expected.hexdigest()


def test_the_written_digests_are_current_and_equal_to_the_worked_out_ones():
    """Fails after a change to a drawing module without python -m studygen.render.drawing_codegen."""
    assert drawing_codegen.TARGET.read_text(encoding="utf-8") == drawing_codegen.generated_digests_source()
    assert drawing_codegen.main(["--check"]) == 0
    assert drawing_code_digests.PYTHON_VERSION == drawing_code.python_version()
    assert set(drawing_code_digests.DIGESTS) == {drawing_code.DRAWING_MODULES, drawing_code.SHARE_DRAWING_MODULES}
    for modules, (sources, code) in drawing_code_digests.DIGESTS.items():
        assert list(sources) == [hashlib.sha256((HERE / module).read_bytes()).hexdigest() for module in modules]
        assert code == _walked_digest(modules)


def test_a_written_digest_is_taken_without_parsing_the_modules(monkeypatch):
    """Failed before: every process parsed and dumped drawing.py and labels.py (and share_bars.py) for the stamps."""
    def refused(*args, **kwargs):
        raise AssertionError("parsed a drawing module although its digest was written")

    monkeypatch.setattr(ast, "parse", refused)
    for modules in (drawing_code.DRAWING_MODULES, drawing_code.SHARE_DRAWING_MODULES):
        assert drawing_code.code_sha256(modules) == drawing_code_digests.DIGESTS[modules][1]


@pytest.mark.parametrize("change", ["bytes", "python", "modules"])
def test_a_digest_written_for_other_bytes_another_python_or_other_modules_is_worked_out_afresh(monkeypatch, change):
    """A drawing module edited after the digests were written (one byte of labels.py's digest differs), digests
    written under another Python minor version (ast.dump may differ there), or modules no entry names: the
    digest is worked out from the files, never taken from the table."""
    modules = drawing_code.DRAWING_MODULES
    sources, _ = drawing_code_digests.DIGESTS[modules]
    planted = "0" * 64  # what the table would give wrongly
    if change == "bytes":
        entries = {modules: ((sources[0], "f" + sources[1][1:]), planted)}
    elif change == "python":
        entries = {modules: (sources, planted)}
        monkeypatch.setattr(drawing_code_digests, "PYTHON_VERSION", "2.7")
    else:
        modules = ("labels.py", "drawing.py")
        entries = {drawing_code.DRAWING_MODULES: (sources, planted)}
    monkeypatch.setattr(drawing_code_digests, "DIGESTS", entries)
    expected = _walked_digest(modules)
    parsed = []
    real_parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda source, *a, **k: parsed.append(source) or real_parse(source, *a, **k))
    assert drawing_code.code_sha256(modules) == expected != planted
    assert len(parsed) == 2


@pytest.mark.parametrize("edit", ["crlf", "byte-order-mark", "comment", "code"])
def test_an_edited_drawing_module_gives_the_digest_its_code_says(monkeypatch, tmp_path, edit):
    """drawing.py as a Windows checkout writes it (CRLF line ends), saved by an editor that puts a UTF-8 byte
    order mark first, or with one more comment: its bytes match no written digest, and the digest worked out
    from them is the written one (the charts stay current). One more statement: another digest (they go
    stale). Failed before for the byte order mark: SyntaxError (the text decoded first kept the mark as a
    character), which Python's import of the same file does not raise."""
    original = (HERE / "drawing.py").read_bytes()
    edited = {"crlf": original.replace(b"\n", b"\r\n"), "byte-order-mark": b"\xef\xbb\xbf" + original,
              "comment": original + b"# one more comment\n", "code": original + b"EXTRA_MARGIN = 2\n"}[edit]
    (tmp_path / "drawing.py").write_bytes(edited)
    (tmp_path / "labels.py").write_bytes((HERE / "labels.py").read_bytes())
    monkeypatch.setattr(drawing_code, "__file__", str(tmp_path / "drawing_code.py"))
    written = drawing_code_digests.DIGESTS[drawing_code.DRAWING_MODULES][1]
    digest = drawing_code.code_sha256(drawing_code.DRAWING_MODULES)
    assert (digest == written) is (edit != "code")
    assert len(digest) == 64


@pytest.mark.skipif(sys.version_info[:2] not in ((3, 10), (3, 11)), reason="ast.dump prints otherwise after 3.11")
def test_the_stable_dump_is_ast_dump_of_python_3_11():
    """Every module of studygen, whole: the digests committed before stay as they were."""
    paths = sorted((REPO / "studygen").rglob("*.py"))
    assert len(paths) > 200
    for path in paths:
        tree = ast.parse(path.read_bytes())
        assert drawing_code.stable_dump(tree) == ast.dump(tree), path


def test_an_empty_string_part_of_an_f_string_dumps_as_none():
    """Python 3.12.1 parses f"{x:<{w}}" with an empty string part closing the format spec; 3.11 has none."""
    tree = ast.parse("label = f'{x:<{width}}'\n")
    plain = drawing_code.stable_dump(tree)
    spec = tree.body[0].value.values[0].format_spec
    spec.values.append(ast.Constant(value=""))
    assert drawing_code.stable_dump(tree) == plain
    spec.values.append(ast.Constant(value="|"))
    assert drawing_code.stable_dump(tree) != plain


OTHER_PYTHONS = [found for name in ("python3.10", "python3.12", "python3.13", "python3.14")
                 if (found := shutil.which(name)) and name != f"python{sys.version_info[0]}.{sys.version_info[1]}"]


@pytest.mark.skipif(not OTHER_PYTHONS, reason="no other Python 3 on PATH")
@pytest.mark.parametrize("python", OTHER_PYTHONS)
def test_another_python_works_out_the_written_digests(python):
    """drawing_code needs the standard library only: another interpreter (3.10, 3.12, 3.13 where installed)
    works out the digests afresh (the table is for 3.11) and gets the written ones, so the committed charts stay
    current there. Failed before under 3.12.1 and 3.13: two other digests each (ast.dump)."""
    probe = ("import sys; sys.path.insert(0, sys.argv[1])\n"
             "from studygen.render import drawing_code as code\n"
             "print(code.computed_code_sha256(code.DRAWING_MODULES), "
             "code.computed_code_sha256(code.SHARE_DRAWING_MODULES))\n")
    runs = subprocess.run([python, "-I", "-c", "import sys; assert sys.version_info >= (3, 10)"], capture_output=True,
                          timeout=60)
    if runs.returncode != 0:  # a version manager's shim for a version not selected here, or too old a Python
        pytest.skip(f"{python} does not run here as Python 3.10 or later")
    done = subprocess.run([python, "-I", "-c", probe, str(REPO)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    written = [drawing_code_digests.DIGESTS[modules][1]
               for modules in (drawing_code.DRAWING_MODULES, drawing_code.SHARE_DRAWING_MODULES)]
    assert done.stdout.split() == written
