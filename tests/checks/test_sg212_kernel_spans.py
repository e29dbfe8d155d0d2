"""SG212 in the study file's prose: a comparison of two kernel times whose
figures span different things. A Kineto trace read without profiler steps
gives totals over the whole trace (every kernel it holds, warm-up and all);
one with steps gives the mean per step. A new user's study set an A100
whole-trace total (10.69 ms) against a V100 mean per step (93.6 ms) as "8.8x
faster", and check said nothing: prose_timings read latencies only. The
records here are made up: job trace-a (fp32) a whole trace of 8.430 ms,
job steps-b (fp16) two steps of 2.805 and 2.815 ms, their mean 2.810 ms;
8.430 / 2.810 = 3.0, so the ratio itself is right and only the spans differ."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from studygen.checks import CheckContext, sg212_incomparable
from studygen.findings import ERROR
from studygen.records.profile_spread import ITERATION_SPAN, WHOLE_TRACE_SPAN, kernel_span

from .studies import FAMILY, collected_provenance, kernel_time, load, record, spec

KINETO = "torch.profiler (Kineto trace; GPU kernel events, dur in \u00b5s)"
PROVENANCE = collected_provenance("NVIDIA A100-SXM4-40GB", tensorrt=None)


def _torch(variant: str, groups: dict[str, float], total: float, **extra) -> dict:
    return kernel_time(variant, groups, total=total, backend="pytorch", mode="eager", profiler=KINETO, **extra)


WHOLE = _torch("fp32", {"GEMM/MatMul": 6.120, "other": 2.310}, 8.430)
STEPS = _torch("fp16", {"GEMM/MatMul": 2.040, "other": 0.770}, 2.810, per_iteration=[
    {"label": "ProfilerStep#3", "profiled_total_ms": 2.805}, {"label": "ProfilerStep#4", "profiled_total_ms": 2.815}])
RECORDS = [record("trace-a", [WHOLE], PROVENANCE), record("steps-b", [STEPS], PROVENANCE)]
CROSSED = "fp16 is 3.0x faster than fp32 in kernel time (2.810 ms against 8.430 ms)."


def _findings(tmp_path, *sentences):
    summary = " ".join(("fp16 is not shipped yet.", *sentences))
    study = load(tmp_path, records=RECORDS, study=spec(decision={"shipped": False, "summary": summary}))
    return [f for f in sg212_incomparable.check(CheckContext(study)) if f.file.endswith("study.yaml")]


def test_the_span_of_a_trace_without_steps_is_its_whole_trace():
    measured_on_a_gpu = SimpleNamespace(provenance=PROVENANCE)
    assert [kernel_span(measured_on_a_gpu, result) for result in (WHOLE, STEPS)] == [WHOLE_TRACE_SPAN, ITERATION_SPAN]


def test_a_ratio_of_a_whole_trace_and_a_step_mean_is_reported(tmp_path):
    (finding,) = _findings(tmp_path, CROSSED)
    assert (finding.code, finding.severity, finding.pointer) == ("SG212", ERROR, "/decision/summary")
    assert finding.file == f"families/{FAMILY}/study.yaml"
    assert finding.message == ("'3.0x' in /decision/summary compares kernel times that span different things: "
                               "2.810 ms (fp16, job steps-b): a mean per profiled iteration; 8.430 ms (fp32, job "
                               "trace-a): a total over the whole trace")


@pytest.mark.parametrize("sentence", [
    # the sentence says what each side spans
    "fp16 takes 2.810 ms per step against 8.430 ms over the whole fp32 trace.",
    # one profile on both sides: one span
    "GEMM/MatMul takes 6.120 ms against 8.430 ms in all for fp32.",
])
def test_a_comparison_that_names_the_spans_or_has_one_stays_quiet(tmp_path, sentence):
    assert _findings(tmp_path, sentence) == []


def test_a_percentage_of_the_other_sides_time_is_a_comparison_too(tmp_path):
    # a new user's trial (session 26): "0.3072 ms, about 3% of the A100's 10.69 ms" set a step's mean against a whole
    # trace's total, and neither SG212 nor SG103 read the share: "N% of the X's" took no operands. 2.810 / 8.430 =
    # 33.3 %, so the share is right and only the spans differ
    (finding,) = _findings(tmp_path, "The fp16 step's kernel time is 2.810 ms, about 33% of the fp32 trace's 8.430 ms.")
    assert finding.message == ("'33%' in /decision/summary compares kernel times that span different things: "
                               "2.810 ms (fp16, job steps-b): a mean per profiled iteration; 8.430 ms (fp32, job "
                               "trace-a): a total over the whole trace")
    # near misses: one profile's part and whole; a percentage of a count, not of the other figure's side
    assert _findings(tmp_path / "a", "GEMM/MatMul takes 6.120 ms, 73% of the fp32 trace's 8.430 ms.") == []
    assert _findings(tmp_path / "b", "fp16 takes 2.810 ms on 40% of the 12 images.") == []
