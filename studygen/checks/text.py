"""Reading README prose for checks: which text a render helper produced and
which a person wrote.

How helper text is recognised: render runs with a recorder on
(:func:`studygen.render.produced.recording`), so every helper call — ranges,
ratios, tables, ``noise_verdict``, ``expectation``, known gaps — leaves
``(kind, text, rows)``. :class:`ReadmeText` finds each recorded text in the
README lines the same render produced (tables by their header row, then every
row of that table). A phrase is helper-made when it lies inside such a span of
an accepted kind; anything else was written by hand (template text, or study
file strings such as the decision summary, printed as they are). A hand-written
sentence that merely copies a helper's wording is still hand-written unless the
helper, called on today's records, printed exactly that text on that line.

Matching ignores Markdown backslash escapes and runs of whitespace, which
mdformat may change; it never crosses lines.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile

_ESCAPE = lazy_compile(r"\\([!-/:-@\[-`{-~])")
_SPACES = lazy_compile(r"\s+")

# Numbers as prose figures: not glued to a word on the left (fp16, B200, SG211,
# #2119 are names), decimals and thousands separators included.
NUMBER = lazy_compile(r"(?<![\w.#/])(?<!\w-)\d+(?:[.,]\d+)*")


def normalize(text: str) -> str:
    """Markdown escapes removed, whitespace runs folded to one space, stripped."""
    return _SPACES.sub(" ", _ESCAPE.sub(r"\1", text)).strip()


def numbers_in(text: str) -> list[str]:
    """Every number in ``text`` as printed (``0.19``, ``800``), in order."""
    return NUMBER.findall(text)


def table_cells(line: str) -> list[str] | None:
    """Cells of a GFM table line (normalized), or None when it is not one."""
    stripped = line.strip()
    if not stripped.startswith("|"):
        return None
    cells = re.split(r"(?<!\\)\|", stripped.strip("|"))
    return [normalize(c) for c in cells]


class ReadmeText:
    """README lines with the spans each helper output covers.

    ``lines[i]`` is line ``i + 1`` normalized; ``spans[i]`` a list of
    ``(start, end, Produced)`` in that normalized line.
    """

    def __init__(self, text: str, produced):
        self.raw_lines = text.splitlines()
        self.lines = [normalize(line) for line in self.raw_lines]
        self.spans: list[list[tuple[int, int, object]]] = [[] for _ in self.lines]
        seen: set[tuple[str, str]] = set()
        for item in produced:
            if item.within:
                continue  # a cell of a table, covered with the whole table
            if (item.kind, item.text, item.headers) in seen:
                continue
            seen.add((item.kind, item.text, item.headers))
            if item.headers:
                self._cover_table(item)
                continue
            for piece in item.text.splitlines():
                piece = normalize(piece)
                if piece:
                    self._cover_text(piece, item)

    def _cover_text(self, piece: str, item) -> None:
        for index, line in enumerate(self.lines):
            start = line.find(piece)
            while start >= 0:
                self.spans[index].append((start, start + len(piece), item))
                start = line.find(piece, start + 1)

    def _cover_table(self, item) -> None:
        headers = [normalize(h) for h in item.headers]
        for index, line in enumerate(self.raw_lines):
            if table_cells(line) != headers:
                continue
            end = index
            while end < len(self.raw_lines) and table_cells(self.raw_lines[end]) is not None:
                self.spans[end].append((0, len(self.lines[end]), item))
                end += 1

    def locate(self, item) -> int:
        """1-based README line where helper output ``item`` starts (a table: its
        header row); 0 when the formatted README does not show it verbatim."""
        if item.headers or item.within:
            headers = [normalize(h) for h in (item.headers or item.within)]
            return next((i + 1 for i, line in enumerate(self.raw_lines) if table_cells(line) == headers), 0)
        first = next((normalize(p) for p in item.text.splitlines() if p.strip()), "")
        if not first:
            return 0
        return next((i + 1 for i, line in enumerate(self.lines) if first in line), 0)

    def covered(self, index: int, start: int, end: int, kinds=None) -> bool:
        """True when ``[start, end)`` of line ``index`` (0-based) lies inside a
        helper output (of one of ``kinds``, when given)."""
        return any(s <= start and end <= e and (kinds is None or item.kind in kinds)
                   for s, e, item in self.spans[index])

    def produced_at(self, index: int, kinds=None) -> list:
        """Helper outputs found on line ``index`` (0-based)."""
        return [item for _, _, item in self.spans[index] if kinds is None or item.kind in kinds]

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


def sentence_at(line: str, start: int, end: int) -> str:
    """The sentence of ``line`` around ``[start, end)`` (split at '. ', '; ', ': ' boundaries)."""
    left = max(line.rfind(". ", 0, start), line.rfind("; ", 0, start))
    right_candidates = [p for p in (line.find(". ", end), line.find("; ", end)) if p >= 0]
    right = min(right_candidates) + 1 if right_candidates else len(line)
    return line[left + 2 if left >= 0 else 0:right].strip(" -*")


def quote(text: str, limit: int = 140) -> str:
    """``text`` in double quotes, shortened to ``limit`` characters."""
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return f'"{text}"'
