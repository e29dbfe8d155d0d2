"""SG103 derived figures: a ratio, speedup, reduction, percentage or average must
equal what the figures it is derived from give, to the printed digits.

**Table columns.** A column in ``x`` or ``%``, a unitless column whose header
names a ratio ("speedup", "relative goodput", "weak scaling"), or one whose
header names a difference (saving, delta, reduction …) gets the definition
its table declares (:mod:`studygen.lint.table_model`: the columns its header
names, the column before it against the first of its column group or of the
table, the row printing 1x, a scaling column's one-GPU row, each row group
with its own baseline), taken when it fits two rows and two thirds of them,
when every row lies within 10% of it, or, on a table of two such rows, when
one fits it and no reading of the same operands gives the other (case
``sg103_pos_declared_few_rows``); else the definition :mod:`studygen.lint.derived` infers from the
figures: a formula over two other columns of the row (``a / b``;
``(a - b) / a``, ``(a - b) / b`` and ``a / b`` in %; ``a - b`` for a
difference column), over one column against a baseline row, or against the
row before, that fits at least two rows and two thirds of them. Each row the
column's definition does not give is a finding that shows the recomputed
value and the interval its inputs allow (:mod:`studygen.lint.rounding`). No
definition is no finding (the column may compare with something the table
does not hold). Truncated last digits fit. Cases: ``sg103_*_ratio_column``,
``sg103_*_repeated_headers``, ``sg103_*_label_word_column``,
``sg103_*_row_groups``, ``sg103_*_scaling_columns``, ``sg103_*_bold_headers``,
``sg103_*_counted_shares``.

**Transposed tables.** A table whose first column names quantities and whose
other columns are the variants (``| Speedup | 1.43x | 1.71x |``, item C) is
read the other way round as well: each such row is a column of a transposed
view, checked as above, and a finding sits on that row's line and names the
variant by its column header.

**Prose.** In one clause, a ratio or percentage next to two figures of one
unit compared ("14.75 vs 13.99 ms, 1.05x", "drops from 0.4644 to 0.4625
(-0.4%)", "climbs from the baseline of 2.2 req/s to 11.7 req/s (~5.4x)")
must fit one of the same formulas over some pair of its sentence. Two
figures right after a stated percent change, printed the way it goes ("cuts
the GPU time by 12% (0.1536 ms to 0.1526 ms)", "grows by 9% (498 to 512
MB)"), are its before and after though no "from" marks them. A percentage whose next words name a quantity
of another kind than the pair's unit ("from 3 GB to 8 GB yielded 22% throughput improvement") is not read over
that pair: the pair is the setting changed. A figure
A ratio printed between its own two figures ("int8 (0.0440 ms) is 3.0x faster
than fp16 (0.0388 ms)", "at 7.40 ms is 1.3x faster than ... at 6.90 ms") or
after two joined by "and" ("takes 11.2 ms and eager 16.8 ms, a 2.1x speedup")
is read the same way; one between them is also read in the direction its words
state (:mod:`studygen.lint.ratio_direction`: a faster time is the smaller, a
faster rate the larger), and figures that go the other way are a finding of
their own (cases ``sg103_*_inline_operands``). Two figures in the
parenthesis right after a ratio's clause are its operands however many words
the clause puts between ("5.0x faster than the GTX 1070 in fp32 (0.03613
against 0.1536 ms)"), and a short phrase after the first figure that says
where it was measured ("(0.2754 ms on the RTX 3080 against 1.398 ms on the
RTX 3070)": a preposition and up to four words, its whole numbers names) still
leaves the two a pair; a comma or another figure before the connector does not
(case tests/lint/test_prose_pairs.py). A percent whose words give its
direction (:func:`~.prose_changes.change_formulas`: "cuts ... by", "saves",
"drops by" a decrease, "grows by" an increase) fits only that direction's
formula, the larger figure a decrease's base and the smaller an increase's;
"faster" or "slower" either; a percent of no such word any (case
tests/lint/test_directed_changes.py). A figure
the sentence denies ("not linearly by 64x") is not checked; a bound
("≥93%", "up to 30x") is checked for its direction only.

**Averages.** An ``Average``/``Mean``/``Geomean`` row or column must be the
mean the table's other average cells follow (:mod:`studygen.lint.averages`;
cases ``sg103_pos_average_cells``, ``sg103_neg_average_cells``); a derived
column's Average row may be the mean of the column's figures or its formula
over the averaged operands (tests/lint/test_average_rows_of_ratios.py).

**Prose against tables elsewhere** (:mod:`studygen.lint.prose_tables`): a
share ("at 54% of BF16", a ``% of BF16`` column) stated as a reduction of the
same quantity ("the 54% slope reduction"), and a ratio "vs" a named column at
a named row ("1.78x vs dg at 8192") that no table holding both columns gives
(cases ``sg103_*_share_as_reduction``, ``sg103_*_ratio_named_columns``);
and a ratio or percent change between two rows a clause names by their
labels ("FP16 is 3.1x faster than FP32") that the rows of the nearby table
do not give (:mod:`studygen.lint.prose_rows`; cases ``sg103_*_row_ratio``);
and a ratio or percent change between two things whose figures stand in
separate tables ("int8 is 2.05x faster on the laptop GPU" over an int8 table
and an fp16 table) that their figures paired across the tables do not give,
or that only figures differing in something else give, another GPU or shape
(:mod:`studygen.lint.joined_ratios`; cases ``sg103_*_joined_ratios``); and
a comparison that prints a figure beside each name ("int8 (0.0440 ms) is
faster than fp16 (0.0388 ms)") whose figures go the other way
(:mod:`studygen.lint.inline_comparisons`). In the one-table readers, a cell
printing a range ("0.3533 to 0.4667 (2 jobs: a, b)") stands for all of it: the
claim must lie outside the whole interval over the ranges, or go against every
value of them, to be reported (:mod:`studygen.lint.range_operands`). A finding already stated for a
line by a one-table reader is not repeated, nor a ratio or percent change
the sentence's own two figures refute when the table reader would read it from
cells printing them; a ratio beside two figures of one unit is not read
against a table column of another unit, unless both units are of one kind.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import NamedTuple

from ..findings import Finding
from ..patterns import lazy_compile
from .average_ratio_columns import average_ratio_findings
from .averages import average_findings, prose_average_findings, states_row_mean
from .cell_changes import cell_change_findings
from .columns import columns_as_rows
from .derived import CLOSE, FORMULAS, best_fit, derivation, fits, formulas_for, operand_pools, points_difference
from .document import Document, Series, Table
from .figures import RATIO_UNITS, Figure, opening_figure, with_unit
from .rounding import printed_interval
from .prose_changes import change_findings, change_formulas, changes_of
from .inline_comparisons import comparison_findings
from .joined_ratios import joined_ratio_findings
from .named_operands import named_series
from .operand_pairs import NEW_CLAUSE_RE, InlineClaim, compared_pairs, inline_claims, share_pairs
from .prose_rows import figure_clause, row_ratio_findings
from .prose_tables import ratio_findings, share_findings
from .total_shares import total_share_findings
from .stated_sums import sum_findings
from .section_rows import names_derived, section_views
from .text import DIFFERENCE_WORDS, label_tokens, normalize, ratio_header
from .ratio_direction import goes_against, sign_unsettles_word, signed_by_word, wanted_sign, written_direction
from .variant_pairs import DURATION_UNITS, HIGHER_IS_BETTER, kind_of_series, kind_of_unit, kind_of_words

CODE = "SG103"


def check(document: Document) -> list[Finding]:
    """SG103 findings of tables and prose."""
    findings: list[Finding] = []
    for table in document.tables:
        given: set[tuple[int, int]] = set()  # (row, column) of each cell its column's formula gives
        findings.extend(_table_findings(document, table, given=given))
        for line, message, hint in (*average_findings(table, given), *average_ratio_findings(table, given)):
            findings.append(Finding(CODE, message, document.path, line, hint=hint))
        transposed = _transposed(table)
        if transposed is not None:
            findings.extend(_table_findings(document, transposed, table))
        for view in section_views(table):  # a "**Speedup**" section under "**H100**" and "**A100**" sections
            findings.extend(_table_findings(document, view))
    # (line, ratio, its two operands) of each ratio found wrong against the figures its own sentence prints
    recomputed: set[tuple[int, str, frozenset[str]]] = set()
    # (line, offset in its block) of each ratio read beside two figures of its sentence -> the unit they print
    printed_units: dict[tuple[int, int], str] = {}
    for block in document.prose:
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            if len(sentence.tokens) >= 3:
                findings.extend(_prose_findings(document, sentence, recomputed, printed_units))
    # a ratio whose sentence prints the table cells it is read from is one fault: the table reader does not repeat it
    # a ratio whose comparison prints two figures going the other way is reported by that reading, not again
    # against the table cells printing those figures
    comparisons = comparison_findings(document, recomputed)
    prose = [*share_findings(document), *ratio_findings(document, recomputed, printed_units), *row_ratio_findings(document),
             *change_findings(document, recomputed), *comparisons, *prose_average_findings(document),
              *total_share_findings(document), *sum_findings(document)]
    # a figure between two things a one-table reader has already found wanting is not reported twice; by line
    # and figure, as every message opens with its figure: a generated README prints a study file's paragraph
    # on one line, and a finding about another sentence of it hid a wrong ratio (a new user's trial)
    stated = {(line, opening_figure(message) or message) for line, message, _ in prose}
    prose += [finding for finding in joined_ratio_findings(document)
              if (finding[0], opening_figure(finding[1]) or finding[1]) not in stated]
    for line, message, hint in (*prose, *cell_change_findings(document)):
        findings.append(Finding(CODE, message, document.path, line, hint=hint))
    return findings


# --- tables ---------------------------------------------------------------------


_MIN_TRANSPOSED_COLUMNS = 3  # variants a transposed row needs before a formula can be told from chance


def _transposed(table: Table) -> Table | None:
    """The table read the other way round (rows become columns), when its
    first column labels quantities and one of them names a derived figure;
    None otherwise. Row ``j`` of the view is column ``j + 1`` of ``table``."""
    if len(table.headers) < _MIN_TRANSPOSED_COLUMNS + 1 or len(table.rows) < 2 or 0 not in table.label_columns:
        return None
    if any(column != 0 for column in table.label_columns) or not any(names_derived(row.cells[0]) for row in table.rows):
        return None
    return columns_as_rows(table)


def _table_findings(document: Document, table: Table, original: Table | None = None,
                    given: set[tuple[int, int]] | None = None) -> list[Finding]:
    """Findings of ``table``'s derived columns; ``original``: the table that
    ``table`` is the transposed view of (lines and names come from it);
    ``given``, when passed, collects (id of the row, column) of each cell
    its column's formula gives (an Average row's ratio of the averaged
    operands is then no miss of the mean: :func:`.averages.average_findings`)."""
    if len(table.rows) < 2 or len(table.series) < 2:
        return []
    operands = operand_pools(table)
    findings = []
    for target in table.series:
        difference_header = bool(DIFFERENCE_WORDS & target.keywords)
        formulas = formulas_for(target.unit, difference_header, ratio_header(target.header))
        if not formulas:
            continue
        target = _signed(table, target, operands)
        # "3.20x (Flash)": a cell naming the column it was computed against offers that column as an operand
        named = named_series(table, target, [s for group in operands.values() for s in group])
        pools = operands if named is None else {**operands, named.unit: [*operands.get(named.unit, []), named]}
        fit = best_fit(table, target, formulas, pools, named)
        if fit is None:
            continue
        if given is not None:
            given.update((id(table.rows[row_index]), target.column) for row_index in fit.matched)
        for row_index in fit.missed:
            if not _pools_several(table, row_index, (target, fit.first, fit.second)):
                operand_pair = _row_operands(table, target, fit, row_index, pools)
                # a rate row's speedup read new / old under time rows' old / new: the swapped pair giving the
                # printed figure is the column's own definition for that row, not a miss
                if operand_pair != fit.operands(row_index) and fits(fit.formula, *operand_pair, target.values[row_index]):
                    continue
                if states_row_mean(table, target, row_index):
                    continue  # an Average row's mean of the column's own figures: averages.py reads it
                findings.append(_column_finding(document, table, target, fit, row_index, original, operand_pair))
    return findings


def _row_kind(table: Table, row_index: int, operands: dict) -> str | None:
    """The one quantity kind (time, size, throughput, quality) of a row's
    figures: by its label's words ("Latency (ms)"), the units its data cells
    print and the kinds of the table's data columns; None when they name none
    or several."""
    row = table.rows[row_index]
    kinds = {kind_of_words(label_tokens(normalize(row.label)))}
    for group in operands.values():
        for series in group:
            value = series.values[row_index]
            kinds.update((kind_of_series(series), kind_of_unit(value.unit) if value is not None else None))
    kinds.discard(None)
    return kinds.pop() if len(kinds) == 1 else None


# A column of speedups or slowdowns, whose direction depends on the row's quantity: a time's speedup is old / new,
# a rate's new / old
_SPEED_RATIO_HEADER_RE = lazy_compile(r"\b(?:speed-?ups?|slow-?downs?|faster|slower|improvements?|gains?)\b", re.IGNORECASE)


def _row_operands(table: Table, target: Series, fit, row_index: int, operands: dict) -> tuple[Figure, Figure]:
    """(a, b) a finding on ``row_index`` recomputes ``target``'s ratio from:
    ``fit``'s operands, swapped in a speedup column ("| Metric | Before |
    After | Speedup |") where the row's quantity goes the other way than
    those of the rows ``fit`` matched (a throughput row under step-time rows:
    615 / 410, not 410 / 615)."""
    a, b = fit.operands(row_index)
    if fit.formula != "ratio" or not _SPEED_RATIO_HEADER_RE.search(target.header):
        return a, b

    def higher_is_better(row: int) -> bool | None:
        kind = _row_kind(table, row, operands)
        return None if kind is None else kind in HIGHER_IS_BETTER

    row_higher = higher_is_better(row_index)
    if row_higher is None or {higher_is_better(row) for row in fit.matched} != {not row_higher}:
        return a, b
    return b, a


def _signed(table: Table, target: Series, operands: dict) -> Series:
    """``target``, a column of percent changes, with each cell that writes its
    direction as a word after its figure ("25.0% less", "12% faster") signed
    by that word (:func:`~studygen.lint.ratio_direction.signed_by_word`, as
    prose reads the word); ``target`` itself when no cell changes."""
    if target.unit != "%" or target.parts != 1:
        return target
    values = list(target.values)
    for row_index, value in enumerate(values):
        if value is not None and value.end < len(cell := table.rows[row_index].cells[target.column]):
            values[row_index] = signed_by_word(cell, value, _row_kind(table, row_index, operands))
    return target if values == target.values else replace(target, values=values)


# "100.0 (3 jobs: 10.0 to 100.0)", "1.00x (1.00x to 10.00x)": a cell that states the range of the
# figures it stands for beside the one it leads with
_STATED_RANGE_RE = lazy_compile(r"\([^()]*\d[^()]*\bto\b[^()]*\d[^()]*\)")


def _pools_several(table: Table, row_index: int, columns) -> bool:
    """True when a cell of ``row_index`` in one of ``columns`` (series, None
    skipped) states a range beside its figure: it pools several figures
    (several jobs, say), so which of them the derived cell was computed
    from is not printed, and its first figure is no operand to recompute
    it from (case ``sg103_pos_pooled_cells``)."""
    cells = table.rows[row_index].cells
    return any(series is not None and series.column < len(cells) and _STATED_RANGE_RE.search(cells[series.column])
               for series in columns)


def _column_finding(document: Document, table: Table, target, fit, row_index: int, original: Table | None,
                    operand_pair: tuple[Figure, Figure]) -> Finding:
    """The finding of one row that the column's definition ``fit`` does not
    give; ``operand_pair``: the row's (a, b) to recompute it from (see
    :func:`_row_operands`)."""
    row = table.rows[row_index]
    a, b = operand_pair
    d = target.values[row_index]
    matches = len(fit.matched)
    if original is None:
        where, line, row_word, owner = row.name(), row.line, "row", "column"
    else:
        where, line, row_word, owner = f"column '{row.cells[0]}'", original.rows[target.column - 1].line, "column", "row"
    others = f"the {owner}'s other {row_word}" if matches == 1 else f"the {owner}'s other {matches} {row_word}s"
    source = "its header declares it" if fit.by_words else "the table's layout declares it"
    if fit.close:
        why = (f"{source}, {fit.declared}; {matches} of {matches + len(fit.missed)} "
               f"{row_word}s fit it to the printed digits, every one lies within {round(CLOSE * 100)}% of it")
    elif fit.declared and not matches:
        why = f"{source}, {fit.declared}, and the {owner} has no other {row_word} to check it on"
    elif fit.declared:
        why = f"{source}, {fit.declared}, and it fits {others}"
    else:
        why = f"that formula fits {others}"
    cell = row.cells[target.column].strip()
    # "25.0% less": the cell as printed, its word being part of the figure (see _signed)
    shown = f"'{cell}'" if target.unit == "%" and written_direction(cell, d, d.start) else with_unit(d.text, target.unit)
    return Finding(
        CODE,
        f"{where}: '{target.header}' is {shown} but "
        f"{fit.described(table, row_word, row_index)} {derivation(fit.formula, a, b, d, target.unit)} ({why})",
        document.path,
        line,
        hint="recompute the figure from the row's own values, or say in the header what it is computed from",
    )


# --- prose -------------------------------------------------------------------------

# After the pair only a comma and a conjunction start a new clause: "from 6.8 to 1.1 ms and 6.2x lower" is one.
_CLAUSE_AFTER_RE = lazy_compile(r";|,\s*(?:and|while|whereas|but)\b", re.IGNORECASE)
# "not ... by 64x", "rather than 2x": the figure is what the sentence denies.
_NEGATION_RE = lazy_compile(r"\b(?:not|never|rather\s+than|instead\s+of|far\s+from|short\s+of)\b[^,;:]{0,30}$", re.IGNORECASE)
# "≥93%", "up to 30x", "over 2x": a bound, checked for its direction only.
_LOWER_BOUND_RE = lazy_compile(r"(?:≥|>=|>|\bat\s+least|\bover|\bmore\s+than|\babove|\bbeyond)\s*~?\s*$", re.IGNORECASE)
_UPPER_BOUND_RE = lazy_compile(r"(?:≤|<=|<|\bat\s+most|\bup\s+to|\bless\s+than|\bbelow|\bunder)\s*~?\s*$", re.IGNORECASE)

_BLANK_RE = lazy_compile(r"\s*")
# a percentage that counts items of a population ("95% of samples", "10% of the requests"): a share of a count
_POPULATION_SHARE_RE = lazy_compile(
    r"\s*of\s+(?:the\s+|all\s+|our\s+)?(?:[\w-]+\s+)?(?:samples|runs|requests|iterations|trials|measurements|queries|"
    r"calls|operations|tests|cases|users|jobs|prompts|images|batches|responses|updates|launches)\b", re.IGNORECASE)
_KIND_REACH, _KIND_WORDS_AFTER = 40, 3  # how far the words naming a percentage's quantity are read after it
_MAX_GAP = 30  # characters between a derived figure and the figures it is derived from


def _adjacent(text: str, starts: list[int], derived: Figure, a: Figure, b: Figure, opening: int | None = None) -> bool:
    """True when ``derived`` sits right before or after the pair (a, b),
    with no other figure and no sentence or clause break between them. A pair
    opening the parenthesis at ``opening`` (where the derived figure's clause
    ends, :func:`_operands_opening`) is its operands however long the clause."""
    if derived.start >= b.end:
        gap_start, gap_end, after = b.end, derived.start, True
    elif derived.end <= a.start:
        gap_start, gap_end, after = derived.end, a.start, False
    else:
        return False
    # "5.0x faster than the GTX 1070 in fp32 (0.03613 against 0.1536 ms)": the names between are the clause's
    stated = not after and opening is not None and gap_start <= opening < gap_end and \
        _BLANK_RE.fullmatch(text, opening + 1, gap_end) is not None
    # the length first, the text of the gap after: a sentence of thousands of pairs after one ratio searched the
    # text from the ratio to each pair
    if (gap_end - gap_start > _MAX_GAP and not stated) or ";" in text[gap_start:gap_end]:
        return False
    if after and _CLAUSE_AFTER_RE.search(text, gap_start, gap_end):
        return False  # "ranges from 0.52 to 2.85 ms, and INT8 is 1.9x faster": a new clause, its own operands
    if not after and NEW_CLAUSE_RE.search(text, gap_start, gap_end):
        return False  # "(~5.4x), and from 1.1 to 6.8": the pair after it belongs to the next clause
    # no other figure between (``starts`` ascends: tokens come in text order)
    return bisect.bisect_right(starts, gap_start) >= bisect.bisect_left(starts, gap_end)


def _operands_opening(sentence, derived: Figure) -> int | None:
    """Where the parenthesis right after the derived figure's clause opens (the clause's operands are
    printed in it: "5.0x faster than the GTX 1070 in fp32 (0.03613 against 0.1536 ms)"), else None."""
    _, end = figure_clause(sentence, derived)
    return end if sentence.block.text.startswith("(", end) else None


def _change_pairs(sentence, text: str, starts: list[int]) -> list[tuple[Figure, Figure]]:
    """Two figures printed next to a stated percent change in the order its
    words go ("cuts the time by 12% (0.1536 ms to 0.1526 ms)", "12% more
    memory (62 to 70 MB)"): its before and after, though no "from" marks them
    (a range of values is printed from low to high; a decrease, or "faster" on
    a time, goes from high to low)."""
    found = []
    ranges = [r for r in sentence.ranges if r.kind == "range" and r.unit not in RATIO_UNITS]
    for change in changes_of(sentence) if ranges else ():
        for rng in ranges:
            first, second = sorted((rng.lo, rng.hi), key=lambda f: f.start)
            falling = change.sense == "decrease" or (change.sense in ("faster", "slower")) and (
                (change.sense == "faster") == (rng.unit in DURATION_UNITS))
            # after the change only: a range before it ("B (148-153 ms) is ~40% slower than A") is its subject's spread
            if first.value != second.value and (first.value > second.value) == falling and \
                    change.figure.end <= first.start and _adjacent(text, starts, change.figure, first, second):
                found.append((first, second))
    return found


def _holds(formula: str, a: Figure, b: Figure, derived: Figure, bound: str) -> bool | None:
    """Whether ``derived`` follows from (a, b): exactly (:func:`fits`), or
    for a bound ("≥93%", "up to 30x") in its direction."""
    if not bound:
        return fits(formula, a, b, derived)
    computed = FORMULAS[formula][0](a, b)
    if computed is None:
        return None
    printed = printed_interval(derived)
    if bound == "lower":
        return computed.hi >= printed.lo - 1e-12
    return computed.lo <= printed.hi + 1e-12


def _named_kind(text: str, derived: Figure) -> str | None:
    """The quantity kind the words right after a ratio or percentage name, up to the clause's next mark or bracket
    ("22% throughput improvement": throughput; "a 30% cut in latency": time), else None (no word of a kind, or
    words of two). A pair in a unit of another kind measures something else: the setting that was changed."""
    after = text[derived.end:derived.end + _KIND_REACH]
    cut = min((i for i in (after.find(mark) for mark in ",;:.()[]") if i >= 0), default=len(after))
    return kind_of_words(tuple(after[:cut].split()[:_KIND_WORDS_AFTER]))


class _RatioReading(NamedTuple):
    """A ratio or percentage of a sentence with the figures it may be derived from: ``near`` the pairs beside it
    (:func:`_adjacent`; with the inline claim's pair last, when it has one), ``claim`` the inline claim it stands
    in (:func:`~.operand_pairs.inline_claims`) or None, ``orders`` every ordered pair of the sentence a formula is tried over
    (any of them clears it), ``claimed`` the inline claim's pair in the order(s) its words allow, ``bound``
    ``"lower"``, ``"upper"`` or ``""``."""

    derived: Figure
    near: list[tuple[Figure, Figure]]
    claim: InlineClaim | None
    orders: list[tuple[Figure, Figure]]
    claimed: list[tuple[Figure, Figure]]
    bound: str


def _ratio_readings(sentence) -> tuple[list[tuple[Figure, Figure]], list[_RatioReading]]:
    """``(shares, readings)``: the part-of-whole pairs of the sentence
    (:func:`~.operand_pairs.share_pairs`) and a reading of each ratio or percentage it prints beside figures
    it may be derived from, neither a range's end nor denied ("not linearly by 64x"), in text order."""
    text = sentence.block.text
    tokens = [t for t in sentence.tokens if t.figure is not None]
    # a whole number without a unit between them is a label ("at concurrency 32 (5.3x)"), not a figure
    starts = [t.start for t in tokens if t.figure.unit is not None or t.figure.decimals]
    shares = share_pairs(text, tokens)
    pairs = compared_pairs(sentence, text, tokens) + shares + _change_pairs(sentence, text, starts)
    claims = {claim.derived.start: claim for claim in inline_claims(text, tokens, set(starts))}
    if not pairs and not claims:
        return shares, []
    in_ranges = sentence.range_ends
    readings = []
    for token in tokens:
        derived = token.figure
        if derived.unit not in RATIO_UNITS or derived.start in in_ranges:
            continue
        opening = _operands_opening(sentence, derived)
        near = [(a, b) for a, b in pairs if _adjacent(text, starts, derived, a, b, opening)]
        named = _named_kind(text, derived)
        if named is not None:
            # "from 3 GB to 8 GB yielded 22% throughput improvement": a change of another quantity than the pair's
            near = [(a, b) for a, b in near if kind_of_unit(a.unit or b.unit) in (None, named)]
        if derived.unit == "%" and _POPULATION_SHARE_RE.match(text, derived.end):
            # "95% of samples fall between 239.9 and 244.4 ns": how many of the samples, from counts only
            near = [(a, b) for a, b in near if a.unit is None and b.unit is None]
        claim = claims.get(derived.start)
        if not near and claim is None:
            continue
        before = text[max(sentence.start, derived.start - 60):derived.start]
        if _NEGATION_RE.search(before):
            continue  # "not linearly by 64x": the sentence denies the figure
        bound = "lower" if _LOWER_BOUND_RE.search(before) else "upper" if _UPPER_BOUND_RE.search(before) else ""
        orders = [(x, y) for a, b in pairs for x, y in ((a, b), (b, a))]
        claimed: list[tuple[Figure, Figure]] = []
        if claim is not None:
            # "N x faster" of a time is reference / subject, of a rate subject / reference; a percent is read both ways
            claimed = [(claim.subject, claim.reference), (claim.reference, claim.subject)]
            written = written_direction(text, derived, sentence.start)
            sign = wanted_sign(written[0], kind_of_unit(claim.subject.unit)) if written and not sign_unsettles_word(derived) else None
            if sign is not None and derived.unit == "x":
                claimed = claimed[:1] if sign > 0 else claimed[1:]
            near.append((claim.subject, claim.reference))
        readings.append(_RatioReading(derived, near, claim, orders, claimed, bound))
    return shares, readings


def _nearest(reading: _RatioReading) -> tuple[Figure, Figure]:
    """The pair of ``reading.near`` closest to its figure: the two figures it is taken to compare."""
    derived = reading.derived
    return min(reading.near, key=lambda p: min(abs(p[0].start - derived.start), abs(p[1].end - derived.end)))


def ratio_operands(sentence) -> list[tuple[Figure, Figure, Figure]]:
    """``(ratio, a, b)`` of each ratio or percentage of ``sentence`` (a
    :class:`~studygen.lint.document.Sentence`) printed beside two figures
    it compares, the two SG103 reads it from (the nearest pair, or an inline
    claim's subject and reference), in text order; a denied figure or a
    range's end is none. SG212 (:mod:`studygen.checks.prose_timings`) asks
    whether the two were timed alike."""
    return [(reading.derived, *_nearest(reading)) for reading in _ratio_readings(sentence)[1]]


def _prose_findings(document: Document, sentence, recomputed: set[tuple[int, str, frozenset[str]]],
                    printed_units: dict[tuple[int, int], str]) -> list[Finding]:
    """Findings of the sentence's ratios and percentages against the figures it prints; each one that does not
    follow from them is added to ``recomputed`` as (line, its text, its operands' texts), and the unit of the
    two figures each is read beside to ``printed_units`` by (line, its offset in the block)."""
    text = sentence.block.text
    shares, readings = _ratio_readings(sentence)
    findings = []
    for reading in readings:
        derived, claim, bound = reading.derived, reading.claim, reading.bound
        near_a, near_b = _nearest(reading)
        if near_a.unit or near_b.unit:
            printed_units[(sentence.line_at(derived.start), derived.start)] = near_a.unit or near_b.unit
        formulas = formulas_for(derived.unit, False)
        # "cuts latency by 55.1%": a decrease is (before - after) / before, whichever pair it is read over
        directed = change_formulas(sentence, derived) if derived.unit == "%" else None
        orders = reading.orders
        if claim is not None:
            written = written_direction(text, derived, sentence.start)
            sign = wanted_sign(written[0], kind_of_unit(claim.subject.unit)) if written and not sign_unsettles_word(derived) else None
            if goes_against(claim.subject, claim.reference, sign):
                findings.append(_direction_finding(document, sentence, claim, written))
                # the same fault read from table cells printing these figures is not stated again
                recomputed.add((sentence.line_at(derived.start), derived.text,
                                frozenset((claim.subject.text, claim.reference.text))))
                continue
            orders = orders + reading.claimed
        # any pair of the sentence the figure follows from clears it ("from c=1 to c=64 ... 64x"); a part and its
        # whole keeps its share reading whatever the words
        verdicts = [_holds(f, x, y, derived, bound) for x, y in orders
                    for f in (formulas if directed is None or (x, y) in shares or (y, x) in shares else directed)]
        if any(verdicts) or all(v is None for v in verdicts):
            continue  # it fits, or no formula is defined over these figures
        a, b = _nearest(reading)
        claimed = reading.claimed
        shown = claimed if claim is not None and (a, b) == (claim.subject, claim.reference) else ((a, b), (b, a))
        if (a, b) in shares and derived.unit == "%":
            options = derivation("percent_ratio", a, b, derived)  # a part of its whole: the share, one way round
        elif directed is not None:
            larger, smaller = (a, b) if a.value >= b.value else (b, a)
            options = " or ".join(derivation(f, larger, smaller, derived) for f in directed)  # the way the words say
        else:
            options = " or ".join(derivation(f, x, y, derived) for f in formulas[:1] for x, y in shown)
        recomputed.add((sentence.line_at(derived.start), derived.text, frozenset((a.text, b.text))))
        points = points_difference(a, b, derived)  # "12.26% AP" between AP figures 12.26 points apart
        findings.append(Finding(
            CODE,
            f"{with_unit(derived.text, derived.unit)} does not follow from {a.text} and {with_unit(b.text, b.unit or a.unit)}"
            + (f" as a percent change: it is their difference in points ({points[0]}), and as a percent change {options}"
               if points else f": {options}"),
            document.path,
            sentence.line_at(derived.start),
            hint=f"write the difference in points ('{points[1]}'), or a percent change computed from the figures it compares"
                 if points else
                 "recompute the ratio or percentage from the figures it compares (to their printed digits), or say what else it is computed from",
        ))
    return findings


def _direction_finding(document: Document, sentence, claim: InlineClaim, written: tuple[str, str]) -> Finding:
    """The finding of an inline ratio whose two figures go the other way than its words say."""
    direction, words = written
    derived, subject, reference = claim
    return Finding(
        CODE,
        f"{with_unit(derived.text, derived.unit)} goes the wrong way: '{words}' says the figure before it "
        f"({subject.text} {subject.unit}) is the {direction} one, but the figure after 'than' is "
        f"{reference.text} {reference.unit}",
        document.path,
        sentence.line_at(derived.start),
        hint="swap the two names or the direction word, or recompute the figures the sentence compares",
    )


__all__ = ["check", "ratio_operands"]
