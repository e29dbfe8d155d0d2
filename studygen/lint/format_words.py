"""Formats named in words ("a six-bit integer format", "8-bit floating
point"): the names they stand for (``int6``, ``fp8``, ``6-bit``), read by
SG106's configuration terms and by SG206's mentions of a configuration.
The bit count is read with the number words of :mod:`studygen.lint.vocabulary`."""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .vocabulary import NUMBER_WORDS_RE, number_value

# What follows a format's bit count ("-bit", " bits", "-bit floating point"). The count before it is read
# apart (digits, or words by the shared NUMBER_WORDS_RE): the spans and groups are those of one pattern
# (?<![\w-])(?P<bits>\d+|NUMBER_WORDS)_FORMAT_TAIL (tests/lint/test_pattern_sharing.py holds it as the oracle).
_FORMAT_TAIL = (r"[- ]bits?(?:\s+(?P<kind>integer|int|floating[- ]point|float|fp|"
                r"normal[- ]float|nf|microscaling|mx))?\b")
_FORMAT_TAIL_RE = lazy_compile(_FORMAT_TAIL, re.IGNORECASE)
_BIT_DIGITS_RE = lazy_compile(r"(?<![\w-])\d+")
_KIND_PREFIX = {"integer": "int", "int": "int", "float": "fp", "fp": "fp", "normal": "nf", "nf": "nf", "microscaling": "mxfp", "mx": "mxfp"}


def _format_matches(text: str):
    """``(start, bits, tail match)`` of each format in words, left to right,
    as ``finditer`` gave them for the one pattern "a count (digits, or
    :data:`~studygen.lint.vocabulary.NUMBER_WORDS`; no letter, digit or hyphen glued before) then
    :data:`_FORMAT_TAIL`". Exact because no number word holds "bit": a
    count never runs past a tail, so a tail has at most one count before it
    and the match is at the leftmost start that fullmatches up to the tail."""
    resume = 0  # where the previous format ended: the next starts there or later
    for tail in _FORMAT_TAIL_RE.finditer(text):
        end = tail.start()
        first = end
        while first > resume and (text[first - 1].isalnum() or text[first - 1].isspace() or text[first - 1] in "_-"):
            first -= 1  # the count is word characters, blanks and hyphens
        for start in range(first, end):
            if start and (text[start - 1].isalnum() or text[start - 1] in "_-"):
                continue  # (?<![\w-]) cannot hold here
            if _BIT_DIGITS_RE.fullmatch(text, start, end) or NUMBER_WORDS_RE.fullmatch(text, start, end):
                yield start, text[start:end], tail
                resume = tail.end()
                break


def format_mentions(text: str) -> list[tuple[str, int, int]]:
    """``(name, start, end)`` for each format ``text`` writes in words: two
    names for "a six-bit integer format" (``int6`` and ``6-bit``), ``fp8``
    and ``8-bit`` for "8-bit floating point", ``nf4`` for "4-bit normal
    float", only ``4-bit`` for a bare "four-bit". Bit counts over 64 are no
    format."""
    found = []
    if "bit" not in text.lower():
        return found
    for start, count, tail in _format_matches(text):
        bits = number_value(count)
        if bits is None or bits > 64:
            continue
        kind = (tail.group("kind") or "").lower()
        if kind:
            prefix = _KIND_PREFIX.get(kind.split("-")[0].split()[0], "fp")
            found.append((f"{prefix}{bits}", start, tail.end()))
        found.append((f"{bits}-bit", start, tail.end()))
    return found


_FORMAT_NAME_RE = lazy_compile(r"(?:" + "|".join(sorted(set(_KIND_PREFIX.values()))) + r")\d+|\d+-bit")


def is_format_name(word: str) -> bool:
    """True for a name :func:`format_mentions` may give (``int6``, ``fp8``,
    ``nf4``, ``mxfp4``, ``6-bit``)."""
    return _FORMAT_NAME_RE.fullmatch(word) is not None


def format_aliases(text: str) -> set[str]:
    """The names of :func:`format_mentions` (``{"int6", "6-bit"}`` for "a
    six-bit integer format")."""
    return {name for name, _, _ in format_mentions(text)}
