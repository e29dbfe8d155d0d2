"""Derived figures in prose read against the figures they are derived from
elsewhere in the document (SG103).

**A share stated as a reduction.** "FP8 keeps the slope at 54% of BF16"
(or a column ``slope (% of BF16)`` holding 54%) and, about the same
quantity, "the 54% slope reduction": a share of P% is a reduction of
100 - P%, so both cannot hold (unless P is 50). The share comes from a
table column whose header reads "% of <variant>" (rows restricted to those
the reduction's sentence names) or from a prose "P% of <variant>"; the
reduction is "P% <quantity> reduction/decrease/drop/saving", "P% lower/less
<quantity>" or "reduces <quantity> by P%". Both must name a quantity word in
common ("slope"), and the share must be of a variant the document names (a
precision, a label or a column header: "of BF16", not "of peak" or "of the
GPU's memory", which are other references).

**A ratio against two named columns.** "1.78x vs dg at 8192", with a table
whose columns are named ``dg`` and (every word of its header named in the
sentence) the variant, and whose rows the clause names ("at 8192"): the ratio
must be one of the variant over the reference, the reference over the
variant (time or throughput), or the ratio printed in the variant's own cell
("1655.3 (1.86x)"), to the printed digits, in at least one such table of the
document; a row whose figures go the other way than the sentence says ("1.6x
faster vs dg" of the slower kernel, :mod:`studygen.lint.ratio_direction`)
gives it by no reading. A cell printing a range is read over all of it
(:mod:`.range_operands`): the ratio must fall outside the interval over the
two cells, or the ranges lie the other way at every value, for that row to
contradict it. Only when every such table contradicts it is it reported. A hedged
figure ("~1.8x", "up to 2x") or one the sentence denies is not checked, nor a
clause that names no row (which row would it be?).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Container, Mapping
from typing import NamedTuple

from ..numbers import format_number
from ..patterns import lazy_compile
from .document import Document, Sentence, Series, Table
from .figures import RATIO_UNITS, Figure, with_unit
from .range_operands import Operand, against, fits_over, is_range, over_ranges
from .range_operands import cell as operand_cell
from .ratio_direction import wanted_sign, written_direction
from .restriction import TextView
from .rounding import gives, printed_interval, quotient, stands_for
from .text import DIFFERENCE_WORDS, keywords, label_tokens, measure_words, normalize, stem
from .variant_pairs import kind_of_series, kind_of_unit
from .worded_ratios import reading_at

# --- a share stated as a reduction --------------------------------------------------

_REDUCTION_NOUNS = r"reductions?|decreases?|drops?|savings?|cuts?"
_REDUCTION_STEMS = ("reduction", "decrease", "drop", "saving", "cut")  # one of which each noun above holds
# "54% ITL slope reduction", "a 30% memory saving": the quantity words sit between the figure and the noun
_SHARE_AS_NOUN_RE = lazy_compile(r"\s*((?:[A-Za-z][\w-]*\s+){0,3}?)(?:" + _REDUCTION_NOUNS + r")\b", re.IGNORECASE,
    needs=_REDUCTION_STEMS)
# "40% lower ITL", "a 30% reduction in memory"
_SHARE_AS_ADJECTIVE_RE = lazy_compile(
    r"\s*(?:lower|less|smaller|shorter|(?:" + _REDUCTION_NOUNS + r")\s+(?:in|of))\s+((?:[A-Za-z][\w-]*\s*){1,3})", re.IGNORECASE,
    needs=("lower", "less", "smaller", "shorter", *_REDUCTION_STEMS))
# "reduces the ITL slope by 46%", "cut memory by 30%"
_REDUCES_BY_RE = lazy_compile(
    r"\b(?:reduc\w*|decreas\w*|cuts?|lower(?:s|ed)?|drops?|dropped|shrinks?|shrank)\s+((?:[A-Za-z][\w-]*\s+){0,4}?)by\s*$",
    re.IGNORECASE, needs=("reduc", "decreas", "cut", "lower", "drop", "shrink", "shrank"))
# "(% of BF16)", "percent of fp16" in a header
_SHARE_HEADER_RE = lazy_compile(r"(?:%|\bpercent)\s*of\s+(?:the\s+)?[`*_]*([A-Za-z][\w.+-]*)", re.IGNORECASE)
# "at 54% of BF16": the reference right after the figure
_SHARE_OF_RE = lazy_compile(r"\s+of\s+(?:the\s+)?[`*_]*([A-Za-z][\w.+-]*)", re.IGNORECASE)
_HEDGE_RE = lazy_compile(
    r"(?:~|≈|≥|≤|>|<|\bup\s*to|\bover|\bmore\s+than|\bat\s+least|\bat\s+most|\babout|\baround|\broughly|\bnearly|"
    r"\balmost|\bapprox(?:imately|\.)?|\bunder|\bbelow|\babove|\bless\s+than|\bclose\s+to|\bnot|\bno)\s*$",
    re.IGNORECASE,
)
_HEDGE_WINDOW = 16
SHARE_HINT = "state the share (\"at P% of the reference\") or the reduction (100 - P%), not one as the other"
RATIO_HINT = "recompute the ratio from the table it summarises (to its printed digits), or name the run it comes from"
_VARIANT_RE = lazy_compile(r"^(?:fp|bf|tf|int|uint|nvfp|mxfp|w\d+a)\d+$")


class Share(NamedTuple):
    """"P% of <reference>": its figure, its reference word as written and
    where it is stated (for a message)."""

    figure: Figure
    reference: str
    where: str


def _bare(word: str) -> str:
    """A word without the markup and punctuation around it ("`BF16`," -> "BF16")."""
    return word.strip("`*_.,;:()")


def _is_variant(word: str, document: Document) -> bool:
    """True for a reference that names a configuration of the document: a
    precision (``bf16``), a label of a table, or a word of a "% of" header
    ("% of baseline")."""
    word = normalize(_bare(word))
    return bool(_VARIANT_RE.match(word)) or word in document.label_vocab or any(
        word in series.keywords for series in document.series_by_unit.get("%", ()))


def _quantity(text: str) -> frozenset[str]:
    return measure_words(keywords(text)) - DIFFERENCE_WORDS


def _table_shares(document: Document) -> list[tuple[Series, str]]:
    """(series, reference) of each "% of <variant>" column."""
    found = []
    for series in document.series_by_unit.get("%", ()):
        match = _SHARE_HEADER_RE.search(series.table.headers[series.column])
        if match and not (DIFFERENCE_WORDS & series.keywords) and _is_variant(match.group(1), document):
            found.append((series, _bare(match.group(1))))
    return found


def _prose_shares(document: Document) -> list[tuple[Share, frozenset[str]]]:
    """Every prose "P% of <variant>" with the quantity words of its clause."""
    found = []
    for block in document.prose:
        if "%" not in block.text:
            continue
        text = block.text
        for sentence in block.sentences:
            for token in sentence.tokens:
                figure = token.figure
                if figure is None or figure.unit != "%":
                    continue
                match = _SHARE_OF_RE.match(text, figure.end)
                if not match or not _is_variant(match.group(1), document):
                    continue
                clause_start = max(text.rfind(c, sentence.start, figure.start) for c in ",;:(")
                quantity = _quantity(text[max(clause_start + 1, sentence.start):figure.start])
                if quantity:
                    found.append((Share(figure, _bare(match.group(1)), f"line {sentence.line_at(figure.start)}"), quantity))
    return found


def _reductions(sentence: Sentence) -> list[tuple[Figure, frozenset[str], str]]:
    """(figure, quantity words, the words as written) of each "P% <quantity>
    reduction" of the sentence."""
    text = sentence.block.text
    in_ranges = sentence.range_ends
    found = []
    for token in sentence.tokens:
        figure = token.figure
        if figure is None or figure.unit != "%" or figure.start in in_ranges or not 0 < figure.value < 100:
            continue
        if _HEDGE_RE.search(text, max(sentence.start, figure.start - _HEDGE_WINDOW), figure.start):
            continue
        match = _SHARE_AS_NOUN_RE.match(text, figure.end, sentence.end) or _SHARE_AS_ADJECTIVE_RE.match(
            text, figure.end, sentence.end)
        words = match.group(1) if match else None
        if words is None:
            before = _REDUCES_BY_RE.search(text, max(sentence.start, figure.start - 80), figure.start)
            words = before.group(1) if before else None
        quantity = _quantity(words) if words else frozenset()
        if quantity:
            found.append((figure, quantity, " ".join(words.split())))
    return found


def _key(figure: Figure) -> float:
    return round(figure.value, 9)


_MAX_CANDIDATES = 8  # share columns tried per reduction: the lookup stays linear in the document


class _Shares:
    """The document's shares, indexed by (printed value, quantity word), so a
    reduction finds the shares it may repeat in time independent of their
    number."""

    def __init__(self, document: Document):
        self.columns: dict[tuple[float, str], list[tuple[Series, str]]] = {}
        for series, reference in _table_shares(document):
            for value in {_key(v) for v in series.values if v is not None}:
                for word in series.measure:
                    self.columns.setdefault((value, word), []).append((series, reference))
        self.prose: dict[tuple[float, str], Share] = {}
        for share, quantity in _prose_shares(document):
            for word in quantity:
                self.prose.setdefault((_key(share.figure), word), share)

    def repeated_by(self, sentence: Sentence, figure: Figure, quantity: frozenset[str]) -> Share | None:
        """The share that ``figure`` repeats as a reduction of ``quantity``, or None."""
        value = _key(figure)
        tried: set[int] = set()
        for word in sorted(quantity):
            # the first columns in document order: a bounded number per reduction keeps the lookup linear
            for series, reference in self.columns.get((value, word), ())[:_MAX_CANDIDATES]:
                if id(series) in tried:
                    continue
                tried.add(id(series))
                share = _column_share(sentence, figure, series, reference)
                if share is not None:
                    return share
        for word in sorted(quantity):
            share = self.prose.get((value, word))
            if share is not None:
                return share
        return None


def _column_share(sentence: Sentence, figure: Figure, series: Series, reference: str) -> Share | None:
    """The share of ``series`` in the rows the sentence names that prints
    ``figure``, or None (also when a named row prints the reduction itself:
    which one is meant is then unclear)."""
    rows = series.table.restrict(sentence.view)
    if rows is None:
        return None
    values = [(i, series.values[i]) for i in rows if series.values[i] is not None]
    same = [i for i, v in values if _key(v) == _key(figure)]
    if not same or any(abs(v.value - (100 - figure.value)) <= v.half_step for _, v in values):
        return None
    row = series.table.rows[same[0]]
    return Share(series.values[same[0]], reference, f"'{series.header}' of {row.name()} (line {row.line})")


def share_findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each reduction that is a share stated elsewhere
    (see the module docstring)."""
    shares = None  # indexed only when a reduction is found
    found = []
    for block in document.prose:
        if "%" not in block.text:
            continue
        for sentence in block.sentences:
            for figure, quantity, written in _reductions(sentence):
                if figure.value == 50:
                    continue  # 50% of it is a 50% reduction: both readings agree
                if shares is None:
                    shares = _Shares(document)
                share = shares.repeated_by(sentence, figure, quantity)
                if share is None:
                    continue
                rest = format_number(100 - figure.value, figure.decimals)
                found.append((
                    sentence.line_at(figure.start),
                    f"{figure.text}% is stated as a reduction of '{written}', but {share.where} gives it at "
                    f"{share.figure.text}% of {share.reference}: a share of {share.figure.text}% is a reduction of {rest}%",
                    SHARE_HINT,
                ))
    return found


# --- a ratio against two named columns ----------------------------------------------

# "1.78x vs dg", "1.4x faster than FP16", "2x over the baseline": the reference word after the ratio
_AGAINST_RE = lazy_compile(
    r"\s*(?:(?:faster|slower|higher|lower|more|less|better|speedup|speed-up|improvement)\s+)?"
    r"(?:vs\.?|versus|over|than|relative\s+to|compared\s+(?:to|with)|against)\s+(?:the\s+|a\s+)?[`*_]*([A-Za-z][\w.+-]*)",
    re.IGNORECASE,
)
# a ratio written in words ends where its reference begins ("twice as fast as fp32": :mod:`.worded_ratios`)
_NAMED_AFTER_RE = lazy_compile(r"\s*(?:the\s+|a\s+)?[`*_]*([A-Za-z][\w.+-]*)")
_NEGATION_RE = lazy_compile(r"\b(?:not|never|rather\s+than|instead\s+of)\b[^,;:]{0,30}$", re.IGNORECASE)
# the clause of a figure: back to , ; ( or the sentence start, forward to , ; ) or the sentence end
_CLAUSE_BREAKS = ",;()"
_MAX_TABLES = 8  # tables holding the reference that a ratio is read against, nearest first


def _header_words(table: Table, column: int) -> frozenset[str]:
    return frozenset(label_tokens(normalize(table.headers[column])))


def _operand(table: Table, column: int) -> tuple[Series | None, Series | None]:
    """(the measured series, the ratio series) of a column."""
    measured = ratio = None
    for series in table.series:
        if series.column != column:
            continue
        if series.unit == "x":
            ratio = ratio or series
        elif series.unit != "%" and measured is None:
            measured = series
    return measured, ratio


class _LazyViews:
    """The two views a ratio is scoped by, each made when first read: its own
    clause ("1.78x vs dg at 8192"), then the words that scope it ("At batch
    32, ...")."""

    __slots__ = ("sentence", "figure", "made")

    def __init__(self, sentence: Sentence, figure: Figure):
        self.sentence, self.figure, self.made = sentence, figure, []

    def __iter__(self):
        for index in range(2):
            if index == len(self.made):
                figure = self.figure
                self.made.append(_clause_view(self.sentence, figure) if index == 0
                                 else self.sentence.clause_view(figure.start, figure.end - figure.start))
            yield self.made[index]


def _clause_view(sentence: Sentence, figure: Figure) -> TextView:
    """The view of the figure's clause (from the last of :data:`_CLAUSE_BREAKS`
    before it to the first after, within its sentence), shared with the
    sentence's other views of the same words."""
    breaks = _sentence_breaks(sentence)
    before = bisect_left(breaks, figure.start)
    start = breaks[before - 1] + 1 if before else sentence.start
    after = bisect_left(breaks, figure.end)
    end = breaks[after] if after < len(breaks) else sentence.end
    return sentence.segment_view(start - sentence.start, end - sentence.start)


_BREAK_RE = lazy_compile("[" + re.escape(_CLAUSE_BREAKS) + "]")
_last_breaks: list = [None, []]  # (sentence, its breaks): the figures of one sentence are read in a row


def _sentence_breaks(sentence: Sentence) -> list[int]:
    """Block-text offsets of the :data:`_CLAUSE_BREAKS` of ``sentence``,
    ascending, found once a sentence: searching from each figure to the
    nearest break cost a sentence of thousands of figures and no break its
    whole length per figure."""
    if _last_breaks[0] is not sentence:
        found = [match.start() for match in _BREAK_RE.finditer(sentence.block.text, sentence.start, sentence.end)]
        _last_breaks[:] = [sentence, found]
    return _last_breaks[1]


class _Reading:
    """What one row of a table gives for a prose ratio: ``x / y`` of two
    columns, or the ratio a column prints (``printed``)."""

    def __init__(self, table: Table, row: int, value: float, fits: bool, x: Operand | None = None,
                 y: Operand | None = None, printed: str = "", wrong_way: str = ""):
        self.table, self.row, self.value, self.fits = table, row, value, fits
        self.x, self.y = x, y  # a cell printing a range is read over its range (studygen.lint.range_operands)
        self.printed = printed
        self.wrong_way = wrong_way  # the direction the sentence states, when the row's figures go the other way

    def shown(self, ratio: Figure) -> str:
        """The reading for a message (made only for a reported ratio)."""
        if self.printed:
            return self.printed
        if is_range(self.x, self.y):
            shown = over_ranges("ratio", self.x, self.y, ratio, "x")
            return f"{shown}, the other way round than '{self.wrong_way}' says" if self.wrong_way else shown
        computed = quotient(stands_for(self.x), stands_for(self.y))
        shown = f"{self.x.text} / {self.y.text} = {format_number(self.value, ratio.decimals + 1)}x{gives(computed, ratio, 'x')}"
        return f"{shown}, the other way round than '{self.wrong_way}' says" if self.wrong_way else shown


class _Columns:
    """A table's measured columns as a ratio reads them: header words per
    column (the words every column shares left out) and each column's
    (measured series, printed ratio series)."""

    def __init__(self, own: dict[int, frozenset[str]], words: dict[int, frozenset[str]],
                 operands: dict[int, tuple[Series | None, Series | None]]):
        self.own, self.words, self.operands = own, words, operands

    @classmethod
    def of(cls, table: Table) -> "_Columns":
        # columns that hold a measurement (a column of ratios alone, "vs Triton", is neither side)
        numeric = sorted({s.column for s in table.series if s.unit not in RATIO_UNITS})
        words = {column: _header_words(table, column) for column in numeric}
        shared = frozenset.intersection(*words.values()) if words else frozenset()
        return cls({c: w - shared for c, w in words.items()}, words, {c: _operand(table, c) for c in numeric})


def _readings(table: Table, columns: _Columns, reference: str, named: set[str], rows: list[int],
              ratio: Figure, direction: tuple[str, str] | None = None, unit: str | None = None) -> list[_Reading]:
    """What each variant column the sentence names gives against the
    reference column in ``rows`` of ``table``; a row whose figures go the
    other way than ``direction`` says ("1.3x slower vs fp16" of the faster
    variant, :mod:`studygen.lint.ratio_direction`) gives it by no reading.
    None at all when ``unit`` (that of the figures the sentence prints beside
    the ratio) is not the reference column's unit nor of its quantity kind."""
    references = [c for c, words in columns.words.items() if reference in words]
    if len(references) != 1:
        return []
    base = columns.operands[references[0]][0]
    if base is None or not _same_quantity(base.unit, unit):
        return []
    sign = wanted_sign(direction[0] if direction else None, kind_of_series(base))
    readings = []
    for column, own in columns.own.items():
        if column == references[0] or not own or not own <= named:
            continue
        measured, printed = columns.operands[column]
        for row in rows:
            b = operand_cell(base, row)
            a = operand_cell(measured, row) if measured is not None else None
            if a is not None and b is not None and against(a, b, sign):
                readings.append(_Reading(table, row, a.value / b.value, False, a, b, wrong_way=direction[1] if direction else ""))
                continue  # the variant is not the faster (slower, larger …) one here: no printed ratio says it is
            if a is not None and b is not None:
                for x, y in ((a, b), (b, a)):
                    verdict = fits_over("ratio", x, y, ratio)
                    if verdict:
                        return [_Reading(table, row, x.value / y.value, verdict, x, y)]  # one fitting reading settles it
                    if verdict is not None:
                        readings.append(_Reading(table, row, x.value / y.value, verdict, x, y))
            cell = printed.values[row] if printed is not None else None
            if cell is not None:
                same = printed_interval(cell).meets(printed_interval(ratio))
                reading = _Reading(table, row, cell.value, same, printed=f"'{table.headers[column]}' prints {cell.text}x")
                if same:
                    return [reading]
                readings.append(reading)
    return readings


def _same_quantity(column_unit: str | None, printed_unit: str | None) -> bool:
    """True unless both units are known and differ, other than as two units of one known kind (ms and us)."""
    if column_unit is None or printed_unit is None or column_unit == printed_unit:
        return True
    kind = kind_of_unit(column_unit)
    return kind is not None and kind == kind_of_unit(printed_unit)


def ratio_findings(document: Document, recomputed: Container[tuple[int, str, frozenset[str]]] = (),
                   printed_units: Mapping[tuple[int, int], str] | None = None) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each prose ratio against a named column that
    no table of the document gives (see the module docstring). A ratio already
    found wrong against the figures its own sentence prints, ``recomputed``
    holding (line, ratio text, the two figures' texts), is left out when the
    table cells it is read against print those same two figures. A ratio
    whose sentence prints its two figures in a unit, ``printed_units``
    mapping (line, the ratio's offset in its block) to that unit, is read
    only against columns of that unit or of its quantity kind: "1.30x faster
    than fp16 with 2.10 ms against 2.45 ms" says nothing of an img/s table."""
    # keyword -> block positions of the tables holding it; id(table) -> its columns
    cache: dict = {"orders": {}, "columns": {}, "nearest": {}}
    found = []
    for block in document.prose:
        if not block.has_digits:
            continue
        text = block.text
        for sentence in block.sentences:
            in_ranges = sentence.range_ends
            for token in sentence.tokens:
                figure = token.figure
                if figure is None or figure.unit != "x" or figure.start in in_ranges:
                    continue  # a range ("3.53-3.73x faster than Triton") is SG101's to check
                worded = reading_at(text, figure.start, figure.end) is not None
                match = (_NAMED_AFTER_RE if worded else _AGAINST_RE).match(text, figure.end, sentence.end)
                if match is None:
                    continue
                before = text[max(sentence.start, figure.start - 60):figure.start]
                if _HEDGE_RE.search(before[-_HEDGE_WINDOW:]) or _NEGATION_RE.search(before):
                    continue
                unit = (printed_units or {}).get((sentence.line_at(figure.start), figure.start))
                finding = _ratio_finding(document, sentence, figure, _bare(match.group(1)), cache, recomputed, unit)
                if finding is not None:
                    found.append(finding)
    return found


# "vs Triton", "than fp16": what a figure is compared with, not what it is about
_REFERENCE_PHRASE_RE = lazy_compile(
    r"\b(?:vs\.?|versus|than|over|against|relative\s+to|compared\s+(?:to|with))\s+(?:the\s+|a\s+)?\S+", re.IGNORECASE)


def _subjects(sentence: Sentence, figure: Figure) -> set[str]:
    """Tokens of what the sentence says the ratio is about: its words before
    the figure, the references of other ratios ("2.15x vs PyTorch") left
    out, since a column named only as a reference is no variant."""
    before = _REFERENCE_PHRASE_RE.sub(" ", sentence.block.text[sentence.start:figure.start])
    return set(label_tokens(normalize(before)))


def _nearest(tables, orders: list[int], order: int, section: int) -> list[Table]:
    """The :data:`_MAX_TABLES` tables of ``tables`` (in document order, at
    block positions ``orders``) nearest to block position ``order``, those of
    the sentence's ``section`` first, then nearest first: any of them giving
    the ratio clears it, and a bounded number keeps lint linear in the
    document."""
    middle = bisect_left(orders, order)
    window = tables[max(0, middle - _MAX_TABLES):middle + _MAX_TABLES]
    return sorted(window, key=lambda t: (t.section != section, abs(t.order - order), t.order))[:_MAX_TABLES]


def _ratio_finding(document: Document, sentence: Sentence, figure: Figure, written: str, cache: dict,
                   recomputed: Container[tuple[int, str, frozenset[str]]], unit: str | None = None):
    reference = normalize(written)
    # the figure's own clause ("1.78x vs dg at 8192"), else the words that scope it ("At batch 32, ...")
    # made when first read (most ratios are settled by the first view of the nearest table)
    views = _LazyViews(sentence, figure)
    named: set[str] | None = None  # the words the ratio is about, read when a table has columns to compare
    readings: list[_Reading] = []
    tables = document.tables_by_keyword.get(stem(reference), ())
    orders = cache["orders"].get(stem(reference))
    if orders is None:
        orders = cache["orders"][stem(reference)] = [t.order for t in tables]
    near_key = (stem(reference), sentence.block.order)
    nearest = cache["nearest"].get(near_key)
    if nearest is None:  # the same for every ratio of a block against this reference
        nearest = cache["nearest"][near_key] = _nearest(tables, orders, sentence.block.order, sentence.block.section)
    for table in nearest:
        for view in views:
            rows = table.restrict(view)
            if rows and (rows != table.all_rows or len(table.rows) == 1):
                columns = cache["columns"].get(id(table))
                if columns is None:
                    columns = cache["columns"][id(table)] = _Columns.of(table)
                if named is None:
                    named = _subjects(sentence, figure)
                found = _readings(table, columns, reference, named, rows, figure,
                                  written_direction(sentence.block.text, figure, sentence.start), unit)
                if any(r.fits for r in found):
                    return None  # a table gives it (nearest first: the rest need not be read)
                readings.extend(found)
                break  # no view naming a row of this table: which row would it be?
    if not readings:
        return None
    block_order = sentence.block.order
    table = min((r.table for r in readings), key=lambda t: (abs(t.order - block_order), t.order))
    closest = sorted((r for r in readings if r.table is table), key=lambda r: abs(r.value - figure.value))
    row = table.rows[closest[0].row]
    line = sentence.line_at(figure.start)
    # the cells' figures are the ones the sentence prints: the same fault, already stated with them
    if all(r.x is not None and r.y is not None and (line, figure.text, frozenset((r.x.text, r.y.text))) in recomputed
           for r in closest[:2]):
        return None
    shown = "; ".join(r.shown(figure) for r in closest[:2])
    tables = len({id(r.table) for r in readings})
    checked = f" ({tables} tables with both columns checked, none gives it)" if tables > 1 else ""
    return (
        line,
        f"{with_unit(figure.text, 'x')} vs {written} does not follow from the table at line {table.line}: "
        f"at {row.name()}, {shown}{checked}",
        RATIO_HINT,
    )


__all__ = ["ratio_findings", "share_findings"]
