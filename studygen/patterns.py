"""Regular expressions compiled on first use, not at import.

The lint vocabularies and the check modules hold about 200 module-level
expressions; compiling them all at import cost about 0.1 s of every start,
also of a ``studygen check`` whose findings are reused (measured with
``benchmarks/family_check.py``), which uses none of them.
:class:`GuardedPattern` goes one step further for a costly pattern that
most texts hold no match of: a cheaper pattern finds where a match could
start, and the costly one is compiled only once that finds something.
:class:`NeedsPattern` (``lazy_compile(..., needs=WORDS)``) does the same
with substring tests: a pattern each of whose matches holds one of a few
words is neither compiled nor run on a text that holds none of them.
"""

from __future__ import annotations

import re
import sys
from re import _parser  # Python's own parser of regular expressions (3.11+), for needed_words

# What a compiled pattern offers; each is copied onto the lazy pattern at its first use.
_COMPILED_ATTRIBUTES = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
                        "scanner", "flags", "groups", "groupindex")


class LazyPattern:
    """Stands for ``re.compile(pattern, flags)`` and compiles it when one of
    its methods or compiled attributes (``search`` ... ``groupindex``) is
    first read; ``pattern`` (the source string) is there from the start, so
    expressions built from others' ``pattern`` stay lazy. A syntax error
    in the expression raises ``re.error`` at that first use. Not a
    ``re.Pattern``: pass its ``compiled`` attribute where one is required."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags_given = flags

    def __getattr__(self, name: str):
        # Called only for attributes not set yet: the first use compiles and
        # sets them all, so later reads never come back here.
        if name != "compiled" and name not in _COMPILED_ATTRIBUTES:
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags_given)
        self.__dict__["compiled"] = compiled
        for attribute in _COMPILED_ATTRIBUTES:
            self.__dict__[attribute] = getattr(compiled, attribute)
        return self.__dict__[name]

    def __repr__(self) -> str:
        return f"LazyPattern({self.pattern!r}, {self._flags_given!r})"


def lazy_compile(pattern: str, flags: int = 0, needs: tuple[str, ...] = ()) -> LazyPattern | NeedsPattern:
    """``re.compile`` deferred to first use (see :class:`LazyPattern`); with
    ``needs``, behind their substring test (:class:`NeedsPattern`)."""
    if needs:
        return NeedsPattern(LazyPattern(pattern, flags), needs)
    return LazyPattern(pattern, flags)


# The characters other than A-Z that Python's re.IGNORECASE matches to an ASCII letter (the re module's
# documentation names these four), as the letter: with str.lower() after, a text holds a lowercase ASCII
# word as a substring wherever an IGNORECASE pattern of that word finds it (tests/lint/test_vocabulary.py).
_ASCII_CASE_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_FOLDED_LETTERS = tuple(chr(code) for code in _ASCII_CASE_FOLD)


def ascii_folded(text: str) -> str:
    """``text`` lower-cased so that a lowercase ASCII word is a substring of it wherever ``re.IGNORECASE`` would
    match that word in ``text``. Text without any of the four letters is only lower-cased (``str.translate`` looks
    every character up, the substring tests do not)."""
    if text.isascii() or not any(letter in text for letter in _FOLDED_LETTERS):
        return text.lower()
    return text.translate(_ASCII_CASE_FOLD).lower()


class NeedsPattern:
    """A pattern (a :class:`LazyPattern`) every match of which holds one of
    ``needs``, lowercase ASCII words, as the pattern's own letters (in what
    it matches or in a lookahead, never only in a lookbehind), in any case
    ``re.IGNORECASE`` reads as theirs: where the :func:`ascii_folded` text
    between ``pos`` and ``endpos`` (all of it for ``sub``) holds none of
    them there is no match, and the pattern is neither compiled nor run.
    ``tests/foundation/test_pattern_needs.py`` reads each such pattern of
    the package and asserts its words are needed. Offers ``search``,
    ``match``, ``fullmatch``, ``finditer``, ``findall``, ``sub``, ``subn``
    and ``pattern``; any other attribute (``split`` too) is the compiled
    pattern's, compiled at that first use."""

    def __init__(self, pattern: LazyPattern, needs: tuple[str, ...]) -> None:
        self.pattern = pattern.pattern
        self.full = pattern
        self.needs = needs

    def _possible(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> bool:
        # re reads a negative pos or endpos as 0; a slice would count it from the end
        folded = ascii_folded(string[max(pos, 0):max(endpos, 0)])
        return any(word in folded for word in self.needs)

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        return self.full.search(string, pos, endpos) if self._possible(string, pos, endpos) else None

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        return self.full.match(string, pos, endpos) if self._possible(string, pos, endpos) else None

    def fullmatch(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        return self.full.fullmatch(string, pos, endpos) if self._possible(string, pos, endpos) else None

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize):
        return self.full.finditer(string, pos, endpos) if self._possible(string, pos, endpos) else iter(())

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list:
        return self.full.findall(string, pos, endpos) if self._possible(string, pos, endpos) else []

    def sub(self, repl, string: str, count: int = 0) -> str:
        return self.full.sub(repl, string, count) if self._possible(string) else string

    def subn(self, repl, string: str, count: int = 0) -> tuple[str, int]:
        return self.full.subn(repl, string, count) if self._possible(string) else (string, 0)

    def __getattr__(self, name: str):
        if name == "full":  # not set yet (a copy being built): no recursion through self.full
            raise AttributeError(name)
        return getattr(self.full, name)

    def __repr__(self) -> str:
        return f"NeedsPattern({self.full!r}, needs={self.needs!r})"


_NEEDED_REPEATS = ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT")


def needed_words(pattern: str) -> tuple[str, ...] | None:
    """Lowercase ASCII words one of which every match of ``pattern`` (searched
    case-insensitively) holds among the characters it matches, read off its
    parse tree; None when no such words can be read (a branch with none, only
    classes and repeats of none or more). Each word is a run of the pattern's
    own ASCII literals; a branch gives the words of all its alternatives, a
    group or a repeat of one or more times those of its content; a lookaround,
    class, anchor or backreference gives none and ends a run. Of the sets
    found along the pattern, the one whose shortest word is longest is given
    (``(?<![a-z])conv|fprop``: conv and fprop). The reading only ever gives
    words a match needs: tests/records/test_needed_words.py holds it to the
    pattern on every kernel name of the records and fixtures and on made-up
    names. Used for a study file's kernel_groups rules that Python's re runs
    (:func:`studygen.records.kernel_rules.compile_pattern`), behind :class:`NeedsPattern`."""
    words = _needed(_parser.parse(pattern, re.IGNORECASE).data)
    return tuple(sorted(words)) if words else None


def _needed(items) -> frozenset[str] | None:
    sets, run = [], ""
    for op, argument in items:
        name = str(op)
        if name == "LITERAL" and chr(argument).isascii():
            run += chr(argument).lower()
            continue
        if run:
            sets.append(frozenset({run}))
            run = ""
        inner = None
        if name == "SUBPATTERN":
            inner = _needed(argument[-1].data)
        elif name == "ATOMIC_GROUP":
            inner = _needed(argument.data)
        elif name in _NEEDED_REPEATS and argument[0] >= 1:
            inner = _needed(argument[2].data)
        elif name == "BRANCH":
            alternatives = [_needed(branch.data) for branch in argument[1]]
            if all(alternatives):
                inner = frozenset().union(*alternatives)
        if inner:
            sets.append(inner)
    if run:
        sets.append(frozenset({run}))
    return max(sets, key=lambda found: (min(map(len, found)), -len(found)), default=None)


class GuardedPattern:
    """A costly pattern (a :class:`LazyPattern`) searched only where
    ``guard``, a cheaper one, finds a place first. ``guard`` must match
    wherever ``pattern`` does (at the start of each of its matches, as a
    prefix of it, or looser), so that every answer is ``pattern``'s own; a
    text in which ``guard`` finds nothing never compiles ``pattern``.
    Offers ``search`` and ``finditer`` (``pos`` and ``endpos`` as ``re``'s)
    and ``pattern``, the costly pattern's source."""

    def __init__(self, pattern: LazyPattern, guard: LazyPattern) -> None:
        self.pattern = pattern.pattern
        self.full = pattern
        self.guard = guard

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match | None:
        if self.guard.search(string, pos, endpos) is None:
            return None
        return self.full.search(string, pos, endpos)

    def finditer(self, string: str, pos: int = 0, endpos: int = sys.maxsize):
        if self.guard.search(string, pos, endpos) is None:
            return iter(())
        return self.full.finditer(string, pos, endpos)

    def __repr__(self) -> str:
        return f"GuardedPattern({self.full!r}, guard={self.guard!r})"


def invalid_pattern(pattern: str, flags: int = 0) -> str | None:
    """Why ``pattern`` is no regular expression Python's ``re`` compiles,
    in the words a finding uses (``invalid regular expression 'sgemm(':
    missing ), unterminated subpattern at position 5``); None when it
    compiles. One wording for every reader of a study file's
    ``kernel_groups`` (check, render and collect)."""
    try:
        re.compile(pattern, flags)
    except re.error as exc:
        return f"invalid regular expression {pattern!r}: {exc}"
    return None
