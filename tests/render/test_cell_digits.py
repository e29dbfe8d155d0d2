"""Job-to-job cells print their figure and ends by one rule (render/rows.py spread_cells).

Invented studies: each figure's digits, and its own repeats, are chosen so that rounding each end on its own
contradicts the cell (ends alike though the figures differ, a range whose width is not the figures', ends out of
order). The expected cells were worked out by hand from the values in each test.
"""

from __future__ import annotations

from studygen.render.engine import render_markdown
from studygen.render.view import StudyView

from ..checks.studies import latency, load, record, spec
from .test_generic_issue22 import generic


def _cells(study, marker: str = "| H200 | 800 x 800 |") -> list[list[str]]:
    lines = render_markdown(study).split("## Provenance")[0].splitlines()
    return [[cell.strip() for cell in line.split("|")[1:-1]] for line in lines if marker in line]


def test_a_figure_with_its_job_to_job_spread_takes_the_digits_of_its_ends(tmp_path):
    # medians 14.616 and 14.233 ms whose repeats move the units digit: alone they print 15 and 14, and the cell read
    # "15 (2 jobs: 14 to 15)", a range one wide for figures 0.383 apart; one decimal shows 14.6 - 14.2 = 0.4
    a = record("a", [latency("fp16", 14.616, repeats=[14.1, 14.616, 15.3]), latency("fp8", 2.04, repeats=[1.9, 2.04, 2.2])])
    b = record("b", [latency("fp16", 14.233, repeats=[13.9, 14.233, 15.0]),
                     latency("fp8", 1.985, repeats=[1.9, 1.985, 2.1])])
    view = StudyView(load(tmp_path, records=[a, b]))
    fp16_a, fp16_b = view.one(job_id="a", variant="fp16"), view.one(job_id="b", variant="fp16")
    assert (fp16_a.number(), fp16_b.number()) == ("15", "14")  # alone, as before
    assert view.with_spread(fp16_a) == "14.6 (2 jobs: 14.2 to 14.6)"
    assert view.with_spread(fp16_b) == "14.2 (2 jobs: 14.2 to 14.6)"
    assert view.spread(fp16_a) == "2 jobs: 14.2 to 14.6"
    # 2.04 and 1.985 printed "2.0 (2 jobs: 2.0 to 2.0)"; at two decimals 2.04 - 1.99 = 0.05 is not 0.055 rounded
    # (0.06), so three, 2.04 kept at the two digits its source carries
    fp8_a = view.one(job_id="a", variant="fp8")
    assert view.with_spread(fp8_a) == "2.04 (2 jobs: 1.985 to 2.04)"
    assert view.with_spread(view.one(job_id="b", variant="fp8")) == "1.985 (2 jobs: 1.985 to 2.04)"


def test_ends_of_mixed_digits_stay_in_order(tmp_path):
    # 5.12 (no repeats: its two digits) and 5.14, whose repeats 4.9 to 5.5 leave it one digit alone (5.1): the ends
    # came out reversed, "5.12 (2 jobs: 5.12 to 5.1)", and the table cell "5.12 to 5.1 (2 jobs: a, b)"
    records = [record("a", [latency("fp16", 5.12)]), record("b", [latency("fp16", 5.14, repeats=[4.9, 5.14, 5.5])])]
    view = StudyView(load(tmp_path / "toy", records=records))
    high = view.one(job_id="b", variant="fp16")
    assert high.number() == "5.1"
    assert view.with_spread(view.one(job_id="a", variant="fp16")) == "5.12 (2 jobs: 5.12 to 5.14)"
    assert view.with_spread(high) == "5.14 (2 jobs: 5.12 to 5.14)"
    assert _cells(generic(tmp_path / "generic", records)) == [["H200", "800 x 800", "1", "5.12 to 5.14 (2 jobs: a, b)"]]
    # 5.02 and 5.1: each at its own digits reads as its difference (0.08), so nothing is padded to 5.10
    agreeing = [record("a", [latency("fp16", 5.02)]), record("b", [latency("fp16", 5.1)])]
    view = StudyView(load(tmp_path / "agreeing", records=agreeing, study=spec()))
    assert view.with_spread(view.one(job_id="b", variant="fp16")) == "5.1 (2 jobs: 5.02 to 5.1)"
    assert _cells(generic(tmp_path / "generic-agreeing", agreeing)) == [
        ["H200", "800 x 800", "1", "5.02 to 5.1 (2 jobs: a, b)"]]


def test_a_generic_cell_tells_apart_figures_the_study_precision_would_print_alike(tmp_path):
    # precision latency_ms 1: 5.12 and 5.14 both print 5.1, and the cell read "5.1 (2 jobs, each: a, b)", two jobs
    # with one figure; and 14.616 and 14.233 (repeats moving the units digit) read "14 to 15 (2 jobs: c, d)"
    records = [record("a", [latency("fp16", 5.12)]), record("b", [latency("fp16", 5.14)]),
               record("c", [latency("fp16", 14.616, "800x1067", repeats=[14.1, 14.616, 15.3])]),
               record("d", [latency("fp16", 14.233, "800x1067", repeats=[13.9, 14.233, 15.0])]),
               record("e", [latency("fp16", 7.25, "1024x1024")]), record("f", [latency("fp16", 7.25, "1024x1024")])]
    study = generic(tmp_path, records, precision={"latency_ms": 1})
    assert _cells(study, "| H200 | ")[:3] == [["H200", "800 x 800", "1", "5.12 to 5.14 (2 jobs: a, b)"],
                                                ["H200", "800 x 1067", "1", "14.2 to 14.6 (2 jobs: c, d)"],
                                                ["H200", "1024 x 1024", "1", "7.3 (2 jobs, each: e, f)"]]

