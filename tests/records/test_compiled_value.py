"""A compiled latency (``compilations``) states as its figure the median of
its compilations' medians, rounded to 6 decimals as ``collect run`` writes
it. The README's compiled cell prints that median, while SG203, ``diff`` and
the side findings read ``value_ms``; a record edited in one of them (made-up
figures: ``value_ms`` 9.0 beside compilations of 3.0 and 4.0 ms) loaded, and
its README cell said 3.5 ms where its inversion said 9.0. It is now refused
at the figure, as other figures that contradict each other are."""

from __future__ import annotations

import json

import pytest

from studygen.errors import RecordError
from studygen.records.load import load_record
from studygen.records.order import compiled_value_disagreement
from tests.render.test_host_bound_cells import torch_latency
from tests.checks.studies import record


def test_a_figure_other_than_its_compilations_median_is_refused_at_its_line(tmp_path):
    result = torch_latency("fp16", "compile", 9.0, 1.0, [3.0, 4.0])
    text = json.dumps(record("job", [result]), indent=2) + "\n"
    (tmp_path / "job.json").write_text(text)
    with pytest.raises(RecordError) as caught:
        load_record(tmp_path / "job.json", "job.json")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if '"value_ms": 9.0' in row)
    assert str(caught.value) == (f"job.json:{line}: value_ms 9.0 ms is not the median of its 2 compilations' "
                                 "medians, 3.5 ms (the record was edited?) (/results/0/value_ms)")


@pytest.mark.parametrize("value_ms, medians, refused", [
    (3.5, [3.0, 4.0], False),  # the median of two: their mean
    (3.4, [3.0, 4.0, 3.4], False),
    (1.1111115, [1.111111, 1.111112], False),  # the median itself, unrounded
    (1.111112, [1.111111, 1.111112], False),  # the median 1.1111115 rounded to 6 decimals
    (1.111113, [1.111111, 1.111112], True),  # 0.0000015 off: more than rounding
    (4.0, [4.0], False),
    (4.000001, [4.0], True),
])
def test_the_figure_is_held_to_the_median_at_six_decimals(value_ms, medians, refused):
    result = torch_latency("fp16", "compile", value_ms, 1.0, medians)
    assert (compiled_value_disagreement(result) is not None) is refused


def test_eager_results_and_other_statistics_are_not_held_to_compilations():
    eager = torch_latency("fp16", "eager", 9.0, 1.0)
    assert compiled_value_disagreement(eager) is None
    mean = dict(torch_latency("fp16", "compile", 9.0, 1.0, [3.0, 4.0]), statistic="mean")
    assert compiled_value_disagreement(mean) is None
