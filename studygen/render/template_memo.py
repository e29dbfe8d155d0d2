"""What one process works out from a template's source text, kept in memory
for that process: its parsed tree (one parse, read by render's compile, by
SG211 and by ``--pr-body``'s ancestors) and its compiled code.

Each entry is keyed on the source text (and, for code, the name and file
Jinja gives it): the only inputs of the work, so an entry cannot go stale.
studygen keeps no cache of its own on disk (a file could be forged: issue
24). The built-in templates' code comes from modules generated at development
time (:func:`shipped_code`), whose bytecode Python's import system reads (and
writes where it may) as for any module of the package. Every environment that asks is made by
:func:`studygen.render.engine.make_environment` with the same settings,
filters and code generator, so what one environment worked out holds for
another.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import types

from . import compiled_templates, limits

BUDGET_FILTER = "studygen_steps"  # wraps the iterable of every {% for %} (see parsed_template)


class _SourceMemo:
    """A mapping of at most :data:`size` entries; the oldest entry goes past it.

    Families that share a template (three of the shipped five use the
    built-in generic one) would otherwise each parse, walk and compile it:
    about 0.07 s a template, a fifth of checking a small family."""

    def __init__(self, size: int):
        self.size = size
        self.entries: dict = {}

    def get(self, key):
        return self.entries.get(key)

    def keep(self, key, value) -> None:
        if key not in self.entries and len(self.entries) >= self.size:
            del self.entries[next(iter(self.entries))]
        self.entries[key] = value


# Python code objects of compiled templates, keyed on (source, name, filename).
_COMPILED = _SourceMemo(64)
# ParsedTemplate of each source parsed, keyed on the source.
_PARSED = _SourceMemo(64)


class ParsedTemplate:
    """A template's syntax tree (``tree``, every ``{% for %}`` iterable
    wrapped in the :data:`BUDGET_FILTER` filter, as render compiles it) and
    its nodes (``nodes``), listed once by the walk that bounds its depth
    (:func:`studygen.render.limits.parse_bounded`), in the order Jinja's
    ``Node.find_all`` yields them. The filters the wrapping adds are not
    listed: no caller looks for a ``Filter`` node, and they hold no node
    that is not listed.

    Shared by every reader of the same source in a process: nobody may
    change it."""

    def __init__(self, tree, nodes: list):
        self.tree = tree
        self.nodes = nodes

    def find_all(self, kinds) -> list:
        """The nodes that are instances of ``kinds`` (a class or a tuple of
        classes), in tree order: what ``tree.find_all(kinds)`` yields."""
        return [node for node in self.nodes if isinstance(node, kinds)]

    @functools.cached_property
    def references(self) -> tuple:
        """Names of the templates it includes, imports or extends (None for
        a name computed at render time), as ``jinja2.meta.find_referenced_templates``
        gives them (which reads nodes by ``find_all`` alone)."""
        from jinja2 import meta

        return tuple(meta.find_referenced_templates(self))


def parsed_template(environment, source: str, name=None, filename=None) -> ParsedTemplate:
    """The :class:`ParsedTemplate` of ``source``: parsed by ``environment``
    the first time in this process, the same object after that, each of its
    nodes answering ``iter_child_nodes()`` from its children as listed then
    (:func:`answer_children`). Raises
    jinja2's TemplateSyntaxError (naming ``name`` and ``filename``) for a
    source that does not parse or nests too deep; nothing is kept then.
    Raises ValueError for an environment with Jinja's optimizer on: it
    rewrites a tree's fields while compiling, which would leave the listed
    children stale (:func:`~studygen.render.engine.make_environment` turns it off)."""
    from jinja2 import nodes

    if environment.optimized:
        raise ValueError("parsed_template lists each node's children once; Jinja's optimizer would rewrite them "
                         "while compiling (make the environment with optimized=False, as make_environment does)")
    parsed = _PARSED.get(source)
    if parsed is None:
        tree, walked, children = limits.parse_bounded(environment, source, name, filename)
        for node, listed in zip([tree, *walked], children):
            if isinstance(node, nodes.For):
                node.iter = nodes.Filter(node.iter, BUDGET_FILTER, [], [], None, None, lineno=node.lineno)
                answer_children(node.iter, [node.iter.node])
                listed = list(nodes.Node.iter_child_nodes(node))
            answer_children(node, listed)
        tree.find_all = functools.partial(_found_below, tree)
        parsed = ParsedTemplate(tree, walked)
        _PARSED.keep(source, parsed)
    return parsed


def _found_below(node, kinds):
    """What ``node.find_all(kinds)`` yields (each child, then the nodes below
    it, in turn), read off the children each node answers, without a
    generator for each node on the way down."""
    pending = [node.iter_child_nodes()]
    while pending:
        for child in pending[-1]:
            if isinstance(child, kinds):
                yield child
            pending.append(child.iter_child_nodes())
            break
        else:
            pending.pop()


def answer_children(node, children: list) -> None:
    """Let ``node`` (of a tree nobody changes after parsing: :class:`ParsedTemplate`;
    compiled only with Jinja's optimizer off, which :func:`parsed_template` holds to)
    answer ``iter_child_nodes()`` from ``children`` (what Jinja's method
    yields for it, listed once), and a call naming fields to leave out or
    keep as Jinja does. Jinja's code generator walks a tree a dozen times
    and more (the blocks and imports it holds, each block's names, symbols
    and filters, each loop's and branch's names), each walk reading every
    node field by field: listed, a template compiles in about 4 ms less
    (the project's H200 template: 10 of 21 ms generating its code)."""
    fields_read = type(node).iter_child_nodes

    def iter_child_nodes(exclude=None, only=None):
        if exclude is None and only is None:
            return iter(children)
        return fields_read(node, exclude, only)

    node.iter_child_nodes = iter_child_nodes


@functools.lru_cache(maxsize=16)
def _source_digest(source: str) -> str:
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def generated_for(source: str, jinja2_version: str) -> str | None:
    """The sha256 (hex) of ``source`` by which data generated at development
    time from a built-in template is looked up (its Jinja code here, SG211's
    reading of it in :mod:`studygen.checks.sg211_literal_figures`), or None
    when that data was made under another Jinja version than the installed
    one (``jinja2_version``: the generated module's). Hashed once per text
    in a process, where render and SG211 each hashed it."""
    import jinja2

    if jinja2_version != jinja2.__version__:
        return None
    return _source_digest(source)


def shipped_template(source: str, name=None) -> tuple[tuple, str] | None:
    """``(referenced template names, module holding its Python code)`` that
    Jinja made at development time from ``source`` when it is the text of a
    built-in template (``name``, when given, its name), under this Jinja
    version (:mod:`~studygen.render.compiled_templates`); None for any other
    text (then it is parsed and compiled as any other)."""
    digest = generated_for(source, compiled_templates.JINJA2_VERSION)
    if digest is None:
        return None
    for shipped_name, (shipped_digest, references, module) in compiled_templates.GENERATED.items():
        if shipped_digest == digest and name in (None, shipped_name):
            return references, module
    return None


def shipped_code(module: str, filename: str) -> types.CodeType:
    """The code object of the built-in template code in ``module`` (one of
    :mod:`~studygen.render.compiled_templates`'s), as Python's import system
    gives a module's code: read from its bytecode in ``__pycache__`` when that
    is current, else compiled from its source (and, where Python writes
    bytecode, written there for the next process); the module is not
    executed. Every code object in it is named after ``filename`` (the
    template's file, as ``compile`` of the code under that name would name
    it): Jinja reads the template's file and lines off it. The same object
    ``compile(code, filename, "exec")`` gives (tests/render/test_compiled_templates.py).
    Raises ImportError when the module is missing."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.loader is None:
        raise ImportError(f"the code of a built-in template is missing: {module}", name=module)
    return _named(spec.loader.get_code(module), filename)


def _named(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` and every code object within it with ``co_filename`` ``filename``."""
    constants = tuple(_named(constant, filename) if isinstance(constant, types.CodeType) else constant
                      for constant in code.co_consts)
    return code.replace(co_filename=filename, co_consts=constants)


def compiled_template(source: str, name, filename, compile_source):
    """The code object of ``source`` (Jinja's ``Environment.compile``):
    ``compile_source()`` the first time in this process for this source,
    name and file; the same code object after that. Raises what
    ``compile_source`` raises (nothing is kept then)."""
    key = (source, name, filename)
    code = _COMPILED.get(key)
    if code is None:
        code = compile_source()
        _COMPILED.keep(key, code)
    return code


def referenced_templates(env, source: str) -> tuple:
    """Names of the templates ``source`` includes, imports or extends (None
    for a name computed at run time), as ``jinja2.meta.find_referenced_templates``
    gives them: read off the built-in template's shipped list
    (:func:`shipped_template`) when this process has not parsed ``source``,
    else off its :class:`ParsedTemplate` (parsed by ``env``, made by
    :func:`~studygen.render.engine.make_environment`, if it was not).
    Raises jinja2's TemplateSyntaxError for a source that does not parse."""
    if _PARSED.get(source) is None:
        shipped = shipped_template(source)
        if shipped is not None:
            return shipped[0]
    return env.parsed(source).references
