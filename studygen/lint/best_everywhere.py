"""A figure-less best-of claim said of every group (SG107, beside :mod:`.best_unquoted`):
"fp32 is the slowest at every batch size", "int8 remains the fastest across all GPUs", "the
compiled engine is consistently the quickest".

Without a word of every, :mod:`.best_unquoted` reports a claim only when one rival beats the
subject in every group of its table (what "X is the fastest" means is open: in every row,
typically, on average). A word of every (:func:`universal`: "every", "each", "all", "always",
"consistently", "uniformly", "across the board", "without exception"; not "of all", which names
the set ranked: "the fastest of all engines") says the claim holds in each group, so one group
contradicts it: a rival that beats the subject beyond their printed digits in a column of the
claim's quantity there and is beaten by it in none (:func:`group_rival`). A tie in every column
of the group, or a rival ahead in one column and behind in another, is no contradiction.

Cases: ``tests/lint/test_best_everywhere.py`` (session 29's public quantization README, whose
"FP32 remains the slowest across all batch sizes" passed while INT4 was slower at batch 32).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..patterns import lazy_compile
from .document import Series
from .figures import Figure
from .ratio_direction import goes_against

_UNIVERSAL_RE = lazy_compile(
    r"(?<!\bof\s)(?<!\bnot\s)(?<!\balmost\s)(?<!\bnearly\s)\b(?:every|each|all|always|consistently|uniformly|"
    r"across\s+the\s+board|without\s+exception)\b", re.IGNORECASE)


def universal(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` holds a word of every (see the module docstring)."""
    return _UNIVERSAL_RE.search(text, start, end) is not None


def beats(subject: tuple[Figure, ...], rival: tuple[Figure, ...], want: int) -> bool:
    """True when every figure of the rival's cell lies beyond every figure of the subject's, the way ``want``
    says the subject's should lie (+1: the subject's the larger; a range cell counts at both ends). A tie is no
    beating: whole cells of a few units are exact (:func:`~.rounding.is_exact`), and two equal exact figures
    reach each other's ends."""
    return bool(subject) and bool(rival) and all(goes_against(s, r, want) and s.value != r.value
                                                 for s in subject for r in rival)


def group_rival(groups: list[tuple[tuple, dict[str, list[int]]]], label: str, columns: list[tuple[Series, str]],
                want: Callable[[str], int], pooled: Callable[[str], bool]) -> tuple[str, list[tuple[Series, int, int]]] | None:
    """(the rival's label, [(column, the subject's row, the rival's row)...] of the first group where it beats
    the subject) for a claim said of every group: ``groups`` are (group key, label -> rows) holding the
    subject's ``label`` once, ``columns`` the (column, kind) of the claim's quantity and ``want`` the way a
    kind's figure of the subject should lie (+1 the largest); a label ``pooled`` says pools or bounds the others
    (total, mean, roofline) is no rival. None when no group shows a rival ahead in a column and behind in none."""
    for _, rows_of in groups:
        own = rows_of[label][0]
        for other, rows in rows_of.items():
            if other == label or len(rows) != 1 or pooled(other):
                continue
            # (a column where either row has no figure neither beats nor is beaten: :func:`beats`)
            ahead = [(series, own, rows[0]) for series, kind in columns
                     if beats(series.ends(own), series.ends(rows[0]), want(kind))]
            behind = any(beats(series.ends(rows[0]), series.ends(own), want(kind)) for series, kind in columns)
            if ahead and not behind:
                return other, ahead
    return None


__all__ = ["beats", "group_rival", "universal"]
