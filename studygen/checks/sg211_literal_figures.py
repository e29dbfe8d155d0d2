"""SG211 literal figures: a template that prints a number in prose that no
expression computed from records.

The template (and every template it includes, imports or extends) is split
by Jinja's own lexer: ``data`` tokens are the text a person wrote, printed as
it stands; ``{{ … }}`` expressions are computed (a print of a bare string
literal, ``{{ "0.21 ms" }}``, counts as written text). Each number in written
text (:data:`studygen.checks.readme_text.NUMBER`: digits not glued to a word on
their left, so ``fp16``, ``B200``, ``SG211`` and ``#2119`` are names) is an
error at its template line, one finding per line naming every number, except:

- headings (a line starting with ``#``);
- versions: three or more dotted parts (``11.4.0.106``), or a number right
  after a software name or ``v``/``version`` (``TensorRT 11.4``, ``CUDA 13``);
- dates: ISO dates (``2025-06-01``) and a year after a month name;
- counts of list items: an ordered-list marker (``1.``), or a number on a
  line ending in ``:`` that equals the count of the literal list items that
  follow it;
- code spans, fenced code, HTML comments, Jinja comments, link targets and URLs.

A number or text literal inside a print expression is a figure too when the
expression prints it, read off Jinja's syntax tree
(:mod:`studygen.checks.template_literals`): printed alone (``{{ 0.21 }}``),
passed to a helper as a positional argument (``{{ study.percent(0.12) }}``,
issue 12 item I), given as an ``else`` value, folded from constants
(``{{ 10 * 1.25 }}`` prints 12.5, ``{{ "0." ~ "21" }}`` 0.21), or bound to
a name that is printed (``{% set gap = 0.2 %}``). A keyword argument
(``decimals=3``, ``batch=1``), a subscript (``[0]``) and an operand of a
comparison (``n == 0``) select or format; they print no figure of their own.
Numbers glued to a unit (``12.5ms``, ``3x``) are figures like any other.

An include, import or extends whose template name is computed from
constants (``"pa" ~ "rt.md.j2"``, either branch of ``… if … else …``) reads
that template too; one whose name depends on the render is itself a finding
at its line, since what it prints cannot be read.

Case (seed): the pull request's summary hand-wrote "the GEMMs take 0.19 to
0.21 ms" and "FP8 saves 0.04 to 0.11 ms", figures its own table contradicted.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from ..errors import StudygenError, TemplateError
from ..findings import Finding
from ..patterns import lazy_compile
from ..records.load import yaml_line
from ..render.engine import make_environment, template_dirs
from ..render.template_memo import generated_for, referenced_templates
from .builtin_template_figures import FIGURES as SHIPPED_FIGURES
from .builtin_template_figures import JINJA2_VERSION as SHIPPED_JINJA2_VERSION
from .readme_text import NUMBER
from .template_literals import PrintedLiterals, referenced_names

SOFTWARE_BEFORE = lazy_compile(
    r"(?:tensorrt|trt|cuda|cudnn|torch|pytorch|python|transformers|modelopt|onnxruntime|timm|driver|version|release|"
    r"studygen|numpy|pandas|jinja2?|mdformat|pycocotools|v)\s*$", re.I)
_SOFTWARE_LONGEST = 16  # characters of the longest word SOFTWARE_BEFORE names ("transformers"), and some spare
MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
DATES = lazy_compile(rf"\b\d{{4}}-\d{{2}}(?:-\d{{2}})?\b|\b{MONTHS}\s+(?:\d{{1,2}},?\s+)?\d{{4}}\b|\b\d{{1,2}}\s+{MONTHS}\s+\d{{4}}\b", re.I)
VERSION = lazy_compile(r"\b\d+(?:\.\d+){2,}\b")
CODE_SPAN = lazy_compile(r"(`+)(?:(?!\1).)+?\1")
LINK_TARGET = lazy_compile(r"\]\([^)]*\)|<?https?://\S+")
ORDERED_MARKER = lazy_compile(r"^(\s*)\d+[.)](?=\s)")
LIST_ITEM = lazy_compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")
HTML_COMMENT = lazy_compile(r"<!--.*?-->", re.S)


def template_sources(study) -> list[tuple[str, str]]:
    """``(display path, source)`` of the study's template and every template
    it references (include, import, extends), each once. Raises TemplateError
    like render does when one is missing."""
    import jinja2

    env = make_environment(template_dirs(study))
    pending, seen, sources = [study.spec["template"]], set(), []
    while pending:
        name = pending.pop(0)
        if name in seen:
            continue
        seen.add(name)
        try:
            source, filename, _ = env.loader.get_source(env, name)
            references = referenced_templates(env, source)
        except jinja2.TemplateNotFound:
            raise TemplateError(f"template '{name}' not found", path=study.rel(study.study_path),
                                line=yaml_line(study.spec_text, "template"), pointer="/template") from None
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateError(f"template syntax error: {exc.message}", path=name, line=exc.lineno or 0) from None
        sources.append((study.rel(Path(filename)), source))
        if None in references:  # a name Jinja's meta cannot read: constant parts folded, both branches taken
            references = referenced_names(env, source)[0]
        pending.extend(ref for ref in references if isinstance(ref, str))
    return sources


def shipped_figures(source: str) -> tuple[tuple, tuple[int, ...]] | None:
    """``(figures by line, computed reference lines)`` of ``source`` worked
    out at development time when it is the text of a built-in template,
    under this Jinja version (:mod:`~studygen.checks.builtin_template_figures`);
    None for any other text (then they are worked out here)."""
    digest = generated_for(source, SHIPPED_JINJA2_VERSION)
    if digest is None:
        return None
    return next(((figures, lines) for shipped_digest, figures, lines in SHIPPED_FIGURES.values()
                 if shipped_digest == digest), None)


@functools.lru_cache(maxsize=32)
def computed_reference_lines(source: str) -> tuple[int, ...]:
    """Lines of ``source`` that include, import or extend a template whose
    name is computed at render time (SG211 cannot read what it prints):
    a built-in template's as shipped (:func:`shipped_figures`), any other's
    worked out (:func:`worked_out_reference_lines`)."""
    shipped = shipped_figures(source)
    return shipped[1] if shipped is not None else worked_out_reference_lines(source)


def worked_out_reference_lines(source: str) -> tuple[int, ...]:
    """What :func:`computed_reference_lines` gives, read off the parsed ``source``."""
    import jinja2

    try:
        return tuple(referenced_names(make_environment([]), source)[1])
    except jinja2.TemplateSyntaxError:
        return ()


def _add_lines(pieces: list[tuple[int, str]], lineno: int, text: str) -> None:
    """Add each non-empty line of ``text``, which starts on template line ``lineno``, to ``pieces``."""
    for offset, part in enumerate(text.split("\n")):
        if part:
            pieces.append((lineno + offset, part))


def written_text(env, source: str, strings: bool = True) -> list[tuple[int, str]]:
    """``(line, text)`` pieces of ``source`` that print as written: data
    tokens, and (``strings``) string literals printed alone (``{{ "…" }}``)."""
    pieces: list[tuple[int, str]] = []
    tokens = [t for t in env.lex(source) if t[1] != "whitespace"]
    for i, (lineno, kind, value) in enumerate(tokens):
        if kind == "data":
            _add_lines(pieces, lineno, value)
        elif (strings and kind == "string" and 0 < i < len(tokens) - 1 and tokens[i - 1][1] == "variable_begin"
              and (tokens[i + 1][1] == "variable_end" or tokens[i + 1][2] == "|")):
            pieces.append((lineno, value[1:-1]))
    return pieces


def written_data(parsed) -> list[tuple[int, str]]:
    """``(line, text)`` pieces of a parsed template (a
    :class:`~studygen.render.template_memo.ParsedTemplate`) that print as
    written: what :func:`written_text` gives without ``strings``, read off
    the tree (Jinja's parser makes each non-empty data token a
    ``TemplateData`` node of its text and line, in the order of the source),
    so the source is not lexed again."""
    from jinja2 import nodes

    pieces: list[tuple[int, str]] = []
    for node in parsed.find_all(nodes.TemplateData):
        _add_lines(pieces, node.lineno, node.data)
    return pieces


# Tokens after which a number literal is printed as an argument or value, not a selector.
_PRINTED_AFTER = {("variable_begin", "{{"), ("operator", "("), ("operator", ","), ("name", "else")}
_COMPARISONS = {"==", "!=", "<", ">", "<=", ">="}


def literal_arguments(env, source: str) -> list[tuple[int, str]]:
    """``(line, number)`` of each number literal a print expression prints
    (see the module docstring): ``{{ study.percent(0.12) }}`` gives
    ``(line, "0.12")``, ``{{ study.one(batch=1) }}`` nothing."""
    found: list[tuple[int, str]] = []
    tokens = [t for t in env.lex(source) if t[1] != "whitespace"]
    depth = 0  # inside a {{ ... }} block
    brackets = 0  # open [ of a subscript
    for i, (lineno, kind, value) in enumerate(tokens):
        if kind == "variable_begin":
            depth, brackets = 1, 0
        elif kind == "variable_end":
            depth = 0
        elif depth and kind == "operator" and value in "[]":
            brackets += 1 if value == "[" else -1
        elif depth and kind in ("integer", "float") and not brackets:
            before = i - 1
            sign = "-" if tokens[before][1:] == ("operator", "-") else ""
            if sign:
                before -= 1
            after = tokens[i + 1] if i + 1 < len(tokens) else (0, "", "")
            if tokens[before][1:] in _PRINTED_AFTER and after[2] not in _COMPARISONS and after[2] != "=" \
                    and tokens[before][2] not in _COMPARISONS:
                found.append((lineno, sign + value))
    return found


def _skipped_lines(source_lines: list[str]) -> set[int]:
    """1-based lines inside fenced code blocks."""
    skipped, in_fence = set(), False
    for number, line in enumerate(source_lines, 1):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            skipped.add(number)
        elif in_fence:
            skipped.add(number)
    return skipped


def _list_count_after(source_lines: list[str], number: int) -> int:
    """Count of literal list items right after line ``number`` (1-based)."""
    count, index = 0, number
    while index < len(source_lines) and not source_lines[index].strip():
        index += 1
    while index < len(source_lines) and LIST_ITEM.match(source_lines[index]):
        count += 1
        index += 1
    return count


def literal_numbers(line_text: str, full_line: str, source_lines: list[str], number: int) -> list[str]:
    """Numbers of one written piece that are figures (exceptions removed)."""
    if full_line.lstrip().startswith("#"):
        return []
    text = HTML_COMMENT.sub(" ", line_text)
    text = CODE_SPAN.sub(" ", text)
    text = LINK_TARGET.sub(" ", text)
    text = DATES.sub(" ", text)
    text = VERSION.sub(" ", text)
    if full_line.startswith(line_text):  # the piece starts the line: a leading "1." is a list marker
        text = ORDERED_MARKER.sub(r"\1", text, count=1)
    found = []
    for match in NUMBER.finditer(text):
        if _software_before(text, match.start()):
            continue
        value = match.group(0)
        if full_line.rstrip().endswith(":") and value.isdigit() and int(value) == _list_count_after(source_lines, number):
            continue
        found.append(value)
    return found


def _software_before(text: str, start: int) -> bool:
    """Whether :data:`SOFTWARE_BEFORE` finds a software word right before offset ``start`` of ``text``
    (white space between). Reads the white space back from ``start`` and then only as many characters
    as the longest word: searching the whole text before each number cost a template line of 800
    sentences (about 70 KB, 17,000 numbers) 18.6 s of CPU in this check alone."""
    end = start
    while end and text[end - 1].isspace():  # what the pattern's \s* takes (Unicode white space, as str.isspace)
        end -= 1
    return SOFTWARE_BEFORE.search(text, max(0, end - _SOFTWARE_LONGEST), end) is not None


@functools.lru_cache(maxsize=32)
def figures_by_line(source: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """``(line, numbers)`` of each template line of ``source`` that prints
    literal figures, in line order (see the module docstring). A built-in
    template's as shipped (:func:`shipped_figures`: no process parses the
    generic template, whose code render ships), any other's worked out
    (:func:`worked_out_figures`) once per process for a source, keyed on the
    text itself, in memory only."""
    shipped = shipped_figures(source)
    return shipped[0] if shipped is not None else worked_out_figures(source)


def worked_out_figures(source: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """What :func:`figures_by_line` gives, worked out from ``source``."""
    import jinja2

    env = make_environment([])  # lexing depends on the environment's settings, not on where templates are found
    source_lines = source.split("\n")
    fenced = _skipped_lines(source_lines)
    try:
        parsed = env.parsed(source)  # the tree render compiles, when it parsed this source already
    except jinja2.TemplateSyntaxError:
        parsed = None  # read token by token (render reports the syntax error)
    printed = PrintedLiterals(parsed).found if parsed is not None else None
    in_comment = False
    by_line: dict[int, list[str]] = {}
    for number, piece in written_text(env, source) if parsed is None else written_data(parsed):
        if number in fenced:
            continue
        # Multi-line HTML comments: skip everything from <!-- to -->.
        if in_comment:
            if "-->" in piece:
                in_comment = False
                piece = piece.split("-->", 1)[1]
            else:
                continue
        if "<!--" in piece and "-->" not in piece.split("<!--", 1)[1]:
            in_comment = True
            piece = piece.split("<!--", 1)[0]
        numbers = literal_numbers(piece, source_lines[number - 1], source_lines, number)
        if numbers:
            by_line.setdefault(number, []).extend(numbers)
    if printed is None:
        printed = [(number, "number", literal) for number, literal in literal_arguments(env, source)]
    for number, kind, value in printed:
        if number in fenced:
            continue
        numbers = [value] if kind == "number" else literal_numbers(value, source_lines[number - 1], source_lines, number)
        if numbers:
            by_line.setdefault(number, []).extend(numbers)
    return tuple((number, tuple(numbers)) for number, numbers in sorted(by_line.items()))


def check(context) -> list[Finding]:
    study = context.study
    try:
        sources = template_sources(study)
    except StudygenError:
        return []  # SG201 reports a template that cannot render
    findings = []
    for shown, source in sources:
        source_lines = source.split("\n")
        for number, numbers in figures_by_line(source):
            findings.append(Finding(
                "SG211", f"template prints literal figure(s) {', '.join(numbers)} in prose; figures must come from "
                f"records through the view's helpers: {source_lines[number - 1].strip()[:120]!r}", shown, line=number,
                hint="print figures with study.one(...), study.span(...), study.table(...) and friends"))
        for number in computed_reference_lines(source):
            findings.append(Finding(
                "SG211", "template includes, imports or extends a template whose name is computed at render time, "
                f"so what it prints cannot be read for literal figures: {source_lines[number - 1].strip()[:120]!r}",
                shown, line=number, hint="name the template as a literal string ('part.md.j2')"))
    return findings
