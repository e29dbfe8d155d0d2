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


def check(context) -> list[Finding]:
    study = context.study
    findings = []
    for low, high in precision_inversions(study):
        where = (f"{low.gpu or 'GPU not stated'}, {low.software or 'versions not stated'}, {low.shape or 'shape not stated'}, "
                 f"{batch_words(low)}, {timing_words(low)}")
        findings.append(row_finding(
            "SG208", low,
            f"{low.variant} ({format_number(low.value)} ms, job {low.job_id}) is slower than "
            f"{high.variant} ({format_number(high.value)} ms, job {high.job_id}) on {where}",
            hint="render lists it under side findings; explain it if it is expected"))
    return findings
