"""SG207's typical ratios and departures, taken a platform set at a time:
the configurations measured on one set of platforms give their ratios as one
list each, turned into one list a pair at the end, and the typical ratio of
each pair of a set is looked up once a set. The figures must be those the
pair-by-pair loops gave (kept here as they were), for any cells."""

from __future__ import annotations

import types
from itertools import combinations
from statistics import median

from hypothesis import given
from hypothesis import strategies as st

from studygen.checks import sg207_anomaly
from studygen.checks.sg207_anomaly import MIN_SHARED, Cell, _cell_pattern
from studygen.numbers import format_number

PLATFORMS = [(gpu, version) for gpu in ("NVIDIA A10", "NVIDIA L4", "NVIDIA B200") for version in ("t=1", "t=2")]


def _row(platform, value, kind):
    return types.SimpleNamespace(kind=kind, metric=kind, backend="tensorrt", mode="engine", gpu=platform[0],
                                 software=platform[1], value=value, unit="MiB", job_id=f"job-{platform[0][-2:]}",
                                 # a GPU profile's record and result, where a kernel time's kind of profile is read
                                 record=types.SimpleNamespace(provenance={}), result={})


def typical_pair_by_pair(cells):
    """typical_ratios as studygen took it before: each configuration's pairs one by one."""
    ratios = {}
    for platforms in cells.values():
        by_pair = ratios.setdefault(_cell_pattern(platforms), {})
        ordered = sorted(platforms)
        medians = [platforms[platform].median for platform in ordered]
        for first, a in enumerate(ordered):
            for second in range(first + 1, len(ordered)):
                b = ordered[second]
                if a[0] != b[0]:
                    by_pair.setdefault((a, b), []).append(medians[first] / medians[second])
    return {pattern: {pair: (median(shared), len(shared)) for pair, shared in by_pair.items()}
            for pattern, by_pair in ratios.items()}


def cross_pair_by_pair(platforms, typical, factor):
    """_cross_gpu_reasons as studygen took it before: each pair's typical ratio looked up by its platforms."""
    reasons = {}
    pairs = typical[_cell_pattern(platforms)]
    for a, b in combinations(sorted(platforms), 2):
        if a[0] == b[0]:
            continue
        usual, shared = pairs[(a, b)]
        if shared < MIN_SHARED:
            continue
        departure = (platforms[a].median / platforms[b].median) / usual
        if departure >= factor:
            slow, fast, usual_slow = a, b, usual
        elif departure * factor <= 1:
            slow, fast, usual_slow, departure = b, a, 1 / usual, 1 / departure
        else:
            continue
        reasons.setdefault(slow, []).append(
            f"is {format_number(platforms[slow].median / platforms[fast].median, 2)}x {platforms[fast].text}, "
            f"{format_number(departure, 2)}x the {format_number(usual_slow, 2)}x typical of these two platforms "
            f"(median over the {shared} configurations both measured)")
    return reasons


VALUES = st.sampled_from([1.0, 1.5, 2.0, 2.25, 3.0, 4.5, 6.0, 9.0, 0.75, 12.5])
CONFIGURATION = st.tuples(st.sampled_from(["plan_size", "kernel_time"]),
                          st.dictionaries(st.sampled_from(PLATFORMS), VALUES, min_size=1))


@given(st.lists(CONFIGURATION, max_size=12), st.sampled_from([1.2, 1.5, 2.0]))
def test_ratios_and_departures_are_those_taken_pair_by_pair(configurations, factor):
    cells = {}
    for number, (kind, values) in enumerate(configurations):
        cells[(number, kind)] = {platform: Cell([_row(platform, value, kind)], value) for platform, value in values.items()}
    typical = sg207_anomaly.typical_ratios(cells)
    assert typical == typical_pair_by_pair(cells)
    known = {}
    for platforms in cells.values():
        expected = cross_pair_by_pair(platforms, typical, factor)
        assert sg207_anomaly._cross_gpu_reasons(platforms, typical, factor, known) == expected
        assert sg207_anomaly._cross_gpu_reasons(platforms, typical, factor) == expected


class _Counting(dict):
    def __init__(self, *args):
        super().__init__(*args)
        self.asked = 0

    def __getitem__(self, pair):
        self.asked += 1
        return super().__getitem__(pair)


def test_a_set_of_platforms_looks_its_pairs_up_once(monkeypatch):
    """Three configurations on four GPUs (6 pairs each): the pairs' typical
    ratios are looked up 6 times, not 18; each departs from its pair's
    typical ratio (A10 / L4 is 2 where its typical is 1: only the B200's
    configuration 3 is 3x its usual, reported once)."""
    platforms = [("NVIDIA A10", "t"), ("NVIDIA B200", "t"), ("NVIDIA H100", "t"), ("NVIDIA L4", "t")]
    figures = {1: (2.0, 1.0, 1.0, 2.0), 2: (4.0, 2.0, 2.0, 4.0), 3: (3.0, 4.5, 1.5, 3.0), 4: (5.0, 2.5, 2.5, 5.0)}
    cells = {number: {p: Cell([_row(p, v, "plan_size")], v) for p, v in zip(platforms, values)}
             for number, values in figures.items()}
    typical = sg207_anomaly.typical_ratios(cells)
    (pattern,) = typical
    counting = {pattern: _Counting(typical[pattern])}
    monkeypatch.setattr(sg207_anomaly, "typical_ratios", lambda cells: counting)
    monkeypatch.setattr(sg207_anomaly, "configuration_cells", lambda compared: cells)
    study = types.SimpleNamespace(variant_label=lambda variant: variant)
    monkeypatch.setattr(sg207_anomaly, "_configuration_words", lambda study, row: "plan size")
    monkeypatch.setattr(sg207_anomaly, "row_finding", lambda code, row, message, hint: types.SimpleNamespace(message=message))
    findings, _ = sg207_anomaly.listed_anomalies(study, [], 1.5)
    assert counting[pattern].asked == 6
    # B200 / A10 is 0.5 in configurations 1, 2 and 4, 1.5 in 3: B200 in 3 is 3x its usual against A10, L4 alike
    assert [f.message.split(":")[0] for f in findings] == ["plan size"]
    assert "is 1.50x 3.0 MiB on NVIDIA A10, t (job job-10), 3.00x the 0.50x typical" in findings[0].message


def test_scales_follow_a_chain_of_pairs_from_the_platform_in_most():
    """Platforms 0-1 typically 2x, 1-2 typically 4x: platform 1 (two pairs) is the
    unit, 0 twice it, 2 a quarter of it; pairs that join no path give no scales."""
    assert sg207_anomaly._scales(3, [(0, 1, 2.0, 3), (1, 2, 4.0, 3)]) == [2.0, 1.0, 0.25]
    assert sg207_anomaly._scales(4, [(0, 1, 2.0, 3), (2, 3, 0.5, 3)]) is None
    assert sg207_anomaly._scales(3, []) is None
    # a platform in no pair (fewer than MIN_SHARED configurations shared) gets no scale and bounds nothing
    assert sg207_anomaly._scales(3, [(0, 2, 5.0, 4)]) == [1.0, None, 0.2]


def _pattern(ordered, typical_ratios):
    return sg207_anomaly.PairPattern.of(ordered, {pair: (ratio, MIN_SHARED) for pair, ratio in typical_ratios.items()})


A, B, C = ("NVIDIA A10", "t"), ("NVIDIA B200", "t"), ("NVIDIA L4", "t")


def test_slack_is_how_far_the_typical_ratios_disagree_with_each_other():
    """A/B typically 2, B/C 2, A/C 3 where the first two make 4: the scales
    (A, the first of the platforms in the most pairs, is the unit; C is
    reached through A/C) miss B/C by 4/3."""
    agreeing = _pattern((A, B, C), {(A, B): 2.0, (B, C): 2.0, (A, C): 4.0})
    assert agreeing.slack == 1.0 and agreeing.scale == [1.0, 0.5, 0.25]
    disagreeing = _pattern((A, B, C), {(A, B): 2.0, (B, C): 2.0, (A, C): 3.0})
    assert disagreeing.slack == 4 / 3


def test_a_departure_at_the_factor_itself_is_never_bounded_away():
    """Typical A/B 2.0: medians 3.0 and 1.0 depart by exactly 1.5, the factor,
    which is an anomaly, so the bound must leave the pair to be looked at;
    medians 2.9 and 1.0 (1.45x) are bounded away."""
    pattern = _pattern((A, B), {(A, B): 2.0})
    assert not pattern.departs_nowhere([3.0, 1.0], 1.5)
    assert not pattern.departs_nowhere([1.0, 0.75], 1.5)  # 1/1.5 the other way
    assert pattern.departs_nowhere([2.9, 1.0], 1.5)
    assert pattern.departs_nowhere([1.0, 0.5], 1.0001)


def test_figures_hundreds_of_orders_apart_fall_back_to_each_pair():
    """A typical ratio of 1e-300 makes a scale of 1e300 and an offset past a
    double: no bound is kept, and every pair is looked at as before."""
    pattern = _pattern((A, B, C), {(A, B): 1e-300, (B, C): 1e-300, (A, C): 1.0})
    assert pattern.scale is None and not pattern.departs_nowhere([1.0, 1.0, 1.0], 1.5)
    assert len(pattern.pairs) == 3
