"""Ranges taken over repeated measurements, not over a table's rows.

"Each of the 6 compilations of FP8 was slower than each of the 3 compilations
of fp16, by 0.212 to 2.927 ms", "the ratio runs from 0.81x to 1.00x over every
pair of compilations", "2.1 to 2.4 ms from one run to the next": such a range
spans the repeats of one measurement (runs, compilations, seeds …) or the
pairs of them. A table that prints one figure per configuration (a median, a
kernel group's time) does not hold those repeats, so the range is no summary
of its rows, however its figures happen to fall. A table whose rows are the
repeats themselves (a label column of runs or compilations) still may be.

A repeat noun counts only where the statement quantifies it as what the range
spans ("each of the 6 compilations", "every pair of runs", "run-to-run"), not
where a figure pools it ("the medians over every compilation": SG107 reads
that wording the same way).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .text import normalize
from .vocabulary import NOISE_VOCABULARY

# The singular of each noun naming a repeated measurement: the noise vocabulary's repeat nouns, and builds
REPEAT_NOUNS = (*(noun[:-2] if noun.endswith("ches") else noun[:-1] for noun in NOISE_VOCABULARY["repeat_nouns"]),
                "build")
_NOUNS = "|".join(REPEAT_NOUNS)
_NOUN = r"(?:" + _NOUNS + r")(?:e?s)?\b"
_COUNT = r"(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty)\s+)"
_SPAN_RE = lazy_compile(
    # "each of the 6 compilations", "every pair of runs", "all three seeds", "both builds"
    r"\b(?:(?:each|every|all|both|any)\s+(?:of\s+)?(?:the\s+|its\s+|their\s+|our\s+)?" + _COUNT + r"?(?:pairs?\s+of\s+)?"
    # "pairs of compilations", "a pair of runs": one tail for both (\b(?:A|B)T tries what \bAT|\bBT tries, in
    # that order, at a fifth less to compile: 0.99 -> 0.79 ms)
    r"|pairs?\s+of\s+)(?:the\s+)?" + _COUNT + r"?" + _NOUN
    # "run-to-run", "from one compilation to the next"
    + r"|\b(?:" + _NOUNS + r")-to-(?:" + _NOUNS + r")\b"
    + r"|\bfrom\s+one\s+(?:" + _NOUNS + r")\s+to\s+(?:the\s+next|another)\b",
    re.IGNORECASE,
    needs=("each", "every", "all", "both", "any", "pair", "-to-", "from"),
)
# "the medians over every compilation", "averaged across all runs": the repeats a figure pools
_POOLED_BEFORE_RE = lazy_compile(
    r"\b(?:medians?|means?|averages?|averaged|totals?|sums?|summed|pooled|geomean|aggregated?)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:over|across|of|for)\s+(?:the\s+)?$", re.IGNORECASE,
    needs=("median", "mean", "average", "total", "sum", "pooled", "aggregate"))
_NOUN_RE = lazy_compile(r"\b(" + _NOUNS + r")(?:e?s)?\b", re.IGNORECASE)
# How far a statement reaches either side of its range (characters): bounds the cost per range on a sentence
# shaped to slow lint down, far past any hand-written statement.
STATEMENT_REACH = 1000


def repeats_spanned(sentence_text: str, start: int, end: int) -> str | None:
    """The repeat noun (singular, lower case: ``compilation``) that the
    statement holding ``sentence_text[start:end]`` (a range) quantifies as
    what the range spans, or None. The statement runs between the
    semicolons or colons around the range, at most :data:`STATEMENT_REACH`
    characters either side of it."""
    low = max(0, start - STATEMENT_REACH)
    begin = max(sentence_text.rfind(";", low, start), sentence_text.rfind(":", low, start), low - 1) + 1
    high = min(len(sentence_text), end + STATEMENT_REACH)
    finish = min((i for i in (sentence_text.find(";", end, high), sentence_text.find(":", end, high)) if i != -1), default=high)
    for clause_begin, clause_end in _clauses_around(sentence_text, begin, finish, start, end):
        clause = sentence_text[clause_begin:clause_end]
        for match in _SPAN_RE.finditer(clause):
            if _POOLED_BEFORE_RE.search(clause, max(0, match.start() - 60), match.start()):
                continue
            return _NOUN_RE.findall(match.group())[-1].lower()
    return None


# What may stand between a clause's start and its range when the clause only gives the figure of the
# clause before it (", by 0.21 to 2.93 ms", ", from 0.8x to 1.0x").
_JOINING_ONLY_RE = lazy_compile(r"\s*(?:(?:and|or|but)\s+)?(?:by|from|of|at|between|ranging\s+from|in)?\s*$", re.IGNORECASE)


# A statement's opening phrase, which scopes every clause after it ("Over every pair of compilations, ...").
_OPENING_RE = lazy_compile(r"\W*(?:over|across|for|between|from|in)\b", re.IGNORECASE)


def _clauses_around(text: str, begin: int, finish: int, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of the statement ``text[begin:finish]`` that may say what the
    range ``text[start:end]`` spans, as ``(begin, end)``: its comma clause (a
    comma followed by a blank ends a clause; 1,000 does not), joined with the
    clause before it when the range's clause is only a joining word and the
    range (", by 0.212 to 2.927 ms"); and the statement's opening phrase
    when it is one that scopes every clause after it ("Over every pair of
    runs, the ratio ..."). A repeat named in another clause ("..., which is
    within run-to-run noise") says nothing about what this range spans: the
    seed's "The GEMMs take 0.19 to 0.21 ms ..., which is within run-to-run
    noise" summarises a kernel-time table."""
    commas = [begin + m.start() for m in re.finditer(r",\s", text[begin:finish])]
    before = [i for i in commas if i < start]
    after = [i for i in commas if i >= end]
    clause_begin = before[-1] + 1 if before else begin
    if before and _JOINING_ONLY_RE.fullmatch(text, clause_begin, start):
        clause_begin = before[-2] + 1 if len(before) > 1 else begin
    parts = [(clause_begin, after[0] if after else finish)]
    if before and clause_begin > begin and _OPENING_RE.match(text, begin, before[0]):
        parts.append((begin, before[0]))
    return parts


def rows_are(table, noun: str) -> bool:
    """True when a label column of ``table`` names ``noun`` (singular or
    plural) in its header or in a label: the rows are those repeats."""
    pattern = re.compile(r"(?<![a-z])" + re.escape(noun) + r"(?:e?s)?(?![a-z])")
    for column in table.label_values:
        if pattern.search(normalize(table.headers[column])):
            return True
        if any(pattern.search(value) for value in table.label_values[column]):
            return True
    return False


def axis_named(table, text: str) -> bool:
    """True when ``text`` names a label column of ``table`` by its header's
    words ("at every batch size" under "Batch"): a range spanning the rows
    of that axis as well as repeats ("at every batch size and in every run")
    still summarises the table."""
    lowered = normalize(text)
    for column in table.label_values:
        words = [word for word in re.findall(r"[a-z]{3,}", normalize(table.headers[column]))]
        if any(re.search(r"(?<![a-z])" + re.escape(word) + r"(?:e?s)?(?![a-z])", lowered) for word in words):
            return True
    return False


__all__ = ["REPEAT_NOUNS", "axis_named", "repeats_spanned", "rows_are"]
