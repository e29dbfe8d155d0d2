"""A record whose statistics no set of timings gives (a p99 below the
median, a mean above the max, a p150) is refused at its field and line:
the schema checks each figure alone, so before, such a record passed
``check`` and its figures were rendered. Records are built here from the
check tests' toy results; each disorder is one edited figure."""

from __future__ import annotations

import json

import pytest

from studygen.errors import RecordError
from studygen.records.load import load_record
from studygen.records.order import rank, statistics_disorder
from tests.checks.studies import latency, record

STATS = {"min": 1.99762, "max": 3.29492, "mean": 2.06069, "median": 2.03601, "p90": 2.1106, "p99": 2.5329}
DISTRIBUTION = {"samples": 1440, "median_ms": 2.03601, "mean_ms": 2.06069, "p90_ms": 2.1106, "p99_ms": 2.5329}


def written(tmp_path, **fields):
    result = latency("fp16", 2.03601, statistics_ms=dict(STATS), distribution=dict(DISTRIBUTION))
    for name, edit in fields.items():
        result[name].update(edit)
    path = tmp_path / "job.json"
    path.write_text(json.dumps(record("job", [latency("fp16", 1.0), result]), indent=2) + "\n")
    return path


def test_ordered_statistics_load(tmp_path):
    loaded = load_record(written(tmp_path), "job.json")
    assert loaded.results[1]["statistics_ms"]["p99"] == 2.5329


@pytest.mark.parametrize("field, edit, words", [
    ("statistics_ms", {"p99": 2.0}, "median 2.03601 ms is above p99 2 ms"),
    ("statistics_ms", {"min": 2.1}, "min 2.1 ms is above median 2.03601 ms"),
    ("statistics_ms", {"max": 2.2}, "p99 2.5329 ms is above max 2.2 ms"),
    ("statistics_ms", {"mean": 3.5}, "mean 3.5 ms is above max 3.29492 ms"),
    ("statistics_ms", {"mean": 1.5}, "mean 1.5 ms is below min 1.99762 ms"),
    ("statistics_ms", {"p150": 4.0}, "p150 is no percentile (a rank above 100)"),
    ("distribution", {"p99_ms": 0.0001}, "median 2.03601 ms is above p99 0.0001 ms"),
    ("distribution", {"p90_ms": 2.6}, "p90 2.6 ms is above p99 2.5329 ms"),
])
def test_statistics_out_of_order_are_refused_at_their_field(tmp_path, field, edit, words):
    with pytest.raises(RecordError) as caught:
        load_record(written(tmp_path, **{field: edit}), "job.json")
    text = str(caught.value)
    assert f"/results/1/{field}" in text and f"{field} out of order: {words}" in text and "\n" not in text
    assert caught.value.place.line > 0


def test_std_and_equal_statistics_are_no_disorder():
    # std has no rank; equal neighbours (a timer's resolution) are in order
    assert statistics_disorder({"min": 1.0, "median": 1.0, "p99": 1.0, "max": 1.0, "std": 0.0, "mean": 1.0}) is None
    assert statistics_disorder({"p99.9": 3.0, "p99": 2.0, "max": 3.0}) is None


def test_a_median_and_p50_that_differ_by_how_each_is_taken_are_no_disorder():
    # trtexec's p50 of an even count is the lower middle timing, its median the mean of the two middle ones;
    # another tool's p50 is the upper middle one: neither pair contradicts itself
    from studygen.collect.trtexec.times import trtexec_median, trtexec_percentile

    timings = [1.0, 2.0, 3.0, 4.0]
    assert (trtexec_percentile(timings, 50), trtexec_median(timings)) == (2.0, 2.5)
    assert statistics_disorder({"min": 1.0, "p50": 2.0, "median": 2.5, "max": 4.0}) is None
    assert statistics_disorder({"min": 1.0, "max": 3.0, "p50": 2.5, "median": 2.0}) is None
    # each is still held to the other ranks
    assert statistics_disorder({"min": 1.0, "p50": 2.0, "median": 2.5, "p90": 2.4, "max": 4.0}) == (
        "median 2.5 ms is above p90 2.4 ms")


def test_min_ranks_below_every_percentile():
    # min is rank 0: a p0.5 below it is out of order, a p0.5 above it is not
    assert statistics_disorder({"min": 2.0, "p0.5": 1.0}) == "min 2 ms is above p0.5 1 ms"
    assert statistics_disorder({"min": 1.0, "p0.5": 2.0}) is None


def pairwise_disorder(stats: dict) -> str | None:
    """statistics_disorder as a plain definition: every pair of ranked statistics compared."""
    from studygen.records.order import rank

    for name in stats:
        if rank(name) is not None and rank(name) > 100:
            return f"{name} is no percentile (a rank above 100)"
    ranked = sorted((rank(name), name) for name in stats if rank(name) is not None)
    for index, (at, name) in enumerate(ranked):
        for later_rank, later in ranked[index + 1:]:
            if later_rank > at and stats[name] > stats[later]:
                return f"{name} {stats[name]:g} ms is above {later} {stats[later]:g} ms"
    if "mean" in stats and "min" in stats and stats["mean"] < stats["min"]:
        return f"mean {stats['mean']:g} ms is below min {stats['min']:g} ms"
    if "mean" in stats and "max" in stats and stats["mean"] > stats["max"]:
        return f"mean {stats['mean']:g} ms is above max {stats['max']:g} ms"
    return None


def test_the_sorted_comparison_names_the_same_pair_as_comparing_every_pair():
    """statistics_disorder compares every pair only when the ranks are not
    distinct or the values not sorted: on generated summaries (equal ranks
    such as median and p50 or max and p100, ties, one value out of place) it
    words exactly what comparing every pair words, shared ranks in order
    and out of order among them."""
    import random

    rng = random.Random(7)
    names = ["min", "max", "mean", "median", "std", "p50", "p90", "p95", "p99", "p99.9", "p100", "p0.5", "p150"]
    seen = {(True, True): 0, (True, False): 0, (False, True): 0, (False, False): 0}  # (ranks shared, in order)
    for _ in range(3000):
        chosen = rng.sample(names, rng.randint(1, 7))
        values = sorted(rng.choice([1, 2, 2, 3, 4.5, 5, 7]) for _ in chosen)
        ordered = sorted(chosen, key=lambda n: (rank(n) if rank(n) is not None else 50, rng.random()))
        stats = dict(zip(ordered, values))
        if rng.random() < 0.5:  # one statistic moved
            stats[rng.choice(chosen)] = rng.choice([0.5, 2, 6, 9])
        stats = dict(rng.sample(list(stats.items()), len(stats)))  # key order is the record's, any
        expected = pairwise_disorder(stats)
        assert statistics_disorder(stats) == expected, stats
        ranks = [rank(name) for name in stats if rank(name) is not None]
        seen[len(set(ranks)) < len(ranks), expected is None] += 1
    assert min(seen.values()) > 100, seen
