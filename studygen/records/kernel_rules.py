"""Kernel-group rules as a study file writes them: compiling a pattern
safely and matching names with it, for collect (which groups a profile by
them) and for check (which holds a record's groups against them).

A rule's pattern is searched in a name case-insensitively (``re.search``;
``(?-i:…)`` for a case-sensitive part). A pattern from a file must not hang
a collect or a check on a long name (``^(a+)+$`` backtracks for ages on 40
letters and a ``b``), so every pattern is matched in linear time by RE2 (the
``google-re2`` package) where RE2 can run it; one RE2 cannot run (a
lookaround such as ``(?<![a-z])``, a backreference) or every pattern where
the package is missing goes to Python's ``re`` only after a static check of
its parse tree (:func:`backtracking_risk`): no repeat of a group that itself
repeats or alternates, and at most one unbounded repeat counting the
unanchored start and each backreference (which matches as much as its group,
compared character by character), so the cost stays linear in the name's
length. (Two were allowed before issue 24: a layer name of 200,000
characters then took ``(?<!q)a.*b`` past a minute, ``(.+)\1x`` one of 8,000
characters past four.)

A TensorRT Myelin node whose members TensorRT elides
(:func:`elided_foreign_node`), and a subgraph node named by the list of
its members (:func:`listed_subgraph_node`), are never grouped by their
names (:func:`untold_node`).
"""

from __future__ import annotations

import re
from re import _parser  # Python's own parser of regular expressions (3.11+), for backtracking_risk

from ..errors import RecordError
from ..patterns import invalid_pattern, lazy_compile, needed_words


def elided_foreign_node(name: str) -> bool:
    """True for a TensorRT Myelin layer whose members TensorRT elides,
    ``{ForeignNode[first...last]}`` (the whole name; a reformat *to* such a
    node is a reformat). String tests, linear in the name's length."""
    return name.startswith("{ForeignNode[") and name.endswith("]}") and "..." in name


def listed_subgraph_node(name: str) -> bool:
    """True for a subgraph node TensorRT names by the comma-separated list
    of every layer it runs, ``{conv1/7x7_s2,conv1/relu_7x7,...,prob}`` (the
    whole name): the DLA subgraph of the TensorRT 7-era googlenet profiles
    in ../shared/fixtures/public (haxconn_*_dla_*), 57 layers of
    convolution, pooling, LRN and concatenation under one name, which the
    first member a rule finds ("conv1") would call convolution. String
    tests, linear in the name's length."""
    return name.startswith("{") and name.endswith("}") and "," in name and not name.startswith("{ForeignNode[")


def untold_node(name: str) -> bool:
    """True for a layer whose name says nothing of the kind of its work as
    a whole: :func:`elided_foreign_node` or :func:`listed_subgraph_node`."""
    return elided_foreign_node(name) or listed_subgraph_node(name)


# Repeats up to this many times count as bounded for backtracking_risk: `_?`, `\d{1,3}`.
# The group a kernel or layer no rule takes is counted in (collect writes it, check reads it).
FALLBACK_GROUP = "other"
# A collector's note naming the rules a kernel-time result was grouped by: grouping_note writes it, GROUPED_BY reads it.
GROUPED_BY = re.compile(r"\bgroups by (.+?) kernel_groups rules\b")


def grouping_note(source: str) -> str:
    """``groups by families/f/study.yaml kernel_groups rules`` (``source``:
    the study file's path, or ``default`` for the built-in rules): the part of
    a kernel-time result's note that :data:`GROUPED_BY` reads back."""
    return f"groups by {source} kernel_groups rules"


BOUNDED_REPEAT = 1
MAX_DEGREE = 1  # unbounded repeats in a row (plus one for an unanchored start) a Python pattern may hold


def compile_pattern(pattern: str, source: str, pointer: str):
    """``pattern`` compiled for case-insensitive ``search``: by RE2 (linear
    time in the name's length) when the ``google-re2`` package is installed
    and RE2 accepts the pattern, else by Python's ``re`` once
    :func:`backtracking_risk` finds no risk. Raises RecordError naming
    ``source`` and ``pointer`` for an invalid expression (Python's message)
    or a risky one."""
    problem = invalid_pattern(pattern, re.IGNORECASE)
    if problem is not None:
        raise RecordError(problem, path=source, pointer=pointer)
    python_pattern = re.compile(pattern, re.IGNORECASE)
    linear = _re2_pattern(pattern)
    if linear is not None:
        return linear
    risk = backtracking_risk(pattern)
    if risk is not None:
        engine = "RE2 cannot run it (a lookaround or backreference)" if _re2() is not None else \
            "the google-re2 package is not installed"
        raise RecordError(f"regular expression {pattern!r} could take very long on a long name: {risk}; {engine}, "
                          "so rewrite it without that", path=source, pointer=pointer)
    # Python's re tries every start of a name for a pattern opening with a lookbehind or an alternation: the
    # shipped H200 study's Conv and layout rules took 28 and 50 us a kernel name (176 characters on average, 404
    # names), RE2's rules 2; behind the words every match needs (a substring test each) most names take under 1
    words = needed_words(pattern)
    return python_pattern if words is None else lazy_compile(pattern, re.IGNORECASE, needs=words)


def _re2():
    """The ``re2`` module of google-re2, or None when it is not installed."""
    try:
        import re2
    except ImportError:
        return None
    return re2


def _re2_pattern(pattern: str):
    """``pattern`` compiled by RE2 (case-insensitive, errors not logged), or
    None when the package is missing or RE2 does not accept the pattern."""
    re2 = _re2()
    if re2 is None:
        return None
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # RE2 would print its refusal on stderr
    try:
        return re2.compile(pattern, options)
    except re2.error:
        return None


def backtracking_risk(pattern: str) -> str | None:
    """Why Python's backtracking ``re`` could take very long to search a long
    name with ``pattern`` (a valid expression), or None.

    A static check of the parse tree, conservative: a repeat (``*``, ``+``,
    ``{n,}``, ``{n,m}`` with m > 1) of a part that itself holds a repeat or an
    alternation is refused (``(a+)+``, ``(a|ab)*``: exponential); otherwise
    the unbounded repeats that can follow each other along one path are
    counted (a backreference to a group holding one as one: it matches as
    much as its group did; a lookaround's own count stands beside the rest,
    not added to it, since Python never backtracks into one), plus one when
    the pattern is not anchored at the start (search tries every start), and
    more than :data:`MAX_DEGREE` is refused (``a.*b``: quadratic). What
    passes costs at most about the name's length times the pattern's."""
    try:
        tree = _parser.parse(pattern, re.IGNORECASE)
    except re.error:
        return None
    nested = _nested_repeat(tree)
    if nested:
        return nested
    degree = _degree(tree, _unbounded_groups(tree)) + (0 if _anchored(tree) else 1)
    if degree > MAX_DEGREE:
        repeats = degree - (0 if _anchored(tree) else 1)
        return (f"{repeats} unbounded {'repeat' if repeats == 1 else 'repeats in a row'} (a backreference counts "
                f"as one){'' if _anchored(tree) else ' after an unanchored start'}, a cost growing with the name's "
                f"length to the power {degree}, where linear is the most allowed")
    return None


_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def _children(op_name: str, argument) -> list:
    """The sub-patterns of one parsed item."""
    if op_name in _REPEATS:
        return [argument[2]]
    if op_name == "SUBPATTERN":
        return [argument[3]]
    if op_name in ("ASSERT", "ASSERT_NOT"):
        return [argument[1]]
    if op_name == "BRANCH":
        return list(argument[1])
    if op_name == "GROUPREF_EXISTS":
        return [part for part in argument[1:] if part is not None]
    if op_name == "ATOMIC_GROUP":
        return [argument]
    return []


def _repeats_or_alternates(tree) -> bool:
    for op, argument in tree:
        name = str(op)
        if name == "BRANCH" or (name in _REPEATS and argument[1] > BOUNDED_REPEAT):
            return True
        if any(_repeats_or_alternates(child) for child in _children(name, argument)):
            return True
    return False


def _nested_repeat(tree) -> str | None:
    for op, argument in tree:
        name = str(op)
        if name in _REPEATS and argument[1] > BOUNDED_REPEAT and _repeats_or_alternates(argument[2]):
            return "a repeated part that itself repeats or alternates (as in (a+)+ or (a|ab)*), exponential"
        for child in _children(name, argument):
            found = _nested_repeat(child)
            if found:
                return found
    return None


def _unbounded_groups(tree) -> set[int]:
    """Numbers of the groups of ``tree`` that hold an unbounded repeat (a
    backreference to one matches as much as the group did)."""
    found, stack = set(), [tree]
    while stack:
        for op, argument in stack.pop():
            name = str(op)
            if name == "SUBPATTERN" and argument[0] is not None and _degree(argument[3]) > 0:
                found.add(argument[0])
            stack.extend(_children(name, argument))
    return found


def _degree(tree, unbounded: frozenset | set = frozenset()) -> int:
    """Unbounded repeats, and backreferences to the ``unbounded`` groups,
    that can follow each other along one path of ``tree``; a lookaround's
    own degree stands beside them."""
    total, lookaround = 0, 0
    for op, argument in tree:
        name = str(op)
        if name in _REPEATS:
            total += (1 if argument[1] > BOUNDED_REPEAT else 0) + _degree(argument[2], unbounded)
        elif name == "GROUPREF":
            total += 1 if argument in unbounded else 0
        elif name == "BRANCH" or name == "GROUPREF_EXISTS":
            total += max((_degree(child, unbounded) for child in _children(name, argument)), default=0)
        elif name in ("ASSERT", "ASSERT_NOT"):
            lookaround = max(lookaround, _degree(argument[1], unbounded))
        else:
            total += sum(_degree(child, unbounded) for child in _children(name, argument))
    return max(total, lookaround)


def _anchored(tree) -> bool:
    """True when ``tree`` can match only at the start of the name."""
    items = list(tree)
    return bool(items) and str(items[0][0]) == "AT" and str(items[0][1]) in ("AT_BEGINNING", "AT_BEGINNING_STRING")
