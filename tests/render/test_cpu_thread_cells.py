"""Latencies timed on the CPU with different intra-op thread counts are never
one cell, and the README says how many threads timed them; records written
before ``method.intra_op_threads`` pool and read as they did. The figures
are those of a user's trial (tiny_vit, session 23): fp32 0.4667 ms with the
default threads, 0.3533 ms with ``OMP_NUM_THREADS=1``."""

from __future__ import annotations

from studygen.study.timing import measurement_of, timing_name

from ..checks.studies import collected_provenance, load, readme_lines, record
from .test_cpu_machine import TWO
from .test_host_bound_cells import GENERIC, cells, cpu_latency


def threaded(variant: str, value_ms: float, threads: int | None) -> dict:
    """A collect run --cpu latency, its thread count stated unless None."""
    result = cpu_latency(variant, value_ms, value_ms)
    if threads is not None:
        result["method"]["intra_op_threads"] = threads
    return result


def two_jobs(tmp_path, default_threads: int | None, one_thread: int | None):
    provenance = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, cpu="AMD EPYC")
    records = [record("cpu-1", [threaded("fp32", 0.4667, default_threads), threaded("fp16", 0.79, default_threads)],
                      provenance),
               record("cpu-1thread", [threaded("fp32", 0.3533, one_thread), threaded("fp16", 0.54, one_thread)],
                      provenance)]
    return load(tmp_path, records=records, template=GENERIC, study=TWO)


def test_two_thread_counts_are_two_measurements_and_two_tables(tmp_path):
    study = two_jobs(tmp_path, 2, 1)
    fp32 = [row for row in study.rows if row.kind == "latency" and row.variant == "fp32"]
    assert len({measurement_of(row) for row in fp32}) == 2
    assert [timing_name(row) for row in fp32] == ["end-to-end time with 2 intra-op threads",
                                                  "end-to-end time with 1 intra-op thread"]
    lines = readme_lines(study)
    assert ("### Latency (ms, median end-to-end time with 2 intra-op threads; median end-to-end time with 1 "
            "intra-op thread)") in lines
    assert cells(lines, "Timed as PyTorch eager, end-to-end time with 2 intra-op threads:") == [
        ["CPU AMD EPYC", "224 x 224", "1", "0.47", "0.79", "0.59x"]]
    assert cells(lines, "Timed as PyTorch eager, end-to-end time with 1 intra-op thread:") == [
        ["CPU AMD EPYC", "224 x 224", "1", "0.35", "0.54", "0.65x"]]
    assert not any("(2 jobs" in line for line in lines)


def test_records_without_a_thread_count_pool_as_before(tmp_path):
    study = two_jobs(tmp_path, None, None)
    lines = readme_lines(study)
    assert "### Latency (ms, median end-to-end time)" in lines
    assert cells(lines, "### Latency") == [["CPU AMD EPYC", "224 x 224", "1", "0.3533 to 0.4667 (2 jobs: cpu-1, "
                                            "cpu-1thread)", "0.54 to 0.79 (2 jobs: cpu-1, cpu-1thread)",
                                            "0.59x to 0.65x"]]
    assert not any("intra-op" in line for line in lines)


def test_one_thread_count_is_named_in_the_heading(tmp_path):
    study = two_jobs(tmp_path, 1, 1)
    lines = readme_lines(study)
    assert "### Latency (ms, median end-to-end time with 1 intra-op thread)" in lines
    assert cells(lines, "### Latency")[0][3] == "0.3533 to 0.4667 (2 jobs: cpu-1, cpu-1thread)"
