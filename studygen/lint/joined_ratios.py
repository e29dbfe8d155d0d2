"""A prose ratio or percent change between two named things, read against
their figures paired across all of the document's tables (SG103).

"int8 is 2.05x faster on the laptop GPU", "int8 is 1.9x faster than fp16 at
640 x 640", "int8 cuts the latency by 48% on the RTX 4090": a figure between
two things (variants, most often) that may stand in separate tables, one per
variant or per GPU. The clause is read when it holds

- exactly one figure, a ratio (``x``) or a percentage, neither hedged (but
  for an "up to" ratio, below) nor denied nor a range's end, and no other figure with a unit or decimals (it
  would state its own operands: SG103's pair reading);
- a direction after the figure ("faster", "lower", "smaller", a verb that
  cuts or raises by it: :func:`~studygen.lint.ratio_direction.written_direction`),
  which with the clause's quantity words gives the kind compared
  (:func:`~studygen.lint.variant_pairs.kinds_named`; for a ratio written
  "1.3x lower TTFT", the serving metric's kind);
- its two sides as :func:`~studygen.lint.table_joins.sides` reads them: the
  reference after "than", "vs", "over" or "compared to", else the one other
  thing named the way the subject is (int8 against fp16 in a document of the
  two); "than on", "than at" … compares places, the subject the one named
  between the figure and "than" ("fp32 is 4.25x faster on the H100 than on
  the GTX 1070").

The figures of both sides in the rows the clause names are paired across
every table (:func:`~studygen.lint.table_joins.join`: the same GPU, shape,
batch, column, headings, lead-in line), among the tables under a heading the
sentence names when it names another than its own ("On the A100, …" over a
table per GPU: :mod:`.heading_scope`). A clause that names each side's
value of a label the figures differ in ("fp16 on TensorRT 8.4.1 is 0.7%
slower than fp32 on TensorRT 8.2.3"; both values in the clause, neither
named only on the other side) says what else differs: the figures differing
in those labels alone are its pairs, before any that differ in nothing. Then

- a pair giving the figure (either way round for a ratio, any relative form
  of either sign for a percentage, never against the stated direction)
  clears it;
- pairs none of which give it: the figure does not follow from them;
- no pair at all: the figures that give it differ in something besides the
  two things (another GPU, another shape: the ratio compares GPUs, not
  variants), and the finding says what; when no figures give it either, it
  follows from nothing the document measured side by side.

A ratio bounded from above ("up to 2x higher throughput", "as much as 2x
faster") names the largest pair: the largest of the pairs' ratios (in the way
the direction says) must give it to the printed digits; above every pair, or
below the largest by more than rounding, it is a finding naming the largest
pair. A bounded percentage is the percent-change reader's
(:mod:`.prose_changes`), and a bound over no pair is not read.

A clause whose two sides are columns of one table of their kind is left to
the one-table readers (:mod:`.variant_pairs`, :mod:`.prose_changes`,
:mod:`.prose_tables`), and so is one over a table that prints its ratios, unless that table holds both
sides and rates them against a third row of its own (a speedup column of an ablation, each step over the
plain run printed ``1.00x``: neither side's row prints the identity).
Case (a new user's README, generic template): "int8 is 2.05x faster on the
laptop GPU" divided the laptop's int8 time by the RTX 4090's fp16 time, and
passed. Cases: ``sg103_pos_joined_ratios``, ``sg103_neg_joined_ratios``.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from ..patterns import lazy_compile
from .derived import FORMULAS, derivation, fits, formulas_for, recomputed
from .document import Document, Sentence, names_rows
from .figures import RATIO_UNITS, Figure, with_unit
from .join_messages import and_joined, differences, names, nearest_unpaired, placed, unpaired
from .prose_rows import HEDGE_WINDOW, HEDGED_AFTER_RE, HEDGED_BEFORE_RE, figure_clause
from .ratio_direction import goes_against, sign_unsettles_word, wanted_sign, written_direction
from .header_names import prose_words
from .heading_scope import heading_tables
from .restriction import TextView
from .rounding import Interval, consistent, gives
from .table_joins import Cell, Join, lead_ins_agree, pick, side_cells, signature
from .table_model import identity_rows, is_identity
from .text import LARGEST_BOUND_RE, ratio_header
from .variant_pairs import COMPARATIVE_KINDS, COMPARISON_RE, SIZE, kinds_named, metric_kinds
from .worded_ratios import reading_at

HINT = ("compare figures that differ only in the two things the sentence names (the same GPU, shape, batch), "
        "or say what else differs")
MISFIT_HINT = "recompute the figure from the two things' figures on the same rows (to their printed digits)"
_SPEED_WORD_RE = lazy_compile(r"faster|quicker|slower|speed|slow|fast|quick")
# "than on the GTX 1070", "than at batch 1": a reference that is a place, its subject the place before "than"
_PLACE_RE = lazy_compile(r"\s*(?:on|at|in|with|under)\s+", re.IGNORECASE)
# subject figures, and figures tried against each, for the operands a ratio was taken from (a message only)
_SUBJECT_LIMIT, _CANDIDATE_LIMIT = 16, 64


def _comparative(words: str) -> str:
    """The comparative ``kinds_named`` reads for the direction's words: "faster" for a speed, the word itself
    when it names its kinds ("smaller"), else "" (the clause's quantity words then decide)."""
    first = words.split()[0].lower()
    if first in COMPARATIVE_KINDS:
        return first
    return "faster" if _SPEED_WORD_RE.match(first) else ""


def _kinds(clause: str, words: str, figure: Figure) -> tuple[str, ...]:
    """The kinds a ratio's clause compares, its direction's words ``words``: those its quantity words and
    comparative give (:func:`~.variant_pairs.kinds_named`); else, for a ratio (``x``) whose word after it says
    only which figure is the larger ("1.3x lower TTFT", "higher", "less", "smaller") and a clause naming no
    quantity word, the one kind of the serving metric it names (:func:`~.variant_pairs.metric_kinds`: time
    for TTFT)."""
    comparative = _comparative(words)
    kinds = kinds_named(clause, comparative)
    # a percentage, or a verb that changes by the figure ("cuts TTFT by 22%"), is the percent-change reader's:
    # it reads a figure between the rows of two GPUs as a span over both, where the pairs here would not
    if figure.unit != "x" or words.lower().endswith(" by"):
        return kinds
    # "smaller" alone reads a size (COMPARATIVE_KINDS); beside "TTFT" and no quantity word, the metric's kind
    if (not kinds or kinds == (SIZE,)) and not kinds_named(clause, ""):
        return metric_kinds(clause) or kinds
    return kinds


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
    # "up to 2x higher": the largest pair, read below; any other hedge ("~2x", "over 2x") is not read, nor an
    # "up to 30%" (the percent-change reader holds it to the largest row)
    bound = LARGEST_BOUND_RE.search(text, max(start, figure.start - HEDGE_WINDOW), figure.start)
    largest = " ".join(bound.group(1).lower().split()) if bound is not None and figure.unit == "x" else ""
    if (not largest and HEDGED_BEFORE_RE.search(text, max(start, figure.start - HEDGE_WINDOW), figure.start)) or \
            HEDGED_AFTER_RE.match(text[figure.end:end]):
        return None
    # "3.1x over fp16 (4.20 ms vs 1.90 ms)": the parenthesis right after the clause states its operands
    operands_end = text.find(")", end, sentence.end) if text.startswith("(", end) else end
    operands_end = sentence.end if operands_end == -1 else operands_end
    for other in figures[bisect_left(starts, start):bisect_left(starts, operands_end)]:
        if other is not figure and (other.unit is not None or other.decimals):
            return None  # the clause states its operands (a shape, "at 512 x 512", is no figure: it names rows)
    clause = text[start:end]
    # "twice as fast as fp32": a ratio in words states its comparison by its adjective or quantity ("fast",
    # "time"), and its reference follows it right away (:mod:`.worded_ratios`)
    worded = reading_at(text, figure.start, figure.end)
    kinds = _kinds(clause, (worded.adjective or worded.quantity) if worded else direction[1], figure)
    after = COMPARISON_RE.search(text, figure.end, end) if worded is None else None
    reference = text[after.end():end] if after is not None else text[figure.end:end] if worded else None
    subject = text[start:figure.start]
    place = _PLACE_RE.match(reference) if reference is not None else None
    if place is not None:
        # "fp32 is 4.25x faster on the H100 than on the GTX 1070": one thing in two places, the places compared
        reference, subject = reference[place.end():], text[start:after.start()]
    view = _rows_view(document, sentence, figure, start)
    # "On the A100, …" over tables under '### H100' and '### A100': the A100's tables, not the H100's pair too
    named = heading_tables(sentence, start, end)
    joins = []
    for kind in kinds:
        joined = pick(document, kind, subject, reference, view, sentence.block, named=named)
        if joined is not None and joined.xs and joined.ys:
            joins.append(joined)
    if not joins or any(j.columns_of_one_table() for j in joins):
        return None  # nothing to read, or one table has a column of each: variant_pairs' readers read it
    if _ratios_answer_for(joins):
        return None  # a table prints the ratio beside its figures (prose_tables reads it)
    # "-63% faster": the sign may turn the word round or repeat it, so only the size is read
    signs = {id(j): None if sign_unsettles_word(figure) else wanted_sign(direction[0], j.kind) for j in joins}
    # "fp16 on TensorRT 8.4.1 is 0.7% slower than fp32 on TensorRT 8.2.3": figures that differ only in what the
    # clause names of each side are the pair it compares, before any pair that differs in nothing
    regions = ((start, after.start() if after is not None else figure.start),
               (after.end() if after else figure.end if worded else end, end))
    pairs = _named_columns([(j, x, y) for j in joins for x, y in _named_pairs(j, text, regions, figure)] or
                           [(j, x, y) for j in joins for x, y in j.pairs], clause)
    line = sentence.line_at(figure.start)
    between = _between(figure, joins[0])
    if largest:
        # a bound over pairs that none of them stands beside is no claim about them: nothing to read
        return _largest_finding(line, largest, between, figure,
                                [(x, y, signs[id(j)]) for j, x, y in pairs]) if pairs else None
    if any(_gives(figure, x.figure, y.figure, signs[id(j)]) for j, x, y in pairs):
        return None
    if pairs:
        formula = formulas_for(figure.unit, False)[0]
        # a pair giving the size the other way round than the clause says first, else the nearest reading
        j, x, y = min(pairs, key=lambda p: (not _gives(figure, p[1].figure, p[2].figure, None),
                                            _distance(formula, p[1].figure, p[2].figure, figure)))
        sign = signs[id(j)]
        if figure.unit == "x" and goes_against(x.figure, y.figure, sign) and not _gives(figure, x.figure, y.figure, None):
            return (line, f"{between} does not follow from the figures that pair them: {placed(x)} and {placed(y)} "
                          f"go the other way: {_against(j, x, y, sign, figure, direction[1])}", MISFIT_HINT)
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
    # what the nearest two give, so that a figure wrong by their reading is told so too (a new user could not
    # tell a 5.0x the figures call 3.5x from a right 3.5x taken across a TensorRT version)
    x, y, _ = nearest_unpaired(joins[0])
    formula = formulas_for(figure.unit, False)[0]
    a, b = min(((x.figure, y.figure), (y.figure, x.figure)), key=lambda o: _distance(formula, *o, figure))
    return (line, f"{between} follows from no figures measured side by side: {unpaired(joins[0])}; those two give "
                  f"{derivation(formula, a, b, figure)}", HINT)


def _largest_finding(line: int, bound: str, between: str, figure: Figure, pairs: list[tuple[Cell, Cell, int | None]]):
    """(line, message, hint) when a ratio ``figure`` bounded by ``bound`` ("up to", "as much as") is not the
    largest of the pairs' ratios to the printed digits, None when it is. Each pair's ratio is the subject's figure over the reference's when ``sign`` says the
    subject's is the larger (+1), the other way round for -1, the larger of the two for None; the largest lies
    between the largest low end and the largest high end of the pairs' printed intervals."""
    ratios = []
    for x, y, sign in pairs:
        orders = ((x, y),) if sign is not None and sign > 0 else ((y, x),) if sign is not None else ((x, y), (y, x))
        for a, b in orders:
            interval = FORMULAS["ratio"][0](a.figure, b.figure)
            if interval is not None:
                ratios.append((interval, a, b))
    if not ratios:
        return None
    top = Interval(max(i.lo for i, _, _ in ratios), max(i.hi for i, _, _ in ratios))
    if consistent(top, figure):
        return None
    interval, a, b = max(ratios, key=lambda r: FORMULAS["ratio"][1](r[1].figure.value, r[2].figure.value))
    worked = recomputed("ratio", a.figure, b.figure, figure, least_decimals=2) + gives(interval, figure)
    count = f"{len(pairs)} pair{'s' if len(pairs) != 1 else ''}"
    if figure.value > top.hi:
        return (line, f"{bound} {between} exceeds every pair of their figures ({count}): the largest, {placed(a)} "
                      f"and {placed(b)}, gives {worked}", MISFIT_HINT)
    return (line, f"{bound} {between} is below the largest pair of their figures ({count}), and '{bound}' names the "
                  f"largest: {placed(a)} and {placed(b)} give {worked}", MISFIT_HINT)


def _named_columns(pairs: list[tuple[Join, Cell, Cell]], clause: str) -> list[tuple[Join, Cell, Cell]]:
    """The pairs whose column the clause names by a word of its header ("TTFT" of 'TTFT p50 (ms)' beside
    'TPOT p50 (ms)', "throughput"), all of them when it names none: a claim about one quantity is judged
    against that quantity's figures only, not cleared by another's."""
    words = {word for _, _, word in prose_words(clause)}
    named = [(j, x, y) for j, x, y in pairs if words & set(x.column)]
    return named or pairs


def _rows_view(document: Document, sentence: Sentence, figure: Figure, start: int) -> TextView:
    """The view that names the rows the clause (from block offset ``start``) is about: its
    :meth:`~studygen.lint.document.Sentence.clause_view`, with the sentence's opening phrase before it when that
    phrase names rows and ends before the clause. "On the A100, chunked is 1.2x faster than baseline" names its
    rows as "chunked is 1.2x faster than baseline on the A100" does; ``clause_view`` keeps the clause alone there,
    since the clause names labels (its two sides, which :func:`~.table_joins.join` then blanks)."""
    view = sentence.clause_view(figure.start, figure.end - figure.start)
    opening = sentence.opening_view
    if opening is None or view is opening or not names_rows(opening, document):
        return view
    stops = [at for at in (sentence.text.find(stop) for stop in ",;:") if at != -1]
    if not stops or sentence.start + min(stops) >= start:
        return view  # no stop ends the opening phrase before the clause: the clause holds it
    return TextView(f"{opening.normalized}, {view.normalized}", document.label_vocab, document.multiword_labels,
                    document.label_parts)


def _named_pairs(joined: Join, text: str, regions: tuple[tuple[int, int], tuple[int, int]],
                 figure: Figure) -> list[tuple[Cell, Cell]]:
    """(x, y) cells of the join that differ in labels only, each label's two values named in the clause
    (``regions``: the subject's and the reference's (start, end) in ``text``), neither named on the other's side
    alone; nothing else apart. The figure's own digits name no label."""
    spans = [(a + regions[0][0], b + regions[0][0], word)
             for a, b, word in prose_words(text[regions[0][0]:regions[1][1]])
             if b + regions[0][0] <= figure.start or a + regions[0][0] >= figure.end]
    found = []
    for x in joined.xs[:_SUBJECT_LIMIT]:
        for y in joined.ys[:_CANDIDATE_LIMIT]:
            first, second = signature(x, joined.sides), signature(y, joined.sides)
            if first[1:] != second[1:] or [k for k, _ in first[0]] != [k for k, _ in second[0]] or \
                    not lead_ins_agree(x, y, joined.sides):
                continue
            apart = [i for i, ((_, a), (_, b)) in enumerate(zip(first[0], second[0])) if a != b]
            if apart and all(_named_apart(spans, regions, x.label_words[i], y.label_words[i]) for i in apart):
                found.append((x, y))
    return found


def _named_apart(spans: list[tuple[int, int, str]], regions, x_words: tuple[str, ...], y_words: tuple[str, ...]) -> bool:
    """True when both label values are named among ``spans`` and the subject's is not named only where the
    reference stands while the reference's is named only where the subject stands."""
    x_at, y_at = _places(spans, x_words), _places(spans, y_words)
    if not x_at or not y_at:
        return False
    (subject_start, subject_end), _ = regions
    in_subject = [subject_start <= at < subject_end for at in x_at], [subject_start <= at < subject_end for at in y_at]
    return not (not any(in_subject[0]) and all(in_subject[1]))


def _places(spans: list[tuple[int, int, str]], words: tuple[str, ...]) -> list[int]:
    """Where ``words`` stand one after another among ``spans`` (start offsets)."""
    size = len(words)
    return [spans[i][0] for i in range(len(spans) - size + 1) if words and
            tuple(w for _, _, w in spans[i:i + size]) == words]


def _against(joined: Join, x: Cell, y: Cell, sign: int, figure: Figure, words: str) -> str:
    """What a pair that goes against the stated direction gives, in the ratio's own order (the subject's
    figure over the reference's when the subject's must be the larger, ``sign`` +1, else the other way):
    "chunked's 1450 tok/s is lower than baseline's 1500 tok/s: 1450 / 1500 = 0.97x, not 1.2x faster"."""
    x_name, y_name = names(joined)
    a, b = (x.figure, y.figure) if sign > 0 else (y.figure, x.figure)
    comparison = "lower" if x.figure.value < y.figure.value else "higher"
    return (f"{x_name}'s {_with_cell_unit(x)} is {comparison} than {y_name}'s {_with_cell_unit(y)}: "
            f"{derivation('ratio', a, b, figure, always_agree=True)}, not {with_unit(figure.text, figure.unit)} {words}")


def _with_cell_unit(cell: Cell) -> str:
    return with_unit(cell.figure.text, cell.figure.unit or cell.series.unit)


def _ratios_answer_for(joins: list[Join]) -> bool:
    """True when a table holding the joins' figures has a column of ratios or percentages ("speedup", "1.86x",
    "% of fp16") that may state the comparison itself. A table does not when it holds figures of both sides
    and each such column prints its identity (``1.00x``, ``0%``) on a row of its own and a figure other than
    its identity on every row of those figures: it rates each of them against that third row (an ablation's
    steps against the plain run), and says nothing of two of them against each other."""
    cells: dict[int, list[tuple[int, Cell]]] = {}
    for joined in joins:
        for side, group in enumerate((joined.xs, joined.ys)):
            for cell in group:
                cells.setdefault(id(cell.table), []).append((side, cell))
    for held in cells.values():
        table = held[0][1].table
        ratios = [series for series in table.series if series.unit in RATIO_UNITS or ratio_header(series.header)]
        if not ratios:
            continue
        if {side for side, _ in held} != {0, 1}:
            return True
        for series in ratios:
            if not identity_rows(series):
                return True
            for _, cell in held:
                value = series.values[cell.row]
                if value is None or is_identity(value.value, series.unit):
                    return True
    return False


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
