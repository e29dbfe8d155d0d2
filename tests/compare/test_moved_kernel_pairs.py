"""Which profiles measured again studygen.compare.regroup pairs by their listed kernels (figures made up).

Each side is a toy study (tests/checks/studies.py) whose kernel-time results list their kernels, as
collect run's do; describe() names a row by its variant.
"""

from __future__ import annotations

from studygen.compare.regroup import find_regroupings
from tests.checks.studies import kernel_time, load, record


def listed(variant: str, groups: dict[str, dict[str, float]], **extra) -> dict:
    result = kernel_time(variant, {g: round(sum(k.values()), 6) for g, k in groups.items()},
                         total=round(sum(sum(k.values()) for k in groups.values()), 6), **extra)
    for entry in result["groups"]:
        entry["kernels"] = [{"name": name, "time_ms": ms, "calls": 1} for name, ms in groups[entry["group"]].items()]
    return result


def pairs(tmp_path, old: list[dict], new: list[dict]):
    base = load(tmp_path / "base", records=[record("run-a", old)])
    head = load(tmp_path / "head", records=[record("run-a", new)])
    return find_regroupings(base, head, lambda study, row: row.variant)


def test_every_pair_with_a_moved_kernel_is_found_and_a_line_names_three_kernels_and_counts_the_rest(tmp_path):
    five = {f"bn{i}": 0.1 for i in range(5)}
    # fp16 (paired first: its key sorts first) keeps its kernels' groups: no line, and the pairs after it are read
    old = [listed("fp16", {"Conv": {"conv": 0.5}}), listed("fp32", {"Conv": {"conv": 1.0}, "other": {**five, "pool": 0.2}}),
           listed("fp8", {"Conv": {"conv": 0.5}, "other": {"bn0": 0.05}})]
    new = [listed("fp16", {"Conv": {"conv": 0.6}}), listed("fp32", {"Conv": {"conv": 1.0}, "norm": five, "other": {"pool": 0.2}}),
           listed("fp8", {"Conv": {"conv": 0.5}, "norm": {"bn0": 0.05}})]
    found, rows = pairs(tmp_path, old, new)
    # in the head record's order; fp8 leaves a group of its own behind: other at the base, none at the head
    assert [(r.what, r.moved[0], r.old_figures, r.new_figures) for r in found] == [
        ("fp32", ("bn0", "other", "norm"), 1, 2), ("fp8", ("bn0", "other", "norm"), 1, 1)]
    fp32 = found[0]
    assert fp32.words() == ("job run-a, fp32: 5 listed kernels in another group (bn0: other -> norm; bn1: other -> "
                            "norm; bn2: other -> norm; 2 more), grouped by other kernel_groups rules; groups norm and "
                            "other not compared")
    assert len(rows) == 2 + 3  # fp8: other at the base, norm at the head; fp32: other, then norm and other


def test_a_kernel_new_at_the_head_moved_nowhere_and_a_pair_of_two_results_is_left_alone(tmp_path):
    old = [listed("fp32", {"Conv": {"conv": 1.0}})]
    new = [listed("fp32", {"Conv": {"conv": 1.0}, "norm": {"bn0": 0.1}})]
    assert pairs(tmp_path / "a", old, new) == ([], frozenset())
    twice = [listed("fp32", {"Conv": {"conv": 1.0}, "norm": {"bn0": 0.1}}),
             listed("fp32", {"Conv": {"conv": 1.1}, "norm": {"bn0": 0.1}}, iterations=7)]
    assert pairs(tmp_path / "b", [listed("fp32", {"other": {"bn0": 0.1}})], twice)[0] == []


def test_a_profile_read_again_from_its_input_is_one_regrouping_not_two(tmp_path):
    source = {"source_sha256": "cd" * 32, "source_locator": "prof.log:9"}
    old = [listed("fp32", {"Conv": {"conv": 1.0}, "other": {"bn0": 0.1}}, **source)]
    new = [listed("fp32", {"Conv": {"conv": 1.0}, "norm": {"bn0": 0.1}}, **source)]
    found, rows = pairs(tmp_path, old, new)
    assert [(r.sha256[:4], r.moved) for r in found] == [("cdcd", ())]
    assert len(rows) == 3 + 3  # every row of both sides: nothing of it is compared
