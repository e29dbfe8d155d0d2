"""SG206: a not-measured configuration that names a variant and a GPU is
named by its parts, the GPU however spelt (new-user trial: GTX 1070 and
RTX 3090 trtexec logs; "fp32 on the RTX 3090 runs at …" passed)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg206_unmeasured

from .studies import collected_provenance, codes, latency, line_of, load, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n- {{ study.expectation('fp32 on the GeForce RTX 3090') }}\n\n"
NOT_MEASURED = [{"config": "fp32 on the GeForce RTX 3090", "reason": "no fp32 log for it",
                 "expectation": "slower than fp16", "because": "fp16 halves the bytes moved"}]
RECORDS = [record("pascal", [latency("fp32", 0.2113), latency("fp16", 0.2001)],
                  provenance=collected_provenance(gpu="NVIDIA GeForce GTX 1070")),
           record("ampere", [latency("fp16", 0.0612)], provenance=collected_provenance(gpu="NVIDIA GeForce RTX 3090"))]


def _findings(tmp_path, prose: str, records=RECORDS):
    study = load(tmp_path, records=records, template=HEADER + prose + "\n", study=spec(not_measured=NOT_MEASURED))
    return study, codes(sg206_unmeasured.check(CheckContext(study)), "SG206")


def test_the_parts_are_the_variant_and_the_record_gpu_it_names(tmp_path):
    study, _ = _findings(tmp_path, "")
    parts = sg206_unmeasured.config_parts(study, NOT_MEASURED[0])
    assert parts.variants == {"fp32"} and parts.gpus == {"NVIDIA GeForce RTX 3090"}
    assert sg206_unmeasured.config_parts(study, {"config": "fp32", "reason": "r"}) is None  # no GPU named
    assert sg206_unmeasured.config_parts(study, {"config": "fp16 on TensorRT 8.2.3", "reason": "r"}) is None


def test_a_variant_is_named_by_its_precision_too(tmp_path):
    variants = [{"name": "full", "precision": "fp32", "label": "Full precision"}, {"name": "fp16", "precision": "fp16", "label": "fp16"}]
    records = [record("ampere", [latency("fp16", 0.0612)], provenance=collected_provenance(gpu="NVIDIA GeForce RTX 3090"))]
    study = load(tmp_path, records=records, template=HEADER, study=spec(variants=variants, not_measured=NOT_MEASURED))
    assert sg206_unmeasured.config_parts(study, NOT_MEASURED[0]).variants == {"full"}


def test_the_gpu_without_its_vendor_word_or_first_in_the_sentence_is_a_mention(tmp_path):
    prose = ("fp32 on the RTX 3090 runs at 0.0612 ms.\n\n"
             "On the rtx-3090, FP32 was slower than fp16.\n\n"
             "The RTX3090 in fp32 is the gap in this study; fp16 on the GTX 1070 took 0.2001 ms.\n")
    study, findings = _findings(tmp_path, prose)
    assert [f.line for f in findings] == [line_of(study, "fp32 on the RTX 3090 runs"), line_of(study, "On the rtx-3090"),
                                          line_of(study, "The RTX3090 in fp32")]
    assert '"On the rtx-3090, FP32 was slower than fp16."' in findings[1].message
    # one sentence per finding: the GTX 1070 sentence after the ';' is no part of the third
    assert findings[2].message.endswith('"The RTX3090 in fp32 is the gap in this study;"')


def test_a_part_alone_or_the_parts_in_two_sentences_name_nothing(tmp_path):
    prose = ("fp32 on the GTX 1070 took 0.2113 ms. The RTX 3090 ran fp16 only.\n\n"
             "| GPU | fp16 ms |\n| --- | --- |\n| RTX 3090 | 0.0612 |\n")
    _, findings = _findings(tmp_path, prose)
    assert findings == []


def test_a_table_row_naming_both_parts_is_a_mention(tmp_path):
    # a row is one mention, though a cell holds a sentence mark between the GPU and the variant
    prose = "| GPU | Variant | ms |\n| --- | --- | --- |\n| GeForce RTX 3090 (driver 470; CUDA 11.4) | fp32 | 0.0890 |\n"
    study, findings = _findings(tmp_path, prose)
    assert [f.line for f in findings] == [line_of(study, "| GeForce RTX 3090")]
    assert "a table row names it" in findings[0].message


def test_the_expectation_names_both_parts_and_passes(tmp_path):
    study, findings = _findings(tmp_path, "")
    assert any("Not measured: fp32 on the GeForce RTX 3090 (no fp32 log for it)" in line
               for line in CheckContext(study).rendered.readme.splitlines())
    assert findings == []


def test_a_record_of_the_variant_on_that_gpu_is_an_error(tmp_path):
    records = RECORDS + [record("ampere32", [latency("fp32", 0.0890)], provenance=collected_provenance(gpu="NVIDIA GeForce RTX 3090"))]
    _, findings = _findings(tmp_path, "", records=records)
    assert [(f.file, f.pointer) for f in findings] == [("measurements/toy/ampere32.json", "/results/0/value_ms")]
    assert "job ampere32 reports latency 0.089 for fp32" in findings[0].message


def test_a_sentence_comparing_two_gpus_states_no_result_of_the_configuration(tmp_path):
    # review: fp32 was measured on the GTX 1070 only; a sentence naming both GPUs compares them, and
    # states no fp32 result on the RTX 3090; one naming the RTX 3090 alone still does
    prose = ("fp16 runs at 0.0612 ms on the RTX 3090 and at 0.2001 ms on the GTX 1070, where fp32 takes 0.2113 ms.\n\n"
             "On the GTX 1070 fp32 takes 0.2113 ms, about 3.5x the RTX 3090's fp16 time.\n\n"
             "On the RTX 3090, fp32 was slower than fp16.\n")
    study, findings = _findings(tmp_path, prose)
    assert [f.line for f in findings] == [line_of(study, "On the RTX 3090, fp32 was slower")]


def test_a_gpu_named_inside_a_longer_gpus_name_is_that_one(tmp_path):
    # review: "RTX 3090 Ti" held "RTX 3090"; with both GPUs in the records each configuration names its own
    records = [*RECORDS, record("ti", [latency("fp32", 0.0577)], provenance=collected_provenance(gpu="NVIDIA GeForce RTX 3090 Ti"))]
    study, findings = _findings(tmp_path, "On the RTX 3090 Ti, fp32 takes 0.0577 ms.\n\nfp32 on the RTX 3090 runs at 0.07 ms.\n",
                                records=records)
    assert sg206_unmeasured.config_parts(study, NOT_MEASURED[0]).gpus == {"NVIDIA GeForce RTX 3090"}
    ti = {"config": "fp32 on the GeForce RTX 3090 Ti", "reason": "r"}
    assert sg206_unmeasured.config_parts(study, ti).gpus == {"NVIDIA GeForce RTX 3090 Ti"}
    readme = [f for f in findings if f.file.endswith("README.md")]
    assert [f.line for f in readme] == [line_of(study, "fp32 on the RTX 3090 runs at")]
