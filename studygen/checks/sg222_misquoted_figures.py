"""SG222 misquoted figure: a figure with a measurement unit in the study
file's prose (the title, description, decision, reasons, explanations: the
fields :data:`studygen.study.placeholders.PROSE_FIELDS` names, which the
README prints as the study's own words) that no measured figure of the study
gives at the digits it is printed with, but that one of them gives with one
digit changed or two neighbouring digits swapped: a figure copied wrong.

What counts, so that a figure from elsewhere is not taken for a misquote:

- a unit the records hold figures in: ms (and µs), MiB (and MB, GiB, GB, as
  2**20 or 10**6 bytes), AP (a COCOeval fraction, or in points x100), AP
  points; a unit the records hold nothing in is not read ("H100 80GB" in a
  study of kernel times);
- at least three significant digits (``0.03395``, ``91.6``): a round target,
  threshold or budget ("under 5 ms", "1.5 ms", "100 MB") is no quotation;
- at most :data:`~.prose_figures.MAX_QUOTED_CHARACTERS` characters: a record's float keeps
  17 significant digits, which 32 characters print down to 1e-14; a figure
  written longer copies no record, and the texts one slip from it cost
  the square of its length for every figure of its unit (a 30,000-decimal
  quote against two rows held 1.8 GB);
- not in a version, a date or a name (``10.16.1``, ``2023-03-25``, a digit
  inside a word), nor a figure per image, sample or token ("1.13 ms per
  image", "ms/img": a batch's figure divided by its size, which no record
  holds);
- not under ``not_measured``: those fields say what an unmeasured
  configuration is expected to give, which no record holds;
- a figure the README does not print (a custom template that leaves the
  field out) is not read.

A quoted figure matches a measured one when the measured value, its sign
aside ("saves 0.0421 ms" of a delta of -0.0421), rounds to it at its printed
decimals, or is cut to it there (``0.04394`` for 0.0439453: truncation, not a
wrong figure). The measured figures are every figure of every row in the
unit (its value, both ends of a range) and, for a latency, the statistics and
repeat medians its record keeps (min, mean, p99 …). A figure matching none
is reported only when a row's own figure (not a kept statistic), rounded to
the quoted decimals, is one digit away from it or the same digits with two
neighbours swapped (the message says which); when the figure's sentence
names rows (their variant or its label, job, GPU model, shape, batch or
kernel group), only those rows' figures. A figure matching nothing and near
nothing is from another source or computed (a difference, a sum), and is not
judged here; nor is one that lies a digit from a row's figure but is the
difference of two figures of one kind, group and statistic in a sentence
that says it states a difference (:func:`is_difference`), or a figure a
record's notes state (the README's provenance prints them). Measured on the shipped families, a figure of four significant
digits drawn at random near their latencies lies one digit from a row's
figure 4 to 16 % of the time (more rows, more often): the sentence's names
are what keep another source's figure about other rows from being reported.

A difference of two variants' AP in points ("AP drops by 5.4 points from
fp32 to bf16") is held to their records by :mod:`.prose_ap_deltas`; a figure
some row gives but none of the runs its clause names, by
:mod:`.prose_misattributed`.

Case (a new user's trial): the decision summary of a study of public trtexec
logs said the RTX 3090 ran at "0.03395 ms" where both of its records hold
0.0439453 ms (printed 0.04395); ``lint`` and ``check`` reported nothing.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from ..findings import Finding
from ..numbers import format_number
from ..records.jsonpos import pointer_from_path
from ..records.kinds import Kind
from ..records.load import yaml_text_line
from ..render.labels import gpu_label, shape_label
from ..study.placeholders import claim_strings
from .prose_agreement import agreement_multiples, quoted_agreement
from .prose_ap_deltas import check as ap_delta_findings
from .prose_figures import ap_factor, decimals_of, matches, names_in, printed_as, quoted_figures, sentence_at
from .prose_misattributed import check as misattributed

CODE = "SG222"
MEASURED_UNITS = ("ms", "MiB", "AP", "points")  # the row units a quoted figure is read against
MAX_NAMED = 3  # measured figures a finding names; the count of the others follows
# unit as written -> (unit of the rows it is read against, factor from the row's unit to it)
_UNITS = {"ms": ("ms", 1.0), "µs": ("ms", 1000.0), "μs": ("ms", 1000.0), "us": ("ms", 1000.0),
          "MiB": ("MiB", 1.0), "MB": ("MiB", 1.048576), "GiB": ("MiB", 1 / 1024), "GB": ("MiB", 1.048576e-3),
          "AP": ("AP", 1.0), "point": ("points", 1.0), "points": ("points", 1.0)}
_HINT = ("quote the figure as the records hold it (studygen rows prints every digit), or say where a figure "
         "from another source comes from; a waiver with the reason keeps one that is right")


class Measured(NamedTuple):
    """One row's own figure in its unit (a result's value or range end): the
    value, where it is (record and pointer) and what a sentence about its row
    may name it by (:func:`row_names`)."""

    value: float
    where: str
    names: frozenset[str] = frozenset()
    # what the figure is of, apart from its run (kind, metric, kernel group, statistic): a difference a sentence
    # computes is between two figures of one such (is_difference)
    of: tuple = ()


@dataclass
class Figures:
    """The measured figures of one unit: ``rows`` the rows' own (a misquote is
    told against these), ``kept`` the statistics and repeat medians their
    records keep besides (min, mean, p99 …; a quote of one is no misquote,
    but a study of many runs keeps so many that some would lie a digit away
    from most figures of another source, so none is suggested)."""

    rows: list[Measured] = field(default_factory=list)
    kept: list[float] = field(default_factory=list)
    # (factor, decimals) -> _Printed: each figure printed once a way it is quoted, not once a quote
    _printed: dict = field(default_factory=dict, repr=False, compare=False)
    # the rows' distinct name sets, and every name in them, made on first use (:meth:`named_sets`)
    _name_sets: tuple | None = field(default=None, repr=False, compare=False)

    def named_sets(self, sentence: str) -> set[frozenset[str]]:
        """The rows' name sets (:func:`row_names`) of which ``sentence`` names
        a member (:func:`~studygen.checks.prose_figures.names_in`): each name
        of the rows looked for once a sentence, where each row's set was
        searched name by name (a study of 1,000 records: 70,000 searches for
        80 quotes)."""
        if self._name_sets is None:
            distinct = list(dict.fromkeys(figure.names for figure in self.rows))
            self._name_sets = distinct, {name for names in distinct for name in names}
        distinct, every_name = self._name_sets
        folded = sentence.lower()
        named = {name for name in every_name if name in folded and names_in(sentence, (name,))}
        return {names for names in distinct if not named.isdisjoint(names)}

    def printed(self, factor: float, decimals: int) -> _Printed:
        """The figures in the quoted unit (``factor`` from theirs) printed at
        ``decimals`` (:class:`_Printed`), made once per factor and decimals:
        a study file quoting thousands of figures against thousands of rows
        formatted every figure for every quote (8 s for 1,500 sentences)."""
        made = self._printed.get((factor, decimals))
        if made is None:
            made = self._printed[factor, decimals] = _Printed(self, factor, decimals)
        return made


class _Printed:
    """The figures of one :class:`Figures` as a quote at ``decimals`` in a
    unit ``factor`` times theirs would print them: ``matching``, every text
    a figure (a kept statistic too) rounds or is cut to
    (:func:`~studygen.checks.prose_figures.matches`); ``shown``, each row
    figure's rounded text -> ``(row index, figure)`` in row order; and, made
    on first use, the texts one digit away from a quote
    (:meth:`one_slip_from`)."""

    def __init__(self, figures: Figures, factor: float, decimals: int):
        self.matching = {text for value in [f.value for f in figures.rows] + figures.kept
                         for text in printed_as(value * factor, decimals)}
        self.shown: dict[str, list[tuple[int, Measured]]] = {}
        for index, figure in enumerate(figures.rows):
            self.shown.setdefault(format_number(abs(figure.value * factor), decimals), []).append((index, figure))
        self._without: dict[tuple[int, str], list[str]] | None = None

    def one_slip_from(self, text: str) -> list[str]:
        """The shown texts one slip from ``text`` (:func:`digit_slip`): one
        character changed (found by the text with that place left out) or two
        neighbours swapped (found by swapping them), in no particular order."""
        if self._without is None:
            self._without = {}
            for shown in self.shown:
                for place in range(len(shown)):
                    self._without.setdefault((place, shown[:place] + shown[place + 1:]), []).append(shown)
        near = {shown for place in range(len(text))
                for shown in self._without.get((place, text[:place] + text[place + 1:]), ()) if shown != text}
        for place in range(len(text) - 1):
            swapped = text[:place] + text[place + 1] + text[place] + text[place + 2:]
            if swapped != text and swapped in self.shown:
                near.add(swapped)
        return list(near)


def measured_figures(study) -> dict[str, Figures]:
    """Unit (``ms``, ``MiB``, ``AP``, ``points``) -> the study's measured
    figures in it (:class:`Figures`)."""
    found: dict[str, Figures] = {}
    for record in study.records:
        # a figure a record's notes state (a collector's count of TF32 kernel time, 1.81 ms), which the README's
        # provenance prints: a quote of it is no misquote of a row's
        for note in record.provenance.get("notes") or ():
            for number, unit, _ in quoted_figures(str(note)):
                rows_unit, factor = quoted_unit(number, unit)
                if rows_unit in MEASURED_UNITS:
                    found.setdefault(rows_unit, Figures()).kept.append(float(number) / factor)
    for row in study.rows:
        if row.unit not in MEASURED_UNITS:
            continue
        figures = found.setdefault(row.unit, Figures())
        where, names = f"{row.record.display_path}#{row.pointer}", row_names(study, row)
        own = _own_figures(row)
        of = (str(row.kind), row.metric, row.key.group, row.statistic)
        figures.rows += [Measured(value, where, names, of) for value in own]
        figures.kept += _kept_figures(row)
    return found


def _own_figures(row) -> list[float]:
    """A row's own figures: its value, or both ends of its range."""
    return [float(v) for v in (row.value, row.value_min, row.value_max) if v is not None]


def _kept_figures(row) -> list[float]:
    """The statistics and repeat medians a latency row's record keeps besides its figure (ms); none for another unit."""
    if row.unit != "ms":
        return []
    statistics = row.result.get("statistics_ms") or {}
    return [float(v) for v in statistics.values() if isinstance(v, (int, float))] + \
        [float(v) for v in row.repeat_medians_ms or []]


def row_figures(row) -> list[float]:
    """Every figure a quote of ``row`` may give, in its unit: its own
    (value, range ends) and those its record keeps (:class:`Figures`).
    SG212's reading of prose (:mod:`.prose_timings`) matches a quoted figure
    to its rows by them."""
    return _own_figures(row) + _kept_figures(row)


def row_names(study, row) -> frozenset[str]:
    """What a sentence about ``row`` may name it by, lower case: its variant
    and the variant's label, its job, its GPU's model (``geforce rtx 3090`` and
    ``3090`` for ``NVIDIA GeForce RTX 3090``; ``orin`` for ``Jetson AGX Orin``), its shape (``800x800``, ``800 x 800``),
    its batch (``batch 4``) and its kernel group."""
    names = {row.variant, study.variant_label(row.variant), row.job_id, row.key.group}
    if row.gpu:
        model = gpu_label(row.gpu)
        numbered = {word for word in model.split() if any(ch.isdigit() for ch in word)}
        names |= {model, *(numbered or model.split()[-1:])}  # "3090", "H100"; a model without a number by its last word
    if row.shape:
        names |= {row.shape, shape_label(row.shape)}
    if row.batch is not None:
        names.add(f"batch {row.batch}")
    return frozenset(str(name).lower() for name in names if name)


# what a misquote near a measured figure did to its digits, as the finding says it (digit_slip)
ONE_DIGIT, SWAPPED = "one digit away", "two digits swapped"


def digit_slip(a: str, b: str) -> str | None:
    """How the figures ``a`` and ``b``, of one length (printed with the same
    decimals: their points stand in one place), differ when one was copied
    wrong from the other: :data:`ONE_DIGIT` for one digit changed
    (``0.03395`` and ``0.04395``), :data:`SWAPPED` for two neighbouring
    digits swapped (``12.75`` and ``12.57``); else None."""
    if len(a) != len(b):
        return None
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(differ) == 1:
        return ONE_DIGIT
    if len(differ) == 2 and differ[1] == differ[0] + 1 and (a[differ[0]], a[differ[1]]) == (b[differ[1]], b[differ[0]]):
        return SWAPPED
    return None


def misquoted(text: str, figures: Figures, factor: float, sentence: str) -> list[Measured]:
    """The rows' figures the quoted ``text`` (``factor`` from the figures'
    unit to its own) may have been copied wrong from: those one digit away
    from it at its decimals (:func:`digit_slip`, found by :meth:`_Printed.one_slip_from`), each printed value
    once, nearest first; none when any measured figure, a kept one too,
    matches it. When ``sentence`` (the one the figure stands in) names rows
    (:func:`row_names`), only their figures are suggested: a figure said of
    the RTX 3090 is no misquote of the GTX 1070's."""
    printed = figures.printed(factor, decimals_of(text))
    if text in printed.matching:
        return []
    candidates = printed.one_slip_from(text)
    if not candidates:
        return []
    named_sets = figures.named_sets(sentence)
    if _DIFFERENCE_WORDS.search(sentence) and any(is_difference(text, [v * factor for v in values]) for values in _by_what(
            figure for figure in figures.rows if not named_sets or figure.names in named_sets).values()):
        return []
    near = []
    for shown in candidates:  # of a shown text, the first row figure in row order the sentence may be about
        first = next(((index, figure) for index, figure in printed.shown[shown]
                      if not named_sets or figure.names in named_sets), None)
        if first is not None:
            index, figure = first
            near.append((abs(abs(figure.value * factor) - float(text)), index, figure))
    return [figure for _, _, figure in sorted(near)]  # row indexes differ: figures are never compared


# words that say a sentence states a difference of two figures ("0.0235 ms less than", "saves", "a gap of")
_DIFFERENCE_WORDS = re.compile(r"\b(?:less|more|than|saves?|saving|savings|gap|difference|differ\w*|lower|higher|"
                               r"faster|slower|shorter|longer|cuts?|adds?|by)\b", re.IGNORECASE)


def _by_what(figures) -> dict[tuple, list[float]]:
    """The values of ``figures`` (:class:`Measured`) by what they are of (:attr:`Measured.of`)."""
    found: dict[tuple, list[float]] = {}
    for figure in figures:
        found.setdefault(figure.of, []).append(figure.value)
    return found


def is_difference(text: str, values: list[float]) -> bool:
    """Whether the quoted figure ``text`` is the difference of two of
    ``values`` (in its unit), rounded or cut to its decimals: a figure
    computed from two measured ones of one kind, metric, group and statistic,
    in a sentence that says it states a difference (:data:`_DIFFERENCE_WORDS`) ("0.0235 ms less per step than the H100",
    of 0.197598 and 0.17413 ms), not one copied wrong, though it may lie a
    digit from a third (0.0135). Sorted, each value looks up its partner by
    bisection: a study of thousands of rows pairs them in n log n. Case (a new
    user's trial, session 26)."""
    unit = 10.0 ** -decimals_of(text)
    # rounded to text: [q - u/2, q + u/2); cut to it: [q, q + u); their union, with a margin for float error
    low, high = float(text) - unit / 2 - 1e-12, float(text) + unit + 1e-12
    ordered = sorted(abs(value) for value in values)
    for value in ordered:
        at = bisect_left(ordered, value + low)
        if at < len(ordered) and ordered[at] - value < high and any(
                matches(text, other - value) for other in ordered[at:bisect_left(ordered, value + high)]):
            return True
    return False


def read_against(number: str, unit: str, measured: dict[str, Figures]) -> tuple[Figures, float]:
    """``(figures, factor)``: the measured figures a quoted ``number unit`` is
    read against and the factor from their unit to the quoted one (an AP
    above 1 is in points, :func:`~studygen.checks.prose_figures.ap_factor`); no
    figures for a unit the records hold none in."""
    rows_unit, factor = quoted_unit(number, unit)
    return measured.get(rows_unit, Figures()), factor


def quoted_unit(number: str, unit: str) -> tuple[str, float]:
    """``(rows' unit, factor)``: the unit of the rows a quoted ``number unit``
    is read against (``ms`` for ``µs``) and the factor from it to the quoted
    one (1000 for ``µs``; an AP above 1 is in points,
    :func:`~studygen.checks.prose_figures.ap_factor`). Raises KeyError for
    a unit :func:`~studygen.checks.prose_figures.quoted_figures` never gives."""
    rows_unit, factor = _UNITS[unit]
    return rows_unit, ap_factor(number) if rows_unit == "AP" else factor


def _finding(study, path: tuple, start: int, number: str, unit: str, near: list[tuple[str, str]],
             count: int) -> Finding:
    # near: (slip, figure as printed with where it is), nearest first; named by slip in that order, so a
    # swap is said to be one ("12.57 vs 12.75"), not a digit away
    pointer = pointer_from_path(path)
    more = f" and {count - len(near)} more" if count > len(near) else ""
    slips = dict.fromkeys(slip for slip, _ in near)
    named = "; ".join(f"{slip}: {', '.join(shown for of, shown in near if of == slip)}" for slip in slips)
    # the line the figure stands on (``start`` in the string as loaded), not the key's: a block scalar has several
    return Finding(CODE, f"{pointer} quotes {number} {unit}, which no measured figure of the study gives at "
                   f"{decimals_of(number)} decimals; {named}{more}",
                   study.rel(study.study_path), line=yaml_text_line(study.spec_text, path, start), pointer=pointer,
                   key=f"{pointer} {number} {unit}", hint=_HINT)


def agreement_findings(study, readme: str | None) -> list[Finding]:
    """SG222 findings of agreement figures (:func:`~.prose_agreement.quoted_agreement`) quoted one slip from every
    row of their metric, held as a time is (:func:`misquoted`). Case (a new user's trial, session 28): "The fp16
    max abs diff is 0.00078434." passed where the record holds 0.00074834."""
    by_metric: dict[str, Figures] = {}
    for row in study.rows:
        if row.kind == Kind.AGREEMENT:
            figures = by_metric.setdefault(str(row.metric), Figures())
            figures.rows += [Measured(float(value), f"{row.record.display_path}#{row.pointer}", row_names(study, row),
                                      (str(row.kind), row.metric))
                             for value in (row.value, row.value_min, row.value_max) if value is not None]
    if not by_metric:
        return []
    findings = []
    for path, text in claim_strings(study.spec):
        for metric, number, start in quoted_agreement(text):
            figures = by_metric.get(metric)
            if figures is None or (readme is not None and number not in readme):
                continue
            near = misquoted(number, figures, 1.0, sentence_at(text, start))
            if not near:
                continue
            shown = [(digit_slip(number, printed := format_number(abs(figure.value), decimals_of(number))),
                      f"{printed} ({figure.where})") for figure in near[:3]]
            named = "; ".join(f"{slip}: {where}" for slip, where in shown)
            pointer = pointer_from_path(path)
            findings.append(Finding(
                CODE, f"{pointer} quotes {metric} {number}, which no agreement figure of the study gives at "
                f"{decimals_of(number)} decimals; {named}", study.rel(study.study_path),
                line=yaml_text_line(study.spec_text, path, start), pointer=pointer, key=f"{pointer} {metric} {number}",
                hint=_HINT))
    return findings



def agreement_multiple_findings(study, readme: str | None) -> list[Finding]:
    """SG222 findings of a multiple of two variants' agreement figures of one metric written without them
    (:func:`~.prose_agreement.agreement_multiples`): the sentence names two variants (by name or label); the multiple holds when the first's figure over the second's, or the other way round, on one
    image set, rounds or is cut to it at its printed decimals (:func:`matches`). A sentence naming fewer or more
    variants, or variants without figures of that metric, is not read."""
    rows = [row for row in study.rows if row.kind == Kind.AGREEMENT and row.value is not None]
    if not rows:
        return []
    # in the rows' order: a set's order changes from process to process (string hashing), and so did the message
    labels = {variant: {variant.lower(), str(study.variant_label(variant)).lower()}
              for variant in dict.fromkeys(r.variant for r in rows)}
    findings = []
    for path, text in claim_strings(study.spec):
        for metric, number, start, sentence in agreement_multiples(text):
            named = [variant for variant, names in labels.items() if names_in(sentence, names)]
            if len(named) != 2 or (readme is not None and number not in readme):
                continue
            values = {variant: {row.dataset: float(row.value) for row in rows if row.variant == variant
                                and row.metric == metric} for variant in named}
            a, b = named
            ratios = [values[a][s] / values[b][s] for s in values[a].keys() & values[b].keys() if values[b][s]]
            ratios += [values[b][s] / values[a][s] for s in values[a].keys() & values[b].keys() if values[a][s]]
            if not ratios or any(matches(number, ratio) for ratio in ratios):
                continue
            pointer = pointer_from_path(path)
            given = ", ".join(sorted({format_number(ratio, max(2, decimals_of(number))) + "x" for ratio in ratios}))
            findings.append(Finding(
                CODE, f"{pointer} gives {number}x between the {metric} of {a} and {b}, which their records do not "
                f"give: {given} (either way round, on each image set both were scored on)", study.rel(study.study_path),
                line=yaml_text_line(study.spec_text, path, start), pointer=pointer,
                key=f"{pointer} {metric} {number}x", hint=_HINT))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    quoted = context.quotations
    if not quoted:  # most study files quote no figure: the records are not read
        return (ap_delta_findings(context) + agreement_findings(study, context.rendered_readme)
                + agreement_multiple_findings(study, context.rendered_readme))
    measured, readme, findings = measured_figures(study), context.rendered_readme, []
    for path, start, number, unit, sentence in quoted:
        if readme is not None and number not in readme:
            continue  # a field the README does not print
        figures, factor = read_against(number, unit, measured)
        near = misquoted(number, figures, factor, sentence)
        if near:
            shown = [format_number(abs(figure.value * factor), decimals_of(number)) for figure in near[:MAX_NAMED]]
            findings.append(_finding(study, path, start, number, unit, [
                (digit_slip(number, printed), f"{printed} {unit} ({figure.where})")
                for printed, figure in zip(shown, near)], len(near)))
    return (findings + misattributed(study, readme, quoted) + ap_delta_findings(context) + agreement_findings(study, readme)
            + agreement_multiple_findings(study, readme))
