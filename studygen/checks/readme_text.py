"""Reading README prose for checks: which text a render helper produced and
which a person wrote.

How helper text is recognised: render runs with a recorder on
(:func:`studygen.render.produced.recording`), and every helper call — ranges,
ratios, tables, ``noise_verdict``, ``expectation``, known gaps — leaves
``(kind, text, rows)`` together with the places the README shows it, which
the render notes while it formats the README (its anchors,
:mod:`studygen.render.produced`). :class:`ReadmeText` marks those places on
the README's lines; nothing is searched for. A phrase is helper-made when it
lies inside the place of an output of an accepted kind; anything else was
written by hand (template text, or study file strings such as the decision
summary, printed as they are), also a hand-written sentence that copies a
helper's wording word for word.

Checks read lines normalized (Markdown backslash escapes removed, runs of
whitespace folded, which mdformat may change); places are mapped onto them.

A prose field of the study file printed as written (the decision summary, a
reason, a revisit condition: kind :data:`~studygen.render.produced.WRITTEN`)
is hand-written text like the template's own, so it covers nothing; its
places are kept apart (:attr:`ReadmeText.written`), so that a finding about a
sentence there can name the field it came from (:meth:`ReadmeText.written_at`,
:meth:`ReadmeText.written_line`) instead of the README, which nobody edits.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate

from ..label_names import label_pattern
from ..patterns import LazyPattern, lazy_compile
from ..render.produced import WRITTEN

_ESCAPE = lazy_compile(r"\\([!-/:-@\[-`{-~])")
# The whitespace normalizing changes: a run of two or more, or any whitespace but the space ("a b" stays as it is;
# a pattern of every run replaced each space between two words with a space, at a match each).
_SPACES = lazy_compile(r"\s{2,}|[^\S ]")

# What opens a line before its text: heading marks, list item marks, quote marks (several, nested)
_BLOCK_MARKS = lazy_compile(r"(?:(?:#{1,6}|[-*+]|\d{1,9}[.)]|>)(?: |$))*")

# Numbers as prose figures: not glued to a word on the left (fp16, B200, SG211,
# #2119 are names), decimals and thousands separators included.
NUMBER = lazy_compile(r"(?<![\w.#/])(?<!\w-)\d+(?:[.,]\d+)*")


def normalize(text: str) -> str:
    """Markdown escapes removed, whitespace runs folded to one space, stripped."""
    return _SPACES.sub(" ", _ESCAPE.sub(r"\1", text)).strip()


def numbers_in(text: str, labels: re.Pattern | None = None) -> list[str]:
    """Every number in ``text`` as printed (``0.19``, ``800``), in order, less
    those inside a name ``labels`` finds (:func:`numbered_labels`: "1070" of "GTX
    1070" is part of a GPU's name, no figure)."""
    if labels is not None:
        text = labels.sub(lambda match: " " * len(match.group()), text)
    return NUMBER.findall(text)


def numbered_labels(study) -> LazyPattern | None:
    """The names of ``study`` that hold a number apart from their words: the
    GPUs its records ran on and its variants' labels ("NVIDIA GeForce GTX
    1070", "batch 8"), each however a reader spells it (any case, vendor
    words optional, words parted by a space, a hyphen or nothing:
    :func:`studygen.label_names.label_pattern`); None when no name holds one.
    Compiled at its first use: most checks that ask for it find nothing to
    quote figures from."""
    gpus = {row.gpu for row in study.rows if row.gpu}
    labels = {str(variant.get("label") or name) for name, variant in study.variants.items()}
    return _names_pattern(tuple(sorted(" ".join(name.lower().split()) for name in gpus | labels if NUMBER.search(name))))


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> LazyPattern | None:
    if not names:
        return None
    return lazy_compile("|".join(label_pattern(name)[1] for name in names), re.I)


def table_cells(line: str) -> list[str] | None:
    """Cells of a GFM table line (normalized), or None when it is not one."""
    stripped = line.strip()
    if not stripped.startswith("|"):
        return None
    cells = re.split(r"(?<!\\)\|", stripped.strip("|"))
    return [normalize(c) for c in cells]


# What normalization changes: a run of whitespace (group 1), or a backslash escape (group 2: what it escapes).
# A lone space between two other characters is kept as it is, like them: a run of whitespace (group 1) is
# two or more, any whitespace but the space, or a space opening or closing the line (dropped).
_CHANGED = lazy_compile(r"(\s{2,}|[^\S ]|^ | \Z)|\\([!-/:-@\[-`{-~])")


def normalized_with_offsets(line: str) -> tuple[str, list[int]]:
    """``(normalize(line), offsets)``: ``offsets[k]`` is where position ``k``
    of ``line`` (0 to ``len(line)``) falls in the normalized text, so that a
    place in the README's line maps onto the line a check reads. A run of
    characters kept as they are maps one to one; the first character of a
    whitespace run maps to where its space goes, the rest of the run just
    after it; both characters of an escape map to the character it keeps.

    Read a run at a time (one step per whitespace run or escape, not per
    character): checks map every place a helper output starts or ends."""
    parts: list[str] = []
    offsets: list[int] = []
    size = done = 0
    pending_space = False

    def space_before_text() -> None:  # a whitespace run between kept text is one space
        nonlocal size, pending_space
        if pending_space and size:
            parts.append(" ")
            size += 1
        pending_space = False

    for match in _CHANGED.finditer(line):
        start, end = match.span()
        if start > done:  # characters kept as they are
            space_before_text()
            offsets.extend(range(size, size + start - done))
            parts.append(line[done:start])
            size += start - done
        if match.lastindex == 1:  # whitespace: its first character where the space goes, the rest after it
            offsets.append(size)
            offsets.extend([size + 1 if size else 0] * (end - start - 1))
            pending_space = True
        else:  # an escape: the backslash and the character both where the character goes
            space_before_text()
            offsets += (size, size)
            parts.append(match.group(2))
            size += 1
        done = end
    if done < len(line):
        space_before_text()
        offsets.extend(range(size, size + len(line) - done))
        parts.append(line[done:])
        size += len(line) - done
    offsets.append(size)
    if pending_space:  # trailing whitespace is dropped: its positions are the end of the text
        offsets = [min(offset, size) for offset in offsets]
    return "".join(parts), offsets


class ReadmeText:
    """README lines with the places each helper output covers.

    ``lines[i]`` is line ``i + 1`` normalized; ``spans[i]`` a list of
    ``(start, end, Produced)`` in that normalized line, one per helper
    output; ``written[i]`` the same for the study-file strings printed there
    as written.
    """

    def __init__(self, text: str, produced):
        self.raw_lines = text.splitlines()
        self.lines = [normalize(line) for line in self.raw_lines]  # as normalized_with_offsets gives them
        self.spans: list[list[tuple[int, int, object]]] = [[] for _ in self.lines]
        self.written: list[list[tuple[int, int, object]]] = [[] for _ in self.lines]
        self._starts = list(accumulate((len(line) for line in text.splitlines(keepends=True)), initial=0))
        self._tables: dict[tuple, int] = {}  # header cells → first README line (0-based) of such a table
        self._table_starts: dict[int, int] = {}  # id of a table's token → its first README line (0-based)
        offsets: dict[int, list[int]] = {}  # of the lines where a place starts or ends (the others are not needed)

        def column(index: int, raw_column: int) -> int:
            if index not in offsets:
                offsets[index] = normalized_with_offsets(self.raw_lines[index])[1]
            return offsets[index][raw_column]

        for item in produced:
            for start, end in item.places:
                start_line, start = self._line_and_column(start)
                end_line, end = self._line_and_column(end)
                if item.headers:
                    first = self._tables.get(item.headers)
                    self._tables[item.headers] = start_line if first is None else min(first, start_line)
                    if item.table is not None:
                        shown = self._table_starts.get(id(item.table))
                        self._table_starts[id(item.table)] = start_line if shown is None else min(shown, start_line)
                spans = self.written if item.kind == WRITTEN else self.spans
                for index in range(start_line, end_line + 1):
                    low = column(index, start) if index == start_line else 0
                    high = column(index, end) if index == end_line else len(self.lines[index])
                    spans[index].append((low, high, item))

    def _line_and_column(self, offset: int) -> tuple[int, int]:
        """The 0-based line (as ``str.splitlines`` cuts them) and column of a
        README offset; an offset in a line's ending is its line's end."""
        line = min(max(bisect_right(self._starts, offset) - 1, 0), len(self.raw_lines) - 1)
        return line, min(offset - self._starts[line], len(self.raw_lines[line]))

    def locate(self, item) -> int:
        """1-based README line where helper output ``item`` starts (the first
        time, when the template printed it twice); a table cell: the line of
        the first table with its header cells. 0 when the README does not show it."""
        if item.within:
            first = self._tables.get(item.within)
            return 0 if first is None else first + 1
        return min((self._line_and_column(start)[0] + 1 for start, _ in item.places), default=0)

    def cell_line(self, item) -> int:
        """1-based README line of the table row that holds cell ``item``: its
        own table's first line (header) + 2 (header and delimiter) + its body
        row, where the table builder recorded both (see
        :func:`studygen.render.produced.cells_of`); else :meth:`locate`. An
        output that is no cell: :meth:`locate`."""
        if item.within and item.cell_row is not None and item.table is not None:
            start = self._table_starts.get(id(item.table))
            if start is not None and start + 2 + item.cell_row < len(self.lines):
                return start + 3 + item.cell_row
        return self.locate(item)

    def covered(self, index: int, start: int, end: int, kinds=None) -> bool:
        """True when ``[start, end)`` of line ``index`` (0-based) lies inside a
        helper output (of one of ``kinds``, when given)."""
        return any(s <= start and end <= e and (kinds is None or item.kind in kinds)
                   for s, e, item in self.spans[index])

    def written_at(self, index: int, start: int, end: int):
        """The study-file string printed as written (a ``Produced`` of kind
        :data:`~studygen.render.produced.WRITTEN`) whose place holds
        ``[start, end)`` of line ``index`` (0-based, normalized); None when
        the text there is the template's or a helper's."""
        return next((item for s, e, item in self.written[index] if s <= start and end <= e), None)

    def written_line(self, index: int):
        """The study-file string printed as written that holds all the text
        of line ``index`` (0-based), its block marks (a heading's ``#``, a list
        item's, a quote's ``>``) aside; None when any of it is the
        template's, a helper's, or another field's. For a finding that names
        a line only (lint's)."""
        line = self.lines[index]
        first = _BLOCK_MARKS.match(line).end()
        if first == len(line):
            return None
        return self.written_at(index, first, len(line))

    def prose_lines(self):
        """``(index, line)`` of lines outside HTML comments and code fences."""
        in_fence = in_comment = False
        for index, line in enumerate(self.lines):
            if line.startswith(("```", "~~~")):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            if in_comment or line.startswith("<!--"):
                in_comment = "-->" not in line
                continue
            yield index, line


def sentence_bounds(line: str, start: int, end: int) -> tuple[int, int]:
    """``(first, last)`` offsets of the sentence of ``line`` around ``[start,
    end)``: it begins after the '. ' or '; ' before ``start`` (the line's
    start when none) and ends with the '.' or ';' of the first such mark
    after ``end`` (the line's end when none)."""
    left = max(line.rfind(". ", 0, start), line.rfind("; ", 0, start))
    right_candidates = [p for p in (line.find(". ", end), line.find("; ", end)) if p >= 0]
    right = min(right_candidates) + 1 if right_candidates else len(line)
    return (left + 2 if left >= 0 else 0), right


def sentence_at(line: str, start: int, end: int) -> str:
    """The sentence of ``line`` around ``[start, end)`` (:func:`sentence_bounds`), its list marks and emphasis stripped."""
    first, last = sentence_bounds(line, start, end)
    return line[first:last].strip(" -*")


def quote(text: str, limit: int = 140) -> str:
    """``text`` (README prose) in double quotes, as every finding message
    quotes it: whole up to ``limit`` characters; a longer text is cut at the
    last white space that leaves it at most ``limit`` characters with the
    "…" that marks the cut, so that a figure (or word) is quoted as the
    README prints it or not at all: "against 29" of "against 29.579 ms" would
    misquote it. A text without white space there is cut at the limit."""
    return f'"{shortened(text, limit)}"'


def shortened(text: str, limit: int = 140, keep: int = 0) -> str:
    """``text`` as :func:`quote` quotes it, without the quotes: whole up to
    ``limit`` characters, else cut at white space to at most ``limit``
    characters, "…" marking the cut. When the character at offset ``keep``
    (what the finding is about, say a placeholder deep in a long field)
    would sit in the last quarter of the cut text or past it, the text is
    also cut before it, at the first white space of the quarter ``limit``
    before it (at ``keep`` itself when there is none), "…" marking that cut too."""
    if len(text) <= limit:
        return text
    context = limit // 4
    if keep >= limit - context:
        spaces = [at for at in (text.find(" ", keep - context, keep), text.find("\t", keep - context, keep))
                  if at >= 0]
        return "…" + shortened(text[min(spaces) + 1 if spaces else keep:].lstrip(), limit - 1)
    head = text[:limit]  # a space at head[limit - 1] still leaves room for the mark
    space = max(head.rfind(" "), head.rfind("\t"))
    return (head[:space].rstrip() if space > 0 else head[:limit - 1]) + "…"
