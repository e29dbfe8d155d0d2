"""Ratios written in words (SG103): "twice as fast as", "three times as
large as", "1.5 times as fast as", "half as fast as", "half the time of",
"a third of the latency that ... takes", "twice the memory of", "halves the
GPU compute time of", "doubled the latency relative to".

Each is the ratio it states, read by the same readers as a ratio printed
``2x`` (:func:`~studygen.lint.figures.tokenize` gives it as a figure in
``x``): "twice" and "half" are 2, "three times" and "a third" 3, "1.5 times"
1.5, with the rounding of the number as written (a word is a whole number:
"twice" stands for what "2x" does). The figure spans the whole phrase, up
to where its reference begins ("twice as fast as| fp32", "half the time
of| fp32", "half the time| fp32 takes"), so that a reader finds the
reference right after it. Its direction (:func:`reading`, turned into one
by :func:`~studygen.lint.ratio_direction.written_direction`) is that of the
adjective ("as fast as": the subject is the better; "as slow as", "as large
as") or, for "the <quantity> of", the subject's figure the larger; a part
("half", "a third") turns it round: "half as fast as" is 2x slower, "half
the time of" 2x less time. Up to three words may name the quantity more
closely ("half the GPU compute time of", "the median latency of"). The verbs
"halves", "doubles" and "triples the <quantity> of" (or "relative to") state
2x less, 2x and 3x more of it (a new user's trial: "fp16 halves the GPU
compute time of fp32" and "half the GPU compute time of" were no ratios).

The phrase needs its reference: "as ... as" ends in one, "the <quantity>"
needs "of", "that", "taken by" after it, or a name and a verb of spending
("half the time fp32 takes"); "half the time" alone is an idiom (often), and
"twice" alone a count. Case (a new user's trial): "fp16 is twice as fast as
fp32" and "bf16 runs in half the time fp32 takes" passed, while "2x faster"
over the same figures was reported.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..patterns import lazy_compile

_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_PART_WORDS = {"half": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "tenth": 10}
# each adjective "as ... as" takes, and which way it says the subject's figure goes (ratio_direction's words)
ADJECTIVE_DIRECTIONS = {"fast": "better", "quick": "better", "slow": "worse", "large": "larger", "big": "larger",
                        "high": "larger", "long": "larger", "much": "larger", "many": "larger", "great": "larger",
                        "small": "smaller", "low": "smaller", "short": "smaller", "little": "smaller", "few": "smaller"}
_ADJECTIVES = "|".join(ADJECTIVE_DIRECTIONS)
_QUANTITIES = ("time|times|latency|latencies|runtime|duration|memory|size|footprint|throughput|bandwidth|energy|"
               "power|cost")
# up to three words naming the quantity more closely ("the GPU compute time", "the median latency"), none of them
# a word that ends the phrase or starts another ("half the time of the run" stays "half the time of")
_QUALIFIERS = r"(?:(?!(?:of|that|than|and|or|as|by|the|a|an|to|in|on|at|for|with|is|was|are|were)\b)[\w-]+\s+){0,3}?"
_VERB_VALUES = {"halve": 2, "double": 2, "triple": 3}


def _pattern(named: bool) -> str:
    """The phrase as a pattern, with its named groups or (to sit inside another pattern) without."""
    def group(name: str, body: str) -> str:
        return f"(?P<{name}>{body})" if named else f"(?:{body})"

    multiple = (group("twice", "twice|thrice") + r"|" + group("count", r"\d{1,6}(?:\.\d{1,6})?|" + "|".join(_COUNT_WORDS))
                + r"\s+times")
    part = (r"(?:(?:a|one)\s+)?" + group("half", "half") + r"|(?:a|one)\s+" + group("part", "third|quarter|fourth|fifth|tenth"))
    as_as = r"\s+as\s+" + group("adjective", _ADJECTIVES) + r"\s+as\b"
    # "the time of fp32", "the latency that fp32 takes", "the time fp32 takes": a reference must follow
    the = (r"\s+(?:of\s+)?the\s+" + _QUALIFIERS + group("quantity", _QUANTITIES)
           + r"\b(?:\s+(?:of|that|taken\s+by|needed\s+by|used\s+by)\b"
           r"|(?=\s+(?:the\s+)?[\w.+-]+(?:\s+[\w.+-]+){0,2}?\s+(?:takes|took|needs|needed|requires|required|uses|used|"
           r"spends|spent)\b))")
    # "halves the GPU compute time of fp32", "doubled the memory relative to fp32": a verb, its reference after it
    verb = (group("verb", "halve[sd]|double[sd]|triple[sd]") + r"\s+the\s+" + _QUALIFIERS
            + group("verb_quantity", _QUANTITIES) + r"\b\s+(?:of|relative\s+to)\b")
    return rf"(?<![\w.])(?:(?:{multiple}|{part})(?:{as_as}|{the})|{verb})"


WORDED_RATIO_RE = lazy_compile(_pattern(True), re.IGNORECASE)
# the phrase inside another pattern (a reference's lead-in, :func:`~studygen.lint.variant_pairs.reference_before`)
WORDED_RATIO = _pattern(False)
# a word every phrase holds: a text without one holds none, and the pattern is not run over it
_QUICK_RE = lazy_compile(r"\b(?:twice|thrice|times|half|third|quarter|fourth|fifth|tenth|halve[sd]|double[sd]|"
                         r"triple[sd])\b", re.IGNORECASE)


class Reading(NamedTuple):
    """What a worded ratio states: its ``value`` as text (``"2"``) with its
    ``decimals``, the ``adjective`` ("fast") or the ``quantity`` ("time") it
    compares, whether it is a ``part`` ("half": the subject the smaller or
    the worse), and its ``words`` as written, spaces folded ("half as fast as")."""

    value: str
    decimals: int
    adjective: str | None
    quantity: str | None
    part: bool
    words: str


def may_hold(text: str) -> bool:
    """Whether ``text`` may hold a worded ratio (a word every one holds)."""
    return _QUICK_RE.search(text) is not None


def readings(text: str) -> list[tuple[int, int, Reading]]:
    """(start, end, reading) of each worded ratio of ``text``, in order."""
    if not may_hold(text):
        return []
    return [(match.start(), match.end(), _read(match)) for match in WORDED_RATIO_RE.finditer(text)]


def reading_at(text: str, start: int, end: int) -> Reading | None:
    """The reading of the worded ratio spanning exactly ``text[start:end]``, None when none does."""
    if not may_hold(text[start:end]):
        return None
    match = WORDED_RATIO_RE.match(text, start)
    return _read(match) if match is not None and match.end() == end else None


def _read(match: re.Match) -> Reading:
    twice, count, half, part = (match.group(name) for name in ("twice", "count", "half", "part"))
    verb = match.group("verb")
    if verb is not None:
        # "halves the time of": the subject's the smaller part, as "half the time of"; "doubles": twice the time of
        stem = verb.lower()[:-1]
        return Reading(str(_VERB_VALUES[stem]), 0, None, match.group("verb_quantity").lower(), stem == "halve",
                       " ".join(match.group(0).split()))
    if twice is not None:
        value = "2" if twice.lower() == "twice" else "3"
        decimals = 0
    elif count is not None:
        word = _COUNT_WORDS.get(count.lower())
        value = str(word) if word is not None else count
        decimals = len(value.split(".", 1)[1]) if "." in value else 0
    else:
        value, decimals = str(_PART_WORDS[(half or part).lower()]), 0
    adjective, quantity = match.group("adjective"), match.group("quantity")
    return Reading(value, decimals, adjective.lower() if adjective else None, quantity.lower() if quantity else None,
                   twice is None and count is None, " ".join(match.group(0).split()))


__all__ = ["ADJECTIVE_DIRECTIONS", "Reading", "WORDED_RATIO", "WORDED_RATIO_RE", "may_hold", "reading_at", "readings"]
