"""What a template prints from number and text literals, read off Jinja's
syntax tree (for SG211, :mod:`studygen.checks.sg211_literal_figures`).

Constant sub-expressions are folded as Jinja would compute them
(``{{ 10 * 1.25 }}`` prints the figure 12.5, ``{{ "0." ~ "21 ms" }}`` the
text "0.21 ms"), within the limits render puts on a template's ``*`` and
``**`` (:func:`studygen.render.limits.refuse_huge_result`): an expression past
them, or one that fails (a division by zero), is not folded and its literals
count one by one.

A literal is *printed* when the value of a ``{{ … }}`` expression can hold it:
the expression itself, a positional argument of a call or filter, the object
of an attribute, subscript or filter, either branch of ``… if … else …``,
either operand of ``or``/``and``, an operand of ``~``, an item of a list,
tuple or mapping, and an operand of arithmetic, except a power of ten that
multiplies or divides (``* 100``, ``/ 1000``: a change of unit). A keyword
argument, a subscript, a test and a comparison select or decide; they print
nothing. A name bound by ``{% set name = … %}``, ``{% for name in … %}``,
``{% with name = … %}`` or a macro's default prints what it was bound to
(by name, whatever the scope: a template that reuses a name is read as if
every binding could reach every print of it). Attributes of a
``namespace()`` are not followed (counters: ``{% set n.k = n.k + 1 %}``).
"""

from __future__ import annotations

import math
import operator

from ..render.limits import refuse_huge_result


class NotConstant(Exception):
    """An expression whose value depends on the render (or past a limit)."""


_BINARY = {"Add": ("+", operator.add), "Sub": ("-", operator.sub), "Mul": ("*", operator.mul),
           "Div": ("/", operator.truediv), "FloorDiv": ("//", operator.floordiv), "Mod": ("%", operator.mod),
           "Pow": ("**", operator.pow)}
_UNARY = {"Neg": operator.neg, "Pos": operator.pos}
MAX_FOLDED_CHARS = 100_000  # a folded text longer than this is not folded (it is read literal by literal)


def fold(node):
    """The value of the constant expression ``node`` (numbers, text, ``~``,
    arithmetic, unary signs, lists and tuples of constants). Raises
    :class:`NotConstant` for anything that depends on the render, and for an
    operation render would refuse or that fails."""
    from jinja2 import nodes

    kind = type(node).__name__
    if isinstance(node, nodes.Const):
        return node.value
    if isinstance(node, (nodes.List, nodes.Tuple)):
        return [fold(item) for item in node.items]
    if isinstance(node, nodes.Concat):
        text = "".join(str(fold(part)) for part in node.nodes)
        if len(text) > MAX_FOLDED_CHARS:
            raise NotConstant
        return text
    if kind in _UNARY:
        value = fold(node.node)
        if not _is_number(value) or not _printable(value):
            raise NotConstant
        return _UNARY[kind](value)
    if kind in _BINARY:
        symbol, apply = _BINARY[kind]
        left, right = fold(node.left), fold(node.right)
        if symbol == "*" and any(isinstance(side, (str, list)) and isinstance(times, int)
                                 and len(side) * times > MAX_FOLDED_CHARS for side, times in ((left, right), (right, left))):
            raise NotConstant  # not made at all: a long repeat is read literal by literal
        try:
            refuse_huge_result(symbol, left, right)
            value = apply(left, right)
        except Exception:  # noqa: BLE001 - SecurityError past a limit, ZeroDivisionError, TypeError, OverflowError
            raise NotConstant from None
        if isinstance(value, (str, list)) and len(value) > MAX_FOLDED_CHARS or not _printable(value):
            raise NotConstant
        return value
    raise NotConstant


MAX_FOLDED_NUMBER = 10**15  # past this, a folded number is not shown (10 ** 5000 has more digits than str() makes)


def _printable(value) -> bool:
    """False for a number a finding could not show as a figure: not finite, or past :data:`MAX_FOLDED_NUMBER`."""
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) < MAX_FOLDED_NUMBER
    return not _is_number(value) or abs(value) < MAX_FOLDED_NUMBER


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def shown_number(value) -> str:
    """A folded number as a finding names it: ``12.5``, ``-7``, ``1e+300``."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        return str(int(value)) if not math.isinf(value) else repr(value)
    return repr(value) if isinstance(value, float) else str(value)


def _is_constant(node) -> bool:
    try:
        fold(node)
    except NotConstant:
        return False
    return True


def _is_unit_factor(node, kind: str) -> bool:
    """True for a power of ten that multiplies or divides (``* 100``)."""
    try:
        value = fold(node)
    except NotConstant:
        return False
    if kind not in ("Mul", "Div", "FloorDiv") or not _is_number(value) or value <= 0 or math.isinf(value):
        return False
    exponent = round(math.log10(value))
    return math.isclose(value, 10.0 ** exponent, rel_tol=1e-12)


class PrintedLiterals:
    """Reads one parsed template (a :class:`~studygen.render.template_memo.ParsedTemplate`,
    or anything with Jinja's ``find_all``): ``found`` holds ``(line, kind, value)`` with
    kind ``"number"`` (value: the number as shown) or ``"text"`` (a printed
    text literal, whose numbers the caller reads like written text)."""

    def __init__(self, parsed):
        from jinja2 import nodes

        self.found: list[tuple[int, str, str]] = []
        self.bound: dict[str, list[tuple[int, str, str]]] = {}
        for assign in parsed.find_all((nodes.Assign, nodes.For, nodes.With, nodes.Macro)):
            self._bind(assign)
        for output in parsed.find_all(nodes.Output):
            for child in output.nodes:
                if not isinstance(child, nodes.TemplateData):
                    self.printed(child)

    def _bind(self, node) -> None:
        from jinja2 import nodes

        if isinstance(node, nodes.Assign):
            pairs = [(node.target, node.node)]
        elif isinstance(node, nodes.For):
            pairs = [(node.target, node.iter)]
        elif isinstance(node, nodes.With):
            pairs = list(zip(node.targets, node.values))
        else:  # a macro: its last arguments have defaults
            pairs = list(zip(node.args[len(node.args) - len(node.defaults):], node.defaults))
        for target, value in pairs:
            names = [n.name for n in target.find_all(nodes.Name)] + ([target.name] if isinstance(target, nodes.Name) else [])
            literals = self._collect(value)
            for name in names:
                self.bound.setdefault(name, []).extend(literals)

    def _collect(self, node) -> list[tuple[int, str, str]]:
        """What printing ``node`` would print, without adding it to ``found``."""
        kept, self.found = self.found, []
        try:
            self.printed(node)
            return self.found
        finally:
            self.found = kept

    def printed(self, node) -> None:
        """Add what ``node`` prints when its value is printed."""
        from jinja2 import nodes

        try:
            value = fold(node)
        except NotConstant:
            value = NotConstant
        if value is not NotConstant:
            self._constant(node.lineno, value)
            return
        kind = type(node).__name__
        if isinstance(node, nodes.Name):
            self.found.extend(self.bound.get(node.name, ()))
            return
        if isinstance(node, (nodes.Call, nodes.Filter)):
            for part in (node.node, *node.args):  # a {% filter %} block's filter has no node: None folds to nothing
                self.printed(part)
            return
        if isinstance(node, (nodes.Getattr, nodes.Getitem)):
            self.printed(node.node)
            return
        if isinstance(node, nodes.CondExpr):
            for part in (node.expr1, node.expr2):
                if part is not None:
                    self.printed(part)
            return
        if isinstance(node, (nodes.Or, nodes.And)) or kind in _BINARY:
            for part, other in ((node.left, node.right), (node.right, node.left)):
                if not (_is_unit_factor(part, kind) and not _is_constant(other)):
                    self.printed(part)
            return
        if kind in _UNARY:
            self.printed(node.node)
            return
        if isinstance(node, (nodes.Concat, nodes.List, nodes.Tuple)):
            for part in (node.nodes if isinstance(node, nodes.Concat) else node.items):
                self.printed(part)
            return
        if isinstance(node, nodes.Dict):
            for pair in node.items:
                self.printed(pair.value)
        # Compare, Test, Not, Slice and the rest decide or select: nothing of theirs is printed

    def _constant(self, line: int, value) -> None:
        if isinstance(value, list):
            for item in value:
                self._constant(line, item)
        elif _is_number(value):
            self.found.append((line, "number", shown_number(value)))
        elif isinstance(value, str):
            self.found.append((line, "text", value))


def template_names(node) -> tuple[list[str], bool]:
    """The template names an include, import or extends expression can take
    (constant names folded, both branches of ``… if … else …``, each item of a
    list of choices) and whether some part of it is computed at render time."""
    from jinja2 import nodes

    if isinstance(node, nodes.CondExpr):
        names, computed = [], node.expr2 is None
        for part in (node.expr1, node.expr2):
            if part is not None:
                more, unknown = template_names(part)
                names.extend(more)
                computed = computed or unknown
        return names, computed
    if isinstance(node, (nodes.List, nodes.Tuple)):
        names, computed = [], False
        for part in node.items:
            more, unknown = template_names(part)
            names.extend(more)
            computed = computed or unknown
        return names, computed
    try:
        value = fold(node)
    except NotConstant:
        return [], True
    return ([value], False) if isinstance(value, str) else ([], True)


def referenced_names(env, source: str) -> tuple[list[str], list[int]]:
    """Names of the templates ``source`` includes, imports or extends, and
    the lines of each reference whose name is (partly) computed at render time."""
    from jinja2 import nodes

    names, computed_lines = [], []
    for node in env.parsed(source).find_all((nodes.Include, nodes.Import, nodes.FromImport, nodes.Extends)):
        found, computed = template_names(node.template)
        names.extend(found)
        if computed:
            computed_lines.append(node.lineno)
    return names, computed_lines
