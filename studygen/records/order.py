"""Order statistics of one set of timings, and the pairs no set of timings
can give: trtexec's summary lines (read by
:mod:`studygen.collect.trtexec.log`) and a record's ``statistics_ms`` and
``distribution`` (checked by :func:`studygen.records.load.load_record`).

Order statistics never decrease with their rank (min ≤ median ≤ p90 ≤ p95
≤ p99 ≤ max), and the mean lies within [min, max]; a percentile is a rank
from 0 to 100. A record or log that breaks this was edited or damaged: a
figure read from it would be no measurement.

Two names of one rank (``median`` and ``p50``) may differ, and are only
held to the other ranks: over an even count of timings the median is the
mean of the two middle ones, while a percentile is one timing, the lower
of them in trtexec (``findPercentile``, as
:func:`studygen.collect.trtexec.times.trtexec_percentile` reproduces: over
1, 2, 3, 4 ms its p50 is 2 ms and its median 2.5 ms) and the upper in a
tool that takes ``sorted[int(n * p / 100)]``. Which a summary used is not
stated, so neither difference is a contradiction.

A result that states one figure as a named statistic (latency's
``value_ms`` with its ``statistic``) beside every statistic of the same
timings (``statistics_ms``) must state that statistic's figure, and no
figure lies outside the timings' [min, max].
"""

from __future__ import annotations

import functools
import re
import statistics

from .kinds import Kind

PERCENTILE = re.compile(r"^p(\d+(?:\.\d+)?)$")
# a record's distribution fields and the statistic each one is
DISTRIBUTION_STATISTICS = {"median_ms": "median", "p90_ms": "p90", "p99_ms": "p99", "mean_ms": "mean"}


# the kinds whose result states one figure as a named statistic beside the statistics it was taken from:
# kind -> (stated figure's field, statistic's field, statistics' field); the schema gives statistics_ms to latency only
STATED_STATISTICS = {Kind.LATENCY: ("value_ms", "statistic", "statistics_ms")}

_FIXED_RANKS = {"min": 0.0, "median": 50.0, "max": 100.0}


def rank(name: str) -> float | None:
    """Where a statistic sits in the sorted timings, in percent (min 0,
    median 50, ``p90`` 90, max 100); None for the mean, which has no rank,
    and for any other name (``std``)."""
    if name in _FIXED_RANKS:
        return _FIXED_RANKS[name]
    match = PERCENTILE.match(name)
    return float(match.group(1)) if match else None


def statistics_disorder(stats: dict[str, float]) -> str | None:
    """The first pair of a summary's statistics (ms) out of order, as words
    (``"median 0.05 ms is above p90 0.045 ms"``), or a percentile above 100
    (``"p150 is no percentile"``); else None. Names other than min, max,
    mean, median and ``pNN`` (``std``) are not ordered."""
    beyond, ranked = _ranking(tuple(stats))
    if beyond is not None:
        return f"{beyond} is no percentile (a rank above 100)"
    values = [stats[name] for _, name in ranked]
    # values sorted in rank order are in order (the common case, one comparison); else every pair is compared,
    # to name the first out of order: none may be, where two names of one rank (median and p50) differ
    if values != sorted(values):
        for index, (at, name) in enumerate(ranked):
            for later_rank, later in ranked[index + 1:]:
                if later_rank > at and stats[name] > stats[later]:
                    return f"{name} {stats[name]:g} ms is above {later} {stats[later]:g} ms"
    if "mean" in stats:
        if "min" in stats and stats["mean"] < stats["min"]:
            return f"mean {stats['mean']:g} ms is below min {stats['min']:g} ms"
        if "max" in stats and stats["mean"] > stats["max"]:
            return f"mean {stats['mean']:g} ms is above max {stats['max']:g} ms"
    return None


@functools.lru_cache(maxsize=256)
def _ranking(names: tuple[str, ...]) -> tuple[str | None, list[tuple[float, str]]]:
    """``(first name ranked above 100 or None, (rank, name) of the ranked
    names sorted)`` of a summary's names in its order: the same few sets of
    names recur in every record a collector writes, so each is ranked once."""
    ranks = [(rank(name), name) for name in names]
    beyond = next((name for at, name in ranks if at is not None and at > 100), None)
    return beyond, sorted(entry for entry in ranks if entry[0] is not None)


def result_disorder(result: dict) -> tuple[str, str] | None:
    """``(field, words)`` for the first of a result's ``statistics_ms`` and
    ``distribution`` (its median, p90 and p99) whose statistics are out of
    order (:func:`statistics_disorder`), else None."""
    stats = result.get("statistics_ms")
    if isinstance(stats, dict) and (words := statistics_disorder(stats)):
        return "statistics_ms", words
    distribution = result.get("distribution")
    if isinstance(distribution, dict):
        named = {DISTRIBUTION_STATISTICS[k]: v for k, v in distribution.items() if k in DISTRIBUTION_STATISTICS}
        if words := statistics_disorder(named):
            return "distribution", words
    return None


def stated_value_disagreement(result: dict) -> tuple[str, str] | None:
    """``(field, words)`` when the figure a result states (latency's
    ``value_ms``, ms) is not the figure its own ``statistics_ms`` gives for
    the statistic it names (``"value_ms 0.123595 ms disagrees with
    statistics_ms median 0.153595 ms, the statistic it states"``), or lies
    outside their [min, max] (``"value_ms 0.1 ms is below statistics_ms min
    0.151489 ms"``); else None. Figures are quoted as the record holds them.

    The comparison is exact: every collector takes both from one parse or
    one rounding (trtexec's summary, collect run's timings), and every
    record measured so far agrees to the last digit. Nothing is compared for
    a statistic of ``unspecified`` or one the statistics lack, nor for a
    compiled cell (``compilations``), whose figure is by definition the
    median of its compilations' medians while its statistics pool their
    samples; the range holds for all of them."""
    fields = STATED_STATISTICS.get(result.get("kind"))
    if fields is None:
        return None
    value_field, statistic_field, statistics_field = fields
    value, statistic, stats = result.get(value_field), result.get(statistic_field), result.get(statistics_field)
    if not isinstance(stats, dict) or not isinstance(value, (int, float)):
        return None
    if statistic in stats and not result.get("compilations") and stats[statistic] != value:
        return value_field, (f"{value_field} {value!r} ms disagrees with {statistics_field} {statistic} "
                             f"{stats[statistic]!r} ms, the statistic it states")
    if "min" in stats and value < stats["min"]:
        return value_field, f"{value_field} {value!r} ms is below {statistics_field} min {stats['min']!r} ms"
    if "max" in stats and value > stats["max"]:
        return value_field, f"{value_field} {value!r} ms is above {statistics_field} max {stats['max']!r} ms"
    return None


# collect run writes a compiled cell's value_ms as the median of its compilations' medians rounded to 6 decimals
COMPILED_VALUE_DECIMALS = 6


def compiled_value_disagreement(result: dict) -> tuple[str, str] | None:
    """``("value_ms", words)`` when a compiled latency (``compilations``,
    statistic ``median``) states a figure other than the median of its
    compilations' medians, to the 6 decimals ``collect run`` rounds it to
    (``"value_ms 9.0 ms is not the median of its 2 compilations' medians,
    3.5 ms"``); else None. The README's compiled cells print that median and
    SG203, ``diff`` and the side findings read ``value_ms``: a record whose
    two disagree would have them say different figures for one cell."""
    entries, value = result.get("compilations"), result.get("value_ms")
    if result.get("kind") != "latency" or result.get("statistic") != "median" or not isinstance(entries, list) \
            or not isinstance(value, (int, float)):
        return None
    medians = [entry.get("median_ms") for entry in entries if isinstance(entry, dict)]
    if not medians or not all(isinstance(m, (int, float)) for m in medians):
        return None
    median = statistics.median(medians)
    if abs(value - median) <= 0.5 * 10 ** -COMPILED_VALUE_DECIMALS * (1 + 1e-9) + 1e-12 * abs(median):
        return None
    return "value_ms", (f"value_ms {value!r} ms is not the median of its {len(medians)} compilations' medians, "
                        f"{median!r} ms")


def rank_disagreement(result: dict) -> tuple[str, str] | None:
    """``("distributed/rank", words)`` when a result's ``distributed`` names a
    rank its own ``world_size`` does not hold (ranks count from 0: rank 8 of
    8 is no rank of that job); else None. The schema bounds each alone."""
    distributed = result.get("distributed")
    if not isinstance(distributed, dict):
        return None
    rank, world_size = distributed.get("rank"), distributed.get("world_size")
    if isinstance(rank, int) and isinstance(world_size, int) and not rank < world_size:
        return "distributed/rank", f"distributed rank {rank} is not below its world_size {world_size}"
    return None
