"""A record measured without a GPU that names its CPU is measured on that
CPU: its measurement key and label say ``CPU <model>`` (records.provenance.
measuring_machine), a record stating no CPU keeps the key it had, and one
job stays one CPU when a record is extended (trial s21: collect run --cpu)."""

from __future__ import annotations

import pytest

from studygen.errors import ConflictError
from studygen.records.keys import measuring_machine
from studygen.records.provenance import measuring_machine_block, merge_provenance
from studygen.records.write import measurement_key

EPYC, XEON = "AMD EPYC 7763 64-Core Processor", "Intel(R) Xeon(R) Platinum 8480+"
LATENCY = {"kind": "latency", "variant": "fp32", "shape": "64x64", "batch": 1, "backend": "pytorch", "mode": "eager",
           "timing": "end_to_end", "statistic": "median", "value_ms": 0.445}


def cpu_provenance(cpu: str | None, **changes) -> dict:
    provenance = {"gpu": None, "gpu_count": 0, "cpu": cpu, "driver": None, "software": {"torch": "2.11.0"},
                  "checkpoint": {"id": "example/toy", "revision": "0123456", "weights": "pretrained"},
                  "repository_commit": "8431bb8", "repository_dirty": False,
                  "collector": {"name": "studygen collect run", "version": "0.1.0"}}
    provenance.update(changes)
    return provenance


@pytest.mark.parametrize("provenance, machine", [
    (cpu_provenance(EPYC), "CPU AMD EPYC 7763 64-Core Processor"),
    (cpu_provenance(None), None),  # written before the field: no machine, as before
    ({"gpu": None, "gpu_count": 0}, None),
    (cpu_provenance(EPYC, gpu_count=None), None),  # nothing says it had no GPU
    (cpu_provenance(EPYC, gpu="NVIDIA H100 80GB HBM3", gpu_count=1), "NVIDIA H100 80GB HBM3"),  # the GPU measured
    ({"gpu": "NVIDIA L4"}, "NVIDIA L4"),
])
def test_the_measuring_machine_of_a_record(provenance, machine):
    assert measuring_machine(provenance) == machine


def test_the_key_of_a_cpu_record_names_its_cpu_and_two_cpus_make_two_keys():
    epyc = measurement_key("toy", cpu_provenance(EPYC), LATENCY)
    xeon = measurement_key("toy", cpu_provenance(XEON), LATENCY)
    assert epyc.gpu == "CPU AMD EPYC 7763 64-Core Processor" and xeon.gpu == "CPU Intel(R) Xeon(R) Platinum 8480+"
    assert epyc != xeon and epyc.config() == xeon.config()  # one configuration, two machines
    assert epyc.text() == ("toy|0123456|fp32||latency|end_to_end|median||64x64|b1|pytorch|eager|"
                           "CPU AMD EPYC 7763 64-Core Processor|torch=2.11.0|")
    unnamed = measurement_key("toy", cpu_provenance(None), LATENCY)
    assert unnamed.gpu is None and unnamed.text().split("|")[12] == ""  # a record without cpu keeps its key


def test_one_job_is_one_cpu_and_a_later_checkout_keeps_the_records_commit():
    record = cpu_provenance(EPYC)
    with pytest.raises(ConflictError) as other:
        merge_provenance(record, cpu_provenance(XEON), "cpu-1.json")
    assert str(other.value).startswith("cpu-1.json:/provenance/cpu: the record says cpu 'AMD EPYC 7763 64-Core "
                                       "Processor', the new input says 'Intel(R) Xeon(R) Platinum 8480+'")
    # collect env on the measuring machine after the record was committed: its checkout is at another commit
    block = {"gpu": None, "gpu_count": 0, "cpu": EPYC, "driver": None, "software": {"torch": "2.11.0"},
             "repository_commit": "1efdab9", "repository_dirty": True, "collected_at": "2026-12-05T20:00:00+00:00"}
    collector = {"name": "studygen collect env", "version": "0.1.0"}
    unnamed = cpu_provenance(None)
    merged, notes = merge_provenance(unnamed, measuring_machine_block(block, collector, unnamed), "cpu-1.json")
    assert (merged["cpu"], merged["repository_commit"], merged["repository_dirty"]) == (EPYC, "8431bb8", False)
    assert notes == [f"provenance.cpu filled in: {EPYC}"]
    # a record stating no commit takes the checkout's reading, as before
    bare = measuring_machine_block(block, collector, cpu_provenance(None, repository_commit=None))
    assert (bare["repository_commit"], bare["repository_dirty"]) == ("1efdab9", True)
