"""The tables a sentence names by the heading over them (SG103's row readers).

A page may print one table per GPU, each under its own heading and with the
same columns (``### H100`` over an eager and a paged row, ``### A100`` over
the same rows). "For the H100, paged is 1.27x faster than eager in TPOT"
written below the A100 table is about the H100 table, though the A100 table
is the nearest one in its section; the same words in a summary section of no
table are about the H100 table too. :func:`heading_tables` gives the tables
such a sentence names, and :mod:`.prose_rows` (two rows of one table) and
:mod:`.joined_ratios` (figures paired across tables) read those instead of
the tables of the sentence's own section.

- **A heading's name** is its words (:func:`~.header_names.prose_words`)
  less quantity, filler and statistic words (:func:`~.table_joins.naming_words`),
  vendor words opening it left out ("NVIDIA H100": ``h100``); a name without
  a letter names nothing. Only the nearest heading over each table counts,
  and only when the document's tables stand under two names or more (one
  name tells no table from another).
- **A sentence names a heading** when the name's words stand one after
  another among its words. The figure's clause decides first, then each
  clause before it, the nearest first ("On the A100, …"; "…, and on the
  A100, 1.10x"), then the whole sentence ("…, on the A100"); the first of
  them that names any heading names it, and one naming two headings ("on
  the H100 and the A100") names none of them.
- A heading over the sentence itself is its own: naming it changes nothing.

With no heading named the readers read what they read before (the tables
near the sentence in its own section). Cases: tests/lint/test_heading_scope.py.
"""

from __future__ import annotations

import re

from ..label_names import VENDOR_WORDS
from ..patterns import lazy_compile
from .document import Document, Sentence, Table
from .header_names import prose_words
from .table_joins import Name, naming_words
from .text import CLAUSE_REACH, normalize

_MEMO_KEY, _SIZES_KEY = "heading_scope", "heading_scope_sizes"
_CLAUSE_BREAKS = ",;()"  # as :func:`~.prose_rows.figure_clause` breaks clauses
_CLAUSE_BREAK_RE = lazy_compile("[" + re.escape(_CLAUSE_BREAKS) + "]")
_SCREEN_WORDS = 32  # the most first words of names a sentence is screened for before its words are read
_LEAST_NAMES = 2  # tables under one heading name only: a heading tells no table from another


def heading_name(heading: str) -> Name:
    """The words naming what ``heading`` is about ("### NVIDIA H100" -> ``("h100",)``); () when none."""
    words = list(naming_words(tuple(word for _, _, word in prose_words(heading))))
    while len(words) > 1 and words[0] in VENDOR_WORDS:
        words.pop(0)
    return tuple(words) if any(c.isalpha() for word in words for c in word) else ()


def heading_index(document: Document) -> dict[Name, list[Table]]:
    """Heading name -> the tables right under a heading of that name, in
    document order; {} when the tables stand under fewer than two names."""
    index = document.memo.get(_MEMO_KEY)
    if index is None:
        grouped: dict[Name, list[Table]] = {}
        for table in document.tables:
            name = heading_name(table.headings[0]) if table.headings else ()
            if name:
                grouped.setdefault(name, []).append(table)
        index = document.memo[_MEMO_KEY] = grouped if len(grouped) >= _LEAST_NAMES else {}
    return index


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) in ``text`` of the clause ``start:end``, of each clause
    before it, nearest first, and of the whole text: where a heading naming
    the clause is looked for, in that order. At most :data:`~.text.CLAUSE_REACH`
    characters either side of the clause are looked at (a generated paragraph
    may be one sentence of many figures)."""
    reach = max(0, start - CLAUSE_REACH)
    breaks = [match.start() for match in _CLAUSE_BREAK_RE.finditer(text, reach, start)]
    before = [(breaks[i - 1] + 1 if i else reach, breaks[i]) for i in range(len(breaks) - 1, -1, -1)]
    return [(start, end), *before, (reach, min(len(text), end + CLAUSE_REACH))]


def _occurrences(words: tuple[tuple[int, int, str], ...], index: dict[Name, list[Table]],
                 sizes: frozenset[int], firsts: frozenset[str]) -> list[tuple[int, int, Name]]:
    """(start offset of its first word, end offset of its last, name) of each
    run of ``words`` that is a name of ``index`` (their lengths ``sizes``,
    their first words ``firsts``): found once a sentence, then each clause
    keeps those lying within it (:func:`_named_within`)."""
    found = []
    plain = [word for _, _, word in words]
    for i, word in enumerate(plain):
        if word not in firsts:
            continue  # no name opens here
        for size in sizes:
            run = tuple(plain[i:i + size])
            if len(run) == size and run in index:
                found.append((words[i][0], words[i + size - 1][1], run))
    return found


def _first_word_screen(firsts: frozenset[str]) -> re.Pattern | None:
    """A pattern that finds, in a sentence's normalised text, what every word
    opening a name holds: each first word (a stem, :func:`~.text.stem`) less a
    closing "y" (a word stems to it from itself, less a plural "s", or from
    "ies") is the start of the word it was read from. None for more than
    :data:`_SCREEN_WORDS` first words (each alternative is tried at each place)."""
    if len(firsts) > _SCREEN_WORDS:
        return None
    cores = sorted({word[:-1] if word.endswith("y") else word for word in firsts}, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, cores)))


def _named_within(occurrences: list[tuple[int, int, Name]], first: int, last: int) -> set[Name]:
    """The names of ``occurrences`` whose words lie within ``first:last``
    (their first word opening at or after ``first``, their last ending by
    ``last``): the names of the run of the sentence's words lying within it,
    which before were looked up in that run once per clause and figure."""
    return {name for start, end, name in occurrences if start >= first and end <= last}


def heading_tables(sentence: Sentence, start: int, end: int) -> list[Table] | None:
    """The tables under the heading that the clause ``start:end`` (block
    offsets) of ``sentence`` names, or a clause before it, or the sentence
    (see the module docstring); None when none names one, when the first of
    them to name any names two, or when the heading named stands over the
    sentence itself."""
    document = sentence.block.document
    index = heading_index(document)
    if not index:
        return None
    sizes = document.memo.get(_SIZES_KEY)
    if sizes is None:
        firsts = frozenset(name[0] for name in index)
        sizes = document.memo[_SIZES_KEY] = (frozenset(len(name) for name in index), firsts, _first_word_screen(firsts))
    occurrences = sentence.__dict__.get("_heading_names")
    if occurrences is None:
        screen = sizes[2]
        if screen is not None and screen.search(normalize(sentence.text)) is None:
            occurrences = []  # no word of the sentence can open a name: its words need not be read
        else:
            occurrences = _occurrences(prose_words(sentence.text), index, sizes[0], sizes[1])
        sentence.__dict__["_heading_names"] = occurrences
    named: set[Name] = set()
    if not occurrences:
        return None  # no clause of the sentence names a heading
    for first, last in _clauses(sentence.text, start - sentence.start, end - sentence.start):
        named = _named_within(occurrences, first, last)
        if named:
            break
    if len(named) != 1:
        return None
    name = named.pop()
    if any(heading_name(heading) == name for heading in sentence.block.headings):
        return None
    return index[name]


__all__ = ["heading_index", "heading_name", "heading_tables"]
