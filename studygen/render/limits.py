"""What a template may make: a budget of characters and list items.

The step budget (render/engine.py) bounds how often a template acts, not how
much one act makes: ``'{:>50000000}'.format('x')``, ``'x'|center(50000000)``,
``'%50000000d' % 1``, ``'x'.ljust(…)`` and ``'x\\t'.expandtabs(…)`` each made
50 MB in one step and render wrote them (issue 24, item 5). So, for a
template run by :func:`studygen.render.engine.make_environment`:

- every value it makes (the result of a call, a filter, an operator or a
  slice, a ``~``, each piece of text it prints or captures with ``{% set %}``,
  a macro or ``{% filter %}``) is charged its size (``len``) as it is made,
  against :data:`MAX_TEMPLATE_CHARS` for the whole render
  (:class:`TemplateBudget`);
- an operation that can make far more than its operands hold is first given
  room: the size of its result is bounded from its arguments, before it runs,
  and refused when that bound does not fit in what is left. Such an
  operation takes a width, precision or count (format specs of ``str.format``
  and ``%``, ``center``, ``ljust``, ``rjust``, ``zfill``, ``expandtabs``,
  ``to_bytes``, the filters ``center``, ``indent``, ``batch``, ``slice``,
  ``tojson``), repeats what it is given (``replace``, ``translate``,
  ``join``, ``~``, ``wordwrap``, ``urlize``), or prints a container (the text
  of a list is the text of all it holds, also when it holds one long string
  many times: :func:`text_size`).

Every public method of ``str``, ``bytes``, ``int`` and ``float`` and every
filter of Jinja is listed below, with its bound or as linear (its result is
at most a few times what it is given, charged after it ran); a method no list
names is refused, so a new Python or Jinja cannot add an unbounded one
unnoticed (tests/robustness/test_template_limits.py checks the lists).
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import ItemsView, KeysView, ValuesView

from ..textio import MAX_DOCUMENT_BYTES
from ..patterns import lazy_compile

# Four READMEs of the largest size a README may have (render/engine.py MAX_OUTPUT_CHARS); the shipped
# templates make well under a million.
MAX_TEMPLATE_CHARS = 4 * MAX_DOCUMENT_BYTES

_LARGE = 10**12  # what a number of more than 12 digits counts as (int() of 5,000 digits is refused)


def size_of(value) -> int:
    """What ``value`` is charged: its length when it is text, bytes or a
    container (characters or items), else 0."""
    if isinstance(value, (str, bytes, bytearray, list, tuple, dict, set, frozenset, range)):
        return len(value)
    return 0


def _refused(message: str) -> Exception:
    """jinja2's SecurityError with ``message``: render and check report it as
    a template error naming the template line. (jinja2 is imported when a
    template is rendered, not when this module is: check reads cached
    findings without it.)"""
    from jinja2.exceptions import SecurityError

    return SecurityError(message)


def _number(digits: str) -> int:
    return int(digits) if len(digits) <= 12 else _LARGE


def _count(value) -> int:
    """A width or count argument as a number (another type: 0, the call then fails on its own)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def text_size(value, limit: int = MAX_TEMPLATE_CHARS) -> int:
    """An upper bound of ``len(str(value))``, computed without making the
    text (stops counting once past ``limit``): a string's length; inside a
    container its repr (at most 10 characters a character, ``\\U0001f600``);
    an integer's digits from its bits; a list, tuple, set, mapping or
    ``namespace()`` the sum of what it holds plus its punctuation; any
    other object 80 (its own short ``str``, e.g. a row's figure)."""
    if isinstance(value, str):  # what nearly every call is given: no container to walk
        return len(value)
    from jinja2.runtime import Namespace

    total, stack, top = 0, [value], True
    while stack and total <= limit:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item) if top else 10 * len(item) + 2
        elif isinstance(item, (bytes, bytearray)):
            total += 4 * len(item) + 3
        elif isinstance(item, int) and not isinstance(item, bool):
            total += item.bit_length() // 3 + 2  # log10(2) < 1/3
        elif isinstance(item, dict):
            total += 2 + 4 * len(item)
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset, KeysView, ValuesView, ItemsView)):
            total += 2 + 2 * len(item)
            stack.extend(item)
        elif isinstance(item, Namespace):
            total += 16
            stack.append(dict(item._Namespace__attrs))  # noqa: SLF001 - what its repr prints
        else:
            total += 80 if item is not None and not isinstance(item, (bool, float)) else 24
        top = False
    return total


_DIGITS = re.compile(r"\d+")
# One printf conversion (Python's "printf-style String Formatting"): %[(key)][flags][width][.precision]
_PRINTF = lazy_compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d*))?")


def spec_size(spec: str) -> int:
    """The largest number in a ``str.format`` spec (its width or precision)."""
    return max((_number(digits) for digits in _DIGITS.findall(spec)), default=0)


def printf_size(template, values) -> int:
    """An upper bound of ``len(template % values)``: the template, the text
    of the values, every width and precision it states, 32 a conversion
    (the decimals and exponent it adds unasked), and every number given for
    a ``*`` among them."""
    if not isinstance(template, str):
        return text_size(template)
    items = values if isinstance(values, tuple) else tuple(values.values()) if isinstance(values, dict) else (values,)
    total = len(template) + sum(text_size(item) for item in items)
    starred = False
    for conversion in _PRINTF.finditer(template):
        total += 32  # what a conversion adds unasked: %f's six decimals, %e's exponent, a sign
        for part in conversion.groups():
            if part == "*":
                starred = True
            elif part:
                total += _number(part)
    if starred:
        total += sum(abs(_count(item)) for item in items)
    return total


def _padded(text, width=0, *_):
    return max(len(text), _count(width))


def _expanded(text, tabsize=8):
    return len(text) + text.count("\t" if isinstance(text, str) else b"\t") * max(_count(tabsize), 0)


def _replaced(text, old, new, count=-1):
    if not isinstance(old, type(text)) or not isinstance(new, type(text)):
        return len(text)  # the call fails on the types
    times = text.count(old) if old else len(text) + 1
    count = _count(count) if count is not None else -1
    return len(text) + (min(times, count) if count >= 0 else times) * max(len(new) - len(old), 0)


def _joined(separator, items):
    items = list(items) if isinstance(items, (list, tuple)) else []
    return sum(len(item) for item in items if isinstance(item, (str, bytes))) + len(separator) * max(len(items) - 1, 0)


def _translated(text, table):
    values = table.values() if isinstance(table, dict) else table if isinstance(table, (list, tuple)) else ()
    return len(text) * max([1] + [len(v) for v in values if isinstance(v, (str, bytes))])


# Methods of str and bytes whose result a width, count or what they repeat sets: its bound from the arguments.
# format and format_map: each field is given room by BoundedFormatting as it is formatted.
SIZED_METHODS = {
    "center": _padded, "ljust": _padded, "rjust": _padded, "zfill": _padded, "expandtabs": _expanded,
    "replace": _replaced, "join": _joined, "translate": _translated,
    "format": lambda text, *args, **kwargs: len(text), "format_map": lambda text, *args: len(text),
}
# Methods whose result is at most a few times what they are given (or a number, a truth value):
# charged after they ran.
LINEAR_METHODS = frozenset({
    "capitalize", "casefold", "count", "encode", "endswith", "find", "index", "isalnum", "isalpha", "isascii",
    "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper",
    "lower", "lstrip", "maketrans", "partition", "removeprefix", "removesuffix", "rfind", "rindex", "rpartition",
    "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "upper",
    "decode", "fromhex", "hex",  # bytes (and float.hex, float.fromhex)
    "as_integer_ratio", "bit_count", "bit_length", "conjugate", "from_bytes", "is_integer",  # int and float
})
NUMBER_METHODS = {"to_bytes": lambda number, length=1, *_, **__: _count(length)}


def call_size(function, args: tuple, kwargs: dict) -> int:
    """The bound of what calling ``function`` (a method of a str, bytes, int
    or float, or anything else a template calls) makes; 0 for a method of
    another object (studygen's helpers, Jinja's globals: charged after).
    Raises SecurityError for a method of those types that no list names."""
    owner, name = getattr(function, "__self__", None), getattr(function, "__name__", "")
    if isinstance(owner, (str, bytes)):
        sized = SIZED_METHODS.get(name)
        if sized is None and name not in LINEAR_METHODS:
            raise _refused(f"{type(owner).__name__}.{name} is not a method studygen's template limits know")
        return sized(owner, *args, **kwargs) if sized is not None else 0
    if isinstance(owner, (int, float)) and not isinstance(owner, bool):
        sized = NUMBER_METHODS.get(name)
        if sized is None and name not in LINEAR_METHODS:
            raise _refused(f"{type(owner).__name__}.{name} is not a method studygen's template limits know")
        return sized(owner, *args, **kwargs) if sized is not None else 0
    return 0


def listed_arguments(function, args: tuple) -> tuple:
    """``args`` with the iterable ``str.join`` is given as a list, so that
    its size is known before the join (an iterator is read once)."""
    owner = getattr(function, "__self__", None)
    if isinstance(owner, (str, bytes)) and getattr(function, "__name__", "") == "join" and args \
            and not isinstance(args[0], (list, tuple)):
        return (list(args[0]), *args[1:])
    return args


def binop_size(operator: str, left, right) -> int:
    """The bound of what ``left <operator> right`` makes in a template."""
    sequences = (str, bytes, list, tuple)
    if operator == "*":
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, sequences):
                return len(sequence) * max(_count(times), 0)
    elif operator == "+" and isinstance(left, sequences) and isinstance(right, sequences):
        return len(left) + len(right)
    elif operator == "%" and isinstance(left, str):
        return printf_size(left, right)
    return 0


def _nested_size(value, width) -> int:
    """Indentation an indented dump of ``value`` adds: for each item, its depth times ``width``."""
    step = _count(width) if not isinstance(width, str) else len(width)
    total, stack = 0, [(value, 1)]
    while stack and total <= MAX_TEMPLATE_CHARS:
        item, depth = stack.pop()
        children = list(item.items()) if isinstance(item, dict) else item if isinstance(item, (list, tuple)) else ()
        total += len(children) * (depth * step + 1)
        stack.extend((child, depth + 1) for child in children)
    return total


def _indented(text, width=4, first=False, blank=False):
    lines = text.count("\n") + 1 if isinstance(text, str) else text_size(text) + 1
    return text_size(text) + lines * (len(width) if isinstance(width, str) else _count(width))


# Filters whose result a width, count, or what they repeat sets: the bound from their arguments (the
# first is the value filtered; Jinja's context or environment argument is left out).
SIZED_FILTERS = {
    "center": lambda value, width=80: max(text_size(value), _count(width)),
    "indent": _indented,
    "wordwrap": lambda value, width=79, break_long_words=True, wrapstring=None, break_on_hyphens=True:
        text_size(value) * (1 + text_size(wrapstring if wrapstring is not None else "\n")),
    "format": lambda value, *args, **kwargs: printf_size(value, kwargs or args) + text_size(value),
    "join": lambda value, d="", attribute=None: sum(text_size(item) for item in value) + text_size(d) * len(value),
    "replace": lambda value, old, new, count=None: _replaced(value, old, new, count) if isinstance(value, str)
        else text_size(value),
    "batch": lambda value, linecount, fill_with=None: _count(linecount) + text_size(value),
    "slice": lambda value, slices, fill_with=None: _count(slices) + text_size(value),
    "tojson": lambda value, indent=None: 6 * text_size(value) + _nested_size(value, indent),
    "pprint": lambda value: 2 * text_size(value) + _nested_size(value, 1),
    "urlize": lambda value, trim_url_limit=None, nofollow=False, target=None, rel=None, extra_schemes=None:
        text_size(value) * (8 + text_size(target or "") + text_size(rel or "")),
    "escape": lambda value: 6 * text_size(value), "e": lambda value: 6 * text_size(value),
    "forceescape": lambda value: 6 * text_size(value), "xmlattr": lambda value, autospace=True: 6 * text_size(value),
    "urlencode": lambda value: 12 * text_size(value),  # %XX for each of up to 4 UTF-8 bytes
}
# Filters that make text of their value (str() of a list is the text of all it holds) and at most a
# few times that: given room for that text (:func:`text_size`), charged after they ran.
PRINTING_FILTERS = frozenset({"capitalize", "lower", "safe", "string", "striptags", "title", "trim", "truncate",
                              "upper", "wordcount"})
# Filters whose result is a number, an item or a list of the items they are given (at most as long as
# what they read): charged after they ran.
LINEAR_FILTERS = frozenset({
    "abs", "attr", "count", "d", "default", "dictsort", "filesizeformat", "first", "float", "groupby", "int", "items",
    "last", "length", "list", "map", "max", "min", "random", "reject", "rejectattr", "reverse", "round", "select",
    "selectattr", "sort", "sum", "unique",
})
_LISTED_FILTERS = frozenset({"join", "batch", "slice"})  # read their value once: listed first


class TemplateBudget:
    """Characters and items one render of a template has made (``made``),
    against ``limit``. Raises jinja2's SecurityError (a template error naming
    the template line) when an operation's room or result does not fit."""

    def __init__(self, limit: int = MAX_TEMPLATE_CHARS):
        self.limit = limit
        self.made = 0

    def room(self, size: int, what: str) -> None:
        """Refuse ``what``, before it runs, when ``size`` does not fit in what is left."""
        if size > self.limit - self.made:
            raise _refused(f"{what} could make {size} characters or items, more than the {self.limit - self.made} "
                                f"left of the {self.limit} characters or items a template may make in all")

    def made_by(self, value, what: str):
        """``value``, charged its size (:func:`size_of`)."""
        self.made += size_of(value)
        if self.made > self.limit:
            raise _refused(f"{what} took what this template made past the {self.limit} characters or items "
                                "a template may make in all")
        return value


def budgeted_filters(filters: dict, budget: TemplateBudget) -> dict:
    """``filters`` (name → function, as in ``Environment.filters``), each
    given room before it runs and charged what it made; a filter in none of
    :data:`SIZED_FILTERS`, :data:`PRINTING_FILTERS` and :data:`LINEAR_FILTERS`
    raises SecurityError when used."""
    from jinja2.utils import _PassArg

    def budgeted(name: str, function):
        sized = SIZED_FILTERS.get(name) or (text_size if name in PRINTING_FILTERS else None)
        if sized is None and name not in LINEAR_FILTERS:
            def refused(*_args, **_kwargs):
                raise _refused(f"filter {name} is not one studygen's template limits know")

            return refused
        first = 1 if _PassArg.from_obj(function) is not None else 0  # the context, environment or eval context

        @functools.wraps(function)
        def bounded(*args, **kwargs):
            if name in _LISTED_FILTERS and len(args) > first and not isinstance(args[first], (list, tuple)):
                args = (*args[:first], list(args[first]), *args[first + 1:])
            if sized is not None and len(args) > first:
                budget.room(sized(*args[first:], **kwargs) if sized is not text_size else text_size(args[first]),
                            f"filter {name}")
            return budget.made_by(function(*args, **kwargs), f"filter {name}")

        return bounded

    return {name: budgeted(name, function) for name, function in filters.items()}


# Nodes of a template's tree, counted from the template down to the deepest expression: the shipped
# templates reach 10. Jinja's parser, its code generator and Python's compiler recurse per level (2,000
# chained filters or 5,000 nested parentheses raised RecursionError; 100 nested {% if %} too many
# indentation levels for Python), so deeper templates are refused with their line.
MAX_TEMPLATE_NESTING = 50


def long_integer(source: str, after_line: int = 1) -> tuple[int | None, int]:
    """Line and length of the first run of digits in ``source``, from line
    ``after_line`` on (the line the lexer had reached), longer than Python
    converts to an integer (``sys.get_int_max_str_digits()``, 4,300 by
    default); ``(None, 0)`` when there is none."""
    limit = sys.get_int_max_str_digits()
    start = 0
    for _ in range(max(after_line, 1) - 1):
        start = source.find("\n", start) + 1
    found = re.compile(rf"[0-9_]{{{limit + 1},}}").search(source, start) if limit else None
    if found is None:
        return None, 0
    return source.count("\n", 0, found.start()) + 1, len(found.group(0).replace("_", ""))


def parse_bounded(environment, source: str, name, filename) -> tuple:
    """``(tree, nodes, children)``: the tree of ``source`` as
    ``Environment._parse`` makes it, its nodes in the order ``tree.find_all``
    yields them (the template node itself left out) and the children of
    each node, the template's first (:func:`tree_nodes`), listed by the walk
    that measures its depth. Raises
    jinja2's TemplateSyntaxError (file and line, a template error in render
    and check alike) when blocks and expressions nest more than
    :data:`MAX_TEMPLATE_NESTING` levels deep, also where the parser itself
    ran out of Python's recursion before it could tell (its current line)."""
    from jinja2.exceptions import TemplateSyntaxError
    from jinja2.nodes import Template
    from jinja2.parser import Parser

    message = (f"blocks and expressions (filters, parentheses, operators) nested more than {MAX_TEMPLATE_NESTING} "
               f"levels deep; the limit is {MAX_TEMPLATE_NESTING}")
    parser = Parser(environment, source, name, filename)
    try:
        # Parser.parse, less its own walk of the tree setting each node's environment: the walk below sets it
        tree = Template(parser.subparse(), lineno=1)
    except RecursionError:
        raise TemplateSyntaxError(message, parser.stream.current.lineno, name, filename) from None
    except ValueError:  # Jinja's lexer makes int() of each integer literal: past Python's digit limit
        line, digits = long_integer(source, after_line=parser.stream.current.lineno)
        if line is None:
            raise
        raise TemplateSyntaxError(f"an integer of {digits} digits; Python reads at most {sys.get_int_max_str_digits()}",
                                  line, name, filename) from None
    walked, too_deep, children = tree_nodes(tree, MAX_TEMPLATE_NESTING)
    if too_deep is not None:
        raise TemplateSyntaxError(message, too_deep.lineno, name, filename)
    for node in walked:
        node.environment = environment
    return tree, walked[1:], children


def tree_nodes(tree, max_depth: int) -> tuple[list, object, list]:
    """``(nodes, too_deep, children)``: ``tree`` and the nodes below it in
    the order ``tree.find_all`` yields them (each node, then the nodes below
    each of its children in turn: Jinja's ``iter_child_nodes``, read field
    by field here, once), the last of them, in that order, that lies
    ``max_depth + 1`` levels below ``tree`` (None when none does: below it
    nothing is listed), and for each node listed the list of its children
    in the order ``iter_child_nodes`` yields them (empty below that depth).
    The last, not the first: the depth check walked
    the last child first and named the first such node it met."""
    from jinja2.nodes import Node

    walked, too_deep, listed = [], None, []
    stack, depths = [tree], [0]
    while stack:
        node, depth = stack.pop(), depths.pop()
        walked.append(node)
        children = []
        listed.append(children)
        if depth > max_depth:
            too_deep = node
            continue
        for field in node.fields:
            item = getattr(node, field, None)
            if isinstance(item, list):
                children.extend(child for child in item if isinstance(child, Node))
            elif isinstance(item, Node):
                children.append(item)
        stack.extend(reversed(children))
        depths.extend([depth + 1] * len(children))
    return walked, too_deep, listed


_DEBUG_INFO = lazy_compile(r"^debug_info = '([0-9=&]*)'$", re.M)  # template line = Python line, &-joined


def compile_generated(source: str, filename):
    """``compile`` of the Python code Jinja generated from a template, with
    no compiler flags (Jinja's own ``Environment._compile`` passes none; this
    module's ``from __future__ import annotations`` is not inherited). Raises jinja2's TemplateSyntaxError naming the template line when Python
    refuses it for its depth (more than 20 nested loops, 100 indentation
    levels or 200 parentheses: limits of Python's compiler, below
    :data:`MAX_TEMPLATE_NESTING`'s)."""
    from jinja2.exceptions import TemplateSyntaxError

    try:
        return compile(source, filename, "exec", dont_inherit=True)  # as Jinja's: not under this module's __future__
    except (SyntaxError, RecursionError, MemoryError) as exc:
        reason = getattr(exc, "msg", None) or type(exc).__name__
        found = _DEBUG_INFO.search(source)
        pairs = [tuple(map(int, pair.split("="))) for pair in found.group(1).split("&") if pair] if found else []
        python_line = getattr(exc, "lineno", None) or 0
        line = max((pair for pair in pairs if pair[1] <= python_line), key=lambda pair: pair[1], default=(0, 0))[0]
        raise TemplateSyntaxError(f"nested too deeply for Python to compile ({reason})", line, None, filename) \
            from None


def bounded_format(environment, method):
    """``str.format`` or ``str.format_map`` (``method``, bound to its text)
    as a template calls it: formatted as Jinja's sandbox formats it (fields
    reach only safe attributes), each field given room in
    ``environment.budget`` for its width, precision and text before it is
    formatted. (The whole result is charged by the sandbox's call.)"""
    from markupsafe import Markup
    from jinja2.sandbox import SandboxedEscapeFormatter, SandboxedFormatter

    text = method.__self__
    budget = environment.budget

    class Bounded:
        def format_field(self, value, format_spec):
            budget.room(spec_size(format_spec) + text_size(value), "a format field")
            return super().format_field(value, format_spec)

    if isinstance(text, Markup):
        formatter = type("BoundedEscapeFormatter", (Bounded, SandboxedEscapeFormatter), {})(
            environment, escape=text.escape)
    else:
        formatter = type("BoundedFormatter", (Bounded, SandboxedFormatter), {})(environment)

    def formatted(*args, **kwargs):
        if method.__name__ == "format_map":
            if kwargs or len(args) != 1:
                raise TypeError("format_map() takes exactly one argument, a mapping")
            args, kwargs = (), args[0]
        return type(text)(formatter.vformat(text, args, kwargs))

    return functools.update_wrapper(formatted, method)


@functools.cache
def budgeted_code_generator() -> type:
    """Jinja's ``CodeGenerator`` subclassed (built once, when a template is
    first compiled, so that importing this module loads no jinja2)."""
    from jinja2 import nodes
    from jinja2.compiler import CodeGenerator

    class BudgetedCodeGenerator(CodeGenerator):
        """Jinja's code generator, with every piece of output (printed, or
        captured by ``{% set %}``, a macro, ``{% call %}`` or ``{% filter %}``)
        passed through ``environment.produced``, every ``~`` through
        ``environment.concatenated`` and every slice through
        ``environment.sliced``, so that text is charged as it is made, not once
        a capture holds it all."""

        def _output_const_repr(self, group) -> str:
            return f"environment.produced({super()._output_const_repr(group)})"

        def _output_child_pre(self, node, frame, finalize) -> None:
            if _printed_in_one_call(frame, finalize):
                self.write("environment.printed(")
                return
            self.write("environment.produced(")
            super()._output_child_pre(node, frame, finalize)

        def _output_child_post(self, node, frame, finalize) -> None:
            if _printed_in_one_call(frame, finalize):
                self.write(")")
                return
            super()._output_child_post(node, frame, finalize)
            self.write(")")

        def visit_Getitem(self, node, frame) -> None:  # noqa: N802 - jinja2's visitor name
            # Jinja writes a slice (x[1:]) as Python's own subscript, past the environment's getitem
            if isinstance(node.arg, nodes.Slice):
                self.write("environment.sliced(")
                super().visit_Getitem(node, frame)
                self.write(")")
            else:
                super().visit_Getitem(node, frame)

        def visit_Concat(self, node, frame) -> None:  # noqa: N802 - jinja2's visitor name
            # the join Jinja itself picks (escaping inside {% autoescape %}), given the parts as a tuple
            join = ("(markup_join if context.eval_ctx.volatile else str_join)" if frame.eval_ctx.volatile
                    else "markup_join" if frame.eval_ctx.autoescape else "str_join")
            self.write(f"environment.concatenated({join}, (")
            for part in node.nodes:
                self.visit(part, frame)
                self.write(", ")
            self.write("))")

    return BudgetedCodeGenerator


def _printed_in_one_call(frame, finalize) -> bool:
    """Whether a value a template prints is written ``environment.printed(value)``:
    what Jinja writes ``str(environment.finalize(value))`` (text not escaped
    for HTML, and the environment's ``finalize`` taking the value alone), and
    render's code generator then ``environment.produced(…)`` around it. One
    call, not three, for each ``{{ }}``: the code of the project's H200
    template is 2.4 KB shorter (47.2 of 49.5 KB) and Python compiles it in about
    0.5 ms less. Any other print (inside ``{% autoescape %}``) is written as before."""
    return finalize.src == "environment.finalize(" and not frame.eval_ctx.volatile and not frame.eval_ctx.autoescape


# Jinja's sandbox stops a template reaching Python internals, not one
# exhausting memory or time; these limits refuse the two one-line bombs
# ('x' * 10**10, 10 ** (10 ** 10)). The loop bomb is refused by jinja2's MAX_RANGE.
MAX_REPEAT_ITEMS = 10_000_000  # characters or items a template's '*' may make
MAX_POWER_BITS = 100_000  # bits of an integer a template's '**' may make (~30,000 digits)


def refuse_huge_result(operator: str, left, right) -> None:
    """Raise jinja2's SecurityError when ``left <operator> right`` in a
    template would repeat a string or list past :data:`MAX_REPEAT_ITEMS` or
    raise an integer past :data:`MAX_POWER_BITS`."""
    from jinja2.exceptions import SecurityError

    def is_int(value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    if operator == "*":
        for sequence, times in ((left, right), (right, left)):
            if isinstance(sequence, (str, bytes, list, tuple)) and is_int(times) and len(sequence) * times > MAX_REPEAT_ITEMS:
                raise SecurityError(f"'*' would make {len(sequence) * times} items; a template may make at most {MAX_REPEAT_ITEMS}")
    elif operator == "**" and is_int(left) and is_int(right) and abs(left) > 1 and right > 0:
        bits = right * abs(left).bit_length()
        if bits > MAX_POWER_BITS:
            raise SecurityError(f"'**' would make an integer of about {bits} bits; a template may make at most {MAX_POWER_BITS}")
