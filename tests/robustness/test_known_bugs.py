"""Internal errors the property tests found in modules other helpers own,
pinned as strict xfails: each turns into a failure (XPASS) once fixed, so
the entry in test_properties.KNOWN_INTERNAL_ERRORS can go."""

from __future__ import annotations

import pytest

from tests.robustness.test_properties import KNOWN_INTERNAL_ERRORS, internal_error_place


@pytest.mark.xfail(strict=True, reason="studygen/lint/sg103_derived_figures.py divides by a zero figure")
def test_zero_figure_in_a_ratio_sentence(tmp_path, run_cli):
    document = tmp_path / "zero.md"
    document.write_text("Plan size drops from 0ms to 0ms, a 0x faster reduction.\n", encoding="utf-8")
    place = internal_error_place("lint", document)
    assert place is None, place


@pytest.mark.xfail(strict=True, reason="studygen/lint/document.py bounds(): min() of an empty sequence")
def test_table_column_of_spreads_only(tmp_path):
    document = tmp_path / "spreads.md"
    document.write_text(
        "### \n\nDifferences below 19346.64 to 13284.2753 MiB are noise, measured over 6911.667x faster repeats.\n\n"
        "### \n\n| Notes | Plan MiB |\n|---|---|\n| 19346.6377 ± 12735.18 ms | 13066.4521 ± 15560.2 ms |\n"
        "| 19346.64 to 13284.2753 MiB |  |\n| - | 19346.64 ± 0 ms | 2608.6388% |\n", encoding="utf-8")
    place = internal_error_place("lint", document)
    assert place is None, place


def test_known_internal_errors_are_pinned_here():
    assert KNOWN_INTERNAL_ERRORS == {
        ("ZeroDivisionError", "studygen/lint/sg103_derived_figures.py", "<lambda>"),
        ("ValueError", "studygen/lint/document.py", "bounds"),
    }
