"""SG209: collected records name GPU, versions, checkpoint revision (or seed) and commit; transcribed ones cite a source."""

from __future__ import annotations

from studygen.checks import CheckContext, sg209_provenance
from studygen.findings import ERROR

from .studies import collected_provenance, latency, load, record


def test_complete_collected_record_passes(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])])
    assert sg209_provenance.check(CheckContext(study)) == []


def test_missing_gpu_version_revision_and_commit(tmp_path):
    provenance = collected_provenance(gpu=None, tensorrt=None, repository_commit=None)
    provenance["checkpoint"] = {"id": "example/toy-detector", "revision": None, "weights": "pretrained"}
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)], provenance)])
    findings = sg209_provenance.check(CheckContext(study))
    assert [(f.code, f.severity, f.pointer) for f in findings] == [
        ("SG209", ERROR, "/provenance/gpu"),
        ("SG209", ERROR, "/provenance/software/tensorrt"),
        ("SG209", ERROR, "/provenance/checkpoint/revision"),
        ("SG209", ERROR, "/provenance/repository_commit"),
    ]
    text = (tmp_path / "measurements/toy/job.json").read_text().splitlines()
    assert '"gpu": null' in text[findings[0].line - 1]
    assert "job job: collected record has no tensorrt version, yet its results ran on it" == findings[1].message
    assert "checkpoint example/toy-detector has no revision" in findings[2].message


def test_random_init_needs_its_seed(tmp_path):
    provenance = collected_provenance()
    provenance["checkpoint"] = {"id": "example/toy-detector", "revision": None, "weights": "random-init", "seed": None}
    study = load(tmp_path / "a", records=[record("job", [latency("fp16", 5.889)], provenance)])
    findings = sg209_provenance.check(CheckContext(study))
    assert [f.pointer for f in findings] == ["/provenance/checkpoint/seed"]
    provenance["checkpoint"]["seed"] = 0
    assert sg209_provenance.check(CheckContext(load(tmp_path / "b", records=[record("job", [latency("fp16", 5.889)], provenance)]))) == []


def test_transcribed_record_needs_a_citation(tmp_path):
    source = {"gpu": None, "software": {}, "checkpoint": {"id": "example/toy-detector", "weights": "pretrained"},
              "source": {"citation": "   "}}
    study = load(tmp_path / "a", records=[record("job", [latency("fp16", 5.889)], source)])
    findings = sg209_provenance.check(CheckContext(study))
    assert [(f.pointer, f.message) for f in findings] == [("/provenance/source/citation", "job job: transcribed record cites no source")]
    source["source"]["citation"] = "Toy paper, table 2"
    assert sg209_provenance.check(CheckContext(load(tmp_path / "b", records=[record("job", [latency("fp16", 5.889)], source)]))) == []


def _findings(tmp_path, result: dict, **provenance_changes):
    provenance = collected_provenance(**provenance_changes)
    provenance["software"] = {}
    study = load(tmp_path, records=[record("job", [result], provenance)])
    return [(f.pointer, f.message, f.hint) for f in sg209_provenance.check(CheckContext(study))]


def test_no_software_at_all_is_one_finding_unless_a_backend_names_the_missing_one(tmp_path):
    versions_hint = "record the software versions of the measuring machine"
    # a backend without a version of its own ("other"): the record must still name some software
    assert _findings(tmp_path / "a", latency("fp16", 5.889, backend="other"), gpu=None, repository_commit=None) == [
        ("/provenance/gpu", "job job: collected record names no GPU", "record the measuring GPU model"),
        ("/provenance/software", "job job: collected record names no software version", versions_hint),
        ("/provenance/repository_commit", "job job: collected record has no repository commit",
         "record the commit of the code that measured it"),
    ]
    # a TensorRT result: the missing tensorrt version is the finding, not a second one about all software
    assert _findings(tmp_path / "b", latency("fp16", 5.889)) == [
        ("/provenance/software/tensorrt", "job job: collected record has no tensorrt version, yet its results ran on it",
         versions_hint)]
