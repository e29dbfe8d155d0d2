"""SG203 reconcile across jobs: the same measurement reported by two or more
jobs with values that differ beyond the study's tolerance, and a difference
between two variants of one job that is smaller than the job-to-job spread of
the figures it compares where the README states or uses it.

A variant difference inside the job-to-job spread is a finding only where
the README states or uses it (a ratio or a range of ratios, a saving, a
verdict, a side finding, an attribution row: the render helpers record the
row pairs each output compares) without the other jobs' figures beside it;
the finding sits on that README line. A difference nobody states is not
measured either, but it claims nothing: the tables print each figure with its
job-to-job spread. (Issue 26: an H200 re-run made every near-equal group of
the kernel table an error, such as FP8 minus fp16 of the Conv group,
-0.0036 ms, that no sentence used.)

Same measurement = same measurement key (family, checkpoint revision, variant
and recipe, metric and statistic, shape, batch, backend and mode, GPU, the
software versions that matter for the backend, dataset; see
:mod:`studygen.records.keys`). Tolerance: absolute, per metric, from the study
file's ``tolerances``, looked up by the row's metric (``coco``, ``gpu_compute``),
then its kind (``latency``, ``plan_size``), then ``<kind>_<unit>``
(``latency_ms``); a metric without a tolerance must agree exactly. Render shows
the job-to-job spread next to such figures (``StudyView.with_spread``) and
lists them under "same measurement in two jobs".

Levels of variance (a trial of ``collect run``): two pairs of like jobs of one
model on one machine were SG203 errors in six kernel-time groups. The
bootstrap compares each job's own samples (profiled forwards, repeat medians),
so its interval holds the scatter inside each job and none of the spread
between jobs (another process, another compilation); a test of the samples of
one level taken for a test of the level above is pseudoreplication (Hurlbert,
Ecological Monographs 54(2), 1984; Kalibera and Jones, ISMM 2013: measure the
variance at each level of repetition). Such a disagreement is therefore a
warning that names the level it measured, unless a third job of the key
measures the job-to-job spread or a ``spread_sources`` entry covers it (then
an error, as before). And one pair of records is compared over every key both
report: their bootstrap comparisons are held together to Holm's step-down
correction (Holm, Scandinavian Journal of Statistics 6(2), 1979), each from
the two-sided p of its percentile interval
(:func:`studygen.render.stats.percentile_p_value`). In the trial's two eager
jobs, 12 such comparisons, two groups at p 0.035 and 0.036 were errors: after
the correction (0.42) neither is a finding. The compiled pair's four groups
(p below 0.0001) stay, as warnings. Two compiled figures of two or more
compilations each are compared on their compilations' medians, not on their
pooled repeat medians (:func:`studygen.study.spread.compared_spreads`): each
compilation moves every repeat it times, so the compilation is the level the
figure varies at (an H100 trial: three like jobs, two compilations each, 3.66
and 4.65 ms in one; their pooled repeats made two errors at p < 0.0001).

Few samples (attack 19b): a bootstrap of 3 against 3 values finds every
resample on one side and reads p 0, which no test of so few can show: each
of the C(n_a + n_b, n_a) ways to split the pooled values is equally likely
where the jobs do not differ, so an exact permutation test gives no two-sided
p below 2 / C(n_a + n_b, n_a) (0.1 at 3 against 3, 0.0079 at 5 against 5),
nor one value against n below 2 / (n + 1). Each bootstrap p is read no lower
(:func:`studygen.render.stats.permutation_floor`), before Holm's correction.
A comparison whose counts cannot reach the 5 % level, on their own or after
the correction with each member of its pair's family at its floor, is held to
the spread its two jobs measured, as ``studygen diff`` holds a move: figures
no further apart than the wider of the two jobs' sample ranges plus the
tolerance and the timer's allowance agree; further apart, a warning (never an
error: nothing was tested) that says the bootstrap did not decide and names
that spread and its ends (:func:`studygen.checks.sg203_verdict.untested`).
At 3 against 3 profiled forwards no bootstrap disagreement can be established,
nor at 5 against 5 with seven comparisons in the pair. (Issues 14 and 26: a
copy of a job moved inside its own spread adds no finding, moved beyond it
is named, also at five samples a job.) A figure without a
spread of its own against another job's samples is compared by bootstrap from
40 samples on, joins the pair's family with the p of its interval widened by
the tolerance, and is a warning of two jobs like the two-sided comparison:
measuring fewer forwards never makes the check fail harder. (The trial's
figures above were read before this floor.)

Case (seed): on B200 with TensorRT 11.4 the main job reports fp16 AP 0.4644
and FP8 AP 0.4625 (a drop of 0.19 points), the per-part job 0.4639 and 0.4637
(a drop of 0.02 points); the 0.0002 difference of the per-part job is smaller
than the 0.0012 spread of the FP8 figure between the two jobs.
"""

from __future__ import annotations

from statistics import median

from ..findings import Finding
from ..numbers import format_number, two_significant_decimals
from ..records.kinds import NOT_MEASURED_STATISTIC
from ..render.stats import CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED, MIN_REPEATS, holm_adjusted, median_difference
from ..rules import WARNING
from ..study.rows import Row
from ..study.resolution import resolution, timer_allowance
from ..study.spread import (PROFILED_ITERATIONS, Spread, compared_spreads, declared_source_of, spread_of, tolerance,
                            tolerance_keys)
from ..study.timing import measurement_of, reported_by_several_jobs, variant_free_measurement
from .base import readme_finding
from .readme_text import normalize, quote, table_cells
from .sg203_keys import (KeyDisagreement, describe, from_pairs, from_tolerance, held_to_tolerance, key_findings, middle,
                         outlier)
from .sg203_verdict import (UNMEASURED, PairVerdict, beyond_tolerance, bootstrap_floor, figure_decimals, floor_note, gap,
                            gap_decimals, sample_noun, unit_of, untested, within_jobs_only)


def repeated_keys(study) -> dict[tuple, list[Row]]:
    """Measurement (:func:`~studygen.study.timing.measurement_of`: the key and, of a latency, its timing
    signature) → rows with a value, for measurements reported by two or more jobs: render's job-to-job
    spreads read the same grouping (:func:`~studygen.study.timing.reported_by_several_jobs`)."""
    return reported_by_several_jobs(study.rows)


def _spread(rows: list[Row]) -> float:
    values = [r.value for r in rows]
    return max(values) - min(values)


def _bootstrap(study, a_values, b_values, band: float = 0.0):
    return median_difference(a_values, b_values, resamples=_setting(study, "resamples", DEFAULT_RESAMPLES),
                             seed=_setting(study, "seed", DEFAULT_SEED), band=band)


def _compared(a: Row, b: Row, spread_a: Spread, spread_b: Spread, decimals: int, unit_text: str) -> str:
    """``b - a`` twice: of the figures (what the README prints and ``studygen diff`` reports), and of
    the medians of their spreads' values, which the bootstrap compares, with those medians beside it.
    They differ: a kernel time is the mean of its profiled iterations (``studygen.collect.run.profiling``,
    ``studygen.collect.torch_profile``), a latency the statistic it names over every timing of its run,
    not the median of its repeat medians. (A trial's compiled GEMM group: means 6.278669 and 0.095287 ms,
    6.183382 apart, as ``diff`` reports; medians 7.927888 and 0.093578 ms, 7.834310 apart.)"""
    median_a, median_b = median(spread_a.values), median(spread_b.values)
    counts = f"{len(spread_a.values)} and {len(spread_b.values)} {spread_a.source}"
    medians = (f"the means of their {counts}, and {format_number(median_b - median_a, decimals, sign=True)}"
               f"{unit_text} in those iterations' medians" if spread_a.source == PROFILED_ITERATIONS else
               f"and {format_number(median_b - median_a, decimals, sign=True)}{unit_text} in the medians of their "
               f"{counts}")
    return (f"job {b.job_id} minus job {a.job_id} {format_number(b.value - a.value, decimals, sign=True)}{unit_text} "
            f"in the figures{',' if spread_a.source == PROFILED_ITERATIONS else ''} {medians} "
            f"({format_number(median_a, decimals)} and {format_number(median_b, decimals)}{unit_text})")


def _setting(study, name: str, default):
    return (study.spec.get("bootstrap") or {}).get(name, default)


def compare_pair(study, a: Row, b: Row) -> PairVerdict:
    """Decide whether rows ``a`` and ``b`` (one key, two jobs) disagree.

    Never when they differ by at most the resolution of their timer
    (:func:`studygen.study.resolution.resolution`: one step of trtexec's
    float32 times), plus the rounding of each figure as printed
    (:func:`studygen.study.resolution.timer_allowance`, which ``studygen diff``
    holds a change to as well): a difference the source cannot express is no
    disagreement.
    Else, in order: a declared source of spread covering both (each job
    compiled or built its own): they disagree only beyond its
    ``up_to_percent`` of their mean and, where either figure has no spread of
    its own, beyond the study file's tolerance too (a percentage of a 4 µs
    copy time is less than the timer resolves; the tolerance is the floor
    the study sets for such figures). Both with a spread of their own
    (:func:`studygen.study.spread.spread_of`): a seeded percentile bootstrap
    of the difference of medians (:func:`studygen.render.stats.median_difference`);
    they disagree when its interval excludes 0. The words give the difference
    of the figures and, apart, that of the medians compared, with the medians
    (:func:`_compared`): a kernel time is a mean, and its median can lie far
    from it. One with a spread: the other
    figure is taken as a constant sample (its bootstrap medians are itself),
    so the interval is that of ``value - median``, the median printed; they disagree when it
    misses ``[-tolerance, +tolerance]``. Neither: they disagree when they
    differ by more than the tolerance.
    A bootstrap p is read no lower than the least an exact permutation test of the same counts
    can give (:func:`bootstrap_floor`); where that floor is at or above the level (3 against 3
    values: 0.1), no bootstrap is run and the figures are held to the wider of the two jobs' sample
    ranges plus the tolerance and the timer's allowance, a warning beyond it whose words say the
    bootstrap could not decide (:func:`untested`).
    """
    decimals = figure_decimals([a, b])
    unit = unit_of(a)
    unit_text = f" {unit}" if unit else ""
    difference = abs(b.value - a.value)
    step = max(resolution(a), resolution(b))
    floor = bootstrap_floor(study, a, b)
    alpha = 1 - CONFIDENCE
    tested = floor is not None and floor < alpha
    if step and difference <= timer_allowance([a], [b]) + 1e-12:
        places = max(gap_decimals([a, b], difference), two_significant_decimals(step))
        return PairVerdict(False, f"{gap(difference, places)}{unit_text} apart, within the timer resolution "
                                  f"{gap(step, places)}{unit_text}",
                           p_value=1.0 if tested else None, alpha=alpha if tested else 0.0)
    spread_a, spread_b = compared_spreads(a, b)
    allowed = tolerance(study, a)
    declared = declared_source_of(study, a, b)
    if declared is not None:
        return _against_declared(declared, a, b, allowed if spread_a is None or spread_b is None else 0.0)
    if floor is not None and not tested:
        return untested(a, b, floor, alpha, allowed, unit_text)
    if spread_a is not None and spread_b is not None:
        decimals = max(decimals, 3)  # an interval of a few hundredths needs its third digit
        result = _bootstrap(study, spread_a.values, spread_b.values)
        return PairVerdict(max(result.p_value, floor) < alpha,
                           f"{_compared(a, b, spread_a, spread_b, decimals, unit_text)}, "
                           f"{round(100 * result.confidence)}% bootstrap interval of the difference of medians "
                           f"{format_number(result.low_ms, decimals, sign=True)} to "
                           f"{format_number(result.high_ms, decimals, sign=True)}"
                           f"{unit_text} excludes 0 ({result.resamples} resamples, seed {result.seed})",
                           p_value=max(result.p_value, floor), alpha=alpha,
                           p_note=floor_note(result.p_value, floor, len(spread_a.values), len(spread_b.values)),
                           level_clause=within_jobs_only(spread_a, spread_b))
    if spread_a is not None or spread_b is not None:
        with_spread, single = (a, b) if spread_a is not None else (b, a)
        spread = spread_a or spread_b
        result = _bootstrap(study, spread.values, [single.value] * MIN_REPEATS, band=allowed)
        return PairVerdict(max(result.p_value, floor) < alpha,
                           f"{format_number(single.value)} in job {single.job_id} (no spread of its own) lies outside "
                           "the "
                           f"{round(100 * result.confidence)}% bootstrap interval of the median of job "
                           f"{with_spread.job_id}'s "
                           f"{len(spread.values)} {spread.source} "
                           f"({format_number(median(spread.values), figure_decimals([a, b]))}{unit_text}) "
                           "widened by the tolerance "
                           f"{gap(allowed, gap_decimals([a, b], allowed))}"
                           f"{unit_text} ({result.resamples} resamples, seed {result.seed})",
                           p_value=max(result.p_value, floor), alpha=alpha,
                           p_note=floor_note(result.p_value, floor, 1, len(spread.values)),
                           level_clause=f"; beyond the scatter of job {with_spread.job_id}'s {len(spread.values)} "
                                        f"{sample_noun(spread)}{UNMEASURED}")
    return PairVerdict(*beyond_tolerance(a, b, allowed, step, unit_text))


def _against_declared(declared, a: Row, b: Row, allowed: float) -> PairVerdict:
    """Whether ``a`` and ``b``, under a declared source of job-to-job spread,
    differ by more than its ``up_to_percent`` of their mean and by more than
    ``allowed`` (the tolerance of a figure without a spread of its own, else 0)."""
    if declared.up_to_percent is None:
        return PairVerdict(False, f"{declared.words} are a declared source of spread")
    difference = abs(b.value - a.value)
    mean = (abs(a.value) + abs(b.value)) / 2
    percent = 100 * difference / mean if mean else 0.0
    beyond = percent > declared.up_to_percent + 1e-9 and difference > allowed + 1e-12
    unit = unit_of(a)
    places = gap_decimals([a, b], difference, allowed)
    floor = (f", and {gap(difference, places)}{' ' + unit if unit else ''} apart, more than the tolerance "
             f"{gap(allowed, places)}" if allowed else "")
    return PairVerdict(beyond, f"{format_number(percent, 2)} % apart, more than the "
                               f"{format_number(declared.up_to_percent)} % the study file expects of "
                               f"{declared.words}{floor}")


def _compared_pairs(study, rows: list[Row]) -> list[tuple[Row, Row, PairVerdict]]:
    """``(a, b, verdict)`` for each pair of jobs of one key (``a``'s job id first), each
    compared on its own (:func:`compare_pair`)."""
    ordered = sorted(rows, key=lambda r: (r.job_id, r.pointer))
    return [(a, b, compare_pair(study, a, b))
            for i, a in enumerate(ordered) for b in ordered[i + 1:] if a.job_id != b.job_id]


def _p_text(p: float, resamples: int) -> str:
    """A p-value with two significant digits; one below a single resample's share as ``< 0.0001``."""
    floor = 1 / resamples
    if p < floor:
        return f"< {format_number(floor)}"
    return format_number(p, two_significant_decimals(p))


def _holm_corrected(study, compared: dict) -> dict:
    """``compared`` (key → :func:`_compared_pairs`) with the bootstrap comparisons of each pair of
    records (two jobs: every key both report with counts that can reach the level and no declared
    source, those within the timer's resolution counted at p 1) held to Holm's step-down correction
    together (:func:`studygen.render.stats.holm_adjusted`): one disagrees only when its adjusted p is
    below the level its interval was read at, and its words give both p-values. A pair with one such
    comparison keeps it as it is (no correction; the interval says it all). A comparison whose p,
    each member at the floor of its counts, could not fall below the level after the correction
    (five forwards a side, eight comparisons: 8 x 0.0079) is decided as :func:`untested` says:
    which comparisons those are follows from the counts alone, never from the figures."""
    families: dict[tuple[str, str], list[tuple[tuple, int]]] = {}
    for key, verdicts in compared.items():
        for index, (a, b, verdict) in enumerate(verdicts):
            if verdict.p_value is not None:
                families.setdefault((a.job_id, b.job_id), []).append((key, index))
    corrected = {key: list(verdicts) for key, verdicts in compared.items()}
    resamples = _setting(study, "resamples", DEFAULT_RESAMPLES)
    for (job_a, job_b), members in families.items():
        if len(members) < 2:
            continue
        verdicts = [compared[key][index][2] for key, index in members]
        family = f"Holm's correction for the {len(members)} bootstrap comparisons of jobs {job_a} and {job_b}"
        floors = [bootstrap_floor(study, *compared[key][index][:2]) for key, index in members]
        best = holm_adjusted(floors)
        for (key, index), verdict, adjusted, least in zip(members, verdicts, holm_adjusted([v.p_value for v in verdicts]),
                                                          best):
            a, b, _ = compared[key][index]
            if least >= verdict.alpha:
                unit_text = f" {unit_of(a)}" if unit_of(a) else ""
                corrected[key][index] = (a, b, untested(a, b, bootstrap_floor(study, a, b), verdict.alpha,
                                                         tolerance(study, a), unit_text,
                                                         f", none below {_p_text(least, resamples)} after {family}"))
                continue
            corrected[key][index] = (a, b, verdict._replace(
                disagree=adjusted < verdict.alpha,
                basis=f"{verdict.basis}; two-sided bootstrap p {_p_text(verdict.p_value, resamples)}"
                      f"{verdict.p_note}, {_p_text(adjusted, resamples)} after {family}"))
    return corrected


def disagreeing_pairs(study, repeated=None) -> dict[tuple, KeyDisagreement]:
    """Measurement (:func:`measurement_of`) → how its jobs compare (:class:`KeyDisagreement`: the
    pairs that disagree, each placed at the row further from the others, :func:`outlier`), for
    every repeated key (``repeated``: :func:`repeated_keys` of the study, when the caller has it).

    Each pair of jobs is compared as :func:`compare_pair` says, its bootstrap comparisons over all
    keys held to Holm's correction together (:func:`_holm_corrected`). A bootstrap disagreement of
    a key only two jobs report, which no declared source covers (:func:`compare_pair` reads those
    first), rests on each job's own samples alone: a warning that says so (:func:`within_jobs_only`).
    A third job of the key measures the job-to-job spread, and the disagreement stays an error.
    A key whose figures are held to the tolerance alone (:func:`held_to_tolerance`) takes part in
    no bootstrap: its pairs are counted on its sorted figures (:func:`from_tolerance`), decided as
    :func:`compare_pair` decides them, without the words of each."""
    repeated = repeated if repeated is not None else repeated_keys(study)
    ordered = {key: sorted(rows, key=lambda r: (r.job_id, r.pointer)) for key, rows in repeated.items()}
    plain = {key for key, rows in ordered.items() if held_to_tolerance(study, rows)}
    corrected = _holm_corrected(study, {key: _compared_pairs(study, rows) for key, rows in ordered.items()
                                        if key not in plain})
    found = {}
    for key, rows in ordered.items():
        if key in plain:
            found[key] = from_tolerance(study, rows, lambda a, b: compare_pair(study, a, b))
            continue
        jobs_measured = len({r.job_id for r in rows}) > 2
        centre = middle(rows)
        pairs = []
        for a, b, verdict in corrected[key]:
            if not verdict.disagree:
                continue
            if verdict.level_clause and not jobs_measured:
                verdict = verdict._replace(severity=WARNING, basis=verdict.basis + verdict.level_clause)
            pairs.append((a, b, outlier(centre, a, b), verdict))
        found[key] = from_pairs(rows, len(corrected[key]), pairs)
    return found


def disagreements(study, found=None) -> list[Finding]:
    """One finding per measurement key whose jobs disagree (:func:`disagreeing_pairs`), however many
    pairs of them do: its jobs, their range, the pairs that disagree and one pair's verdict
    (:func:`studygen.checks.sg203_keys.key_findings`, which holds waivers of single pairs)."""
    return key_findings(study, found if found is not None else disagreeing_pairs(study), _hint)


def _hint(row: Row) -> str:
    """SG203's hint for a disagreement at ``row``: the study-file key that
    sets its tolerance (:func:`~studygen.study.spread.tolerance_keys`, the
    widest: ``latency_ms``, not one timing's ``gpu_compute``), since a figure
    without a spread of its own must otherwise agree exactly."""
    keys = tolerance_keys(row)
    others = f" (a key {' or '.join(keys[:-1])} wins over it)" if len(keys) > 1 else ""
    unit = f" {unit_of(row)}" if unit_of(row) else ""
    return ("reconcile the jobs, or repeat them so that their spread is measured (render shows the job-to-job "
            "spread); a figure without a spread of its own (one trace, one trtexec run) must match exactly unless "
            f"the study file sets the largest difference it accepts: tolerances: {{{keys[-1]}: <difference{unit}>}}"
            f"{others}")


def _agreeing(rows: list[Row], disagreement: KeyDisagreement) -> list[Row]:
    """The rows of one key left when the rows reported as disagreeing (each
    disagreeing pair's row further from the others) are set aside: the
    job-to-job spread that counts as noise is that of jobs that agree. All
    rows when fewer than two jobs would be left: two jobs that disagree give
    no way to tell which is off, so their whole spread stands."""
    left = [r for r in rows if id(r) not in disagreement.placed]
    return left if len({r.job_id for r in left}) > 1 else rows


def _job_spread_is_the_noise(study, rows: list[Row]) -> bool:
    """Whether the job-to-job spread of ``rows`` (one key) is the noise a
    variant difference is held against: when a figure has no spread of its
    own, or a declared source (compilations, engine builds) covers them. When
    every figure has its own spread the bootstrap already found the jobs to
    agree, and whether a variant difference is resolved is a noise verdict
    (``study.noise_verdict``, SG204), read from those spreads."""
    if any(spread_of(row) is None for row in rows):
        return True
    return any(declared_source_of(study, a, b) is not None for a in rows for b in rows if a is not b)


def unresolved_differences(study, pairs=None, repeated=None) -> list[tuple[Row, Row, float, list[Row]]]:
    """``(a, b, spread, same)`` for each pair of variants of one job, timed
    alike (:func:`~studygen.study.timing.variant_free_measurement`), whose
    difference ``b - a`` is smaller than the job-to-job spread of either
    figure (``spread``, over ``same``: the rows of that figure's measurement
    in the jobs that agree on it). ``pairs`` and ``repeated``:
    :func:`disagreeing_pairs` and :func:`repeated_keys` of the study, when
    the caller has them."""
    repeated = repeated if repeated is not None else repeated_keys(study)
    pairs = pairs if pairs is not None else disagreeing_pairs(study, repeated)
    agreeing = {key: _agreeing(rows, pairs[key]) for key, rows in repeated.items()}
    # _agreeing leaves two jobs or more of every repeated key
    noise_held = {key: rows for key, rows in agreeing.items() if _job_spread_is_the_noise(study, rows)}
    if not noise_held:
        return []
    groups: dict[tuple, list[Row]] = {}
    for row in study.rows:
        if row.value is not None and row.statistic != NOT_MEASURED_STATISTIC:
            groups.setdefault((row.job_id, variant_free_measurement(row)), []).append(row)
    found = []
    for rows in groups.values():
        by_variant = {r.variant: r for r in rows}
        # each variant's rows of its measurement in the agreeing jobs (None: no job-to-job noise held), read once
        same_of = {variant: noise_held.get(measurement_of(row)) for variant, row in by_variant.items()}
        names = sorted(by_variant)
        for i, a_name in enumerate(names):
            for b_name in names[i + 1:]:
                a, b = by_variant[a_name], by_variant[b_name]
                spreads = [(_spread(same_of[name]), name) for name in (a_name, b_name) if same_of[name] is not None]
                if not spreads:
                    continue
                spread, spread_name = max(spreads, key=lambda s: s[0])
                if abs(b.value - a.value) < spread:
                    found.append((a, b, spread, same_of[spread_name]))
    return found


def _uses(context, a: Row, b: Row, same: list[Row]) -> list:
    """The README's helper outputs that state the difference (or ratio) of
    ``a`` and ``b`` without the other jobs' figures of ``same`` beside it: each
    output recorded ``(a, b)`` among the pairs it compares
    (:attr:`studygen.render.produced.Produced.compared`), and not every row of
    ``same`` among the rows it was computed from (an output over every job,
    such as a range of ratios over all of them, shows the spread itself)."""
    uses, seen = [], set()
    for item, readme in context.produced_outputs():
        if not any((x is a and y is b) or (x is b and y is a) for x, y in item.compared):
            continue
        if not readme.locate(item):
            continue  # computed by the template but not printed
        used = {id(row) for row in item.rows}
        if all(id(row) in used for row in same):
            continue
        if (item.text, item.within) not in seen:
            seen.add((item.text, item.within))
            uses.append(item)
    return uses


def _use_line(readme, item, a: Row, b: Row) -> int:
    """README line (1-based) of a use: for a table cell, its own row where the
    table builder recorded it (:meth:`ReadmeText.cell_line`), else the first
    line of its table that holds the cell and, where one does, both figures;
    else where its text starts."""
    start = readme.locate(item)
    if not item.within or not start:
        return start
    if (row_line := readme.cell_line(item)) != start:  # the table builder recorded the cell's own row
        return row_line
    cell = normalize(item.text)
    candidates = []
    index = start  # the header is line start (index start - 1); data rows follow the delimiter row
    while index < len(readme.raw_lines) and table_cells(readme.raw_lines[index]) is not None:
        cells = table_cells(readme.raw_lines[index])
        if cell in cells:
            candidates.append((index + 1, cells))
        index += 1
    figures = [format_number(a.value), format_number(b.value)]
    for line, cells in candidates:
        if all(any(figure in c for c in cells) for figure in figures):
            return line
    return candidates[0][0] if candidates else start


def differences_below_spread(context, pairs=None, repeated=None) -> list[Finding]:
    """Variant differences within one job smaller than the job-to-job spread
    of either figure (:func:`unresolved_differences`) that the README states
    or uses (:func:`_uses`): one finding at each README line that does. A
    difference no sentence, ratio, range, verdict or attribution row uses is
    no finding: the tables show each figure with its job-to-job spread."""
    study, readme = context.study, context.readme_text
    if readme is None:
        return []
    findings = []
    for a, b, spread, same in unresolved_differences(study, pairs, repeated):
        uses = _uses(context, a, b, same)
        if not uses:
            continue
        decimals = figure_decimals([a, b])
        low = min(same, key=lambda r: r.value)
        high = max(same, key=lambda r: r.value)
        what = (f"{study.variant_label(b.variant)} minus {study.variant_label(a.variant)} in job {b.job_id} is "
                f"{format_number(b.value - a.value, decimals, sign=True)} ({format_number(b.value)} vs "
                f"{format_number(a.value)}), smaller than the job-to-job spread {format_number(spread, decimals)} of "
                f"{describe(study, same[0])} ({format_number(low.value)} in job {low.job_id} to "
                f"{format_number(high.value)} in job {high.job_id})")
        for item in uses:
            findings.append(readme_finding(
                study, "SG203", _use_line(readme, item, a, b), f"{what}, and the README states it: {quote(item.text)}",
                hint="a difference inside the job-to-job spread is not a measured difference: state it over every "
                     "job that measured it, say it is not resolved, or repeat the jobs",
                key=b.key.text()))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    repeated = repeated_keys(study)  # once: it reads every row's timing signature
    pairs = disagreeing_pairs(study, repeated)
    return disagreements(study, pairs) + differences_below_spread(context, pairs, repeated)
