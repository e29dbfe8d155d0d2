"""A latency result states one figure (``value_ms``) as a named statistic
beside every statistic of its timings (``statistics_ms``): a hand-edited
figure that is no longer the statistic it names, or that lies outside the
timings' [min, max], is refused at the figure's pointer and line. Before,
such a record loaded and its edited figure was rendered. The figures here
are invented; each refusal is one edited field."""

from __future__ import annotations

import json

import pytest

from studygen.errors import RecordError
from studygen.records.load import load_record
from studygen.records.order import stated_value_disagreement
from tests.checks.studies import latency, record

STATS = {"min": 0.412207, "max": 0.587341, "mean": 0.439912, "median": 0.431846, "p90": 0.452118, "p99": 0.531774}


def written(tmp_path, value_ms: float = 0.431846, **fields) -> tuple:
    """``(path, text)`` of a record whose second result states ``value_ms``
    beside STATS (the first result, without statistics, shifts the pointer)."""
    result = latency("fp16", value_ms, statistics_ms=dict(STATS), **fields)
    text = json.dumps(record("job", [latency("fp32", 0.9), result]), indent=2) + "\n"
    path = tmp_path / "job.json"
    path.write_text(text)
    return path, text


def line_of_value(text: str, value_ms: float) -> int:
    """The 1-based line of the second result's ``value_ms`` (its figure is unique in the text)."""
    lines = [n for n, line in enumerate(text.splitlines(), 1) if f'"value_ms": {value_ms!r}' in line]
    assert len(lines) == 1, lines
    return lines[0]


def refusal(tmp_path, value_ms: float, **fields) -> tuple[str, int]:
    path, text = written(tmp_path, value_ms, **fields)
    with pytest.raises(RecordError) as caught:
        load_record(path, "job.json")
    assert caught.value.place.pointer == "/results/1/value_ms"
    assert caught.value.place.line == line_of_value(text, value_ms)
    return str(caught.value), caught.value.place.line


def test_the_stated_median_equal_to_its_statistic_loads(tmp_path):
    path, _ = written(tmp_path)
    assert load_record(path, "job.json").results[1]["value_ms"] == 0.431846


def test_an_edited_median_is_refused_at_its_figure(tmp_path):
    # one digit of the median changed by hand, statistics_ms left as measured
    text, line = refusal(tmp_path, 0.481846)
    assert text == (f"job.json:{line}: value_ms 0.481846 ms disagrees with statistics_ms median 0.431846 ms, "
                    "the statistic it states (the record was edited?) (/results/1/value_ms)")


def test_a_difference_past_six_significant_digits_is_refused(tmp_path):
    # exact comparison: collectors write both from one rounding, so the seventh digit counts too
    text, _ = refusal(tmp_path, 0.4318461)
    assert "value_ms 0.4318461 ms disagrees with statistics_ms median 0.431846 ms" in text


def test_a_stated_p90_is_compared_with_the_p90(tmp_path):
    text, _ = refusal(tmp_path, 0.431846, statistic="p90")
    assert "value_ms 0.431846 ms disagrees with statistics_ms p90 0.452118 ms" in text
    path, _ = written(tmp_path, 0.452118, statistic="p90")
    assert load_record(path, "job.json").results[1]["statistic"] == "p90"


def test_a_figure_below_the_min_is_refused_whatever_the_statistic(tmp_path):
    text, line = refusal(tmp_path, 0.401207, statistic="unspecified")
    assert text == (f"job.json:{line}: value_ms 0.401207 ms is below statistics_ms min 0.412207 ms "
                    "(the record was edited?) (/results/1/value_ms)")


def test_a_figure_above_the_max_is_refused_where_the_statistics_lack_the_statistic(tmp_path):
    # p95 is not among STATS: nothing to compare, but the range still holds
    text, _ = refusal(tmp_path, 0.6, statistic="p95")
    assert "value_ms 0.6 ms is above statistics_ms max 0.587341 ms" in text


def test_an_unspecified_statistic_inside_the_range_loads(tmp_path):
    path, _ = written(tmp_path, 0.5, statistic="unspecified")
    assert load_record(path, "job.json").results[1]["value_ms"] == 0.5


def test_a_compiled_cell_states_the_median_of_its_compilations_not_of_its_pooled_statistics():
    # the schema: a compiled cell's value_ms is the median of its compilations' medians; the range still holds
    compiled = latency("fp16", 0.4401, statistics_ms=dict(STATS), mode="compile",
                       compilations=[{"compilation": 1, "median_ms": 0.4401, "repeat_medians_ms": [0.4401]}])
    assert stated_value_disagreement(compiled) is None
    assert stated_value_disagreement(dict(compiled, value_ms=0.6)) == (
        "value_ms", "value_ms 0.6 ms is above statistics_ms max 0.587341 ms")


def test_results_without_statistics_or_of_other_kinds_have_nothing_to_compare():
    assert stated_value_disagreement(latency("fp16", 9.0)) is None
    assert stated_value_disagreement({"kind": "coco_ap", "statistic": "AP", "value": 0.4,
                                      "statistics_ms": {"min": 1.0}}) is None
