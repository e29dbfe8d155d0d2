"""Pairs of figures a sentence compares, as SG103 reads them to check a ratio,
percentage or share printed beside them (:mod:`.sg103_derived_figures`), and
as check's reading of the study file's prose takes a comparison's two sides
(:mod:`studygen.checks.prose_timings`): "A vs B" and "A against B", a change
"from A to B", "A and B" of one unit, a pair with a short place phrase after
its first figure ("0.2754 ms on the RTX 3080 against 1.398 ms"), and a part
and its whole ("5.363 of 10.692 ms"). Cases: tests/lint/test_prose_pairs.py.
Also the ratios printed between their own two operands
(:func:`inline_claims`: "int8 (0.0440 ms) is 3.0x faster than fp16 (0.0388
ms)"), which SG103 checks in the direction their words state.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..patterns import lazy_compile
from .figures import RATIO_UNITS, UNITS, Figure
from .text import label_tokens, normalize
from .variant_pairs import kind_of_unit, kind_of_words

_COMPARE_GAP_RE = lazy_compile(r"\s*(?:vs\.?|versus|against|compared\s+(?:to|with)|→|->|over)\s*", re.IGNORECASE)
# "0.2754 ms on the RTX 3080 against 1.398 ms", "12 ms for one GPU vs 20 ms": a figure, a short phrase that says
# where or what it was measured on (a preposition and up to four words, no clause break, no conjunction), then
# the connector; the phrase's whole numbers ("3080") are its names, not figures (see _placed_pairs)
# (group 1 the phrase's words after its preposition)
_PLACE_WORD = r"(?!(?:and|or|but|while|whereas|than)\b)"
_PLACED_GAP_RE = lazy_compile(r"\s+(?:on|for|with|at|in|under)\s+((?:" + _PLACE_WORD + r"[\w.+-]+\s+){1,4})"
                              r"(?:vs\.?|versus|against|compared\s+(?:to|with))\s*", re.IGNORECASE)
# the same phrase after a pair's second figure, ending the pair ("... against 1.398 ms on the RTX 3070)"): its
# words keep a dot only inside them ("TensorRT 10.3"), so a sentence's closing stop is no part of the phrase
_PLACE_AFTER_RE = lazy_compile(r"\s+(?:on|for|with|at|in|under)((?:\s+" + _PLACE_WORD + r"[\w+-]+(?:\.[\w+-]+)*){1,4})",
                               re.IGNORECASE)
# "from the Batch baseline of 2.2 req/s to 11.7 req/s", "from c=1 to c=64": a change with words around its figures
_FROM_TO_GAP_RE = lazy_compile(r"\s*(?:[^\s\d,;:]+\s+)?to\s+(?:[a-z_]+\s*=\s*)?", re.IGNORECASE)
_FROM_BEFORE_RE = lazy_compile(r"\bfrom\b[^,;:.()\d]{0,40}(?:[a-z_]+\s*=\s*)?$", re.IGNORECASE)

# "0.0295 ms and fp16 0.0388 ms", "12.1 ms and 9.8 ms on fp16": two figures of one unit joined by "and", the
# second behind a name of up to three words and "at"/"takes"; the first may carry its own place ("2.673 ms in
# run two and 2.621 ms in run one")
_AND_GAP_RE = lazy_compile(r"(?:\s+(?:in|on|at|for|with|under)\s+[A-Za-z][\w.+-]*(?:\s+[\w.+-]+){0,2}?)?"
                           r"\s*,?\s+and\s+(?:[A-Za-z][\w.+-]*\s+){0,3}?(?:(?:at|takes|took|with|in)\s+)?",
                           re.IGNORECASE)
# "5.363 of 10.692 ms", "5.363 ms out of the 10.692 ms": a part and its whole (a share), the whole in a measured unit
_OF_GAP_RE = lazy_compile(r"\s+(?:out\s+)?of\s+(?:the\s+|its\s+|a\s+)?(?:total\s+(?:of\s+)?)?", re.IGNORECASE)

# "23.36 ms/frame (42.80 FPS)", "31% lower latency (+45% FPS)": a figure restated in another unit in the
# parenthesis right after it; the opening (a "/frame" tail of the first unit allowed; after a ratio, up to three
# words, group 1) and the closing, with the word naming the second figure's quantity when it is no unit of its
# own (group 1: "FPS" after "+45%")
_RESTATED_OPEN_RE = lazy_compile(r"(?:/\w+)?((?:\s+[A-Za-z][\w-]*){0,3})\s*\(\s*")
_RESTATED_CLOSE_RE = lazy_compile(r"\s*(\w+)?\s*\)")


class Restated(NamedTuple):
    """One measurement as printed in one or more units: ``figures`` (the
    first as printed, then those its parenthesis restates it in), ``named``
    the unit a word after each names ("+45% FPS": frames/s; None when
    none), and ``opening``/``end`` the offsets of the parenthesis (both the
    first figure's end when it has none)."""

    figures: tuple[Figure, ...]
    named: tuple[str | None, ...]
    opening: int
    end: int


def restated_groups(text: str, figures: list[Figure]) -> list[Restated]:
    """``figures`` (in text order) grouped by :class:`Restated`: a figure
    and the one in the parenthesis right after it, when both are measured
    or both ratios ("20.0 ms (50.0 FPS)", "31% (+45% FPS)"); a count or a
    ratio beside a measured figure ("12 ms (3 runs)", "20 ms (1.3x)") stays
    a figure of its own."""
    groups: list[Restated] = []
    for figure in figures:
        last = groups[-1] if groups else None
        # the plain tests first: a process whose figures sit in no parenthesis never compiles the two patterns
        if last is not None and len(last.figures) == 1 and last.figures[0].unit is not None \
                and (figure.unit in RATIO_UNITS) == (last.figures[0].unit in RATIO_UNITS) \
                and (figure.unit in RATIO_UNITS or measured(figure)) and "(" in text[last.end:figure.start] \
                and (close := _RESTATED_CLOSE_RE.match(text, figure.end)) \
                and (opening := _RESTATED_OPEN_RE.fullmatch(text, last.end, figure.start)) \
                and (figure.unit in RATIO_UNITS or not opening.group(1)):
            named = UNITS.get(close.group(1) or "") if figure.unit in RATIO_UNITS else figure.unit
            groups[-1] = Restated((*last.figures, figure), (*last.named, named), opening.end() - 1, close.end())
        else:
            groups.append(Restated((figure,), (None,), figure.end, figure.end))
    return groups


def compared_pairs(sentence, text: str, tokens) -> list[tuple[Figure, Figure]]:
    """Pairs of figures the sentence compares: changes ("from A to B", also
    with words around the figures), "A vs B" and "A and B"."""
    pairs = [(r.lo, r.hi) for r in sentence.ranges if r.kind == "change"]
    for first, second in zip(tokens, tokens[1:]):
        if _COMPARE_GAP_RE.fullmatch(text, first.end, second.start):
            pairs.append((first.figure, second.figure))
        elif _FROM_TO_GAP_RE.fullmatch(text, first.end, second.start) and _FROM_BEFORE_RE.search(
                text, max(sentence.start, first.start - 48), first.start):
            pairs.append((first.figure, second.figure))
        elif first.figure.unit is not None and _AND_GAP_RE.fullmatch(text, first.end, second.start):
            pairs.append((first.figure, second.figure))  # "int8 takes 0.0295 ms and fp16 0.0388 ms, a 1.6x speedup"
    placed, names = _placed_pairs(text, tokens)
    # "at batch 16 against 40.0 us": the 16 names the first figure's place, it is no operand of its own
    pairs = [(a, b) for a, b in pairs if a.start not in names] + placed
    return [(a, b) for a, b in pairs if a.unit not in RATIO_UNITS and b.unit not in RATIO_UNITS
            and (a.unit == b.unit or a.unit is None or b.unit is None)]


def _placed_pairs(text: str, tokens) -> tuple[list[tuple[Figure, Figure]], set[int]]:
    """Two figures compared with a place or name after the first ("0.2754 ms on the RTX 3080 against 1.398 ms
    on the RTX 3070", "(41 ms on one GPU vs 67 ms on another)"): the first figure, the phrase of
    :data:`_PLACED_GAP_RE`, the second figure, which must be measured in the first's unit (or the first has
    none). Whole numbers without a unit inside the phrase are its names ("RTX 3080", "batch 8"); any other figure
    there, or a comma, and the two are no pair (the parenthesis says more than a comparison). Returns the pairs
    and the start offsets of the whole numbers their phrases hold."""
    found, names = [], set()
    # the next figure no name's number after each token, found once backwards: a sentence of thousands of
    # figures looked through all those after each
    following: list[int | None] = [None] * len(tokens)
    after = None
    for index in range(len(tokens) - 1, -1, -1):
        following[index] = after
        if not is_label_number(tokens[index].figure):
            after = index
    for index, first in enumerate(tokens):
        if first.figure.unit in RATIO_UNITS or is_label_number(first.figure):
            continue  # a ratio is no operand; "batch 8 on the A100 against 12 ms" compares no two figures
        if following[index] is None:
            continue
        second = tokens[following[index]]
        if second is tokens[index + 1] and _COMPARE_GAP_RE.fullmatch(text, first.end, second.start):
            continue  # no phrase between them: compared_pairs reads it already
        if measured(second.figure) and first.figure.unit in (None, second.figure.unit) and \
                _PLACED_GAP_RE.fullmatch(text, first.end, second.start):
            found.append((first.figure, second.figure))
            names.update(t.start for t in tokens[index + 1:following[index]] if first.end < t.start < second.start)
    return found, names


def placed_gap(text: str, start: int, end: int) -> str | None:
    """The words of the place phrase that fills ``text[start:end]`` between
    a pair's two figures, its preposition and connector left out ("on the RTX
    3080 against " -> "the RTX 3080"); None when the gap is no such phrase."""
    match = _PLACED_GAP_RE.fullmatch(text, start, end)
    return match.group(1).strip() if match else None


def place_after(text: str, start: int, end: int) -> tuple[int, str]:
    """``(end, words)`` of the place phrase that opens ``text[start:end]``
    (after a pair's second figure: " on the RTX 3070"), its preposition left
    out; ``(start, "")`` when none opens there."""
    match = _PLACE_AFTER_RE.match(text, start, end)
    return (match.end(), match.group(1).strip()) if match else (start, "")


def is_label_number(figure: Figure) -> bool:
    """A whole number printed without a unit: a name's part ("RTX 3080", "batch 8"), not a measured figure."""
    return figure.unit is None and not figure.decimals


def measured(figure: Figure) -> bool:
    return figure.unit is not None and figure.unit not in RATIO_UNITS


def share_pairs(text: str, tokens) -> list[tuple[Figure, Figure]]:
    """A part and its whole, the whole in a measured unit and the part in
    the same or none: "convolution takes 5.363 of 10.692 ms, 50%"."""
    return [(first.figure, second.figure) for first, second in zip(tokens, tokens[1:])
            if second.figure.unit is not None and second.figure.unit not in RATIO_UNITS
            and first.figure.unit in (None, second.figure.unit) and _OF_GAP_RE.fullmatch(text, first.end, second.start)]


# A new clause with figures of its own starts between a derived figure and a pair after it.
NEW_CLAUSE_RE = lazy_compile(r";|\b(?:and|while|whereas|but)\b", re.IGNORECASE)

# "is 3.0x faster than fp16 (", "gives 1.5x lower latency than fp16 at ": a ratio between its subject's figure
# before it and its reference's figure after "than"; group 1 is what names the reference. A multiple of the
# reference ("is 1.8x the fp32 median of ", "1.8x that of fp32 (") has no comparative (_TIMES_GAP_RE)
_THAN_GAP_RE = lazy_compile(r"\s*(?:[\w-]+\s+){1,3}?than\s+([^;()]{1,40}?)\s*(?:\(|\bat\s+|\btakes\s+|,\s*)?",
                            re.IGNORECASE)
_TIMES_GAP_RE = lazy_compile(r"\s*(?:that\s+of\s+|those\s+of\s+|the\s+)([^;()]{1,40}?)\s*(?:\(|\bof\s+|\bat\s+|,\s*)",
                             re.IGNORECASE)
# "is 3% of the A100's 10.69 ms": a percentage of the reference, a share of it (its subject's figure before)
_SHARE_OF_GAP_RE = lazy_compile(r"\s*of\s+(?:that\s+of\s+|those\s+of\s+|the\s+)?([^;()]{1,40}?)\s*(?:\(|,\s*)?",
                                re.IGNORECASE)
_INLINE_REACH = 40  # characters between a subject's figure and the ratio after it ("(0.0440 ms) is 3.0x")


class InlineClaim(NamedTuple):
    """A ratio or percent change with its two operands inline: ``subject``
    (the figure beside the name before it) against ``reference`` (the one
    after "than")."""

    derived: Figure
    subject: Figure
    reference: Figure


def inline_claims(text: str, tokens, starts: list[int]) -> list[InlineClaim]:
    """Ratios and percent changes printed between their two operands:
    "int8 (0.0440 ms) is 3.0x faster than fp16 (0.0388 ms)", "int8 at
    0.0440 ms is 1.5x faster than fp16 at 0.0388 ms", "int8's 0.2754 ms is
    1.8x the fp32 median of 0.1536 ms": three figures in a row, the outer two
    of one measured unit, "than" (or, for a ratio in x, "the" or "that of": a
    multiple of the reference; for a percentage, "of": a share of it, "0.3072
    ms, 3% of the A100's 10.69 ms") before the last and no clause break or other
    figure between them; a figure and its restatement in another unit
    ("23.36 ms (42.80 FPS)", :func:`~.operand_pairs.restated_groups`) count as
    one: "31% lower latency (+45% FPS)" reads the 31% over the ms, the +45%
    over the FPS its word names (tests/lint/test_restated_figures.py)."""
    claims = []
    groups = restated_groups(text, [t.figure for t in tokens if t.start in starts])  # "batch 4": a label
    for before, middle, after in zip(groups, groups[1:], groups[2:]):
        if middle.figures[0].start - before.end > _INLINE_REACH or \
                NEW_CLAUSE_RE.search(text, before.end, middle.figures[0].start):
            continue
        # the words between the ratio and its reference, the parenthesis restating the ratio left out
        gap = text[middle.figures[0].end:middle.opening] + text[middle.end:after.figures[0].start]
        than = _THAN_GAP_RE.fullmatch(gap)
        share = not than and _SHARE_OF_GAP_RE.fullmatch(gap)
        if not (than or share or _TIMES_GAP_RE.fullmatch(gap)):
            continue
        for position, (derived, named) in enumerate(zip(middle.figures, middle.named)):
            if not than and derived.unit != ("%" if share else "x"):
                continue  # "the" or "that of" takes a multiple only: "1.8x the median of"; "of" a percentage only
            # the pair in the unit its word names, else printed first (or restated) like it, of the quantity its words name
            pairs = [(s, r) for s in before.figures for r in after.figures if s.unit == r.unit and s.unit is not None
                     and s.unit not in RATIO_UNITS and named in (None, s.unit)] if derived.unit in RATIO_UNITS else []
            if named is None and len(middle.figures) > 1:
                pairs = [(s, r) for s, r in pairs if (s in before.figures[1:]) == (position > 0)]
            if len(pairs) > 1:
                pairs = [p for p in pairs if kind_of_unit(p[0].unit) == kind_of_words(label_tokens(normalize(gap)))]
            if pairs:
                claims.append(InlineClaim(derived, *pairs[0]))
    return claims
