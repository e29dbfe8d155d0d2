"""Figures of two named things paired across all of a document's tables
(SG107 universal comparisons, SG103 ratios).

A study README may print each variant in a table of its own (the generic
template does, one table per way of timing), one table per GPU or per shape,
or its variants as the rows of a transposed table (``| Variant | A100 (ms) |
H100 (ms) |``). "int8 is faster than fp16 on every GPU" is then backed by no
single table, and :mod:`studygen.lint.variant_pairs` ties it to none. This
module reads every table at once:

- **Cells.** Every figure of a measured column (a time, size, throughput or
  quality column, :func:`~studygen.lint.variant_pairs.kind_of_series`; a
  column of no unit and no kind takes the kind its row's first label names,
  "Latency (ms)" in a metric-per-row table, else the one the heading over its
  table names) is a :class:`Cell` with its
  coordinates: the label cells of its row keyed by their column's header
  (``GPU``: ``rtx4090``; an empty first label cell continues the one above),
  its column's header words and unit, the headings above its table and the
  line right above the table when that line leads into it (it ends with ":",
  or it is a caption of 12 words at most that ends no sentence).
- **Names.** A label cell names a thing by its words (vendor words opening
  it left out; a label without a letter names nothing); a column by its
  header words (quantity and statistic words, and words every such column of
  the document shares, left out: ``fp16`` of ``TRT fp16 latency (ms)``); the
  nearest heading and a short lead-in line by each phrase of up to three of
  their words (quantity and filler words left out). A cell's own label or
  column outranks the lines above its table: a table under "FP16 vs INT8"
  with an ``int8`` row holds int8 only.
- **Sides.** :func:`sides` reads the reference (Y) right after "than",
  "vs", "over" … and the subject (X) among the names before the comparison,
  named the way Y is somewhere (both columns, both labels of one column, both
  parts of headings), the nearest to the comparison first (vendor words
  opening the reference left out, as in a label). A clause naming no
  reference is read against the one other thing named the way its subject
  is, when there is exactly one ("int8 is 2.05x faster on the laptop GPU" in
  a document of fp16 and int8).
- **Pairs.** An X cell and a Y cell pair when every other coordinate is the
  same: the same label columns holding the same labels, the same column
  words and unit, the same headings and (when both tables have one) lead-in
  line, the words naming X and Y left out (:func:`join`). Two cells of one
  side with the same coordinates make the pairing unclear, and so do pairs
  in columns told apart by a statistic (p50, p99). The rows a clause names
  (:meth:`~studygen.lint.document.Table.restrict`, the words naming the two
  sides left out: they say what is compared, not which rows) bound both
  sides, and the :data:`TABLE_LIMIT` tables of each side nearest the clause
  are read: those of its own section when both sides have figures there,
  else those under its top heading, else all (:func:`pick`).
- **Ranges.** A cell holding a range of values ("1.398 to 1.458 (2 jobs:
  a, b)", its ends kept in the column's
  :attr:`~studygen.lint.document.Series.spans`) is a cell only for a reader
  that asks for ``ranges``: SG107, for which a claim about every row must
  hold at both ends. Its ``figure`` is then its low end and :attr:`Cell.ends`
  gives both; SG103's reader across tables (:mod:`.joined_ratios`) asks for
  none, so that it computes no ratio from a range (the one-table readers read
  a range over all of it: :mod:`.range_operands`).

:mod:`.join_messages` says what keeps two cells apart, for a finding about
a claim that compares figures of two GPUs as if of two variants.
"""

from __future__ import annotations

from typing import NamedTuple

from ..label_names import VENDOR_WORDS
from .document import Document, Series, Table, is_empty_cell
from .figures import RATIO_UNITS, Figure, statistic_of
from .header_names import name_words, prose_words, short_mention_ok, short_names
from .restriction import TextView
from .table_windows import TableSet, named_tables, nearest_window, section_tables, top_tables
from .text import label_tokens, normalize
from .variant_pairs import QUANTITY_WORDS, kind_of_series, kind_of_words

COLUMN, HEADING, LEAD_IN = "column", "heading", "lead-in"
# words that name no thing in a heading or a lead-in line
_FILLER = frozenset({"the", "a", "an", "of", "for", "in", "on", "at", "with", "and", "vs", "result", "table"})
_LEAD_IN_WORDS = 12  # a line above a table of at most this many words, ending no sentence, is its caption
_PHRASE_WORDS = 3  # the longest phrase of a heading or a lead-in line read as a name
# The most tables on each side a claim is paired across, nearest first: far past any hand-written document,
# and a bound keeps lint linear on generated ones (as variant_pairs.CANDIDATE_LIMIT)
TABLE_LIMIT = 64

Name = tuple[str, ...]


class Scope:
    """What the lines above a table say: the words of each heading (nearest
    first) and of its lead-in line (None when it has none), and the names
    they hold (name -> ``HEADING`` or ``LEAD_IN``); ``heading_name`` the
    nearest heading's naming words, whole. Set once: nothing assigns its
    fields (a plain class: a dataclass's generated methods cost each process
    a compile when this module is imported)."""

    __slots__ = ("headings", "lead_in", "names", "heading_name")

    def __init__(self, headings: tuple[Name, ...], lead_in: Name | None, names: dict[Name, str], heading_name: Name = ()):
        self.headings, self.lead_in, self.names, self.heading_name = headings, lead_in, names, heading_name


class Cell:
    """One figure of a measured column with its coordinates (see the module
    docstring): ``labels`` (label column's header, label as one word) and
    ``label_words`` (each label's words) of its row's label columns;
    ``column`` the header's words (its closing unit left out, the figure's
    position added in a cell of several); ``scope`` the lines above its table.
    Set once, as :class:`Scope`."""

    __slots__ = ("table", "series", "row", "figure", "labels", "label_words", "column", "scope")

    def __init__(self, table: Table, series: Series, row: int, figure: Figure, labels: tuple[tuple[str, str], ...],
                 label_words: tuple[Name, ...], column: Name, scope: Scope):
        self.table, self.series, self.row, self.figure = table, series, row, figure
        self.labels, self.label_words, self.column, self.scope = labels, label_words, column, scope

    def own_names(self, common: frozenset[str]) -> list[tuple[str, Name]]:
        """(slot, name) of its labels (slot: their column's header) and its column (``COLUMN``)."""
        found = [(key, words) for (key, _), words in zip(self.labels, self.label_words) if _names_a_thing(words)]
        column = _column_name(self.column, common)
        return found + [(COLUMN, column)] if column else found

    def side(self, named: "Sides", common: frozenset[str]) -> int | None:
        """0 when the cell holds ``named.x``, 1 when ``named.y``, None for neither or both."""
        own = {name for _, name in self.own_names(common)}
        held = (named.x in own, named.y in own)
        if not any(held):
            held = (named.x in self.scope.names, named.y in self.scope.names)
        return held.index(True) if held.count(True) == 1 else None

    @property
    def line(self) -> int:
        return self.table.rows[self.row].line

    @property
    def ends(self) -> tuple[Figure, ...]:
        """The cell's figure, or both ends of a cell holding a range (whose ``figure`` is its low end)."""
        return self.series.ends(self.row)


def _names_a_thing(words: Name) -> bool:
    # a label without a letter ("8") names no thing: a number names a row only with its column's word
    return any(c.isalpha() for word in words for c in word)


def naming_words(words: Name) -> Name:
    """The words of a heading or a lead-in line that may name a thing (quantity and filler words left out)."""
    return tuple(w for w in words if w not in QUANTITY_WORDS and w not in _FILLER and statistic_of(w) is None)


def _column_name(words: Name, common: frozenset[str]) -> Name:
    return tuple(w for w in words if w not in QUANTITY_WORDS and w not in common and statistic_of(w) is None
                 and not w.startswith("#"))


def _phrases(words: Name, whole_only: bool = False) -> set[Name]:
    found = {words} if words else set()
    if not whole_only:
        found.update(words[i:i + size] for size in range(1, _PHRASE_WORDS + 1) for i in range(len(words) - size + 1))
    return found


def _scope(table: Table) -> Scope:
    headings = tuple(tuple(word for _, _, word in prose_words(h)) for h in table.headings)
    lead_in = _lead_in(table)
    names: dict[Name, str] = {}
    if lead_in is not None:
        names.update(dict.fromkeys(_phrases(naming_words(lead_in), len(lead_in) > _LEAD_IN_WORDS), LEAD_IN))
    heading_name = naming_words(headings[0]) if headings else ()
    names.update(dict.fromkeys(_phrases(heading_name), HEADING))
    return Scope(headings, lead_in, names, heading_name)


def lead_in_line(table: Table) -> str | None:
    """The line right above the table when it leads into it (see the module docstring), else None."""
    if "\n" not in table.context:
        return None
    line = table.context.split("\n", 1)[1].strip()
    caption = len(prose_words(line)) <= _LEAD_IN_WORDS and not line.endswith((".", "!", "?"))
    return line if line.endswith(":") or caption else None


def _lead_in(table: Table) -> Name | None:
    line = lead_in_line(table)
    return None if line is None else tuple(word for _, _, word in prose_words(line))


def _column_words(table: Table, series: Series) -> Name:
    words = name_words(table.headers[series.column])
    return words + (f"#{series.sub}",) if series.parts > 1 else words


def _label_words(text: str) -> Name:
    """A label cell's words, vendor words opening it left out ("GeForce RTX 4090": ``rtx``, ``4090``)."""
    if is_empty_cell(text):
        return ()
    words = list(name_words(text))
    while len(words) > 1 and words[0] in VENDOR_WORDS:
        words.pop(0)
    return tuple(words)


def _canonical(words: Name) -> str:
    """One word for a label: "RTX 4090", "rtx-4090" and "RTX4090" alike (two numbers stay parted)."""
    joined = ""
    for word in words:
        joined += " " + word if joined and joined[-1].isdigit() and word[0].isdigit() else word
    return joined


def label_cells(table: Table, row: int) -> list[str]:
    """The row's label cells, an empty first one beside others continuing the nearest one above."""
    cells = [table.rows[row].cells[c] for c in table.label_columns]
    if len(cells) > 1 and is_empty_cell(cells[0]):
        first = table.label_columns[0]
        cells[0] = next((table.rows[i].cells[first] for i in range(row - 1, -1, -1)
                         if not is_empty_cell(table.rows[i].cells[first])), "")
    return cells


def _row_kind(table: Table, row: int) -> str | None:
    """The kind a metric-per-row table's label names for the row ("Latency (ms)": time)."""
    if not table.label_columns:
        return None
    return kind_of_words(label_tokens(normalize(table.rows[row].cells[table.label_columns[0]])))


def cells_of(document: Document, kind: str, ranges: bool = False) -> list[Cell]:
    """Every :class:`Cell` of ``kind`` in the document, in document order (kept in ``document.memo``);
    ``ranges``: a cell holding a range of values is one too (see the module docstring)."""
    key = ("table_joins cells", kind, ranges)
    found = document.memo.get(key)
    if found is not None:
        return found
    if ranges and not any(series.spans for table in document.tables for series in table.series):
        found = document.memo[key] = cells_of(document, kind)  # no range cell: the same cells, read once
        return found
    found = []
    for table in document.tables:
        headers = [" ".join(name_words(table.headers[c])) for c in table.label_columns]
        scope = None
        for series in table.series:
            if series.column in table.label_columns or series.unit in RATIO_UNITS:
                continue
            own_kind = kind_of_series(series, heading=False)
            if own_kind is None and series.unit is not None:
                continue  # a unit of no known kind: not a measurement a comparison reads
            # the heading's kind only after a row's own ("Latency (ms)" of a metric-per-row table under "Perplexity")
            heading_kind = None if own_kind else kind_of_series(series)
            column = _column_words(table, series)
            for row, figure in enumerate(series.values):
                if figure is None and ranges and row in series.spans:
                    figure = series.spans[row][0]  # the low end stands for the cell; Cell.ends gives both
                if figure is None or (own_kind or _row_kind(table, row) or heading_kind) != kind:
                    continue
                scope = scope or _scope(table)
                words = tuple(_label_words(cell) for cell in label_cells(table, row))
                labels = tuple((header, _canonical(w)) for header, w in zip(headers, words))
                found.append(Cell(table, series, row, figure, labels, words, column, scope))
    document.memo[key] = found
    return found


class Names:
    """What the cells of one kind name: ``slots`` name -> the slots naming
    it; ``members`` slot -> its names; ``common`` the words every column of
    the kind shares; ``holders`` name -> table order -> the cells holding it,
    and ``orders`` name -> those table orders, ascending; ``own`` id of each
    cell -> the names its labels and column hold (:meth:`Cell.own_names`
    under ``common``, read once: :func:`side_cells` asks it of a cell per clause)."""

    def __init__(self, slots: dict[Name, set], members: dict[object, set], common: frozenset[str], longest: int,
                 holders: dict[Name, dict[int, list[Cell]]], orders: dict[Name, list[int]],
                 short: dict[Name, Name] | None = None, own: dict[int, frozenset[Name]] | None = None):
        self.slots, self.members, self.common, self.longest = slots, members, common, longest
        self.holders, self.orders, self.own = holders, orders, own
        # short name -> the one label or column name it stands for (header_names.short_names; headings' phrases
        # are names already, and a short name equal to any name is that name)
        self.short = short


def names_of(document: Document, kind: str, ranges: bool = False) -> Names:
    """:class:`Names` of the cells of ``kind`` (kept in ``document.memo``), range cells among them when ``ranges``."""
    key = ("table_joins names", kind, ranges)
    found = document.memo.get(key)
    if found is not None:
        return found
    cells = cells_of(document, kind, ranges)
    if ranges and cells is cells_of(document, kind):
        found = document.memo[key] = names_of(document, kind)  # no range cell: the same names
        return found
    columns = {(id(c.table), c.series.column): frozenset(c.column) for c in cells}
    common = frozenset.intersection(*columns.values()) if len(columns) > 1 else frozenset()
    slots: dict[Name, set] = {}
    members: dict[object, set] = {}
    holders: dict[Name, dict[int, list[Cell]]] = {}
    own_names: dict[int, frozenset[Name]] = {}
    # a table's cells share its scope, and a column's cells its column words: each read once, not once a cell
    scopes: dict[int, list[tuple[str, Name]]] = {}
    columns: dict[Name, Name] = {}
    for cell in cells:
        named = [(key, words) for (key, _), words in zip(cell.labels, cell.label_words) if _names_a_thing(words)]
        column = columns.get(cell.column)
        if column is None:
            column = columns[cell.column] = _column_name(cell.column, common)
        if column:
            named.append((COLUMN, column))  # as Cell.own_names
        own_names[id(cell)] = frozenset(name for _, name in named)
        for slot, name in named:
            slots.setdefault(name, set()).add(slot)
            members.setdefault(slot, set()).add(name)
        scoped = scopes.get(id(cell.scope))
        if scoped is None:
            scoped = scopes[id(cell.scope)] = [(slot, name) for name, slot in cell.scope.names.items()]
            for slot, name in scoped:  # after the first cell's own names, as when each cell added them
                slots.setdefault(name, set()).add(slot)
                members.setdefault(slot, set()).add(name)
        by_order = cell.table.order
        for _, name in named + scoped:
            holders.setdefault(name, {}).setdefault(by_order, []).append(cell)
    orders = {name: sorted(by_order) for name, by_order in holders.items()}
    own = [name for name, held in slots.items() if held - {HEADING, LEAD_IN}]
    short = {form: name for form, name in short_names(own).items() if form not in slots}
    longest = max(map(len, list(slots) + list(short)), default=0)
    found = document.memo[key] = Names(slots, members, common, longest, holders, orders, short, own_names)
    return found


def _found_names(words: list[str], names: Names, raw: str) -> list[tuple[int, int, Name]]:
    """(start, end, name) of each name at word positions of ``words`` (of
    the prose ``raw``), a short name standing for its whole one, a name
    inside a longer one found there left out."""
    spans = []
    for start in range(len(words)):
        for size in range(min(names.longest, len(words) - start), 0, -1):
            name = tuple(words[start:start + size])
            if name in names.slots:
                spans.append((start, start + size, name))
                break
            whole = names.short.get(name)
            if whole is not None and short_mention_ok(raw, words, start, start + size):
                spans.append((start, start + size, whole))
                break
    return [s for s in spans if not any(o[0] <= s[0] and s[1] <= o[1] and o != s for o in spans)]


class Sides(NamedTuple):
    """The subject (``x``) and reference (``y``) a clause compares; ``implicit``: the clause names no reference."""

    x: Name
    y: Name
    implicit: bool

    @property
    def words(self) -> frozenset[str]:
        return frozenset(self.x) | frozenset(self.y)


_SKIPPED_BEFORE_REFERENCE = frozenset({"the", "a", "an"})


def sides(document: Document, kind: str, subject: str, reference: str | None, ranges: bool = False) -> list[Sides]:
    """The readings of what ``subject`` (the words before the comparison)
    and ``reference`` (the words right after "than", "vs" …; None when the
    clause names no reference) compare, as cells of ``kind`` name them (see
    the module docstring), the subject nearest the comparison first;
    ``ranges`` as :func:`cells_of` takes it. Kept per document by its
    words: a page states one comparison in many sentences."""
    key = ("table_joins sides", kind, subject, reference, ranges)
    found = document.memo.get(key)
    if found is None:
        found = document.memo[key] = _sides(document, kind, subject, reference, ranges)
    return list(found)


def _sides(document: Document, kind: str, subject: str, reference: str | None, ranges: bool) -> list[Sides]:
    names = names_of(document, kind, ranges)
    if not names.slots:
        return []
    subject_found = _found_names([word for _, _, word in prose_words(subject)], names, subject)
    if reference is not None:
        words = [word for _, _, word in prose_words(reference)]
        while words and words[0] in _SKIPPED_BEFORE_REFERENCE:
            words.pop(0)
        found = _found_names(words, names, reference)
        while words[1:] and words[0] in VENDOR_WORDS and (not found or found[0][0] != 0):
            words.pop(0)  # "than the GeForce GTX 1070": a label names its GPU without the vendor's words
            found = _found_names(words, names, reference)
        if not found or found[0][0] != 0:
            return []  # the reference is something no cell names
        y = found[0][2]
        if any((names.slots[name] & names.slots[y]) - {HEADING, LEAD_IN} for _, _, name in found[1:] if name != y):
            return []  # "than fp16 and fp32": a second reference (a heading's words may name the rows instead)
        rivals = [name for _, _, name in reversed(subject_found) if name != y and names.slots[name] & names.slots[y]]
        return [Sides(x, y, False) for x in dict.fromkeys(rivals)]
    readings = []
    for _, _, x in reversed(subject_found):
        for slot in names.slots[x]:
            held = names.members[slot]
            if len(held) == 2:
                readings.append(Sides(x, next(name for name in held if name != x), True))
    return list(dict.fromkeys(readings))


class Join:
    """The cells of one kind holding ``sides.x`` (``xs``) and ``sides.y``
    (``ys``) among the rows a clause names, and the ``pairs`` of them that
    differ in nothing else; ``common`` as :class:`Names` has it."""

    def __init__(self, kind: str, sides: Sides, xs: list[Cell], ys: list[Cell], pairs: list[tuple[Cell, Cell]],
                 common: frozenset[str]):
        self.kind, self.sides, self.xs, self.ys, self.pairs, self.common = kind, sides, xs, ys, pairs, common

    def ends(self) -> list[tuple[int, tuple[Figure, ...], tuple[Figure, ...]]]:
        """(pair index, x figures, y figures) of each pair, a range cell giving both its ends (as
        :meth:`~studygen.lint.variant_pairs.Pair.ends`)."""
        return [(index, x.ends, y.ends) for index, (x, y) in enumerate(self.pairs)]

    def columns_of_one_table(self) -> bool:
        """True when a pair stands in two columns of one table, each of the
        kind by its own header: :func:`~studygen.lint.variant_pairs.candidates`
        ties a clause to that table."""
        return any(x.table is y.table and x.series.column != y.series.column and
                   kind_of_series(x.series) == kind_of_series(y.series) == self.kind for x, y in self.pairs)

    def row_variants_of_one_table(self) -> bool:
        """True when both sides are row labels of one table of several label
        columns, where every figure of either stands: :mod:`.row_variants`
        reads that table (and pairs its rows by the labels that vary within a side)."""
        tables = {id(cell.table) for cell in self.xs + self.ys}
        return len(tables) == 1 and len(self.xs[0].table.label_columns) > 1 and \
            self.sides.x in self.xs[0].label_words and self.sides.y in self.ys[0].label_words


def signature(cell: Cell, named: Sides) -> tuple:
    """The cell's coordinates, the words naming either side left out (its lead-in line aside:
    :func:`lead_ins_agree`): (labels, column words, unit, headings)."""
    words = named.words
    labels = tuple((key, "*" if w in (named.x, named.y) else value)
                   for (key, value), w in zip(cell.labels, cell.label_words))
    column = tuple(w for w in cell.column if w not in words)
    headings = tuple(tuple(w for w in heading if w not in words) for heading in cell.scope.headings)
    return labels, column, cell.series.unit, headings


def lead_ins_agree(x: Cell, y: Cell, named: Sides) -> bool:
    """True unless both tables have a lead-in line and they differ in more than the two names."""
    first, second = x.scope.lead_in, y.scope.lead_in
    if first is None or second is None or x.table is y.table:
        return True
    words = named.words
    return tuple(w for w in first if w not in words) == tuple(w for w in second if w not in words)


def _nearest(names: Names, name: Name, near: int, within: TableSet | None = None) -> list[list[Cell]]:
    """The cells holding ``name`` in the :data:`TABLE_LIMIT` tables holding it nearest block position ``near``, one
    list per table, in document order; of those, the tables ``within`` holds, when given."""
    orders = names.orders.get(name, ())
    if not orders:
        return []
    start, end = nearest_window(orders, near, TABLE_LIMIT)
    held = names.holders[name]
    if within is not None:
        return within.among(orders, start, end, held)
    return [held[order] for order in orders[start:end]]


def side_cells(document: Document, kind: str, named: Sides, near: int,
               within=None, ranges: bool = False) -> tuple[list[Cell], list[Cell]]:
    """(cells holding ``named.x``, cells holding ``named.y``) of ``kind`` in
    the tables nearest block position ``near`` (those ``within`` keeps, a
    test of a table, when given), a cell holding both left out; ``ranges``
    as :func:`cells_of` takes it; ``within`` may be a :class:`~.table_windows.TableSet`,
    whose tables inside the window are found by bisection."""
    names = names_of(document, kind, ranges)
    sided: tuple[list[Cell], list[Cell]] = ([], [])
    seen: set[int] = set()
    x, y, own = named.x, named.y, names.own
    listed = within if isinstance(within, TableSet) else None
    for held in _nearest(names, x, near, listed) + _nearest(names, y, near, listed):
        # one table's cells: the test asked once a table (a page of 400 sections asked it 3.6 million times a cell)
        if within is not None and listed is None and not within(held[0].table):
            continue
        for cell in held:
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            # Cell.side, its own names read once per document (names_of)
            mine = own[id(cell)]
            holds_x, holds_y = x in mine, y in mine
            if not (holds_x or holds_y):
                holds_x, holds_y = x in cell.scope.names, y in cell.scope.names
            if holds_x != holds_y:
                sided[holds_y].append(cell)
    return sided


def join(document: Document, kind: str, named: Sides, view: TextView, near: int, within=None,
         ranges: bool = False) -> Join | None:
    """The :class:`Join` of ``named`` over the cells of ``kind`` whose rows
    ``view`` names, in the tables of each side nearest block position
    ``near`` (those ``within`` keeps, when given); None when two cells of one
    side share all other coordinates (which of them is meant is unclear);
    ``ranges`` as :func:`cells_of` takes it."""
    view = _without_sides(document, view, named)
    named_rows: dict[int, frozenset[int]] = {}

    def kept(cell: Cell) -> bool:
        rows = named_rows.get(id(cell.table))
        if rows is None:
            rows = named_rows[id(cell.table)] = frozenset(cell.table.restrict(view) or ())
        return cell.row in rows

    xs, ys = ([cell for cell in cells if kept(cell)] for cells in side_cells(document, kind, named, near, within, ranges))
    by_signature: dict[tuple, tuple[list[Cell], list[Cell]]] = {}
    for side, cells in enumerate((xs, ys)):
        for cell in cells:
            by_signature.setdefault(signature(cell, named), ([], []))[side].append(cell)
    pairs = []
    for group in by_signature.values():
        found = _group_pairs(*group, named)
        if found is None:
            return None
        pairs.extend(found)
    if len({_statistics(x.column) for x, _ in pairs}) > 1:
        return None  # columns told apart by a statistic (p50, p99): which of them a claim means is unclear
    return Join(kind, named, xs, ys, pairs, names_of(document, kind, ranges).common)


def _statistics(words: Name) -> frozenset[str]:
    return frozenset(filter(None, map(statistic_of, words)))


def _without_sides(document: Document, view: TextView, named: Sides) -> TextView:
    """``view`` with the words naming the two sides blanked: they say what is
    compared, not which rows ("fp8 is faster than bf16" names no bf16 row of
    a table whose rows are GPUs, and leaves every row of the fp8 table)."""
    text = view.normalized
    words = named.words
    found = prose_words(text)
    # a vendor word right before a side's words is part of its name ("GeForce GTX 1070"), not a row of its own
    spans = [(start, end) for index, (start, end, word) in enumerate(found) if word in words or (
        word in VENDOR_WORDS and index + 1 < len(found) and found[index + 1][2] in words | set(VENDOR_WORDS))]
    if not spans:
        return view
    for start, end in reversed(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return TextView(text, document.label_vocab, document.multiword_labels, document.label_parts)


def _group_pairs(xs: list[Cell], ys: list[Cell], named: Sides) -> list[tuple[Cell, Cell]] | None:
    """The pairs among cells of one signature whose lead-in lines agree; None
    when two cells of one side are told apart by nothing (not even their
    lead-in lines), or one cell would pair with two of the other side."""
    for cells in (xs, ys):
        for index, cell in enumerate(cells):
            if any(lead_ins_agree(cell, other, named) for other in cells[index + 1:]):
                return None
    pairs = [(x, y) for x in xs for y in ys if lead_ins_agree(x, y, named)]
    held = [cell for pair in pairs for cell in pair]
    return pairs if len({id(c) for c in held}) == len(held) else None


def pick(document: Document, kind: str, subject: str, reference: str | None, view: TextView,
         block, ranges: bool = False, named: list[Table] | None = None) -> Join | None:
    """The :class:`Join` of the one reading of :func:`sides` that pairs
    figures (or of the only reading, paired or not) for a clause of prose
    ``block``, read among the tables of the block's own section (``named``,
    when given: those under a heading the clause names) when both sides have
    figures there, else of the top heading it stands under, else among all;
    None when several readings pair figures, when none does among several,
    or when the only reading is unclear; ``ranges`` as :func:`cells_of` takes it."""
    readings = sides(document, kind, subject, reference, ranges)
    if not readings:
        return None  # no reading: no scope has a join to choose
    top = block.headings[-1] if block.headings else None
    scopes = (section_tables(document, block.section) if named is None else named_tables(document, named),
              top_tables(document, top), None)
    for within in scopes:
        joins = [join(document, kind, named, view, block.order, within, ranges) for named in readings]
        paired = [joined for joined in joins if joined is not None and joined.pairs]
        chosen = paired[0] if len(paired) == 1 else joins[0] if len(joins) == 1 and not paired else None
        if chosen is not None and chosen.xs and chosen.ys:
            return chosen
        if within is not None and any(joined is None or (joined.xs and joined.ys) for joined in joins):
            return None  # these tables hold both sides, but which reading they back is unclear
    return None


__all__ = ["COLUMN", "Cell", "HEADING", "Join", "LEAD_IN", "Names", "Scope", "Sides", "TABLE_LIMIT", "cells_of",
           "join", "label_cells", "lead_in_line", "lead_ins_agree", "names_of", "naming_words", "pick", "side_cells",
           "sides", "signature"]
