"""The render tree of :mod:`studygen.markdown_format`: the tree mdformat 1.0
builds from markdown-it's tokens (``RenderTreeNode(tokens)``), built faster,
with the same nodes, links and tokens.

markdown-it's ``SyntaxTreeNode`` builds the tree recursively, copying the
tokens of every container into a new list for each level it sits in, and
reads a node's type, children and parent through properties (the type
through two: ``is_root``, then the token's type less its ``_open``); the
renderer asks a node for its type at least twice. :func:`build_tree`'s
nodes keep the three as plain attributes, set once when the tree is built
in one pass over the tokens, which made formatting the shipped READMEs
about a sixth faster (65 to 56 ms). A stream that is not nested as markdown-it nests its
tokens (every ``_open`` closed, nesting -1, 0 or 1) is left to
``RenderTreeNode``, which raises its own error for it.
"""

from __future__ import annotations

_node_class = None  # FormatNode, made on the first tree (mdformat is imported only when a text is formatted)
_pair = None  # markdown-it's pair of an opening and a closing token (its NamedTuple _NesterTokens)


def _load() -> None:
    """Make FormatNode, an mdformat render tree node whose type, children and
    parent are attributes set by :func:`build_tree` (class attributes of these
    names hide the properties of ``SyntaxTreeNode``, so the node's own values
    are read directly), and look up markdown-it's token pair."""
    from markdown_it.tree import _NesterTokens
    from mdformat.renderer import RenderTreeNode

    global _node_class, _pair
    _pair = _NesterTokens
    _node_class = type("FormatNode", (RenderTreeNode,), {"type": None, "children": None, "parent": None})


class _NotNested(Exception):
    """The tokens are not nested as markdown-it nests them."""


def build_tree(tokens):
    """The render tree of ``tokens`` (markdown-it ``Token`` objects), as
    ``RenderTreeNode(tokens)`` builds it: a root node whose children are a
    node per unnested token (its own children built from the token's
    ``children``) and a node per ``_open``/``_close`` pair holding the nodes
    of the tokens between them. Raises ValueError, as ``RenderTreeNode``
    does, for tokens not nested in pairs."""
    if _node_class is None:
        _load()
    root = _node(None, "root", None)
    try:
        _add_children(root, tokens)
    except _NotNested:
        from mdformat.renderer import RenderTreeNode

        return RenderTreeNode(tokens)
    return root


def _node(token, type_: str, parent):
    """A node of ``type_`` under ``parent``, representing the unnested
    ``token`` (None for the root and for a pair of tokens, whose
    ``nester_tokens`` are set when the closing token is met)."""
    node = object.__new__(_node_class)
    node.token = token
    node.nester_tokens = None
    node.type = type_
    node.parent = parent
    node.children = []
    return node


def _add_children(parent, tokens) -> None:
    """The nodes of ``tokens``, added below ``parent``. Raises _NotNested for
    a nesting other than 1, 0 or -1, a closing token with no opening one
    and an opening one left unclosed."""
    open_nodes = []
    openings = []
    current = parent
    for token in tokens:
        nesting = token.nesting
        if nesting == 0:
            node = _node(token, token.type, current)
            current.children.append(node)
            if token.children:
                _add_children(node, token.children)
        elif nesting == 1:
            node = _node(None, token.type.removesuffix("_open"), current)
            current.children.append(node)
            open_nodes.append(current)
            openings.append(token)
            current = node
        elif nesting == -1 and open_nodes:
            current.nester_tokens = _pair(openings.pop(), token)
            current = open_nodes.pop()
        else:
            raise _NotNested
    if open_nodes:
        raise _NotNested


def take_apart(tree) -> None:
    """Empty the child list of every node of ``tree`` (a render tree). Each
    node holds its parent and its children, so a tree is one large reference
    cycle that only the cyclic collector frees, after a pause of it
    (``studygen.memory.collector_paused``) by walking every node: with the
    downward links gone, reference counts free the nodes and their tokens as
    soon as the tree is let go (about 12,600 nodes and 17,500 tokens for the
    shipped project's READMEs; a tenth of the check's CPU time went to
    collecting them)."""
    nodes = [tree]
    while nodes:
        node = nodes.pop()
        nodes.extend(node.children)
        node.children = []
