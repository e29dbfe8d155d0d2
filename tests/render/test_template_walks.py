"""A parsed template's nodes answer ``iter_child_nodes()`` from children
listed once, by the walk that bounds its depth (issue 25 item 5): Jinja's
code generator walks the tree a dozen times and more, each walk reading every
node field by field, about half of the time it took to generate the code of
the project's H200 template. The code generated must be what Jinja's own walks
give."""

from __future__ import annotations

import jinja2
import pytest
from jinja2 import nodes
from jinja2.parser import Parser

from studygen.render import template_memo
from studygen.render.template_memo import _SourceMemo
from studygen.render.engine import make_environment
from tests.conftest import REPO
from tests.render.test_template_sharing import EVERY_KIND, _shipped_sources

SOURCES = [EVERY_KIND, *_shipped_sources(), (REPO / "tests/cases/seed_as_submitted/seed_as_submitted.md.j2").read_text()]


@pytest.fixture
def fresh_memo(monkeypatch):
    monkeypatch.setattr(template_memo, "_PARSED", _SourceMemo(64))
    monkeypatch.setattr(template_memo, "_COMPILED", _SourceMemo(64))


def _every_node(tree) -> list:
    """``tree`` and every node below it, read through Jinja's own method (field by field)."""
    return [tree, *nodes.Node.find_all(tree, nodes.Node)]


def test_generating_code_reads_no_node_field_by_field(fresh_memo, monkeypatch):
    env = make_environment([])
    source = SOURCES[2]  # the project's H200 template: 9 blocks, 12 loops, 19 branches
    env.parsed(source)
    reads, environments_set = [], []
    field_by_field = nodes.Node.iter_fields

    def iter_fields(node, exclude=None, only=None):
        reads.append((type(node).__name__, exclude, only))
        return field_by_field(node, exclude, only)

    walked_down = []
    generator_a_node = nodes.Node.find_all

    def find_all(node, kinds):
        walked_down.append(type(node).__name__)
        return generator_a_node(node, kinds)

    monkeypatch.setattr(nodes.Node, "iter_fields", iter_fields)
    monkeypatch.setattr(nodes.Node, "find_all", find_all)
    monkeypatch.setattr(nodes.Node, "set_environment", lambda node, env: environments_set.append(node))
    env.compile(source, "h200.md.j2", None, raw=True)
    # only the walks that name fields to keep or leave out (a loop's body, asked whether it reads `loop`)
    assert set(reads) == {("For", None, ("body",))} and len(reads) <= 12
    # the whole tree's blocks, imports and extends are found without a generator for each node on the way
    assert "Template" not in walked_down and "For" in walked_down
    # nor does parsing walk the tree setting each node's environment: the walk that lists the nodes sets it
    template_memo._PARSED.entries.clear()
    tree = env.parsed(source).tree
    assert environments_set == [] and all(node.environment is env for node in _every_node(tree)
                                          if not (isinstance(node, nodes.Filter) and node.name == "studygen_steps"))


@pytest.mark.parametrize("which", range(len(SOURCES)))
def test_each_node_answers_its_children_as_jinja_reads_them(fresh_memo, which):
    env = make_environment([])
    tree = env.parsed(SOURCES[which]).tree
    env.compile(SOURCES[which], "case.md.j2", "/case.md.j2", raw=True)  # compiling leaves the fields as listed
    for node in _every_node(tree):
        assert list(node.iter_child_nodes()) == list(nodes.Node.iter_child_nodes(node))
        assert list(node.iter_child_nodes(only=("body",))) == list(nodes.Node.iter_child_nodes(node, only=("body",)))
        assert list(node.iter_child_nodes(exclude=("call",))) == list(nodes.Node.iter_child_nodes(node, exclude=("call",)))
    for kinds in (nodes.Block, nodes.ImportedName, nodes.Extends, nodes.Node, (nodes.For, nodes.Filter)):
        assert [id(node) for node in tree.find_all(kinds)] == [id(node) for node in nodes.Node.find_all(tree, kinds)]
    assert tree.find(nodes.Extends) is nodes.Node.find(tree, nodes.Extends)


@pytest.mark.parametrize("which", range(len(SOURCES)))
def test_the_code_is_what_jinjas_own_walks_generate(fresh_memo, which):
    source = SOURCES[which]
    env = make_environment([])
    listed = env.compile(source, "case.md.j2", "/case.md.j2", raw=True)
    # the tree as Jinja's parser makes it, each loop's iterable wrapped as render wraps it, walked by Jinja alone
    stock = Parser(env, source, "case.md.j2", "/case.md.j2").parse()
    for loop in list(stock.find_all(nodes.For)):
        loop.iter = nodes.Filter(loop.iter, template_memo.BUDGET_FILTER, [], [], None, None, lineno=loop.lineno)
    assert "iter_child_nodes" not in vars(stock)
    assert stock == env.parsed(source).tree
    assert listed == env._generate(stock, "case.md.j2", "/case.md.j2")
    assert "environment.produced(" in listed  # the code of render's generator, not Jinja's stock one


def test_a_template_that_does_not_parse_is_refused_as_before(fresh_memo):
    env = make_environment([])
    with pytest.raises(jinja2.TemplateSyntaxError) as refused:
        env.parsed("{% for x in y %}\n{{ x }\n{% endfor %}")
    assert (refused.value.lineno, refused.value.message) == (2, "unexpected '}'")


def test_an_environment_with_jinjas_optimizer_on_is_refused(fresh_memo):
    """The optimizer rewrites a tree's fields while compiling, which the children listed once would not follow
    (one node of the first case's tree after a compile with it on): such an environment gets no listed tree."""
    env = make_environment([])
    env.optimized = True
    with pytest.raises(ValueError, match="optimizer"):
        env.parsed(SOURCES[0])
