"""SG208 (warning): a lower-precision variant slower than a higher one at the same shape."""

from __future__ import annotations

from studygen.checks import CheckContext, sg208_precision_inversion
from studygen.findings import WARNING
from studygen.study.analyses import precision_inversions

from .studies import codes, collected_provenance, latency, load, readme_lines, record


def test_fp16_slower_than_fp32_is_a_warning_and_a_side_finding(tmp_path):
    template = ("{{ generated_note }}\n\n# {{ study.title }}\n\n## Side findings\n\n"
                "{% for line in study.precision_inversions() %}\n- {{ line }}\n{% endfor %}\n")
    records = [record("job", [latency("fp32", 13.99, "800x1067"), latency("fp16", 14.747, "800x1067"),
                              latency("fp16", 5.889), latency("fp32", 9.5)])]
    study = load(tmp_path, records=records, template=template)
    findings = codes(sg208_precision_inversion.check(CheckContext(study)), "SG208")
    assert len(findings) == 1
    finding = findings[0]
    assert finding.severity == WARNING and finding.pointer == "/results/1/value_ms"
    assert "fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job)" in finding.message and "800x1067" in finding.message
    # the README prints 14.747 (collected) to 4 significant digits; the finding quotes the record
    assert ("- fp16 is slower than fp32 on H200 with TensorRT 11.4.0.106 at 800 x 1067: 14.75 ms against 13.99 ms "
            "(job job)."
            in readme_lines(study))


def test_other_gpu_or_faster_lower_precision_passes(tmp_path):
    records = [record("a", [latency("fp32", 13.99, "800x1067")], collected_provenance("NVIDIA B200")),
               record("b", [latency("fp16", 14.747, "800x1067")], collected_provenance("NVIDIA B300")),
               record("c", [latency("fp32", 9.5), latency("fp16", 5.889)])]
    study = load(tmp_path, records=records)
    assert sg208_precision_inversion.check(CheckContext(study)) == []


def _inversion(tmp_path, provenance=None):
    records = [record("job", [latency("fp32", 13.99, "800x1067"), latency("fp16", 14.747, "800x1067")], provenance)]
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path, records=records)))
    assert finding.hint == "render lists it under side findings; explain it if it is expected"
    return finding.message


def test_the_message_names_the_gpu_and_versions_or_says_they_are_not_stated(tmp_path):
    assert _inversion(tmp_path / "a") == ("fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job) on "
                                          "NVIDIA H200, tensorrt=11.4.0.106,cuda=13.0, 800x1067")
    unstated = collected_provenance(gpu=None)
    unstated["software"] = {}
    assert _inversion(tmp_path / "b", unstated) == ("fp16 (14.747 ms, job job) is slower than fp32 (13.99 ms, job job) "
                                                    "on GPU not stated, versions not stated, 800x1067")


def test_equal_latency_is_no_inversion(tmp_path):
    # 9.50 ms at both precisions: fp16 is not slower than fp32
    records = [record("job", [latency("fp32", 9.5), latency("fp16", 9.5), latency("fp16", 9.51, "800x1067"),
                              latency("fp32", 9.5, "800x1067")])]
    pairs = precision_inversions(load(tmp_path, records=records))
    assert [(low.value, high.value, low.shape) for low, high in pairs] == [(9.51, 9.5, "800x1067")]


def test_inversions_are_listed_by_gpu_then_shape(tmp_path):
    # Written 800x800 first and on a named GPU first; listed GPU-not-stated first, then by shape text.
    unstated = collected_provenance(gpu=None)
    records = [record("named", [latency("fp32", 9.0), latency("fp16", 9.9), latency("fp32", 12.0, "800x1067"),
                                latency("fp16", 13.0, "800x1067")]),
               record("unstated", [latency("fp32", 7.0), latency("fp16", 7.7)], unstated)]
    pairs = precision_inversions(load(tmp_path, records=records))
    assert [(low.job_id, low.shape) for low, _ in pairs] == [
        ("unstated", "800x800"), ("named", "800x1067"), ("named", "800x800")]


def test_latencies_timed_differently_are_no_inversion(tmp_path):
    # fp32 13.99 ms without CUDA graphs in job a, fp16 14.747 ms with them in job b: the gap mixes precision and
    # timing (SG212), so neither is slower at the same timing method; before, SG208 warned "fp16 (14.747 ms, job b)
    # is slower than fp32 (13.99 ms, job a)". Timed alike, the pair is the inversion it was
    off, on = {"timer": "trtexec", "cuda_graph": False}, {"timer": "trtexec", "cuda_graph": True}
    records = [record("a", [latency("fp32", 13.99, "800x1067", method=off)]),
               record("b", [latency("fp16", 14.747, "800x1067", method=on)])]
    assert sg208_precision_inversion.check(CheckContext(load(tmp_path / "mixed", records=records))) == []
    records[1] = record("b", [latency("fp16", 14.747, "800x1067", method=off)])
    (finding,) = sg208_precision_inversion.check(CheckContext(load(tmp_path / "alike", records=records)))
    assert finding.message.startswith("fp16 (14.747 ms, job b) is slower than fp32 (13.99 ms, job a)")
