"""records.provenance.merge_conversion_machine: empty fields filled in, a
different stated value refused at its pointer, nothing overwritten."""

from __future__ import annotations

import pytest

from studygen.errors import ConflictError
from studygen.records.provenance import merge_conversion_machine


def test_empty_fields_are_filled_and_stated_ones_kept():
    provenance = {"conversion_machine": {"gpu": "NVIDIA H100 PCIe", "driver": None, "software": {"tensorrt": None}}}
    merge_conversion_machine(provenance, {"gpu": "NVIDIA H100 PCIe", "driver": "580.65", "hostname": None,
                                          "software": {"tensorrt": "10.16.1", "cuda": "13.0"}}, "r.json")
    assert provenance["conversion_machine"] == {"gpu": "NVIDIA H100 PCIe", "driver": "580.65", "hostname": None,
                                                "software": {"tensorrt": "10.16.1", "cuda": "13.0"}}


def test_a_different_value_is_refused_at_its_pointer_and_nothing_changes():
    provenance = {"conversion_machine": {"gpu": "NVIDIA H100 PCIe", "software": {"tensorrt": "10.16.1"}}}
    with pytest.raises(ConflictError) as gpu:
        merge_conversion_machine(provenance, {"gpu": "NVIDIA L4"}, "r.json")
    assert str(gpu.value) == ("r.json:/provenance/conversion_machine/gpu: the record's conversion machine has gpu "
                              "'NVIDIA H100 PCIe', this machine 'NVIDIA L4'; nothing overwritten")
    with pytest.raises(ConflictError) as trt:
        merge_conversion_machine(provenance, {"software": {"tensorrt": "10.3.0"}}, "r.json")
    assert str(trt.value) == ("r.json:/provenance/conversion_machine/software/tensorrt: the record's conversion "
                              "machine has tensorrt 10.16.1, this machine 10.3.0; nothing overwritten")
    assert provenance["conversion_machine"] == {"gpu": "NVIDIA H100 PCIe", "software": {"tensorrt": "10.16.1"}}
