"""A study timed on a machine without a GPU (collect run --cpu) names the
CPU that timed it: the Provenance table's machine, the latency tables' rows
and the side findings' sentences, and two CPUs' figures are two rows
(studygen.records.keys.measuring_machine). A study whose records name
no machine says none: no "on not stated" (trial s21). Figures made up."""

from __future__ import annotations

from ..checks.studies import collected_provenance, load, readme_lines, record, spec
from .test_host_bound_cells import GENERIC, cells, cpu_latency

EPYC, XEON = "AMD EPYC 7763 64-Core Processor", "Intel(R) Xeon(R) Platinum 8480+"
TWO = spec(variants=[{"name": "fp32", "precision": "fp32"}, {"name": "fp16", "precision": "fp16"}], recipes={})


def cpu_record(job: str, cpu: str | None, fp32_ms: float = 0.445, fp16_ms: float = 0.583) -> dict:
    provenance = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, cpu=cpu)
    return record(job, [cpu_latency("fp32", fp32_ms, fp32_ms), cpu_latency("fp16", fp16_ms, fp16_ms)], provenance)


def provenance_rows(lines: list[str]) -> list[list[str]]:
    """The header and body rows of the Provenance table, first cells only (job, machine)."""
    start = lines.index("## Provenance")
    table = [line for line in lines[start:] if line.startswith("|")]
    table = table[:next((i for i, line in enumerate(table) if i and not line.startswith("|")), len(table))]
    return [[cell.strip() for cell in line.split("|")[1:3]] for line in [table[0], *table[2:]]]


def test_a_cpu_study_names_its_cpu_in_the_provenance_table_the_latencies_and_the_side_finding(tmp_path):
    study = load(tmp_path, records=[cpu_record("cpu-1", EPYC)], template=GENERIC, study=TWO)
    assert {row.key.gpu for row in study.rows} == {"CPU AMD EPYC 7763 64-Core Processor"}
    lines = readme_lines(study)
    assert provenance_rows(lines)[:2] == [["Job", "Machine"], ["cpu-1", "CPU AMD EPYC 7763 64-Core Processor"]]
    assert "### Latency (ms, median end-to-end time)" in lines
    assert cells(lines, "### Latency") == [["CPU AMD EPYC 7763 64-Core Processor", "224 x 224", "1", "0.45", "0.58",
                                            "0.76x"]]
    assert ("- fp16 on CPU AMD EPYC 7763 64-Core Processor at 224 x 224 (eager) is slower than fp32 with 0.58 ms "
            "against 0.45 ms.") in lines


def test_figures_of_two_cpus_are_never_one_cell(tmp_path):
    study = load(tmp_path, records=[cpu_record("epyc", EPYC), cpu_record("xeon", XEON, 0.301, 0.342)],
                 template=GENERIC, study=TWO)
    lines = readme_lines(study)
    assert cells(lines, "### Latency") == [
        ["CPU AMD EPYC 7763 64-Core Processor", "224 x 224", "1", "0.45", "0.58", "0.76x"],
        ["CPU Intel(R) Xeon(R) Platinum 8480+", "224 x 224", "1", "0.30", "0.34", "0.88x"]]
    assert provenance_rows(lines)[1:3] == [["epyc", "CPU AMD EPYC 7763 64-Core Processor"],
                                           ["xeon", "CPU Intel(R) Xeon(R) Platinum 8480+"]]


def test_a_study_whose_record_names_no_machine_says_none(tmp_path):
    # a collect run --cpu record written before provenance.cpu: its key and table as before, no "on not stated"
    study = load(tmp_path, records=[cpu_record("cpu-1", None)], template=GENERIC, study=TWO)
    assert {row.key.gpu for row in study.rows} == {None}
    lines = readme_lines(study)
    assert provenance_rows(lines)[:2] == [["Job", "GPU"], ["cpu-1", "not stated"]]
    assert "- fp16 at 224 x 224 (eager) is slower than fp32 with 0.58 ms against 0.45 ms." in lines
    assert not any("on not stated" in line for line in lines)


def test_a_cpu_record_lists_no_cuda_version_nor_is_keyed_under_one(tmp_path):
    # a --cpu record written before collect run left CUDA out: its software says cuda 12.6 (torch's build)
    provenance = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, cpu=XEON,
                                      software={"torch": "2.9.1+cu126", "cuda": "12.6", "python": "3.12.4"})
    gpu_record = record("l40s", [cpu_latency("fp32", 0.2, 0.2)],
                        collected_provenance(gpu="NVIDIA L40S", tensorrt=None,
                                             software={"torch": "2.9.1+cu126", "cuda": "12.6"}))
    study = load(tmp_path, records=[record("cpu-2", [cpu_latency("fp32", 0.8, 0.8)], provenance), gpu_record],
                 template=GENERIC, study=TWO)
    keys = {row.job_id: row.key.software for row in study.rows}
    assert keys == {"cpu-2": "torch=2.9.1+cu126", "l40s": "torch=2.9.1+cu126,cuda=12.6"}
    lines = readme_lines(study)
    table = [line for line in lines[lines.index("## Provenance"):] if line.startswith("| cpu-2") or
             line.startswith("| l40s")]
    assert "| python 3.12.4, torch 2.9.1+cu126 |" in table[0].replace("  ", "")
    assert "cuda 12.6, torch 2.9.1+cu126" in table[1]
