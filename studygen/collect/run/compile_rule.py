"""How many independent compilations a compiled cell gets (``run.compilations``), and when to stop.

Why: Inductor may pick other kernels each time it compiles the same model. On
one H200, seven compilations of the FP8 variant at 800x800 measured 8.35 to
10.12 ms while each one's repeats agreed to 0.1 %, and three compilations did
not bound what a fourth did. So the count is part of the study, and an
``auto`` count follows a stated rule instead of a guess.

``run.compilations`` is a whole number N (every compiled cell compiled N
times) or ``auto``, with ``run.compilation_rule`` (defaults in
:data:`DEFAULT_RULE`):

* compile ``at_least`` times;
* then stop as soon as, in every cell of the group, each of the last
  ``consecutive_inside`` compilations (in compilation order) fell inside the
  range (min to max of the medians) of the compilations before it: the range
  stopped growing that many times in a row;
* otherwise compile ``consecutive_inside`` more (the fewest that can meet the
  rule) and look again, up to ``at_most`` compilations.

A run's time limit (``collect run --time-limit``) can end this early; the
record says so. Each compiled cell's latency result keeps the rule and how it
ended (:meth:`CompilationRule.record`). Nothing here imports torch.
"""

from __future__ import annotations

from dataclasses import dataclass

AUTO = "auto"
DEFAULT_RULE = {"at_least": 6, "consecutive_inside": 3, "at_most": 12}

# How a group's compilations ended (the record's compilation_rule.stopped)
FIXED_COUNT = "fixed count"
RULE_MET = "rule met"
AT_MOST = "at most reached"
TIME_LIMIT = "time limit"
FAILED = "failed compilation"


@dataclass(frozen=True)
class CompilationRule:
    """``count``: the fixed number of compilations, None for ``auto``;
    ``at_least``, ``consecutive_inside``, ``at_most``: the auto rule (see the
    module docstring)."""

    count: int | None
    at_least: int = DEFAULT_RULE["at_least"]
    consecutive_inside: int = DEFAULT_RULE["consecutive_inside"]
    at_most: int = DEFAULT_RULE["at_most"]

    @classmethod
    def from_settings(cls, settings: dict) -> "CompilationRule":
        """The rule of a run's settings (``compilations`` and, for auto, ``compilation_rule``;
        the study file's schema and :func:`~studygen.collect.run.spec.build_plan` checked them)."""
        if settings["compilations"] != AUTO:
            return cls(count=int(settings["compilations"]))
        return cls(count=None, **{**DEFAULT_RULE, **(settings.get("compilation_rule") or {})})

    @property
    def in_workers(self) -> bool:
        """Compiled in worker processes: every count but a fixed 1 (compiled in the measuring process)."""
        return self.count != 1

    @property
    def first_wave(self) -> int:
        """Compilations started at once, before the rule is looked at."""
        return self.count if self.count is not None else self.at_least

    def next_wave(self, medians_by_cell: dict[str, list[float]]) -> tuple[int, str | None]:
        """``(how many more compilations to start, None)``, or ``(0, why the group stops)``,
        after the compilations whose medians (ms, in compilation order, one list per cell) are given."""
        done = min((len(medians) for medians in medians_by_cell.values()), default=0)
        if self.count is not None:
            return (self.count - done, None) if done < self.count else (0, FIXED_COUNT)
        if done < self.at_least:
            return self.at_least - done, None
        if all(inside_streak(medians) >= self.consecutive_inside for medians in medians_by_cell.values()):
            return 0, RULE_MET
        if done >= self.at_most:
            return 0, AT_MOST
        return min(self.consecutive_inside, self.at_most - done), None

    def record(self, medians: list[float], stopped: str) -> dict:
        """The latency result's ``compilation_rule``: what the study asked, how
        many compilations the cell got, why they stopped, and the cell's
        inside streak (auto)."""
        if self.count is not None:
            return {"compilations": self.count, "count": len(medians), "stopped": stopped}
        return {"compilations": AUTO, "at_least": self.at_least, "consecutive_inside": self.consecutive_inside,
                "at_most": self.at_most, "count": len(medians), "stopped": stopped,
                "inside_streak": inside_streak(medians)}


def inside_streak(medians: list[float]) -> int:
    """How many of the last compilations in a row each fell inside the range
    (min to max, ends included) of the compilations before it.

    ``[8.4, 9.8, 8.5, 9.0]`` -> 2 (9.0 and 8.5 inside 8.4-9.8; 9.8 outside 8.4);
    ``[8.4, 8.5, 9.9]`` -> 0; one median or none -> 0.
    """
    streak = 0
    for index in range(len(medians) - 1, 0, -1):
        before = medians[:index]
        if not min(before) <= medians[index] <= max(before):
            break
        streak += 1
    return streak
