"""Issue 22 ("6–7 digit latencies (0.0361328 ms)"): a collected time or size
prints the digits its own spread supports, else 4 significant digits, never
more than its source carries; a study file's ``precision:`` overrides; a
figure transcribed from a publication prints as published; a kernel group
summed from listed kernel times carries its least precise addend's digits;
a spread between jobs prints no finer than the figures beside it. The
record keeps every digit. Expected figures below are rounded by hand."""

from __future__ import annotations

import json

import pytest

from studygen import numbers
from studygen.numbers import SourceFloat, format_number, kept_significant, readable_decimals, source_decimals

from ..checks.studies import collected_provenance, kernel_time, latency, load, record, spec
from .test_tables import cells
from .views import printed, view_of


def shown(value_text: str, carried: int | None, spread: float | None = None) -> str:
    """``value_text`` as the README prints it under :func:`readable_decimals`."""
    value = SourceFloat(value_text)
    return format_number(value, readable_decimals(value, carried, spread))


@pytest.mark.parametrize("text, decimals", [
    ("5.850", 3), ("83.0", 1), ("0.0468854", 7), ("1.5e-05", 6), ("2E+3", 0), ("12", 0), ("NaN", None)])
def test_a_figure_carries_the_digits_its_source_printed_read_once(text, decimals, monkeypatch):
    # a kernel time is asked for its group's row and again for the profiled total's: its text is read once
    value = SourceFloat(text)
    assert source_decimals(value) == decimals  # plain digits are counted; a text with an exponent keeps a memo
    monkeypatch.setattr(numbers, "Decimal", None)  # a second reading of the text would fail
    assert source_decimals(value) == decimals
    assert (source_decimals(7), source_decimals(True), source_decimals(5.85)) == (0, None, None)  # int, bool, computed


@pytest.mark.parametrize("text, carried, expected", [
    ("0.0361328", 7, "0.03613"),     # trtexec: 37/1024 ms, six significant digits
    ("0.154663", 6, "0.1547"),
    ("91.6031", 4, "91.60"),         # a kept trailing zero is a digit: 4 significant digits
    ("12345.6", 1, "12346"),         # whole units are never rounded away
    ("16.2", 1, "16.2"),             # never more digits than the source printed (not 16.20)
    ("0.000999", 6, "0.000999"),
    ("99.95", 2, "99.95"),
    ("0.00099996", 8, "0.001000"),   # rounds up across a power of ten: still 4 significant digits
    ("99.996", 3, "100.0"),
    ("9.99951", 5, "10.00"),
])
def test_four_significant_digits_where_no_spread_is_known(text, carried, expected):
    assert shown(text, carried) == expected


@pytest.mark.parametrize("text, carried, spread, expected", [
    ("2.03601", 5, 0.0102, "2.04"),      # the spread moves the second decimal: the last digit printed
    ("2.03601", 5, 0.00098, "2.0360"),   # a tighter spread supports one more digit than 4 significant
    ("0.0361328", 7, 0.0023, "0.036"),
    ("137.4", 1, 2.0, "137"),
    ("2.3", 1, 1.5, "2.3"),              # at least two significant digits: never a bare "2"
    ("0.0361328", 7, 0.5, "0.036"),
    ("5.85", 2, 0.0001, "5.85"),         # the source's digits cap what a tight spread allows
    ("10.31", 2, 10.36 - 10.26, "10.3"),  # a width of 0.0999...96 in floats is a spread of 0.1
])
def test_a_spread_sets_the_last_printed_digit(text, carried, spread, expected):
    assert shown(text, carried, spread) == expected


def test_a_computed_value_or_zero_keeps_what_it_had():
    assert readable_decimals(0.0, 3) == 3 and readable_decimals(float("inf"), None) is None
    assert readable_decimals(1 / 3, None) == 4  # a computed value has no cap of its own


def transcribed_provenance() -> dict:
    """A record transcribing a publication: a citation instead of a collector."""
    provenance = collected_provenance(collected_at=None, source={"citation": "a toy publication's results table"})
    del provenance["collector"]
    return provenance


def _view(tmp_path, results, provenance=None, **overrides):
    from studygen.render.view import StudyView
    return StudyView(load(tmp_path, records=[record("job", results, provenance)], study=spec(**overrides)))


def test_the_walked_trtexec_median_prints_four_significant_digits(tmp_path):
    study = _view(tmp_path, [latency("fp16", 0.0361328), latency("fp8", 0.0388184)])
    assert study.one(variant="fp16").number() == "0.03613"
    assert str(study.one(variant="fp8")) == "0.03882 ms"
    # the record keeps every digit the log printed
    data = json.loads((tmp_path / "measurements/toy/job.json").read_text())
    assert data["results"][0]["value_ms"] == 0.0361328


def test_a_latency_with_repeat_medians_prints_to_its_spread(tmp_path):
    # repeats 2.031 to 2.0412: the spread 0.0102 ms moves the second decimal
    study = _view(tmp_path, [latency("fp16", 2.03601, repeats=[2.031, 2.03601, 2.0412])])
    assert study.one(variant="fp16").number() == "2.04"


def test_the_study_files_precision_overrides_the_readable_digits(tmp_path):
    study = _view(tmp_path, [latency("fp16", 0.0361328), kernel_time("fp16", {"GEMM": 1.2823319}),
                             kernel_time("fp8", {"GEMM": 1.2823319})],
                  precision={"latency_ms": 6})
    assert study.one(variant="fp16", kind="latency").number() == "0.036133"
    # a kind the study file leaves unset takes the readable digits
    assert study.one(variant="fp16", group="GEMM").number() == "1.282"
    study = _view(tmp_path, [kernel_time("fp16", {"GEMM": 1.2823319})], precision={"kernel_ms": 2})
    assert study.one(variant="fp16", group="GEMM").number() == "1.28"


def test_a_study_precision_never_rounds_a_nonzero_figure_to_zero(tmp_path):
    # the generic property test (seed 41): precision latency_ms 1 printed 0.001 ms as "0.0" beside a
    # ratio of 9999.60x, which lint rightly read as 10.0 / 0.0
    study = _view(tmp_path, [latency("fp16", 0.001), latency("fp32", 10.0), latency("fp8", 0.0361328)],
                  precision={"latency_ms": 1})
    assert study.one(variant="fp16").number() == "0.001"  # two significant digits wanted, the source has one
    assert study.one(variant="fp32").number() == "10.0"  # the study's precision, where it keeps two digits
    assert study.one(variant="fp8").number() == "0.036"
    assert kept_significant(0.0012, 1, 4) == 4
    assert kept_significant(0.0012, 1, None) == 4
    assert kept_significant(0.0012, 1, 3) == 3  # never past the source's digits
    assert kept_significant(0.0012, 5, 4) == 5  # a precision finer than two digits is kept
    assert kept_significant(12.5, 1, 1) == 1
    assert kept_significant(0.0, 1, 3) == 1
    assert kept_significant(None, 2, 3) == 2


def test_a_transcribed_figure_prints_as_published(tmp_path):
    study = _view(tmp_path, [latency("fp16", 14.747)], transcribed_provenance())
    assert study.one(variant="fp16").number() == "14.747"


def test_a_kernel_group_sum_carries_its_least_precise_addend(tmp_path):
    # the collector sums listed kernel times: 1.5 + 0.0468854 = 1.5468854, of which only 1.5 is supported;
    # a group listing kernels of 6 decimals prints 4 significant digits (0.0468854 + 0.012672 = 0.0595574)
    result = kernel_time("fp16", {}, total=1.6064428)
    result["groups"] = [
        {"group": "GEMM", "time_ms": 1.5468854,
         "kernels": [{"name": "gemm a", "time_ms": 1.5}, {"name": "gemm b", "time_ms": 0.0468854}]},
        {"group": "reformat", "time_ms": 0.0595574,
         "kernels": [{"name": "reformat a", "time_ms": 0.0468854}, {"name": "reformat b", "time_ms": 0.012672}]}]
    study = _view(tmp_path, [result])
    assert study.one(group="GEMM").number() == "1.5"
    assert study.one(group="reformat").number() == "0.05956"
    assert study.one(group="total").number() == "1.6"  # the total: every listed kernel, least precise 1.5


def test_a_rows_addends_are_read_once(tmp_path, monkeypatch):
    """A kernel group's digits, asked again (a table cell, then a sentence), come from the row's memo.
    Failed before: each ask listed the record's kernel times and read their digits again (about 3,000
    readings to render deformable_detr_h200_torch, whose profiled totals sum every kernel)."""
    from studygen.study.rows import Row

    result = kernel_time("fp16", {}, total=0.0595574)
    result["groups"] = [{"group": "reformat", "time_ms": 0.0595574,
                         "kernels": [{"name": "a", "time_ms": 0.0468854}, {"name": "b", "time_ms": 0.012672}]}]
    study = _view(tmp_path, [result])
    listed = []
    real = Row._addends
    monkeypatch.setattr(Row, "_addends", lambda row: listed.append(row.pointer) or real(row))
    row = study.one(group="reformat")._row
    assert [row.carried_decimals(row.value) for _ in range(3)] == [6, 6, 6]  # 0.012672: 6 decimals
    assert row.carried_decimals(SourceFloat("0.05")) == 2  # another figure of the row: its own digits
    assert study.one(group="reformat").number() == "0.05956" and len(listed) == 1


def test_the_generic_table_prints_readable_digits(tmp_path):
    study = _view(tmp_path, [latency("fp16", 0.0361328), latency("fp8", 0.0388184)])
    table = cells(study.table(index=("gpu",), variants=["fp16", "fp8"], kind="latency", value_header="{label} (ms)"))
    assert table[1] == ["H200", "0.03613", "0.03882"]


def test_a_spread_between_jobs_prints_no_finer_than_its_figures(tmp_path):
    from studygen.render.view import StudyView
    study = StudyView(load(tmp_path, records=[record("a", [latency("fp16", 0.0439453)]),
                                              record("b", [latency("fp16", 0.0448242)])]))
    text, _ = printed(study.repeated_measurements)
    # 0.04395 and 0.04482 alone (5 decimals each) are 0.00087 apart, their spread 0.0008789 rounds to 0.00088:
    # the row takes one decimal more, figures and spread alike, and not the 7 the sources carry
    assert cells(text)[1][-2:] == ["a: 0.043945; b: 0.044824", "0.000879"]


def test_shipped_readmes_print_no_six_digit_latency():
    # the three public families' tables: trtexec's 6 significant digits are rounded to 4
    hackathon = view_of("hackathon_mnist_trtexec")
    assert hackathon.one(metric="gpu_compute", job_id="h100-trt10.16.1", variant="fp32").number() == "0.03882"


def test_a_copied_or_pickled_row_works_its_addends_out_as_the_original(tmp_path):
    """The memo's "not made yet" mark survives a copy and a pickle of a row made before the first ask.
    Failed before: the mark was a bare object(), so a copy carried a new one, which came back as the digits."""
    import copy
    import pickle

    result = kernel_time("fp16", {}, total=0.0595574)
    result["groups"] = [{"group": "reformat", "time_ms": 0.0595574,
                         "kernels": [{"name": "a", "time_ms": 0.0468854}, {"name": "b", "time_ms": 0.012672}]}]
    row = _view(tmp_path, [result]).one(group="reformat")._row
    copies = [copy.copy(row), copy.deepcopy(row), pickle.loads(pickle.dumps(row))]
    assert [twin.carried_decimals(twin.value) for twin in copies] == [6, 6, 6]  # 0.012672: 6 decimals
    assert row.carried_decimals(row.value) == 6
