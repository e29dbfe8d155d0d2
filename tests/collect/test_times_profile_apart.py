"""A ``collect trtexec`` of ``--times`` and ``--profile`` without their log: when the profile counts another number
of iterations than the times array holds, its layers were timed in a profiling pass of their own, and the latencies
record ``method.separate_profile_run: true`` with a provenance note saying how that was read.

Why: trtexec profiles every timed iteration unless ``--separateProfileRun`` is given (the TensorRT 7 Jetson GoogLeNet
files, profiled in the timed run: each profile's count equals its times array's length, 1520 and 1520 at batch 1).
fuzzylabs' AlexNet fp16 export (../shared/fixtures/public) holds 6039 timed iterations and a profile of
``{"count": 14590}``; the publisher's own summary of that run says ``Separate profiling: Enabled``. Its layers add up
to 0.52417137 ms (the 14 averageMs summed by hand), 5.8 % above the 0.495324 ms mean GPU compute time, which is the
profiler's per-layer synchronisation, by design. Recorded without the setting, SG210 warned that the profile was
"of the same run it should fit in" and told the user to collect with a log the publisher never gave (session 30's
new-user trial)."""

from __future__ import annotations

import json

from studygen.checks import CheckContext, sg210_kernel_coverage

from ..checks.studies import FAMILY, load
from ..conftest import FIXTURES

PUBLIC = FIXTURES / "public"
TIMES = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.timing.json"
PROFILE = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.profile.json"
OPTIONS = ("--variant", "fp16", "--shape", "224x224", "--batch", "1", "--gpu", "NVIDIA GeForce RTX 3060 Laptop GPU",
           "--software", "tensorrt=10.0.1")


def _times(count: int) -> list[dict]:
    """``count`` iterations of 1.0 ms GPU compute, data transfers off, 2 ms apart (TensorRT 8.2+ keys)."""
    rows, start = [], 0.0
    for _ in range(count):
        rows.append({"startEnqMs": start, "endEnqMs": start, "startH2dMs": start, "endH2dMs": start,
                     "startComputeMs": start, "endComputeMs": start + 1.0, "startD2hMs": start + 1.0,
                     "endD2hMs": start + 1.0, "h2dMs": 0, "computeMs": 1.0, "d2hMs": 0, "latencyMs": 1.0})
        start += 2.0
    return rows


def _profile(count: int) -> list[dict]:
    return [{"count": count}, {"name": "conv", "timeMs": 0.6 * count, "averageMs": 0.6, "percentage": 60.0},
            {"name": "fc", "timeMs": 0.5 * count, "averageMs": 0.5, "percentage": 40.0}]


def test_a_profile_counting_other_iterations_than_the_times_was_a_separate_profile_run(collect):
    done = collect("trtexec", *OPTIONS, "--times", TIMES, "--profile", PROFILE, family=FAMILY)
    assert done.exit_code == 0, done.err
    methods = [r["method"] for r in done.kind("latency")]
    assert [m["separate_profile_run"] for m in methods] == [True, True]  # host latency and GPU compute
    (kernel,) = done.kind("kernel_time")
    assert (kernel["iterations"], kernel["profiled_total_ms"]) == (14590, 0.52417137)
    assert ("fuzzylabs-6d8ac68a_alexnet_fp16.profile.json array 1 counts 14590 profiled iterations, "
            "fuzzylabs-6d8ac68a_alexnet_fp16.timing.json array 1 6039 timed ones: trtexec profiles every timed "
            "iteration unless --separateProfileRun is given, so the layers were timed in a profiling pass of their "
            "own (recorded as a separate profile run)") in done.record["provenance"]["notes"]
    # SG210 holds such a profile to nothing, as it does a log's --separateProfileRun
    study = load(done.measurements.parent / "study", records=[done.record])
    assert [f for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message] == []


def test_a_profile_counting_the_timed_iterations_says_nothing_of_how_it_profiled(collect, workdir):
    # 1.1 ms of layers over 1.0 ms of compute, 10 % above: with equal counts the profile may be of the timed run,
    # so the record keeps no setting and SG210 still warns
    (workdir / "times.json").write_text(json.dumps(_times(4)), encoding="utf-8")
    (workdir / "profile.json").write_text(json.dumps(_profile(4)), encoding="utf-8")
    done = collect("trtexec", *OPTIONS, "--times", workdir / "times.json", "--profile", workdir / "profile.json",
                   family=FAMILY)
    assert done.exit_code == 0, done.err
    assert all("separate_profile_run" not in r["method"] for r in done.kind("latency"))
    assert not any("profiling pass of their own" in note for note in done.record["provenance"]["notes"])
    study = load(workdir / "study", records=[done.record])
    (finding,) = [f for f in sg210_kernel_coverage.check(CheckContext(study)) if "above the" in f.message]
    assert "1.1 ms, 10.0% above the 1.0 ms mean GPU compute time" in finding.message


def test_a_profile_of_no_count_says_nothing_either(collect, workdir):
    (workdir / "times.json").write_text(json.dumps(_times(4)), encoding="utf-8")
    (workdir / "profile.json").write_text(json.dumps(_profile(4)[1:]), encoding="utf-8")
    done = collect("trtexec", *OPTIONS, "--times", workdir / "times.json", "--profile", workdir / "profile.json",
                   family=FAMILY)
    assert done.exit_code == 0, done.err
    assert all("separate_profile_run" not in r["method"] for r in done.kind("latency"))
