"""Figures of one study at two revisions, compared by measurement key.

A figure is what one measurement key (:mod:`studygen.records.keys`: what is
measured, independent of the job that measured it) holds in a revision, for
a latency timed one way (:func:`studygen.study.timing.timing_signature`: CUDA
graphs on and off are two figures, as SG203 has it): the value of each job
that reports it. Between a base and a head revision each
key's figure is

- **unchanged** when both hold the same values (which jobs report them
  aside);
- **new** / **removed** when only the head / only the base holds it;
  a job that reports the figure at the base and not at the head is a
  removed figure of that job too, though other jobs still report the key
  (dropping one job's run must show); the key is then judged on the jobs
  that stay (unchanged when they hold the same values);
- **within spread** when every job of the head moved no further than the
  widest allowance the base revision gives the figure, else **beyond
  spread**. Each head job is judged on its own move: from its own value at
  the base when the base has that job, else from the base's figure (the
  median over the base's jobs). Head jobs are never pooled into a median: a
  re-run 55 % slower beside an unchanged job moved 55 %, not half of it.
  A job new beside base jobs that stay moved nothing: its distance from the
  base shows how jobs differ, held to the base's job-to-job spread, a declared
  source or the tolerance, never to one job's repeats; with none of them, a
  **new job**, its distance given, judged neither way (check's SG203 is).
  A latency that is host-bound at either revision
  (:func:`studygen.study.host_bound.host_bound`: the host took at least
  90 % of the median to issue each forward) is held the same way, each of
  its jobs: it times the host's pace, which moves from one process to the
  next (a new user's re-run of a tiny ResNet: 3.6 to 4.0 ms, kernels 0.27
  ms, beyond the 0.24 ms its five repeats spread in one process), so one
  job's repeats bound none of a re-run; with nothing that bounds jobs it
  is **host-bound**, its move given, judged neither way.
- **re-keyed** (not a verdict of its own: :mod:`studygen.compare.rekey`)
  when one job gives the same value under a base key and a head key that
  differ only in the fields its provenance sets (GPU, software versions,
  checkpoint revision): reported once as the job's provenance change, and
  left out of both sides before the keys above are compared.

The allowances are read from the base revision alone, from the spread model
(:mod:`studygen.study.spread`): the base's repeat medians or profiled
iterations of a figure, its independent compilations, the spread between
the base's jobs that report the same key, a declared source's bound in the
base's study file (``spread_sources[*].up_to_percent``, of the base's
figure), and the base's study file tolerance for figures without a spread
of their own; and the resolution of the timer both revisions were timed
with (:func:`studygen.study.resolution.timer_allowance`: one clock step is
no change). The head's own scatter never widens the allowance it is judged
by: a slow re-run whose repeats scattered widely was called within spread
when the head's repeats counted. A spread's width is its largest minus its
smallest value: the rule SG203 holds a variant difference to (a difference
no larger than the job-to-job spread is not a measured difference) applied
to a difference between revisions. A figure that moved with no spread and
no tolerance is beyond spread.

A quality figure's change (COCO AP and its difference,
``studygen.records.kinds.QUALITY_KINDS``) is also given in points
(:data:`studygen.records.kinds.POINTS_PER_UNIT`: 1 point = 0.01 AP), never as a percentage of
itself.

Figures given as a range over rows the source does not list
(``value_min``/``value_max``) are compared end by end against the tolerance.
Not-measured results are no figures.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from decimal import Decimal

from ..numbers import SourceFloat, exact_decimal, format_number
from ..place import Place
from ..records.kinds import POINTS_PER_UNIT, QUALITY_KINDS, Kind
from ..render.rows import fmt, spread_cells
from ..render.labels import gpu_label, shape_label
from ..study.host_bound import host_bound
from ..study.resolution import timer_allowance
from ..study.spread import (JOBS, PROFILED_ITERATIONS, REPEAT_MEDIANS, Spread, compilation_spread, declared_source_of,
                            measured_spreads, tolerance)
from ..study.timing import describe, latency_signature, timing_name
from .allowance import DECLARED, TIMER, TOLERANCE, Allowance
from .rekey import Pairing, ProvenanceChange, RekeyedFigure, pair_by_job, provenance_changes

UNCHANGED = "unchanged"
WITHIN = "within spread"
BEYOND = "beyond spread"
NEW = "new"
REMOVED = "removed"
NEW_JOB = "new job"
HOST_BOUND = "host-bound"
# Verdicts in the order a report lists them: what needs a look first.
VERDICT_ORDER = (BEYOND, WITHIN, NEW_JOB, HOST_BOUND, NEW, REMOVED, UNCHANGED)

# what bounds how far jobs differ: a new job is held to these alone (the timer step beside them, never alone)
_ACROSS_JOBS = frozenset({JOBS, DECLARED, TOLERANCE})
_EPSILON = 1e-9  # relative: two floats this close are one value (a value read back through JSON)


@dataclass(frozen=True)
class FigureChange:
    """One measurement key compared between two revisions.

    ``what``: the figure in words; ``old``/``new``: each job's value at base
    and head, as printed (``[]`` where the side has none); ``farthest``: the
    head job that moved most (None for a new, removed or unchanged figure),
    the one whose move the verdict and the change are given for;
    ``old_value``/``new_value``: that job's figure at base (its own value
    there, else the base's median over jobs) and at head (None for a range
    or a missing side); ``delta`` = new - old (figure unit); ``relative`` =
    delta / old (a fraction; None when old is 0, either is missing, or the
    figure is a quality figure); ``points``: a quality figure's delta in AP
    points (None for other figures); ``spread``: the widest allowance of
    the base (None when nothing bounds the figure); ``place``: the head's
    row (its record and line; of the farthest job when several report
    it), the base's for a removed figure;
    ``decimals``: digits a value is printed with; ``still_reported_by``:
    for a removed figure of one job, the head's jobs that still report the
    key (``()`` when none does); ``delta_shown``: ``delta`` as printed,
    signed (``+0.02``), with the digits that make it read as the farthest
    job's new value minus its old one as ``old`` and ``new`` print them
    (:func:`_printed_move`); None where ``delta`` is."""

    key: str
    what: str
    unit: str
    verdict: str
    old: tuple[str, ...]
    new: tuple[str, ...]
    old_jobs: tuple[str, ...]
    new_jobs: tuple[str, ...]
    old_value: float | None
    new_value: float | None
    delta: float | None
    relative: float | None
    spread: Allowance | None
    place: Place
    decimals: int | None
    farthest: str | None = None
    points: float | None = None
    still_reported_by: tuple[str, ...] = ()
    delta_shown: str | None = None


@dataclass(frozen=True)
class JobMove:
    """How far one head job's figure moved from the base: ``job``; ``old``
    and ``new`` the two values compared (None for a range); ``distance``
    the size of the move in the figure's unit (a range: its farther end)."""

    job: str
    old: float | None
    new: float | None
    distance: float


def figure_changes(base, head, leave_out: frozenset[int] = frozenset()) -> tuple[list[FigureChange],
                                                                                 list[ProvenanceChange]]:
    """Every measurement key of either study compared (see the module
    docstring), unchanged ones included, in :data:`VERDICT_ORDER`, then by
    description; and the jobs whose provenance changed with their re-keyed
    figures (:mod:`studygen.compare.rekey`). ``base``/``head``: loaded
    studies (None: the family does not exist at that revision).
    A re-keyed figure's rows are taken out of both sides before the keys
    are compared: its job's base key was the wrong one (or the head's), so
    it neither leaves a removed figure nor joins the head's key as a move.
    Rows whose ``id`` is in ``leave_out`` are no figures of either side (a
    regrouped profile's, :mod:`studygen.compare.regroup`)."""
    old = _figures(base, leave_out) if base is not None else {}
    new = _figures(head, leave_out) if head is not None else {}
    pairings = pair_by_job(old, new)
    kept = [pairing for pairing in pairings if pairing.value_kept]
    provenance: list[ProvenanceChange] = []
    if kept:
        every_name = _names(base, head, old, new)
        provenance = provenance_changes(pairings, lambda p: _rekeyed(p, every_name[p.new_key]))
        old = _without(old, {(p.old_key, p.job) for p in kept})
        new = _without(new, {(p.new_key, p.job) for p in kept})
    names = _names(base, head, old, new)
    changes = []
    for key in sorted(old.keys() | new.keys()):
        changes += _compare(key, names[key], base, old.get(key, []), new.get(key, []))
    return sorted(changes, key=lambda c: (VERDICT_ORDER.index(c.verdict), c.what, c.key)), provenance


def _without(figures: dict, taken: set[tuple]) -> dict:
    """``figures`` (figure key -> rows) less the rows of each ``(figure key, job)`` of ``taken``; a key left
    with no row is dropped."""
    kept = {key: [row for row in rows if (key, _job(row)) not in taken] for key, rows in figures.items()}
    return {key: rows for key, rows in kept.items() if rows}


def _rekeyed(pairing: Pairing, what: str) -> RekeyedFigure:
    rows = pairing.new_rows
    return RekeyedFigure(what, pairing.old_key[0], pairing.new_key[0], tuple(_shown(r) for r in rows), _unit(rows[0]))


def _compare(key: tuple[str, str], what: str, base, old_rows: list, new_rows: list) -> list[FigureChange]:
    """The key's change, after a removed figure for each base job the head
    no longer has while other jobs still report the key: a job dropped
    beside an unchanged one read as no change."""
    head_jobs = {_job(row) for row in new_rows}
    dropped = _by_job([row for row in old_rows if _job(row) not in head_jobs]) if new_rows else {}
    decimals = _decimals(old_rows + new_rows)
    removed = [FigureChange(key[0], what, _unit(rows[0]), REMOVED, tuple(_shown(r) for r in rows), (), (job,), (),
                            _median(rows), None, None, None, None, _place(rows[0]), decimals,
                            still_reported_by=tuple(_job(r) for r in new_rows))
               for job, rows in dropped.items()]
    staying = [row for row in old_rows if _job(row) in head_jobs] or old_rows  # none stays: the base's figure
    return [*removed, _compare_key(key, what, base, old_rows, new_rows, staying)]


def _compare_key(key: tuple[str, str], what: str, base, old_rows: list, new_rows: list, staying: list) -> FigureChange:
    """One key compared; ``staying``: the base rows of the jobs the head
    still has (all of them when none stays), which the head's values must
    match for the key to be unchanged."""
    some = (new_rows or old_rows)[0]
    decimals = _decimals(old_rows + new_rows)
    shown = (tuple(_shown(r) for r in old_rows), tuple(_shown(r) for r in new_rows),
             tuple(_job(r) for r in old_rows), tuple(_job(r) for r in new_rows))
    if not old_rows or not new_rows or _same(staying, new_rows):
        verdict = NEW if not old_rows else REMOVED if not new_rows else UNCHANGED
        return FigureChange(key[0], what, _unit(some), verdict, *shown, _median(old_rows), _median(new_rows),
                            None, None, None, _place(some), decimals)
    allowances = allowances_of(base, old_rows, new_rows)
    # the base jobs the head has again; none: the head's jobs stand for the base's (each moved from its median)
    returning = {_job(row) for row in old_rows} & (head_jobs := {_job(row) for row in new_rows}) or head_jobs
    # a host-bound timing's re-run is another process at the host's pace of the day: held, as a new job is, to what
    # bounds jobs alone, never to the repeats of one process (which share its pace)
    timed_host = any(host_bound(row) for row in (*old_rows, *new_rows))
    verdict, farthest, widest = _judged(job_moves(old_rows, new_rows), allowances, set() if timed_host else returning)
    verdict = HOST_BOUND if timed_host and verdict == NEW_JOB else verdict
    delta = farthest.new - farthest.old if farthest.old is not None and farthest.new is not None else None
    factor = POINTS_PER_UNIT.get(_unit(some)) if _is_quality(some) else None  # AP points per unit; None: no points
    relative = delta / farthest.old if delta is not None and farthest.old and factor is None else None
    points = delta * factor if delta is not None and factor is not None else None
    moved = next(row for row in new_rows if _job(row) == farthest.job)
    delta_shown = None
    if delta is not None:
        shown, delta_shown = _printed_move(farthest, old_rows, new_rows)
    return FigureChange(key[0], what, _unit(some), verdict, *shown, farthest.old, farthest.new,
                        delta, relative, widest, _place(moved), decimals, farthest.job, points, delta_shown=delta_shown)


def _judged(moves: list[JobMove], allowances: list[Allowance], staying: set[str]) -> tuple[str, JobMove, Allowance | None]:
    """``(verdict, the move it is given for, its allowance)``: the farthest move beyond its allowance, else the
    farthest held to one; a ``staying`` base job's held to every allowance, a new job's to :data:`_ACROSS_JOBS`.
    :data:`NEW_JOB` when only new jobs moved and nothing bounds jobs (the widest allowance shown, not applied)."""
    across = [a for a in allowances if a.source in _ACROSS_JOBS]
    across += [a for a in allowances if a.source == TIMER] if across else []
    held = [(move, allowances if move.job in staying else across) for move in moves]
    held = [(move, max(some, key=lambda a: a.width) if some else None) for move, some in held
            if some or move.job in staying]  # a new job with nothing that bounds jobs is judged neither way

    def beyond(move, widest):
        scale = max(abs(move.old or 0.0), abs(move.new or 0.0), 1.0)
        return move.distance > (widest.width if widest else 0.0) + _EPSILON * scale

    first = max(held, key=lambda pair: (beyond(*pair), pair[0].distance), default=None)  # the first of equal moves
    if first is None or (first[0].distance == 0 and not beyond(*first) and len(held) < len(moves)):
        return NEW_JOB, max((m for m in moves if m.job not in staying), key=lambda m: m.distance), \
            max(allowances, key=lambda a: a.width) if allowances else None
    return BEYOND if beyond(*first) else WITHIN, *first


def _printed_move(farthest: JobMove, old_rows: list, new_rows: list) -> tuple[tuple, str]:
    """The four ``shown`` tuples of :func:`_compare_key` (old and new
    values as printed, old and new jobs) and the farthest job's change,
    signed, printed so that the line reads as its own arithmetic: the old
    and new figure of the move and its size take their digits together by
    :func:`studygen.render.rows.spread_cells`' rule, the rule of a README's
    job-to-job cells (5.12 -> 5.14 ms at ``precision: {latency_ms: 1}``
    prints ``5.12 ms -> 5.14 ms (+0.02 ms``, not ``5.1 ms -> 5.1 ms (0.0
    ms``; 14.616 -> 14.233 ms, whose repeats leave them 15 and 14 alone,
    ``14.6 ms -> 14.2 ms (-0.4 ms``, not ``15 ms -> 14 ms (-0.383 ms``).
    Where that takes more digits than a value prints alone, every value of
    the line prints with them (never past the digits its source carries).
    A job new at the head moves from the base's median over jobs, a
    computed figure: its digits are its exact decimal text's."""
    old_job = [row for row in old_rows if _job(row) == farthest.job]
    new_job = [row for row in new_rows if _job(row) == farthest.job]
    old_row, new_row = (old_job or old_rows)[0], new_job[0]
    # a job's one row keeps its source digits; several rows (or none, at the base) give a median, a computed figure
    old_value = old_row.value if len(old_job) == 1 else _median_as_printed(old_job or old_rows, farthest.old)
    new_value = new_row.value if len(new_job) == 1 else _median_as_printed(new_job, farthest.new)
    texts, size = spread_cells([old_row, new_row], [old_value, new_value])
    sign = "+" if farthest.new > farthest.old else "-" if farthest.new < farthest.old else ""
    delta_shown = sign + size if Decimal(size) != 0 else size
    if texts == [fmt(old_value, old_row), fmt(new_value, new_row)]:  # each at its own digits reads right
        shown = (tuple(_shown(r) for r in old_rows), tuple(_shown(r) for r in new_rows))
    else:
        digits = max(_decimals_of(text) for text in (*texts, size))
        printed = {id(row): text for row, text, own in ((old_row, texts[0], len(old_job) == 1),
                                                         (new_row, texts[1], len(new_job) == 1)) if own}
        shown = tuple(tuple(printed.get(id(r)) or _shown(r, digits) for r in rows) for rows in (old_rows, new_rows))
    return (*shown, tuple(_job(r) for r in old_rows), tuple(_job(r) for r in new_rows)), delta_shown


def job_moves(old_rows, new_rows) -> list[JobMove]:
    """Each head job's move, in job order: from its own figure at the base
    when the base has the job, else from the base's figure (the median over
    its jobs); a job's figure is the median of its rows of the key. Single
    values are compared as values, else (a range on either side) each end
    (:func:`_ends`) against the same end."""
    old_by_job, new_by_job = _by_job(old_rows), _by_job(new_rows)
    single = all(_value(row) is not None for row in (*old_rows, *new_rows))
    moves = []
    for job, rows in new_by_job.items():
        reference = old_by_job.get(job, old_rows)
        if single:
            old, new = _median(reference), _median(rows)
            moves.append(JobMove(job, old, new, abs(new - old)))
        else:
            distance = max(abs(a - b) for a, b in zip(_ends(reference), _ends(rows)))
            moves.append(JobMove(job, None, None, distance))
    return moves


def allowances_of(base, old_rows, new_rows) -> list[Allowance]:
    """Every allowance that bounds a change of one key, all of the base
    revision: its measured spreads (:func:`studygen.study.spread.measured_spreads`)
    and job-to-job spread, a declared source's bound in its study file (of
    the base's figure, the median over its jobs), its study file's
    tolerance; and the resolution of the timer of either side's rows
    (:func:`studygen.study.resolution.timer_allowance`, the bound SG203
    holds two jobs to: a change of one tick of trtexec's float32 clock is
    no change). Ranges (no single value) get the tolerance only. The head's
    rows never widen a spread: ``new_rows`` serve only the timer and the
    declared source's cover."""
    single = all(_value(row) is not None for row in (*old_rows, *new_rows))
    spreads = [(row, spread) for row in old_rows for spread in measured_spreads(row)] if single else []
    if single and len({_job(row) for row in old_rows}) > 1:
        spreads.append((None, Spread(tuple(_value(row) for row in old_rows), JOBS)))
    # one process's samples: a compiled row's repeats and forwards pool its compilations, each its own process
    allowances = [Allowance(s.width, s.source, "base", len(s.values), s.low, s.high,
                            one_run=s.source in (REPEAT_MEDIANS, PROFILED_ITERATIONS) and compilation_spread(row) is None)
                  for row, s in spreads]
    if single:
        declared = declared_source_of(base, old_rows[0], new_rows[0])
        if declared is not None and declared.up_to_percent is not None:
            allowances.append(Allowance(declared.up_to_percent / 100 * abs(_median(old_rows)), DECLARED,
                                        percent=declared.up_to_percent, declared=declared.words))
    allowed = tolerance(base, old_rows[0])
    if allowed > 0:
        allowances.append(Allowance(allowed, TOLERANCE))
    step = timer_allowance(old_rows, new_rows)  # a change the timer cannot express (as SG203); no range has one
    if step > 0:
        allowances.append(Allowance(step, TIMER))
    return allowances


def _same(old_rows, new_rows) -> bool:
    """The same values on both sides (a job that joined with a value another job has changes nothing)."""
    return {_figure(r) for r in old_rows} == {_figure(r) for r in new_rows}


def _median(rows) -> float | None:
    values = [_value(r) for r in rows]
    if not values or any(v is None for v in values):
        return None
    return float(statistics.median(values))


def _ends(rows) -> tuple[float, float]:
    lows, highs = zip(*(_range(r) for r in rows))
    return min(lows), max(highs)


def _decimals(rows) -> int | None:
    """Digits to print a value and a change with: the row's display precision
    (the study file's), else the most digits any value carries (None when no
    value carries any: a computed float prints as it is)."""
    shown = [d for d in map(_display_decimals, rows) if d is not None]
    if shown:
        return max(shown)
    carried = [d for d in map(_carried_decimals, rows) if d is not None]
    return max(carried) if carried else None


def _names(base, head, old: dict, new: dict) -> dict[tuple, str]:
    """Each figure in words (:func:`_what`; the batch named on every figure
    when they hold several); where two read the same, the way of timing
    where it tells them apart (one key timed two ways), then the software
    versions and then the checkpoint revision are added until they differ."""
    rows = {key: (head, rows[0]) for key, rows in new.items()}
    rows.update({key: (base, rows[0]) for key, rows in old.items() if key not in rows})
    # batch 1 is named too where the figures hold another batch: "640 x 640, RTX 4090" would read as every batch
    several_batches = len({row.batch for _, row in rows.values() if row.batch is not None}) > 1
    names = {key: _what(study, row, several_batches) for key, (study, row) in rows.items()}
    timings: dict[str, set] = {}
    for key, name in names.items():
        timings.setdefault(name, set()).add(key[1])
    for key in names:
        if len(timings[names[key]]) > 1:
            names[key] += f", {key[1]}"
    for position in range(2):
        seen: dict[str, int] = {}
        for name in names.values():
            seen[name] = seen.get(name, 0) + 1
        for key, (_, row) in rows.items():
            extra = _telling_apart(row)[position]
            if seen[names[key]] > 1 and extra:
                names[key] += f", {extra}"
    return names


# ---- the rows this module reads: one adapter over studygen.study's Row ----

def _figures(study, leave_out: frozenset[int] = frozenset()) -> dict[tuple[str, str], list]:
    """``(measurement key text, way of timing in words)`` -> the rows that
    give that figure (a value or a range), in job order. The timing
    (:func:`~studygen.study.timing.describe` of a latency's signature, '' for
    other kinds) is part of what a figure is, as SG203 reads one measurement:
    jobs timed with CUDA graphs and without give two figures, whose values
    are neither one median nor one job-to-job spread."""
    by_key: dict[tuple[str, str], list] = {}
    for row in study.rows:
        if row.kind == Kind.NOT_MEASURED or (row.value is None and row.value_min is None) or id(row) in leave_out:
            continue
        signature = latency_signature(row)
        by_key.setdefault((row.key.text(), describe(signature) if signature else ""), []).append(row)
    for rows in by_key.values():
        rows.sort(key=lambda r: (r.job_id, r.pointer))
    return by_key


def _job(row) -> str:
    return row.job_id


def _by_job(rows) -> dict[str, list]:
    """``rows`` by job, in order."""
    by_job: dict[str, list] = {}
    for row in rows:
        by_job.setdefault(_job(row), []).append(row)
    return by_job


def _is_quality(row) -> bool:
    return row.kind in QUALITY_KINDS


def _value(row) -> float | None:
    return row.value


def _range(row) -> tuple[float, float]:
    return (row.value, row.value) if row.value is not None else (row.value_min, row.value_max)


def _figure(row) -> tuple:
    return (row.value, row.value_min, row.value_max)


def _unit(row) -> str:
    return row.unit or ""


def _display_decimals(row) -> int | None:
    return row.display_decimals


def _carried_decimals(row) -> int | None:
    return row.decimals


def _telling_apart(row) -> tuple[str, str]:
    """What tells two keys apart that read alike: the software versions, then the checkpoint revision."""
    return row.software or "", row.revision or ""


def _median_as_printed(rows: list, median: float):
    """``median`` (of ``rows``' values) with the decimal text of the median of
    their source decimals, so that it carries no more digits than the
    figures it is taken over give it (10.0 and 10.2: 10.1, not a float's
    10.10 at four significant digits); ``median`` itself where the rows'
    exact median is another number."""
    if not rows:
        return median
    exact = statistics.median(exact_decimal(row.value) for row in rows)
    return SourceFloat(str(exact)) if float(exact) == median else median


def _shown(row, decimals: int | None = None) -> str:
    """The value as the README prints it (the study file's precision), a
    range as ``low to high``; with ``decimals``, a single value at that many
    digits, never past those its source carries (:func:`_printed_move`)."""
    if row.value is not None:
        if decimals is None:
            return fmt(row.value, row)
        carried = row.carried_decimals(row.value)
        return format_number(row.value, decimals if carried is None else min(decimals, carried))
    return f"{fmt(row.value_min, row)} to {fmt(row.value_max, row)}"


def _decimals_of(text: str) -> int:
    """Digits after the point in a printed number: ``0.131`` -> 3, ``15`` -> 0."""
    return len(text.partition(".")[2])


def _place(row) -> Place:
    return Place(row.record.display_path, row.line, row.pointer)


def profile_words(study, row) -> str:
    """A kernel-time row's profile in words, without its group (:mod:`studygen.compare.regroup`)."""
    return _what(study, row, group=False)


def _what(study, row, batch: bool = False, group: bool = True) -> str:
    """``fp16 median GPU compute time, 800 x 800, engine, H200`` style words
    for a row's key (a latency's timing in check's and render's words,
    :func:`~studygen.study.timing.timing_name`: ``CUDA-event time per
    forward`` for a ``collect run`` figure); its batch when it is not 1, or
    when ``batch`` (the figures compared hold several batches: ``batch 1``
    tells a figure apart from ``batch 8`` at the same shape); without the
    kernel group where ``group`` is False."""
    measured = row.statistic if row.statistic not in (None, "", "unspecified") else ""
    metric = row.metric if row.metric not in (None, "", "unspecified", row.kind) else row.kind
    if row.kind == Kind.LATENCY and row.metric not in (None, "", "unspecified"):
        metric = timing_name(row)
    head = " ".join(p for p in (study.variant_label(row.variant), measured, metric.replace("_", " "),
                                (row.group or "") if group else "") if p)
    where = [shape_label(row.shape) if row.shape else "", row.mode or "",
             f"batch {row.batch}" if row.batch is not None and (batch or row.batch != 1) else "",
             gpu_label(row.gpu) if row.gpu else "", row.dataset or ""]
    return ", ".join(p for p in (head, *where) if p)
