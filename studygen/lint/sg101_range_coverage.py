"""SG101 range coverage: a prose range that summarises a table column must cover every value in it.

A prose range (``GEMMs take 0.19 to 0.21 ms``) *summarises* a column of its unit when

- both printed endpoints are found in the column (a value that rounds to the endpoint at its printed digits), or
- its header or its table's heading shares a word with the sentence ("GEMM", "fp32" of ``fp32 (ms)``: the unit
  tells an fp32 latency from an fp32 AP; a heading's word must name a kind of quantity, "latency", not a mode;
  naming variant and quantity reads as in the column's section), or it is the table's only column of that unit,
  and one endpoint is found in it or (same section only) the range bounds most of its values.

The range *covers* a value when the value lies between the endpoints, each widened by half its last printed
digit (``0.19 to 0.21`` covers 0.185 to 0.215). A range said of one row alone: :mod:`.one_row_ranges`.

- A range printed without a unit takes the unit of the nearest heading above it that names one ("### Latency
  (ms)" over "fp16 takes 5.6 to 6.1 on every GPU"), unless a noun follows it ("1 to 8 GPUs" counts GPUs;
  ``sg101_*_heading_chain_unit``).
- The words around the range that name row labels ("on TensorRT 11.4", "at 800 x 800", "for fp16 and INT8",
  "except B200"), or the sentence's opening phrase ("On TensorRT 11.4, …"), restrict it to those rows; a header
  part that tells sub-columns apart ("at 800 x 1067" for ``fp16 ms 800x800 / 800x1067``) restricts it to that
  sub-column.
- A range of differences ("FP8 saves 0.04 to 0.11 ms", "0.1 to 0.2 ms
  faster") is checked against per-row differences of two columns of one
  table (the two figures of a ``0.409 → 0.073`` cell, or two columns whose
  headers differ in a word or two such as fp16 / FP8); a ``%`` or ``x``
  range worded as a difference, when no ``%``/``x`` column fits, against
  per-row relative differences (over the column named after "than": :func:`.column_pairs.stated_pair`) or
  ratios. A ratio between two precisions the sentence names is not read against a ratio column whose header
  names other sides (:func:`.column_pairs.may_hold_ratio`).
- Precision first: a column the range fits clears it when that column is
  as plausible a summary (both endpoints found, a shared header word) as
  the best column it does not fit; otherwise the finding names the most
  plausible column and every row the range leaves out, with its value.
- A range whose clause names a quantity ("60-80% less memory") is read only against columns of that quantity
  (:mod:`studygen.lint.range_quantity`); variants written as row labels pair as columns (:mod:`.row_variant_pairs`);
  one claimed for most or all rows ("in most cases") against the whole column it names (``*_majority_claim``).
- A summary table's cell of words ("TPOT | 15-25% faster") is read as a sentence (:mod:`.cell_claims`).

Columns are read nearest first (the sentence's own section), stopping at one the range fits at the top
plausibility: a long document costs little per range. A column of another section is reported when it holds
both endpoints and the sentence is tied to it: a shared word, a range of ratios worded as a speed comparison
("1.9x - 3.7x faster") over a column headed as a speedup, or the quantity of a table whose variant columns
split its rows (:func:`.variant_ranges.far_unions`).

**Bounds claimed for every row** ("all runs finish under 10 ms", "every
variant is within 3% of fp16"): :mod:`studygen.lint.stated_bounds`.

**Single-figure claims** ("3x faster", "up to 3x faster", "70% less memory")
are read against every column of the document that states the same thing
(:mod:`studygen.lint.claims`); the finding names that scope
(``sg101_*_claim_overstated``, ``sg101_*_claim_far_tables``).
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from ..findings import Finding
from ..numbers import format_number
from ..patterns import lazy_compile
from .cell_claims import cell_blocks
from .one_row_ranges import one_row_finding
from .claims import claim_finding, claims_most_rows, claims_of, overstated
from .column_pairs import Entry, may_hold_ratio, may_state, named_pairs, pair_reading, pair_tables, pairs, tied_elsewhere
from .columns import context_unit
from .document import Block, Document, Sentence, Series, Table
from .figures import (RATE_UNITS, RATIO_UNITS, Figure, Range, commensurable_units, figure_in_unit, in_unit, near_range, rounding_keys,
                      with_unit)
from .forecast import forecast
from .repeat_ranges import axis_named, repeats_spanned, rows_are
from .repeated_tables import repeated_unions
from .range_quantity import SPEED_RATIO_AFTER_RE, clause_kind, holds_quantity, speedup_reading
from .range_rows import band_rows, baseline_rows, is_band
from .range_width import loose_range
from .restriction import sweep_end_rows
from .row_variant_pairs import row_variant_pairs
from .rounding import covers, hedged_range
from .series_index import SectionSeries
from .stated_bounds import bound_findings
from .text import ratio_header, reference_opening
from .total_shares import total_rows
from .variant_pairs import kind_of_words
from .variant_ranges import across_variants, far_unions, names_only_its_column

CODE = "SG101"
MAX_ROWS_NAMED = 8

# Units that name a quantity by themselves (ms or x could be anything).
_SPECIFIC_UNITS = RATE_UNITS | {"AP", "AP50", "AP75", "MiB", "GiB", "KiB", "MB", "GB", "KB"}
# A header naming a difference column may stand for a range of differences.
_DIFFERENCE_HEADER_WORDS = frozenset({"saving", "saved", "diff", "difference", "delta", "gain", "reduction", "overhead", "change", "gap", "speedup", "slowdown"})


class Siblings(NamedTuple):
    """The sentence's other figures of a range's unit (``figures``) and its
    other ranges of that unit (``ranges``): what a row the range leaves out
    may be stated by instead ("INT4's 9.8% against 1.1-1.6% for the 8-bit
    recipes", "TP takes 1.55-1.57 ms versus EP 1.28-1.43 ms")."""

    figures: tuple = ()
    ranges: tuple = ()
    exclude: object = None  # the range itself, left in ``ranges`` (shared by the sentence's ranges)

    def __bool__(self) -> bool:
        return bool(self.figures) or len(self.ranges) > 1 or (len(self.ranges) == 1 and self.ranges[0] is not self.exclude)

    def unexplained(self, values: list[float]) -> list[float]:
        """``values`` (left out by the range) that no sibling states: a value
        a single figure prints, or a set that one sibling range covers with
        one of its endpoints printed by a value of the set."""
        rest = [v for v in values if not any(abs(v - f.value) <= f.half_step + 1e-9 for f in self.figures)]
        for other in self.ranges:
            if other is self.exclude:
                continue
            if rest and all(covers(other.lo, other.hi, v) for v in rest) and any(
                abs(v - end.value) <= end.half_step + 1e-9 for v in rest for end in (other.lo, other.hi)
            ):
                return []
        return rest


class Candidate:
    """A column (or pair of columns) a range may summarise, and the verdict.

    ``values`` are what the range is compared with; the printable
    :class:`Entry` list is made only for a candidate that is reported."""

    def __init__(self, description: str, table: Table, values: list[float], make_entries: Callable[[], list[Entry]],
                 strong: bool, overlap: bool, found: int, inside: int, distance: int, same_section: bool,
                 reportable: bool = True, siblings: Siblings = Siblings(), reading: Range | None = None):
        self.description, self.table, self.values, self.make_entries = description, table, values, make_entries
        self.strong, self.overlap, self.found, self.inside, self.distance = strong, overlap, found, inside, distance
        self.same_section, self.reportable = same_section, reportable
        self.siblings = siblings  # the sentence's other figures and ranges of the range's unit
        self.reading = reading  # the range in the unit of the column (set by _check_range)

    @property
    def covered(self) -> bool:
        return self.inside == len(self.values)

    @property
    def tier(self) -> tuple[bool, bool]:
        """How plausible it is that the range summarises this column."""
        return (self.strong, self.overlap)

    @property
    def conclusive(self) -> bool:
        """Covered at the top tier: no other column can outweigh it."""
        return self.covered and self.strong and self.overlap

    def rank(self) -> tuple:
        return (self.strong, self.overlap, self.same_section, self.found, self.inside / len(self.values), -self.distance)


class _ValueIndex:
    """Series of one unit indexed by their values rounded to given decimals,
    so a range finds the columns holding its endpoints without scanning."""

    def __init__(self, document: Document):
        self.document = document
        self._maps: dict[tuple[str, int], dict[int, list[Series]]] = {}
        self._sections: dict[tuple[int, str | None], SectionSeries] = {}
        self.difference_units: set[str | None] = set()  # units of series whose header names a difference
        self.repeated: dict = {}  # tables of one layout, grouped and joined (repeated_tables.repeated_unions)

    def holding(self, unit: str, figure: Figure) -> list[Series]:
        key = (unit, figure.decimals)
        mapping = self._maps.get(key)
        if mapping is None:
            mapping = {}
            for series in self.document.series_by_unit.get(unit, ()):
                for _, value in series.figures:  # both ends of a cell holding a range are values of the column
                    for k in rounding_keys(value.value, figure.decimals):
                        bucket = mapping.setdefault(k, [])
                        if not bucket or bucket[-1] is not series:
                            bucket.append(series)
            self._maps[key] = mapping
        return mapping.get(rounding_keys(figure.value, figure.decimals)[0], [])

    def section(self, section: int, unit: str | None) -> SectionSeries:
        key = (section, unit)
        found = self._sections.get(key)
        if found is None:
            found = self._sections[key] = SectionSeries(self.document.series_by_section.get(key, ()))
        return found


def check(document: Document) -> list[Finding]:
    """SG101 findings of ``document``: one per prose range that leaves out
    rows of the column it summarises."""
    if not document.tables:
        return []
    index = _ValueIndex(document)
    index.difference_units = {s.unit for t in document.tables for s in t.series if _DIFFERENCE_HEADER_WORDS & s.keywords}
    findings = []
    for block in (*document.prose, *cell_blocks(document)):  # a summary table's "TPOT | 15-25% faster" too
        if not block.has_digits:
            continue
        for sentence in block.sentences:
            for rng in sentence.ranges:
                if rng.kind == "range" and rng.unit is None:
                    rng = _with_heading_unit(block, rng)
                if rng.kind != "range" or rng.unit is None or forecast(block.text, sentence.start, rng.start):
                    continue  # no range, or one the document expects rather than measured ("Expected gain: 2-3x")
                read = hedged_range(block.text, rng)  # "about 50-60 ms"
                if (finding := _check_range(document, index, block, sentence, read, exact=read is rng)) is not None:
                    findings.append(finding)
                elif read is rng and (one := one_row_finding(document, sentence, rng)) is not None:
                    findings.append(Finding(CODE, one[1], document.path, one[0], hint=one[2]))
    # a headline claims as much as a paragraph ("... 2x faster with 80% less memory")
    for block in document.blocks:
        if block.kind not in ("paragraph", "heading") or not block.has_digits:
            continue
        for sentence in block.sentences:
            for claim in claims_of(sentence):
                scope = overstated(document, block, sentence, claim)
                if scope is not None:
                    line, message, hint = claim_finding(sentence, claim, scope)
                    findings.append(Finding(CODE, message, document.path, line, hint=hint))
    # a bound claimed for every row ("all runs finish under 10 ms"): a range with one end
    findings.extend(Finding(CODE, message, document.path, line, hint=hint) for line, message, hint in bound_findings(document))
    return findings


# After a range that counts something ("1 to 8 GPUs") comes the noun it counts; after a range of the
# heading's quantity comes the end of its clause or a word that scopes it ("5.6 to 6.1 on every GPU").
_SCOPING_AFTER_RE = lazy_compile(
    r"\s*(?:$|[.,;:!?)\]—–-]|(?:on|at|for|across|in|with|over|under|depending|when|while|and|but|or|respectively|"
    r"between|from|per|each|every|whereas|than)\b)", re.IGNORECASE)


def _with_heading_unit(block: Block, rng: Range) -> Range:
    """``rng`` with the unit of the nearest heading above its block that
    names one ("### Latency (ms)"), when no noun follows the range (it then
    counts that noun); ``rng`` itself otherwise."""
    if not _SCOPING_AFTER_RE.match(block.text, rng.end):
        return rng
    for heading in block.headings:
        unit = context_unit(heading)
        if unit is not None:
            return rng._replace(unit=unit, source=f"{rng.source} ({unit}, from the heading '{heading}')")
    return rng


def _siblings(sentence: Sentence, rng: Range) -> Siblings:
    """The sentence's figures of ``rng``'s unit outside every range, and its
    ranges of that unit but ``rng`` (see :attr:`Sentence.by_unit`)."""
    figures, ranges = sentence.by_unit.get(rng.unit, ((), ()))
    for unit in commensurable_units(rng.unit):  # "2.4 to 5.0 s, plus one at 27 s" read in ms: 27000 ms
        other_figures, other_ranges = sentence.by_unit.get(unit, ((), ()))
        figures = (*figures, *(figure_in_unit(f, rng.unit, unit) for f in other_figures))
        ranges = (*ranges, *(rng if r.start == rng.start else in_unit(r, rng.unit) for r in other_ranges))
    return Siblings(figures, ranges, rng)


def _check_range(document: Document, index: _ValueIndex, block: Block, sentence: Sentence, rng: Range,
                 exact: bool = False) -> Finding | None:
    if is_band(sentence, rng):
        return None  # it selects the rows another range of the sentence summarises
    candidates: list[Candidate] = []
    # as printed, in each other unit of its dimension the tables use ("8.2 to 11.6 s" over "ttft (ms)"), as a ratio ("5% faster")
    ratio = speedup_reading(block.text, rng) if "x" in document.series_by_unit else None
    for reading in (rng, *(in_unit(rng, u) for u in commensurable_units(rng.unit) if u in document.series_by_unit),
                    *([ratio] if ratio else [])):
        start = len(candidates)
        conclusive = _scan(document, index, block, sentence, reading, candidates)
        if reading is not rng:  # read in another unit: both endpoints found, or most of a column of its section inside
            candidates[start:] = [c for c in candidates[start:] if c.strong or (c.same_section and 2 * c.inside > len(c.values))]
        for candidate in candidates[start:]:
            candidate.reading = reading
        if conclusive:
            return None
    noun = repeats_spanned(sentence.text, rng.start - sentence.start, rng.end - sentence.start)
    if noun is not None:  # a range over repeats summarises only a table whose rows are those repeats
        candidates = [c for c in candidates if rows_are(c.table, noun) or axis_named(c.table, sentence.text)]
    return _verdict(document, sentence, rng, candidates, exact)


def _scan(document: Document, index: _ValueIndex, block: Block, sentence: Sentence, rng: Range, candidates) -> bool:
    """Candidates of ``rng`` into ``candidates``; True as soon as one is conclusive."""
    if rng.difference and rng.unit not in RATIO_UNITS:
        if rng.unit in index.difference_units:
            plain = (s for s in _plain_sources(document, index, block, sentence, rng) if _DIFFERENCE_HEADER_WORDS & s.keywords)
            if _scan_series(plain, index, block, sentence, rng, candidates):
                return True
        return _scan_pairs(document, block, sentence, rng, candidates, relative=False)
    if _scan_series(across_variants(block, sentence, rng, _plain_sources(document, index, block, sentence, rng)), index, block, sentence, rng, candidates):
        return True
    if not any(c.reportable for c in candidates) and rng.unit in RATIO_UNITS and rng.difference:
        return _scan_pairs(document, block, sentence, rng, candidates, relative=True)
    return False


def _verdict(document: Document, sentence: Sentence, rng: Range, candidates: list[Candidate], exact: bool = False) -> Finding | None:
    """The finding for the best uncovered candidate, unless a covered one is
    as plausible (same tier: both endpoints found, a shared header word);
    with every candidate covered, an unhedged (``exact``) range wider than
    all rows of its column (:mod:`studygen.lint.range_width`)."""
    uncovered = [c for c in candidates if not c.covered and c.reportable]
    if not uncovered:
        return loose_range(document.path, sentence, rng, candidates, CODE) if exact and candidates else None
    best = max(uncovered, key=Candidate.rank)
    if any(c.covered and c.tier >= best.tier for c in candidates):
        return None
    if best.siblings and not best.siblings.unexplained([v for v in best.values if not covers(best.reading.lo, best.reading.hi, v)]):
        return None  # every row the range leaves out, the sentence states with another figure
    return _finding(document, sentence, rng, best)


# --- plain columns -----------------------------------------------------------


def _nearest(block: Block):  # sort key: series of tables nearest the block first
    return lambda s: (abs(s.table.order - block.order), s.table.order, s.column, s.sub)


def _plain_sources(document: Document, index: _ValueIndex, block: Block, sentence: Sentence, rng: Range):
    """Series that may hold the range, nearest first: every series of the unit in the block's section, then
    series elsewhere holding both endpoints, or one and tied to the sentence (:func:`_ties`; computed only
    when the section holds no covered candidate)."""
    unit = rng.unit
    # a section is short: its series in document order are near enough (the rank decides what a finding names)
    section = index.section(block.section, unit)
    low_edge = rng.lo.value - rng.lo.half_step - 1e-9
    high_edge = rng.hi.value + rng.hi.half_step + 1e-9
    # the ones _scan_series would not skip unread (same edges, same one-side test)
    yield from section.worth_reading(low_edge, high_edge, section.lone_measured(sentence.measure), block.order)
    at_lo = index.holding(unit, rng.lo)
    at_hi = index.holding(unit, rng.hi)
    yield from far_unions(block, sentence, rng, at_lo, at_hi)  # a far table's variants that split its rows, tied
    yield from repeated_unions(document, index.repeated, sentence, rng)  # a column of tables of one layout, joined
    hi_ids = {id(s) for s in at_hi}
    chosen: dict[int, Series] = {}
    for series in at_lo:
        if series.table.section != block.section and (id(series) in hi_ids or _ties(series, sentence)):
            chosen[id(series)] = series
    for series in at_hi:
        if series.table.section != block.section and _ties(series, sentence):
            chosen[id(series)] = series
    yield from sorted(chosen.values(), key=_nearest(block))


def _ties(series: Series, sentence: Sentence) -> bool:
    """A column of another section the sentence may summarise: it names its quantity or its variant."""
    return _names_quantity(series, sentence.measure) or bool(series.quantity - series.measure & sentence.keywords)


def _names_quantity(series: Series, words: frozenset[str]) -> bool:
    """True when quantity ``words`` name ``series``'s header, or its heading by a kind's word ("latency", no mode)."""
    return bool(series.measure & words) or any(kind_of_words((w,)) for w in series.table.heading_words & words)


def _series_excluded(series: Series, view) -> bool:
    """True when the clause names a sibling sub-column's header part
    ("at 800 x 1067") but not this one's."""
    if not series.varying or series.varying.startswith("#"):
        return False
    if view.mention(series.varying) == 1:
        return False
    for sibling in series.table.series:
        if sibling.column == series.column and sibling is not series and sibling.varying and view.mention(sibling.varying) == 1:
            return True
    return False


def _series_entries(series: Series, figures: list[tuple[int, Figure]]) -> Callable[[], list[Entry]]:
    def make() -> list[Entry]:
        rows = series.table.rows
        return [Entry(rows[i], f.value, with_unit(f.text, series.unit), f.decimals) for i, f in figures]

    return make


def _scan_series(sources, index: _ValueIndex, block: Block, sentence: Sentence, rng: Range, candidates: list[Candidate]) -> bool:
    """Evaluate plain series into ``candidates``; True as soon as one is
    :attr:`Candidate.conclusive`."""
    view = None  # made for the first series worth reading (most ranges have none)
    words = sentence.measure
    restrictions: dict[int, list[int] | None] = {}
    # A series whose values all lie outside the range, endpoints included,
    # can neither hold an endpoint nor sit inside it: skip it unread.
    low_edge = rng.lo.value - rng.lo.half_step - 1e-9
    high_edge = rng.hi.value + rng.hi.half_step + 1e-9
    siblings = _siblings(sentence, rng)
    majority = claims_most_rows(sentence, rng)
    section = index.section(block.section, rng.unit)
    lone = section.lone_measured(sentence.measure)
    lone = None if lone is None else section.series[lone]
    kind = clause_kind(sentence, rng)  # the quantity the range's words name, if any
    for series in sources:
        smallest, largest = series.bounds
        # the one series of the unit in the sentence's section whose header names a
        # word of the sentence may be its column with every value outside the range
        one_side_ok = series is lone
        if (largest < low_edge or smallest > high_edge) and not one_side_ok:
            continue
        if not may_hold_ratio(series, sentence, rng.end):  # "fp16 over FP8" is no 'Latency / kernel total'
            continue
        table = series.table
        key = id(table)
        if view is None:
            view = sentence.clause_view(rng.start, rng.end - rng.start)
        if key not in restrictions:
            restrictions[key] = table.restrict(view)
        rows = restrictions[key]
        if rows is None or _series_excluded(series, view):
            continue
        restricted = rows is not table.all_rows or bool(series.varying and view.mention(series.varying) == 1)
        baseline = baseline_rows(series, rng, view, reference_opening(sentence.text))
        # a total row sums the others and is none of them: a range over a column's rows leaves it out by meaning,
        # unless the clause names it (then it is among the rows the clause restricts the range to)
        totals = total_rows(table) if rows is table.all_rows else set()
        figures = series.figures  # (row, figure); a cell holding a range gives both its ends
        banded = band_rows(series, sentence, rng)  # "Good (65-80% acceptance): 6 prompts (3.67-3.89x)"
        if rows is not table.all_rows or baseline or totals or banded is not None:
            kept = (set(rows) if banded is None else banded & set(rows)) - baseline - totals
            figures = [(i, f) for i, f in figures if i in kept]
            restricted = restricted or banded is not None
        if view.sweep_ends and not restricted:
            # "small sizes read -13% to -41%": the words name the end of the sweep the range covers
            present = [i for i, _ in figures]
            inside = [i for i, f in figures if low_edge <= f.value <= high_edge]
            if sweep_end_rows(table, view, present, inside):
                inside_rows = set(inside)
                figures = [(i, f) for i, f in figures if i in inside_rows and low_edge <= f.value <= high_edge]
        values = [f.value for _, f in figures]
        same_section = table.section == block.section
        # a variant or quantity word ties a sentence to a column (the unit tells an fp32 AP from an fp32 latency);
        # the unit alone, in its section when no other table there has it, elsewhere when only one quantity does
        if same_section:
            overlap = bool(series.quantity & sentence.keywords) or (
                series.sole_of_unit and len(block.document.series_by_section.get((block.section, series.unit), ())) == 1)
        else:
            overlap = _ties(series, sentence) or (series.sole_of_unit and series.unit in _SPECIFIC_UNITS) or (
                ratio_header(series.header) and SPEED_RATIO_AFTER_RE.match(block.text, rng.end) is not None)
        # the heading over the table may name the quantity its columns do not ("Time per token (ms)")
        overlap = overlap or bool(table.heading_words & words)
        if not same_section and series.quantity - series.measure & sentence.keywords and (
                _names_quantity(series, words) or names_only_its_column(series, sentence, rng)):
            same_section = True  # its variant and quantity named, or the one column of its variant: as close a tie as its own section's
        candidate = _evaluate(
            f"'{series.header}'", table, values, _series_entries(series, figures), rng,
            overlap, abs(table.order - block.order), same_section, restricted, siblings, one_side_ok, majority,
        )
        if candidate is None:
            continue
        candidate.reportable = candidate.reportable and holds_quantity(series, kind)  # another quantity's column
        candidates.append(candidate)
        if candidate.conclusive:
            return True
    return False


def _evaluate(description: str, table: Table, values: list[float], make_entries, rng: Range, overlap: bool, distance: int,
              same_section: bool, restricted: bool = False, siblings: Siblings = Siblings(), one_side_ok: bool = False,
              majority: bool = False) -> Candidate | None:
    """A :class:`Candidate` when the range summarises these values (see the module docstring), else None.
    ``restricted``: the clause named the rows (or the sub-column) the values come from; ``siblings``: the
    sentence's other figures and ranges (what they state is accounted for); ``one_side_ok``: the column may be
    read even when every value lies on one side of the range (:meth:`SectionSeries.lone_measured`);
    ``majority``: the clause claims the range for most or all rows (:func:`studygen.lint.claims.claims_most_rows`)."""
    if len(values) < 2:
        return None
    # rounding.covers() inlined, with each end's half step: this loop runs for every candidate row.
    lo, hi = rng.lo, rng.hi
    lo_value, hi_value = lo.value, hi.value
    lo_tolerance = lo.half_step + 1e-9
    hi_tolerance = hi.half_step + 1e-9
    low_bound = lo_value - lo_tolerance
    high_bound = hi_value + hi_tolerance
    inside = explained = 0
    below = above = 0
    found_lo = found_hi = False
    for value in values:
        if low_bound <= value <= high_bound:
            inside += 1
            # an endpoint can only be found among values inside the range
            if not found_lo and value - lo_value <= lo_tolerance:
                found_lo = True
            if not found_hi and hi_value - value <= hi_tolerance:
                found_hi = True
        elif value < low_bound:
            below += 1
        else:
            above += 1
    if siblings and inside < len(values):
        explained = len(values) - inside - len(siblings.unexplained([v for v in values if not low_bound <= v <= high_bound]))
    count = len(values)
    strong = found_lo and found_hi
    found = found_lo + found_hi
    # Every value on one side of the range ("35-40% faster" over +33.9% and +33.8%): the
    # range overstates or understates the whole column the words name.
    one_side = one_side_ok and inside == 0 and explained == 0 and (below == count or above == count) and near_range(values, rng)
    # Another section's column is reported only with a shared header word, or
    # both endpoints among the rows the clause names ("fp16 takes ..."), as
    # well (in a long document two endpoints turn up somewhere by
    # coincidence); without one it can still show that the range fits.
    reportable = True
    if same_section:
        # a clause that claims the range for most rows of the column its words name reads that column whole
        if not strong and not (overlap and (found or inside * 2 > count or one_side or majority)):
            return None
    elif not (overlap and found) and not (restricted and strong):
        if not (strong and inside == count):
            return None
        reportable = False
    # A range that leaves out most rows, none of them named by its words, is
    # about a subset the words do not name ("1.6-1.9x at large token counts"):
    # it cannot be read against the whole column, unless its clause claims it
    # for most or all rows ("in most cases").
    stated = inside + explained
    if stated < count and not restricted:
        if not (stated * 2 > count or (stated * 2 == count and (strong or overlap)) or one_side or majority):
            reportable = False
        elif not same_section and not (strong or (stated * 2 > count and overlap) or (majority and overlap and found)):
            reportable = False  # another section's column, rows not named: most of it, both ends, or one claimed for all
    elif stated < count and not same_section and not (strong or stated * 2 >= count):
        reportable = False  # another section's rows the clause names: half of them, or both endpoints, in the range
    return Candidate(description, table, values, make_entries, strong, overlap, found, inside, distance, same_section,
                     reportable, siblings)


def _scan_pairs(document: Document, block: Block, sentence: Sentence, rng: Range, candidates: list[Candidate], relative: bool) -> bool:
    """Evaluate per-row differences (or relative differences / ratios) of column pairs into ``candidates``;
    True as soon as one is conclusive."""
    view = sentence.clause_view(rng.start, rng.end - rng.start)
    kind = clause_kind(sentence, rng)
    for table in pair_tables(document, block, sentence):
        units = table.pair_units
        if rng.unit not in RATIO_UNITS:
            units = units & {rng.unit}
        elif table.unit_counts.get(None, 0) >= 2:
            units = units | {None}  # a relative change compares figures of any one unit, stated or not
        if not units:
            continue
        rows = table.restrict(view)
        if rows is None:
            continue
        restricted = rows is not table.all_rows
        distance = abs(table.order - block.order)
        same_section = table.section == block.section
        for unit in sorted(units, key=str):
            named_rows = row_variant_pairs(table, unit, sentence)
            for first, second in pairs(table, unit) + named_pairs(table, unit, sentence) + named_rows:
                if not may_state(first, second, sentence):
                    continue
                # the clause names its rows and a speed or a header word of the pair: read as the section's own
                tied_rows = (first, second) in named_rows and (kind is not None or bool(first.measure & sentence.measure))
                if same_section:
                    overlap = bool((first.quantity | second.quantity) & sentence.keywords)
                else:
                    overlap = tied_rows or tied_elsewhere(table, first, second, sentence)
                reading = pair_reading(first, second, rows, rng, relative, sentence)
                if reading is None:
                    continue
                description, values, make_entries = reading
                candidate = _evaluate(description, table, values, make_entries, rng, overlap, distance, same_section or tied_rows, restricted,
                                      majority=not same_section and claims_most_rows(sentence, rng))
                if candidate is None:
                    continue
                candidate.reportable = candidate.reportable and holds_quantity(first, kind)
                candidates.append(candidate)
                if candidate.conclusive:
                    return True
    return False


# --- the finding -------------------------------------------------------------------


def _finding(document: Document, sentence: Sentence, rng: Range, best: Candidate) -> Finding:
    entries = best.make_entries()
    outside = [e for e in entries if not covers(best.reading.lo, best.reading.hi, e.value)]
    unexplained = best.siblings.unexplained([e.value for e in outside]) if best.siblings else [e.value for e in outside]
    left_out = [e for e in outside if e.value in unexplained]
    named = ", ".join(f"'{e.row.label or f'line {e.row.line}'}' ({e.shown})" for e in left_out[:MAX_ROWS_NAMED])
    if len(left_out) > MAX_ROWS_NAMED:
        named += f" and {len(left_out) - MAX_ROWS_NAMED} more"
    rows_word = "row" if len(left_out) == 1 else f"{len(left_out)} rows:"
    message = f"range {rng.text} leaves out {rows_word} {named} of {best.description} in the table at line {best.table.line}"
    low = min(entries, key=lambda e: e.value)
    high = max(entries, key=lambda e: e.value)
    # the unit once, around both ends: "0.95 to 2.64x", "AP50 0.8285 to 0.8971" (an AP's name goes before its figure)
    widened = with_unit(f"{format_number(low.value, low.decimals)} to {format_number(high.value, high.decimals)}", best.reading.unit)
    hint = (
        f"widen the range to {widened} to cover every row, "
        "or name the rows it covers in the same clause (for example 'on TensorRT 11.4' or 'at 800 x 800') so only those are compared"
    )
    return Finding(CODE, message, document.path, sentence.line_at(rng.start), hint=hint)


__all__ = ["check", "CODE"]
