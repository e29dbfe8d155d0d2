"""SG204 noise and significance: a verdict such as "within run-to-run noise",
"not significant" or "no change" written by hand instead of computed.

A verdict may only come from ``study.noise_verdict(a, b, ...)``, which needs
at least 3 repeat medians a side in the records (the spread SG203 reads too,
:mod:`studygen.study.spread`; a figure whose only spread is its profiled
iterations gets no verdict, the message says so) and prints the spread and
the test (a seeded bootstrap interval of the median difference) next to its
verdict. The check scans every README line (as render makes it) for verdict
wording (:data:`VERDICT`); a phrase counts as computed only when it lies inside
text that ``noise_verdict`` printed during that render (see
:mod:`studygen.checks.readme_text`). The wording is the field's, shared with lint's
SG105 (:data:`studygen.lint.vocabulary.NOISE_VERDICT_RE`: "lost in the
scatter of the measurements", "cannot be separated from the variation
between runs", "within error", "indistinguishable" …), plus the plain
"no change", "no difference" and "statistically significant". Any other verdict is an error at its README
line; the message quotes the sentence, names the figures of the verdict's
own clause as printed, unit and all (:func:`verdict_figures`: "7%" of "fp16
is 7% slower" is not what "within noise, and fp16 is 7% slower" calls noise;
a number of a GPU's name or a variant's label, "1070" of "GTX 1070", is
none) and says what the records hold to support it, for what the clause is
about (:func:`verdict_subjects`): repeated timings for a timing (latency,
kernel time, and any clause that names no quality figure), per-image results
for a quality figure such as an AP (the spread ``study.ap_difference``
bootstraps; evaluating the same detections again gives the same AP).

A verdict's words that a modal of inability governs state no verdict
(:func:`studygen.lint.undecided.undecided`: "no difference between 0.1526
and 0.1547 ms can be told from run-to-run variation", "whether the gap is
within noise cannot be established"): the sentence says the data cannot
decide, and is not reported.

Case (seed): "FP8 saves 0.04 to 0.11 ms of GEMM time, which is within the
run-to-run noise" with no repeated run behind it: every latency and kernel
time of the seed is a single figure per job.
"""

from __future__ import annotations

import json
import re
from functools import cache

from ..findings import Finding
from ..lint.figures import tokenize
from ..lint.operand_pairs import is_label_number
from ..lint.undecided import undecided
from ..lint.vocabulary import NOISE_VERDICT_RE, ascii_folded, holds_verdict_stem
from ..patterns import lazy_compile
from ..records.kinds import RESULT_KINDS, Kind
from ..records.schemas import schema_bytes
from ..study.rows import Row
from ..study.spread import REPEAT_MEDIANS, Spread, spread_of
from .base import prose_finding
from .readme_text import numbered_labels, quote, sentence_at, sentence_bounds

# A word every match of VERDICT holds: a line without one holds no verdict of its wording.
VERDICT_WORDS = ("noise", "significant", "change", "difference", "indistinguishable")
VERDICT = lazy_compile(r"""\b(?:
      (?:within|inside|in|below|under|beyond|above)\s+(?:the\s+)?(?:run-to-run\s+|repeat-to-repeat\s+|measurement\s+|timing\s+)?noise(?:\s+(?:floor|level))?
    | not\s+(?:statistically\s+)?significant(?:ly)?
    | (?:statistically\s+)?insignificant
    | statistically\s+significant
    | no\s+(?:significant\s+|measurable\s+|real\s+|meaningful\s+)?(?:change|difference)
    | indistinguishable
    )\b""", re.I | re.X)


# A comma before a conjunction that opens a clause of its own ("within noise, and fp16 is 7% slower"); a
# semicolon already ends the sentence (readme_text.sentence_bounds). ", which is within noise" goes on its clause.
CLAUSE_BREAK = lazy_compile(r",\s+(?:and|but|while|whereas|yet|although|though)\b", re.I)


def verdict_clause(line: str, start: int, end: int) -> tuple[int, int]:
    """``(first, last)``: the clause of ``line`` that holds the verdict at
    ``[start, end)``, the verdict's sentence cut at :data:`CLAUSE_BREAK`
    before and after the verdict (a figure or name of another clause is
    about something else)."""
    first, last = sentence_bounds(line, start, end)
    for found in CLAUSE_BREAK.finditer(line, first, last):
        if found.end() <= start:
            first = found.end()
        elif found.start() >= end:
            last = found.start()
            break
    return first, last


def verdict_figures(line: str, start: int, end: int, labels=None) -> list[str]:
    """The figures of the clause of ``line`` that holds the verdict at
    ``[start, end)`` (:func:`verdict_clause`), each as the README prints it
    with its unit (``7%``, ``0.11 ms``; lint's figures,
    :func:`studygen.lint.figures.tokenize`, so a shape or version is none),
    less the numbers of the names ``labels`` finds
    (:func:`~studygen.checks.readme_text.numbered_labels`) and whole numbers
    without a unit (:func:`~studygen.lint.operand_pairs.is_label_number`: a
    new user's "within noise at batch 8" was said to be about 8)."""
    first, last = verdict_clause(line, start, end)
    clause = line[first:last]
    if labels is not None:
        clause = labels.sub(lambda match: " " * len(match.group()), clause)
    # a whole number without a unit names a configuration ("at batch 8", "on 8 GPUs"), no figure the verdict is on
    return [token.text for token in tokenize(clause) if token.figure is not None and not is_label_number(token.figure)]


def verdicts_in(line: str) -> list[re.Match]:
    """Verdict phrases of ``line`` (:data:`VERDICT` and the shared
    vocabulary's), in order; of two overlapping phrases the one starting
    first (the longer at one start) is kept."""
    # each pattern only where a word it needs is (most lines hold none): substring tests, not a scan per pattern
    folded = ascii_folded(line)
    ours = VERDICT.finditer(line) if any(word in folded for word in VERDICT_WORDS) else ()
    shared = NOISE_VERDICT_RE.finditer(line) if holds_verdict_stem(folded) else ()
    found = sorted([*ours, *shared], key=lambda m: (m.start(), -m.end()))
    kept: list[re.Match] = []
    for match in found:
        if not kept or match.start() >= kept[-1].end():
            kept.append(match)
    return kept


def spread_rows(study) -> list[tuple[Row, Spread]]:
    """``(row, spread)`` for every figure with a spread of its own (at least
    :data:`~studygen.study.spread.MIN_SPREAD_VALUES` repeat medians or profiled
    iterations, as many as ``study.noise_verdict`` needs a side;
    :func:`studygen.study.spread.spread_of`, the spread SG203 reconciles jobs with)."""
    return [(row, spread) for row in study.rows if (spread := spread_of(row)) is not None]


# What a verdict is about (verdict_subjects), each with what the records may hold to support one (_bases).
TIMINGS = "timings"
QUALITY = "quality"
# A quality figure's name as the result-kind table words it ("COCO AP"), for the messages
QUALITY_WORDS = RESULT_KINDS[Kind.COCO_AP].words


@cache
def subject_names() -> dict[str, re.Pattern]:
    """``{subject: pattern}``: the names a clause calls a figure of each
    subject by, from the result-kind table (:data:`RESULT_KINDS`). Quality
    (a ``quality`` kind): the kind's words and the statistics its schema
    definition allows (``AP``, ``AP50``, ``AR100`` …), case as written and
    also with the field's ``m`` of a mean (``mAP50``). Timings (a kind in
    ms: latency, kernel time): the kind's words and its unit."""
    definitions = json.loads(schema_bytes("run"))["$defs"]
    quality, timings = set(), set()
    for kind in RESULT_KINDS.values():
        if kind.quality:
            quality.add(kind.words)
            quality.update(definitions[kind.schema]["properties"].get("statistic", {}).get("enum", ()))
        elif kind.unit == "ms":
            timings.update((kind.words, kind.unit))

    def alternatives(names: set[str]) -> str:
        return "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))

    return {QUALITY: re.compile(rf"(?<!\w)m?(?:{alternatives(quality)})(?!\w)"),
            TIMINGS: re.compile(rf"(?<!\w)(?:{alternatives(timings)})(?!\w)", re.I)}


def verdict_subjects(clause: str) -> tuple[str, ...]:
    """What a verdict whose clause is ``clause`` (:func:`verdict_clause`) is
    about, in order: :data:`TIMINGS` when the clause names a timing or no
    quality figure (``study.noise_verdict`` compares latencies: a verdict on
    nothing named is read as one on them), :data:`QUALITY` when it names a
    quality figure (:func:`subject_names`); "AP50 and latency are within
    noise" is about both."""
    names = subject_names()
    quality = names[QUALITY].search(clause) is not None
    timings = not quality or names[TIMINGS].search(clause) is not None
    return (TIMINGS,) * timings + (QUALITY,) * quality


def _timing_basis(study) -> tuple[str, str]:
    """``(held, how)``: what the records hold to support a verdict on
    timings, and how a template prints one (read after ``held``, its
    separator first; '' when there is nothing to say)."""
    spreads = spread_rows(study)
    latencies = [row for row, spread in spreads if spread.source == REPEAT_MEDIANS]
    if latencies:
        return (f"the records hold repeat medians for {len(latencies)} latency figure(s)",
                ": print the verdict with study.noise_verdict(...)")
    if spreads:
        return (f"the records hold {spreads[0][1].source} for {len(spreads)} figure(s) but no latency with repeat "
                "medians", ", and study.noise_verdict compares latencies: print the spread, not a verdict")
    return "no record holds repeated timings (at least 3 repeat medians a side) to support it", ""


def _quality_basis(study) -> tuple[str, str]:
    """``(held, how)`` of :func:`_timing_basis` for a verdict on a quality
    figure: the spread of an AP is its per-image results (``per_image``, from
    which ``study.ap_difference`` bootstraps an interval of a difference);
    the same detections evaluated again give the same AP, so there are no
    repeats to hold."""
    per_image = [row for row in study.rows if row.kind == Kind.COCO_AP and row.result.get("per_image")]
    if per_image:
        return (f"the records hold per-image results for {len(per_image)} {QUALITY_WORDS} figure(s)",
                ", and no helper gives a verdict on AP: print study.ap_difference(...) with its per-image "
                "bootstrap interval, not a verdict")
    return (f"no record holds per-image results for a {QUALITY_WORDS} (per_image: the spread an AP difference is "
            "bootstrapped from) to support it"), ""


_BASES = {TIMINGS: _timing_basis, QUALITY: _quality_basis}


HINT = ("remove the verdict, or collect repeated runs and use study.noise_verdict(a, b, ...), which prints the "
        "spread and the bootstrap interval behind it")
AP_HELPER = ("study.ap_difference(a, b, ...), which prints the AP difference with the job-to-job spread of each "
             "figure and, where both results name per-image results, a per-image bootstrap interval")
HINTS = {(TIMINGS,): HINT, (QUALITY,): f"remove the verdict, or print {AP_HELPER}",
         (TIMINGS, QUALITY): f"{HINT}; for the AP, print {AP_HELPER}"}
# For a verdict in a study-file field: the field is printed as written, so no helper can compute one there
WRITTEN_HINT = ("say what was measured instead, the spread of each figure (min to max, or ± std) and how many "
                "repeats it covers, and let the reader judge; or remove the claim")
_WRITTEN_AP = "each AP and the image set it was scored on (how many images)"
WRITTEN_HINTS = {(TIMINGS,): WRITTEN_HINT,
                 (QUALITY,): f"say what was measured instead, {_WRITTEN_AP}, and let the reader judge; or remove the claim",
                 (TIMINGS, QUALITY): ("say what was measured instead, the spread of each timing (min to max, or ± std) "
                                      f"and how many repeats it covers, {_WRITTEN_AP}, and let the reader judge; or "
                                      "remove the claim")}


def check(context) -> list[Finding]:
    study = context.study
    text = context.readme_text
    if text is None:
        return []  # SG201/SG202 say why there is no README to read
    findings = []
    bases: dict[str, tuple[str, str]] = {}  # by subject, made at its first verdict
    labels = numbered_labels(study)
    for index, line in text.prose_lines():
        for match in verdicts_in(line):
            if text.covered(index, match.start(), match.end(), kinds={"verdict"}):
                continue
            clause = verdict_clause(line, match.start(), match.end())
            if undecided(line, match.start(), match.end(), *clause):
                continue  # "no difference ... can be told from run-to-run variation": the data cannot decide
            sentence = sentence_at(line, match.start(), match.end())
            figures = verdict_figures(line, match.start(), match.end(), labels)
            about = f" about {', '.join(figures)}" if figures else ""
            subjects = verdict_subjects(line[slice(*clause)])
            for subject in subjects:
                if subject not in bases:
                    bases[subject] = _BASES[subject](study)
            # a verdict in a study-file field: a template's helper cannot print it, so the message names none
            in_field = text.written_at(index, match.start(), match.end()) is not None
            said = "; ".join(held if in_field else held + how for held, how in map(bases.get, subjects))
            findings.append(prose_finding(
                context, "SG204", index, match.span(),
                f"verdict {quote(match.group(0))}{about} is written by hand, not computed: {said}; "
                f"sentence: {quote(sentence)}", HINTS[subjects], WRITTEN_HINTS[subjects]))
    return findings
