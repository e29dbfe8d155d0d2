"""Best-of claims (SG107): "GA peaks at 2.58x (N=32)", "fused leads at 3.8
GB/s", "the lowest latency is int8's 4.1 ms", when another row of the
column the figure comes from beats it.

A superlative is a universal comparison with a figure: the row it quotes is
claimed larger (or smaller, or better) than every other row of a set. A
clause (split as SG107 splits them) is read when it holds

- one superlative word (:mod:`.best_wording`): "peak(s)", "maximum",
  "highest", "largest" (the largest figure), "minimum", "lowest",
  "smallest" (the smallest), "best", "fastest", "leads", "worst", "slowest"
  (the better or worse for the column's kind: a smaller time, size or
  perplexity, a larger throughput, AP or speedup; a column of no known kind
  is not read for these, nor "fastest" or "slowest" for a column of no time,
  rate or speedup: "the fastest variant uses 2.1 GB"), said of the quoted row
  over the column's rows (:func:`.best_wording.predicated`: "X is the
  fastest", "X peaks", "the fastest is X", "X's best", not "X trails the
  fastest", "the best trade-off", "the largest model");
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
N. The address of a peak restricts its rows too, except where it names a
column that varies and is a sweep (numeric labels: "(N=32)", "at batch
64") or the only one that varies ("striped peaks at 433 on the L4"): "fp16
peaks at 2,480 img/s on the A100", over GPUs and batches, is a claim over
the A100's fp16 rows. For a winner ("leads", "is the fastest", "the highest
throughput is vLLM's") the column of the subject varies (the one column
whose label the clause names is the figure's own) and every other column
stays at the figure's row (the same conditions), unless the table has one
label column that the clause names no other label of ("fp16 is the fastest
after int8" is no claim over every row), or it says one thing per subject
label (:func:`_attributes`: the TensorRT release each GPU's job ran, not a
batch): that one varies with the subject ("The RTX 3080 is the fastest GPU"
ranks every GPU at the figure's batch, whatever release each ran). A
variant's header inside the superlative's phrase ("the lowest int8 time",
"the fastest fp16 GPU") names the column ranked, not the subject. A winner named by a column's
header rather than a row's label ("fp32 is the fastest at 0.1536 ms" over
a row per GPU and shape and a column per variant, "On the L4, llama-8b
leads" over models as columns) ranks the cells of the figure's row, once
every test here has passed: :mod:`.best_columns` reads it.

Only claims framed in plain words are read: what stands before a comma
ahead of the superlative, and what follows a figure quoted after it (past
an address "on ..." or in parentheses, which may name any place), must be
the table's labels and header words, numbers and plain prepositions ("On
the A100, ...", "... at batch 64 for resnet50"); "Before quantization,
...", "For accuracy-critical work, ...", "... that keeps full accuracy",
"... once accuracy is weighed" and a next clause "while keeping accuracy"
restrict or judge the set in words no label resolves. A word that is, its
letters and digits alone, a label no reading of the clause names
("ResNet-50" for ``resnet50``) leaves the rows meant unclear. A ratio in
"x" over a time ("normalized latency" 1.00x, 0.55x) is better smaller,
unless its header names a gain ("latency speedup").

The claim is contradicted when a row of the set holds a figure beyond the
quoted one's printed digits the other way (:func:`.ratio_direction.goes_against`,
the reading of a row against a comparison); a tie is no contradiction (two rows
may share a best). Not read: what :mod:`.best_wording` leaves (a hedged,
denied, conditioned or restricted superlative, one not said of the quoted
row), an approximate figure ("~3x", "about", "up to"), a column whose header
names each row's own extreme ("peak memory", "min (ms)", "best of 5": the
statistic of each row's runs; a mean or percentile column is ranked),
"peak/maximum" before a word naming a per-row quantity (memory, power,
bandwidth: the statistic of one run), a figure no table prints or that two
columns print, a set that the clause's words leave unresolved (a label
excluded, a sweep point the table lacks, two label columns naming the
figure's own row for a winner), and a set of one row.

Each :func:`findings` call reads a table's cells, labels and rankings once,
whatever the number of claims (:class:`_Reading`): a claim then costs a
look-up of its figure by unit and integer part and a binary search of the
ranked rows, not a pass over every row (8,000 claims over a table of 30,000
rows ran over three minutes).

A claim quoted "of any shape" or "of all runs" ranks every row of its table, and
when none beats it, the rows of the document's other tables of the same
layout and column (:mod:`.best_scope`); such a claim in a relative clause
(", which got the largest speedup of any shape ...") is read from its
pronoun. A concession after a claim ("despite ...") is cut off.

Cases: ``tests/lint/test_best_rows.py``, ``sg107_pos_best_rows.md``,
``sg107_neg_best_rows.md``, ``sg107_pos_best_wording.md``, ``sg107_neg_best_wording.md``.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left

from ..patterns import lazy_compile
from .best_columns import PER_ROW_EXTREME_RE, names_quantity, variant_columns
from .best_columns import HINT as COLUMN_HINT
from .best_columns import finding as column_finding
from .best_scope import message as scope_message
from .best_scope import claims_every, wider_rows
from .best_wording import (RELATIVE_HAVING_RE, STEMS, Best, cause_start, predicated, qualifier_end, restricted,
                           run_start, superlative, unsure)
from .document import Document, Sentence, Series, Table, is_empty_cell
from .figures import Figure
from .header_names import name_words
from .restriction import TextView, labels_named
from .ratio_direction import goes_against
from .rounding import stands_for
from .text import label_tokens, normalize, ratio_header, stem
from .variant_pairs import CLAUSE_END_RE, HIGHER_IS_BETTER, THROUGHPUT, TIME, kind_of_series, kind_of_words

_APPROXIMATE_BEFORE_RE = lazy_compile(
    r"(?:~|≈|\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|over|under|up\s+to|at\s+least|"
    r"at\s+most|more\s+than|less\s+than|above|below))\s*[*_`]*$", re.IGNORECASE)
# the figure's own row: "(N=32)", "at batch 64", "on the H100" right after it
_ADDRESS_RE = lazy_compile(r"[\s*_`]*(?:\([^()]*\)|(?:at|on|for|with|@)\b[^,;:.()]{0,40}(?:\([^()]*\))?)")
# words a clause may hold before its subject's comma and after its figure besides the table's labels and headers
_PLAIN_WORDS = frozenset({"at", "on", "for", "with", "in", "under", "using", "via", "and", "the", "a", "an", "of",
                          "by", "per", "vs", "x", "up", "to", "from", "across", "all", "every", "each", "both",
                          "overall"})
# an address naming a place or a condition whatever its words ("on GPU-X", "(depth 4)"), and a trailing clause
# that restricts nothing (", which is where we stopped tuning")
_PLACE_RE = lazy_compile(r"[\s*_`]*(?:on\b|@|\()", re.IGNORECASE)
# searched from its comma, the whitespace before it added by run_start (searched with it, each place of a run of
# spaces was a start that scanned the run)
_NONRESTRICTIVE_RE = lazy_compile(r",\s*(?:which|where)\b", re.IGNORECASE)
# the next clause qualifying this one's subject, not a clause of its own: "... at 5.6 ms while keeping accuracy"
_QUALIFYING_NEXT_RE = lazy_compile(r"\s*,?\s*(?:and|but|while|whilst|whereas)\s+[a-z]+ing\b", re.IGNORECASE)
_NUMBER_RE = lazy_compile(r"^[\d.,]+[kmx]?$")
_SQUASH_RE = lazy_compile(r"[^a-z0-9]")
# "1.92-2.58x", "8 to 32": a cell printing a range, whose ends are no row's figure
_RANGE_CELL_RE = lazy_compile(r"\d\s*(?:-|–|—|to)\s*[*_]*\d")
_SLOWDOWN_RE = lazy_compile(r"slow|overhead|regress|penalt", re.IGNORECASE)
# a ratio header naming a gain ("latency speedup", "time reduction"): larger is better whatever quantity it names
_GAIN_RE = lazy_compile(r"speed|gain|improv|faster|reduc|saving|fewer", re.IGNORECASE)
# a label naming a software version ("8.6.1", "v10.16.1"), not a point of a numeric sweep
_VERSION_RE = lazy_compile(r"^v?\d+\.\d+\.\d+")
_SPEED_WORDS = frozenset({"fastest", "quickest", "slowest"})
# a concession after the claim: what it grants ("despite ... not ...") neither hedges nor restricts the claim
_CONCESSION_RE = lazy_compile(r"\b(?:despite|in\s+spite\s+of|although|even\s+though)\b", re.IGNORECASE)
_TABLE_LIMIT = 64  # tables searched for the figure, nearest first (as many as any other claim reads)

HINT = "quote the row that is the largest (or smallest) of the rows meant, or name the rows the claim holds for"


def _want(best: Best, series: Series) -> int | None:
    """+1 when the claim says the figure is the column's largest, -1 its smallest, None when the column's
    kind does not tell which way "best" or "fastest" goes, or "fastest" is said of no time, rate or speedup."""
    if best.group in ("peak", "high"):
        return -1 if best.word.lower().startswith("minim") else 1
    if best.group == "low":
        return -1
    if series.unit == "x" or (series.unit is None and ratio_header(series.header)):
        if _SLOWDOWN_RE.search(series.header):
            better = None
        elif not _GAIN_RE.search(series.header) and kind_of_words(name_words(series.header)) == TIME:
            better = -1  # "normalized latency" 1.00x, 0.55x: a time over a baseline's, the smaller the better
        else:
            better = 1
    else:
        kind = kind_of_series(series)
        if best.word.lower() in _SPEED_WORDS and kind not in (TIME, THROUGHPUT):
            return None  # "the fastest variant uses 2.1 GB": the speed is not what the column ranks
        better = None if kind is None else 1 if kind in HIGHER_IS_BETTER else -1
    if better is None:
        return None
    return better if best.group == "better" else -better


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


def _scaled(value: float, digits: int) -> int | None:
    """``value`` times 10 to the ``digits``, to the nearest integer; None where that is no finite number."""
    try:
        scaled = value * 10 ** digits
    except OverflowError:  # 10 ** 400 is no float
        return None
    return round(scaled) if math.isfinite(scaled) else None


def _cells_at_digits(table: Table, digits: int) -> dict[str | None, dict[int | None, list[tuple[Series, int, Figure]]]]:
    """Unit -> :func:`_scaled` value -> (series, row, figure) of each finite cell of ``table`` printed to
    ``digits`` decimals or more (those that can print a figure quoted to ``digits``)."""
    index: dict = {}
    for series in table.series:
        for row, value in enumerate(series.values):
            if value is not None and value.decimals >= digits and math.isfinite(value.value):
                by_key = index.setdefault(value.unit or series.unit, {})
                by_key.setdefault(_scaled(value.value, digits), []).append((series, row, value))
    return index


def labels_by_column(table: Table) -> dict[int, list[str]]:
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


# which rows a claim ranges over: per label column, None where it varies, else the labels it is kept at
RowSet = tuple[tuple[int, frozenset[str] | None], ...]


class _Reading:
    """What one :func:`findings` call reads of the document's tables, each once however many claims ask
    (a table of 30,000 rows under 8,000 claims read every row for every claim); dropped with the call."""

    def __init__(self, document: Document):
        self.document = document
        self._nearest: dict[int, list[Table]] = {}
        self._cells: dict[tuple[int, int], dict] = {}  # (table, digits) -> _cells_at_digits
        self._labels: dict[int, dict[int, list[str]]] = {}
        self._quantities: dict[tuple[int, int], bool] = {}
        self._vocabulary: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
        self._rows: dict[tuple[int, RowSet], list[int]] = {}
        self._rankings: dict[tuple[int, RowSet, int], tuple[list[tuple[int, Figure]], list[float]]] = {}

    def nearest(self, order: int) -> list[Table]:
        """The tables searched for a figure of the prose block at ``order``: the nearest :data:`_TABLE_LIMIT`."""
        if order not in self._nearest:
            self._nearest[order] = sorted(self.document.tables, key=lambda table: abs(table.order - order))[:_TABLE_LIMIT]
        return self._nearest[order]

    def printing(self, table: Table, quoted: Figure) -> list[tuple[Series, int]]:
        """(series, row) of each cell of ``table`` that prints ``quoted`` (:func:`_printed_as`), looked up by
        unit and value at the quoted digits instead of read cell by cell (an infinite figure prints none)."""
        if not math.isfinite(quoted.value):
            return []
        digits = quoted.decimals
        index = self._cells.get((id(table), digits))
        if index is None:
            index = self._cells[(id(table), digits)] = _cells_at_digits(table, digits)
        by_key = index.get(quoted.unit, {})
        key = _scaled(quoted.value, digits)
        # a cell printing the figure rounds to it: scaled by the digits, it lies within half a unit (and a float's
        # error) of the figure's, so its key is the figure's or one beside it; the test itself decides
        keys = (None,) if key is None else (key - 1, key, key + 1, None)
        return [(series, row) for candidate in keys for series, row, value in by_key.get(candidate, ())
                if _printed_as(value, series.unit, quoted)]

    def vocabulary(self, table: Table) -> tuple[frozenset[str], frozenset[str]]:
        """(the tokens of ``table``'s labels and headers, its label values squashed to letters and digits
        ("resnet50" for "ResNet-50"), those holding a letter)."""
        key = id(table)
        if key not in self._vocabulary:
            tokens, squashed = set(), set()
            for column, values in self.labels(table).items():
                for value in set(values):
                    tokens.update(label_tokens(value))
                    if any(character.isalpha() for character in value):
                        squashed.add(_SQUASH_RE.sub("", value))
                tokens.update(label_tokens(normalize(table.headers[column])))
            for series in table.series:
                tokens.update(label_tokens(normalize(series.header)))
            self._vocabulary[key] = (frozenset(tokens), frozenset(squashed))
        return self._vocabulary[key]

    def labels(self, table: Table) -> dict[int, list[str]]:
        """:func:`_labels` of ``table``."""
        if id(table) not in self._labels:
            self._labels[id(table)] = labels_by_column(table)
        return self._labels[id(table)]

    def names_quantities(self, table: Table, column: int) -> bool:
        """True when a label of ``column`` names a quantity (:func:`_names_quantity`)."""
        key = (id(table), column)
        if key not in self._quantities:
            self._quantities[key] = any(names_quantity(label) for label in self.labels(table)[column])
        return self._quantities[key]

    def rows(self, table: Table, kept: RowSet) -> list[int]:
        """The rows of ``table`` whose labels ``kept`` keeps, in order."""
        key = (id(table), kept)
        if key not in self._rows:
            labels = self.labels(table)
            self._rows[key] = [row for row in range(len(table.rows))
                               if all(values is None or labels[column][row] in values for column, values in kept)]
        return self._rows[key]

    def ranking(self, series: Series, kept: RowSet, want: int) -> tuple[list[tuple[int, Figure]], list[float]]:
        """((row, figure) of the rows ``kept`` keeps, the most extreme the way ``want`` goes first, ties in row
        order; each one's end nearest the other rows, times ``want``, ascending: how far it reaches)."""
        key = (id(series), kept, want)
        if key not in self._rankings:
            figures = [(row, series.values[row]) for row in self.rows(series.table, kept)]
            present = [(row, value) for row, value in figures if value is not None]
            ranked = sorted(present, key=lambda pair: -want * pair[1].value)
            reach = sorted(want * _end(value, want) for _, value in present)
            self._rankings[key] = (ranked, reach)
        return self._rankings[key]


def _end(figure: Figure, want: int) -> float:
    """The end of the values ``figure`` stands for that lies toward the others: the low end of a larger one
    (``want`` +1), the high end of a smaller one."""
    values = stands_for(figure)
    return values.lo if want > 0 else values.hi


def _source(sentence: Sentence, figure: Figure, view: TextView, reading: _Reading) -> tuple[Series, int] | None:
    """The (series, row) printing ``figure``: the one cell of the document's tables that prints it, or the
    one of them in a row the clause names; None when none, or cells of two columns or rows, are left."""
    cells = [(series, row) for table in reading.nearest(sentence.block.order)
             for series, row in reading.printing(table, figure)
             if not _RANGE_CELL_RE.search(table.rows[row].cells[series.column])]
    if len(cells) > 1:
        named = []
        named_rows: dict[int, frozenset[int]] = {}  # per table: the rows the clause names, as a set (many cells)
        for series, row in cells:
            table = series.table
            if id(table) not in named_rows:
                rows = table.restrict(view)
                named_rows[id(table)] = frozenset(rows if rows is not None and len(rows) < len(table.rows) else ())
            if row in named_rows[id(table)]:
                named.append((series, row))
        cells = named
    return cells[0] if len(cells) == 1 else None


def _rows_meant(table: Table, row: int, best: Best, named: dict[int, set[str]], reading: _Reading,
                every: bool = False) -> RowSet | None:
    """The rows a claim about row ``row`` ranges over (see the module's docstring), None when unclear; a winner
    claimed over ``every`` row ("the largest speedup of any shape") ranks all of them when it names none."""
    labels = reading.labels(table)
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
            varying = set(subject) | _attributes(table, subject[0], set(named), labels)
        elif (len(labels) == 1 or every) and not named:
            varying = set(labels)
        else:
            return None  # the winner's column names other rows too ("fp16 is the fastest after int8")
    if any(reading.names_quantities(table, column) for column in varying):
        return None  # rows of several quantities ("mean latency", "p95 latency"): no one column to rank
    return tuple((column, None if column in varying else frozenset(named.get(column, {own[column]})))
                 for column in labels)


def _attributes(table: Table, subject: int, named: set[int], labels: dict[int, list[str]]) -> set[int]:
    """The label columns other than ``subject`` that say one thing per subject label across ``table`` (the
    TensorRT version of each GPU's job): they vary with the subject, so "X is the fastest GPU" ranks every
    GPU whatever version each ran; a column the clause names, or of numbers (a batch: a sweep point the
    claim keeps; a version of several dots, "8.6.1", is no number), is never one."""
    attributes = set()
    for column, values in labels.items():
        if column == subject or column in named or (
                column in table.numeric_labels and not any(_VERSION_RE.match(value) for value in values)):
            continue
        seen: dict[str, str] = {}
        if all(seen.setdefault(key, value) == value for key, value in zip(labels[subject], values)):
            attributes.add(column)
    return attributes


def _beaten(series: Series, figure: Figure, want: int, kept: RowSet,
            reading: _Reading) -> tuple[list[tuple[int, Figure]], int]:
    """(the first three, the count) of the rows ``kept`` keeps whose figure is beyond ``figure``'s printed
    digits the way ``want`` says the quoted one should be (a larger one for +1), largest excess first."""
    ranked, reach = reading.ranking(series, kept, want)
    ahead = want * _end(figure, -want)  # how far the quoted figure reaches toward them
    # (the row printing the figure stands for values within its digits, never beyond them: it is never counted)
    count = len(reach) - bisect_left(reach, ahead)
    shown = []
    for other, value in ranked:
        if len(shown) == 3 or want * value.value < ahead:
            break  # the rest stand for nothing beyond the quoted figure
        if goes_against(figure, value, want):
            shown.append((other, value))
    return shown, count


def findings(document: Document) -> list[tuple[int, str, str]]:
    """(line, message, hint) of each best-of claim a row of its column contradicts."""
    found = []
    reading = _Reading(document)
    for block in document.prose:
        if not block.has_digits or not any(stem in block.lowered for stem in STEMS):
            continue
        text = block.text
        for sentence in block.sentences:
            if restricted(text[sentence.start:sentence.end]):
                continue  # "among fp16 and fp32", "of the float variants": a set no label names
            bounds, start = [], sentence.start
            for match in CLAUSE_END_RE.finditer(text, sentence.start, sentence.end):
                bounds.append((start, match.start()))
                start = match.end()
            bounds.append((start, sentence.end))
            for start, end in bounds:
                finding = _clause_finding(document, sentence, start, end, reading)
                if finding is not None:
                    found.append(finding)
    return found


def _claims_every(sentence: Sentence, start: int, end: int) -> bool:
    """True when the clause ``start:end`` holds a superlative claimed over every row ("of any shape") before
    its one quoted figure (:func:`.best_scope.claims_every`)."""
    text = sentence.block.text
    best, figure = superlative(text, start, end), _quoted(sentence, start, end)
    return best is not None and figure is not None and claims_every(text, best.end, figure.start) is not None


def _plain(text: str, table: Table, reading: _Reading) -> bool:
    """True when every word of ``text`` is a label or header word of ``table``, a number or a plain preposition
    ("on the A100", "at batch 64 for resnet50", "(N=32)")."""
    vocabulary = reading.vocabulary(table)[0]
    return all(token in _PLAIN_WORDS or token in vocabulary or stem(token) in vocabulary or _NUMBER_RE.match(token)
               for token in label_tokens(normalize(text)))


def _plain_frame(text: str, start: int, end: int, best: Best, figure: Figure, cut: int, table: Table,
                 reading: _Reading) -> bool:
    """True when nothing around the claim restricts or judges the rows it ranks: what stands before a comma
    ahead of the superlative ("Before quantization, ...", "For accuracy-critical work, ...") and what follows a
    figure quoted after the superlative ("... that keeps full accuracy", "... once accuracy is weighed") hold
    only plain words (:func:`_plain`), and no next clause qualifies it ("... while keeping full accuracy"); an
    address "on ..." or in parentheses (ending at ``cut``) is a place whatever it names, and ", which ..." after
    it restricts nothing."""
    comma = text.rfind(",", start, best.start)
    if comma != -1 and not _plain(text[start:comma], table, reading):
        return False
    if _QUALIFYING_NEXT_RE.match(text, end):
        return False
    if figure.start < best.end:
        return True
    after = cut if _PLACE_RE.match(text, figure.end, cut) else figure.end
    if (clause := _NONRESTRICTIVE_RE.search(text, after, end)) is not None:
        end = run_start(text, clause.start(), after, commas=False)
    if (cause := cause_start(text, after, end)) is not None:
        end = cause  # "... (8.40 ms) due to the GPU backend": a reason, no restriction
    return _plain(text[after:end], table, reading)


def _unnamed_label(text: str, readings: list[dict[int, set[str]]], table: Table, reading: _Reading) -> bool:
    """True when a word of ``text`` is, letters and digits alone, a label of ``table`` that none of the labels
    ``readings`` found names ("ResNet-50" for ``resnet50``): a row the clause means that the reading missed."""
    squashed = reading.vocabulary(table)[1]
    if not squashed:
        return False
    words = {_SQUASH_RE.sub("", word) for word in text.lower().split()}
    named_values = {_SQUASH_RE.sub("", value) for named in readings for values in named.values() for value in values}
    return not (words & squashed).issubset(named_values)


def _clause_finding(document: Document, sentence: Sentence, start: int, end: int,
                    reading: _Reading) -> tuple[int, str, str] | None:
    text = sentence.block.text
    colon = text.rfind(":", start, end)
    if colon != -1 and superlative(text, colon, end) is not None:
        start = colon + 1  # "Peak performance: GA peaks at 2.58x": the lead-in names the topic, the rest claims
    if (concession := _CONCESSION_RE.search(text, start, end)) and _claims_every(sentence, start, concession.start()):
        end = concession.start()  # "... of any shape (5.81x) despite TVM not being slow there": a concession after
        # a claim over every row hedges nothing (one elsewhere may grant an exception: "although not on the A100")
    best = superlative(text, start, end)
    if best is not None and (relative := RELATIVE_HAVING_RE.search(text, start, best.start)) is not None \
            and _claims_every(sentence, relative.end(), end):
        start = relative.end()  # "the strided case (...), which got the largest speedup of any shape (5.81x)":
        # the relative clause claims it over every row, so the words before it (its row) restrict nothing
    if best is None or unsure(text, start, end):
        return None
    figure = _quoted(sentence, start, end)
    if figure is None:
        return None
    address = _ADDRESS_RE.match(text, figure.end, end)
    cut = address.end() if address is not None else figure.end
    vocab = (document.label_vocab, document.multiword_labels, document.label_parts)
    whole = TextView(text[start:end], *vocab)
    source = _source(sentence, figure, whole, reading)
    if source is None:
        return None
    series, row = source
    if PER_ROW_EXTREME_RE.search(series.header):
        return None  # "peak memory" over a "Peak memory" column, a "min (ms)" column: each row's own extreme
    want = _want(best, series)
    if want is None or not predicated(text, start, end, best, series):
        return None
    table = series.table
    if not _plain_frame(text, start, end, best, figure, cut, table, reading):
        return None
    # "fp32 is the fastest at 0.1536 ms", "On the L4, llama-8b leads": a winner named by a column's header ranks
    # the cells of the figure's row (:mod:`.best_columns`), not the column's rows
    # (a variant header inside the superlative's own phrase, "the lowest int8 time", "the fastest fp16 GPU",
    # names the column ranked down its rows, not the subject: what the rest of the clause names is)
    phrase_end = qualifier_end(text, best, end, series)
    across = [] if best.peak else variant_columns(normalize(f"{text[start:best.start]} {text[phrase_end:end]}"),
                                                  table)
    rest = TextView(f"{text[start:figure.start]} {text[cut:end]}", *vocab)
    named = labels_named(table, rest)
    if named is None:
        return None
    addressed = {} if address is None else labels_named(table, TextView(address.group(0), *vocab))
    if addressed is None or _unnamed_label(text[start:end], [named, addressed], table, reading):
        return None  # "ResNet-50" for the label resnet50: the rows meant are unclear
    claim = " ".join(text[start:end].split()).rstrip(".")
    if across:
        labels = reading.labels(table)
        if any(labels[column][row] not in wanted for restriction in (named, addressed)
               for column, wanted in restriction.items() if column in labels):
            return None  # the rows the clause names leave out the figure's own
        message = column_finding(claim, series, row, figure, want, across)
        return None if message is None else (sentence.line_at(best.start), message, COLUMN_HINT)
    if best.peak:
        for column, values in addressed.items():
            # "GA peaks at 2.58x (N=32)", "striped peaks at 433 on the L4" (the GPU alone varies): a sweep point
            # of a column that varies, or a label of the one column that varies, says where the peak lies;
            # "fp16 peaks at 2,480 img/s on the A100" (GPU and batch vary): any other label restricts the rows
            if column in named or column in table.numeric_labels or set(reading.labels(table)) - set(named) == {
                    column}:
                continue  # (a point within the rows the rest names: "Up to batch 8, ... at batch 1")
            named[column] = set(values)
    every = claims_every(text, best.end, figure.start)
    kept = _rows_meant(series.table, row, best, named, reading, every is not None)
    if kept is None:
        return None  # (the rows meant always hold the figure's own: one row alone has no other to beat it)
    beaten, count = _beaten(series, figure, want, kept, reading)
    if not beaten:  # "the largest speedup of any shape so far (5.81x)": an earlier table of that column may beat it
        wider = [] if best.peak or every is None else wider_rows(document, sentence, every, end, series, figure, want)
        return (sentence.line_at(best.start), scope_message(claim, series, row, wider, want), HINT) if wider else None
    extreme = "largest" if want > 0 else "smallest"
    shown = "; ".join(f"{table.rows[other].name()} has {value.text}" for other, value in beaten)
    more = f" and {count - len(beaten)} more" if count > len(beaten) else ""
    rows = len(reading.rows(table, kept))
    message = (f"'{claim}' names {table.rows[row].name()} the {extreme} '{series.header}' of {rows} rows of the "
               f"table at line {table.line}, but {shown}{more}")
    return sentence.line_at(best.start), message, HINT


__all__ = ["findings", "labels_by_column"]
