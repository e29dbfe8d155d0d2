"""The reference a ratio claim names and the one a ratio column names (SG101).

"1200x faster than the naive loop" compares with the naive loop; a column
headed ``vs Target`` compares each row with a target, ``Speedup over fp16``
with fp16. When the claim (or a range: "2-3x faster than cuDNN") and the
column each name their reference and the two names share no word, the column
measures another comparison than the sentence states, whatever direction its
cells print, and SG101 does not read the sentence against it
(:func:`other_reference`).

Read:

- the claim's reference: right after its figure, past at most two words (the
  direction: "faster", "lower latency"), the words after "than", "over", "vs",
  "versus", "against", "compared to/with" or "relative to", to the next
  clause mark or parenthesis;
- the column's reference: the words of its header after the same joining
  words ("vs Target", "x vs FP32 (geo-mean)" -> fp32; a parenthesis after
  the name ends it).

Words that name no particular reference ("baseline", "reference", "default",
"original", "previous" ...) are left out of both: "faster than the baseline"
may be what a ``Speedup vs fp16`` column measures. A side left with no word
gives no verdict.

Cases: ``tests/lint/test_named_references.py`` (session 29's public kernel
note, whose "1230x faster than naive" and "2-3x faster than SDPA" were read
against the rows of its "vs Target" column).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .document import Series
from .figures import RATIO_UNITS
from .text import keywords, stem

_JOINING = r"(?:than|over|vs\.?|versus|against|compared\s+(?:to|with)|relative\s+to)"
# after a figure: its unit sign, at most two words (the direction), the joining word and the reference's words
_AFTER_FIGURE_RE = lazy_compile(
    r"[x×%]?[\s*_]*(?:[A-Za-z][\w-]*[\s*_]+){0,2}?" + _JOINING + r"\s+([^.;:,()\[\]|\n]{1,60})", re.IGNORECASE)
_IN_HEADER_RE = lazy_compile(r"\b" + _JOINING + r"\s+([^()\[\]|]{1,60})", re.IGNORECASE)
# words that name no particular reference: any column's reference may be what they mean
_GENERIC = frozenset(stem(word) for word in (
    "baseline", "baselines", "reference", "ref", "default", "original", "previous", "prior", "base", "before",
    "old", "older", "current", "existing", "usual", "standard", "one", "ones", "version", "run", "runs",
    "implementation", "setup", "configuration", "config"))


def _named(text: str) -> frozenset[str]:
    return keywords(text) - _GENERIC


def claim_reference(text: str, end: int, stop: int) -> frozenset[str]:
    """The words naming the reference of the ratio figure ending at offset
    ``end`` of ``text`` (the sentence ends at ``stop``); empty when none is
    named or only a generic one ("the baseline")."""
    match = _AFTER_FIGURE_RE.match(text, end, stop)
    return _named(match.group(1)) if match else frozenset()


def column_reference(series: Series) -> frozenset[str]:
    """The words naming the reference of a ratio column's header ("vs
    Target" -> ``{'target'}``); empty when its header names none."""
    if series.unit not in RATIO_UNITS and series.unit is not None:
        return frozenset()
    match = _IN_HEADER_RE.search(series.header)
    return _named(match.group(1)) if match else frozenset()


def other_reference(series: Series, named: frozenset[str]) -> bool:
    """True when ``series``'s header names a reference and the claim's
    reference words ``named`` (:func:`claim_reference`) share none of its
    words: the column compares with something else than the claim does."""
    if not named:
        return False
    own = column_reference(series)
    return bool(own) and not (own & named)


__all__ = ["claim_reference", "column_reference", "other_reference"]
