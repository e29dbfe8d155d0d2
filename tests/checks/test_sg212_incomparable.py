"""SG212: latencies measured differently in one ratio, range or table column."""

from __future__ import annotations

from studygen.checks import CheckContext, sg212_incomparable
from studygen.findings import ERROR

from .studies import collected_provenance, latency, line_of, load, record

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
RANGE = "fp16 latency: {{ study.span(study.figures(kind='latency', variant='fp16')) }}.\n"


def two_versions(tmp_path, method_10=None, method_11=None, template=HEADER + RANGE):
    records = [
        record("trt10", [latency("fp16", 6.10, method=method_10 or {"timer": "trtexec"})], collected_provenance(tensorrt="10.16.1")),
        record("trt11", [latency("fp16", 5.889, method=method_11 or {"timer": "trtexec"})], collected_provenance(tensorrt="11.4.0.106")),
    ]
    return load(tmp_path, records=records, template=template)


def test_trt10_flags_against_trt11_defaults_in_one_range(tmp_path):
    study = two_versions(tmp_path)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    finding = findings[0]
    assert finding.code == "SG212" and finding.severity == ERROR
    assert finding.file == "families/toy/README.md" and finding.line == line_of(study, "fp16 latency:")
    assert "range puts latencies measured differently together" in finding.message
    assert "6.1 ms (fp16, job trt10, 800x800): tensorrt engine, gpu_compute, CUDA graphs off, data transfers on, spin-wait off" in finding.message
    assert "5.889 ms (fp16, job trt11, 800x800): tensorrt engine, gpu_compute, CUDA graphs on, data transfers off, spin-wait on" in finding.message


def test_same_effective_method_passes(tmp_path):
    trt11_defaults = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False, "spin_wait": True}
    study = two_versions(tmp_path, method_10=trt11_defaults)
    assert sg212_incomparable.check(CheckContext(study)) == []


def test_gpu_compute_and_host_latency_in_one_table_column(tmp_path):
    records = [record("a", [latency("fp16", 5.889, timing="gpu_compute"), latency("fp8", 5.85)]),
               record("b", [latency("fp16", 6.4, timing="host_latency"), latency("fp8", 5.86)], collected_provenance("NVIDIA B200"))]
    template = HEADER + "{{ study.table(index=('job_id',), variants=('fp16', 'fp8'), kind='latency') }}\n"
    study = load(tmp_path, records=records, template=template)
    findings = sg212_incomparable.check(CheckContext(study))
    assert len(findings) == 1
    assert findings[0].line == line_of(study, "| Job")
    assert "table column puts latencies measured differently together" in findings[0].message
    assert "5.889 ms (fp16, job a, 800x800)" in findings[0].message and "host_latency" in findings[0].message


def test_host_waiting_per_forward_against_back_to_back_forwards(tmp_path):
    def eager(job, value_ms, host_sync):
        method = {"timer": "cuda-events", "cuda_graph": False, "data_transfers": False, "host_sync": host_sync}
        return record(job, [latency("fp16", value_ms, backend="pytorch", mode="eager", method=method)])

    template = HEADER + RANGE
    mixed = load(tmp_path / "mixed", records=[eager("a", 23.5, "per_forward"), eager("b", 20.6, "per_repeat")],
                 template=template)
    findings = sg212_incomparable.check(CheckContext(mixed))
    assert len(findings) == 1
    assert ("23.5 ms (fp16, job a, 800x800): pytorch eager, gpu_compute, CUDA graphs off, data transfers off, "
            "spin-wait unknown, host waits for each forward") in findings[0].message
    assert "20.6 ms (fp16, job b, 800x800)" in findings[0].message and "forwards queued back to back" in findings[0].message
    same = load(tmp_path / "same", records=[eager("a", 23.5, "per_repeat"), eager("b", 20.6, "per_repeat")],
                template=template)
    assert sg212_incomparable.check(CheckContext(same)) == []
