"""The misquoted-figure check in the study file's prose: a difference of two variants' AP in
points ("AP drops by 5.4 points from fp32 to bf16") that their records do
not give.

A figure in points of two significant digits is below what SG222 reads as a
quotation (:data:`~.prose_figures.MIN_SIGNIFICANT`), and one of three is
judged only as a copy of a record's figure: a difference the writer worked
out from two APs was never held to them. Here each figure in AP points
(:data:`_POINTS`: "5.4 points", "7.5 AP points", "about 8 points") in a
sentence that names two of the study's variants (by name or label, whole
words; where only two variants hold the statistic, one of them or none
names both) is read as their difference in the COCOeval statistic the
sentence names nearest before the figure, else after it (:data:`_STATISTIC`:
``AP50``, ``APl``, ``AR100``...; ``AP`` where it names none): the rows of that statistic of the two variants, scored
on one image set, at one shape and batch, each a defined figure (COCOeval's
-1 is none). It holds when one such pair's difference x 100, its sign aside,
rounds or is cut to it at its printed decimals, within one unit of its last
digit after a hedge ("about", "roughly", "~"). A sentence that names three
variants, or fewer where three or more hold the statistic, a statistic no
row holds, a clause that denies, defers or cites (SG224's reading), and a
figure the README does not print are not read.

A sentence saying a statistic is the same for two variants ("AP75 is the
same for both variants", "AP stays unchanged from fp32 to bf16": :data:`_SAME`)
is held to their records the same way: reported where they differ at the
four decimals an AP prints with (:func:`_same_finding`).

Case (a new user's trial, session 26): "AP drops by 5.4 points from fp32 to
bf16 (0.6560 to 0.5806)." passed where the two records give 0.656038 and
0.580591, 7.54 points; "AP75 is the same for both variants." passed where
they give 0.8412 and 0.5557.

Case (a new user's trial, session 27): "fp16 lowers AP from 0.7386 to 0.6288, a loss of 8.9 points" (10.99 on
the records) passed: it names one variant, fp32 being the study's only other one with an AP.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..lint.unstated import SOURCE_RE, states_no_result
from ..numbers import format_number
from ..patterns import lazy_compile
from ..records.kinds import Kind
from ..records.load import yaml_text_line
from ..rules import code_of
from ..study.placeholders import claim_strings
from .prose_figures import decimals_of, names_in, printed_as, sentence_bounds

CODE = code_of("studygen.checks.sg222_misquoted_figures")  # the check this module reads prose for
# a difference in AP points; group 1 a hedge before it, group 2 the figure
_POINTS = lazy_compile(r"(?:\b(about|around|roughly|approximately|nearly|almost|some)\s+|(~)\s*)?"
                       r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:AP\s+)?points?\b", re.IGNORECASE)
# a COCOeval statistic a sentence names, as the records name them
_STATISTIC = lazy_compile(r"(?<![\w-])(AP(?:50|75|s|m|l)?|AR(?:1|10|100|s|m|l))(?![\w-])")
# a clause that denies, defers or cites, stating no difference of this study's
_ELSEWHERE = lazy_compile(r"\b(?:not|no|never|would|could|might|expected|published|reported)\b|n't\b", re.IGNORECASE)
_HINT = ("quote the difference the two variants' records give (their AP x 100), or name the image set, statistic "
         "or runs it is of")


def check(context) -> list[Finding]:
    """The findings of differences in AP points in the study file's prose (see the module docstring)."""
    study = context.study
    rows = None
    readme, findings = context.rendered_readme, []
    for path, text in claim_strings(study.spec):
        for pattern, read in ((_SAME, _same_finding), (_POINTS, _finding)):
            for match in pattern.finditer(text):
                if rows is None:
                    rows = [row for row in study.rows if row.kind == Kind.COCO_AP and row.value is not None
                            and row.value >= 0]
                if not rows:
                    return []
                finding = read(study, path, text, match, rows, readme)
                if finding is not None:
                    findings.append(finding)
    return findings


def _finding(study, path: tuple, text: str, match, rows: list, readme: str | None) -> Finding | None:
    begin, end = sentence_bounds(text, match.start(3))
    sentence = text[begin:end]
    if _ELSEWHERE.search(sentence) or SOURCE_RE.search(sentence) or states_no_result(sentence, hypothetical=True):
        return None
    variants = [name for name in study.variants
                if names_in(sentence, {str(n).lower() for n in (name, study.variant_label(name)) if n})]
    statistic = _statistic_of(sentence, match.start(3) - begin)
    if statistic is None or len(variants) > 2:
        return None
    if len(variants) < 2:
        # "fp16 lowers AP by 8.9 points": the one variant named (or none) against the other of the only two
        # that hold the statistic, as a sentence saying a statistic is the same reads "both variants"
        scored = list(dict.fromkeys(row.variant for row in rows if row.statistic == statistic))
        if len(scored) != 2 or not set(variants) <= set(scored):
            return None
        variants = scored
    sides = [[row for row in rows if row.variant == variant and row.statistic == statistic] for variant in variants]
    pairs = [(a, b) for a in sides[0] for b in sides[1]
             if (a.dataset, a.shape, a.batch) == (b.dataset, b.shape, b.batch)]
    number = match.group(3)
    hedged = bool(match.group(1) or match.group(2))
    if not pairs or any(_holds(number, hedged, abs(a.value - b.value) * 100) for a, b in pairs):
        return None
    if readme is not None and number not in readme:
        return None  # a field the README does not print
    pointer = "/" + "/".join(map(str, path))
    listed = "; ".join(f"{format_number(abs(a.value - b.value) * 100, decimals_of(number) + 1)} points "
                       f"({format_number(a.value, 4)} against {format_number(b.value, 4)} on {a.dataset})"
                       for a, b in pairs)
    return Finding(CODE, f"{pointer} gives {variants[0]} and {variants[1]} {statistic} {number} points apart, which "
                   f"their records do not: {listed}", study.rel(study.study_path),
                   line=yaml_text_line(study.spec_text, path, match.start(3)), pointer=pointer,
                   key=f"{pointer} {statistic} {number} points", hint=_HINT)


def _statistic_of(sentence: str, offset: int) -> str | None:
    """The COCOeval statistic a difference at ``offset`` in ``sentence`` is of: the one named nearest before it,
    else the one named after it, else ``AP`` where the sentence names none; None where it names two after it and
    none before ("differ by 5 points in AP and AP50"). "fp16 lowers AP ... a loss of 8.9 points, while AP50
    drops by only 2.0 points" gives each difference its own (a trial's 8.9 passed: two statistics, none read)."""
    named = [(m.start(), m.group(1)) for m in _STATISTIC.finditer(sentence)]
    before = [name for start, name in named if start < offset]
    if before:
        return before[-1]
    after = {name for _, name in named}
    return "AP" if not after else after.pop() if len(after) == 1 else None


def _holds(number: str, hedged: bool, points: float) -> bool:
    """Whether a difference of ``points`` gives the figure ``number``: rounded or cut to its decimals, or within one
    unit of its last digit when ``hedged``."""
    if hedged:
        return abs(points - float(number)) <= 10.0 ** -decimals_of(number) * (1 + 1e-9)
    return number in printed_as(points, decimals_of(number))


# what says two variants' figures are equal: "the same", "unchanged", "identical", "equal", "matches"
_SAME = lazy_compile(r"\b(?:(?:is|are|stays?|remains?)\s+(?:the\s+same|unchanged|identical|equal)|"
                     r"does\s+not\s+change|doesn't\s+change|no\s+change\s+in)\b", re.IGNORECASE)


def _same_finding(study, path: tuple, text: str, match, rows: list, readme: str | None) -> Finding | None:
    """The finding of a sentence saying the COCOeval statistic it names is the same for two variants (the two it
    names, else the study's two with rows of that statistic: "for both variants") where their records, on one image
    set, shape and batch, differ at the four decimals the README prints an AP with. None where they agree, or the
    sentence names no one statistic or no two variants, or cites (:data:`_ELSEWHERE` but its own negation)."""
    begin, end = sentence_bounds(text, match.start())
    sentence = text[begin:end]
    if SOURCE_RE.search(sentence) or states_no_result(sentence, hypothetical=True) or re.search(
            r"\b(?:would|could|might|expected)\b", sentence, re.IGNORECASE):
        return None
    named = {m.group(1) for m in _STATISTIC.finditer(sentence)}
    if len(named) != 1:
        return None
    statistic = named.pop()
    variants = [name for name in study.variants
                if names_in(sentence, {str(n).lower() for n in (name, study.variant_label(name)) if n})]
    if not variants:
        variants = list(dict.fromkeys(row.variant for row in rows if row.statistic == statistic))
    if len(variants) != 2:
        return None
    sides = [[row for row in rows if row.variant == variant and row.statistic == statistic] for variant in variants]
    pairs = [(a, b) for a in sides[0] for b in sides[1]
             if (a.dataset, a.shape, a.batch) == (b.dataset, b.shape, b.batch)]
    differ = [(a, b) for a, b in pairs if format_number(a.value, 4) != format_number(b.value, 4)]
    if not pairs or len(differ) < len(pairs):
        return None
    if readme is not None and match.group(0) not in readme:
        return None  # a field the README does not print
    pointer = "/" + "/".join(map(str, path))
    listed = "; ".join(f"{format_number(a.value, 4)} against {format_number(b.value, 4)} on {a.dataset}"
                       for a, b in differ)
    return Finding(CODE, f"{pointer} says {statistic} of {variants[0]} and {variants[1]} {match.group(0)}, which "
                   f"their records do not: {listed}", study.rel(study.study_path),
                   line=yaml_text_line(study.spec_text, path, match.start()), pointer=pointer,
                   key=f"{pointer} {statistic} same", hint=_HINT)
