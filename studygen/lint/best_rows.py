"""Best-of claims (SG107): "GA peaks at 2.58x (N=32)", "fused leads at 3.8
GB/s", "the lowest latency is int8's 4.1 ms", when another row of the
column the figure comes from beats it.

A superlative is a universal comparison with a figure: the row it quotes is
claimed larger (or smaller, or better) than every other row of a set. A
clause (split as SG107 splits them) is read when it holds

- one superlative word: "peak(s)", "maximum", "highest", "largest" (the
  largest figure), "minimum", "lowest", "smallest" (the smallest), "best",
  "fastest", "leads", "worst", "slowest" (the better or worse for the
  column's kind: a smaller time, size or perplexity, a larger throughput,
  AP or speedup; a column of no known kind is not read for these);
- exactly one figure with a unit, printed in exactly one column of the
  document's tables (the ends of a range cell are no printed figure), in one
  row of it, or in one of the rows the clause names.

The set of rows is read from the clause's words, its *address* left out:
the parenthesis or the "at/on/for/with ..." right after the figure, which
says where the figure was measured ("2.58x (N=32)"). A label column the rest
names is restricted to the labels it names ("GA" names every GA row,
"N <= 32" the rows of 8, 16 and 32). For a peak ("peaks", "peak",
"maximum", "minimum", or a superlative after a possessive: "GA's highest",
"its best") the subject stays fixed and every column the clause does not
name varies: "GA peaks at 2.58x (N=32)" is a claim over the GA rows of every
N. For a winner ("leads", "is the fastest", "the highest throughput is
vLLM's") the column of the subject varies (the one column whose label the
clause names is the figure's own) and every other column stays at the
figure's row (the same conditions), unless the table has one label column.

The claim is contradicted when a row of the set holds a figure beyond the
quoted one's printed digits the other way (:func:`.ratio_direction.goes_against`,
the reading of a row against a comparison); a tie is no contradiction (two rows
may share a best). Not read: a hedged superlative ("one of the fastest",
"among the best", "near the peak", "second-best", "at best"), a clause that
denies or conditions it ("not", "if", "when", "can"), an approximate figure
("~3x", "about", "up to"), a superlative that the column's own header
holds ("peak memory" over a ``Peak memory`` column: each row's own
statistic), "peak/maximum" before a word naming a per-row quantity
(memory, power, bandwidth: the statistic of one run), a figure no table
prints or that two columns print, a set that the clause's words leave
unresolved (a label excluded, a sweep point the table lacks, two label
columns naming the figure's own row for a winner), and a set of one row.

Cases: ``tests/lint/test_best_rows.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..patterns import lazy_compile
from .document import Document, Sentence, Series, Table, is_empty_cell
from .figures import Figure, statistic_of
from .restriction import TextView, labels_named
from .ratio_direction import goes_against
from .text import label_tokens, normalize, ratio_header, stem
from .variant_pairs import CLAUSE_END_RE, HIGHER_IS_BETTER, QUANTITY_WORDS, kind_of_series

# group: peak (the largest, subject fixed), high / low (the largest / smallest), better / worse (by kind)
SUPERLATIVE_RE = lazy_compile(
    r"\b(?:(?P<peak>peak(?:s|ed|ing)?|maximum|minimum)"
    r"|(?P<high>highest|largest|biggest)|(?P<low>lowest|smallest|fewest)"
    r"|(?P<better>best|fastest|quickest|leads?(?!\s+to\b))|(?P<worse>worst|slowest))\b",
    re.IGNORECASE,
)
# words every match of SUPERLATIVE_RE holds (lower case): a block without one is not searched
_STEMS = ("peak", "maximum", "minimum", "highest", "largest", "biggest", "lowest", "smallest", "fewest", "best",
          "fastest", "quickest", "lead", "worst", "slowest")
# "one of the fastest", "among the best", "near the peak", "second-best", "next-best", "close to its maximum"
_HEDGE_BEFORE_RE = lazy_compile(
    r"\b(?:one\s+of|among|amongst|near|nearly|almost|close\s+to|second|third|next|not|never|arguably|"
    r"approaching|below|under|within)\s+(?:(?:the|its|their|his|her|a)\s+)?(?:[\w-]+\s+)?[-\s]?$",
    re.IGNORECASE)
_HEDGE_AFTER_RE = lazy_compile(r"^(?:[-\s]*(?:of\b|case\b|practice|effort|known|ever|possible|-?in-class))",
                               re.IGNORECASE)
_IDIOM_BEFORE_RE = lazy_compile(r"\bat\s+(?:its\s+|their\s+)?$|\b(?:second|third|next|co)-$", re.IGNORECASE)
# a clause that denies, conditions or hedges what it says
_UNSURE_RE = lazy_compile(
    r"\b(?:not|never|no|nor|if|when|whenever|unless|can|could|may|might|would|should|likely|probably|"
    r"perhaps|expected|typically|usually|often|sometimes|theoretical(?:ly)?)\b|n't\b", re.IGNORECASE)
# "peak memory of 68 GB", "maximum power": each run's own statistic, not the largest row
_PER_RUN_AFTER_RE = lazy_compile(
    r"^[\s*_]*(?:gpu\s+|host\s+|device\s+|resident\s+)?(?:memory|mem|vram|ram|rss|usage|allocat\w*|footprint|power|"
    r"temperature|temp|bandwidth|bw|flops|tflops|tops|clock|context|batch|sequence|length|tokens|lr|learning)\b",
    re.IGNORECASE)
_APPROXIMATE_BEFORE_RE = lazy_compile(
    r"(?:~|≈|\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|over|under|up\s+to|at\s+least|"
    r"at\s+most|more\s+than|less\s+than|above|below))\s*[*_`]*$", re.IGNORECASE)
# the figure's own row: "(N=32)", "at batch 64", "on the H100" right after it
_ADDRESS_RE = lazy_compile(r"[\s*_`]*(?:\([^()]*\)|(?:at|on|for|with|@)\b[^,;:.()]{0,40})")
_POSSESSIVE_BEFORE_RE = lazy_compile(r"(?:'s|’s|\b(?:its|their))\s+$", re.IGNORECASE)
# "1.92-2.58x", "8 to 32": a cell printing a range, whose ends are no row's figure
_RANGE_CELL_RE = lazy_compile(r"\d\s*(?:-|–|—|to)\s*[*_]*\d")
_SLOWDOWN_RE = lazy_compile(r"slow|overhead|regress|penalt", re.IGNORECASE)
_TABLE_LIMIT = 64  # tables searched for the figure, nearest first (as many as any other claim reads)

HINT = "quote the row that is the largest (or smallest) of the rows meant, or name the rows the claim holds for"


@dataclass(frozen=True)
class Best:
    """A best-of claim read from a clause: ``word`` as written, ``want`` +1 when the quoted figure must be
    the largest, -1 the smallest; ``peak`` True when the subject stays fixed (a peak, a possessive)."""

    word: str
    group: str
    start: int
    peak: bool


def _want(best: Best, series: Series) -> int | None:
    """+1 when the claim says the figure is the column's largest, -1 its smallest, None when the column's
    kind does not tell which way "best" or "fastest" goes."""
    if best.group in ("peak", "high"):
        return -1 if best.word.lower().startswith("minim") else 1
    if best.group == "low":
        return -1
    if series.unit == "x" or (series.unit is None and ratio_header(series.header)):
        better = None if _SLOWDOWN_RE.search(series.header) else 1
    else:
        kind = kind_of_series(series)
        better = None if kind is None else 1 if kind in HIGHER_IS_BETTER else -1
    if better is None:
        return None
    return better if best.group == "better" else -better


def _superlative(text: str, start: int, end: int) -> Best | None:
    """The one unhedged superlative of ``text[start:end]``; None for none, a hedged one, or two."""
    found = []
    for match in SUPERLATIVE_RE.finditer(text, start, end):
        before, after = text[max(start, match.start() - 40):match.start()], text[match.end():end]
        if _HEDGE_BEFORE_RE.search(before) or _IDIOM_BEFORE_RE.search(before) or _HEDGE_AFTER_RE.match(after):
            return None
        group = match.lastgroup
        if group == "peak" and _PER_RUN_AFTER_RE.match(after):
            return None
        peak = group == "peak" or _POSSESSIVE_BEFORE_RE.search(before) is not None
        found.append(Best(match.group(0), group, match.start(), peak))
    return found[0] if len(found) == 1 else None


def _quoted(sentence: Sentence, start: int, end: int) -> Figure | None:
    """The clause's one figure with a unit (no range end), None for none or several or an approximate one."""
    text = sentence.block.text
    ends = sentence.range_ends
    figures = [t.figure for t in sentence.tokens if t.figure is not None and start <= t.start < end
               and t.figure.unit is not None and t.start not in ends]
    if len(figures) != 1:
        return None
    figure = figures[0]
    if _APPROXIMATE_BEFORE_RE.search(text, max(start, figure.start - 20), figure.start):
        return None
    return figure


def _printed_as(cell: Figure, unit: str | None, quoted: Figure) -> bool:
    """True when table cell ``cell`` of a column in ``unit`` prints ``quoted`` (to the quoted digits, in its
    unit: the cell's own, else the column's)."""
    return ((cell.unit or unit) == quoted.unit and cell.decimals >= quoted.decimals
            and abs(round(cell.value, quoted.decimals) - quoted.value) < quoted.half_step / 10)


def _source(document: Document, sentence: Sentence, figure: Figure, view: TextView) -> tuple[Series, int] | None:
    """The (series, row) printing ``figure``: the one cell of the document's tables that prints it, or the
    one of them in a row the clause names; None when none, or cells of two columns or rows, are left."""
    order = sentence.block.order
    tables = sorted(document.tables, key=lambda table: abs(table.order - order))[:_TABLE_LIMIT]
    cells = [(series, row) for table in tables for series in table.series
             for row, value in enumerate(series.values) if value is not None and _printed_as(value, series.unit, figure)
             and not _RANGE_CELL_RE.search(table.rows[row].cells[series.column])]
    if len(cells) > 1:
        named = []
        for series, row in cells:
            rows = series.table.restrict(view)
            if rows is not None and len(rows) < len(series.table.rows) and row in rows:
                named.append((series, row))
        cells = named
    return cells[0] if len(cells) == 1 else None


def _labels(table: Table) -> dict[int, list[str]]:
    """Label column -> each row's normalised label in it; an empty first label cell beside other label
    cells continues the label above (as :attr:`.document.Row.label` reads it)."""
    by_column = {}
    for position, column in enumerate(table.label_columns):
        values, above = [], ""
        for row in table.rows:
            cell = row.cells[column]
            if is_empty_cell(cell):
                values.append(above if position == 0 and len(table.label_columns) > 1 else "")
            else:
                above = normalize(cell)
                values.append(above)
        by_column[column] = values
    return by_column


def _names_quantity(label: str) -> bool:
    """True for a row label that names a quantity or a statistic ("mean latency", "p95", "throughput")."""
    return any(token in QUANTITY_WORDS or stem(token) in QUANTITY_WORDS or statistic_of(token) is not None
               for token in label_tokens(label))


def _rows_meant(table: Table, row: int, best: Best, named: dict[int, set[str]]) -> list[int] | None:
    """The rows a claim about row ``row`` ranges over (see the module's docstring), None when unclear."""
    labels = _labels(table)
    own = {column: values[row] for column, values in labels.items()}
    if any(own[column] not in wanted for column, wanted in named.items() if column in own):
        return None  # the rows the clause names leave out the figure's own
    varying: set[int]
    if best.peak:
        varying = set(labels) - set(named)
    else:
        subject = [column for column, wanted in named.items() if wanted == {own.get(column)}]
        if len(subject) > 1:
            return None  # two columns name the figure's own row: which one the claim ranges over is unclear
        if subject:
            varying = set(subject)
        elif len(labels) == 1:
            varying = set(labels)
        else:
            return None
    if any(_names_quantity(labels[column][other]) for column in varying for other in range(len(table.rows))):
        return None  # rows of several quantities ("mean latency", "p95 latency"): no one column to rank

    def kept(other: int, column: int) -> bool:
        value = labels[column][other]
        if column in varying:
            return True
        return value in named[column] if column in named else value == own[column]

    return [other for other in range(len(table.rows)) if all(kept(other, column) for column in labels)]


def _beaten(series: Series, row: int, figure: Figure, want: int, rows: list[int]) -> list[tuple[int, Figure]]:
    """(row, figure) of each row of ``rows`` whose figure is beyond ``figure``'s printed digits the way
    ``want`` says the quoted one should be (a larger one for +1), largest excess first."""
    found = [(other, series.values[other]) for other in rows
             if other != row and series.values[other] is not None and goes_against(figure, series.values[other], want)]
    found.sort(key=lambda pair: -want * pair[1].value)
    return found


def findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each best-of claim a row of its column contradicts."""
    found = []
    for block in document.prose:
        if not block.has_digits or not any(stem in block.lowered for stem in _STEMS):
            continue
        text = block.text
        for sentence in block.sentences:
            bounds, start = [], sentence.start
            for match in CLAUSE_END_RE.finditer(text, sentence.start, sentence.end):
                bounds.append((start, match.start()))
                start = match.end()
            bounds.append((start, sentence.end))
            for start, end in bounds:
                finding = _clause_finding(document, sentence, start, end)
                if finding is not None:
                    found.append(finding)
    return found


def _clause_finding(document: Document, sentence: Sentence, start: int, end: int) -> tuple[int, str, str] | None:
    text = sentence.block.text
    colon = text.rfind(":", start, end)
    if colon != -1 and SUPERLATIVE_RE.search(text, colon, end):
        start = colon + 1  # "Peak performance: GA peaks at 2.58x": the lead-in names the topic, the rest claims
    best = _superlative(text, start, end)
    if best is None or _UNSURE_RE.search(text, start, end):
        return None
    figure = _quoted(sentence, start, end)
    if figure is None:
        return None
    address = _ADDRESS_RE.match(text, figure.end, end)
    cut = address.end() if address is not None else figure.end
    vocab = (document.label_vocab, document.multiword_labels, document.label_parts)
    whole = TextView(text[start:end], *vocab)
    source = _source(document, sentence, figure, whole)
    if source is None:
        return None
    series, row = source
    if best.word.lower().rstrip("s") in series.header.lower():
        return None  # "peak memory" over a "Peak memory" column: each row's own statistic
    want = _want(best, series)
    if want is None:
        return None
    rest = TextView(f"{text[start:figure.start]} {text[cut:end]}", *vocab)
    named = labels_named(series.table, rest)
    if named is None:
        return None
    rows = _rows_meant(series.table, row, best, named)
    if rows is None:
        return None  # (the rows meant always hold the figure's own: one row alone has no other to beat it)
    beaten = _beaten(series, row, figure, want, rows)
    if not beaten:
        return None
    table = series.table
    claim = " ".join(text[start:end].split()).rstrip(".")
    extreme = "largest" if want > 0 else "smallest"
    shown = "; ".join(f"{table.rows[other].name()} has {value.text}" for other, value in beaten[:3])
    more = f" and {len(beaten) - 3} more" if len(beaten) > 3 else ""
    message = (f"'{claim}' names {table.rows[row].name()} the {extreme} '{series.header}' of {len(rows)} rows of the "
               f"table at line {table.line}, but {shown}{more}")
    return sentence.line_at(best.start), message, HINT


__all__ = ["SUPERLATIVE_RE", "findings"]
