"""A prose ratio or percent change between two named things, read against
their figures paired across all of the document's tables (SG103).

"int8 is 2.05x faster on the laptop GPU", "int8 is 1.9x faster than fp16 at
640 x 640", "int8 cuts the latency by 48% on the RTX 4090": a figure between
two things (variants, most often) that may stand in separate tables, one per
variant or per GPU. The clause is read when it holds

- exactly one figure, a ratio (``x``) or a percentage, neither hedged nor
  denied nor a range's end, and no other figure with a unit or decimals (it
  would state its own operands: SG103's pair reading);
- a direction after the figure ("faster", "lower", "smaller", a verb that
  cuts or raises by it: :func:`~studygen.lint.ratio_direction.written_direction`),
  which with the clause's quantity words gives the kind compared
  (:func:`~studygen.lint.variant_pairs.kinds_named`);
- its two sides as :func:`~studygen.lint.table_joins.sides` reads them: the
  reference after "than", "vs", "over" or "compared to", else the one other
  thing named the way the subject is (int8 against fp16 in a document of the
  two).

The figures of both sides in the rows the clause names are paired across
every table (:func:`~studygen.lint.table_joins.join`: the same GPU, shape,
batch, column, headings, lead-in line). Then

- a pair giving the figure (either way round for a ratio, any relative form
  of either sign for a percentage, never against the stated direction)
  clears it;
- pairs none of which give it: the figure does not follow from them;
- no pair at all: the figures that give it differ in something besides the
  two things (another GPU, another shape: the ratio compares GPUs, not
  variants), and the finding says what; when no figures give it either, it
  follows from nothing the document measured side by side.

A clause whose two sides are columns of one table of their kind is left to
the one-table readers (:mod:`.variant_pairs`, :mod:`.prose_changes`,
:mod:`.prose_tables`), and so is one over a table that prints its ratios.
Case (a new user's README, generic template): "int8 is 2.05x faster on the
laptop GPU" divided the laptop's int8 time by the RTX 4090's fp16 time, and
passed. Cases: ``sg103_pos_joined_ratios``, ``sg103_neg_joined_ratios``.
"""

from __future__ import annotations

from bisect import bisect_left

from ..patterns import lazy_compile
from .derived import FORMULAS, derivation, fits, formulas_for
from .document import Document, Sentence, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .join_messages import and_joined, differences, names, placed, unpaired
from .prose_rows import HEDGE_WINDOW, HEDGED_AFTER_RE, HEDGED_BEFORE_RE, figure_clause
from .ratio_direction import goes_against, wanted_sign, written_direction
from .table_joins import Join, pick, side_cells
from .text import ratio_header
from .variant_pairs import COMPARATIVE_KINDS, COMPARISON_RE, kinds_named

HINT = ("compare figures that differ only in the two things the sentence names (the same GPU, shape, batch), "
        "or say what else differs")
MISFIT_HINT = "recompute the figure from the two things' figures on the same rows (to their printed digits)"
_SPEED_WORD_RE = lazy_compile(r"faster|quicker|slower|speed|slow")
# subject figures, and figures tried against each, for the operands a ratio was taken from (a message only)
_SUBJECT_LIMIT, _CANDIDATE_LIMIT = 16, 64


def _comparative(words: str) -> str:
    """The comparative ``kinds_named`` reads for the direction's words: "faster" for a speed, the word itself
    when it names its kinds ("smaller"), else "" (the clause's quantity words then decide)."""
    first = words.split()[0].lower()
    if first in COMPARATIVE_KINDS:
        return first
    return "faster" if _SPEED_WORD_RE.match(first) else ""


def _gives(figure: Figure, subject: Figure, reference: Figure, sign: int | None) -> bool:
    """True when ``subject`` against ``reference`` gives ``figure`` and goes the way ``sign`` says."""
    if goes_against(subject, reference, sign):
        return False
    targets = (figure,) if figure.unit == "x" else (figure, figure._replace(value=-figure.value))
    return any(fits(formula, a, b, target) for formula in formulas_for(figure.unit, False)
               for a, b in ((subject, reference), (reference, subject)) for target in targets)


def joined_ratio_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each ratio or percent change between two
    named things that their paired figures do not give (see the module docstring)."""
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            figures = [t.figure for t in sentence.tokens if t.figure is not None]
            starts = [f.start for f in figures]  # ascending: tokens come in text order
            ends = sentence.range_ends
            for figure in figures:
                if figure.unit in ("x", "%") and figure.start not in ends:
                    finding = _finding(document, sentence, figure, figures, starts)
                    if finding is not None:
                        found.append(finding)
    return found


def _finding(document: Document, sentence: Sentence, figure: Figure, figures: list[Figure], starts: list[int]):
    text = sentence.block.text
    start, end = figure_clause(sentence, figure)
    direction = written_direction(text, figure, start)
    if direction is None:
        return None
    if HEDGED_BEFORE_RE.search(text, max(start, figure.start - HEDGE_WINDOW), figure.start) or \
            HEDGED_AFTER_RE.match(text[figure.end:end]):
        return None
    # "3.1x over fp16 (4.20 ms vs 1.90 ms)": the parenthesis right after the clause states its operands
    operands_end = text.find(")", end, sentence.end) if text.startswith("(", end) else end
    operands_end = sentence.end if operands_end == -1 else operands_end
    for other in figures[bisect_left(starts, start):bisect_left(starts, operands_end)]:
        if other is not figure and (other.unit is not None or other.decimals):
            return None  # the clause states its operands (a shape, "at 512 x 512", is no figure: it names rows)
    clause = text[start:end]
    kinds = kinds_named(clause, _comparative(direction[1]))
    after = COMPARISON_RE.search(text, figure.end, end)
    reference = text[after.end():end] if after is not None else None
    view = sentence.clause_view(figure.start, figure.end - figure.start)
    joins = []
    for kind in kinds:
        joined = pick(document, kind, text[start:figure.start], reference, view, sentence.block)
        if joined is not None and joined.xs and joined.ys:
            joins.append(joined)
    if not joins or any(j.columns_of_one_table() for j in joins):
        return None  # nothing to read, or one table has a column of each: variant_pairs' readers read it
    if any(_prints_ratios(cell.table) for j in joins for cell in j.xs + j.ys):
        return None  # a table prints the ratio beside its figures (prose_tables reads it)
    signs = {id(j): wanted_sign(direction[0], j.kind) for j in joins}
    pairs = [(j, x, y) for j in joins for x, y in j.pairs]
    if any(_gives(figure, x.figure, y.figure, signs[id(j)]) for j, x, y in pairs):
        return None
    line = sentence.line_at(figure.start)
    between = _between(figure, joins[0])
    if pairs:
        formula = formulas_for(figure.unit, False)[0]
        # a pair giving the size the other way round than the clause says first, else the nearest reading
        j, x, y = min(pairs, key=lambda p: (not _gives(figure, p[1].figure, p[2].figure, None),
                                            _distance(formula, p[1].figure, p[2].figure, figure)))
        a, b = min(((x.figure, y.figure), (y.figure, x.figure)), key=lambda o: _distance(formula, *o, figure))
        way = f", the other way round than '{direction[1]}' says" if _gives(figure, x.figure, y.figure, None) else ""
        return (line, f"{between} does not follow from the figures that pair them: {placed(x)} and "
                      f"{placed(y)} give {derivation(formula, a, b, figure)}{way}", MISFIT_HINT)
    mixed = _mixed(document, figure, joins, signs, sentence.block.order)
    if mixed is not None:
        wrong_way, j, x, other, apart = mixed
        both = f" (both '{names(j)[0]}')" if other.side(j.sides, j.common) == 0 else ""
        way = f", the other way round than '{direction[1]}' says" if wrong_way else ""
        return (line, f"{between} compares figures that differ in {and_joined(apart)}: {x.figure.text} at "
                      f"{placed(x)} against {other.figure.text} at {placed(other)}{both} give it{way}, and no "
                      f"figure of either stands beside one of the other with nothing else different", HINT)
    return (line, f"{between} follows from no figures measured side by side: {unpaired(joins[0])}", HINT)


def _prints_ratios(table: Table) -> bool:
    """True when the table has a column of ratios or percentages ("speedup", "1.86x", "% of fp16")."""
    return any(series.unit in RATIO_UNITS or ratio_header(series.header) for series in table.series)


def _distance(formula: str, a: Figure, b: Figure, figure: Figure) -> float:
    """How far ``formula(a, b)`` lies from ``figure`` (to show the nearest reading)."""
    try:
        return abs(FORMULAS[formula][1](a.value, b.value) - figure.value)
    except ZeroDivisionError:
        return float("inf")


def _between(figure: Figure, joined: Join) -> str:
    x, y = names(joined)
    return f"{with_unit(figure.text, figure.unit)} between '{x}' and '{y}'"


def _mixed(document: Document, figure: Figure, joins: list[Join], signs: dict, near: int):
    """(wrong way, join, subject figure, other figure, differences) of a subject figure and another of
    either side that give ``figure`` though they differ in more than the two names (the stated direction
    first, then the other side's figures, then the fewest differences); None when none does."""
    best = None
    for joined in joins:
        xs, ys = side_cells(document, joined.kind, joined.sides, near)
        for x in joined.xs[:_SUBJECT_LIMIT]:
            for same_side, others in enumerate((ys, xs)):
                for other in others[:_CANDIDATE_LIMIT]:
                    if other is x or not _gives(figure, x.figure, other.figure, None):
                        continue
                    wrong_way = not _gives(figure, x.figure, other.figure, signs[id(joined)])
                    apart = differences(x, other, joined.sides)
                    rank = (wrong_way, same_side, len(apart))
                    if apart and (best is None or rank < best[0]):
                        best = (rank, (wrong_way, joined, x, other, apart))
    return None if best is None else best[1]


__all__ = ["joined_ratio_findings"]
