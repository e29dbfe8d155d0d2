"""SG203 reports one finding per measurement key whose jobs disagree, however
many pairs of them do, and a waiver written for one pair waives that pair only.
Every figure here is invented; the pair counts and range ends are worked out
by hand in the comments."""

from __future__ import annotations

import random

from studygen.checks import CheckContext, sg203_reconcile
from studygen.checks.sg203_keys import from_pairs, from_tolerance, held_to_tolerance, middle, outlier
from studygen.checks.waivers import apply_waivers
from studygen.findings import ERROR, NOTICE

from .studies import coco_ap, kernel_time, latency, load, record, spec

# One GEMM group re-profiled by five jobs (one trace each: no spread of its own).
GEMM = {"a": 1.00, "b": 1.00, "c": 1.05, "d": 1.10, "e": 0.95}


def _reruns(tmp_path, study=None, values=GEMM):
    records = [record(job, [kernel_time("fp16", {"gemm": value})]) for job, value in values.items()]
    return load(tmp_path, records=records, study=study or spec())


def _across(findings):
    return [f for f in findings if f.code == "SG203" and "disagrees across jobs" in f.message]


def test_a_rerun_family_gives_one_finding_per_key_with_its_range_and_pair_count(tmp_path):
    study = _reruns(tmp_path, spec(tolerances={"kernel_time_ms": 0.05}))
    found = _across(sg203_reconcile.check(CheckContext(study)))
    # pairs further apart than 0.05 ms: e-c 0.10, e-d 0.15, a-d 0.10, b-d 0.10 (a-c, b-c, c-d, a-e, b-e are 0.05,
    # a-b 0): 4 of the 10. Widest: e-d, placed at d (0.10 from the median 1.00, against e's 0.05).
    (finding,) = found
    assert finding.severity == ERROR
    assert (finding.file, finding.pointer) == ("measurements/toy/d.json", "/results/0/groups/0/time_ms")
    assert ": 5 jobs, 0.95 ms in job e to 1.1 ms in job d; 4 of their 10 pairs disagree, among them 1.1 in job d " \
           "against 0.95 in job e (spread 0.15 ms, tolerance 0.05)" in finding.message, finding.message
    assert finding.key == study.rows[0].key.text()


def test_without_a_tolerance_every_pair_but_the_equal_one_disagrees(tmp_path):
    found = _across(sg203_reconcile.check(CheckContext(_reruns(tmp_path))))
    (finding,) = found  # a and b equal; the other 9 pairs apart by 0.05 ms or more, beyond the 1 us floor
    assert "; 9 of their 10 pairs disagree, among them 1.1 in job d against 0.95 in job e (spread 0.1500 ms, " \
           "tolerance 0; timer resolution 0.0010 ms)" in finding.message, finding.message


def test_ties_name_the_first_job_in_the_studys_order(tmp_path):
    # two jobs at the lowest figure and two at the highest: the range and the pair name the first of each
    study = _reruns(tmp_path, values={"p": 2.0, "q": 1.0, "r": 2.0, "s": 1.0})
    (finding,) = _across(sg203_reconcile.check(CheckContext(study)))
    # pairs p-q, p-s, q-r, r-s disagree (1.0 ms), p-r and q-s agree: 4 of 6; first widest pair p-q, placed at q
    # (both 0.5 from the median 1.5: the later job)
    assert ": 4 jobs, 1.0 ms in job q to 2.0 ms in job p; 4 of their 6 pairs disagree, among them 2.0 in job p " \
           "against 1.0 in job q (" in finding.message, finding.message
    assert finding.file == "measurements/toy/q.json"


def _waived(tmp_path, waivers, values=GEMM):
    study = _reruns(tmp_path, spec(tolerances={"kernel_time_ms": 0.05}, waivers=waivers), values)
    findings = apply_waivers(study, sg203_reconcile.check(CheckContext(study)))
    return _across(findings), [f for f in findings if f.code == "SG216"]


def test_a_waiver_of_one_pair_waives_that_pair_only(tmp_path):
    # the e-d pair's finding as it was worded alone: "1.1 in job d; 0.95 in job e (...)"
    waiver = {"code": "SG203", "match": "1.1 in job d; 0.95 in job e", "reason": "job e ran on a cooler card"}
    other = {"code": "SG207", "match": "1.0 in job a; 1.1 in job d", "reason": "written for another check"}
    (finding,), unused = _waived(tmp_path, [waiver, other])
    assert [f.message for f in unused] == ["waiver for SG207 (1.0 in job a; 1.1 in job d) matches no finding"]
    assert finding.severity == ERROR and not finding.waived_reason
    # left: e-c (0.10), a-d and b-d (0.10); the first of the widest a-d, placed at d. The verdict prints the gap
    # and the 0.05 tolerance with the digits that tell them apart (to the figures' one decimal both read 0.1)
    assert ": 5 jobs, 0.95 ms in job e to 1.1 ms in job d; 3 of their 10 pairs disagree and 1 more waived, among " \
           "them 1.0 in job a against 1.1 in job d (spread 0.10 ms, tolerance 0.05)" in finding.message, \
        finding.message


def test_a_key_whose_every_disagreeing_pair_is_waived_reports_as_waived(tmp_path):
    # pairs: e-c, a-d, b-d, e-d. A waiver and an explanation, each first of its list, share the work.
    waivers = [{"code": "SG203", "match": "in job d; 0.95 in job e", "reason": "job e: cooler card"},
               {"code": "SG203", "match": "; 1.1 in job d (spread", "reason": "job d: a busy host"}]
    explanations = [{"code": "SG203", "match": "1.05 in job c; 0.95 in job e", "text": "job c warmed up longer"}]
    records = [record(job, [kernel_time("fp16", {"gemm": value, "conv": 0.5 + (job == "a")})])
               for job, value in GEMM.items()]
    study = load(tmp_path, records=records, study=spec(tolerances={"kernel_time_ms": 0.05}, waivers=waivers,
                                                        explanations=explanations))
    findings = apply_waivers(study, sg203_reconcile.check(CheckContext(study)))
    assert [f for f in findings if f.code == "SG216"] == []
    finding, conv = sorted(_across(findings), key=lambda f: "conv" in f.message)
    assert finding.severity == NOTICE
    assert finding.waived_reason == "explained: job c warmed up longer | job d: a busy host | job e: cooler card"
    assert "4 of their 10 pairs disagree, among them 1.1 in job d against 0.95 in job e" in finding.message
    # the conv group, 1.5 ms in job a against 0.5 in the others (4 of 10 pairs), is no pair any entry names
    assert conv.severity == ERROR and "5 jobs, 0.5 ms in job b to 1.5 ms in job a; 4 of their 10 pairs" in conv.message


def test_a_waiver_that_names_a_range_end_does_not_hide_the_pairs_it_misses(tmp_path):
    # "in job d" is in the key's finding (d holds the highest figure: "1.1 ms in job d") and in three pairs'
    # findings (a-d, b-d, e-d): it names those pairs, not the key, so e-c still reports
    waiver = {"code": "SG203", "match": "in job d", "reason": "job d: a busy host"}
    study = _reruns(tmp_path / "plain", spec(tolerances={"kernel_time_ms": 0.05}))
    (unwaived,) = _across(sg203_reconcile.check(CheckContext(study)))
    assert "in job d" in unwaived.message
    (finding,), unused = _waived(tmp_path, [waiver])
    assert unused == [] and finding.severity == ERROR
    assert "1 of their 10 pairs disagrees and 3 more waived: 1.05 in job c against 0.95 in job e" in finding.message


def test_a_waiver_of_the_key_or_of_the_keys_own_words_waives_it(tmp_path):
    study = _reruns(tmp_path / "key", spec(tolerances={"kernel_time_ms": 0.05}))
    key = next(r.key.text() for r in study.rows if r.group == "gemm")
    (by_key,), unused = _waived(tmp_path / "k", [{"code": "SG203", "key": key, "reason": "re-runs, kept"}])
    assert by_key.severity == NOTICE and unused == []
    words = {"code": "SG203", "match": "5 jobs, 0.95 ms in job e to 1.1 ms in job d", "reason": "re-runs, kept"}
    (by_words,), unused = _waived(tmp_path / "w", [{"code": "SG203", "line": 999, "reason": "a stale waiver"}, words])
    assert by_words.severity == NOTICE and by_words.waived_reason == "re-runs, kept"
    assert [f.message for f in unused] == ["waiver for SG203 (line 999) matches no finding"]


def test_a_two_job_key_keeps_its_pairs_words(tmp_path):
    study = _reruns(tmp_path, values={"a": 1.00, "b": 1.10})
    (finding,) = _across(sg203_reconcile.check(CheckContext(study)))
    assert finding.message.endswith(": 1.0 in job a; 1.1 in job b (spread 0.1000 ms, tolerance 0; timer resolution "
                                    "0.0010 ms)"), finding.message
    assert finding.file == "measurements/toy/b.json"


def _brute(study, rows):
    """Every pair decided alone by compare_pair: the old, pair-by-pair reading of a key."""
    centre = middle(rows)
    pairs = []
    for i, a in enumerate(rows):
        for b in rows[i + 1:]:
            verdict = sg203_reconcile.compare_pair(study, a, b)
            if verdict.disagree:
                pairs.append((a, b, outlier(centre, a, b), verdict))
    return from_pairs(rows, len(rows) * (len(rows) - 1) // 2, pairs)


def test_counting_on_sorted_figures_decides_every_pair_as_compare_pair_does(tmp_path):
    # trtexec medians (a float32 step and their printed rounding, which changes at 1 ms and 10 ms) and kernel
    # times (a 1 us floor), many near the bounds and tied, under three tolerances (30 studies, 3 to 20 jobs)
    rng = random.Random(7)
    for case in range(30):
        tolerance = (0.0, 0.0003, 0.002)[case % 3]
        records = []
        for index in range(rng.randint(3, 20)):
            centre = rng.choice((0.999, 1.0, 9.99972, 9.9998, 10.0))
            value = round(centre + rng.choice((0, 0, 1, -1, 2)) * rng.choice((0.00012, 0.00027, 0.00029, 0.0003,
                                                                            0.0009, 0.002)), 6)
            records.append(record(f"j{index:02d}", [latency("fp16", value),
                                                    kernel_time("fp16", {"gemm": round(value / 10, 4)})]))
        study = load(tmp_path / f"c{case}", records=records,
                     study=spec(tolerances={"latency_ms": tolerance, "kernel_time_ms": tolerance}))
        for rows in sg203_reconcile.repeated_keys(study).values():
            rows = sorted(rows, key=lambda r: (r.job_id, r.pointer))
            assert held_to_tolerance(study, rows)
            fast = from_tolerance(study, rows, lambda a, b: sg203_reconcile.compare_pair(study, a, b))
            slow = _brute(study, rows)
            assert (fast.count, fast.compared, fast.placed) == (slow.count, slow.compared, slow.placed), case
            assert fast.rows is rows
            assert [p[:3] for p in fast.every()] == [p[:3] for p in slow.every()]
            assert (fast.representative or (None,) * 3)[:3] == (slow.representative or (None,) * 3)[:3]


def test_a_key_whose_jobs_agree_has_no_pair(tmp_path):
    study = _reruns(tmp_path, values={"a": 1.0, "b": 1.0005})  # within the 1 us floor of kernel times
    (rows,) = sg203_reconcile.repeated_keys(study).values()
    found = from_tolerance(study, rows, lambda a, b: sg203_reconcile.compare_pair(study, a, b))
    assert (found.rows, found.compared, found.count, found.placed, found.representative, found.every()) == \
        (rows, 1, 0, frozenset(), None, [])


def test_figures_with_a_spread_of_their_own_are_not_counted_on_sorted_figures(tmp_path):
    records = [record(job, [latency("fp16", 5.0, repeats=[5.0, 5.01, 4.99, 5.02, 4.98])]) for job in "ab"]
    study = load(tmp_path, records=records)
    (rows,) = sg203_reconcile.repeated_keys(study).values()
    assert not held_to_tolerance(study, rows)
    declared = load(tmp_path / "declared", records=[record(job, [latency("fp16", 5.0)]) for job in "ab"],
                    study=spec(spread_sources=[{"source": "engine_build", "reason": "each job built its engine"}]))
    (rows,) = sg203_reconcile.repeated_keys(declared).values()
    assert not held_to_tolerance(declared, rows)


def test_an_error_pair_words_the_key_before_a_wider_warning_pair(tmp_path):
    # a: 3 repeat medians at 4.90 (4.89 to 4.91); b: 3 at 5.10; c: 5 at 5.0 (4.98 to 5.02). a-b, 0.2 apart, is the
    # widest pair, but 3 against 3 values allow no p below 0.1: held to their spread, a warning. a-c and c-b, 0.1
    # apart each, are tested (3 against 5: least p 2 / C(8, 3) = 0.036), errors with a third job; the first, a-c,
    # words the key, which is an error
    records = [record("a", [latency("fp16", 4.90, repeats=[4.89, 4.90, 4.91])]),
               record("b", [latency("fp16", 5.10, repeats=[5.09, 5.10, 5.11])]),
               record("c", [latency("fp16", 5.0, repeats=[5.00, 5.02, 4.98, 5.01, 4.99])])]
    study = load(tmp_path, records=records)
    (finding,) = _across(sg203_reconcile.check(CheckContext(study)))
    assert finding.severity == ERROR
    assert ": 3 jobs, 4.9 ms in job a to 5.1 ms in job b; 3 of their 3 pairs disagree, among them 4.9 in job a " \
           "against 5.0 in job c (job c minus job a +0.100 ms" in finding.message, finding.message


def test_the_json_output_prints_no_parts(tmp_path):
    import json

    from studygen.findings import format_json

    waiver = {"code": "SG203", "match": "1.1 in job d; 0.95 in job e", "reason": "job e ran on a cooler card"}
    study = _reruns(tmp_path, spec(tolerances={"kernel_time_ms": 0.05}, waivers=[waiver]))
    raw = sg203_reconcile.check(CheckContext(study))
    assert [len(f.parts) for f in _across(raw)] == [4]  # each disagreeing pair's own finding rides along
    findings = apply_waivers(study, raw)
    assert all(f.parts == () for f in findings)
    (printed,) = [f for f in json.loads(format_json(findings)) if f["code"] == "SG203"]
    assert "parts" not in printed and printed["message"] == _across(findings)[0].message


def test_a_waiver_by_line_names_the_pairs_placed_at_that_line(tmp_path):
    # job e's record lists a conv group before its GEMM, so its GEMM row stands on another line than the others'.
    # Pairs placed at e: e-c (0.05 from the median 1.00 each: the later job). At d: a-d, b-d, e-d.
    records = [record(job, [kernel_time("fp16", {"conv": 0.5, "gemm": value} if job == "e" else {"gemm": value})])
               for job, value in GEMM.items()]
    plain = load(tmp_path / "plain", records=records, study=spec(tolerances={"kernel_time_ms": 0.05}))
    line = next(r.line for r in plain.rows if r.job_id == "e" and r.group == "gemm")
    assert line != next(r.line for r in plain.rows if r.job_id == "d" and r.group == "gemm")
    waiver = {"code": "SG203", "line": line, "reason": "job e's trace was cut short"}
    study = load(tmp_path / "waived", records=records,
                 study=spec(tolerances={"kernel_time_ms": 0.05}, waivers=[waiver]))
    findings = apply_waivers(study, sg203_reconcile.check(CheckContext(study)))
    (finding,) = _across(findings)
    assert [f for f in findings if f.code == "SG216"] == []
    assert finding.severity == ERROR and finding.file == "measurements/toy/d.json"
    assert "; 3 of their 10 pairs disagree and 1 more waived, among them 1.1 in job d against 0.95 in job e (" \
        in finding.message, finding.message


def test_a_quality_figure_prints_its_range_without_a_unit(tmp_path):
    records = [record(job, [coco_ap("fp16", value)]) for job, value in {"a": 0.451, "b": 0.446, "c": 0.449}.items()]
    (finding,) = _across(sg203_reconcile.check(CheckContext(load(tmp_path, records=records))))
    # no tolerance: every pair disagrees; widest a-b, placed at b (0.003 from the median 0.449 against a's 0.002)
    assert ": 3 jobs, 0.446 in job b to 0.451 in job a; 3 of their 3 pairs disagree, among them 0.451 in job a " \
           "against 0.446 in job b (spread 0.005, tolerance 0)" in finding.message, finding.message
    assert finding.file == "measurements/toy/b.json"
    assert finding.hint.endswith("tolerances: {coco_ap_ap: <difference>} (a key coco or coco_ap wins over it)")


def test_the_median_of_an_odd_count_places_the_finding(tmp_path):
    # 1.0, 1.2 and 1.38: the median is 1.2, so the widest pair (1.0 against 1.38) stands at 1.0, 0.2 from it
    # (1.38 is 0.18 away); the mean of the two lower figures, 1.1, would have put it at 1.38
    (finding,) = _across(sg203_reconcile.check(CheckContext(_reruns(tmp_path, values={"x": 1.0, "y": 1.2,
                                                                                       "z": 1.38}))))
    assert finding.file == "measurements/toy/x.json"


def test_the_widest_pair_need_not_be_the_lowest_against_the_highest(tmp_path):
    # trtexec medians: one step 2**-12 ms (0.000244) plus half a unit of the 6th digit each (0.000005 below 10 ms,
    # 0.00005 from 10 ms on). a-b: 0.00027 apart, beyond 0.000254; a-c: 0.00029, within 0.000299; b-c: 0.00002
    records = [record(job, [latency("fp16", value)]) for job, value in {"a": 9.99972, "b": 9.99999,
                                                                      "c": 10.00001}.items()]
    (finding,) = _across(sg203_reconcile.check(CheckContext(load(tmp_path, records=records))))
    assert ": 3 jobs, 9.99972 ms in job a to 10.00001 ms in job c; 1 of their 3 pairs disagrees: 9.99972 in job a " \
           "against 9.99999 in job b (" in finding.message, finding.message
    assert finding.file == "measurements/toy/a.json"  # 0.00027 from the median 9.99999


def test_among_inner_pairs_the_widest_words_the_key(tmp_path):
    # As above, the lowest and highest agree (a-e: 0.00029, within 0.000299); the pairs of figures below 10 ms are
    # held to 0.000254: a-c (0.00027), a-d (0.00028) and b-d (0.00026) disagree, b-c (0.00025) does not. Widest:
    # a-d, placed at a (0.00027 from the median 9.99998)
    values = {"a": 9.99971, "b": 9.99973, "c": 9.99998, "d": 9.99999, "e": 10.0}
    records = [record(job, [latency("fp16", value)]) for job, value in values.items()]
    (finding,) = _across(sg203_reconcile.check(CheckContext(load(tmp_path, records=records))))
    assert ": 5 jobs, 9.99971 ms in job a to 10.0 ms in job e; 3 of their 10 pairs disagree, among them 9.99971 in " \
           "job a against 9.99999 in job d (" in finding.message, finding.message
    assert finding.file == "measurements/toy/a.json"


def test_counting_checks_only_the_pairs_near_the_bounds(tmp_path, monkeypatch):
    # 200 re-runs of one GEMM group, 1 to 1.2 ms (a step of 0.001 ms each, the kernel-time floor): every pair but
    # neighbours apart by the floor disagrees. Pair by pair that is 19,900 decisions; counted on the sorted
    # figures only pairs within the 1 us floor and the rows' scans toward the median are decided one by one.
    from studygen.checks import sg203_keys

    values = {f"r{index:03d}": round(1.0 + 0.001 * index, 3) for index in range(200)}
    study = _reruns(tmp_path, values=values)
    (rows,) = sg203_reconcile.repeated_keys(study).values()
    rows = sorted(rows, key=lambda r: (r.job_id, r.pointer))
    calls = []
    original = sg203_keys._Figures.disagree
    monkeypatch.setattr(sg203_keys._Figures, "disagree", lambda self, i, j: calls.append(1) or original(self, i, j))
    found = from_tolerance(study, rows, lambda a, b: sg203_reconcile.compare_pair(study, a, b))
    # pairs 0.001 ms apart agree (within the floor): 199 of them; the other 19,701 disagree
    assert (found.count, found.compared) == (19701, 19900)
    assert len(calls) < 5 * len(rows), len(calls)
