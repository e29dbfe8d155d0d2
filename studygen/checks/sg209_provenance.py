"""SG209 provenance: a record whose figures cannot be traced to a machine,
software, model and code, or to a publication.

- A collected record (``provenance.collector``) must name the GPU (a
  record measured without one, ``gpu_count`` 0, whose latencies the host's
  clock timed, ``collect run --cpu``: the CPU, ``provenance.cpu``), the
  version of the software its results' backends run on (``tensorrt`` for
  TensorRT results, ``torch`` for PyTorch, ``onnxruntime``; at least one
  version for results without a backend), the checkpoint revision (or, for
  ``random-init`` weights, the seed that made them) and the repository
  commit. A version must name a number: ``unknown`` is no version.
- A transcribed record (``provenance.source``) must carry a citation that is
  more than whitespace.
- Any record's checkpoint revision must be one its study file names
  (``model.revision``) or lists (``model.revisions``), by the rule
  ``collect`` refuses a ``--checkpoint`` with and the measurement key
  follows (:func:`~studygen.study.model_revisions.names_revision`: a git
  hash names its commit in either case and abbreviated, unless it begins
  two commits the study holds). A study file that states no revision
  allows any.
- Any record's checkpoint id must name the study file's model
  (``model.id``), by the rule ``collect`` refuses a ``--checkpoint`` with
  (:func:`~studygen.study.model_revisions.names_model`: a Hugging Face id
  case aside, or the study's ``local_dir``).

Each missing field is one error at its JSON pointer (or its parent's, when
the field is absent). The hint fits how the record was made: a record
ingested from another machine's output (``collect trtexec``,
``torch-profile``, ``coco``) gets the field by running its collect command
again with the option that states it (the record keeps its results; a wrong
value needs ``--replace REASON``), a record measured here (``collect run``)
by ``collect env`` on the machine that measured it.

Cases: (seed) every seed figure is transcribed and cites the pull request;
a collected record without ``repository_commit`` could not be re-run from
the commit that measured it. (issue 22) A record collected with
``--software torch=unknown`` passed, and the hint for a log from another
machine said to run ``collect env``, which records this machine. (issue:
revisions) collect refused a log exported at another commit of the model
repository, so its record stated the study's revision, false; and the
hackathon family's records held seven revisions while its study file named
one, and check said nothing. (issue: provenance) ``ABC1234…`` passed as
``abc1234`` yet made a measurement key of its own; a record of another
model in the study's folder passed. (trial s21) A ``collect run --cpu``
record, timed on a machine without a GPU, was told to name a GPU, and
``collect env`` there could not: nothing said which CPU timed its figures.
"""

from __future__ import annotations

import functools

from ..findings import Finding
from ..records.checkpoints import Revisions
from ..records.kinds import Kind
from ..records.keys import measured_without_gpu
from ..records.timers import is_host_clock_timer
from ..records.unstated import INGEST_COLLECTORS, RUN_COLLECTOR
from ..study.model_revisions import describe_allowed, names_model, names_revision
from ..study.scaffold import unfinished_severity

BACKEND_VERSION = {"tensorrt": "tensorrt", "pytorch": "torch", "onnxruntime": "onnxruntime"}


def _finding(record, pointer: str, message: str, hint: str, severity: str = "") -> Finding:
    return Finding("SG209", f"job {record.job_id}: {message}", record.display_path, line=record.line_of(pointer),
                   pointer=pointer, hint=hint, severity=severity)


def _hint(record, missing: str | None, option: str, otherwise: str) -> str:
    """How to give ``record`` a field it lacks, fitting how it was made: a
    measured record by ``collect env`` on its machine; an ingested one by its
    collect command again with ``option`` (``missing`` says what the input
    left out); any other, ``otherwise``."""
    name = (record.provenance.get("collector") or {}).get("name")
    if name == RUN_COLLECTOR:
        return (f"on the machine that measured it: studygen collect env --family {record.data['family']} "
                f"--job {record.job_id} --role measuring")
    if name in INGEST_COLLECTORS:
        again = f"run its collect command again (provenance.collector.command) with {option}; the record keeps its results"
        return f"{missing}: {again}" if missing else again
    return otherwise


def _cpu_hint(record) -> str:
    """How a record timed on the CPU gets its CPU model: ``collect env`` on
    the machine that measured it, which reads the model
    (:func:`studygen.collect.env.cpu_model`), where ``collect run`` made it."""
    if (record.provenance.get("collector") or {}).get("name") == RUN_COLLECTOR:
        return (f"on the machine that measured it: studygen collect env --family {record.data['family']} "
                f"--job {record.job_id} --role measuring (it records the CPU model as provenance.cpu)")
    return "record the model of the CPU that timed it as provenance.cpu"


def _is_version(value) -> bool:
    """A version names a number (``unknown`` does not)."""
    return any(map(str.isdigit, str(value)))  # each character's test, in C


def timed_on_cpu(record) -> bool:
    """Whether ``record`` was measured without a GPU (``gpu_count`` 0, no
    ``gpu``: :func:`~studygen.records.keys.measured_without_gpu`) and
    a latency of it was timed by the host's clock
    (:func:`~studygen.records.timers.is_host_clock_timer`), or every result
    of it is an agreement figure (``collect agreement --cpu``: outputs
    computed on the CPU): its figures are the CPU's, which it is held to name.
    Case (a new user's trial): agreement figures computed with numpy on a
    CPU, collected with ``--cpu``, were told to name a GPU."""
    results = record.results
    return measured_without_gpu(record.provenance) and (any(
        result.get("kind") == Kind.LATENCY and is_host_clock_timer((result.get("method") or {}).get("timer"))
        for result in results) or (bool(results) and all(result.get("kind") == Kind.AGREEMENT for result in results)))


def collected(record, commit_severity: str = "") -> list[Finding]:
    """SG209's findings on a collected record; ``commit_severity`` is the one
    of a missing repository commit (:func:`studygen.study.scaffold.unfinished_severity`:
    a warning while the study is a draft, which ``studygen new`` cannot know
    will be collected with ``--commit``, so it waives nothing in advance)."""
    provenance = record.provenance
    software = provenance.get("software") or {}
    checkpoint = provenance["checkpoint"]
    findings = []
    if timed_on_cpu(record):
        if not provenance.get("cpu"):
            findings.append(_finding(record, "/provenance/cpu", "collected record timed without a GPU names no CPU",
                                     _cpu_hint(record)))
    elif not provenance.get("gpu"):
        findings.append(_finding(record, "/provenance/gpu", "collected record names no GPU", _hint(
            record, "the input names no GPU", "--gpu MODEL, the GPU of the machine that produced the input",
            "record the measuring GPU model")))
    needed = sorted({BACKEND_VERSION[r["backend"]] for r in record.results if r.get("backend") in BACKEND_VERSION})
    for name in needed:
        if not software.get(name):
            findings.append(_finding(record, f"/provenance/software/{name}",
                                     f"collected record has no {name} version, yet its results ran on it", _hint(
                                         record, f"the input states no {name} version", f"--software {name}=VERSION",
                                         "record the software versions of the measuring machine")))
    for name, version in software.items():
        if version is not None and not _is_version(version):
            findings.append(_finding(record, f"/provenance/software/{name}",
                                     f"collected record's {name} version {version!r} is no version",
                                     f"collect again with --software {name}=VERSION --replace REASON to correct it"))
    if not needed and not any(software.values()):
        findings.append(_finding(record, "/provenance/software", "collected record names no software version",
                                 "record the software versions of the measuring machine"))
    if checkpoint.get("weights") == "random-init":
        if checkpoint.get("seed") is None:
            findings.append(_finding(record, "/provenance/checkpoint/seed",
                                     "random-init checkpoint without the seed that made its weights",
                                     "record the seed (and config) of the random weights"))
    elif not checkpoint.get("revision"):
        revision_hint = "record the checkpoint revision (commit hash) that was measured"
        if (provenance.get("collector") or {}).get("name") in INGEST_COLLECTORS:
            revision_hint = _hint(record, None, "--checkpoint ID@REVISION (or set model.revision in the study file "
                                  "first), the revision that was measured", revision_hint)
        findings.append(_finding(record, "/provenance/checkpoint/revision",
                                 f"checkpoint {checkpoint.get('id')} has no revision", revision_hint))
    if not provenance.get("repository_commit"):
        findings.append(_finding(record, "/provenance/repository_commit", "collected record has no repository commit",
                                 _hint(record, None, "--commit SHA, the commit of the code that made the measured "
                                       "engine or run", "record the commit of the code that measured it"),
                                 severity=commit_severity))
    return findings


def transcribed(record) -> list[Finding]:
    source = record.provenance["source"]
    if not str(source.get("citation", "")).strip():
        return [_finding(record, "/provenance/source/citation", "transcribed record cites no source",
                         "cite the publication the figures come from")]
    return []


def unlisted_revision(record, model: dict | None, study_file: str, view: Revisions | None = None,
                      named=None) -> list[Finding]:
    """A finding when ``record``'s checkpoint revision is one the study file's
    ``model`` (shown as ``study_file``) neither names nor lists among the
    revisions in ``view`` (the study's: a hash that begins two commits in
    view names neither); none for a record without a revision
    (:func:`collected` asks for it). ``named``: that test of a revision
    (:func:`~studygen.study.model_revisions.names_revision` of ``model`` and
    ``view``), given where the caller keeps its answers."""
    revision = (record.provenance.get("checkpoint") or {}).get("revision")
    if not revision or (named(revision) if named else names_revision(model, revision, view)):
        return []
    begun = (view or Revisions()).commits_begun(revision)
    ambiguous = f"; it begins {len(begun)} commits the study holds ({', '.join(begun)})" if len(begun) > 1 else ""
    return [_finding(record, "/provenance/checkpoint/revision",
                     f"checkpoint revision {revision} is not one {study_file} names ({describe_allowed(model)})"
                     f"{ambiguous}",
                     f"if the record measured that revision, list {revision} under model.revisions in {study_file}; "
                     "if not, collect it again with --checkpoint ID@REVISION --replace REASON")]


def other_model(record, model: dict | None, study_file: str, named=None) -> list[Finding]:
    """A finding when ``record``'s checkpoint id names another model than the
    study file's ``model.id`` (:func:`~studygen.study.model_revisions.names_model`:
    a Hugging Face id case aside, the study's ``local_dir``, a folder of the
    model); none when either states no id. ``named``: that test of an id
    (``names_model`` of ``model``), given where the caller keeps its answers."""
    checkpoint_id = (record.provenance.get("checkpoint") or {}).get("id")
    if named(checkpoint_id) if named else names_model(model, checkpoint_id):
        return []
    return [_finding(record, "/provenance/checkpoint/id",
                     f"checkpoint {checkpoint_id} is not the model {study_file} measures ({model['id']})",
                     f"a record of {checkpoint_id} belongs in a family of its own (studygen new FAMILY --model "
                     f"{checkpoint_id}); if it measured {model['id']}, collect it again with --checkpoint "
                     f"{model['id']} --replace REASON")]


def check(context) -> list[Finding]:
    study = context.study
    model, study_file = study.spec.get("model"), study.rel(study.study_path)
    # A study's records hold a few checkpoint ids and revisions, each asked once (both tests are pure):
    # a revision's key among the study's took most of this check's time, twice a record.
    model_named = functools.cache(functools.partial(names_model, model))
    revision_named = functools.cache(lambda revision: names_revision(model, revision, study.revisions))
    findings, commit_severity = [], unfinished_severity(study.spec)
    for record in study.records:
        provenance = record.provenance
        if "collector" in provenance:
            findings.extend(collected(record, commit_severity))
        elif "source" in provenance:
            findings.extend(transcribed(record))
        findings.extend(other_model(record, model, study_file, model_named))
        findings.extend(unlisted_revision(record, model, study_file, study.revisions, revision_named))
    return findings
