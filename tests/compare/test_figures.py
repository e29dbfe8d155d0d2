"""studygen.compare.figures: each key's figure at two revisions, within or beyond its widest spread.

Studies are the toy projects of tests/checks/studies.py (made-up figures; every
expected spread and change below is worked out by hand in the comment beside it).
"""

from __future__ import annotations

import pytest

from studygen.compare.figures import BEYOND, NEW, REMOVED, UNCHANGED, WITHIN, figure_changes
from tests.checks.studies import coco_ap, kernel_time, latency, load, record, spec


def both(tmp_path, base_records, head_records, **study):
    """The toy study at two revisions (two project folders)."""
    base = load(tmp_path / "base", records=base_records, study=spec(**study))
    head = load(tmp_path / "head", records=head_records, study=spec(**study))
    return base, head


def only(changes, verdict=None):
    changed = [c for c in changes if c.verdict != UNCHANGED]
    assert len(changed) == 1, [(c.what, c.verdict) for c in changes]
    if verdict:
        assert changed[0].verdict == verdict
    return changed[0]


def test_a_move_up_to_the_widest_repeat_spread_is_within_and_past_it_is_beyond(tmp_path):
    base_rows = [latency("fp16", 10.0, repeats=[9.9, 10.0, 10.2])]  # repeat spread 0.3 ms
    # each head value as the README prints it: its repeat spread 0.1 ms moves the first decimal
    cases = {10.2: (WITHIN, "10.2"), 10.3: (WITHIN, "10.3"), 10.31: (BEYOND, "10.3"), 9.7: (WITHIN, "9.7"),
             9.69: (BEYOND, "9.7")}
    for new, (verdict, printed) in cases.items():
        base, head = both(tmp_path / str(new), [record("main", base_rows)],
                          [record("main", [latency("fp16", new, repeats=[new - 0.05, new, new + 0.05])])])
        change = only(figure_changes(base, head)[0], verdict)
        assert change.spread.source == "repeat medians" and change.spread.side == "base"
        assert change.spread.width == pytest.approx(0.3) and change.spread.count == 3
        assert (change.spread.low, change.spread.high) == (9.9, 10.2)
        assert change.delta == pytest.approx(new - 10.0) and change.relative == pytest.approx((new - 10.0) / 10.0)
        assert (change.old, change.new) == (("10.0",), (printed,))


def test_the_heads_own_scatter_never_widens_the_allowance(tmp_path):
    # base repeats 9.95 to 10.05 (0.1 ms); head 10.4 with repeats 10.0 to 10.6 (0.6 ms). Before, the head's 0.6 ms
    # was the widest spread and the 0.4 ms move was within it; the base's 0.1 ms is what the move is held to
    base, head = both(tmp_path, [record("main", [latency("fp16", 10.0, repeats=[9.95, 10.0, 10.05])])],
                      [record("main", [latency("fp16", 10.4, repeats=[10.0, 10.4, 10.6])])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert (change.spread.source, change.spread.side, change.spread.count) == ("repeat medians", "base", 3)
    assert change.spread.width == pytest.approx(0.1) and change.delta == pytest.approx(0.4)
    # the ends at the two digits the repeats carry, not padded to the 3 asked for, and the width 10.05 - 9.95 with them
    assert change.spread.words("ms", 3) == "0.10 ms spread of 3 repeat medians in base (9.95 to 10.05 ms)"


def test_a_re_run_55_percent_slower_with_a_wide_scatter_is_beyond_spread(tmp_path):
    # the GPU trial's case: base 20.0 ms (repeats 19.8 to 20.3, 0.5 ms); the re-run's median 31.0 ms (+55 %), its
    # repeats 20.5 to 33.0 (12.5 ms). Pooled, the 11.0 ms move was within the head's 12.5 ms: within spread, exit 0
    base, head = both(tmp_path, [record("main", [latency("fp16", 20.0, repeats=[19.8, 20.0, 20.3])])],
                      [record("main", [latency("fp16", 31.0, repeats=[20.5, 31.0, 33.0])])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.delta == pytest.approx(11.0) and change.relative == pytest.approx(0.55)
    assert (change.spread.source, change.spread.width, change.farthest) == ("repeat medians", pytest.approx(0.5), "main")


def test_each_head_job_is_judged_on_its_own_move_not_a_pooled_median(tmp_path):
    # base jobs a 10.0 and b 10.2 (job-to-job spread 0.2). Head: a and b again, and a new job c at 15.5 (55 % slower
    # than a). Before, the head's median 10.2 against the base's 10.1 (+0.1) was held to the head's job spread
    # 5.5 ms: within. Job c moved from the base's figure 10.1 to 15.5, 5.4 ms, past the base's 0.2
    base_jobs = [record("a", [latency("fp16", 10.0)]), record("b", [latency("fp16", 10.2)])]
    base, head = both(tmp_path, base_jobs, [*base_jobs, record("c", [latency("fp16", 15.5)])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert (change.farthest, change.old_value, change.new_value) == ("c", pytest.approx(10.1), 15.5)
    assert change.delta == pytest.approx(5.4) and change.relative == pytest.approx(5.4 / 10.1)
    assert (change.spread.source, change.spread.width, change.spread.count) == ("jobs", pytest.approx(0.2), 2)
    assert change.new_jobs == ("a", "b", "c") and change.place.path == "measurements/toy/c.json"  # c's row
    # a job the base has moves from its own base figure: b 10.2 -> 10.5 is 0.3 (beyond the 0.2), not 0.4 from 10.1
    base, head = both(tmp_path / "own", base_jobs, [base_jobs[0], record("b", [latency("fp16", 10.5)])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert (change.farthest, change.old_value, change.new_value) == ("b", 10.2, 10.5)
    assert change.delta == pytest.approx(0.3)


def test_the_tolerance_and_declared_bound_are_the_base_study_files(tmp_path):
    # head's study file sets a tolerance of 0.02 AP and a 60 % job bound; the base's sets neither. Before, the
    # larger tolerance of the two study files held the 0.0144 AP move: within
    base = load(tmp_path / "base", records=[record("main", [coco_ap("fp16", 0.4644)])], study=spec())
    head = load(tmp_path / "head", records=[record("main", [coco_ap("fp16", 0.4500)])],
                study=spec(tolerances={"coco": 0.02},
                           spread_sources=[{"source": "job", "reason": "any two jobs", "up_to_percent": 60}]))
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.spread is None
    # the other way round, the base's study file holds it: 60 % of the base's 0.45 (0.27) is its widest bound
    change = only(figure_changes(head, base)[0], WITHIN)
    assert (change.spread.source, change.spread.width) == ("declared", pytest.approx(0.27))


def test_a_quality_change_is_in_points_and_never_a_percentage(tmp_path):
    # 0.4644 -> 0.4600 AP: -0.0044 AP is -0.44 points; within the base's 0.005 tolerance
    base, head = both(tmp_path, [record("main", [coco_ap("fp16", 0.4644)])],
                      [record("main", [coco_ap("fp16", 0.4600)])], tolerances={"coco": 0.005})
    change = only(figure_changes(base, head)[0], WITHIN)
    assert change.points == pytest.approx(-0.44) and change.relative is None
    assert change.delta == pytest.approx(-0.0044)
    # an AP difference is in points already
    delta = {"kind": "coco_ap_delta", "variant": "fp8", "statistic": "AP", "delta_points": -0.2, "dataset": "val-8",
             "reference_variant": "fp16", "batch": 1, "backend": "tensorrt", "mode": "engine"}
    base, head = both(tmp_path / "delta", [record("main", [delta])], [record("main", [dict(delta, delta_points=-1.7)])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.points == pytest.approx(-1.5) and change.relative is None and change.unit == "points"
    # a latency has no points
    base, head = both(tmp_path / "ms", [record("main", [latency("fp16", 10.0)])], [record("main", [latency("fp16", 10.5)])])
    assert only(figure_changes(base, head)[0]).points is None


def test_jobs_reporting_the_same_key_give_the_job_to_job_spread(tmp_path):
    # base: jobs a 10.0 and b 10.4 (spread 0.4); head: a 10.1 (+0.1), b 10.45 (+0.05): a moved most
    base, head = both(tmp_path, [record("a", [latency("fp16", 10.0)]), record("b", [latency("fp16", 10.4)])],
                      [record("a", [latency("fp16", 10.1)]), record("b", [latency("fp16", 10.45)])])
    change = only(figure_changes(base, head)[0], WITHIN)
    assert (change.old_value, change.new_value, change.farthest) == (10.0, 10.1, "a")
    assert change.delta == pytest.approx(0.1)
    assert (change.spread.source, change.spread.side, change.spread.width) == ("jobs", "base", pytest.approx(0.4))
    assert change.old_jobs == change.new_jobs == ("a", "b")
    # both jobs 1.0 later: each moved 1.0, past the 0.4 spread; the first of equal moves is named
    base, head = both(tmp_path / "far", [record("a", [latency("fp16", 10.0)]), record("b", [latency("fp16", 10.4)])],
                      [record("a", [latency("fp16", 11.0)]), record("b", [latency("fp16", 11.4)])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.delta == pytest.approx(1.0) and change.farthest == "a"


def test_without_a_spread_the_tolerance_bounds_a_change_and_without_either_any_change_is_beyond(tmp_path):
    base, head = both(tmp_path / "tol", [record("main", [coco_ap("fp16", 0.4644)])],
                      [record("main", [coco_ap("fp16", 0.4640)])], tolerances={"coco": 0.0005})
    change = only(figure_changes(base, head)[0], WITHIN)
    assert (change.spread.source, change.spread.width) == ("tolerance", 0.0005)
    assert change.spread.words("AP", 4) == "tolerance 0.0005 (study file)"
    base, head = both(tmp_path / "none", [record("main", [coco_ap("fp16", 0.4644)])],
                      [record("main", [coco_ap("fp16", 0.4643)])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.spread is None and change.delta == pytest.approx(-0.0001)


def test_a_declared_bound_is_a_percentage_of_the_base_figure(tmp_path):
    sources = [{"source": "engine_build", "reason": "each job builds its own engine", "up_to_percent": 5}]
    # 10.0 -> 10.5: 5 % of the base's 10.0 is 0.5, the move 0.5 is within (before: of the mean 10.25, 0.5125)
    base, head = both(tmp_path / "in", [record("main", [latency("fp16", 10.0)])],
                      [record("main", [latency("fp16", 10.5)])], spread_sources=sources)
    change = only(figure_changes(base, head)[0], WITHIN)
    assert (change.spread.source, change.spread.width) == ("declared", pytest.approx(0.5))
    assert change.spread.words("ms", 3) == "up to 5 % between independent engine builds (study file): 0.500 ms"
    # 10.0 -> 10.52: 5 % of 10.0 is still 0.5, the move 0.52 is beyond (of the mean 10.26 it was 0.513: within)
    base, head = both(tmp_path / "out", [record("main", [latency("fp16", 10.0)])],
                      [record("main", [latency("fp16", 10.52)])], spread_sources=sources)
    assert only(figure_changes(base, head)[0], BEYOND).spread.width == pytest.approx(0.5)
    # unbounded, a declared source gives no width: only the timer bounds the change (one step of 2**-12 ms
    # plus half the 6th significant digit of 10.0 and of 10.1, 0.00005 each)
    unbounded = [{"source": "engine_build", "reason": "each job builds its own engine"}]
    base, head = both(tmp_path / "open", [record("main", [latency("fp16", 10.0)])],
                      [record("main", [latency("fp16", 10.1)])], spread_sources=unbounded)
    spread = only(figure_changes(base, head)[0], BEYOND).spread
    assert (spread.source, spread.width) == ("timer resolution", pytest.approx(2 ** -12 + 0.0001))


def test_new_removed_and_unchanged_keys(tmp_path):
    base, head = both(tmp_path, [record("main", [latency("fp16", 5.0), latency("fp8", 4.0)])],
                      [record("main", [latency("fp16", 5.0), latency("fp32", 9.0)])])
    verdicts = {c.what.split()[0]: c.verdict for c in figure_changes(base, head)[0]}
    assert verdicts == {"fp16": UNCHANGED, "FP8": REMOVED, "fp32": NEW}
    changes = {c.verdict: c for c in figure_changes(base, head)[0]}
    assert changes[NEW].new == ("9.0",) and changes[NEW].old == () and changes[NEW].delta is None
    assert (changes[NEW].old_value, changes[NEW].new_value, changes[NEW].unit, changes[NEW].decimals) == (None, 9.0, "ms", 1)
    assert (changes[REMOVED].old_value, changes[REMOVED].new_value, changes[UNCHANGED].new_value) == (4.0, None, 5.0)
    assert changes[UNCHANGED].farthest is None and changes[UNCHANGED].points is None
    assert changes[NEW].place.path == "measurements/toy/main.json" and changes[NEW].place.pointer == "/results/1/value_ms"
    lines = (tmp_path / "head" / "measurements/toy/main.json").read_text().splitlines()
    assert '"value_ms": 9.0' in lines[changes[NEW].place.line - 1]
    assert changes[NEW].key.startswith("toy|0123456|fp32||latency|gpu_compute|median||800x800|b1|")
    assert changes[REMOVED].old == ("4.0",) and changes[REMOVED].new_jobs == ()
    assert [c.verdict for c in figure_changes(base, head)[0]] == [NEW, REMOVED, UNCHANGED]  # the report's order


def test_the_same_values_from_other_jobs_are_unchanged_and_each_job_gone_is_removed(tmp_path):
    base, head = both(tmp_path, [record("a", [latency("fp16", 5.0)]), record("b", [latency("fp16", 5.0)])],
                      [record("c", [latency("fp16", 5.0)])])
    # c holds the value a and b held: the key is unchanged, but the runs of a and b are gone
    assert [(c.verdict, c.old_jobs, c.still_reported_by) for c in figure_changes(base, head)[0]] == [
        (REMOVED, ("a",), ("c",)), (REMOVED, ("b",), ("c",)), (UNCHANGED, ("a", "b"), ())]
    base, head = both(tmp_path / "moved", [record("a", [latency("fp16", 5.0)]), record("b", [latency("fp16", 5.2)])],
                      [record("a", [latency("fp16", 5.0)])])
    # job b's 5.2 went (a removed figure of b); job a, the one head job, did not move: the key is unchanged
    removed, unchanged = figure_changes(base, head)[0]
    assert (removed.verdict, removed.old, removed.old_jobs, removed.old_value, removed.place.path) == (
        REMOVED, ("5.2",), ("b",), 5.2, "measurements/toy/b.json")
    assert (unchanged.verdict, unchanged.new_jobs) == (UNCHANGED, ("a",))
    base, head = both(tmp_path / "ap", [record("a", [coco_ap("fp16", 0.46)]), record("b", [coco_ap("fp16", 0.47)])],
                      [record("a", [coco_ap("fp16", 0.461)])])
    # a moved 0.1 point beside b's removal: judged on its own move, within the two base jobs' spread
    change, removed = figure_changes(base, head)[0]  # the report's order: within before removed
    assert (change.verdict, removed.verdict, removed.old_jobs) == (WITHIN, REMOVED, ("b",))
    assert change.points == pytest.approx(0.1) and change.spread.width == pytest.approx(0.01)


def test_ranges_are_compared_end_by_end_against_the_tolerance(tmp_path):
    def ranged(low, high):
        result = kernel_time("fp8", {}, total=None)
        result["groups"] = [{"group": "GEMM", "time_ms_range": {"min": low, "max": high, "over": "shapes"}}]
        return record("main", [result])
    base, head = both(tmp_path / "in", [ranged(0.10, 0.20)], [ranged(0.11, 0.20)], tolerances={"kernel_time": 0.02})
    change = only(figure_changes(base, head)[0], WITHIN)
    assert (change.old, change.new) == (("0.1 to 0.2",), ("0.11 to 0.2",)) and change.delta is None
    base, head = both(tmp_path / "out", [ranged(0.10, 0.20)], [ranged(0.10, 0.23)], tolerances={"kernel_time": 0.02})
    assert only(figure_changes(base, head)[0], BEYOND).spread.source == "tolerance"


def test_a_relative_change_of_a_zero_figure_is_none(tmp_path):
    base, head = both(tmp_path, [record("main", [kernel_time("fp16", {"other": 0.0})])],
                      [record("main", [kernel_time("fp16", {"other": 0.002})])])
    change = only(figure_changes(base, head)[0], BEYOND)
    assert change.delta == pytest.approx(0.002) and change.relative is None


def test_keys_that_read_alike_are_told_apart_by_their_versions(tmp_path):
    from tests.checks.studies import collected_provenance
    newer = collected_provenance(tensorrt="11.5.0.1")
    base, head = both(tmp_path, [record("a", [latency("fp16", 5.0)])],
                      [record("a", [latency("fp16", 5.0)]), record("b", [latency("fp16", 5.1)], provenance=newer)])
    names = sorted(c.what for c in figure_changes(base, head)[0])
    assert names == ["fp16 median GPU compute time, 800 x 800, engine, H200, tensorrt=11.4.0.106,cuda=13.0",
                     "fp16 median GPU compute time, 800 x 800, engine, H200, tensorrt=11.5.0.1,cuda=13.0"]


def test_a_family_missing_at_one_revision_is_all_new_or_all_removed(tmp_path):
    base, head = both(tmp_path, [record("main", [latency("fp16", 5.0), coco_ap("fp16", 0.46)])],
                      [record("main", [latency("fp16", 5.0)])])
    assert {c.verdict for c in figure_changes(None, head)[0]} == {NEW}
    assert [c.verdict for c in figure_changes(base, None)[0]] == [REMOVED, REMOVED]


def test_values_and_changes_are_printed_with_the_study_files_precision(tmp_path):
    base, head = both(tmp_path, [record("main", [latency("fp16", 10.0)])], [record("main", [latency("fp16", 10.123456)])],
                      precision={"latency_ms": 2})
    change = only(figure_changes(base, head)[0], BEYOND)
    assert (change.old, change.new, change.decimals) == (("10.00",), ("10.12",), 2)
    base, head = both(tmp_path / "carried", [record("main", [latency("fp16", 10.0)])],
                      [record("main", [latency("fp16", 10.125)])])
    assert only(figure_changes(base, head)[0]).decimals == 3  # the most digits a value carries


def test_a_change_the_timer_cannot_express_is_within_its_resolution(tmp_path):
    # the two RTX 3090 logs' device-to-host medians: 16 and 15 steps of 2**-12 ms (a default-length trtexec run),
    # printed to 6 significant digits (half a unit of the last: 0.000000005 ms each). Held to
    # 2**-12 + 0.000000005 + 0.000000005 = 0.000244150625 ms, as SG203 holds two jobs
    def d2h(value, timer="trtexec"):
        return [record("main", [latency("fp16", value, timing="d2h", method={"timer": timer})])]

    change = only(figure_changes(*both(tmp_path / "one", d2h(0.00390625), d2h(0.00366211)))[0], WITHIN)
    assert (change.spread.source, change.spread.width) == ("timer resolution", pytest.approx(2 ** -12 + 1e-8, abs=1e-15))
    assert change.spread.words("ms", 8) == "timer resolution 0.00024415 ms (one step of the timer, plus print rounding)"
    assert change.spread.words("ms", None) == "timer resolution 0.00024 ms (one step of the timer, plus print rounding)"
    from studygen.compare.figures import TIMER, Allowance

    assert Allowance(12.5, TIMER).words("ms", None) == "timer resolution 13 ms (one step of the timer, plus print rounding)"
    # two steps (0.00341797, 14 steps) are beyond it; the tolerance, where wider, is the bound
    change = only(figure_changes(*both(tmp_path / "two", d2h(0.00390625), d2h(0.00341797)))[0], BEYOND)
    assert change.spread.source == "timer resolution"
    assert only(figure_changes(*both(tmp_path / "tol", d2h(0.00390625), d2h(0.00341797),
                                      tolerances={"d2h": 0.0005}))[0], WITHIN).spread.source == "tolerance"
    # a timer whose resolution nobody has shown gets none: any change is beyond
    change = only(figure_changes(*both(tmp_path / "events", d2h(0.00390625, "cuda_event"),
                                        d2h(0.00366211, "cuda_event")))[0], BEYOND)
    assert change.spread is None


def test_jobs_timed_differently_are_two_figures_and_no_spread_of_each_other(tmp_path):
    # job a timed without CUDA graphs (10.0 ms), job b with them (100.0 ms, then 60.0 ms): before, one figure of
    # median 55.0 -> 35.0 ms held to a 90.0 ms "spread of 2 jobs", within spread. Job b's figure moved 40 ms with
    # nothing measured to bound it but its timer, job a's did not move
    off, on = {"timer": "trtexec", "cuda_graph": False}, {"timer": "trtexec", "cuda_graph": True}
    failed = {"kind": "not_measured", "variant": "fp8", "shape": "800x800", "batch": 1, "backend": "tensorrt",
              "mode": "engine", "metric": "latency", "reason": "the engine build failed"}  # no figure, first
    base, head = both(tmp_path, [record("a", [dict(failed), latency("fp16", 10.0, method=off)]),
                                 record("b", [latency("fp16", 100.0, method=on)])],
                      [record("a", [latency("fp16", 10.0, method=off)]),
                       record("b", [latency("fp16", 60.0, method=on)])])
    changes = figure_changes(base, head)[0]
    assert [(c.verdict, c.old, c.new, c.old_jobs, c.spread and c.spread.source) for c in changes] == [
        (BEYOND, ("100.0",), ("60.0",), ("b",), "timer resolution"), (UNCHANGED, ("10.0",), ("10.0",), ("a",), None)]
    assert changes[0].delta == pytest.approx(-40.0) and changes[0].key == changes[1].key
    assert changes[0].what == ("fp16 median GPU compute time, 800 x 800, engine, H200, TensorRT engine, GPU compute time, "
                               "CUDA graphs on, data transfers off, spin-wait on")
    assert changes[1].what.endswith(", CUDA graphs off, data transfers off, spin-wait on")
    # one way of timing: the words stay those of the key alone
    base, head = both(tmp_path / "alike", [record("a", [latency("fp16", 10.0, method=on)])],
                      [record("a", [latency("fp16", 10.5, method=on)])])
    assert only(figure_changes(base, head)[0], BEYOND).what == "fp16 median GPU compute time, 800 x 800, engine, H200"
