"""A latency difference split into the kernel-group differences of its profiles.

For two measured cells A and B (two variants at one mode and shape, or two
compilations of one cell), ``latency_B - latency_A`` is split into
``time_B(g) - time_A(g)`` for every kernel group g of their profiles (ms per
forward; a group one profile lacks counts as 0 there) and the unattributed
rest, ``latency difference - sum of group differences``: host time, gaps
between kernels, and the difference between the timed run and the separate
profiled run. Render prints the table (:meth:`TableHelpers`) and the summary
sentence; check SG217 reads the dominant group to judge a stated cause.

A compiled cell with several compilations is taken at its median: latency
the median of the compilations' medians (the record's ``value_ms``), each
group the median of the compilations' times for that group.
"""

from __future__ import annotations

import statistics
from typing import NamedTuple

from ..records.kinds import Kind
from .rows import Row

# Kernel groups an FP8 recipe of linear layers changes: the GEMMs it moves to FP8 and the casts it adds.
# A recipe may name its own under ``recipes.<name>.kernel_groups`` in the study file.
FP8_RECIPE_GROUPS = ("GEMM/MatMul", "Quantize/Dequantize")


class Attribution(NamedTuple):
    """``latency_delta_ms`` (B - A) = sum of ``groups`` deltas + ``unattributed_ms``;
    ``groups`` is ``((group, B - A ms), ...)``, largest absolute difference first."""

    latency_delta_ms: float
    groups: tuple[tuple[str, float], ...]
    unattributed_ms: float

    @property
    def dominant(self) -> str | None:
        """The group whose difference goes the latency's way and is the largest such;
        None when the latencies are equal or no group moved their way."""
        if self.latency_delta_ms == 0:
            return None
        same_way = [(abs(delta), group) for group, delta in self.groups if delta * self.latency_delta_ms > 0]
        return max(same_way)[1] if same_way else None

    def share(self, group: str) -> float:
        """The group's difference as a fraction of the latency difference (0 when that is 0)."""
        delta = dict(self.groups).get(group, 0.0)
        return delta / self.latency_delta_ms if self.latency_delta_ms else 0.0


def attribute(latency_a_ms: float, latency_b_ms: float, groups_a: dict[str, float],
              groups_b: dict[str, float]) -> Attribution:
    """The :class:`Attribution` of ``latency_b_ms - latency_a_ms`` to the group times (ms per forward)."""
    names = list(dict.fromkeys([*groups_a, *groups_b]))
    deltas = [(name, round(groups_b.get(name, 0.0) - groups_a.get(name, 0.0), 6)) for name in names]
    deltas.sort(key=lambda item: -abs(item[1]))
    latency_delta = round(latency_b_ms - latency_a_ms, 6)
    rest = round(latency_delta - sum(delta for _, delta in deltas), 6)
    return Attribution(latency_delta, tuple(deltas), rest)


def median_groups(profiles: list[dict[str, float]]) -> dict[str, float]:
    """Per group, the median over ``profiles`` (a group a profile lacks counts as 0 there)."""
    names = list(dict.fromkeys(name for profile in profiles for name in profile))
    return {name: round(statistics.median(profile.get(name, 0.0) for profile in profiles), 6) for name in names}


def cell_profile(latency_row: Row) -> tuple[float, dict[str, float]] | None:
    """``(latency ms, {group: ms per forward})`` of a latency row and the
    kernel_time result of the same record, variant, shape and mode (median over
    compilations when it keeps them); None without such a result."""
    kernel = kernel_result_of(latency_row)
    if kernel is None:
        return None
    profiles = [dict(entry["groups"]) for entry in kernel.get("compilations") or []]
    if not profiles:
        profiles = [{group["group"]: group["time_ms"] for group in kernel["groups"] if "time_ms" in group}]
    return latency_row.value, median_groups(profiles)


def kernel_result_of(latency_row: Row) -> dict | None:
    """The kernel_time result beside a latency row in its record, or None."""
    for result in latency_row.record.results:
        if (result["kind"] == Kind.KERNEL_TIME and result["variant"] == latency_row.variant
                and result.get("shape") == latency_row.shape and result.get("mode") == latency_row.mode):
            return result
    return None


def recipe_groups(study, variant: str) -> tuple[str, ...]:
    """The kernel groups variant's recipe changes: ``recipes.<r>.kernel_groups``,
    else :data:`FP8_RECIPE_GROUPS` for an FP8 variant, else none."""
    entry = study.variants.get(variant, {})
    recipe = (study.spec.get("recipes") or {}).get(entry.get("recipe") or "", {})
    if recipe.get("kernel_groups"):
        return tuple(recipe["kernel_groups"])
    return FP8_RECIPE_GROUPS if entry.get("precision") == "fp8" else ()


def recipe_pairs(study) -> list[tuple[Row, Row, Attribution]]:
    """``(reference latency row, recipe variant's latency row, attribution)`` for
    every variant with a recipe against the variant of its recipe's ``dequantize``
    precision (default fp16), in the same record, mode and shape."""
    by_cell = {}
    for row in study.rows:
        if row.kind == Kind.LATENCY and row.value is not None:
            by_cell[(row.record.display_path, row.mode, row.shape, row.variant)] = row
    pairs = []
    for name, entry in study.variants.items():
        recipe = (study.spec.get("recipes") or {}).get(entry.get("recipe") or "")
        if recipe is None:
            continue
        reference = next((v for v, e in study.variants.items()
                          if e.get("precision") == (recipe.get("dequantize") or "fp16") and not e.get("recipe")), None)
        for (record, mode, shape, variant), row in by_cell.items():
            base = by_cell.get((record, mode, shape, reference))
            if variant != name or base is None:
                continue
            a, b = cell_profile(base), cell_profile(row)
            if a is not None and b is not None:
                pairs.append((base, row, attribute(a[0], b[0], a[1], b[1])))
    return pairs
