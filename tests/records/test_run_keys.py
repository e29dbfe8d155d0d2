"""What makes two timed results one run (studygen.records.sources.run_keys):
every figure a run prints counts, to its last digit, whatever order a record
lists them in; too few figures prove nothing. Figures are our own."""

from __future__ import annotations

import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from studygen.records import sources
from studygen.records.sources import run_keys, timed_figures

from ..conftest import REPO

LATENCY = {"kind": "latency", "variant": "fp16", "timing": "gpu_compute", "statistic": "median", "value_ms": 1.25977,
           "statistics_ms": {"min": 1.20117, "max": 1.90332, "mean": 1.26545, "median": 1.25977, "p99": 1.45801},
           "distribution": {"samples": 3958, "warmup_iterations": 230}, "throughput_qps": 790.1}
KERNELS = {"kind": "kernel_time", "variant": "bf16",
           "groups": [{"group": "GEMM", "time_ms": 0.3, "kernels": [{"name": "gemm_a", "time_ms": 0.1, "calls": 2},
                                                                 {"name": "gemm_b", "time_ms": 0.2, "calls": 4}]}],
           "profiled_total_ms": 0.35, "iterations": 3,
           "per_iteration": [{"label": "ProfilerStep#1", "profiled_total_ms": 0.34, "groups": {"GEMM": 0.29}},
                             {"label": "ProfilerStep#2", "profiled_total_ms": 0.36, "groups": {"GEMM": 0.31}}]}


def _changed(result, path, value):
    changed = copy.deepcopy(result)
    holder = changed
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return changed


def test_every_printed_figure_of_a_latency_tells_two_runs_apart():
    same = timed_figures(LATENCY)
    assert same is not None and timed_figures(copy.deepcopy(LATENCY)) == same
    for path, value in [(("value_ms",), 1.25978), (("statistics_ms", "p99"), 1.45802),
                        (("distribution", "samples"), 3959), (("throughput_qps",), 790.2)]:
        assert timed_figures(_changed(LATENCY, path, value)) != same, path


def test_every_kernel_figure_tells_two_runs_apart_whatever_the_grouping():
    same = timed_figures(KERNELS)
    regrouped = _changed(KERNELS, ("groups",), [{"group": "a", "time_ms": 0.1, "kernels": [KERNELS["groups"][0]["kernels"][0]]},
                                                {"group": "b", "time_ms": 0.2, "kernels": [KERNELS["groups"][0]["kernels"][1]]}])
    assert timed_figures(regrouped) == same  # the study file's grouping rules changed, not the run
    for path, value in [(("groups", 0, "kernels", 0, "name"), "gemm_c"), (("groups", 0, "kernels", 0, "time_ms"), 0.11),
                        (("groups", 0, "kernels", 1, "calls"), 5), (("profiled_total_ms",), 0.351),
                        (("iterations",), 4), (("per_iteration", 1, "profiled_total_ms"), 0.37)]:
        assert timed_figures(_changed(KERNELS, path, value)) != same, path


def test_too_few_numbers_prove_nothing_and_names_are_no_numbers():
    # two kernels of one call each, total 0.3, one iteration: 4 distinct numbers (0.1, 0.2, 1, 0.3), below 5
    few = {"kind": "kernel_time", "groups": [{"group": "g", "time_ms": 0.3, "kernels": [
        {"name": "k1", "time_ms": 0.1, "calls": 1}, {"name": "k2", "time_ms": 0.2, "calls": 1}]}],
        "profiled_total_ms": 0.3, "iterations": 1}
    assert timed_figures(few) is None
    assert timed_figures(_changed(few, ("iterations",), 2)) is not None  # a fifth number
    assert timed_figures({"kind": "plan_size", "value": 1, "statistics_ms": {"a": 2, "b": 3, "c": 4, "d": 5}}) is None


def test_the_order_a_record_lists_figures_in_is_no_figure():
    reordered = dict(reversed(list(LATENCY.items())))
    reordered["statistics_ms"] = dict(reversed(list(LATENCY["statistics_ms"].items())))
    keys = dict(run_keys(dict(LATENCY, source_locator="run.log:12")))
    assert dict(run_keys(dict(reordered, source_locator="copy.log:40")))["the same timed figures to every digit"] == \
        keys["the same timed figures to every digit"]


def _numbers(value) -> list:
    """Every number in ``value``, as studygen listed them before it stopped at the fifth distinct one."""
    if isinstance(value, dict):
        return [number for item in value.values() for number in _numbers(item)]
    if isinstance(value, (list, tuple)):
        return [number for item in value for number in _numbers(item)]
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


NESTED = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, -0.0, 2.5, 3]),
                                st.text(max_size=2)),
                      lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=2), inner,
                                                                                           max_size=6)),
                      max_leaves=30)


@given(NESTED, st.integers(1, 7))
def test_distinct_numbers_counted_as_a_set_of_all_of_them(value, wanted):
    assert sources._holds_distinct_numbers(value, wanted) == (len(set(_numbers(value))) >= wanted)


def test_counting_stops_at_the_wanted_number():
    class Unread(dict):
        def values(self):
            raise AssertionError("read past the fifth distinct number")

    assert sources._holds_distinct_numbers([Unread(), 1, 2, 3, 4, 5], 5) is True
    assert sources._holds_distinct_numbers([1, 1.0, True, 2, [3, {"a": 4}]], 5) is False  # 1 and 1.0 one; True none
    for path in sorted((REPO / "measurements").rglob("*.json")):
        for result in json.loads(path.read_text(encoding="utf-8")).get("results", []):
            figures = {name: value for name, value in result.items() if name != "kind"}
            assert sources._holds_distinct_numbers(figures, 5) == (len(set(_numbers(figures))) >= 5), path
