"""SG208 precision inversion (warning): a lower-precision variant that is
slower than a higher-precision one at the same shape, batch, GPU, software
and timing method, in one job wherever a job measured both variants (rows
of two jobs only where none did). Render lists each under side findings by
itself.

The pairs are :func:`studygen.study.analyses.precision_inversions`, the ones
the README's side findings list: each run is judged by the timing of its GPU
work (:func:`studygen.study.timing.compute_rows`: GPU compute time where the
run gives it). The message names the batch and the timing, so that two
findings of one shape (batch 1 and batch 8) never read alike.

Case (seed): at 800 x 1067 the fp16 engine is slower than the fp32 engine
(B200 14.747 vs 13.99 ms, B300 14.487 vs 13.62 ms).

Case (a user's GPU trial): job b's FP8 (5.5 ms) was reported slower than job
a's fp16 (5.0 ms), while job a's own FP8 took 4.0 ms: a pair of two jobs
mixes the precision with the run, so where one job measured both variants
only its own rows are paired.

Case (new-user trial, trtexec logs of three GPUs): int8 0.0130 ms slower than
fp16 0.0113 ms was a device-to-host copy, one of 23 warnings on the five
timings trtexec prints per run, while the README judged GPU compute time only.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import format_number
from ..study.analyses import precision_inversions
from ..study.timing import batch_words, timing_words
from .base import row_finding


# pairs of one configuration and two variants reported one by one; the rest make one finding. Where no job measured
# both variants, every slower row of one pairs with every faster row of the other: 400 jobs of each made 160,000
# findings (5 s, 300 MB), 2,000 of each would make 4,000,000.
MAX_LISTED = 10


def check(context) -> list[Finding]:
    study = context.study
    groups: dict[tuple, list] = {}
    for low, high in precision_inversions(study):
        where = (f"{low.gpu or 'GPU not stated'}, {low.software or 'versions not stated'}, {low.shape or 'shape not stated'}, "
                 f"{batch_words(low)}, {timing_words(low)}")
        groups.setdefault((where, low.variant, high.variant), []).append((low, high))
    findings = []
    for (where, low_variant, high_variant), pairs in groups.items():
        for low, high in pairs[:MAX_LISTED]:
            findings.append(row_finding(
                "SG208", low,
                f"{low.variant} ({format_number(low.value)} ms, job {low.job_id}) is slower than "
                f"{high.variant} ({format_number(high.value)} ms, job {high.job_id}) on {where}", hint=HINT))
        rest = pairs[MAX_LISTED:]
        if rest:
            lows = list({id(low): low for low, _ in rest}.values())
            highs = list({id(high): high for _, high in rest}.values())
            findings.append(row_finding(
                "SG208", rest[0][0],
                f"{low_variant} is slower than {high_variant} in {len(rest)} more pairs of rows on {where}, not "
                f"listed one by one: {low_variant} {_span(lows)} ({len(lows)} rows) against {high_variant} "
                f"{_span(highs)} ({len(highs)} rows)",
                hint=HINT))
    return findings


HINT = "render lists it under side findings; explain it if it is expected"


def _span(rows) -> str:
    """``4.0 ms`` or ``3.96 to 4.0 ms``: the least and the most of ``rows``' figures."""
    low, high = format_number(min(r.value for r in rows)), format_number(max(r.value for r in rows))
    return f"{low} ms" if low == high else f"{low} to {high} ms"
