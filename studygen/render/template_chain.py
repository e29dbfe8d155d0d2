"""The chain of templates a study's template extends, one above the other
(``{% extends "NAME" %}``): its templates as render reads them, and the
blocks a template defines that none above it has (Jinja prints those
nowhere, so render refuses them).

Every refusal is one :class:`~studygen.errors.TemplateError` naming the
template file and the line.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import TemplateError
from .template_memo import shipped_template

LISTED_BLOCKS = 30  # block names a refused block's error lists
# Templates a study's template may extend, one above the other: a family's own extends the generic one, at most a
# few more stand between. Rendering recurses per level (a block's super() through 150 levels ran out of Python's
# recursion inside Jinja, naming a template in the middle), and the block check reads every ancestor of each.
MAX_EXTENDS = 32


def ancestors(env, template_name: str) -> list:
    """The templates the template named ``template_name`` extends, nearest
    first (``{% extends "NAME" %}`` with a literal name; the blocks of a
    block-by-block override come from them)."""
    return [env.get_template(name) for name in _chain_names(env, template_name)[1:]]


def _chain_names(env, template_name: str) -> list[str]:
    """``template_name`` and the names of the templates it extends, nearest
    first, each as the environment's loader finds it. Starts from the name
    asked for, not ``Template.name``: jinja2's PrefixLoader names a built-in
    template by its local name ("generic.md.j2"), which the environment's
    loader cannot find again."""
    return [name for name, _ in _chain(env, template_name)]


def _chain(env, template_name: str, study=None) -> list[tuple]:
    """``(name, ParsedTemplate)`` of ``template_name`` and of each template
    it extends (``{% extends "NAME" %}`` with a literal name), nearest first;
    the tree is None for a built-in template that refers to no other: its
    code was generated at development time, and parsing it again would cost
    a render a quarter of its template work. Raises TemplateError (the
    template whose ``extends`` it is, and its line; shown relative to
    ``study``'s root) for templates that extend one another in a loop, and
    for more than :data:`MAX_EXTENDS` above ``template_name``; jinja2's
    errors for a template that cannot be found or parsed."""
    from jinja2 import nodes

    chain, name = [], template_name
    while True:
        source = env.loader.get_source(env, name)[0]
        shipped = shipped_template(source)
        if shipped is not None and not shipped[0]:
            return [*chain, (name, None)]
        tree = env.parsed(source)
        chain.append((name, tree))
        extends = next((node for node in tree.find_all(nodes.Extends) if isinstance(node.template, nodes.Const)),
                       None)
        if extends is None:
            return chain
        parent, names = extends.template.value, [seen for seen, _ in chain]
        if parent in names:
            loop = ", which extends ".join(names[names.index(parent):] + [parent])
            message = f"templates extend one another in a loop: {loop}"
        elif len(chain) > MAX_EXTENDS:
            message = (f"templates extend one another more than {MAX_EXTENDS} deep ({name} extends {parent}); at "
                       f"most {MAX_EXTENDS} templates may stand above the study's")
        else:
            name = parent
            continue
        raise TemplateError(f"template error: {message}", path=_shown_template(env.get_template(name), study),
                            line=extends.lineno)



def refuse_unprinted_blocks(env, template_name: str, study=None) -> None:
    """Raise TemplateError (the template file and the block's line) for a
    block a template that extends another defines outside every other block
    while none of the templates it extends has a block of that name: Jinja
    prints such a block nowhere, so a misspelt override (``{% block reslts %}``
    for ``results``) or one of a block the generic template does not have lost
    its text without a word. Blocks inside another block are printed with it,
    and a block a template calls as ``self.NAME()`` is printed where it is
    called: neither is refused. Each template of the chain is held to the
    blocks of those it extends (jinja2's ``Template.blocks``: every block of a
    template, nested ones too)."""
    import jinja2
    from jinja2 import nodes

    try:
        chain = _chain(env, template_name, study)
    except jinja2.TemplateError:
        return  # a template it extends cannot be read or parsed: rendering reports that at its line
    # a built-in template (no tree) calls only blocks of its own (tests/render/test_unprinted_blocks.py)
    called = {node.attr for _, tree in chain if tree is not None for node in tree.find_all(nodes.Getattr)
              if isinstance(node.node, nodes.Name) and node.node.name == "self"}
    # the blocks of each template's ancestors, gathered from the farthest down: each template is asked of Jinja
    # once (asking again for every descendant thrashed Jinja's cache of 400 templates on a longer chain)
    above, known = [], set()
    for ancestor, _ in reversed(chain[1:]):
        known = known | env.get_template(ancestor).blocks.keys()
        above.append(known)
    for index, ((name, tree), known) in enumerate(zip(chain[:-1], reversed(above))):
        for block in _outermost_blocks(tree.tree):
            if block.name not in known and block.name not in called:
                names = sorted(known)  # the first LISTED_BLOCKS named: 2,000 blocks made one error line of 15 KB
                listed = ", ".join(names[:LISTED_BLOCKS]) + f" and {len(names) - LISTED_BLOCKS} more" * (
                    len(names) > LISTED_BLOCKS)
                raise TemplateError(
                    f"template error: block '{block.name}' is not a block of {chain[index + 1][0]} or of a "
                    f"template it extends, so its text would be printed nowhere (blocks there: "
                    f"{listed})", path=_shown_template(env.get_template(name), study),
                    line=block.lineno)


def _outermost_blocks(node) -> list:
    """The ``{% block %}`` nodes of ``node`` not inside another block, in the order written."""
    from jinja2 import nodes

    found = []
    for child in node.iter_child_nodes():
        if isinstance(child, nodes.Block):
            found.append(child)
        else:
            found.extend(_outermost_blocks(child))
    return found


def _shown_template(template, study) -> str:
    """A template's file as a finding shows it: relative to the project root when it is the study's own file."""
    filename = template.filename or template.name
    return study.rel(Path(filename)) if study is not None and Path(filename).is_absolute() else str(template.name)
