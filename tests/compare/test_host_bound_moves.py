"""studygen diff on a host-bound latency (studygen.study.host_bound): a re-run
is another process at the host's pace, which one job's repeats do not bound.

Case (a new user's tiny ResNet on an H100, eager, batch 1, timed again in a
second process): bf16 at 320 x 320 moved 3.6 to 4.0 ms while its kernels
took 0.27 ms and the host about the whole median to issue each forward;
diff held the move to the 0.24 ms its five repeats spread in the first
process and failed the pull request. Figures below are made up.
"""

from __future__ import annotations

import pytest

from studygen.compare.figures import BEYOND, HOST_BOUND, WITHIN, figure_changes
from studygen.compare.report import figure_line, spread_text
from tests.checks.studies import collected_provenance, load, record, spec
from tests.render.test_host_bound_cells import kernels, torch_latency

ONE = spec(variants=[{"name": "fp16", "precision": "fp16"}], recipes={})
H100 = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)


def revision(folder, job_results: dict, **study):
    return load(folder, records=[record(job, results, H100) for job, results in job_results.items()],
                study={**ONE, **study})


def latency_change(base, head):
    changes = [c for c in figure_changes(base, head)[0] if "CUDA-event" in c.what]
    assert len(changes) == 1, [(c.what, c.verdict) for c in changes]
    return changes[0]


def test_a_host_bound_move_past_its_repeats_is_not_judged_without_a_bound_between_jobs(tmp_path):
    # base 3.50 ms (repeats 3.48 to 3.52: 0.04 ms), issued in 3.45 ms (99 %), kernels 0.30 ms; the re-run 3.90 ms
    base = revision(tmp_path / "base", {"r1": [torch_latency("fp16", "eager", 3.5, 3.45), kernels("fp16", "eager", 0.3)]})
    head = revision(tmp_path / "head", {"r1": [torch_latency("fp16", "eager", 3.9, 3.86), kernels("fp16", "eager", 0.3)]})
    change = latency_change(base, head)
    assert change.verdict == HOST_BOUND
    assert change.delta == pytest.approx(0.4)
    assert figure_line(change) == ("fp16 median CUDA-event time per forward, 224 x 224, eager, H100 80GB HBM3: "
                                   "3.5 ms -> 3.9 ms (+0.4 ms, +11.43 %); host-bound, so no spread between jobs or "
                                   "tolerance in base to hold a re-run to")
    assert spread_text(change).startswith("0.04 ms spread of 3 repeat medians in base")


def test_a_host_bound_move_is_held_to_a_declared_bound_between_jobs(tmp_path):
    # the study declares independent jobs differ by up to 15 %: 15 % of 3.50 is 0.525 ms; 3.90 is within, 4.10 beyond
    declared = {"spread_sources": [{"source": "job", "reason": "eager re-runs at the host's pace", "up_to_percent": 15}]}
    base = revision(tmp_path / "base", {"r1": [torch_latency("fp16", "eager", 3.5, 3.45), kernels("fp16", "eager", 0.3)]},
                    **declared)
    for new, verdict in ((3.9, WITHIN), (4.1, BEYOND)):
        head = revision(tmp_path / str(new), {"r1": [torch_latency("fp16", "eager", new, new - 0.04),
                                                    kernels("fp16", "eager", 0.3)]}, **declared)
        change = latency_change(base, head)
        assert change.verdict == verdict
        assert change.spread.width == pytest.approx(0.525)


def test_a_gpu_bound_move_is_still_held_to_its_repeats(tmp_path):
    # the same move with the host issuing each forward in 1.2 ms (34 % of the median): the GPU's pace, beyond 0.04 ms
    base = revision(tmp_path / "base", {"r1": [torch_latency("fp16", "eager", 3.5, 1.2), kernels("fp16", "eager", 3.3)]})
    head = revision(tmp_path / "head", {"r1": [torch_latency("fp16", "eager", 3.9, 1.2), kernels("fp16", "eager", 3.7)]})
    change = latency_change(base, head)
    assert change.verdict == BEYOND and change.spread.source == "repeat medians"


def test_host_bound_at_head_alone_is_enough(tmp_path):
    # base GPU-bound (issue 2.0 of 3.5 ms), the re-run host-bound (issue 3.88 of 3.9 ms): the head times the host
    base = revision(tmp_path / "base", {"r1": [torch_latency("fp16", "eager", 3.5, 2.0), kernels("fp16", "eager", 0.3)]})
    head = revision(tmp_path / "head", {"r1": [torch_latency("fp16", "eager", 3.9, 3.88), kernels("fp16", "eager", 0.3)]})
    assert latency_change(base, head).verdict == HOST_BOUND


def test_a_spread_whose_ends_print_alike_at_the_lines_digits_takes_the_digits_that_tell_them_apart():
    # repeats 3.48 and 3.52 at a line of one decimal printed "0.0 ms spread of 3 repeat medians in base (3.5 to 3.5
    # ms)": a zero spread between two equal figures, beside a move called beyond it
    from studygen.compare.allowance import Allowance
    from studygen.numbers import SourceFloat

    spread = Allowance(0.04, "repeat medians", "base", 3, SourceFloat("3.48"), SourceFloat("3.52"))
    assert spread.words("ms", 1) == "0.04 ms spread of 3 repeat medians in base (3.48 to 3.52 ms)"
    # ends that differ at the line's digits keep them; ends carrying fewer digits are never padded
    assert Allowance(0.3, "repeat medians", "base", 3, SourceFloat("9.9"), SourceFloat("10.2")).words("ms", 3) == \
        "0.3 ms spread of 3 repeat medians in base (9.9 to 10.2 ms)"
    assert Allowance(0.12, "repeat medians", "base", 2, SourceFloat("3.41"), SourceFloat("3.53")).words("ms", 1) == \
        "0.1 ms spread of 2 repeat medians in base (3.4 to 3.5 ms)"


def test_a_spread_takes_one_more_digit_at_a_time_and_keeps_its_sources_without_a_line_precision():
    from studygen.compare.allowance import Allowance
    from studygen.numbers import SourceFloat

    # 3.481 and 3.522 at a line of one decimal: two decimals tell them apart (3.48 to 3.52), a third is not needed
    spread = Allowance(0.041, "profiled iterations", "base", 5, SourceFloat("3.481"), SourceFloat("3.522"))
    assert spread.words("ms", 1) == "0.04 ms spread of 5 profiled iterations in base (3.48 to 3.52 ms)"
    # no line precision: each end as its source printed it, the width their exact difference
    assert spread.words("ms", None) == "0.041 ms spread of 5 profiled iterations in base (3.481 to 3.522 ms)"
    # computed ends (no source digits): at the line's digits
    assert Allowance(0.25, "jobs", "base", 2, 9.75, 10.0).words("ms", 2) == \
        "0.25 ms spread of 2 jobs in base (9.75 to 10.00 ms)"
