"""records.provenance.merge_provenance and the measuring-machine helpers,
called directly: what an existing record keeps, what it takes, what is
refused at which pointer, and the notes a ``--replace`` leaves.

The records here are invented (an L4 job extended by a second collect, a CPU
job, a job whose study file names its checkpoint); the expected blocks are
written out by hand from the rules in the module docstring."""

from __future__ import annotations

import copy
import socket

import pytest

from studygen.errors import ConflictError
from studygen.records.provenance import (DEFAULTED, FROM_STUDY, as_conversion_machine, check_measuring_machine,
                                         defaulted_checkpoint, measuring_machine_block, merge_provenance,
                                         same_checkpoint_field)
from studygen.records.unstated import CHECKPOINT_DEFAULTS, DEFAULT_WEIGHTS_NOTE

L4 = "NVIDIA L4"


def record(**fields) -> dict:
    """An existing record's provenance: an L4 job of org/detr at revision 353a4d73, collected by trtexec-ingest."""
    return {"gpu": L4, "gpu_count": 1, "driver": "550.54", "software": {"tensorrt": "10.3.0"},
            "checkpoint": {"id": "org/detr", "revision": "353a4d73", "weights": "pretrained"},
            "collector": {"name": "studygen collect trtexec", "version": "0.1.0"}, **fields}


def refused(existing: dict, incoming: dict) -> ConflictError:
    with pytest.raises(ConflictError) as caught:
        merge_provenance(existing, incoming, "m/job.json")
    return caught.value


def test_a_record_that_transcribes_a_publication_takes_nothing():
    error = refused(record(source={"url": "https://example.org/report"}), {"gpu": L4})
    assert error.line() == ("m/job.json:/provenance/source: this record transcribes a publication "
                            "(provenance.source); collected results go in a record of their own (use another --job)")


def test_empty_fields_are_filled_with_a_note_each_and_the_record_given_is_left_as_it_was():
    existing = record(driver=None, cpu=None)
    before = copy.deepcopy(existing)
    merged, notes = merge_provenance(existing, {"driver": "550.54.15", "cpu": "AMD EPYC 7R13",
                                                "software": {"cuda": "12.4", "tensorrt": "10.3.0"}}, "m/job.json")
    assert existing == before  # a deep copy is merged: the caller's block is untouched
    assert merged["driver"] == "550.54.15" and merged["cpu"] == "AMD EPYC 7R13"
    assert merged["software"] == {"tensorrt": "10.3.0", "cuda": "12.4"}
    assert notes == ["provenance.cpu filled in: AMD EPYC 7R13", "provenance.driver filled in: 550.54.15"]


def test_a_record_without_software_gets_the_incoming_versions():
    existing = record()
    del existing["software"]
    merged, _ = merge_provenance(existing, {"software": {"tensorrt": "10.3.0"}}, "m/job.json")
    assert merged["software"] == {"tensorrt": "10.3.0"}


def test_another_gpu_is_refused_at_its_pointer_and_replaced_with_a_note_under_replace():
    error = refused(record(), {"gpu": "NVIDIA A10G"})
    assert error.line() == ("m/job.json:/provenance/gpu: the record says gpu 'NVIDIA L4', the new input says "
                            "'NVIDIA A10G': one job is one measuring machine; use another --job; collect with "
                            "--replace REASON to correct the record")
    merged, notes = merge_provenance(record(), {"gpu": "NVIDIA A10G"}, "m/job.json", correct="the  log was the A10G's")
    assert merged["gpu"] == "NVIDIA A10G"
    assert notes == ["provenance.gpu corrected from 'NVIDIA L4' to 'NVIDIA A10G': the log was the A10G's"]
    assert merged["notes"] == notes


def test_a_cpu_job_refuses_a_gpu_and_takes_its_count_only_under_replace():
    cpu_job = record(gpu=None, gpu_count=0, cpu="Intel Xeon 8480")
    error = refused(cpu_job, {"gpu": L4, "gpu_count": 1})
    assert error.line() == ("m/job.json:/provenance/gpu: the record was measured without a GPU (gpu_count 0), the "
                            "new input names 'NVIDIA L4': one job is one measuring machine; use another --job; "
                            "collect with --replace REASON to correct the record")
    merged, notes = merge_provenance(cpu_job, {"gpu": L4, "gpu_count": 1}, "m/job.json", correct="wrong job")
    assert (merged["gpu"], merged["gpu_count"]) == (L4, 1)
    # one change, one note: the record's "no GPU" (gpu_count 0) became the L4 and its count. Before, two notes for
    # it: "provenance.gpu filled in: NVIDIA L4" (as if the record had left its GPU unstated) and "corrected from None"
    assert notes == ["provenance.gpu corrected from no GPU (gpu_count 0) to 'NVIDIA L4' (gpu_count 1): wrong job"]
    assert merged["notes"] == notes
    merged, notes = merge_provenance(cpu_job, {"gpu": L4}, "m/job.json", correct="wrong job")
    assert merged["gpu"] == L4 and "gpu_count" not in merged  # a count of none no longer stands; none is given
    assert notes == ["provenance.gpu corrected from no GPU (gpu_count 0) to 'NVIDIA L4' (gpu_count not stated): "
                     "wrong job"]


def test_another_software_version_is_refused_and_an_unstated_one_filled():
    error = refused(record(), {"software": {"tensorrt": "10.8.0"}})
    assert error.line() == ("m/job.json:/provenance/software/tensorrt: the record says tensorrt 10.3.0, the new "
                            "input says 10.8.0; use another --job; collect with --replace REASON to correct the record")
    merged, notes = merge_provenance(record(software={"tensorrt": None}), {"software": {"tensorrt": "10.8.0"}},
                                     "m/job.json")
    assert merged["software"] == {"tensorrt": "10.8.0"} and notes == []
    merged, notes = merge_provenance(record(), {"software": {"tensorrt": "10.8.0"}}, "m/job.json", correct="typo")
    assert merged["software"]["tensorrt"] == "10.8.0"
    assert notes == ["provenance.software.tensorrt corrected from 10.3.0 to 10.8.0: typo"]


@pytest.mark.parametrize("name", ["id", "weights"])
def test_each_checkpoint_field_is_filled_where_the_record_has_none_or_unknown(name):
    given = {"id": "org/detr", "weights": "random-init"}[name]
    for unstated in (None, "unknown"):
        existing = record()
        existing["checkpoint"][name] = unstated
        merged, _ = merge_provenance(existing, {"checkpoint": {name: given}}, "m/job.json")
        assert merged["checkpoint"][name] == given


def test_a_checkpoint_field_the_input_leaves_empty_keeps_the_records():
    merged, notes = merge_provenance(record(), {"checkpoint": {"id": None, "revision": None, "weights": None}},
                                     "m/job.json")
    assert merged["checkpoint"] == {"id": "org/detr", "revision": "353a4d73", "weights": "pretrained"}
    assert notes == []


def test_another_checkpoint_on_the_command_line_is_refused_then_corrected():
    error = refused(record(), {"checkpoint": {"weights": "random-init"}})
    assert error.line() == ("m/job.json:/provenance/checkpoint/weights: the record says checkpoint weights "
                            "'pretrained', the command line says 'random-init'; collect with --replace REASON to "
                            "correct the record")
    merged, notes = merge_provenance(record(), {"checkpoint": {"weights": "random-init"}}, "m/job.json",
                                     correct="seeded")
    assert merged["checkpoint"]["weights"] == "random-init"
    assert notes == ["provenance.checkpoint.weights corrected from 'pretrained' to 'random-init': seeded"]


def test_a_revision_written_out_longer_is_the_same_commit_and_kept_at_its_longer_spelling():
    full = "353a4d73c0ffee0123456789abcdef0123456789"
    merged, notes = merge_provenance(record(), {"checkpoint": {"revision": full}}, "m/job.json")
    assert merged["checkpoint"]["revision"] == full and notes == []
    longer = record()
    longer["checkpoint"]["revision"] = full
    merged, _ = merge_provenance(longer, {"checkpoint": {"revision": "353A4D73"}}, "m/job.json")
    assert merged["checkpoint"]["revision"] == full  # the shorter spelling never replaces the longer
    same_length = record()
    merged, _ = merge_provenance(same_length, {"checkpoint": {"revision": "353A4D73"}}, "m/job.json")
    assert merged["checkpoint"]["revision"] == "353a4d73"  # as long: the record's own spelling stays


def test_a_field_taken_from_the_study_file_keeps_an_allowed_record_value_and_refuses_another():
    from_study = {"checkpoint": {"revision": "76321b19", "id": "org/detr", "weights": "random-init",
                                 FROM_STUDY: {"revision": ["76321b19", "353a4d73c0ffee0123456789abcdef0123456789"],
                                              "id": ["org/detr", None]}}}
    unweighted = record()
    unweighted["checkpoint"].update(revision="353A4D73", weights=None)
    merged, notes = merge_provenance(unweighted, from_study, "m/job.json")
    # the record's abbreviation of a listed revision stays; the weights after it are still filled in
    assert merged["checkpoint"] == {"id": "org/detr", "revision": "353A4D73", "weights": "random-init"}
    assert notes == []
    narrower = {"checkpoint": {"revision": "76321b19", FROM_STUDY: {"revision": ["76321b19"]},
                               "weights": "random-init", DEFAULTED: ["weights"]}}
    error = refused(record(), narrower)
    assert error.line() == (
        "m/job.json:/provenance/checkpoint/revision: the record says checkpoint revision '353a4d73', which the study "
        "file does not allow; the command line gives no revision, and '76321b19' is the study file's model.revision; "
        "if the input was made from revision 353a4d73, list it under the study file's model.revisions and give "
        "--checkpoint org/detr@353a4d73, else collect with --replace REASON to correct the record")
    merged, notes = merge_provenance(record(), narrower, "m/job.json", correct="moved on")
    assert merged["checkpoint"]["revision"] == "76321b19"
    assert merged["checkpoint"]["weights"] == "pretrained"  # defaulted: never compared, never taken
    assert notes == ["provenance.checkpoint.revision corrected from '353a4d73' to '76321b19': moved on"]


def test_a_conversion_machine_is_taken_only_by_a_record_without_one():
    machine = {"gpu": "NVIDIA H100 PCIe", "gpu_count": 1}
    merged, _ = merge_provenance(record(), {"conversion_machine": machine}, "m/job.json")
    assert merged["conversion_machine"] == machine
    kept = {"gpu": L4, "gpu_count": 1}
    merged, _ = merge_provenance(record(conversion_machine=kept), {"conversion_machine": machine}, "m/job.json")
    assert merged["conversion_machine"] == kept


def test_a_second_collector_is_noted_once_with_its_version_if_it_gives_one():
    merged, _ = merge_provenance(record(), {"collector": {"name": "studygen collect env", "version": "0.2.0"}},
                                 "m/job.json")
    assert merged["notes"] == ["also collected by studygen collect env 0.2.0"]
    merged, _ = merge_provenance(merged, {"collector": {"name": "studygen collect env", "version": "0.2.0"}},
                                 "m/job.json")
    assert merged["notes"] == ["also collected by studygen collect env 0.2.0"]  # a second extension repeats none
    merged, _ = merge_provenance(record(), {"collector": {"name": "a script"}}, "m/job.json")
    assert merged["notes"] == ["also collected by a script"]
    unnamed = record()
    del unnamed["collector"]
    merged, _ = merge_provenance(unnamed, {"collector": {"name": "a script", "version": "3"}}, "m/job.json")
    assert merged["notes"] == ["also collected by a script 3"]
    merged, _ = merge_provenance(record(), {"collector": {"name": "studygen collect trtexec", "version": "0.2.0"}},
                                 "m/job.json")
    assert "notes" not in merged or merged["notes"] == []  # the same collector: nothing to say


def test_the_default_weights_note_is_dropped_where_the_record_states_its_weights():
    incoming = {"checkpoint": defaulted_checkpoint(), "notes": [DEFAULT_WEIGHTS_NOTE, "kept note"]}
    merged, _ = merge_provenance(record(), incoming, "m/job.json")
    assert merged["notes"] == ["kept note"]
    no_weights = record()
    no_weights["checkpoint"]["weights"] = None
    merged, _ = merge_provenance(no_weights, incoming, "m/job.json")
    assert merged["notes"] == [DEFAULT_WEIGHTS_NOTE, "kept note"]


def test_same_checkpoint_field_reads_only_text():
    assert same_checkpoint_field("revision", "353a4d73", "353A4D73c0ffee")
    assert same_checkpoint_field("id", "org/detr", "https://huggingface.co/org/detr")
    assert not same_checkpoint_field("revision", None, "353a4d73")
    assert not same_checkpoint_field("revision", "353a4d73", None)
    assert not same_checkpoint_field("id", None, "org/detr") and not same_checkpoint_field("id", "org/detr", 7)
    assert not same_checkpoint_field("weights", "pretrained", "pretrained")  # weights: compared for equality apart


ENV = {"gpu": L4, "gpu_count": 1, "cpu": "AMD EPYC 7R13", "driver": "550.54.15", "repository_commit": "c0ffee12",
       "repository_dirty": False, "software": {"torch": "2.11.0"}, "collected_at": "2026-12-06T03:00:00Z",
       "hostname": "node-7", "notes": ["nvidia-smi took 2 s"]}
COLLECTOR = {"name": "studygen collect env", "version": "0.1.0"}


def test_an_env_block_as_a_measuring_machine():
    block = measuring_machine_block(ENV, COLLECTOR)
    assert block == {"gpu": L4, "gpu_count": 1, "cpu": "AMD EPYC 7R13", "driver": "550.54.15",
                     "repository_commit": "c0ffee12", "repository_dirty": False, "software": {"torch": "2.11.0"},
                     "collected_at": "2026-12-06T03:00:00Z", "collector": COLLECTOR,
                     "checkpoint": {**CHECKPOINT_DEFAULTS, DEFAULTED: list(CHECKPOINT_DEFAULTS)},
                     "notes": ["env: nvidia-smi took 2 s"]}
    kept = measuring_machine_block(ENV, COLLECTOR, stated={"repository_commit": "0ld5ha"})
    assert "repository_commit" not in kept and "repository_dirty" not in kept


def test_an_env_block_as_a_conversion_machine():
    assert as_conversion_machine(ENV) == {"gpu": L4, "gpu_count": 1, "driver": "550.54.15",
                                          "hostname": socket.gethostname(), "software": {"torch": "2.11.0"}}
    assert as_conversion_machine({"software": {}}) == {"gpu": None, "gpu_count": 0, "driver": None,
                                                       "hostname": socket.gethostname(), "software": {}}


def test_the_measuring_machine_of_an_existing_record_must_be_its_gpu():
    with pytest.raises(ConflictError) as other:
        check_measuring_machine({"gpu": "NVIDIA A10G"}, ENV, "m/job.json", created=False)
    assert other.value.line() == ("m/job.json:/provenance/gpu: the record was measured on NVIDIA A10G; this machine "
                                  "has NVIDIA L4: one job is one measuring machine")
    with pytest.raises(ConflictError) as none:
        check_measuring_machine({"gpu": L4}, {"gpu": None}, "m/job.json", created=False)
    assert "this machine has no GPU: one job" in none.value.line()
    check_measuring_machine({"gpu": L4}, ENV, "m/job.json", created=False)  # the same GPU
    check_measuring_machine({"gpu": "NVIDIA A10G"}, ENV, "m/job.json", created=True)  # a new record takes this one
    check_measuring_machine({"gpu": None}, ENV, "m/job.json", created=False)  # a GPU fills an unstated one


def test_results_a_gpu_timed_need_a_gpu_machine():
    trt = [{"kind": "latency", "backend": "tensorrt", "timing": "gpu_compute"}]
    with pytest.raises(ConflictError) as caught:
        check_measuring_machine({"gpu": None}, {"gpu": None}, "m/job.json", created=False, results=trt)
    assert caught.value.line() == (
        "m/job.json:/provenance/gpu: the record holds results a GPU measured (TensorRT, GPU compute time or CUDA "
        "events); this machine has no GPU: one job is one measuring machine (give the GPU with the collect that read "
        "the results, --gpu)")
    check_measuring_machine({"gpu": None}, ENV, "m/job.json", created=False, results=trt)  # this machine has one
    check_measuring_machine({"gpu": None}, {"gpu": None}, "m/job.json", created=False,
                            results=[{"kind": "plan_size", "backend": "tensorrt"}])  # a size is no timing


# Notes as collect's trtexec reader writes them for a log that names no device and no TensorRT version.
GPU_UNKNOWN_NOTE = "run1.log names no device (no 'Selected Device:' line): GPU recorded as unknown"
VERSION_UNKNOWN_NOTE = ("run1.log states no TensorRT version (no 'TensorRT version:' line or [TensorRT vNNNN] tag): "
                        "recorded as unknown")
OTHER_NOTE = "run1.log run 1 (line 3): shape 640x640 taken from --shape: the input states none"


def test_a_note_that_a_field_was_recorded_as_unknown_says_what_filled_it_in_later():
    # a first collect of a log naming neither; a second collect (a profile) with --gpu and --software tensorrt=
    existing = record(gpu=None, software={"tensorrt": None},
                      notes=[VERSION_UNKNOWN_NOTE, GPU_UNKNOWN_NOTE, OTHER_NOTE])
    incoming = {"gpu": "Tesla T4", "software": {"tensorrt": "7.1.3"},
                "collector": {"name": "studygen collect trtexec", "version": "0.2.0"}}
    merged, notes = merge_provenance(existing, incoming, "m/job.json")
    assert merged["gpu"] == "Tesla T4" and merged["software"] == {"tensorrt": "7.1.3"}
    assert merged["notes"] == [
        f"{VERSION_UNKNOWN_NOTE}, then filled in as '7.1.3' by studygen collect trtexec",
        f"{GPU_UNKNOWN_NOTE}, then filled in as 'Tesla T4' by studygen collect trtexec",
        OTHER_NOTE]
    assert notes == ["provenance.gpu filled in: Tesla T4"]
    assert existing["notes"] == [VERSION_UNKNOWN_NOTE, GPU_UNKNOWN_NOTE, OTHER_NOTE]  # the record given is untouched


def test_an_unknown_note_stays_as_it_is_where_its_field_is_not_filled_in():
    # only the GPU is given: the TensorRT note still holds; a collector without a name is "a later collect"
    existing = record(gpu=None, software={"tensorrt": None}, notes=[VERSION_UNKNOWN_NOTE, GPU_UNKNOWN_NOTE])
    merged, _ = merge_provenance(existing, {"gpu": "NVIDIA A2", "software": {"tensorrt": None}}, "m/job.json")
    assert merged["software"] == {"tensorrt": None}
    assert merged["notes"] == [VERSION_UNKNOWN_NOTE,
                               f"{GPU_UNKNOWN_NOTE}, then filled in as 'NVIDIA A2' by a later collect"]
    # a record that stated its GPU all along (a note of another job's wording) is not rewritten
    stated = record(notes=[GPU_UNKNOWN_NOTE])
    assert merge_provenance(stated, {"gpu": L4}, "m/job.json")[0]["notes"] == [GPU_UNKNOWN_NOTE]
