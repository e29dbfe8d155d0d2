"""Jobs of the H200 study built from its committed records, for the re-run and property tests.

A compiled job is a copy of a committed compiled record (one shape) under another
job id whose cells have the compilation medians a test asks for: compilation i
of the new job is the committed compilation ((i - 1) mod n) + 1 of its cell,
every timing of it (its repeat medians, the pooled repeat medians) and its
profile's GridSample group (group time, the profiled total, each profiled
forward) moved by the difference between the new median and that
compilation's own, so that latency and profile still agree as in a measured
job. The latency's ``value_ms`` is the median of the new medians, as ``collect
run`` writes it; the kernel_time result's groups are those of its median
compilation (a group whose time that changes loses its listed kernels, which
were another compilation's); the rule record counts the new compilations.

An eager job is a copy of the committed eager record under another job id
with every latency (figure, statistics, repeat medians) scaled by one factor.
"""

from __future__ import annotations

import copy
import json
import statistics

from studygen.collect.run.compile_rule import inside_streak

from ..conftest import REPO

FAMILY = "deformable_detr_h200_torch"
RECORDS = REPO / "measurements" / FAMILY
COMPILED = {"800x800": "h200-compile-800x800", "800x1067": "h200-compile-800x1067"}
EAGER = "h200-eager"


def committed(job: str) -> dict:
    return json.loads((RECORDS / f"{job}.json").read_text())


def _median_index(values: list[float]) -> int:
    order = sorted(range(len(values)), key=lambda i: values[i])
    return order[(len(values) - 1) // 2]


def _moved_profile(entry: dict, delta: float, number: int) -> dict:
    """A kernel_time compilation entry renumbered ``number`` with GridSample (and the total) moved by ``delta`` ms."""
    entry = copy.deepcopy(entry)
    entry["compilation"] = number
    entry["groups"]["GridSample"] = round(max(entry["groups"]["GridSample"] + delta, 0.0), 6)
    entry["profiled_total_ms"] = round(entry["profiled_total_ms"] + delta, 6)
    for forward in entry.get("per_iteration") or []:
        forward["groups"]["GridSample"] = round(max(forward["groups"]["GridSample"] + delta, 0.0), 6)
        forward["profiled_total_ms"] = round(forward["profiled_total_ms"] + delta, 6)
    return entry


def compiled_job(shape: str, job_id: str, medians: dict[str, list[float]]) -> dict:
    """A compiled job at ``shape`` whose cell of each variant in ``medians`` has those compilation medians (ms)."""
    data = committed(COMPILED[shape])
    data["job_id"] = job_id
    results = []
    for result in data["results"]:
        wanted = medians.get(result["variant"])
        if wanted is None:
            continue
        if result["kind"] not in ("latency", "kernel_time"):
            results.append(result)
            continue
        latency = next(r for r in data["results"] if r["kind"] == "latency" and r["variant"] == result["variant"])
        sources = [latency["compilations"][i % len(latency["compilations"])] for i in range(len(wanted))]
        deltas = [new - source["median_ms"] for new, source in zip(wanted, sources)]
        if result["kind"] == "latency":
            results.append(_compiled_latency(result, sources, wanted, deltas))
        else:
            profiles = {entry["compilation"]: entry for entry in result["compilations"]}
            entries = [_moved_profile(profiles[source["compilation"]], delta, number)
                       for number, (source, delta) in enumerate(zip(sources, deltas), 1)]
            results.append(_compiled_kernels(result, entries, wanted))
    data["results"] = results
    return data


def _compiled_latency(result: dict, sources: list[dict], medians: list[float], deltas: list[float]) -> dict:
    result = copy.deepcopy(result)
    entries = []
    for number, (source, median, delta) in enumerate(zip(sources, medians, deltas), 1):
        entry = copy.deepcopy(source)
        entry.update(compilation=number, median_ms=median,
                     repeat_medians_ms=[round(max(v + delta, 0.001), 6) for v in source["repeat_medians_ms"]])
        entries.append(entry)
    pooled = [v for entry in entries for v in entry["repeat_medians_ms"]]
    value = round(statistics.median(medians), 6)
    result["compilations"] = entries
    result["value_ms"] = value
    distribution = result["distribution"]
    distribution.update(repeat_medians_ms=pooled, repeats=len(pooled), median_ms=value,
                        samples=len(pooled) * distribution["iterations_per_repeat"])
    distribution.pop("repeat_iqr_ms", None)
    result["statistics_ms"].update(median=value, min=min(pooled), max=max(pooled))
    # the source's p90, p99 and mean are one compilation's: keep them inside the pooled range, as statistics of
    # one set of timings are (a record whose statistics are out of order is refused, studygen.records.order)
    for name in ("p90", "p99", "mean"):
        if name in result["statistics_ms"]:
            low = value if name != "mean" else min(pooled)
            result["statistics_ms"][name] = min(max(result["statistics_ms"][name], low), max(pooled))
    for name in ("p90_ms", "p99_ms"):
        if name in distribution:
            distribution[name] = max(distribution[name], value)
    result["compilation_rule"] = {**result["compilation_rule"], "count": len(medians),
                                  "inside_streak": inside_streak(medians),
                                  "stopped": "rule met" if inside_streak(medians) >= 3 else "time limit"}
    return result


def _compiled_kernels(result: dict, entries: list[dict], medians: list[float]) -> dict:
    result = copy.deepcopy(result)
    middle = entries[_median_index(medians)]
    for group in result["groups"]:
        if group["group"] in middle["groups"] and group["time_ms"] != middle["groups"][group["group"]]:
            group["time_ms"] = middle["groups"][group["group"]]
            # the kernels listed are another compilation's, which need not sum to this one's time (a loaded record's
            # must: records/group_sums.py); collect run would list this compilation's own, which the copy lacks
            group.pop("kernels", None)
    result["profiled_total_ms"] = middle["profiled_total_ms"]
    if middle.get("per_iteration"):
        result["per_iteration"] = copy.deepcopy(middle["per_iteration"])
    result["compilations"] = entries
    if len(entries) < 2:
        result.pop("differing_groups", None)
        for entry in entries:
            entry.pop("kernels", None)
    return result


def eager_job(job_id: str, factor: float) -> dict:
    """The committed eager job as ``job_id`` with every latency scaled by ``factor``."""
    data = committed(EAGER)
    data["job_id"] = job_id
    for result in data["results"]:
        if result["kind"] != "latency":
            continue
        result["value_ms"] = round(result["value_ms"] * factor, 6)
        distribution = result["distribution"]
        distribution["repeat_medians_ms"] = [round(v * factor, 6) for v in distribution["repeat_medians_ms"]]
        for name in ("median_ms", "mean_ms", "p90_ms", "p99_ms", "host_issue_ms_per_forward", "host_ms_per_forward"):
            if name in distribution:
                distribution[name] = round(distribution[name] * factor, 6)
        for name, value in list(result["statistics_ms"].items()):
            result["statistics_ms"][name] = round(value * factor, 6)
    return data
