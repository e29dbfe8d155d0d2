"""Regular expressions compiled on first use, not at import.

The lint vocabularies and the check modules hold about 200 module-level
expressions; compiling them all at import cost about 0.1 s of every start,
also of a ``studygen check`` whose findings are reused (measured with
``benchmarks/family_check.py``), which uses none of them.
:class:`GuardedPattern` goes one step further for a costly pattern that
most texts hold no match of: a cheaper pattern finds where a match could
start, and the costly one is compiled only once that finds something.
"""

from __future__ import annotations

import re
import sys

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


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """``re.compile`` deferred to first use (see :class:`LazyPattern`)."""
    return LazyPattern(pattern, flags)


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
