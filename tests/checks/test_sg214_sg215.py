"""SG214: no AP from random weights. SG215: FP8 latency only with real-FP8 evidence."""

from __future__ import annotations

from studygen.checks import CheckContext, sg214_random_weights, sg215_fp8_evidence
from studygen.findings import ERROR

from .studies import coco_ap, collected_provenance, latency, load, record

RANDOM = collected_provenance()
RANDOM["checkpoint"] = {"id": "SenseTime/deformable-detr", "revision": None, "weights": "random-init", "seed": 0}


def test_ap_from_random_weights_is_an_error(tmp_path):
    study = load(tmp_path, records=[record("job", [coco_ap("fp16", 0.0012)], RANDOM)])
    findings = sg214_random_weights.check(CheckContext(study))
    assert [(f.code, f.severity, f.pointer) for f in findings] == [("SG214", ERROR, "/results/0/value")]
    assert "coco_ap AP 0.0012 of fp16 in job job comes from random-init weights" in findings[0].message


def test_agreement_on_random_weights_and_ap_on_pretrained_pass(tmp_path):
    agreement = {"kind": "agreement", "variant": "fp8", "reference_variant": "fp16", "metric": "logit_correlation",
                 "value": 0.9991, "dataset": "val-8", "backend": "pytorch", "mode": "eager"}
    assert sg214_random_weights.check(CheckContext(load(tmp_path / "a", records=[record("job", [agreement], RANDOM)]))) == []
    assert sg214_random_weights.check(CheckContext(load(tmp_path / "b", records=[record("job", [coco_ap("fp16", 0.4644)])]))) == []


def test_fp8_latency_without_evidence_is_refused(tmp_path):
    results = [latency("fp16", 15.1), latency("fp8", 14.2, shape="800x800", fp8_evidence=None)]
    del results[1]["fp8_evidence"]
    fake = latency("fp8", 63.0, shape="800x1067",
                   fp8_evidence={"kernels": [{"name": "nvjet_sm90_qqtst_128x256", "time_ms": 0.4}], "fake_quant_kernels": 145})
    study = load(tmp_path, records=[record("job", results + [fake])])
    findings = sg215_fp8_evidence.check(CheckContext(study))
    assert [(f.code, f.severity, f.pointer) for f in findings] == [("SG215", ERROR, "/results/1/value_ms"),
                                                                     ("SG215", ERROR, "/results/2/value_ms")]
    assert ("FP8 latency 14.2 ms (median GPU compute time) of fp8 at 800x800, batch 1 in job job" in findings[0].message
            and "no fp8_evidence" in findings[0].message)
    assert "FP8 latency 63.0 ms" in findings[1].message and "still shows 145 fake-quantization kernel(s)" in findings[1].message


def test_fp8_latency_with_kernel_evidence_passes(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 15.1), latency("fp8", 14.2)])])
    assert sg215_fp8_evidence.check(CheckContext(study)) == []


def test_the_random_weights_finding_in_full(tmp_path):
    (finding,) = sg214_random_weights.check(CheckContext(load(tmp_path, records=[record("job", [coco_ap("fp16", 0.0012)], RANDOM)])))
    assert finding.message == ("coco_ap AP 0.0012 of fp16 in job job comes from random-init weights: it says nothing "
                               "about the model's quality")
    assert finding.hint == "measure quality with pretrained weights, or drop the figure"


def test_evidence_problem_wants_a_named_kernel_with_time():
    problem = sg215_fp8_evidence.evidence_problem
    assert problem({}) == "no fp8_evidence (FP8 GEMM kernel names and times from a profile)"
    assert problem({"fp8_evidence": {}}) == "no fp8_evidence (FP8 GEMM kernel names and times from a profile)"
    none_listed = "fp8_evidence lists no FP8 kernel with a name and a time above 0 ms"
    assert problem({"fp8_evidence": {"note": "profile lost"}}) == none_listed  # no kernels key at all
    assert problem({"fp8_evidence": {"kernels": [{"name": " ", "time_ms": 0.1}]}}) == none_listed
    assert problem({"fp8_evidence": {"kernels": [{"time_ms": 0.1}]}}) == none_listed  # no name
    assert problem({"fp8_evidence": {"kernels": [{"name": "sm90_gemm_e4m3"}]}}) == none_listed  # no time
    assert problem({"fp8_evidence": {"kernels": [{"name": "sm90_gemm_e4m3", "time_ms": 0}]}}) == none_listed
    assert problem({"fp8_evidence": {"kernels": [{"name": "sm90_gemm_e4m3", "time_ms": 0.07}]}}) is None


def test_the_fp8_evidence_finding_in_full(tmp_path):
    results = [latency("fp16", 15.1), latency("fp8", 14.2, fp8_evidence={"kernels": [{"name": " ", "time_ms": 0.1}]})]
    (finding,) = sg215_fp8_evidence.check(CheckContext(load(tmp_path / "a", records=[record("job", results)])))
    assert finding.message == ("FP8 latency 14.2 ms (median GPU compute time) of fp8 at 800x800, batch 1 in job job "
                               "(NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0): "
                               "fp8_evidence lists no FP8 kernel with a name and a time above 0 ms")
    assert finding.hint == ("profile the FP8 run and record its FP8 GEMM kernels (fp8_evidence: collect run profiles "
                            "its forwards; collect trtexec reads --profile, or the log's --dumpProfile table, with a "
                            "--layer-info exported with --profilingVerbosity=detailed), or do not report FP8 latency")
    unstated = collected_provenance(gpu=None)
    unstated["software"] = {}
    (finding,) = sg215_fp8_evidence.check(CheckContext(load(tmp_path / "b", records=[record("job", results, unstated)])))
    assert "in job job (GPU not stated, versions not stated): fp8_evidence lists" in finding.message


def _fp8_run(batch: int, figures: tuple, evidence=None) -> list[dict]:
    """trtexec's five timings of one FP8 run at 1280x1280 (ms: GPU compute, host latency, enqueue, H2D, D2H), the
    first result carrying ``evidence`` (None: no fp8_evidence on any)."""
    timings = ("gpu_compute", "host_latency", "enqueue", "h2d", "d2h")
    results = [latency("fp8", value, "1280x1280", timing=timing, batch=batch) for timing, value in zip(timings, figures)]
    for result in results:
        del result["fp8_evidence"]
    if evidence is not None:
        results[0]["fp8_evidence"] = evidence
    return results


def test_one_finding_per_fp8_run_not_per_timing(tmp_path):
    # two runs (batch 1 and 8) of five timings each, no evidence: two findings, one per run, on its GPU compute
    # time, each naming its batch and the timings it covers; the D2H copies (0.21 ms at both batches) read alike
    results = _fp8_run(1, (8.8, 10.02, 1.21, 0.9, 0.21)) + _fp8_run(8, (50.94, 60.23, 1.3, 7.1, 0.21))
    findings = sg215_fp8_evidence.check(CheckContext(load(tmp_path, records=[record("l4", results)])))
    also = ("also the run's median host latency, median enqueue time, median host-to-device copy time, median "
            "device-to-host copy time")
    assert [(f.pointer, f.message) for f in findings] == [
        ("/results/0/value_ms", f"FP8 latency 8.8 ms (median GPU compute time; {also}) of fp8 at 1280x1280, batch 1 in "
                                "job l4 (NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0): no fp8_evidence (FP8 GEMM kernel "
                                "names and times from a profile)"),
        ("/results/5/value_ms", f"FP8 latency 50.94 ms (median GPU compute time; {also}) of fp8 at 1280x1280, batch 8 "
                                "in job l4 (NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0): no fp8_evidence (FP8 GEMM "
                                "kernel names and times from a profile)")]


def test_a_profile_kept_on_one_timing_covers_its_run_and_a_fake_one_fails_it(tmp_path):
    gemm = {"kernels": [{"name": "sm89_xmma_gemm_e4m3_e4m3_f32", "time_ms": 2.4}]}
    kept = _fp8_run(1, (8.8, 10.02, 1.21, 0.9, 0.21), evidence=gemm)
    assert sg215_fp8_evidence.check(CheckContext(load(tmp_path / "a", records=[record("l4", kept)]))) == []
    # a second result of the run showing 12 fake-quantization kernels is not outweighed by the first
    kept[3]["fp8_evidence"] = dict(gemm, fake_quant_kernels=12)
    (finding,) = sg215_fp8_evidence.check(CheckContext(load(tmp_path / "b", records=[record("l4", kept)])))
    assert finding.pointer == "/results/0/value_ms"
    assert finding.message.endswith("): the profile still shows 12 fake-quantization kernel(s)")


def test_an_fp8_run_without_a_shape_names_none(tmp_path):
    run = _fp8_run(4, (3.1, 3.5, 0.4, 0.3, 0.02))[:1]
    del run[0]["shape"]
    (finding,) = sg215_fp8_evidence.check(CheckContext(load(tmp_path, records=[record("l4", run)])))
    assert finding.message.startswith("FP8 latency 3.1 ms (median GPU compute time) of fp8, batch 4 in job l4 (")


def test_a_profile_that_showed_no_fp8_gemm_is_told_from_no_profile():
    problem = sg215_fp8_evidence.evidence_problem
    source = "--exportLayerInfo layers.json joined with --exportProfile profile.json array 1"
    assert problem({"fp8_evidence": {"kernels": [], "gemm_layers": 54, "source": source}}) == (
        "profiled, and none of its 54 GEMM/convolution layer(s) ran an FP8 kernel (" + source + ")")
    assert problem({"fp8_evidence": {"kernels": [], "gemm_layers": 0, "opaque_layers": 3, "source": source}}) == (
        "profiled, and none of its 0 GEMM/convolution layer(s) ran an FP8 kernel (3 Myelin layer(s) do not name their "
        "kernels) (" + source + ")")
    assert problem({"fp8_evidence": {"kernels": [], "source": "nsys trace t.nsys-rep"}}) == (
        "profiled, and no FP8 GEMM kernel ran (nsys trace t.nsys-rep)")
    none_listed = "fp8_evidence lists no FP8 kernel with a name and a time above 0 ms"
    assert problem({"fp8_evidence": {"kernels": []}}) == none_listed  # no source: nothing says what was profiled
    # kernels listed, none usable: not a profile showing no FP8 GEMM
    assert problem({"fp8_evidence": {"kernels": [{"name": "g", "time_ms": 0}], "source": source}}) == none_listed
    assert problem({"fp8_evidence": {"kernels": [], "source": ""}}) == none_listed
