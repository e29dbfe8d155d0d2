"""The AP points rule written once: a COCO AP is stored as a fraction (0 to 1)
and a figure quoted above 1 is read in points (x100). SG205 (mixed image sets
in prose), SG222 (misquoted figures) and compare all read it from one place."""

from __future__ import annotations

import ast
import inspect
from types import SimpleNamespace

import pytest

from studygen.checks import prose_figures, sg205_datasets, sg222_misquoted_figures
from studygen.compare import figures as compare_figures
from studygen.compare import report as compare_report
from studygen.records import kinds


@pytest.mark.parametrize(("number", "factor"), [
    ("46.30", 100.0), ("1.52", 100.0), ("1.01", 100.0),  # points: above 1
    ("0.4630", 1.0), ("1", 1.0), ("1.0", 1.0), ("0.0152", 1.0),  # a fraction, 1 itself included
])
def test_an_ap_quoted_above_one_is_read_in_points(number, factor):
    assert prose_figures.ap_factor(number) == factor


def test_sg205_and_sg222_use_the_one_ap_rule_and_compare_the_one_table():
    assert sg205_datasets.ap_factor is prose_figures.ap_factor
    assert sg222_misquoted_figures.ap_factor is prose_figures.ap_factor
    assert compare_figures.POINTS_PER_UNIT is kinds.POINTS_PER_UNIT
    assert compare_report.POINTS_PER_UNIT is kinds.POINTS_PER_UNIT
    assert kinds.POINTS_PER_UNIT == {"AP": 100.0, "points": 1.0}


@pytest.mark.parametrize("module", [sg205_datasets, sg222_misquoted_figures])
def test_no_user_of_the_rule_writes_the_hundred_itself(module):
    literals = [node.value for node in ast.walk(ast.parse(inspect.getsource(module)))
                if isinstance(node, ast.Constant) and node.value == 100 and not isinstance(node.value, bool)]
    assert literals == []


def test_both_checks_read_a_quoted_ap_against_the_stored_fraction():
    ap = SimpleNamespace(unit="AP", value=0.4625)
    delta = SimpleNamespace(unit="points", value=1.25)
    rows = [ap, delta]
    assert sg205_datasets._rows_of("46.25", "AP", rows) == [ap]  # points of an AP
    assert sg205_datasets._rows_of("0.4625", "AP", rows) == [ap]  # the fraction itself
    assert sg205_datasets._rows_of("1.25", "points", rows) == [delta]  # a difference in points: no factor
    assert sg205_datasets._rows_of("1.25", "AP", rows) == []  # read as 0.0125 AP
    measured = {"AP": sg222_misquoted_figures.Figures(kept=[0.4625]),
                "points": sg222_misquoted_figures.Figures(kept=[1.25])}
    assert sg222_misquoted_figures.read_against("46.25", "AP", measured) == (measured["AP"], 100.0)
    assert sg222_misquoted_figures.read_against("0.4625", "AP", measured) == (measured["AP"], 1.0)
    assert sg222_misquoted_figures.read_against("46.25", "points", measured) == (measured["points"], 1.0)
    assert sg222_misquoted_figures.read_against("46.25", "ms", measured)[1] == 1.0


def test_compare_sizes_a_change_in_points_by_the_one_table(monkeypatch):
    """A change of 4.5 AP points reads as 0.045 of AP's scale, from the table: changed, it follows.
    Failed before: change_size divided by a 100 of its own."""
    change = SimpleNamespace(relative=None, points=-4.5)
    assert compare_report.change_size(change) == pytest.approx(0.045)
    monkeypatch.setitem(kinds.POINTS_PER_UNIT, "AP", 50.0)
    assert compare_report.change_size(change) == pytest.approx(0.09)
