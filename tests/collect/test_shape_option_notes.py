"""collect says in the record when a result's input shape is the --shape
option's because its input states none (records.unstated.shape_option_note),
so a README can mark the shape; a shape a log states keeps its own note, and
no option note. Logs in trtexec's layout with figures of our own, and a real
trtexec log and PyTorch trace from ../shared/fixtures."""

from __future__ import annotations

from studygen.records.unstated import shapes_from_option

from tests.collect.conftest import TORCH, TRTEXEC
from tests.collect.trtexec_logs import log_text, write


def option_notes(done) -> list[str]:
    return [note for note in done.record["provenance"]["notes"] if "taken from --shape" in note]


def test_a_shape_the_log_does_not_state_is_noted_as_the_options(collect, workdir):
    # a built plan run with no shape flags: the log states no input shape
    log = write(workdir, log_text("trtexec --loadEngine=m.plan --useCudaGraph"))
    done = collect("trtexec", "--log", log, "--shape", "224x224")
    assert done.exit_code == 0, done.err
    assert done.latency("gpu_compute")["shape"] == "224x224"
    assert option_notes(done) == ["run.log run 1 (line 1): shape 224x224 taken from --shape: the input states none"]
    assert shapes_from_option(done.record["provenance"]) == {"224x224"}
    # the same log without --shape: no shape, no note
    bare = collect("trtexec", "--log", log, measurements=workdir / "bare")  # one run in two jobs is refused
    assert bare.exit_code == 0, bare.err
    assert "shape" not in bare.latency("gpu_compute") and option_notes(bare) == []


def test_a_shape_the_log_states_gets_no_option_note(collect, workdir):
    log = write(workdir, log_text("trtexec --loadEngine=m.plan --shapes=x:0:4x1x28x28"))
    done = collect("trtexec", "--log", log, "--shape", "28x28")
    assert done.exit_code == 0, done.err
    assert option_notes(done) == []
    assert shapes_from_option(done.record["provenance"]) == frozenset()


def test_a_real_separate_profile_run_log_and_its_profile(collect):
    # trt8.6_resnet50-int8_separate-profile-run.log loads a built plan and prints no input shapes ("model", line 54),
    # but binds input0 as 1x3x224x224 (line 151): the log states 224x224, so a --shape that agrees gets no option
    # note, and its --exportProfile file's kernel time is labelled with the same shape
    done = collect("trtexec", "--log", TRTEXEC / "trt8.6_resnet50-int8_separate-profile-run.log",
                   "--profile", TRTEXEC / "trt8.6_resnet50-int8_profile.json", "--variant", "int8",
                   "--shape", "224x224")
    assert done.exit_code == 0, done.err
    assert {r["shape"] for r in done.results if r["kind"] in ("latency", "kernel_time")} == {"224x224"}
    assert option_notes(done) == []
    assert ("trt8.6_resnet50-int8_separate-profile-run.log run 1 (line 1): shape 224x224 read from its input shapes "
            "input0=1x3x224x224 (input binding, line 151), channels first") in done.record["provenance"]["notes"]
    assert done.latency("gpu_compute", batch=1)["method"]["separate_profile_run"] is True


def test_a_trace_states_no_shape_so_the_option_is_noted(collect, workdir):
    trace = TORCH / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
    done = collect("torch-profile", "--trace", trace, "--variant", "bf16", "--shape", "1x141")
    assert done.exit_code == 0, done.err
    assert option_notes(done) == ["cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz: shape 1x141 taken "
                                  "from --shape: the input states none"]
    plain = collect("torch-profile", "--trace", trace, "--variant", "bf16", measurements=workdir / "plain")
    assert plain.exit_code == 0, plain.err
    assert option_notes(plain) == []


def test_a_detections_file_states_no_shape_so_the_option_is_noted(collect, workdir):
    import json

    # two made-up boxes on two images, detected exactly; the detector's input size is only the option's word
    boxes = [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [10, 10, 50, 50], "area": 2500, "iscrowd": 0},
             {"id": 2, "image_id": 2, "category_id": 1, "bbox": [100, 80, 60, 40], "area": 2400, "iscrowd": 0}]
    gt = workdir / "gt.json"
    gt.write_text(json.dumps({"images": [{"id": i, "width": 640, "height": 480, "file_name": f"{i:012d}.jpg"}
                                         for i in (1, 2)],
                              "categories": [{"id": 1, "name": "c1"}], "annotations": boxes}))
    dt = workdir / "dt.json"
    dt.write_text(json.dumps([{"image_id": b["image_id"], "category_id": 1, "bbox": b["bbox"], "score": 0.9}
                              for b in boxes]))
    done = collect("coco", "--annotations", gt, "--detections", dt, "--dataset", "val-two", "--variant", "fp16",
                   "--shape", "640x640")
    assert done.exit_code == 0, done.err
    assert {r["shape"] for r in done.kind("coco_ap")} == {"640x640"}
    assert option_notes(done) == ["dt.json: shape 640x640 taken from --shape: the input states none"]


def test_a_plan_file_states_no_shape_so_the_option_is_noted(collect, workdir):
    plan = workdir / "m.plan"
    plan.write_bytes(b"\0" * 4096)  # made up: only its size is read
    done = collect("trtexec", "--plan", plan, "--shape", "224x224", "--gpu", "NVIDIA H100 PCIe",
                   "--software", "tensorrt=10.16.1")
    assert done.exit_code == 0, done.err
    (size,) = done.kind("plan_size")
    assert (size["shape"], size["value_bytes"]) == ("224x224", 4096)
    assert option_notes(done) == ["m.plan: shape 224x224 taken from --shape: the input states none"]
