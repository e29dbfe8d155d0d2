"""SG224 (warning): the study's headline names a GPU none of its records was measured on (a GPU trial: a study
file titled "... on one H200" was run on an H100, and render printed the title over H100 tables), or its other
prose states a result on one (a new user's trial: "On an RTX 3090 fp16 takes 0.0800 ms." passed)."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, prose_clauses, sg224_unmeasured_gpu
from studygen.findings import WARNING

from .studies import collected_provenance, kernel_time, latency, load, record, spec

TEMPLATE = "{{ generated_note }}\n\n# {{ study.title }}\n\n{{ study.description }}\n\n{{ study.spec.decision.summary }}\n"


def findings(tmp_path, *, title="Toy detector", description="A toy.", summary="Not decided.", gpus=("NVIDIA H100 80GB HBM3",),
             provenance=None, template=TEMPLATE):
    records = [record(f"job{index}", [latency("fp16", 5.0 + index)], provenance or collected_provenance(gpu=gpu))
               for index, gpu in enumerate(gpus)]
    study = load(tmp_path, records=records, template=template,
                 study=spec(title=title, description=description, decision={"shipped": False, "summary": summary}))
    return sg224_unmeasured_gpu.check(CheckContext(study))


def gpu_findings(tmp_path, **fields):
    """:func:`findings` about GPUs alone: the sentences of the GPU tests name precisions the toy records (fp16 only)
    did not measure, which the precision tests below read."""
    return [f for f in findings(tmp_path, **fields) if "a precision no record measured" not in f.message]


def test_a_title_naming_another_gpu_is_reported_at_its_field(tmp_path):
    (finding,) = findings(tmp_path, title="Toy detector on one H200")
    assert (finding.code, finding.severity, finding.pointer, finding.file) == (
        "SG224", WARNING, "/title", "families/toy/study.yaml")
    assert finding.message == "/title names the H200, which no record was measured on (records: NVIDIA H100 80GB HBM3)"
    assert finding.line == 3 and finding.key == "/title H200"
    assert finding.hint == "name the GPU the records were measured on, or say that the study did not run on this one"


def test_a_gpu_the_records_name_in_any_spelling_passes(tmp_path):
    gpus = ("NVIDIA GeForce RTX 3090", "NVIDIA H100 80GB HBM3", "Jetson AGX Orin")
    assert findings(tmp_path, title="fp16 on the RTX 3090, the H100 and the Jetson AGX Orin", gpus=gpus,
                    description="Also RTX3090 and RTX-3090.") == []


def test_every_gpu_of_the_title_and_only_results_elsewhere(tmp_path):
    # descriptions and decisions name other GPUs for context (the fleet, the card replaced): an attack found a
    # dozen such sentences reported; they are read only where a clause states a result
    found = findings(tmp_path, title="fp16 on the L40S against the RTX 4090 Ti and H100s",
                     description="Measured on the A100 and the H100.", summary="FP8 ships for the B200 fleet.")
    assert [f.key for f in found] == ["/title L40S", "/title RTX 4090 Ti"]


def test_a_model_named_less_fully_than_its_record_is_measured(tmp_path):
    assert findings(tmp_path, title="On MI300 and Jetson AGX Orin", gpus=("AMD Instinct MI300X", "Orin")) == []
    assert [f.key for f in findings(tmp_path / "a10", title="On the A10", gpus=("NVIDIA A100-SXM4-80GB",))] == [
        "/title A10"]  # another GPU, not a shorter name of the A100


def test_a_study_timed_without_a_gpu_names_none(tmp_path):
    on_cpu = collected_provenance(gpu=None, gpu_count=0, cpu="AMD EPYC")
    (finding,) = findings(tmp_path, title="A toy on the A100", provenance=on_cpu)
    assert finding.message == "/title names the A100, which no record was measured on (records: no GPU)"


def test_what_the_rule_leaves_alone(tmp_path):
    # a title that denies, defers or cites another source names another machine without a result on it
    assert findings(tmp_path, title="Not yet on the H200") == []
    assert findings(tmp_path / "cited", title="Against [the vendor's A100 numbers](https://example.org)") == []
    # a record that states no GPU at all may be the H200's
    unknown = collected_provenance(gpu=None)
    assert findings(tmp_path / "unknown", title="On one H200", provenance=unknown) == []
    # a field the README does not print publishes nothing
    assert findings(tmp_path / "unprinted", title="On one H200", template="{{ generated_note }}\n") == []
    # lower case, codecs, model sizes and numbers that are no GPU
    assert findings(tmp_path / "words", title="h200 notes: H264 and H265 input, ViT B16, step T40, A1, the H100x") == []


def test_each_gpu_of_the_title_is_held_against_every_record(tmp_path):
    # the H100 is measured (by the second record, after one timed without a GPU); the H200 beside it is not
    on_cpu = collected_provenance(gpu=None, gpu_count=0, cpu="AMD EPYC")
    records = [record("cpu", [latency("fp16", 9.0)], on_cpu), record("gpu", [latency("fp16", 5.0)], collected_provenance(
        gpu="NVIDIA H100 80GB HBM3"))]
    study = load(tmp_path, records=records, template=TEMPLATE, study=spec(title="H100 against H200"))
    (finding,) = sg224_unmeasured_gpu.check(CheckContext(study))
    assert finding.message == (
        "/title names the H200, which no record was measured on (records: NVIDIA H100 80GB HBM3, no GPU)")


def test_a_jetson_is_known_by_its_module_and_only_that_one(tmp_path):
    assert findings(tmp_path, title="On a Jetson AGX Orin", gpus=("Orin",)) == []
    assert [f.key for f in findings(tmp_path / "xavier", title="On a Jetson AGX Xavier", gpus=("Orin",))] == [
        "/title Jetson AGX Xavier"]


def test_a_result_stated_on_an_unmeasured_gpu_is_reported_at_its_field(tmp_path):
    summary = "Not shipped: on an RTX 3090 fp16 takes 0.0800 ms.\nOn an A100, fp16 would be faster than fp32."
    first, second = gpu_findings(tmp_path, summary=summary, gpus=("NVIDIA GeForce GTX 1070",))
    assert (first.code, first.severity, first.pointer, first.key) == (
        "SG224", WARNING, "/decision/summary", "/decision/summary RTX 3090")
    assert first.message == ("/decision/summary states a result on the RTX 3090, which no record was measured on "
                             "(records: NVIDIA GeForce GTX 1070)")
    assert first.hint == "measure it on that GPU, cite where the result comes from, or leave it out"
    assert second.key == "/decision/summary A100"
    assert (first.line, second.line) == (26, 28)  # each GPU's own line of the quoted scalar


def test_a_clause_ends_at_a_colon_on_either_side_of_its_gpu(tmp_path):
    # the denial after the colon is another clause's: the A100's gain stands as a result
    found = gpu_findings(tmp_path, summary="Shipped fp16. The A100 gains 1.3x: no more than the H100 does.")
    assert [f.key for f in found] == ["/decision/summary A100"]
    (title,) = gpu_findings(tmp_path / "title", title="Not shipped: FP8 on the H200")
    assert title.key == "/title H200"


def test_each_kind_of_result_names_its_gpu(tmp_path):
    sentences = {"a time": "The T4 needs 2.5 ms a frame.", "a ratio": "fp16 gains 1.4x on the L4.",
                 "microseconds": "The A10 needs 250 \u00b5s a frame.", "in Greek mu": "The A30 needs 250 \u03bcs a frame.",
                 "a comparative": "The L40S is slower than this card.", "a speedup": "Speedups on the V100 are small."}
    for what, sentence in sentences.items():
        found = gpu_findings(tmp_path / what.replace(" ", "_"), description=sentence)
        assert [f.pointer for f in found] == ["/description"], what


def test_prose_naming_a_gpu_without_a_result_of_its_own_passes(tmp_path):
    leave = ["fp16 is not faster on the A100.",  # denied in its own clause
             "The vendor reports 0.0500 ms on the A100.",  # cited
             "We deploy to an A100 fleet; fp16 is 1.3x faster here.",  # the result is another clause's
             "FP8 needs an H100 or newer.",  # no result
             "On the H100 fp16 takes 5.0 ms.",  # the records' own GPU
             "fp16 is faster on the A100 [in their paper](https://example.org)."]  # a link
    for index, sentence in enumerate(leave):
        assert findings(tmp_path / str(index), summary=sentence) == [], sentence


def test_prose_that_claims_no_result_or_is_not_printed_is_not_read(tmp_path):
    not_measured = [{"config": "fp8", "reason": "the A100 runs no FP8: it would take 0.0900 ms at best"}]
    records = [record("job0", [latency("fp16", 5.0)], collected_provenance(gpu="NVIDIA H100 80GB HBM3"))]
    study = load(tmp_path, records=records, template=TEMPLATE, study=spec(not_measured=not_measured))
    assert [f for f in sg224_unmeasured_gpu.check(CheckContext(study)) if "precision" not in f.message] == []
    unprinted = "{{ generated_note }}\n\n# {{ study.title }}\n"
    assert findings(tmp_path / "unprinted", summary="On the A100 it takes 3.0 ms.", template=unprinted) == []


def test_a_clause_that_cites_plans_or_asks_states_no_result(tmp_path):
    # an attack's sentences (session 23), each warned in a study measured on other GPUs
    leave = ["NVIDIA's A100 datasheet lists FP16 tensor math as 2x faster than TF32.",
             "A T4 would need about 0.5 ms, as estimated from its spec sheet.",  # cited, though supposed
             "Results on the A100 (Smith et al., 2023) show a 1.5x speedup for fp16.",
             "See https://example.com/a100 for A100 figures, where fp16 is 2x faster.",
             "The vendor claims the L4 is 2x faster.",
             "We will rerun this on an A100 to see whether fp16 is faster.",
             "We expected the L40S to be 1.5x faster.",
             "Whether the A100 is faster is unknown."]
    for index, sentence in enumerate(leave):
        assert findings(tmp_path / str(index), summary=sentence, gpus=("NVIDIA GeForce GTX 1070",)) == [], sentence


def test_a_supposed_or_expected_result_that_is_stated_is_still_reported(tmp_path):
    # a supposition asserts the result on a GPU the study never ran on (a new user's case); an expectation met is a
    # result; a fleet "where fp16 kernels are faster" states a speed on the T4 and L4 with no source for it
    stated = {"If we had an A100, fp16 would likely be faster there too.": ["A100"],
              "On an H100, bf16 might be faster than fp32.": ["H100"],
              "As expected, the A100 is 1.3x faster.": ["A100"],
              "The decision applies to the T4 and L4 fleet, where fp16 kernels are faster by design.": ["L4", "T4"]}
    for index, (sentence, named) in enumerate(stated.items()):
        found = gpu_findings(tmp_path / str(index), summary=sentence, gpus=("NVIDIA GeForce GTX 1070",))
        assert sorted(f.key.split(" ", 1)[1] for f in found) == named, sentence


# ---- a precision no record measured (a new user's trial: "fp8 on the H100 cuts the median to 0.02 ms." passed in
# a study of fp32, fp16 and int8 runs; the records measure fp16 only here) ----

def test_a_result_at_a_precision_no_record_measured_is_reported(tmp_path):
    found = findings(tmp_path, summary="FP8 on the H100 cuts the time to 4.2 ms. bf16 is 1.3x faster than fp16.")
    assert [(f.key, f.message) for f in found] == [
        ("/decision/summary FP8", "/decision/summary states a result at FP8, a precision no record measured "
                                  "(precisions measured: fp16)"),
        ("/decision/summary bf16", "/decision/summary states a result at bf16, a precision no record measured "
                                   "(precisions measured: fp16)")]
    assert found[0].hint == "measure that precision, cite where the result comes from, or leave it out"



def test_a_precision_without_a_result_or_measured_or_denied_passes(tmp_path):
    summary = ("fp16 takes 5.0 ms on the H100. FP8 ships later. int8 needs a calibration set. int8 was not measured: "
               "it could be 2x faster. The fp8-e4m3 kernels and INT8s are names, not precisions.")
    assert findings(tmp_path, summary=summary) == []


def test_the_title_names_an_unmeasured_precision(tmp_path):
    (finding,) = findings(tmp_path, title="int8 and fp16 on the H100")
    assert finding.message == "/title names int8, a precision no record measured (precisions measured: fp16)"
    assert finding.hint == "name the precisions the records measured, or say that this one was not measured"


def test_names_are_read_on_past_one_without_a_result_and_reported_in_the_order_they_stand(tmp_path):
    """A precision in a clause that states no result does not stop the reading of the names after it; a
    precision before a GPU in one clause comes first. Killed mutants: the loop left at the first name passed over,
    the findings ordered GPUs first."""
    found = findings(tmp_path, summary="int8 needs a calibration set; bf16 on the B200 takes 4.0 ms.")
    assert [f.key for f in found] == ["/decision/summary bf16", "/decision/summary B200"]


# ---- a batch none of the rows a clause is about was measured at (a new user's trial: a GPU's fp16 run said to be at
# batch 1, where it ran at batch 4 and batch 1 was another GPU's) ----

def batch_findings(tmp_path, **fields):
    """SG224's batch findings over two jobs: fp16 on an H100 at batches 1 and 8, fp16 on a GTX 1070 at batch 4."""
    records = [record("job0", [latency("fp16", 5.0), latency("fp16", 31.0, batch=8)],
                      collected_provenance(gpu="NVIDIA H100 80GB HBM3")),
               record("job1", [latency("fp16", 7.3, batch=4)], collected_provenance(gpu="NVIDIA GeForce GTX 1070"))]
    study = load(tmp_path, records=records, template=TEMPLATE,
                 study=spec(title=fields.pop("title", "Toy detector"),
                            decision={"shipped": False, "summary": fields.pop("summary", "Not decided.")}))
    return [f for f in sg224_unmeasured_gpu.check(CheckContext(study)) if " batch " in f.message]


def test_a_result_at_a_batch_the_named_runs_never_ran_is_reported(tmp_path):
    (finding,) = batch_findings(tmp_path, summary="On the GTX 1070, fp16 at batch 1 takes 7.3 ms.")
    assert finding.message == ("/decision/summary states a result at batch 1 for the GTX 1070, fp16, which none of "
                               "its records measured (batches measured for the GTX 1070, fp16: 4)")
    assert (finding.key, finding.pointer, finding.code) == ("/decision/summary batch 1", "/decision/summary", "SG224")
    assert finding.hint == "measure that batch, cite where the result comes from, or leave it out"


def test_a_run_said_to_be_measured_at_a_batch_it_was_not_is_reported_without_a_figure(tmp_path):
    (finding,) = batch_findings(tmp_path / "a", summary="The GTX 1070 fp16 run was measured at batch 1.")
    assert finding.message == ("/decision/summary states a result at batch 1 for the GTX 1070, fp16, which none of "
                               "its records measured (batches measured for the GTX 1070, fp16: 4)")
    for index, summary in enumerate(["The GTX 1070 run was timed at batch 4.", "A batch 16 run would not fit.",
                                     "The next run measures batch 16.", "Batch 16 runs were published elsewhere."]):
        assert batch_findings(tmp_path / str(index), summary=summary) == [], summary


def test_a_batch_no_record_measured_is_reported_where_the_clause_names_no_run(tmp_path):
    (finding,) = batch_findings(tmp_path / "a", summary="At batch size 32 the time is 9.1 ms.")
    assert finding.message == ("/decision/summary states a result at batch 32, which no record measured "
                               "(batches measured: 1, 4, 8)")
    (title,) = batch_findings(tmp_path / "b", title="fp16 at batch 64 on the H100")
    assert title.message == ("/title names batch 64 for the H100, fp16, which none of its records measured "
                             "(batches measured for the H100, fp16: 1, 8)")
    assert title.hint == "name the batch the records were measured at, or measure that batch"


def test_batches_measured_denied_planned_or_without_a_result_pass(tmp_path):
    passing = ["On the H100, fp16 at batch 8 takes 31.0 ms.", "The GTX 1070 ran batch 4: 7.3 ms.",
               "Batch 32 was not measured.", "Batch 64 comes in a later study.",
               "We chose batch 4 for the GTX 1070 because of its memory.",
               "Batches 2 and 16 take 6.0 and 12.0 ms on the H100.",  # no single batch named: not read
               "A batch-16 engine takes 12.0 ms."]
    for index, summary in enumerate(passing):
        assert batch_findings(tmp_path / str(index), summary=summary) == [], summary


def test_a_clause_about_a_gpu_no_record_measured_is_left_to_the_gpu_reading(tmp_path):
    assert batch_findings(tmp_path, summary="On the A100, fp16 at batch 2 takes 3.0 ms.") == []


def named_runs_findings(tmp_path, summary: str, template: str = TEMPLATE):
    """SG224's batch findings over variants named apart from their precisions: 'base' (fp32, label 'Base') at
    batch 1 and 'fast' (fp16, label 'Fast build') at batch 8, both on an H100."""
    records = [record("job0", [latency("base", 5.0), latency("fast", 3.0, batch=8)],
                      collected_provenance(gpu="NVIDIA H100 80GB HBM3"))]
    variants = [{"name": "base", "precision": "fp32", "label": "Base"},
                {"name": "fast", "precision": "fp16", "label": "Fast build"}]
    study = load(tmp_path, records=records, template=template,
                 study=spec(title="Toy detector", variants=variants, decision={"shipped": False, "summary": summary}))
    return [f for f in sg224_unmeasured_gpu.check(CheckContext(study)) if " batch " in f.message], study


def test_the_runs_of_a_clause_are_those_of_the_variants_or_precisions_it_names(tmp_path):
    """A variant named by its name or its label, a precision by its word: the batches of those runs only (killed
    mutants: variants and precisions required together, a label ignored, the name matched in any case of text)."""
    expected = {"The fast variant at batch 1 takes 3.0 ms.": ["batch 1 for fast", "fast: 8"],
                "Fast build at batch 1 takes 3.0 ms.": ["batch 1 for fast", "fast: 8"],
                "fp16 at batch 1 takes 3.0 ms.": ["batch 1 for fp16", "fp16: 8"],
                "base at batch 8 takes 5.0 ms.": ["batch 8 for base", "base: 1"],
                "fp32 at batch 1 takes 5.0 ms.": None, "The fast variant at batch 8 takes 3.0 ms.": None,
                "A breakfast at batch 2 takes 3.0 ms.": ["batch 2,", "measured: 1, 8"]}  # "fast" inside a word names none
    for index, (summary, parts) in enumerate(expected.items()):
        found, study = named_runs_findings(tmp_path / str(index), summary)
        if parts is None:
            assert found == [], summary
            continue
        (finding,) = found
        assert all(part in finding.message for part in parts), (summary, finding.message)
        # the line of the study file holding the sentence, found in its text here
        line = next(number for number, text in enumerate(study.spec_text.splitlines(), 1) if "batch" in text)
        assert finding.line == line


def test_two_gpus_named_and_a_field_the_readme_does_not_print(tmp_path):
    found = batch_findings(tmp_path / "a", summary="On the H100 and the GTX 1070, fp16 at batch 2 takes 6.0 ms.")
    assert [f.message for f in found] == [
        "/decision/summary states a result at batch 2 for the H100 and the GTX 1070, fp16, which none of its records "
        "measured (batches measured for the H100 and the GTX 1070, fp16: 1, 4, 8)"]
    unprinted = "{{ generated_note }}\n\n# {{ study.title }}\n"
    found, _ = named_runs_findings(tmp_path / "b", "base at batch 8 takes 5.0 ms.", template=unprinted)
    assert found == []


# ---- a shape none of the rows a clause is about was measured at, and an AP or plan size as a result (a new user's
# trial, session 26: "The 512 x 512 H100 trace spends 64% of its kernel time in GEMMs." of runs all at 224 x 224;
# "The fp16 run reaches AP 0.5806." in a study of fp32 and bf16) ----

def shape_findings(tmp_path, summary: str, title: str = "Toy detector"):
    """SG224's shape findings over fp16 on an H100 at 800x800 and 640x640, fp16 on a GTX 1070 at 800x800."""
    records = [record("job0", [latency("fp16", 5.0), latency("fp16", 3.1, shape="640x640")],
                      collected_provenance(gpu="NVIDIA H100 80GB HBM3")),
               record("job1", [latency("fp16", 7.3)], collected_provenance(gpu="NVIDIA GeForce GTX 1070"))]
    study = load(tmp_path, records=records, template=TEMPLATE,
                 study=spec(title=title, decision={"shipped": False, "summary": summary}))
    return [f for f in sg224_unmeasured_gpu.check(CheckContext(study)) if " x " in f.message]


def test_a_result_at_a_shape_the_named_runs_never_ran_is_reported(tmp_path):
    (finding,) = shape_findings(tmp_path, "On the GTX 1070, fp16 at 640x640 takes 4.0 ms.")
    assert finding.message == ("/decision/summary states a result at 640 x 640 for the GTX 1070, fp16, which none of "
                               "its records measured (shapes measured for the GTX 1070, fp16: 800 x 800)")
    assert (finding.key, finding.code) == ("/decision/summary 640 x 640", "SG224")
    assert finding.hint == "measure that shape, cite where the result comes from, or leave it out"
    (title,) = shape_findings(tmp_path / "t", "Not decided.", title="fp16 at 1024 × 1024")
    assert title.message == ("/title names 1024 x 1024 for fp16, which none of its records measured "
                             "(shapes measured for fp16: 640 x 640, 800 x 800)")


def test_shapes_measured_denied_or_without_a_result_pass(tmp_path):
    passing = ["On the H100, fp16 at 640 x 640 takes 3.1 ms.",  # measured on that GPU
               "At 800X800 every run takes over 5.0 ms.",  # measured, any case of x
               "A 1024 x 1024 run was not measured.",  # denied
               "We chose 512x512 inputs for a later study.",  # deferred, no result
               "Images are resized to 1333 x 800 before inference.",  # no result stated
               "The 800x800x3 tensor takes 5.0 ms."]  # no shape of two sizes
    for index, summary in enumerate(passing):
        assert shape_findings(tmp_path / str(index), summary) == [], summary


def test_an_ap_or_plan_size_states_a_result_a_gpu_memory_does_not(tmp_path):
    assert prose_clauses.states_result("The fp8 run reaches AP 0.5806")
    assert prose_clauses.states_result("its engine is 24.38 MiB")
    assert prose_clauses.states_result("bf16 loses 0.75 AP points")
    assert not prose_clauses.states_result("the fleet has H200 141GB cards")
    found = findings(tmp_path, summary="The fp8 run reaches AP 0.5806.")
    # the toy records hold no AP at all: the AP is a result of a kind none measured too (session 28)
    assert [f.key for f in found] == ["/decision/summary fp8", "/decision/summary coco_ap 0.5806"]


def test_a_shapes_x_is_no_ratio(tmp_path):
    # "1333 x 800" stated no result before: it was read as a ratio of 1333, so a GPU beside it was reported
    assert not prose_clauses.states_result("inputs resized to 1333 x 800 on the A100")
    assert prose_clauses.states_result("the A100 is 1.4x the H100")
    assert findings(tmp_path, summary="On the A100 inputs are resized to 1333 x 800.") == []
    # a share is a result too: the shape beside it is read (it was, before, only by its x read as a ratio)
    assert prose_clauses.states_result("the 512 x 512 trace spends 64% of its kernel time in GEMMs")
    assert [f.key for f in shape_findings(tmp_path / "share", "The 512 x 512 H100 run spends 64% in GEMMs.")] == [
        "/decision/summary 512 x 512"]


def test_tf32_is_measured_where_an_fp32_profile_lists_tf32_kernels(tmp_path):
    # collect notes such kernels (PyTorch lets cuDNN run TF32 under fp32 by default); a 3xTF32 kernel is FP32 math
    def tf32_findings(root, kernel: str):
        profile = kernel_time("fp32", {"conv": 1.0}, total=1.0)
        profile["groups"][0]["kernels"] = [{"name": kernel, "time_ms": 1.0}]
        study = load(root, records=[record("job0", [profile])], template=TEMPLATE,
                     study=spec(decision={"shipped": False, "summary": "On the H200, 1.0 ms of kernels ran TF32."}))
        return [f.key for f in sg224_unmeasured_gpu.check(CheckContext(study)) if f.pointer != "/title"]

    assert tf32_findings(tmp_path / "a", "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwc") == []
    assert tf32_findings(tmp_path / "b", "cutlass_tensorop_3xtf32_gemm") == ["/decision/summary TF32"]
    assert tf32_findings(tmp_path / "c", "ampere_sgemm_32x32_sliced1x4_tn") == ["/decision/summary TF32"]


def test_shape_and_tf32_readings_from_the_mutation_runs_survivors(tmp_path):
    # a measured shape before an unmeasured one in one field: the second is still read
    found = shape_findings(tmp_path / "a", "At 800x800 fp16 takes 5.0 ms. At 1024x1024 it takes 9.0 ms.")
    assert [f.key for f in found] == ["/decision/summary 1024 x 1024"]
    # a field the README does not print: its shape is not read
    records = [record("job0", [latency("fp16", 5.0)], collected_provenance(gpu="NVIDIA H100 80GB HBM3"))]
    study = load(tmp_path / "b", records=records, template="{{ generated_note }}\n\n# {{ study.title }}\n",
                 study=spec(title="Toy detector", decision={"shipped": False, "summary": "At 640x640 it takes 9.0 ms."}))
    assert [f for f in sg224_unmeasured_gpu.check(CheckContext(study)) if " x " in f.message] == []
    # a TF32 kernel under an fp16 variant says nothing of fp32 runs: TF32 stays unmeasured
    profile = kernel_time("fp16", {"conv": 1.0}, total=1.0)
    profile["groups"][0]["kernels"] = [{"name": "sm80_xmma_fprop_tf32f32_tf32f32_f32", "time_ms": 1.0}]
    study = load(tmp_path / "c", records=[record("job0", [profile])], template=TEMPLATE,
                 study=spec(title="Toy detector", decision={"shipped": False, "summary": "TF32 takes 1.0 ms."}))
    assert [f.key for f in sg224_unmeasured_gpu.check(CheckContext(study))] == ["/decision/summary TF32"]


def test_a_name_written_twice_in_one_clause_is_reported_once(tmp_path):
    """A new user's trial (s26): "The fp16 log stops early, and fp16 is 2.5x slower than fp32", the study's only
    fp16 run a failed build, gave two warnings of one key, one per fp16 of the clause; another sentence's is its own."""
    found = findings(tmp_path, summary="The int8 log stops early, and INT8 is 2.5x faster than fp16. "
                                       "On the H100 int8 takes 2.0 ms, and int8 is 2.5x faster.")
    # the first sentence's finding names the INT8 of the part that states the result (s27: each part of a clause
    # joined by ", and" is read alone, conjunct_bounds)
    assert [f.message for f in found] == [
        "/decision/summary states a result at INT8, a precision no record measured (precisions measured: fp16)",
        "/decision/summary states a result at int8, a precision no record measured (precisions measured: fp16)"]
    assert [f.key for f in found] == ["/decision/summary INT8", "/decision/summary int8"]


@pytest.mark.parametrize(("summary", "keys"), [
    # a denial or plan in one part of a clause says nothing of the part joined to it by a comma and a conjunction
    ("The fp8 build was not tried, and on the A100 fp16 takes 0.08 ms.", ["/decision/summary A100"]),
    ("We plan an fp8 run later, but int8 is 2x faster than fp16 today.",
     ["/decision/summary int8"]),
    ("fp16 takes 5.0 ms on the H100, while the A100 run is 1.3x slower.", ["/decision/summary A100"]),
    # the part naming it denies or plans: nothing, whatever the other part states
    ("fp16 takes 5.0 ms on the H100, and the A100 was not measured.", []),
    ("fp16 takes 5.0 ms, but int8 comes in a later study.", []),
    ("The A100 was not measured, and so its 1.4x figure is the vendor's.", []),
    # no comma before the conjunction: one part, as before
    ("The fp8 build was not tried and on the A100 fp16 takes 0.08 ms.", []),
])
def test_each_part_of_a_clause_joined_by_a_conjunction_is_read_alone(tmp_path, summary, keys):
    assert [f.key for f in findings(tmp_path, summary=summary)] == keys


def test_nothing_is_reported_while_a_record_of_the_study_fails_to_load(tmp_path):
    # a new user's trial: with the fp32 record broken (SG202), check also warned that the description states a
    # result at fp32, "a precision no record measured": the run it names may be the one in the unread file
    from studygen.study import load_study

    from .studies import write_project

    records = [record("job0", [latency("fp16", 5.0)], collected_provenance(gpu="NVIDIA H100 80GB HBM3"))]
    study_dir = write_project(tmp_path, records=records, template=TEMPLATE, study=spec(
        title="Toy detector", description="On the H100, fp32 takes 9.0 ms.",
        decision={"shipped": False, "summary": "Not decided."}))
    assert [f.key for f in sg224_unmeasured_gpu.check(CheckContext(load_study(study_dir, tmp_path)))] == [
        "/description fp32"]
    (tmp_path / "measurements" / "toy" / "job1.json").write_text("{ not json", encoding="utf-8")
    study = load_study(study_dir, tmp_path)
    assert study.has_unread_files
    assert sg224_unmeasured_gpu.check(CheckContext(study)) == []


def test_a_precision_whose_run_failed_is_not_stated_as_a_result(tmp_path):
    # a new user's title "...: fp32 timed, fp16 build failed" drew "names fp16, a precision no record measured" (the
    # failed build is a not-measured entry); a result stated at the precision still is one
    assert findings(tmp_path, title="Toy detector: fp16 timed, int8 build failed") == []
    assert findings(tmp_path / "b", summary="The int8 engine crashed at load.") == []
    assert [f.key for f in findings(tmp_path / "c", title="Toy detector: fp16 timed, int8 2x faster")] == ["/title int8"]


@pytest.mark.parametrize(("summary", "messages"), [
    # a new user's study (s27): "The RTX 3090 is 1.22x slower than the H100 at batch 1." passed, the H100's batch-1
    # run standing for both cards, where the RTX 3090 ran batch 4 only
    ("The GTX 1070 is 1.46x slower than the H100 at batch 1.",
     ["/decision/summary states a result at batch 1 for the GTX 1070, which none of its records measured (batches "
      "measured for the GTX 1070: 4)"]),
    ("At batch 8 the H100 is 4x faster than the GTX 1070.",
     ["/decision/summary states a result at batch 8 for the GTX 1070, which none of its records measured (batches "
      "measured for the GTX 1070: 4)"]),
    # each card was measured at the batch its own figure names, or one card only is named: nothing
    ("The H100 takes 5.0 ms at batch 1 and the GTX 1070 7.3 ms at batch 4.", []),
    ("At batch 1 the H100 takes 5.0 ms.", []),
])
def test_a_result_at_a_batch_set_between_two_gpus_holds_only_where_each_ran_it(tmp_path, summary, messages):
    assert [f.message for f in batch_findings(tmp_path, summary=summary)] == messages
