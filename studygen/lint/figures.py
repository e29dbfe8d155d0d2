"""Figures in text: numbers with units, shapes, versions, ranges.

A *figure* is a number as printed (``0.409``, ``8%``, ``1.01x``, ``83.0 MiB``)
with its unit and its printed decimals; the decimals give the rounding a
check must allow (a value printed ``0.19`` stands for 0.185 to 0.195).
Units understood: ms, s, us, ns, %, x, MiB, GiB, KiB, MB, GB, KB, AP, AP50,
AP75 and the rates (:data:`RATE_UNITS`) tokens/s, images/s, requests/s,
queries/s, samples/s, sequences/s, iterations/s, inferences/s, frames/s and the
bandwidths MB/s, GB/s, TB/s, MiB/s, GiB/s (aliases such as ``µs``, ``×``,
``img/s``, ``req/s``, ``QPS``, ``FPS`` and the "/sec" spellings, ``inf/sec``, map onto
these). ``800 x 1067`` is a shape and ``11.4.0.106`` a
version, never figures; ``B200`` or ``fp16`` hold no figure.

A *range* is two figures joined by ``to``, ``-``, ``–`` or
``between … and …`` (``0.19 to 0.21 ms``, ``1.15x-1.2x``, ``8% to 9%``,
``between 2.1 and 9.7 ms``); ``from A to B`` is a change, not a range, unless
a verb such as "ranges" or "varies" introduces it.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from ..patterns import lazy_compile
from .worded_ratios import readings as worded_readings

UNITS: dict[str, str] = {
    "ms": "ms", "msec": "ms", "milliseconds": "ms", "millisecond": "ms",
    "s": "s", "sec": "s", "secs": "s", "seconds": "s", "second": "s",
    "us": "us", "µs": "us", "μs": "us", "microseconds": "us",
    "ns": "ns",
    "%": "%", "percent": "%",
    "x": "x", "×": "x",
    "MiB": "MiB", "GiB": "GiB", "KiB": "KiB", "MB": "MB", "GB": "GB", "KB": "KB", "kB": "KB",
    "tokens/s": "tokens/s", "token/s": "tokens/s", "tok/s": "tokens/s", "tokens/sec": "tokens/s", "tok/sec": "tokens/s",
    "images/s": "images/s", "image/s": "images/s", "img/s": "images/s", "imgs/s": "images/s",
    "requests/s": "requests/s", "request/s": "requests/s", "req/s": "requests/s", "reqs/s": "requests/s",
    "queries/s": "queries/s", "query/s": "queries/s", "QPS": "queries/s",
    "samples/s": "samples/s", "sample/s": "samples/s",
    "sequences/s": "sequences/s", "sequence/s": "sequences/s", "seqs/s": "sequences/s", "seq/s": "sequences/s",
    "iterations/s": "iterations/s", "iters/s": "iterations/s", "iter/s": "iterations/s", "it/s": "iterations/s",
    "MB/s": "MB/s", "GB/s": "GB/s", "TB/s": "TB/s", "GB/sec": "GB/s", "MiB/s": "MiB/s", "GiB/s": "GiB/s",
    # the same rates spelt per "sec", as benchmark scripts print them ("123.28 inf/sec", "950 images/sec")
    "images/sec": "images/s", "img/sec": "images/s", "requests/sec": "requests/s", "req/sec": "requests/s",
    "queries/sec": "queries/s", "samples/sec": "samples/s", "sequences/sec": "sequences/s", "seq/sec": "sequences/s",
    "iterations/sec": "iterations/s", "it/sec": "iterations/s", "MB/sec": "MB/s", "TB/sec": "TB/s",
    # a model's forward passes per second ("inferences/sec", "inf/s"): a throughput like the rest
    "inferences/s": "inferences/s", "inference/s": "inferences/s", "inf/s": "inferences/s",
    "inferences/sec": "inferences/s", "inference/sec": "inferences/s", "inf/sec": "inferences/s",
    # a video or camera pipeline's frames per second ("42.80 FPS"): a throughput, the higher the better
    "frames/s": "frames/s", "frames/sec": "frames/s", "FPS": "frames/s", "fps": "frames/s",
    "AP": "AP", "mAP": "AP", "AP50": "AP50", "AP75": "AP75", "mAP50": "AP50", "mAP75": "AP75",
}
RATIO_UNITS = frozenset({"x", "%"})
# Units of an amount per second, where the higher figure is the better (a throughput, a bandwidth); "GB/s" is a
# bandwidth, never the size "GB". Lint's quantity kinds (studygen.lint.variant_pairs) read every one as a rate.
RATE_UNITS = frozenset(unit for unit in UNITS.values() if unit.endswith("/s"))

_UNIT_ALTERNATIVES = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))

# One pass finds every number-like token; shapes and versions come first so
# that "800 x 1067" and "11.4.0.106" are never read as figures.
_TOKEN_RE = lazy_compile(
    # the leading lookahead lets the engine skip quickly to candidate characters
    r"(?=[-+−v\d])(?:"
    r"(?P<shape>(?<![\w.])\d+(?:[ \t]*[x×][ \t]*\d+)+(?!\w|\.\d))"
    r"|(?P<version>(?<![\w.])v?\d+\.\d+\.\d+(?:\.\d+)*(?!\w))"
    # after ".." a number starts ("-12..-14%", "8..8192"); after any other dot it is a decimal's tail
    r"|(?P<num>(?:(?<![\w.])|(?<=\.\.))(?:[-+−](?=\d))?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?)"
    r"(?:[ \u00a0\u2009\u202f]?(?P<unit>" + _UNIT_ALTERNATIVES + r"))?(?!\w)"
    r")"
)
_QUICK_DIGIT_RE = lazy_compile(r"\d")
# "AP 0.4644", "AP of 0.4644", "AP stays at 0.512", "AP50 reaches 0.701"
# its names are the AP units' (UNITS): a name read here and missing there stopped lint with a KeyError ("mAP50 0.659")
_AP_PREFIX_RE = lazy_compile(r"\b(" + "|".join(sorted((u for u, k in UNITS.items() if k.startswith("AP")), key=len,
                                                     reverse=True)) + r")(?:\s+(?:stays|stay|drops|drop|falls|rises|reaches|reach|goes|ranges|is|was|of|at|to|from|between|=|:)){0,3}\s*$")
_SPREAD_BEFORE_RE = lazy_compile(r"(?:±|\+/-|\+-)\s*$")

_RANGE_GAP_RE = lazy_compile(r"\s*(?:to|–|—|-|‒|\.\.\.?|…)\s*")
_AND_GAP_RE = lazy_compile(r"\s*and\s*")
_MAX_RANGE_GAP = 16  # characters between a range's figures: " to ", " and ", " – " with room for spacing
_BETWEEN_RE = lazy_compile(r"\bbetween\s*$", re.IGNORECASE)
_FROM_RE = lazy_compile(r"\bfrom\s*$", re.IGNORECASE)
_RANGE_VERB_RE = lazy_compile(r"\b(?:ranges?|ranging|range|var(?:y|ies|ied|ying)|spans?|spanning|spread)\b[^,;.]{0,40}\bfrom\s*$", re.IGNORECASE)

# Words that make a range a range of differences (savings, overheads).
_DIFFERENCE_BEFORE_RE = lazy_compile(
    r"\b(?:save[sd]?|saving|savings|cuts?|reduc\w*|gains?|shaves?|trims?|adds?|added|costs?|lowers?|improv\w*|"
    r"frees?|freed|reclaims?|releases?|speeds?\s+up|slows?\s+down|shortens?|lengthens?|by)\b(?:\s+(?:about|roughly|only|around|some|up\s+to))?"
    r"(?:\s+between)?\s*$",
    re.IGNORECASE,
)
_DIFFERENCE_AFTER_RE = lazy_compile(
    r"\s*(?:of\s+\w+\s+)?(?:faster|slower|less|more|lower|higher|shorter|longer|smaller|larger|bigger|quicker|"
    r"better|worse|reduction|improvement|saving|savings|overhead|increase|decrease|difference|gain|penalty|drop|"
    r"speedup|speed-up|slowdown|vs\.?|versus|against|relative\s+to|compared\s+(?:to|with))(?!\w)",
    re.IGNORECASE,
)


class Figure(NamedTuple):
    """A number as printed: ``value``, its ``text``, printed ``decimals``,
    normalised ``unit`` (None when unstated), its offsets in the text, and
    ``exact`` when it is a count printed as it is (see :func:`mark_counts`)."""

    value: float
    text: str
    decimals: int
    unit: str | None
    start: int
    end: int
    exact: bool = False

    @property
    def half_step(self) -> float:
        """Half a unit of the last printed digit: the rounding allowance."""
        return 0.5 * 10.0 ** (-self.decimals)


class Token(NamedTuple):
    """A number-like token: ``kind`` is ``num``, ``shape`` or ``version``."""

    kind: str
    figure: Figure | None
    start: int
    end: int
    text: str


class Range(NamedTuple):
    """Two figures printed as a range (``lo`` <= ``hi`` after ordering).

    ``kind`` is ``range`` or ``change`` (``from A to B``); ``difference`` is
    True when the words around say it is a saving, overhead or gap
    ("saves 0.04 to 0.11 ms", "0.1 to 0.2 ms faster")."""

    lo: Figure
    hi: Figure
    unit: str | None
    kind: str
    difference: bool
    start: int
    end: int
    source: str

    @property
    def text(self) -> str:
        """The range as the document prints it (``0.19 to 0.21 ms``)."""
        return self.source


# the figure a finding's message opens with, quoted or not, after "range " ("5.0x between ...", "'20% less' does
# not follow ...", "range 0.05 to 0.1536 ms leaves out ..."): a message names the figure it is about first
_OPENING_FIGURE_RE = lazy_compile(r"'?(?:range\s+)?([-+−]?\d[\d.,]*(?:\s?(?:x|×|%))?)")


def opening_figure(message: str) -> str | None:
    """The figure ``message`` opens with (its digits and an ``x`` or ``%``
    written after them), or None: what a finding is about, where the
    finding names only a line (SG103's readers, check placing a lint
    finding inside a study-file field)."""
    found = _OPENING_FIGURE_RE.match(message)
    return found.group(1) if found else None


def with_unit(number_text: str, unit: str | None) -> str:
    """``0.409`` + ``ms`` -> ``0.409 ms``; ``8`` + ``%`` -> ``8%``; ``1.01`` + ``x`` -> ``1.01x``."""
    if not unit:
        return number_text
    if unit in ("%", "x"):
        return f"{number_text}{unit}"
    if unit.startswith("AP"):
        return f"{unit} {number_text}"
    return f"{number_text} {unit}"




def _number(text: str) -> tuple[float, int]:
    if "," not in text and "−" not in text:  # the common case: "5.889", "-12"
        dot = text.find(".")
        return float(text), (len(text) - dot - 1 if dot != -1 else 0)
    cleaned = text.replace(",", "").replace("−", "-")
    decimals = len(cleaned.split(".", 1)[1]) if "." in cleaned else 0
    return float(cleaned), decimals


def tokenize(text: str) -> list[Token]:
    """Every number-like token of ``text`` in order: figures (with unit,
    including an ``AP`` written before the number), shapes and versions.
    A number after ``±`` is a spread, not a figure, and is left out. A
    ratio written in words ("twice as fast as", "half the time of":
    :mod:`studygen.lint.worded_ratios`) is a figure in ``x`` spanning its
    phrase, in place of any number inside it ("1.5 times as fast as")."""
    worded = worded_readings(text)
    if not worded and not _QUICK_DIGIT_RE.search(text):
        return []
    tokens = []
    # The prefix and spread tests only run where their markers occur at all.
    has_spread = "±" in text or "+/-" in text or "+-" in text
    has_ap = "AP" in text
    # tuple.__new__ straight away: a named tuple's own __new__ is a Python frame per figure
    new = tuple.__new__
    append = tokens.append
    for match in _TOKEN_RE.finditer(text):
        start, end = match.span()
        shape, version, number_text, unit_text = match.groups()  # one call: named lookups cost per figure
        if shape is not None:
            append(new(Token, ("shape", None, start, end, shape)))
            continue
        if version is not None:
            append(new(Token, ("version", None, start, end, version)))
            continue
        if has_spread and start and _spread_before(text, start):
            # "5.3 ± 0.2 ms": the unit after the spread belongs to the figure before it
            if unit_text and tokens and tokens[-1].figure is not None and tokens[-1].figure.unit is None:
                tokens[-1] = tokens[-1]._replace(figure=tokens[-1].figure._replace(unit=UNITS[unit_text]))
            continue
        if "," in number_text or "−" in number_text:
            value, decimals = _number(number_text)
            number_text = number_text.replace("−", "-")
        else:  # _number's common case, inlined
            dot = number_text.find(".")
            value, decimals = float(number_text), (len(number_text) - dot - 1 if dot != -1 else 0)
        if not math.isfinite(value):
            continue  # a figure printed with more than 309 whole digits reads as infinity: nothing compares with it
        unit = UNITS[unit_text] if unit_text else None
        if unit is None and has_ap and start:
            prefix = _AP_PREFIX_RE.search(text, max(0, start - 32), start)
            if prefix:
                unit = UNITS[prefix.group(1)]
        figure = new(Figure, (value, number_text, decimals, unit, start, end, False))
        append(new(Token, ("num", figure, start, end, text[start:end])))
    tokens = mark_counts(text, tokens)
    return _with_worded(text, tokens, worded) if worded else tokens


def _with_worded(text: str, tokens: list[Token], worded: list) -> list[Token]:
    """``tokens`` with a figure in ``x`` for each worded ratio (start, end, reading), the tokens inside its
    phrase left out, in text order."""
    spans = [(start, end) for start, end, _ in worded]
    kept = [t for t in tokens if not any(start <= t.start < end for start, end in spans)]
    for start, end, reading in worded:
        figure = Figure(float(reading.value), reading.value, reading.decimals, "x", start, end)
        kept.append(Token("num", figure, start, end, text[start:end]))
    return sorted(kept, key=lambda t: t.start)


def _spread_before(text: str, start: int) -> bool:
    """True when ``±`` (or ``+/-``) ends right before ``start``: the figure there is a spread."""
    window = text[max(0, start - 6):start]
    return ("±" in window or "+/-" in window or "+-" in window) and _SPREAD_BEFORE_RE.search(window) is not None


def figures_of(text: str) -> list[Figure]:
    """The figures of ``text`` (shapes and versions left out)."""
    return [t.figure for t in tokenize(text) if t.figure is not None]


def is_count_share(first: Figure, second: Figure, separator: str) -> bool:
    """True for ``k/N`` printed with a bare slash between two whole numbers,
    ``k <= N``: ``26/100`` requests, ``3997/4000`` calls (a count of a total)."""
    return (separator == "/" and first.decimals == 0 and second.decimals == 0 and first.unit is None
            and 0 <= first.value <= second.value and second.value > 0)


_COUNT_SHARE_RE = lazy_compile(r"\d/\d")


def mark_counts(text: str, tokens: list[Token]) -> list[Token]:
    """``tokens`` with the figures of each counted share (``26/100``, see
    :func:`is_count_share`) marked exact: counts of events are not rounded
    (:mod:`studygen.lint.rounding`)."""
    if "/" not in text or not _COUNT_SHARE_RE.search(text):
        return tokens
    for index in range(len(tokens) - 1):
        first, second = tokens[index], tokens[index + 1]
        if first.figure is None or second.figure is None or first.end + 1 != second.start:
            continue
        if is_count_share(first.figure, second.figure, text[first.end]):
            tokens[index] = first._replace(figure=first.figure._replace(exact=True))
            tokens[index + 1] = second._replace(figure=second.figure._replace(exact=True))
    return tokens


def find_ranges(text: str, tokens: list[Token]) -> list[Range]:
    """Ranges and changes among consecutive figure tokens of ``text``.

    Both ends must agree on the unit when both state one; the range takes
    the unit stated. Changes (``from A to B``) are returned with kind
    ``change``; checks of coverage use kind ``range`` only."""
    ranges = []
    index = 0
    has_between = "between" in text.lower()
    while index + 1 < len(tokens):
        first, second = tokens[index], tokens[index + 1]
        if first.figure is None or second.figure is None:
            index += 1
            continue
        gap_start, gap_end = first.end, second.start
        if gap_end - gap_start > _MAX_RANGE_GAP:
            index += 1  # no joining word is that long: no range, no regex run
            continue
        before_start = max(0, first.start - 60)
        between = _BETWEEN_RE.search(text, before_start, first.start) if has_between else None
        if between:
            joined = _AND_GAP_RE.fullmatch(text, gap_start, gap_end) or _RANGE_GAP_RE.fullmatch(text, gap_start, gap_end)
        else:
            joined = _RANGE_GAP_RE.fullmatch(text, gap_start, gap_end)
        lo, hi = first.figure, second.figure
        if not joined or (lo.unit and hi.unit and lo.unit != hi.unit):
            index += 1
            continue
        unit = hi.unit or lo.unit
        kind = "range"
        if not between and _FROM_RE.search(text, before_start, first.start) and not _RANGE_VERB_RE.search(text, max(0, first.start - 80), first.start):
            kind = "change"
        if lo.value > hi.value and kind == "range":
            lo, hi = hi, lo
        start = between.start() if between else first.start
        difference = bool(
            _DIFFERENCE_BEFORE_RE.search(text, max(0, start - 50), start)
            or _DIFFERENCE_AFTER_RE.match(text, second.end)
        )
        source = text[start:second.end]
        ranges.append(Range(lo, hi, unit, kind, difference, first.start, second.end, source))
        index += 2
    return ranges


# Units of one dimension and their size in its smallest unit: a range printed in one is read against a column in
# another. Powers of ten only, so a printed figure's rounding allowance converts exactly (KiB, MiB and GiB differ by
# 1024: their printed digits would stand for no whole number of the other's digits, and they are not converted).
_SCALES: tuple[dict[str, int], ...] = (
    {"ns": 1, "us": 10**3, "ms": 10**6, "s": 10**9},
    {"KB": 1, "MB": 10**3, "GB": 10**6},
    {"MB/s": 1, "GB/s": 10**3, "TB/s": 10**6},
)


# Binary sizes and bandwidths, 1024 apart: a figure is only ever expressed in the larger unit of two (its rounding
# allowance, shifted by three digits a step, then widens by 2.4% a step and never narrows: 20480 MiB stands for
# 20479.5 to 20480.5 MiB, 20.000 GiB for 20479.49 to 20480.51 MiB). Not for ranges (in_unit), which may go down.
_BINARY_SCALES: tuple[dict[str, int], ...] = (
    {"KiB": 1, "MiB": 2**10, "GiB": 2**20},
    {"MiB/s": 1, "GiB/s": 2**10},
)


def in_one_unit(a: Figure, b: Figure) -> tuple[Figure, Figure] | None:
    """``a`` and ``b`` in one unit, to compute a change or ratio from: as
    they are when they print the same unit or either prints none; else both
    expressed in the larger of their units when those are of one dimension
    (``20480 MB`` and ``21.5 GB`` -> 20.48 GB and 21.5 GB, decimals shifted
    with the value; ``900 MiB/s`` and ``1.2 GiB/s``), each then keeping its
    printed unit in its text (``20480 MB``) for a message; None for units
    that do not convert (``812.4 ms`` and ``430.2 tok/s``; ``MB`` and
    ``MiB``, neither a power of ten nor of 1024 apart)."""
    if a.unit == b.unit or a.unit is None or b.unit is None:
        return a, b
    scale = next((s for s in (*_SCALES, *_BINARY_SCALES) if a.unit in s and b.unit in s), None)
    if scale is None:
        return None
    larger = max((a.unit, b.unit), key=scale.__getitem__)

    def expressed(figure: Figure) -> Figure:
        factor = scale[figure.unit] / scale[larger]
        return figure._replace(value=figure.value * factor, decimals=figure.decimals - round(math.log10(factor)),
                               unit=larger, text=with_unit(figure.text, figure.unit))

    return expressed(a), expressed(b)


def commensurable_units(unit: str | None) -> tuple[str, ...]:
    """The other units of ``unit``'s dimension (``ms`` -> ``ns``, ``us``, ``s``); () for a unit of none."""
    for scale in _SCALES:
        if unit in scale:
            return tuple(other for other in scale if other != unit)
    return ()


def in_unit(rng: Range, unit: str) -> Range | None:
    """``rng`` with both figures expressed in ``unit`` (``8.5 s`` -> 8500 ms,
    its rounding allowance 50 ms), its printed text kept; ``rng`` itself for
    its own unit, None for a unit of another dimension (or one not
    converted, see :data:`_SCALES`)."""
    if unit == rng.unit:
        return rng
    scale = next((s for s in _SCALES if rng.unit in s and unit in s), None)
    if scale is None:
        return None
    return rng._replace(lo=figure_in_unit(rng.lo, unit, rng.unit), hi=figure_in_unit(rng.hi, unit, rng.unit), unit=unit)


def figure_in_unit(figure: Figure, unit: str, printed_unit: str | None = None) -> Figure:
    """``figure``, printed in ``printed_unit`` (default: its own), expressed
    in ``unit`` of that dimension (see :func:`in_unit`). Raises ValueError
    for units that do not convert into each other."""
    printed_unit = printed_unit or figure.unit
    scale = next((s for s in _SCALES if printed_unit in s and unit in s), None)
    if scale is None:
        raise ValueError(f"{printed_unit} does not convert to {unit}")
    factor = scale[printed_unit] / scale[unit]
    shift = round(math.log10(factor))
    return figure._replace(value=figure.value * factor, decimals=figure.decimals - shift, unit=unit)


def near_range(values: list[float], rng: Range) -> bool:
    """True when the range does not span zero and the value nearest to it
    lies within half the nearest endpoint's size of it: a column of AP
    values is not what a confidence interval of AP differences summarises."""
    lo, hi = rng.lo.value, rng.hi.value
    if lo <= 0 <= hi:
        return False
    nearest = min(values, key=lambda v: min(abs(v - lo), abs(v - hi)))
    endpoint = lo if abs(nearest - lo) <= abs(nearest - hi) else hi
    return abs(nearest - endpoint) <= 0.5 * abs(endpoint)


def rounding_keys(value: float, decimals: int) -> tuple[int, ...]:
    """Integer keys of ``value`` rounded to ``decimals`` (both neighbours when
    it sits exactly halfway), for indexing figures by their printed value."""
    try:
        scaled = value * 10**decimals
    except OverflowError:
        # hundreds of printed decimals (a denormal such as 5e-324 written out): exact decimal arithmetic
        exact = Decimal(repr(value)).scaleb(decimals)
        low = math.floor(exact + Decimal("0.5") - Decimal("1e-7"))
        high = math.floor(exact + Decimal("0.5") + Decimal("1e-7"))
        return (low,) if low == high else (low, high)
    low = math.floor(scaled + 0.5 - 1e-7)
    high = math.floor(scaled + 0.5 + 1e-7)
    return (low,) if low == high else (low, high)


def interval(figure: Figure) -> tuple[float, float]:
    """The values ``figure`` can stand for given its printed digits."""
    return figure.value - figure.half_step, figure.value + figure.half_step


# Statistics a header or a sentence can name, and their order (percentiles
# by their level; mean only between min and max).
_STAT_RE = lazy_compile(
    r"(?<![\w.])(min(?:imum)?|max(?:imum)?|median|med|mean|avg|average|p\d{1,2}(?:\.\d+)?|(\d{1,2}(?:\.\d+)?)(?:st|nd|rd|th)\s+percentile)(?![\w])",
    re.IGNORECASE,
)


def statistic_of(word: str) -> str | None:
    """Normalised statistic name: ``min``, ``max``, ``mean``, ``p50`` (median),
    ``p90`` … or None."""
    word = word.lower()
    if word.startswith("min"):
        return "min"
    if word.startswith("max"):
        return "max"
    if word in ("median", "med"):
        return "p50"
    if word in ("mean", "avg", "average"):
        return "mean"
    if word.startswith("p") and word[1:].replace(".", "", 1).isdigit():
        return "p" + word[1:]
    match = re.match(r"(\d{1,2}(?:\.\d+)?)", word)
    if match and "percentile" in word:
        return "p" + match.group(1)
    return None


@lru_cache(maxsize=8192)
def statistics_in(text: str) -> tuple[tuple[str, int, int], ...]:
    """(statistic, start, end) for each statistic word in ``text``, in order."""
    found = []
    for match in _STAT_RE.finditer(text):
        name = statistic_of(match.group(0))
        if name:
            found.append((name, match.start(), match.end()))
    return tuple(found)


def statistic_rank(name: str) -> float | None:
    """Order of a statistic: min 0, pNN NN, max 100; None for mean."""
    if name == "min":
        return 0.0
    if name == "max":
        return 100.0
    if name.startswith("p"):
        return float(name[1:])
    return None


def out_of_order(low_name: str, low: Figure, high_name: str, high: Figure) -> bool:
    """True when ``low_name`` must not exceed ``high_name`` (min <= median,
    mean <= max, p50 <= p90 <= p95 <= p99) and ``low`` exceeds ``high`` by
    more than the rounding of both printed figures."""
    low_rank, high_rank = statistic_rank(low_name), statistic_rank(high_name)
    if low_rank is None and high_rank is None:
        return False
    if low_rank is None:  # mean vs something: only max bounds it from above
        if high_rank != 100.0:
            return False
    elif high_rank is None:  # something vs mean: only min bounds it from below
        if low_rank != 0.0:
            return False
    elif low_rank >= high_rank:
        return False
    return low.value - low.half_step > high.value + high.half_step + 1e-12
