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

**Short names.** Prose names a GPU by less than its table prints: "RTX 6000
Ada" for ``RTX 6000 Ada Generation``, "H100" for ``NVIDIA H100 80GB HBM3``.
:func:`short_names` maps each such short name to the one label it stands
for: its words are the label's first word (opening vendor words left out)
and then some of its other words, in order. A short name two labels share, or
one that is itself a label (``fp16`` beside ``fp16 allowed``), names no label
by shortness; words are whole, so ``a100`` is never short for ``a1000``.
:func:`short_mention_ok` keeps a short name from being read inside a longer
name the prose writes ("H100 SXM", "Quadro RTX 6000": a neighbour word with
a digit or a capital letter continues the name).
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..label_names import VENDOR_WORDS
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


# the most words after its first of a label whose every in-order selection is a short name (2**7 of them);
# past it only the label's word-prefixes are (labels that long are sentences, not names)
_SHORT_NAME_WORDS = 7
# words written with a capital that still continue no name beside a short one ("The H100", "the H100 GPU")
_PLAIN_WORDS = frozenset({"the", "a", "an", "on", "in", "at", "for", "with", "and", "or", "our", "its", "this",
                          "that", "both", "every", "each", "all", "gpu", "card", "device", "than", "vs", "is",
                          "are", "was", "were", "while", "whereas", "but", "across", "compared", "versus"})
VENDOR_WORD_SET = frozenset(VENDOR_WORDS)


def _short_forms(words: tuple[str, ...]) -> set[tuple[str, ...]]:
    """The short names of one label's words: its first word (vendor words
    opening it left out) followed by any in-order selection of the rest."""
    start = 0
    while start < len(words) - 1 and words[start] in VENDOR_WORD_SET:
        start += 1
    head, rest = words[start], words[start + 1:]
    if not any(c.isalpha() for c in head):
        return set()  # "8 x 8", "4": a number names a row only with its column's word
    if len(rest) > _SHORT_NAME_WORDS:
        return {(head,) + rest[:size] for size in range(len(rest) + 1)}
    forms = set()
    for mask in range(1 << len(rest)):
        forms.add((head,) + tuple(word for bit, word in enumerate(rest) if mask >> bit & 1))
    return forms


def short_names(labels) -> dict[tuple[str, ...], tuple[str, ...]]:
    """Short name -> the one label of ``labels`` (each a tuple of
    :func:`name_words`) it stands for; a short name of two labels, or one
    equal to a label, left out (see the module docstring)."""
    labels = set(labels)
    owners: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for label in labels:
        if not label:
            continue
        for form in _short_forms(label):
            if form != label:
                owners.setdefault(form, set()).add(label)
    return {form: next(iter(held)) for form, held in owners.items() if len(held) == 1 and form not in labels}


def _continues_name(raw: str, word: str) -> bool:
    """True when ``word`` (stemmed, lower case), beside a short name, may be
    part of a longer name: it holds a digit, or ``raw`` writes it with a capital."""
    if any(c.isdigit() for c in word):
        return True
    if word in _PLAIN_WORDS or word in VENDOR_WORD_SET:
        return False
    return any(any(c.isupper() for c in match.group())
               for match in re.finditer(r"(?<![\w.+-])" + re.escape(word), raw, re.IGNORECASE))


def short_mention_ok(raw: str, words, start: int, end: int) -> bool:
    """True when the short name at ``words[start:end]`` (stemmed words of
    ``raw``) stands alone: neither neighbour word continues a name."""
    return not ((start > 0 and _continues_name(raw, words[start - 1])) or
                (end < len(words) and _continues_name(raw, words[end])))


def short_phrase_at(text: str, forms) -> tuple[int, int] | None:
    """(start, end) in ``normalize(text)`` of the first place ``text``
    names one of the short names ``forms`` standing alone
    (:func:`short_mention_ok`), else None."""
    found = prose_words(text)
    words = [word for _, _, word in found]
    best = None
    for form in forms:
        size = len(form)
        for index in range(len(words) - size + 1):
            if tuple(words[index:index + size]) == form and short_mention_ok(text, words, index, index + size):
                span = (found[index][0], found[index + size - 1][1])
                if best is None or span[0] < best[0] or (span[0] == best[0] and span[1] > best[1]):
                    best = span
                break
    return best


__all__ = ["mention", "name_words", "phrase_at", "prose_words", "short_mention_ok", "short_names", "short_phrase_at"]
