"""studygen diff prints a figure's old value, new value and change with one set of digits, and a spread's ends
with their sources'.

Toy studies of tests/checks/studies.py at two revisions, with invented figures; each expected line is worked out
by hand in the comment above it.
"""

from __future__ import annotations

import json

import pytest

from studygen.compare import Revision, compare_family
from studygen.compare.report import Report, format_text
from studygen.compare.report_json import format_json
from tests.checks.studies import latency, load, record, spec


def _lines(tmp_path, base_records, head_records, **study) -> tuple[list[str], dict]:
    base = load(tmp_path / "base", records=base_records, study=spec(**study))
    head = load(tmp_path / "head", records=head_records, study=spec(**study))
    report = Report("a", "b", [compare_family("toy", "families/toy/README.md", Revision(base, (), None),
                                              Revision(head, (), None))])
    return format_text(report).splitlines(), json.loads(format_json(report))["families"][0]["figures"]


def test_a_change_the_study_precision_rounds_away_prints_with_its_values(tmp_path):
    # precision latency_ms 1: 5.12 -> 5.14 ms printed "5.1 ms -> 5.1 ms (0.0 ms, +0.39 %)", a change of nothing
    # between equal values beside a relative change; 5.14 - 5.12 = 0.02 needs the second decimal on all three
    lines, figures = _lines(tmp_path, [record("a", [latency("fp16", 5.12)])], [record("a", [latency("fp16", 5.14)])],
                            precision={"latency_ms": 1})
    assert lines[2].startswith("  beyond spread: fp16 median GPU compute time, 800 x 800, engine, H200: 5.12 ms -> 5.14 ms "
                               "(+0.02 ms, +0.39 %); more than timer resolution 0.00025 ms")
    assert (figures[0]["old"], figures[0]["new"]) == (["5.12"], ["5.14"])


def test_a_change_and_its_spread_read_as_the_values_beside_them(tmp_path):
    # 14.616 -> 14.233 ms, whose repeats (14.1 to 15.3, 13.9 to 15.0) leave them 15 and 14 alone: the line read
    # "15 ms -> 14 ms (-0.383 ms, -2.62 %)", and the base's spread "1.200 ms ... (14.100 to 15.300 ms)". One decimal
    # gives 14.6 - 14.2 = 0.4, the 0.383 rounded; the repeats carry one decimal, 15.3 - 14.1 = 1.2
    lines, figures = _lines(tmp_path, [record("a", [latency("fp16", 14.616, repeats=[14.1, 14.616, 15.3])])],
                            [record("a", [latency("fp16", 14.233, repeats=[13.9, 14.233, 15.0])])])
    assert lines[2].startswith("  within spread: fp16 median GPU compute time, 800 x 800, engine, H200: 14.6 ms -> 14.2 ms "
                               "(-0.4 ms, -2.62 %); within 1.2 ms spread of 3 repeat medians in base (14.1 to 15.3 ms) [")
    assert (figures[0]["old"], figures[0]["new"], figures[0]["delta"]) == (["14.6"], ["14.2"], pytest.approx(-0.383))


def test_every_value_of_the_line_takes_the_digits_of_the_move(tmp_path):
    # jobs a and b, precision 1: a moved 5.12 -> 5.14 (b stays 5.3). The move prints at two decimals; b's 5.3
    # carries one and stays 5.3, never padded to 5.30; the base's jobs 5.12 and 5.3 lie 0.18 apart
    lines, _ = _lines(tmp_path, [record("a", [latency("fp16", 5.12)]), record("b", [latency("fp16", 5.3)])],
                      [record("a", [latency("fp16", 5.14)]), record("b", [latency("fp16", 5.3)])],
                      precision={"latency_ms": 1})
    assert lines[2].startswith("  within spread: fp16 median GPU compute time, 800 x 800, engine, H200: 5.12, 5.3 ms "
                               "(jobs a, b) -> 5.14, 5.3 ms (jobs a, b) (+0.02 ms, +0.39 %, job a moved most); "
                               "within 0.18 ms spread of 2 jobs in base (5.12 to 5.3 ms)")
