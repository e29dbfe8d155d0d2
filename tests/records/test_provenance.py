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


def test_what_a_study_file_allows_a_record_to_keep():
    from studygen.records.provenance import study_allows

    revisions = ["353a4d73", "76321b19", "c65790e1147b8cb4a22258c41533d29d13417fd4"]
    assert study_allows("revision", "c65790e1", revisions)  # an abbreviation of a listed hash
    assert study_allows("revision", "76321B19", revisions)  # a hash in either case
    assert not study_allows("revision", "07271c31", revisions)
    assert not study_allows("revision", "353a4d73", [])  # nothing listed: nothing to keep by
    assert not study_allows("revision", None, revisions)
    assert study_allows("id", "ORG/Model", ["org/model", None])  # the model however spelt
    assert study_allows("id", "/models/m", ["org/model", "/models/m"])  # its local folder
    assert not study_allows("id", "org/other", ["org/model", None])
    assert study_allows("id", "Org/Model", ["org/model"]) and not study_allows("id", "org/model", [])
    assert study_allows("weights", "random-init", ["random-init"])
    assert not study_allows("weights", "pretrained", ["random-init"])


def test_how_a_conflict_tells_the_user_to_keep_the_records_value():
    from studygen.records.provenance import keeping_hint

    assert keeping_hint("revision", "c65790e1", {"id": "org/m"}) == (
        "if the input was made from revision c65790e1, list it under the study file's model.revisions and give "
        "--checkpoint org/m@c65790e1, else ")
    assert keeping_hint("revision", "c65790e1", {}).endswith("give --checkpoint ID@c65790e1, else ")
    assert keeping_hint("weights", "random-init", {}) == (
        "if the input was made with random-init weights, set the study file's model.weights to it, else ")
    assert keeping_hint("id", "org/old", {}) == "if the input was made from org/old, name it in the study file's " \
                                                "model.id, else "


def test_the_private_checkpoint_markers_never_reach_a_record():
    from studygen.records.provenance import DEFAULTED, FROM_STUDY, clean_provenance

    block = {"gpu": "H100", "checkpoint": {"id": "org/m", "revision": "abc1234", DEFAULTED: ["weights"],
                                           FROM_STUDY: {"revision": ["abc1234"]}}}
    assert clean_provenance(block) == {"gpu": "H100", "checkpoint": {"id": "org/m", "revision": "abc1234"}}
    assert FROM_STUDY in block["checkpoint"]  # the block given is left as it was


@pytest.mark.parametrize("old, new, kept", [
    ({"id": "org/name", "revision": "abc1234"}, {"id": "ORG/Name", "revision": "ABC1234DEF5678"},
     {"id": "org/name", "revision": "ABC1234DEF5678"}),  # the same commit written out longer is kept longer
    ({"id": "org/name", "revision": "abc1234def5678"}, {"id": "https://huggingface.co/org/name", "revision": "abc1234"},
     {"id": "org/name", "revision": "abc1234def5678"}),
])
def test_one_checkpoint_spelt_another_way_extends_the_record(old, new, kept):
    # review: collect accepts these spellings as the study's model, then extending the job refused them as raw strings
    from studygen.records.provenance import merge_provenance

    merged, _ = merge_provenance({"gpu": "H100", "checkpoint": dict(old)}, {"gpu": "H100", "checkpoint": dict(new)}, "r.json")
    assert merged["checkpoint"] == kept


def test_another_checkpoint_is_still_refused():
    from studygen.records.provenance import merge_provenance, same_checkpoint_field

    with pytest.raises(ConflictError, match="the record says checkpoint revision 'abc1234', the command line says 'abd1234'"):
        merge_provenance({"checkpoint": {"revision": "abc1234"}}, {"checkpoint": {"revision": "abd1234"}}, "r.json")
    assert not same_checkpoint_field("id", "org/name", "org/other") and not same_checkpoint_field("weights", "a", "A")
    assert not same_checkpoint_field("revision", "v1.0", "V1.0")  # a tag is kept as written, case and all


def test_gpu_timings_are_told_by_backend_timing_or_timer_whatever_the_timer_is_spelt():
    from studygen.records.provenance import gpu_measured

    def latency(**fields):
        return {"kind": "latency", "backend": "pytorch", "timing": "end_to_end", **fields}

    assert gpu_measured([latency(method={"timer": "CUDA events"})])  # spelt as a person writes it
    assert gpu_measured([latency(method={"timer": "cuda-events"})])
    assert gpu_measured([latency(timing="gpu_compute")]) and gpu_measured([latency(backend="tensorrt")])
    assert not gpu_measured([latency(method={"timer": "perf-counter"})])
    assert not gpu_measured([{"kind": "plan_size", "backend": "tensorrt"}])  # a plan's size is no timing
