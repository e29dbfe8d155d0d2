"""``studygen diff`` after ``collect … --replace`` moved one job's results to
the end of its record: every later JSON pointer (and line) shifted, and the
diff reported 30 findings appeared and 30 gone that said the same thing
about the same measurements. Findings are now matched by what they say
(code, severity, file, key, message with its places normalised); figure
labels name the batch where the figures hold several. Each test failed on
the code before the fix. Figures are made up."""

from __future__ import annotations

from studygen.checks import run_checks
from studygen.compare import Revision, compare_family, compare_findings
from studygen.compare.figures import figure_changes
from studygen.findings import Finding
from tests.checks.studies import latency, load, record, spec

RECORD = "measurements/toy/l4.json"


def test_a_finding_whose_pointer_line_and_quoted_place_moved_is_the_same_finding():
    old = Finding("SG208", "int8 (2.31 ms, job l4) is slower than fp16 (2.2 ms, job l4), read at l4_int8.log:37 "
                  "(/results/4/value_ms)", RECORD, line=120, pointer="/results/4/value_ms", key="toy|int8|b1")
    moved = Finding("SG208", "int8 (2.31 ms, job l4) is slower than fp16 (2.2 ms, job l4), read at l4_int8.log:41 "
                    "(/results/17/value_ms)", RECORD, line=610, pointer="/results/17/value_ms", key="toy|int8|b1")
    assert compare_findings([old], [moved]) == []
    assert compare_findings([old, old], [moved, moved]) == []  # each matched once, twice over
    # what it says about the measurement changed: a real change, reported once with both messages
    slower = Finding("SG208", moved.message.replace("2.31 ms", "2.42 ms"), RECORD, line=610,
                     pointer="/results/17/value_ms", key="toy|int8|b1")
    assert [(c.finding, c.was, c.how) for c in compare_findings([old], [slower])] == [(slower, old, "changed")]
    # another measurement with the same words is another finding
    other_key = Finding("SG208", moved.message, RECORD, line=610, pointer="/results/17/value_ms", key="toy|int8|b8")
    assert [c.appeared for c in compare_findings([old], [other_key])] == [False, True]


def test_a_line_of_a_readme_or_study_file_named_in_the_message_is_a_place_too():
    old = Finding("SG216", "waiver at study.yaml:line 14 matches no finding (README line 33)", "families/toy/study.yaml",
                  line=14)
    new = Finding("SG216", "waiver at study.yaml:line 19 matches no finding (README line 40)", "families/toy/study.yaml",
                  line=19)
    assert compare_findings([old], [new]) == []
    # a figure with a colon is no place: 12:30 and 12:45 stay two messages
    assert len(compare_findings([Finding("SG201", "run at 12:30", RECORD)], [Finding("SG201", "run at 12:45", RECORD)])) == 2


def _inverted(order):
    """int8 slower than fp16 at two shapes (two SG208 findings), the results in ``order``."""
    results = {"fp16-a": latency("fp16", 2.5), "int8-a": latency("int8", 2.75),
               "fp16-b": latency("fp16", 9.5, "1280x1280"), "int8-b": latency("int8", 10.25, "1280x1280"),
               "fp32-a": latency("fp32", 4.0)}
    return [record("l4", [results[name] for name in order])]


def test_results_moved_to_the_end_of_a_record_change_no_finding(tmp_path):
    variants = [{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"},
                {"name": "int8", "precision": "int8"}]
    base = load(tmp_path / "base", study=spec(variants=variants),
                records=_inverted(["fp16-a", "int8-a", "fp16-b", "int8-b", "fp32-a"]))
    head = load(tmp_path / "head", study=spec(variants=variants),
                records=_inverted(["fp16-b", "int8-b", "fp32-a", "fp16-a", "int8-a"]))  # the first two re-collected
    old, new = ([f for f in run_checks(study) if f.code == "SG208"] for study in (base, head))
    assert len(old) == len(new) == 2 and {f.pointer for f in old} != {f.pointer for f in new}
    changes = compare_family("toy", "families/toy/README.md", Revision(base, tuple(old)), Revision(head, tuple(new)))
    assert changes.findings == []


def test_a_figure_label_names_the_batch_where_the_figures_hold_several(tmp_path):
    def study(side, fp16_b1):
        return load(tmp_path / side, records=[record("rtx", [latency("fp16", fp16_b1), latency("fp16", 6.875, batch=8)])])
    changed = [c for c in figure_changes(study("base", 1.192), study("head", 1.311))[0] if c.verdict != "unchanged"]
    assert [c.what for c in changed] == ["fp16 median GPU compute time, 800 x 800, engine, batch 1, H200"]
    # one batch in the study: nothing to tell apart, batch 1 unsaid as before
    single = figure_changes(load(tmp_path / "one-a", records=[record("rtx", [latency("fp16", 1.192)])]),
                             load(tmp_path / "one-b", records=[record("rtx", [latency("fp16", 1.311)])]))[0]
    assert [c.what for c in single] == ["fp16 median GPU compute time, 800 x 800, engine, H200"]


def test_a_place_is_left_out_of_a_message_but_a_count_is_kept():
    from studygen.compare import normalised_message

    assert normalised_message("at /results/62/value_ms (run.log:33, line 12)") == "at /results/#/value_ms (run.log:#, line #)"
    # "3/4 rows" is a count, not a pointer's index: a finding whose count changed is a changed finding
    assert normalised_message("3/4 rows fit") != normalised_message("3/5 rows fit")


def test_a_figure_label_names_its_timing_as_check_and_render_do(tmp_path):
    # a collect run figure is CUDA-event time per forward, not trtexec's GPU compute time
    from tests.render.test_host_bound_cells import torch_latency

    def study(side, eager_ms):
        return load(tmp_path / side, records=[record("h100", [torch_latency("fp16", "eager", eager_ms, 1.0)])])
    changed = figure_changes(study("base", 4.1), study("head", 5.3))[0]
    assert [c.what for c in changed] == ["fp16 median CUDA-event time per forward, 224 x 224, eager, H200"]
