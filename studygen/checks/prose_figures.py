"""Figures quoted in a study file's prose, as SG222 (misquoted figures) and
SG205 (quality figures from mixed image sets) read them: a figure with a
unit (``0.03395 ms``, ``AP 0.4625``, ``24.4 MiB``), the sentence it stands
in, its significant digits, and whether a measured value gives it at its
printed decimals (rounded or cut). Shared by the two checks; no check of
its own.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from fractions import Fraction
from functools import lru_cache

from ..numbers import format_number
from ..patterns import lazy_compile
from ..records.kinds import POINTS_PER_UNIT
from ..study.placeholders import claim_strings

MIN_SIGNIFICANT = 3  # fewer: a round target or threshold, not a quotation of a measurement
# Longest figure read as a quotation: a record's float keeps 17 significant digits, which 32 characters print down
# to 1e-14; a figure written longer copies no record (SG222 weighs each quote against every row's figure).
MAX_QUOTED_CHARACTERS = 32
_NUMBER = r"\d+(?:\.\d+)?"
_SENTENCE_END = lazy_compile(r"[.!?;](?=\s|$)")
# "0.03395 ms", "0.03395 to 0.04 ms", "0.04395 against 0.1536 ms" (both figures; a whole number before "against" is
# a count: "batch 128 against ..."), "AP 0.4625", "0.4625 AP"; not inside a version, date or word,
# what follows a time or size per image, sample or token ("1.13 ms per image", "2.1 ms/img"): a batch's figure
# divided by its size, a result (SG224) but no record's figure (a trial's "batch 64 ... 1.13 ms per image" of
# 72.63 ms was read as a misquote)
_PER_ITEM_RE = lazy_compile(r"\s*(?:/|per[\s-]+|an?\s+)(?:images?|imgs?|samples?|items?|frames?|tokens?|requests?|"
                            r"queries|query|examples?|inputs?|sequences?|elements?|pictures?|photos?)\b")
_FIGURE_RE = re.compile(
    rf"(?<![\w.\-/])(?:(?P<first>{_NUMBER})\s*(?:to|–|—|-)\s*|(?P<other>\d+\.\d+)\s*(?:against|vs\.?|versus)\s+)?"
    rf"(?P<number>{_NUMBER})(?![\w.]?\d)\s*"
    rf"(?P<unit>ms|µs|μs|us|MiB|MB|GiB|GB|AP|points?)(?![\w-])"
    rf"|\bAP\s*(?:of\s+|=\s*|:\s*)?(?P<ap>{_NUMBER})(?![\w.]?\d|[\w-])")

# A COCOeval statistic named before its figure with a verb between ("AR10 falls from 0.7403 to 0.6693", "the fp16
# AP is 0.6288", "AP75 of 0.5874"): a fraction read as AP, as "AP 0.4625" is; a trial's AR10 misquote passed unread
_STATISTIC_FIGURE_RE = lazy_compile(
    r"\b(?:AP(?:50|75|s|m|l)?|AR(?:1|10|100|s|m|l))\s+(?i:(?:is|was|stays|remains|reads|of|at|falls|drops|rises|"
    r"goes|moves|climbs|from|=|:)\s*){1,3}(?P<first>0\.\d+)(?![\w.]?\d)"
    r"(?:\s*(?i:to|against|vs\.?|versus)\s+(?P<second>0\.\d+)(?![\w.]?\d))?", needs=("0.",))


def sentence_at(text: str, start: int) -> str:
    """The sentence of ``text`` around offset ``start`` (ended by ``.``, ``!``,
    ``?`` or ``;`` before a space, so a decimal point ends none; one just
    before ``start`` ends one too): one string a sentence (:func:`sentence_text`), not a slice made again for each
    of thousands of figures of one sentence (a 100 KB field quoting '12.34 ms' 11,000 times: 2.7 s of copying)."""
    return sentence_text(text, *sentence_bounds(text, start))


def sentence_bounds(text: str, start: int) -> tuple[int, int]:
    """``(begin, end)`` offsets of :func:`sentence_at`'s sentence in ``text``,
    both found in the text's sentence ends (listed once a text), so that a
    caller asking for each of thousands of names in one long sentence does
    not scan that sentence again for each."""
    ends = _sentence_ends(text)
    before = bisect_left(ends, start)  # the ends before start
    if start > 0 and text[start - 1] in ".!?;":
        begin = start
    else:
        begin = ends[before - 1] if before else 0
    # an end mark lies one character before its end offset: the first at or after start closes the sentence
    after = bisect_left(ends, start + 1, before)
    return begin, ends[after] - 1 if after < len(ends) else len(text)


@lru_cache(maxsize=64)
def sentence_text(text: str, begin: int, end: int) -> str:
    """``text[begin:end]`` as one string a sentence (:func:`sentence_bounds`), so that what a reader finds once a
    sentence is looked up by it at once: a slice made for each of thousands of claims was hashed again for each."""
    return text[begin:end]


@lru_cache(maxsize=8)
def _sentence_ends(text: str) -> list[int]:
    """Offsets just past each sentence end of ``text``, ascending: found once
    a text, where each figure's sentence searched the text up to it (a study
    file quoting thousands of figures in one field took seconds)."""
    return [match.end() for match in _SENTENCE_END.finditer(text)]


def significant_digits(text: str) -> int:
    """Significant digits of a figure as written: ``0.03395`` 4, ``91.6`` 3,
    ``100.0`` 4, ``1000`` 1 (a whole number's trailing zeros are not counted)."""
    digits = text.replace(".", "").lstrip("0")
    return len(digits if "." in text else digits.rstrip("0"))


def decimals_of(text: str) -> int:
    return len(text.partition(".")[2])


def _rounded(value: float, decimals: int) -> str:
    return format_number(value, decimals)


def _cut(value: float, decimals: int) -> str:
    """``value`` (not negative) cut, not rounded, to ``decimals``; 1e-9 of a step
    keeps a float just under its decimal text (1.15 is 1.1499999…) from losing a digit."""
    scale = 10 ** decimals
    try:
        cut = math.floor(value * scale + 1e-9)
    except OverflowError:
        # past 10**308 the scale is no float: cut exactly (a quote written with hundreds of decimals
        # made check stop with an internal error), 1e-9 of a step being far below any float's digits there
        cut = math.floor(Fraction(value) * scale)
    return format_number(cut / scale, decimals)


def names_in(sentence: str, names) -> bool:
    """True when ``sentence`` holds one of ``names`` (lower case) as whole words."""
    folded = sentence.lower()
    return any(re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", folded) for name in names if name in folded)


def printed_as(value: float, decimals: int) -> tuple[str, str]:
    """``value``, its sign aside, rounded and cut to ``decimals``: the texts
    a figure quoting it at those decimals may be (:func:`matches`)."""
    size = abs(value)
    return _rounded(size, decimals), _cut(size, decimals)


def matches(text: str, value: float) -> bool:
    """True when ``value``, its sign aside (a prose figure has none: "saves
    0.0421 ms"), rounds or is cut to the figure ``text`` at its decimals."""
    return text in printed_as(value, decimals_of(text))


class NearValues:
    """Items by the size of their values (in the unit a quote is read in),
    to find those that may print as a quoted figure without formatting every
    value for every quote: a study file quoting hundreds of figures against
    a thousand records formatted each row's figures for each quote (SG212
    and SG213: 17 s of one check). :meth:`near` gives a superset of the
    items :func:`matches` accepts; callers keep the exact test.

    ``values``: ``(value, item index)`` pairs, any order, several per item
    allowed (a row's figure and its range ends)."""

    def __init__(self, values):
        values = list(values)
        entries = sorted((abs(value), index) for value, index in values if math.isfinite(value))
        self._sizes = [size for size, _ in entries]
        self._items = [index for _, index in entries]
        self._always = {index for value, index in values if not math.isfinite(value)}  # never sorted: always tested

    def near(self, text: str, factor: float = 1.0) -> list[int]:
        """The item indexes, ascending, with a value whose size times
        ``factor`` (positive: ms to the quote's unit) lies within one step of
        the last printed digit of ``text`` (rounding reaches half a step
        either side, cutting a step above: :func:`printed_as`), the window
        widened by a millionth for floating-point noise; every index where
        ``text`` is no finite float ("1,234.5"), and each item holding a
        value that is none."""
        try:
            figure, step = float(text), 10.0 ** -decimals_of(text)
        except (ValueError, OverflowError):  # no plain decimal figure: every item is tested
            figure = math.inf
        if not math.isfinite(figure * factor):
            return sorted(set(self._items) | self._always)
        low = (figure - step) * (1 - 1e-6) / factor
        high = (figure + step) * (1 + 1e-6) / factor + 1e-300
        return sorted(set(self._items[bisect_left(self._sizes, low):bisect_right(self._sizes, high)]) | self._always)


def ap_factor(number: str) -> float:
    """The factor from a stored AP (COCOeval's fraction, 0 to 1) to the
    figure ``number`` quoted as AP: 100 when the figure is above 1 (it is in
    points, :data:`studygen.records.kinds.POINTS_PER_UNIT`: "AP 46.3" of
    0.4630), else 1 ("AP 0.4630")."""
    return POINTS_PER_UNIT["AP"] if float(number) > 1 else 1.0


def quoted_figures(text: str, per_item: bool = True):
    """``(number text, unit as written, offset)`` of each figure with a unit in ``text``, in order, and of each
    fraction a COCOeval statistic's name gives through a verb (:data:`_STATISTIC_FIGURE_RE`, unit ``AP``);
    without those per image, sample or token ("1.13 ms per image") unless ``per_item``."""
    found = []
    for match in _FIGURE_RE.finditer(text):
        if not per_item and _PER_ITEM_RE.match(text, match.end()):
            continue
        if match.group("ap") is not None:
            found.append((match.group("ap"), "AP", match.start("ap")))
            continue
        for name in ("first", "other", "number"):
            if match.group(name) is not None:
                found.append((match.group(name), match.group("unit"), match.start(name)))
    if "A" in text:  # a statistic's name holds one: most texts skip the search
        read = {start for _, _, start in found}
        found += [(match.group(name), "AP", match.start(name)) for match in _STATISTIC_FIGURE_RE.finditer(text)
                  for name in ("first", "second") if match.group(name) is not None and match.start(name) not in read]
        found.sort(key=lambda figure: figure[2])
    yield from found


def quotations(spec) -> list[tuple[tuple, int, str, str, str]]:
    """``(path, offset, number, unit, sentence)`` of each figure with a unit
    (:func:`quoted_figures`) that the study file ``spec``'s claims
    (:func:`~studygen.study.placeholders.claim_strings`) quote as a
    measurement: at least :data:`MIN_SIGNIFICANT` significant digits and at
    most :data:`MAX_QUOTED_CHARACTERS` characters; ``sentence`` the one it
    stands in (:func:`sentence_at`); a figure per image, sample or token is a batch's divided, no quotation of a
    measurement. SG213 and SG222 read these."""
    return [(path, start, number, unit, sentence_at(text, start)) for path, text in claim_strings(spec)
            for number, unit, start in quoted_figures(text, per_item=False)
            if significant_digits(number) >= MIN_SIGNIFICANT and len(number) <= MAX_QUOTED_CHARACTERS]


__all__ = ["MAX_QUOTED_CHARACTERS", "MIN_SIGNIFICANT", "ap_factor", "decimals_of", "matches", "names_in", "printed_as",
           "quotations", "quoted_figures", "sentence_at", "sentence_bounds", "significant_digits"]
