"""SG215 FP8 latency without real-FP8 evidence: a latency result of an FP8
variant (study file ``precision: fp8``) must carry ``fp8_evidence``: the FP8
GEMM kernels the profile shows, each with a name and a time above 0 ms, and
no fake-quantization kernels (``fake_quant_kernels`` 0 or absent).

Why: ModelOpt's ``mtq.quantize`` alone simulates FP8 in higher precision; its
time is not FP8 time (issue 6). A transcribed figure has no kernel names to
show, so it is reported too: the study file may waive it with a reason, and
the README then lists the figure as unverified under its known gaps.

One finding per FP8 run (:func:`studygen.study.timing.run_of`: one job,
variant, shape and batch, timed one way), not per timing: trtexec prints
five timings of one run, and the evidence is a profile of the run. It sits
on the run's compute timing (:func:`studygen.study.timing.compute_rows`) and
names the run's batch and timings.

Case (seed and issue 6): the seed's FP8 TensorRT latencies come without
kernel names; on the GPU machine a whole-model "FP8" run still showed
``fake_e4m3fy`` kernels in its profile.

Case (new-user trial): 8 FP8 trtexec logs gave 40 errors, one per timing,
and "FP8 latency 0.21 ms of fp8 at 1280x1280" read alike for batch 1 and 8.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..records.kinds import Kind
from ..study.rows import Row
from ..study.timing import batch_words, compute_rows, run_of, timing_words
from .base import row_finding


HINT = ("profile the FP8 run and record its FP8 GEMM kernels (fp8_evidence: collect run profiles its forwards; "
        "collect trtexec reads --profile, or the log's --dumpProfile table, with a --layer-info exported with "
        "--profilingVerbosity=detailed), or do not report FP8 latency")


def evidence_problem(result: dict) -> str | None:
    """Why ``result``'s fp8_evidence does not show real FP8 GEMMs, or None when it does.
    An empty ``kernels`` list with a ``source`` is a profile that was read and
    showed no FP8 GEMM (``collect trtexec``), told apart from no profile at all."""
    evidence = result.get("fp8_evidence")
    if not evidence:
        return "no fp8_evidence (FP8 GEMM kernel names and times from a profile)"
    kernels = [k for k in evidence.get("kernels", []) if k.get("name", "").strip() and k.get("time_ms", 0) > 0]
    if not kernels and evidence.get("source") and evidence.get("kernels") == []:
        return no_fp8_ran(evidence)
    if not kernels:
        return "fp8_evidence lists no FP8 kernel with a name and a time above 0 ms"
    if evidence.get("fake_quant_kernels"):
        return f"the profile still shows {evidence['fake_quant_kernels']} fake-quantization kernel(s)"
    return None


def no_fp8_ran(evidence: dict) -> str:
    """The words for a profile read that showed no FP8 GEMM: how many GEMM
    and convolution layers it timed, the Myelin layers whose kernels it
    could not name, and where it was read."""
    seen = f"none of its {evidence['gemm_layers']} GEMM/convolution layer(s) ran an FP8 kernel" \
        if "gemm_layers" in evidence else "no FP8 GEMM kernel ran"
    if evidence.get("opaque_layers"):
        seen += f" ({evidence['opaque_layers']} Myelin layer(s) do not name their kernels)"
    return f"profiled, and {seen} ({evidence['source']})"


def run_problem(rows: list[Row]) -> str | None:
    """Why the latency rows of one FP8 run (:func:`studygen.study.timing.run_of`)
    are not shown to be FP8 GEMM time, or None when they are. The evidence is
    a profile of the run, so it covers every timing of it wherever the record
    keeps it; of several results carrying evidence, each must pass (a profile
    showing fake quantization is not outweighed by another)."""
    carriers = [row for row in rows if row.result.get("fp8_evidence")]
    if not carriers:
        return evidence_problem({})
    return next((p for p in (evidence_problem(row.result) for row in carriers) if p), None)


def fp8_runs(study) -> list[list[Row]]:
    """The FP8 latency rows with a value, one list per run (in the order first
    met), its rows in row order."""
    runs: dict[tuple, list[Row]] = {}
    for row in study.rows:
        if row.kind == Kind.LATENCY and row.precision == "fp8" and row.value is not None:
            runs.setdefault(run_of(row), []).append(row)
    return list(runs.values())


def check(context) -> list[Finding]:
    study = context.study
    findings = []
    for rows in fp8_runs(study):
        problem = run_problem(rows)
        if not problem:
            continue
        # placed at the run's compute timing (what the README's tables show), else its first figure
        shown = (compute_rows(rows) or rows)[0]
        others = [timing_words(row) for row in rows if row is not shown]
        also = f"; also the run's {', '.join(others)}" if others else ""
        shape = f" at {shown.shape}" if shown.shape else ""
        findings.append(row_finding(
            "SG215", shown,
            f"FP8 latency {format_number(shown.value)} ms ({timing_words(shown)}{also}) of {shown.variant}{shape}, "
            f"{batch_words(shown)} in job {shown.job_id} "
            f"({shown.gpu or 'GPU not stated'}, {shown.software or 'versions not stated'}): {problem}",
            hint=HINT))
    return findings
