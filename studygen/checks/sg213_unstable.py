"""SG213 unstable measurement (warning): a ratio, verdict, range or side
finding built on a timing that its record flags unstable (``unstable: true``,
for example from trtexec's coefficient-of-variation warning).

The rows behind each helper output are recorded at render time
(:mod:`studygen.checks.readme_text`); every output of those kinds whose rows include
an unstable timing is one warning at its README line, naming the figure and
the reason its record gives. A table that merely shows the figure is not
flagged: the README's known gaps list every unstable timing by itself.

The study file's own prose (title, description, decision: the fields
:func:`~studygen.study.placeholders.claim_strings` gives, as SG222 reads
them) is read too (:func:`quoted_unstable`): a latency it quotes (``14.17
ms``, at least three significant digits) that only unstable timings give at
its printed digits, of the rows its sentence names where it names any, is
one warning at the field (a stable timing of a run that another timing flags
unstable is that run's: trtexec's host latency of a run without data
transfers is its GPU compute time, and only the latter carries the run's
coefficient of variation), unless its sentence says the figure is unstable
(the sentence as its writer ends it, up to a full stop: "0.04395 ms at batch
4; trtexec flagged every one of these timings as unstable" says it, where a
second new user's trial was warned twice). Case (a new user's trial): a decision summary said "bf16 is faster than
fp32 at every shape: 1.50x (9.448 ms against 14.17 ms)" where both timings
were flagged unstable (CV 252.6 %); the tables' ratios were flagged, the
decision resting on them was not.

Case (fixture): ``trt8.6_unstable-gpu-compute.log``, where trtexec reports
GPU compute time with a coefficient of variation of 44 %.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from decimal import Decimal
from functools import lru_cache

from ..findings import Finding
from ..numbers import format_number
from ..patterns import lazy_compile
from ..records.jsonpos import pointer_from_path
from ..records.load import yaml_text_line
from ..render.produced import kinds_where
from ..study.placeholders import claim_strings
from ..study.timing import run_of
from .base import readme_finding
from .prose_figures import NearValues, decimals_of, printed_as, quotations
from .readme_text import quote
from .sg222_misquoted_figures import names_in, quoted_unit, row_names

CHECKED_KINDS = kinds_where("concludes")  # the output kinds that declare it (render/produced.py)
# a sentence that says its figure is unstable (what the prose warning's hint asks for)
SAYS_UNSTABLE = lazy_compile(r"\b(?:unstable|instabilit(?:y|ies)|noisy|not\s+stable)\b", re.IGNORECASE)
# where a writer ends a sentence: a full stop, not the semicolon that joins its clauses
_FULL_STOP = lazy_compile(r"[.!?](?=\s|$)")


def check(context) -> list[Finding]:
    study = context.study
    findings, seen = [], set()
    for item, text in context.produced_outputs(CHECKED_KINDS):
        unstable = [r for r in item.rows if r.unstable]
        if not unstable:
            continue
        line = text.cell_line(item)  # a ratio cell: its own row, since one table may print "1.61x" four times
        marker = (line, item.kind, item.text)
        if marker in seen:
            continue
        seen.add(marker)
        listed = "; ".join(f"{format_number(r.value)} {r.unit or ''} ({_configuration(r)}): "
                           f"{r.unstable_words(_as_recorded)}" for r in unstable if r.value is not None)
        findings.append(readme_finding(
            study, "SG213", line,
            f"{item.kind.replace('_', ' ')} {quote(item.text)} is built on an unstable timing: {listed}",
            hint="re-measure until the timing is stable (lock clocks, more iterations), then render again"))
    return findings + quoted_unstable(study, context.rendered_readme, context.quotations)


def quoted_unstable(study, readme: str | None, quoted: list | None = None) -> list[Finding]:
    """One warning per figure in ms the study file's prose quotes that only
    unstable timings give (see the module docstring): of the rows in ms
    (latencies, kernel times) whose own figure rounds or is cut to the quote at its decimals (of those
    its sentence names, :func:`~.sg222_misquoted_figures.row_names`, where it
    names any), every one flagged unstable. A quote that a stable timing
    gives too may be of that one, and is not reported; nor is a figure the
    README (``readme``, as render makes it now) does not print: a field the
    template leaves out publishes nothing. ``quoted``: the study file's
    quotations (:func:`~.prose_figures.quotations`), read from it when not given."""
    quoted = quotations(study.spec) if quoted is None else quoted
    findings, texts, timings, near = [], None, [], None
    for path, start, number, unit, sentence in quoted:
        rows_unit, factor = quoted_unit(number, unit)
        if rows_unit != "ms" or (readme is not None and number not in readme):
            continue
        if near is None:  # made for the first quote in ms the README prints: a study quoting none sorts no figure
            # every figure in ms (a kernel group's time too): a quote that a stable one gives may be of that one
            timings = [row for row in study.rows if row.unit == "ms" and row.value is not None]
            near = NearValues((float(row.value), index) for index, row in enumerate(timings))
        giving = [row for row in map(timings.__getitem__, near.near(number, factor))
                  if number in printed_as(float(row.value) * factor, decimals_of(number))]
        named = [row for row in giving if names_in(sentence, row_names(study, row))]
        giving = named or giving
        # a stable timing of a run another timing flags unstable is that run's (with no data transfers, trtexec's
        # host latency is its GPU compute time, and only the latter carries the run's coefficient of variation)
        runs = {run_of(row) for row in giving if row.unstable}
        if not runs or not all(row.unstable or run_of(row) in runs for row in giving) or SAYS_UNSTABLE.search(sentence):
            continue
        giving = [row for row in giving if row.unstable]
        if texts is None:
            texts = dict(claim_strings(study.spec))
        if SAYS_UNSTABLE.search(whole_sentence(texts[path], start)):
            continue
        pointer = pointer_from_path(path)
        listed = "; ".join(f"{format_number(row.value)} ms ({_configuration(row)}): {row.unstable_words(_as_recorded)}"
                           for row in giving)
        findings.append(Finding(
            "SG213", f"{pointer} quotes {number} {unit}, an unstable timing: {listed}", study.rel(study.study_path),
            line=yaml_text_line(study.spec_text, path, start), pointer=pointer, key=f"{pointer} {number} {unit}",
            hint="re-measure until the timing is stable (lock clocks, more iterations), or say in the sentence "
                 "that the figure is unstable and what it can still support"))
    return findings


def whole_sentence(text: str, start: int) -> str:
    """The sentence of ``text`` around offset ``start`` as its writer ends
    it: from the full stop (``.``, ``!``, ``?`` before a space) before it to
    the one after, semicolons and all."""
    stops = _full_stops(text)
    before = bisect_left(stops, start + 1)  # the stops ending at or before start
    begin = stops[before - 1] if before else 0
    end = stops[before] if before < len(stops) else None  # the first stop past start (stops ascend)
    return text[begin:end if end is not None else len(text)]


@lru_cache(maxsize=8)
def _full_stops(text: str) -> list[int]:
    """Offsets just past each full stop of ``text``, ascending (found once a
    text: a field quoting thousands of figures is scanned once, not once a figure)."""
    return [match.end() for match in _FULL_STOP.finditer(text)]


def _configuration(row) -> str:
    """``int8, 1280x1280, batch 8, job l4``: what tells the timing apart
    from the study's other timings of its variant (shape and batch where
    its key has them): a table may print one ratio in several rows."""
    parts = [row.variant, row.shape, f"batch {row.batch}" if row.batch is not None else None, f"job {row.job_id}"]
    return ", ".join(part for part in parts if part)


def _as_recorded(cv: float) -> str:
    """A coefficient of variation (a fraction) in %, with every digit its
    record keeps (0.453157 → ``45.3157%``): a finding quotes the record."""
    return f"{(Decimal(repr(cv)) * 100).normalize():f}%"
