"""Which way a prose ratio or percent change says its two operands go (SG103).

"int8 is 1.3x slower than fp16", "fp16 gives a 2.4x speedup over fp32",
"int8 cuts the latency by 20% relative to fp16": besides its size, such a
figure says which operand is the larger. A ratio recomputed both ways round
(``a / b`` or ``b / a``) fits either; the direction is what tells a table
whose int8 row is the faster one from a sentence calling it slower.

- :func:`written_direction` reads the word right after the figure
  ("faster", "slower", "speedup", "higher", "less" ...) or a verb before it
  that changes a quantity by the figure ("cuts ... by", "raises ... by"):
  ``better``, ``worse``, ``larger`` or ``smaller``; None when the sentence
  says neither ("a 1.3x ratio", "1.3x the latency"). A ratio written in
  words states its own ("twice as fast as": better; "half the time of":
  smaller; :mod:`studygen.lint.worded_ratios`).
- :func:`wanted_sign` turns it into the sign of subject minus reference for
  a quantity kind: "faster" is a smaller time or a larger throughput,
  "higher" a larger figure of any kind; None when the kind does not tell
  (a "faster" over a column of unknown kind).
- :func:`signed_by_word` gives a percent change printed without a sign,
  as a table cell prints it ("25.0% less", "12% faster"), the sign its
  word states.
- :func:`sign_unsettles_word` is True for a percentage printed with a
  minus sign ("-63% faster", "-30% less memory"): the sign may repeat the
  word or turn it round, so the readers drop the word's direction and
  judge the size alone.
- :func:`goes_against` is True when the two printed figures go the other
  way beyond their printed digits (``4.91`` against ``3.91`` ms for "3.91
  is slower"); figures that print alike or overlap never count against it.

Cases: ``sg103_pos_ratio_direction``, ``sg103_neg_ratio_direction``.
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .figures import Figure
from .rounding import stands_for
from .worded_ratios import ADJECTIVE_DIRECTIONS, Reading, reading_at
from .variant_pairs import HIGHER_IS_BETTER

BETTER, WORSE, LARGER, SMALLER = "better", "worse", "larger", "smaller"

# the word right after a figure ("1.3x faster", "a 2.4x speedup", "20% lower latency")
_AFTER_RE = lazy_compile(
    r"\s*(?:(faster|quicker|speed-?ups?|better|improvements?|gains?)"
    r"|(slower|slow-?downs?|worse|regressions?)"
    r"|(higher|more|larger|bigger|greater|longer|increases?)"
    r"|(lower|less|smaller|fewer|shorter|reductions?|decreases?|savings?|drops?))\b",
    re.IGNORECASE,
)
# a verb that changes a quantity by the figure ("cuts the fp16 time by 20%", "raises throughput by 1.4x")
_BY_BEFORE_RE = lazy_compile(
    r"\b(?:(increas\w*|rais\w*|boost\w*|grow\w*|grew)|(reduc\w*|cut\w*|lower\w*|decreas\w*|shrink\w*|shrank|drop\w*|"
    r"trim\w*|sav\w*))\s+(?:[\w()-]+\s+){0,5}?by\s+(?:about\s+|roughly\s+|~)?$",
    re.IGNORECASE,

    needs=("increas", "rais", "boost", "grow", "grew", "reduc", "cut", "lower", "decreas", "shrink", "shrank", "drop",
           "trim", "sav"),
)
_BEFORE_WINDOW = 80
# the adjective of a worded ratio ("twice as fast as", :mod:`.worded_ratios`) -> the direction it states
_TURNED = {BETTER: WORSE, WORSE: BETTER, LARGER: SMALLER, SMALLER: LARGER}


def written_direction(text: str, figure: Figure, start: int = 0) -> tuple[str, str] | None:
    """(direction, the words that state it as written: "slower", "cuts the
    time by") of the figure at ``figure.start``/``figure.end`` of ``text``
    (see the module docstring), or None; ``start`` bounds how far back a
    verb is looked for (the clause's start). A ratio written in words
    states its own: "twice as fast as" better, "half the time of" smaller
    (:func:`_worded_direction`)."""
    worded = reading_at(text, figure.start, figure.end)
    if worded is not None:
        return _worded_direction(worded)
    after = _AFTER_RE.match(text, figure.end)
    if after is not None:
        return (BETTER, WORSE, LARGER, SMALLER)[after.lastindex - 1], after.group(after.lastindex)
    before = _BY_BEFORE_RE.search(text, max(start, figure.start - _BEFORE_WINDOW), figure.start)
    if before is not None:
        return (LARGER if before.group(1) else SMALLER), " ".join(before.group(0).split())
    return None


def _worded_direction(worded: Reading) -> tuple[str, str]:
    """(direction, its words) of a worded ratio: its adjective's ("as slow as": worse), or, comparing a
    quantity ("the time of"), the larger; a part ("half as fast as", "half the time of") turns it round."""
    direction = ADJECTIVE_DIRECTIONS[worded.adjective] if worded.adjective is not None else LARGER
    return (_TURNED[direction] if worded.part else direction), worded.words


def wanted_sign(direction: str | None, kind: str | None) -> int | None:
    """+1 when the subject's figure must be the larger, -1 the smaller; None
    when ``direction`` is None or a better/worse claim meets a column of no
    known kind (``kind``: a kind of :mod:`studygen.lint.variant_pairs`)."""
    if direction == LARGER:
        return 1
    if direction == SMALLER:
        return -1
    if direction is None or kind is None:
        return None
    higher = kind in HIGHER_IS_BETTER
    return 1 if (direction == BETTER) == higher else -1


def signed_by_word(text: str, figure: Figure, kind: str | None) -> Figure:
    """``figure``, a change printed in ``text`` (a table cell: ``25.0% less``)
    without a sign, negated when the word right after it says the subject is
    the smaller (:func:`written_direction`, :func:`wanted_sign` for
    ``kind``); unchanged when no word follows, when the figure prints a sign
    of its own (``+25%``, ``-25%``), or when the word is "faster" or
    "slower" and ``kind`` (None: unknown) does not tell which way that goes."""
    if figure.value <= 0 or figure.text.startswith("+"):
        return figure
    written = written_direction(text, figure, figure.start)
    sign = wanted_sign(written[0], kind) if written else None
    return figure._replace(value=-figure.value) if sign == -1 else figure


def sign_unsettles_word(figure: Figure) -> bool:
    """True when ``figure`` is a percentage printed with a minus sign before
    its direction word: "C is -63.0% faster than Go" (C's time 2.7 times
    Go's: the sign turns "faster" round) and "-30% less memory" (the sign
    repeats "less") are both written, so the word does not say which figure
    is the larger; only the size is read."""
    return figure.unit == "%" and figure.value < 0


def goes_against(subject: Figure, reference: Figure, sign: int | None) -> bool:
    """True when ``subject`` against ``reference`` goes the other way than
    ``sign`` says, beyond their printed digits."""
    if sign is None:
        return False
    a, b = stands_for(subject), stands_for(reference)
    return a.hi <= b.lo if sign > 0 else a.lo >= b.hi


__all__ = ["BETTER", "LARGER", "SMALLER", "WORSE", "goes_against", "sign_unsettles_word", "signed_by_word",
           "wanted_sign", "written_direction"]
