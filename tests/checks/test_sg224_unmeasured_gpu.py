"""SG224 (warning): the study's headline names a GPU none of its records was measured on (a GPU trial: a study
file titled "... on one H200" was run on an H100, and render printed the title over H100 tables)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg224_unmeasured_gpu
from studygen.findings import WARNING

from .studies import collected_provenance, latency, load, record, spec

TEMPLATE = "{{ generated_note }}\n\n# {{ study.title }}\n\n{{ study.description }}\n\n{{ study.spec.decision.summary }}\n"


def findings(tmp_path, *, title="Toy detector", description="A toy.", summary="Not decided.", gpus=("NVIDIA H100 80GB HBM3",),
             provenance=None, template=TEMPLATE):
    records = [record(f"job{index}", [latency("fp16", 5.0 + index)], provenance or collected_provenance(gpu=gpu))
               for index, gpu in enumerate(gpus)]
    study = load(tmp_path, records=records, template=template,
                 study=spec(title=title, description=description, decision={"shipped": False, "summary": summary}))
    return sg224_unmeasured_gpu.check(CheckContext(study))


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


def test_each_field_read_and_each_gpu_once_per_place(tmp_path):
    found = findings(tmp_path, description="Measured on the A100 and the H100.",
                     summary="fp16 is faster on the L40S and the RTX 4090 Ti.")
    assert [(f.pointer, f.key) for f in found] == [
        ("/description", "/description A100"), ("/decision/summary", "/decision/summary L40S"),
        ("/decision/summary", "/decision/summary RTX 4090 Ti")]


def test_a_study_timed_without_a_gpu_names_none(tmp_path):
    on_cpu = collected_provenance(gpu=None, gpu_count=0, cpu="AMD EPYC")
    (finding,) = findings(tmp_path, title="A toy on the A100", provenance=on_cpu)
    assert finding.message == "/title names the A100, which no record was measured on (records: no GPU)"


def test_what_the_rule_leaves_alone(tmp_path):
    # a sentence that denies, defers or cites another source names another machine without a result on it
    assert findings(tmp_path, description="Not run on the H200. Published B200 figures differ. A B100 run is planned.",
                    summary="See [the vendor's A100 numbers](https://example.org).") == []
    # a record that states no GPU at all may be the H200's
    unknown = collected_provenance(gpu=None)
    assert findings(tmp_path / "unknown", title="On one H200", provenance=unknown) == []
    # a field the README does not print publishes nothing
    assert findings(tmp_path / "unprinted", description="On one H200.",
                    template="{{ generated_note }}\n\n# {{ study.title }}\n") == []
    # lower case, words and numbers that are no model
    assert findings(tmp_path / "words", title="h200 notes, step T40, A1 and V2 of the H100x") == []
