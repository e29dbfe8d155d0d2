"""What a paragraph must print for its noise verdict to count as measured
(SG105): a spread is evidence where a figure gives it, not where a word names it.

:func:`~studygen.lint.vocabulary.has_evidence` reads a statistic's name as
a stated spread ("std", "variance", "CI", "p95"). In a table that is right:
the name heads a column of figures. In prose a name alone states nothing
measured: "caused by evaluation variance", "within one standard deviation",
"below the run-to-run spread" print no spread at all. So in a paragraph
(:func:`measured_evidence`) a statistic's name (:data:`STATISTIC_NAME_RE`)
counts only with its figure: right before it ("0.3 ms standard deviation",
"1.3% CV") or after it in its clause, within :data:`FIGURE_REACH`
characters ("std 0.2 ms", "a CV of 1.3%", "the standard deviation across
the runs was 0.4 ms", "(min 9.9, max 10.4 ms)", "10.1 ± 0.3 ms"); a figure
before the name in another clause ("0.1 ms faster, within one standard
deviation") is not its. Repeat counts ("over 5 runs", "n = 8") and tests ("Welch
t-test", "p = 0.41") are read as before: a count is a figure, and a test
names what was done, not a word for noise.

A verdict's figures may have their spread printed elsewhere in the document: "the CPU build is within the
margin of error" under a table of perplexities, with "PPL = 9.0973 +/- 0.0716" for each build in a list a
heading further down. :func:`spread_elsewhere` counts that as evidence when two figures the verdict's
paragraph or the table beside it prints (each with a decimal point or three digits or more, so that a figure
is distinctive) are printed elsewhere with a spread right after them (:func:`spread_figures`: ``±``,
``+/-`` or ``+-`` and a number).
"""

from __future__ import annotations

import re

from ..patterns import lazy_compile
from .vocabulary import has_evidence

# The names of a spread that EVIDENCE_RE (studygen.lint.vocabulary) accepts alone; a confidence level ("95% CI")
# and a percentile's number ("p99") belong to the name, not to a figure beside it.
STATISTIC_NAME_RE = lazy_compile(
    r"±|\+/-|\bstd\b(?:\.?\s*dev\b)?|\bstdev\b|standard\s+(?:deviation|error)s?|\bsem\b|σ|\bsigma\b|\bcv\b|\bs\.d\.|"
    r"coefficients?\s+of\s+variation|\biqr\b|interquartile(?:\s+range)?|\bquartiles?\b|\bspread\b|\bvariances?\b|"
    r"(?:\b\d{2}\s*%\s*)?(?:confidence\s+intervals?|\bci\b)|\bmin(?:imum)?\b|\bmax(?:imum)?\b|\bp(?:90|95|99)\b|"
    r"\bpercentiles?\b",
    re.IGNORECASE,
)
# A figure: a number that is no part of a name ("H100", "fp16", "Llama3" hold digits, none of them a figure)
_FIGURE_RE = lazy_compile(r"(?<![\w.])[-+−]?\d+(?:[.,]\d+)*(?:(?![\w])|(?=%|ms\b|us\b|s\b|x\b))")
# a figure, its unit after it, ending the text before a name: "0.3 ms" of "0.3 ms standard deviation"
_FIGURE_BEFORE_RE = lazy_compile(r"(?<![\w.])[-+−]?\d+(?:[.,]\d+)*\s*(?:%|[a-zµμ/²]{1,8})?\s*$", re.IGNORECASE)
# Where the words after a name stop: a semicolon, a closing bracket, the end of a sentence (a decimal point has a
# digit after it); not a comma, which may open the figure itself ("the 95% CI of the gap, -0.01 to 0.05 ms")
_CLAUSE_END_RE = lazy_compile(r"[;)\]]|[.!?](?=\s|$)|\n\s*\n")
# how far after a statistic's name its figure may be printed: "the standard deviation across the five runs was 0.4 ms"
FIGURE_REACH = 50


def _figure_beside(text: str, start: int, end: int) -> bool:
    """True when a figure is printed right before ``text[start:end]`` (a
    statistic's name) or after it in its clause, within :data:`FIGURE_REACH`
    characters."""
    if _FIGURE_BEFORE_RE.search(text, max(0, start - 24), start):
        return True
    after = text[end:end + FIGURE_REACH]
    stop = _CLAUSE_END_RE.search(after)
    return _FIGURE_RE.search(after[:stop.start()] if stop else after) is not None


def measured_evidence(text: str) -> bool:
    """True when prose ``text`` (a paragraph) states the evidence of a noise
    verdict (:func:`~studygen.lint.vocabulary.has_evidence`) with each
    statistic's name it relies on printed beside a figure (see the module
    docstring): "variance" alone, or "a standard deviation" with no number
    near it, is no evidence."""
    if not has_evidence(text):
        return False

    def blank_unless_figure(match: re.Match) -> str:
        return match.group() if _figure_beside(text, match.start(), match.end()) else " " * len(match.group())

    return has_evidence(STATISTIC_NAME_RE.sub(blank_unless_figure, text))


# a distinctive figure (a decimal, or three digits or more) with its spread right after it: "9.0973 +/- 0.0716"
_DISTINCT = r"(?<![\w.])(\d[\d,]*\.\d+|\d{3,})"
_SPREAD_AFTER_RE = lazy_compile(_DISTINCT + r"\s*(?:±|\+/-|\+-)\s*\d")
_DISTINCT_RE = lazy_compile(_DISTINCT + r"(?![\w.]?\d)")


def spread_figures(text: str) -> frozenset[str]:
    """The texts of the distinctive figures ``text`` prints with a spread right after them ("9.0973" of
    "PPL = 9.0973 +/- 0.0716"; a decimal or three digits or more)."""
    return frozenset(match.group(1) for match in _SPREAD_AFTER_RE.finditer(text))


def spread_elsewhere(texts: list[str], spread: frozenset[str]) -> bool:
    """True when two distinct figures printed in ``texts`` (a verdict's paragraph and the tables beside it) are
    among ``spread`` (:func:`spread_figures` of the whole document): the document states their spread."""
    if len(spread) < 2:
        return False
    found = {match.group(1) for text in texts for match in _DISTINCT_RE.finditer(text)}
    return len(found & spread) >= 2


__all__ = ["FIGURE_REACH", "STATISTIC_NAME_RE", "measured_evidence", "spread_elsewhere", "spread_figures"]
