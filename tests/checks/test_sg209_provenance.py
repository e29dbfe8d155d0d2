"""SG209: collected records name GPU, versions, checkpoint revision (or seed) and commit; transcribed ones cite a source."""

from __future__ import annotations

from studygen.checks import CheckContext, sg209_provenance
from studygen.findings import ERROR

from .studies import collected_provenance, latency, load, record, spec


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


def _revision_findings(root, revisions: list[str], model_changes: dict) -> list[tuple[str, str, str, str]]:
    """SG209's findings (job, pointer, message, hint) on one record per revision of ``revisions``, under a study
    file whose model is :func:`spec`'s with ``model_changes``."""
    study_file = spec()
    study_file["model"].update(model_changes)
    records = []
    for number, revision in enumerate(revisions):
        provenance = collected_provenance()
        provenance["checkpoint"] = {"id": "example/toy-detector", "revision": revision, "weights": "pretrained"}
        records.append(record(f"job{number}", [latency("fp16", 5.889)], provenance))
    findings = sg209_provenance.check(CheckContext(load(root, records=records, study=study_file)))
    return [(f.message.split(":")[0], f.pointer, f.message, f.hint) for f in findings]


def test_a_revision_the_study_file_neither_names_nor_lists_is_an_error(tmp_path):
    # the study names REVISION (0123456789ab…) and lists 331d8b23 and one full hash
    listed = {"revisions": ["331d8b23", "c65790e1147b8cb4a22258c41533d29d13417fd4"]}
    revisions = ["0123456789abcdef0123456789abcdef01234567", "0123456", "331D8B23c6d37346276343a583206868eefcb052",
                 "c65790e", "76321b190daa3755d544922052be109a2172e441", "0123457", "331d8b2"]
    findings = _revision_findings(tmp_path / "a", revisions, listed)
    study_file = "families/toy/study.yaml"
    allowed = "model revisions 0123456789abcdef0123456789abcdef01234567, 331d8b23, c65790e1147b8cb4a22258c41533d29d13417fd4"
    assert findings == [
        ("job job4", "/provenance/checkpoint/revision",
         f"job job4: checkpoint revision 76321b190daa3755d544922052be109a2172e441 is not one {study_file} names "
         f"({allowed})",
         f"if the record measured that revision, list 76321b190daa3755d544922052be109a2172e441 under model.revisions "
         f"in {study_file}; if not, collect it again with --checkpoint ID@REVISION --replace REASON"),
        ("job job5", "/provenance/checkpoint/revision",
         f"job job5: checkpoint revision 0123457 is not one {study_file} names ({allowed})",
         f"if the record measured that revision, list 0123457 under model.revisions in {study_file}; if not, "
         "collect it again with --checkpoint ID@REVISION --replace REASON"),
    ]  # 331d8b2 is 7 hex digits of 331d8b23: the same commit abbreviated
    without_list = _revision_findings(tmp_path / "b", ["331d8b23"], {})
    assert [(job, pointer) for job, pointer, _, _ in without_list] == [("job job0", "/provenance/checkpoint/revision")]
    assert "(model revision 0123456789abcdef0123456789abcdef01234567)" in without_list[0][2]


def test_a_study_without_revision_allows_any_and_names_are_matched_whole(tmp_path):
    assert _revision_findings(tmp_path / "a", ["331d8b23", "v2"], {"revision": None}) == []
    # a branch or tag matches only itself; "main" begins "mainline" but names another revision
    findings = _revision_findings(tmp_path / "b", ["mainline", "main", "v1.0"], {"revision": "main", "revisions": ["v1.0"]})
    assert [(job, pointer) for job, pointer, _, _ in findings] == [("job job0", "/provenance/checkpoint/revision")]
    assert "checkpoint revision mainline is not one families/toy/study.yaml names (model revisions main, v1.0)" in findings[0][2]
    # revision null, one listed: the list alone decides
    findings = _revision_findings(tmp_path / "c", ["331d8b23", "0123456"], {"revision": None, "revisions": ["331d8b23"]})
    assert [(job, message.split("(")[1]) for job, _, message, _ in findings] == [("job job1", "model revision 331d8b23)")]


def test_a_revision_in_upper_case_is_the_listed_commit_and_one_key(tmp_path):
    # ABC1234… and abc1234 name one commit: SG209 passes both and their figures make one measurement key
    upper = "ABC1234" + "d" * 33
    study_file = spec()
    study_file["model"]["revision"] = "abc1234"
    records = []
    for number, revision in enumerate([upper, "abc1234", "abc1234DDD"]):
        provenance = collected_provenance()
        provenance["checkpoint"] = {"id": "example/toy-detector", "revision": revision, "weights": "pretrained"}
        records.append(record(f"job{number}", [latency("fp16", 5.889)], provenance))
    study = load(tmp_path, records=records, study=study_file)
    assert sg209_provenance.check(CheckContext(study)) == []
    assert sorted({row.key.revision for row in study.rows}) == ["abc1234"]


def test_a_hash_beginning_two_commits_of_the_study_names_neither(tmp_path):
    twin_a, twin_b = "abc1234a" + "0" * 32, "abc1234b" + "0" * 32
    findings = _revision_findings(tmp_path, [twin_a, twin_b, "abc1234"], {"revision": twin_a, "revisions": [twin_b]})
    assert [(job, pointer) for job, pointer, _, _ in findings] == [("job job2", "/provenance/checkpoint/revision")]
    assert findings[0][2] == (f"job job2: checkpoint revision abc1234 is not one families/toy/study.yaml names "
                              f"(model revisions {twin_a}, {twin_b}); it begins 2 commits the study holds "
                              f"({twin_a}, {twin_b})")
    study_file = spec()
    study_file["model"].update(revision=twin_a, revisions=[twin_b])
    records = []
    for number, revision in enumerate([twin_a, twin_b.upper(), "abc1234"]):
        provenance = collected_provenance()
        provenance["checkpoint"] = {"id": "example/toy-detector", "revision": revision, "weights": "pretrained"}
        records.append(record(f"job{number}", [latency("fp16", 5.889)], provenance))
    keys = {row.job_id: row.key.revision for row in load(tmp_path / "k", records=records, study=study_file).rows}
    assert keys == {"job0": "abc1234a", "job1": "abc1234b", "job2": "abc1234"}  # two commits, two keys


def _id_findings(root, checkpoint_ids: list, model_changes: dict | None = None) -> list[tuple[str, str, str, str]]:
    """SG209's findings (job, pointer, message, hint) on one record per checkpoint id of ``checkpoint_ids``."""
    study_file = spec()
    study_file["model"].update(model_changes or {})
    records = []
    for number, checkpoint_id in enumerate(checkpoint_ids):
        provenance = collected_provenance()
        provenance["checkpoint"]["id"] = checkpoint_id
        records.append(record(f"job{number}", [latency("fp16", 5.889)], provenance))
    findings = sg209_provenance.check(CheckContext(load(root, records=records, study=study_file)))
    return [(f.message.split(":")[0], f.pointer, f.message, f.hint) for f in findings]


def test_a_record_of_another_model_is_an_error_however_the_model_is_spelt(tmp_path):
    ids = ["example/toy-detector", "Example/Toy-Detector", "https://huggingface.co/example/toy-detector",
           "checkpoints/toy", "/models/example/toy-detector", "unknown", "example/other-detector",
           "/models/toy-detector"]
    findings = _id_findings(tmp_path, ids, {"local_dir": "./checkpoints/toy"})
    study_file = "families/toy/study.yaml"
    assert findings == [
        (f"job job{n}", "/provenance/checkpoint/id",
         f"job job{n}: checkpoint {ids[n]} is not the model {study_file} measures (example/toy-detector)",
         f"a record of {ids[n]} belongs in a family of its own (studygen new FAMILY --model {ids[n]}); if it "
         "measured example/toy-detector, collect it again with --checkpoint example/toy-detector --replace REASON")
        for n in (6, 7)]


def test_a_study_revision_that_begins_two_commits_its_records_hold_names_neither(tmp_path):
    # the study file names abc1234; its records hold two commits that begin with it: which one is meant is unknown
    twin_a, twin_b = "abc1234a" + "0" * 32, "abc1234b" + "0" * 32
    findings = _revision_findings(tmp_path / "a", [twin_a, twin_b], {"revision": "abc1234"})
    assert [(job, pointer) for job, pointer, _, _ in findings] == [
        ("job job0", "/provenance/checkpoint/revision"), ("job job1", "/provenance/checkpoint/revision")]
    # a revision beginning one commit of the study only: no word of ambiguity
    findings = _revision_findings(tmp_path / "b", ["abc1234", twin_a], {"revision": "353a4d73"})
    assert [message for _, _, message, _ in findings] == [
        f"job job{n}: checkpoint revision {revision} is not one families/toy/study.yaml names (model revision 353a4d73)"
        for n, revision in enumerate(["abc1234", twin_a])]


def test_each_checkpoint_id_and_revision_is_asked_once_a_study(tmp_path, monkeypatch):
    """Records share a few ids and revisions: the study file is asked about
    each one once (the tests are pure), and the records that hold one the
    study does not name are each still reported."""
    asked = []
    for name in ("names_model", "names_revision"):
        real = getattr(sg209_provenance, name)
        monkeypatch.setattr(sg209_provenance, name,
                            lambda model, value, *view, real=real, name=name: asked.append((name, value)) or real(model, value, *view))
    revisions = ["0123456789abcdef0123456789abcdef01234567", "0123456", "0123456789abcdef0123456789abcdef01234567",
                 "76321b190daa3755d544922052be109a2172e441", "0123456", "76321b190daa3755d544922052be109a2172e441"]
    findings = _revision_findings(tmp_path, revisions, {})
    assert [job for job, *_ in findings] == ["job job3", "job job5"]
    revision_asks = [value for name, value in asked if name == "names_revision"]
    assert revision_asks[:3] == ["0123456789abcdef0123456789abcdef01234567", "0123456",
                                 "76321b190daa3755d544922052be109a2172e441"]
    assert len(revision_asks) == 3  # once a revision: each finding's own test asks the same memo
    assert [value for name, value in asked if name == "names_model"] == ["example/toy-detector"]


# ---- a record timed on a machine without a GPU (collect run --cpu, trial s21) ----------------------------------

HOST_CLOCK = {"timer": "perf-counter", "cuda_graph": False, "data_transfers": False}
MEASURED_HERE = {"name": "studygen collect run", "version": "0.1.0", "command": "studygen collect run --job cpu-1 --cpu"}


def _cpu_record_findings(root, results: list[dict], **changes) -> list[tuple[str, str, str]]:
    provenance = collected_provenance(gpu=None, tensorrt=None, gpu_count=0, driver=None, collector=MEASURED_HERE,
                                      **changes)
    study = load(root, records=[record("cpu-1", results, provenance)])
    return [(f.pointer, f.message, f.hint) for f in sg209_provenance.check(CheckContext(study))]


def _host_clock_latency(variant: str, value_ms: float) -> dict:
    return latency(variant, value_ms, "64x64", timing="end_to_end", method=dict(HOST_CLOCK), backend="pytorch",
                   mode="eager")


def test_a_record_timed_on_the_cpu_names_its_cpu_instead_of_a_gpu(tmp_path):
    results = [_host_clock_latency("fp32", 0.445), _host_clock_latency("fp16", 0.583)]
    # before: "collected record names no GPU", whose collect env could record none on that machine
    assert _cpu_record_findings(tmp_path / "a", results) == [(
        "/provenance/cpu", "job cpu-1: collected record timed without a GPU names no CPU",
        "on the machine that measured it: studygen collect env --family toy --job cpu-1 --role measuring "
        "(it records the CPU model as provenance.cpu)")]
    assert _cpu_record_findings(tmp_path / "b", results, cpu="AMD EPYC 7763 64-Core Processor") == []


def test_without_host_clock_timings_or_with_a_gpu_count_the_gpu_is_still_asked_for(tmp_path):
    # a TensorRT latency (timer trtexec) on a record that says it had no GPU: its figures are a GPU's
    trt = latency("fp16", 5.889, method={"timer": "trtexec"})
    assert [f[0] for f in _cpu_record_findings(tmp_path / "a", [trt], cpu="AMD EPYC 7763",
                                               software={"tensorrt": "10.16.1", "torch": "2.11.0"})] == [
        "/provenance/gpu"]
    # host-clock timings on a record that leaves gpu_count out: nothing says it had no GPU
    provenance = collected_provenance(gpu=None, tensorrt=None, cpu="AMD EPYC 7763")
    study = load(tmp_path / "b", records=[record("job", [_host_clock_latency("fp32", 0.445)], provenance)])
    assert [f.pointer for f in sg209_provenance.check(CheckContext(study))] == ["/provenance/gpu"]


INGESTED_AGREEMENT = {"name": "studygen collect agreement", "version": "0.1.0",
                      "command": "studygen collect agreement --input figs.json --cpu 'Intel Xeon Gold 6338'"}


def _agreement(variant: str, metric: str, value: float) -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": "fp32", "metric": metric, "value": value,
            "dataset": "toy-val"}


def _agreement_record_findings(root, results: list[dict], **changes) -> list[tuple[str, str]]:
    provenance = collected_provenance(gpu=None, tensorrt=None, driver=None, collector=INGESTED_AGREEMENT,
                                      software={"numpy": "2.2.1"}, **changes)
    study = load(root, records=[record("cpu-1", results, provenance)])
    return [(f.pointer, f.message) for f in sg209_provenance.check(CheckContext(study))]


def test_agreement_figures_computed_on_the_cpu_name_the_cpu_not_a_gpu(tmp_path):
    # trial s28: numpy-on-CPU agreement figures collected with --cpu were told "collected record names no GPU"
    results = [_agreement("fp16", "logit_correlation", 0.99971), _agreement("fp16", "max_abs_diff", 0.0083)]
    assert _agreement_record_findings(tmp_path / "a", results, gpu_count=0, cpu="Intel Xeon Gold 6338") == []
    assert _agreement_record_findings(tmp_path / "b", results, gpu_count=0) == [
        ("/provenance/cpu", "job cpu-1: collected record timed without a GPU names no CPU")]
    # a record that says nothing of a GPU (no gpu_count) is still asked for one
    assert _agreement_record_findings(tmp_path / "c", results) == [
        ("/provenance/gpu", "job cpu-1: collected record names no GPU")]
