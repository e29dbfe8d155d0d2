"""``collect … --replace REASON`` drops the provenance notes about the
results it replaces, with them: a note that names a file no result of the
record is read from any more. Before, a replaced trace's TF32 share and
its missing device name stayed in the record, and the README's provenance
went on printing them under figures read from another file.

Kept: a note about a file some result is still read from (only one of its
runs replaced), a note the new collect brings again, a note naming a
longer name that only starts with the file's, and the record's history
(earlier replacements and corrections), whatever file they name.
"""

from __future__ import annotations

from studygen.records.result import NewResult
from studygen.records.sources import replace_sources, stale_notes
from tests.collect.conftest import FIXTURES, TORCH
from tests.collect.trtexec_logs import log_text, write

# no device name; 308 TF32 launches; 14 launches of fp16 embedding kernels
DLRM = FIXTURES / "public" / "hta_timeline_analysis_sampled_rank-0.json.gz"
ALEXNET = TORCH / "alexnet_kineto_trace.json.gz"  # an A100 named; 6 TF32 launches


def test_a_replaced_trace_takes_its_notes_with_it(collect):
    first = collect("torch-profile", "--trace", DLRM, "--mode", "eager", "--variant", "fp32", "--device", "0")
    assert first.exit_code == 0, first.err
    about_dlrm = [note for note in first.record["provenance"]["notes"] if DLRM.name in note]
    assert len(about_dlrm) == 3  # its device has no deviceProperties name; its TF32 launches; its fp16 ones
    fixed = collect("torch-profile", "--trace", ALEXNET, "--mode", "eager", "--variant", "fp32",
                    "--replace", "the wrong trace: that was the DLRM run")
    assert fixed.exit_code == 0, fixed.err
    notes = fixed.record["provenance"]["notes"]
    assert not [note for note in notes if DLRM.name in note and not note.startswith("replaced ")]
    assert (f"replaced 1 result(s) read from {DLRM.name} and 3 provenance note(s) about them: the wrong trace: that "
            "was the DLRM run") in notes
    assert f"note: replaced 1 result(s) read from {DLRM.name} and 3 provenance note(s) about them" in fixed.out
    (tf32,) = [note for note in notes if "TF32" in note]
    assert tf32.startswith(f"{ALEXNET.name}: at least 6 of 79 kernel launches ran TF32")
    assert [r["source_locator"].partition(":")[0] for r in fixed.results] == [ALEXNET.name]


def test_a_replaced_traces_left_out_kernels_note_goes_too(collect):
    # the MI300X trace's 757 kernels launched before its first step are left out, in a provenance note naming it;
    # a second note names its bf16 kernels (under fp32)
    mi300 = TORCH / "rocm-mi300x_resnet-act-checkpoint_profilerstep15-17_kineto_trace.json.gz"
    first = collect("torch-profile", "--trace", mi300, "--mode", "eager", "--variant", "fp32")
    assert first.exit_code == 0, first.err
    left_out = (f"{mi300.name}: 757 kernels (30.8 ms) launched before the first profiled step, no launch event in the "
                "trace: left out")
    assert left_out in first.record["provenance"]["notes"]
    fixed = collect("torch-profile", "--trace", ALEXNET, "--mode", "eager", "--variant", "fp32",
                    "--replace", "another model")
    assert fixed.exit_code == 0, fixed.err
    assert left_out not in fixed.record["provenance"]["notes"]
    assert f"replaced 1 result(s) read from {mi300.name} and 2 provenance note(s) about them: another model" in (
        fixed.record["provenance"]["notes"])


def test_the_same_file_collected_again_keeps_the_notes_it_brings_again(collect, workdir):
    log = write(workdir, log_text("trtexec --onnx=m.onnx --fp16", "Precision: FP32+FP16"))  # no device, no shape
    first = collect("trtexec", "--log", log, "--variant", "fp16", "--shape", "224x224")
    assert first.exit_code == 0, first.err
    device_note = "run.log names no device (no 'Selected Device:' line): GPU recorded as unknown"
    assert device_note in first.record["provenance"]["notes"]
    assert [n for n in first.record["provenance"]["notes"] if "taken from --shape" in n] == [
        "run.log run 1 (line 1): shape 224x224 taken from --shape: the input states none"]
    again = collect("trtexec", "--log", log, "--variant", "fp16", "--shape", "256x256", "--replace", "the wrong --shape")
    assert again.exit_code == 0, again.err
    notes = again.record["provenance"]["notes"]
    assert notes.count(device_note) == 1  # brought again by the new collect: kept, once
    assert [n for n in notes if "taken from --shape" in n] == [
        "run.log run 1 (line 1): shape 256x256 taken from --shape: the input states none"]
    assert {r["shape"] for r in again.results} == {"256x256"}
    assert notes[-1] == "replaced 5 result(s) read from run.log and 1 provenance note(s) about them: the wrong --shape"


def _result(variant: str, locator: str) -> dict:
    return {"kind": "latency", "variant": variant, "timing": "gpu_compute", "statistic": "median", "value_ms": 1.5,
            "source_locator": locator}


def test_a_note_about_a_file_some_result_still_comes_from_stays():
    # a.log holds two runs (fp16 and fp32); b.log measures fp16 again: a.log's fp32 result stays, so do its notes
    document = {"results": [_result("fp16", "a.log:10"), _result("fp32", "a.log:90"), _result("fp16", "c.log:4")],
                "provenance": {"notes": ["a.log names no device", "c.log names no device"]}}
    earlier = list(document["provenance"]["notes"])
    note = replace_sources(document, [NewResult(_result("fp16", "b.log:12"), "b.log:line 12")], "rerun", "r.json",
                           earlier_notes=earlier)
    assert [r["source_locator"] for r in document["results"]] == ["a.log:90"]
    assert document["provenance"]["notes"] == ["a.log names no device", note]
    assert note == "replaced 2 result(s) read from a.log, c.log and 1 provenance note(s) about them: rerun"


def test_nothing_dropped_says_no_notes_and_keeps_the_old_wording():
    document = {"results": [_result("fp16", "a.log:10")], "provenance": {"notes": ["b.log names no device"]}}
    note = replace_sources(document, [NewResult(_result("fp16", "a.log:10"), "a.log:line 10")], "rerun", "r.json",
                           earlier_notes=["b.log names no device"])
    assert note == "replaced 1 result(s) read from a.log: rerun"
    assert document["provenance"]["notes"] == ["b.log names no device", note]


def test_a_record_with_no_notes_gets_the_replacement_note_only():
    document = {"results": [_result("fp16", "a.log:10")], "provenance": {}}
    note = replace_sources(document, [NewResult(_result("fp16", "a.log:10"), "a.log:line 10")], "rerun", "r.json")
    assert document["provenance"] == {"notes": [note]}


def test_which_notes_name_a_file():
    notes = ["run.log names no device", "run.log run 1 (line 1): shape 8x8 taken from --shape",
             "h2d of times.json array 1 left out, as in run.log.", "run.log.1 names no device",
             "prerun.log names no device", "my-run.log names no device", "run.logs are kept",
             "replaced 3 result(s) read from run.log: wrong shape",
             "provenance.gpu corrected from 'A' to 'B': run.log was of another machine",
             "provenance.gpu filled in: run.log", "weights not given on the command line"]
    assert stale_notes(notes, {"run.log"}) == notes[:3]
    assert stale_notes(notes, set()) == []
    assert stale_notes(["a.log names no device", "b.log names no device", "c.log names no device"],
                       {"a.log", "b.log"}) == ["a.log names no device", "b.log names no device"]
    assert stale_notes(["a (1).log: x", "a.log: y"], {"a (1).log"}) == ["a (1).log: x"]  # a name is text, not a pattern


def test_a_result_read_from_no_named_file_names_no_note():
    # a record edited by hand whose replaced result's locator is ':' or ' :12' gives a file name of no characters
    # but spaces; as a pattern it matched at the end of every note, so a replace dropped notes about nothing
    notes = ["weights not given on the command line: recorded as pretrained (the default)", "run.log names no device"]
    assert stale_notes(notes, {""}) == []
    assert stale_notes(notes, {" ", "run.log"}) == notes[1:]
