"""One matcher between a name written in prose and a table's header or label
cell (SG103 percent changes, SG107 universal comparisons, row variants).

Prose names a column or a label loosely: "FP16 latencies" for ``FP16 latency
(ms)``, "mixed precision" for ``Mixed-precision``, "full-precision" for
``Full precision``. Both sides are read as the same words:

- case and Markdown emphasis do not count (:func:`~studygen.lint.text.normalize`);
- a plural is its singular (:func:`~studygen.lint.text.stem`: ``latencies``
  is ``latency``, ``GPUs`` is ``gpu``);
- a unit in parentheses closing a header (``Latency (ms)``, ``Throughput
  (images/s)``, ``Size [MiB]``) is no word of the name;
- a hyphen parts words as a space does (``mixed-precision`` is ``mixed
  precision``); a ``+`` or a dot inside a word does not (``int8+sq``,
  ``11.4``), so ``int8`` never names ``int8+sq``.

:func:`name_words` gives a header's words, :func:`prose_words` the words of a
text with their offsets, :func:`mention` where a text names a set of words
(each anywhere, as a header's distinguishing words are named) and
:func:`phrase_at` where it names a label's words in their order, one after
the other.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..patterns import lazy_compile
from .figures import UNITS
from .text import normalize, stem

# a word: a letter or digit, then letters, digits, "_", "+" and inner dots (versions: 11.4); a hyphen parts words
_WORD_RE = lazy_compile(r"[a-z0-9\xb5\u03bc][\w+]*(?:\.[\w+]+)*")
# a closing "(ms)", "[MiB]", "(in ms)": the unit of a header, not a word of its name
_UNIT_SUFFIX_RE = lazy_compile(
    r"\s*[(\[]\s*(?:in\s+)?(?:" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) + r")\s*[)\]]\s*$",
    re.IGNORECASE,
)


@lru_cache(maxsize=16384)
def prose_words(text: str) -> tuple[tuple[int, int, str], ...]:
    """(start, end, stemmed word) of each word of ``text`` (see the module
    docstring); offsets index ``normalize(text)``."""
    return tuple((match.start(), match.end(), stem(match.group())) for match in _WORD_RE.finditer(normalize(text)))


@lru_cache(maxsize=16384)
def name_words(header: str) -> tuple[str, ...]:
    """The stemmed words a header or label cell is named by, in order, its
    closing unit in parentheses left out: ``"FP16 Latencies (ms)"`` ->
    ``("fp16", "latency")``."""
    return tuple(word for _, _, word in prose_words(_UNIT_SUFFIX_RE.sub("", header)))


def mention(text: str, words: frozenset[str] | set[str]) -> int | None:
    """Offset in ``normalize(text)`` of the first word of ``text`` among the
    stemmed ``words`` when every one of them occurs in it, else None (also
    for no words)."""
    if not words:
        return None
    first: dict[str, int] = {}
    for offset, _, word in prose_words(text):
        if word in words and word not in first:
            first[word] = offset
    return min(first.values()) if len(first) == len(words) else None


def phrase_at(text: str, phrase: tuple[str, ...]) -> tuple[int, int] | None:
    """(start, end) in ``normalize(text)`` of the first place ``text`` names
    the words of ``phrase`` (from :func:`name_words`) one after the other,
    else None (also for an empty phrase)."""
    if not phrase:
        return None
    found = prose_words(text)
    size = len(phrase)
    for index in range(len(found) - size + 1):
        if all(found[index + k][2] == phrase[k] for k in range(size)):
            return found[index][0], found[index + size - 1][1]
    return None


__all__ = ["mention", "name_words", "phrase_at", "prose_words"]
