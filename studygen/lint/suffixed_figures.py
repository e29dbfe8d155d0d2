"""Table cells that print a figure with a thousands suffix: ``1.52K``, ``12.3k``, ``2.1M``, ``4.7G``.

A benchmark table often shortens a throughput to ``1.52K`` (tokens/s) or a count of requests to ``2.1M``. Read
as text, such a column turns into a column of labels and drops out of every table rule. Yet ``4K``, ``128k`` or
``8K tokens`` under "Context" or "Input length", ``0.5M`` under "Batch size (tokens)" and ``7B`` or ``270M`` under
"Model" or "Parameters" are the configuration a row was run with: labels, never figures to compare.

The column decides (:func:`reads_suffixes`): its header must name a rate (a rate unit such as ``tokens/sec``,
``QPS``, ``req/s``; or the word "throughput"), or a count of served work ("Requests", "Tokens generated") and
no configuration ("context", "length", "batch", "input", "max", "parameters" …); and, as for any column, most
of its cells must then read as figures. Only ``k``/``K``
(thousand), ``M`` (million) and ``G`` (billion) are read; ``B`` is a model's size far more often than a count,
and a lower-case ``m`` is a unit (metres, minutes, milli-) and is left alone.

A suffixed figure keeps the resolution its printed digits give: ``1.52K`` is 1520 printed to the nearest 10
(``decimals`` -1, it stands for 1515 to 1525); ``1310k`` is printed to the nearest 1000 (``decimals`` -3).
"""

from __future__ import annotations

import re
from decimal import Decimal

from ..patterns import lazy_compile
from .figures import RATE_UNITS, UNITS, Figure

# The exponent of ten each suffix stands for
_SCALE = {"k": 3, "K": 3, "M": 6, "G": 9}
_UNIT_ALTERNATIVES = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))
# a whole cell: "1.52K", "12.3 k", "2.1M req/s"; a sign, a tilde or a second figure make it no such cell
_SUFFIXED_CELL_RE = lazy_compile(
    r"(?P<digits>\d+(?:\.\d+)?)[ \u00a0]?(?P<suffix>[kKMG])(?:[ \u00a0]?(?P<unit>" + _UNIT_ALTERNATIVES + r"))?")
# A header naming a rate in words, or a count of work done rather than a setting
_RATE_WORD_RE = lazy_compile(r"\b(?:throughput|through\s+put|tps|rps|qps)\b", re.IGNORECASE)
_COUNT_WORD_RE = lazy_compile(
    r"\b(?:requests?|reqs?|quer(?:y|ies)|tokens?|samples?|images?|calls?|ops|flops|events?|hits?|errors?|"
    r"completions?|generations?)\b", re.IGNORECASE)
# A header naming what a row was run with: a context, a length, a batch, a model's size
_CONFIGURATION_WORD_RE = lazy_compile(
    r"\b(?:context|ctx|length|len|seq|seqlen|sequence|input|output|prompt|max|min|batch|bs|size|window|"
    r"params?|parameters?|model|vocab|dim|dimension|hidden|limit|budget|chunk|block|cache|prefill|isl|osl)\b",
    re.IGNORECASE)


def reads_suffixes(header: str, unit: str | None) -> bool:
    """Whether a column headed ``header`` (its unit ``unit``, from
    :func:`~studygen.lint.columns.header_unit`) holds figures where its cells
    print a thousands suffix: a rate or a count of work, never a configuration."""
    if unit in RATE_UNITS or (unit is None and _RATE_WORD_RE.search(header)):
        return True  # nothing per second is a setting: "Output tok/s" is a throughput though "output" is a setting
    return unit is None and _COUNT_WORD_RE.search(header) is not None and not _CONFIGURATION_WORD_RE.search(header)


def suffixed_figure(text: str) -> Figure | None:
    """The figure of a cell that is one suffixed number (``"1.52K"`` -> 1520.0,
    printed decimals -1; ``"2.1M req/s"`` -> 2100000.0 in requests/s), else None."""
    match = _SUFFIXED_CELL_RE.fullmatch(text.strip())
    if match is None:
        return None
    digits, suffix, unit = match.group("digits", "suffix", "unit")
    scale = _SCALE[suffix]
    decimals = len(digits) - digits.find(".") - 1 if "." in digits else 0
    # exact decimal scaling: 1.52 * 1000 in floats is 1520.0000000000002
    value = float(Decimal(digits).scaleb(scale))
    return Figure(value, text.strip(), decimals - scale, UNITS[unit] if unit else None, 0, len(text.strip()))


def suffixed_cell(text: str) -> tuple[Figure] | None:
    """A cell's figures as :func:`~studygen.lint.columns.type_columns` keeps
    them: (the suffixed figure,) when the cell is one, else None (not numeric)."""
    figure = suffixed_figure(text)
    return None if figure is None else (figure,)
