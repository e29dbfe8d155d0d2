"""Variants written as row labels, not as columns (SG107).

    | Model | Precision | Inference time (ms) |
    | small | FP16      | 3.53                |
    | small | INT8      | 3.65                |
    | large | FP16      | 9.60                |
    | large | INT8      | 6.03                |

"INT8 is faster than FP16 for every model" compares rows of one column, two
by two: :func:`row_pairs` ties a clause to each such table when

- one label column holds both variants the clause names (a cell whose words
  the clause names in order, as :mod:`.header_names` matches them), the reference being the one named right after
  "than", "vs", "over" or a verb of ranking (a comparison word between the
  two mentions makes the second the reference);
- the rows of the two variants pair up by a key: the other label columns
  whose cells vary among the variant's rows ("Model": small, large); a key
  held by one row of each variant is a pair, any other is left out;
- one measured column is of the clause's kind (or the clause names one by
  its header words);
- exactly one table of the document offers such pairs among the rows the
  clause names (:meth:`~studygen.lint.document.Table.restrict`).

A table whose label column holds both variants but whose rows pair none of
them (the fp16 row on the A100, the fp32 row on the H100) is offered with no
pairs: a universal claim tied to it compares nothing (SG107 says so).

Anything else is no pair, and the clause is not read.
Cases: ``sg107_pos_row_variants``, ``sg107_neg_row_variants``.
"""

from __future__ import annotations

from typing import NamedTuple

from .document import Document, Series, Table, is_empty_cell
from .figures import Figure, statistics_in
from .header_names import name_words, phrase_at, prose_words, short_names, short_phrase_at
from .restriction import TextView
from .text import keywords, normalize
from .variant_pairs import CANDIDATE_LIMIT, tables_naming
from .variant_pairs import COMPARISON_RE as _COMPARISON_RE, kind_of_series


class RowPair(NamedTuple):
    """Pairs of rows of one ``table`` (subject row, reference row) that hold
    the variant ``x`` and its reference ``y`` in the same key, read in
    ``series`` of quantity ``kind``."""

    table: Table
    series: Series
    x: str
    y: str
    kind: str
    pairs: tuple[tuple[int, int], ...]

    def ends(self) -> list[tuple[int, tuple[Figure, ...], tuple[Figure, ...]]]:
        """(subject row, subject figures, reference figures) of each pair holding both, a cell holding a
        range giving its two ends (as :meth:`~studygen.lint.variant_pairs.Pair.ends`)."""
        return [(row_x, a, b) for row_x, row_y in self.pairs
                if (a := self.series.ends(row_x)) and (b := self.series.ends(row_y))]


def _cell(text: str) -> str:
    return " ".join(text.split()).lower()


def _variants(table: Table, column: int, clause: str) -> tuple[str, str, frozenset[str]] | None:
    """(subject, reference, short words): the two labels of ``column`` the
    clause names, the reference the one after "than"/"vs"/a verb of ranking,
    and the words of those it names by a short name; None otherwise."""
    named = []
    short_words: set[str] = set()
    values, forms_of = _column_names(table, column)
    for value in values:
        words = name_words(value)
        span = phrase_at(clause, words)
        if span is None and words in forms_of:
            span = short_phrase_at(clause, forms_of[words])
            if span is not None:
                short_words.update(words)
        if span is not None:
            named.append((span, value))
    if len(named) != 2:
        return None
    ((_, first_end), first), ((second_at, _), second) = sorted(named)
    if second_at < first_end:
        return None  # one mention read as two labels: which one is meant is unclear
    # "int8 is faster than openvino fp16": a comparison word between them makes the second the reference
    # (SG107 reads comparisons with "than" or a verb of ranking, both between subject and reference)
    if _COMPARISON_RE.search(normalize(clause), first_end, second_at):
        return first, second, frozenset(short_words)
    return None


def _column_names(table: Table, column: int) -> tuple[list[str], dict[tuple[str, ...], list[tuple[str, ...]]]]:
    """The label cells of ``column`` that hold a letter (lower case, single spaces), and the short names of
    each (its words -> the short forms that stand for it: "RTX 6000 Ada" for "RTX 6000 Ada Generation",
    :func:`~.header_names.short_names`); made once a table column, as every clause of the document asks."""
    made = table.pair_cache.setdefault("column names", {})  # the per-table memo lint keeps
    if column not in made:
        values = [value for value in {_cell(row.cells[column]) for row in table.rows}
                  if not is_empty_cell(value) and any(c.isalpha() for c in value)]
        forms_of: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for form, words in short_names(name_words(value) for value in values).items():
            forms_of.setdefault(words, []).append(form)
        made[column] = (values, forms_of)
    return made[column]


def _pairs(table: Table, column: int, subject: str, reference: str, rows: list[int]) -> tuple[tuple[int, int], ...]:
    """(subject row, reference row) of each key one row of each variant holds, among ``rows``."""
    of = {name: [i for i in rows if _cell(table.rows[i].cells[column]) == name] for name in (subject, reference)}
    keys = [c for c in table.label_columns if c != column
            and len({_cell(table.rows[i].cells[c]) for i in of[subject]}) > 1]
    if not keys:
        # the clause named one key ("at 20 users"): one row of each variant left is that key's pair
        return ((of[subject][0], of[reference][0]),) if len(of[subject]) == len(of[reference]) == 1 else ()

    def keyed(indexes: list[int]) -> dict[tuple[str, ...], list[int]]:
        found: dict[tuple[str, ...], list[int]] = {}
        for i in indexes:
            found.setdefault(tuple(_cell(table.rows[i].cells[c]) for c in keys), []).append(i)
        return found

    xs, ys = keyed(of[subject]), keyed(of[reference])
    return tuple((xs[key][0], ys[key][0]) for key in xs if len(xs[key]) == 1 and len(ys.get(key, ())) == 1)


def measured_series(table: Table, kinds: tuple[str, ...], clause: str) -> tuple[Series, str] | None:
    """The one measured series of one of ``kinds`` (the clause's header words
    choose among several, then the one statistic it names, "p50" or "median",
    among columns of one metric: ``TTFT p50 (ms)``, ``TTFT p99 (ms)``), with
    its kind; None when not exactly one is left."""
    measured = [(s, kind_of_series(s)) for s in table.series if s.column not in table.label_columns]
    of_kind = [(s, k) for s, k in measured if k in kinds]
    if len(of_kind) > 1:
        words = keywords(normalize(clause))
        of_kind = [(s, k) for s, k in of_kind if s.measure & words] or of_kind
    if len(of_kind) > 1:
        # "the p50 TTFT" beside 'TTFT p50 (ms)' and 'TTFT p99 (ms)': the one statistic the clause names picks the
        # column of it; a clause naming none or two leaves them all (unclear)
        stats = {name for name, _, _ in statistics_in(clause)}
        if len(stats) == 1:
            of_kind = [(s, k) for s, k in of_kind if s.stat in stats] or of_kind
    return of_kind[0] if len(of_kind) == 1 else None


def row_pairs(document: Document, clause: str, kinds: tuple[str, ...], view: TextView, fewest: int = 2
              ) -> list[RowPair]:
    """Every :class:`RowPair` the clause names in the document, in document order: those with ``fewest``
    pairs at least (2 for a claim over every row; 1 for one about the rows the clause names, "at 20 users",
    which may leave one key), or with none where the table never pairs the two variants."""
    found: list[RowPair] = []
    for table, column, variants, series, rows in _candidates(document, document.tables, clause, kinds, view):
        pairs = _pairs(table, column, *variants[:2], rows)
        if len(pairs) >= fewest or (not pairs and _never_paired(table, column, *variants[:2], rows)):
            found.append(RowPair(table, series[0], variants[0], variants[1], series[1], pairs))
    return found


def _candidates(document: Document, tables, clause: str, kinds: tuple[str, ...], view: TextView):
    """``(table, label column, variants, (series, kind), rows)`` of each label column of ``tables`` (those
    with two label columns or more) holding the two variants the clause names, with the measured series of
    one of ``kinds`` the clause chooses and the rows left once the variants' own words are blanked."""
    for table in tables:
        if len(table.label_columns) < 2:
            continue
        for column in table.label_columns:
            variants = _variants(table, column, clause)
            if variants is None:
                continue
            series = measured_series(table, kinds, clause)
            rows = table.restrict(_without_words(document, view, variants[2]))
            if series is not None and rows:
                yield table, column, variants, series, rows


def row_change(document: Document, clause: str, kinds: tuple[str, ...], view: TextView, near: int = 0) -> RowPair | None:
    """The one :class:`RowPair` a stated change between two variants names
    in the rows the clause names ("the H100 chunked TPOT is 20% lower than
    baseline": the chunked and baseline rows of the H100 in ``TPOT p50
    (ms)``): one label column holds both variants, the reference named after
    "than", "vs" or "compared to"; a subject row and a reference row pair up
    when all their other label cells agree (one row each). The tables read
    are those whose headers hold a word of the clause (at most
    :data:`~.variant_pairs.CANDIDATE_LIMIT`, nearest block order ``near``
    first); None unless exactly one of them gives a pair."""
    found: list[RowPair] = []
    tables = sorted(tables_naming(document, clause), key=lambda t: (abs(t.order - near), t.order))
    for table, column, variants, series, rows in _candidates(document, tables[:CANDIDATE_LIMIT], clause, kinds, view):
        pairs = _matched_pairs(table, column, *variants[:2], rows)
        if pairs:
            found.append(RowPair(table, series[0], variants[0], variants[1], series[1], pairs))
    return found[0] if len(found) == 1 else None


def _matched_pairs(table: Table, column: int, subject: str, reference: str, rows: list[int]
                   ) -> tuple[tuple[int, int], ...]:
    """(subject row, reference row) among ``rows`` whose other label cells all agree, one row of each."""
    keys = [c for c in table.label_columns if c != column]

    def keyed(name: str) -> dict[tuple[str, ...], list[int]]:
        found: dict[tuple[str, ...], list[int]] = {}
        for i in rows:
            if _cell(table.rows[i].cells[column]) == name:
                found.setdefault(tuple(_cell(table.rows[i].cells[c]) for c in keys), []).append(i)
        return found

    xs, ys = keyed(subject), keyed(reference)
    return tuple((xs[key][0], ys[key][0]) for key in xs if len(xs[key]) == 1 and len(ys.get(key, ())) == 1)


def _without_words(document: Document, view: TextView, words: frozenset[str]) -> TextView:
    """``view`` with ``words`` blanked: a label named by a short name ("the H100" for ``NVIDIA H100 80GB
    HBM3``) says which rows are compared, and its words would otherwise bound the rows to its own."""
    if not words:
        return view
    text = view.normalized
    for start, end, word in reversed(prose_words(text)):
        if word in words:
            text = text[:start] + " " * (end - start) + text[end:]
    return TextView(text, document.label_vocab, document.multiword_labels, document.label_parts)


def _never_paired(table: Table, column: int, subject: str, reference: str, rows: list[int]) -> bool:
    """True when no subject row of ``rows`` shares its other label cells
    with a reference row ("GPU": the fp16 row is the A100's, the fp32 row the
    H100's; or the rows the clause names hold one of the two only):
    the table compares the two nowhere."""
    def keys_of(name: str) -> set[tuple[str, ...]]:
        return {tuple(_cell(table.rows[i].cells[c]) for c in table.label_columns if c != column)
                for i in rows if _cell(table.rows[i].cells[column]) == name}

    subject_keys, reference_keys = keys_of(subject), keys_of(reference)
    return not subject_keys & reference_keys


__all__ = ["RowPair", "measured_series", "row_change", "row_pairs"]
