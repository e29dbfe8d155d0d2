"""The package's layers import downward only, with no circle, and stay small.

Layers, lowest first (a module may import its own layer and the layers
below it)::

    core → records → collectors | study → lint | render → checks | compare → commands → cli

Records (schemas, loading, writing, :class:`~studygen.records.result.NewResult`)
sit below everything that reads or writes them. Collectors and the study
sit side by side on the records and import neither each other, as lint
and render do, and checks and compare (``studygen diff``'s comparison of two
revisions); and only the commands (and other collectors) import a
collector: records, study, render, lint, checks and compare never do (records once
imported ``NewResult``, ``as_conversion_machine``, ``job_id_for`` and the
COCO dataset builders from ``collect``, and SG212 ``collect.run.launcher``).
Every import counts, inside functions too, and so do the check modules the
rule table names (the registry imports them by name). Package-internal and
standard-library imports stay at module top; only third-party libraries
(heavy ones: torch, pandas, matplotlib, ...) are imported lazily, inside the
function that needs them.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from .conftest import is_generated

PACKAGE = Path(__file__).resolve().parents[1] / "studygen"

CORE = {"studygen", "studygen.codegen", "studygen.errors", "studygen.patterns", "studygen.markdown_format", "studygen.markdown_tables", "studygen.label_names", "studygen.markdown_tree",
        "studygen.place", "studygen.rules", "studygen.findings", "studygen.fsutil",
        "studygen.numbers", "studygen.textio", "studygen.digests", "studygen.locks", "studygen.version", "studygen.gitenv",
        "studygen.memory", "studygen.visible", "studygen.terminal_width"}
LAYERS = (  # (layer, rank, module-name prefix); the longest matching prefix wins
    ("records", 1, "studygen.records"),
    ("collectors", 2, "studygen.collect"),
    ("study", 2, "studygen.study"),
    ("lint", 3, "studygen.lint"),
    ("render", 3, "studygen.render"),
    ("checks", 4, "studygen.checks"),
    ("compare", 4, "studygen.compare"),
    ("commands", 5, "studygen.commands"),
    ("cli", 6, "studygen.cli"),
    ("cli", 6, "studygen.__main__"),
    ("cli", 6, "studygen.console"),
)
# Layers that may import a collector besides the collectors themselves: collecting is a command.
COLLECTOR_USERS = {"commands", "cli"}
MAX_MODULE_LINES = 600


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer_of(name: str) -> tuple[str, int]:
    if name in CORE:
        return "core", 0
    best = None
    for layer, rank, prefix in LAYERS:
        if (name == prefix or name.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[2])):
            best = (layer, rank, prefix)
    if best is None:
        raise AssertionError(f"{name} is in no layer: add it to CORE or LAYERS in tests/test_layers.py")
    return best[0], best[1]


def _resolve(current: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = current.split(".") if is_package else current.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(name: str, path: Path, known: set[str]) -> list[tuple[str, int, bool]]:
    """``(imported module, line, inside a function)`` for every import in the module."""
    tree = ast.parse(path.read_text("utf-8"))
    is_package = path.name == "__init__.py"
    found = []

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((alias.name, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(name, is_package, child)
                found.append((target, child.lineno, in_function))
                for alias in child.names:  # "from . import sg201_stale" imports a module
                    if f"{target}.{alias.name}" in known:
                        found.append((f"{target}.{alias.name}", child.lineno, in_function))
            visit(child, nested)

    visit(tree, False)
    return found


def internal_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    graph = {name: set() for name in mods}
    for name, path in mods.items():
        for target, _, _ in imports_of(name, path, known):
            if target in known and target != name:
                graph[name].add(target)
    try:
        from studygen.rules import RULES
    except ImportError:
        RULES = ()
    for rule in RULES:  # the registries import the modules the rule table names
        registry = "studygen.lint" if rule.module.startswith("studygen.lint.") else "studygen.checks"
        if rule.module in known:
            graph[registry].add(rule.module)
    graph["studygen.checks"].add("studygen.checks.readme_markdown")  # the check registry's first module, by name
    return graph


def test_every_import_goes_down_the_layers():
    mods = modules()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        layer, rank = layer_of(name)
        for target, line, _ in imports_of(name, path, known):
            if not target.startswith("studygen") or target not in known:
                continue
            target_layer, target_rank = layer_of(target)
            if target_layer != layer and target_rank >= rank:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {layer} imports {target} ({target_layer})")
    assert not wrong, "imports going up or sideways:\n" + "\n".join(wrong)


def test_only_commands_import_collectors():
    mods = modules()
    known = set(mods)
    wrong = []
    for name, path in mods.items():
        layer, _ = layer_of(name)
        if layer in COLLECTOR_USERS or layer == "collectors":
            continue
        for target, line, _ in imports_of(name, path, known):
            if target in known and layer_of(target)[0] == "collectors":
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {layer} imports {target}")
    assert not wrong, "collectors imported outside the commands:\n" + "\n".join(wrong)


def test_records_import_nothing_from_collect():
    """The acceptance line of issue 25, on its own: no module of studygen.records names studygen.collect."""
    mods = modules()
    known = set(mods)
    wrong = [f"{path.relative_to(PACKAGE.parent)}:{line}: {target}"
             for name, path in mods.items() if layer_of(name)[0] == "records"
             for target, line, _ in imports_of(name, path, known) if target.startswith("studygen.collect")]
    assert not wrong, "records importing collect:\n" + "\n".join(wrong)


def test_no_import_circle():
    graph = internal_graph()
    index, low, stack, on_stack, circles = {}, {}, [], set(), []
    limit_before = sys.getrecursionlimit()

    def strongconnect(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                strongconnect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    # the walk recurses once per module on a path; the limit is put back so that tests run after this one
    # meet Python's own (tests/render/test_verdicts.py reads a text nested past it)
    sys.setrecursionlimit(max(limit_before, 10_000))
    try:
        for node in graph:
            if node not in index:
                strongconnect(node)
    finally:
        sys.setrecursionlimit(limit_before)
    assert not circles, f"import circles: {circles}"


def test_only_third_party_libraries_are_imported_lazily():
    mods = modules()
    known = set(mods)
    lazy = []
    for name, path in mods.items():
        if name == "studygen.cli":
            continue  # the command table imports each command when it is invoked
        if name == "studygen.console":
            continue  # main imports the command line once its handler answers a Ctrl-C while it is imported
        for target, line, in_function in imports_of(name, path, known):
            top = target.split(".")[0]
            if in_function and (top == "studygen" or top in sys.stdlib_module_names or top == "__future__"):
                lazy.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {target}")
    assert not lazy, "package or standard-library imports inside functions:\n" + "\n".join(lazy)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_is_under_600_lines(path):
    text = path.read_text("utf-8")
    if is_generated(text):
        pytest.skip("written by a program (its test keeps it current), not read and changed by hand")
    lines = text.count("\n")
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(PACKAGE.parent)} has {lines} lines"
