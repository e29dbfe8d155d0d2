"""SG221 one run in several jobs: two jobs whose records hold the same timed
result of one run. The README would show the figure with a job-to-job
spread of zero ("2 jobs, each 0.03613"), a replication that never ran.

One run (:func:`studygen.records.sources.run_keys`): the same input by the
sha256 of its content and the same place in it (a log's line), the same
source with the same figures, or the same timed figures to every printed
digit (at least :data:`~studygen.records.sources.MIN_RUN_FIGURES` distinct
numbers: statistics, sample counts, iteration times, a trace's kernels).
Only latencies and kernel times are compared: a plan size, a layer list or
an AP may repeat in a true replication; and only records of measurements: a
``synthetic`` one (generated for a benchmark) ran nothing. One file holding several runs gives
each run its own place; one transcribed source stating figures for several
GPUs gives other figures to each.

``collect`` refuses such an input already
(:func:`studygen.records.sources.refuse_other_job`); this check catches the
records it never saw: a record copied by hand under another ``job_id``, or
collected by a studygen that did not compare them. SG203 does not cover it:
its rule is figures that disagree, and a copy agrees with itself.

Detections are an inference run too: COCO AP figures read from one
detections file (the same content sha256) are one run of one engine, on
whatever image sets the job scores it, so the file cannot give the AP of two
variants, nor of one variant in two jobs (a re-evaluation, not a
replication). One finding per detections file and job and variant, at its
first result; one job scoring the file on two image sets is no finding.

Cases: (attack round, 01) a trtexec log copied under another name went into
a second job, and ``hackathon_mnist_trtexec``'s GTX 1070 record copied
under job id ``copy`` passed check with 0 errors; (trial s21) one detections
file collected as fp32's AP in one job and as fp16's in another passed with
0 findings, the README showing both precisions with the same twelve figures.
"""

from __future__ import annotations

from ..findings import Finding
from ..records.kinds import Kind
from ..records.sources import DIGEST, run_keys


def _keys_of_rows(study) -> dict[tuple[int, str], str]:
    """The measurement key (as text, what waivers name) of each result, by
    (record id, the result's pointer), from the first row of that result."""
    keys: dict[tuple[int, str], str] = {}
    for row in study.rows:
        result_pointer = "/".join(row.pointer.split("/")[:3])
        keys.setdefault((id(row.record), result_pointer), row.key.text())
    return keys


def _detections_finding(record, pointer: str, result: dict, first: tuple, key) -> Finding:
    other, other_pointer, other_result = first
    if result.get("variant") == other_result.get("variant"):
        what = f"two jobs' AP of {result.get('variant')}"
    else:
        what = f"the AP of {other_result.get('variant')} and of {result.get('variant')}"
    return Finding(
        "SG221",
        f"job {record.job_id}'s {result['kind']} of {result.get('variant')} is read from the detections job "
        f"{other.job_id} holds as {other_result.get('variant')}'s at {other.display_path}:{other_pointer} (content "
        f"sha256 {result[DIGEST][:12]}…, image set {result.get('dataset')}): one inference run counted as {what}",
        record.display_path, line=record.line_of(pointer), pointer=pointer, key=key,
        hint="collect coco with the detections this variant's own run wrote, in this job")


def check(context) -> list[Finding]:
    study = context.study
    held: dict[str, tuple] = {}
    detections: dict[str, tuple] = {}  # digest -> (record, pointer, result) of its first AP
    reported: set[tuple] = set()
    findings = []
    row_keys = None
    for record in study.records:
        if record.data.get("synthetic"):
            continue  # generated figures (benchmarks): no run to hold twice
        for index, result in enumerate(record.results):
            pointer = f"/results/{index}"
            if result.get("kind") == Kind.COCO_AP and isinstance(result.get(DIGEST), str):
                first = detections.setdefault(result[DIGEST], (record, pointer, result))
                once = (result[DIGEST], record.job_id, result.get("variant"))
                if (first[0].job_id, first[2].get("variant")) != once[1:] and once not in reported:
                    reported.add(once)
                    row_keys = _keys_of_rows(study) if row_keys is None else row_keys
                    findings.append(_detections_finding(record, pointer, result, first,
                                                        row_keys.get((id(record), pointer))))
                continue
            for how, key in run_keys(result):
                first = held.setdefault(key, (record, pointer, how))
                if first[0].job_id == record.job_id:
                    continue
                other, other_pointer, words = first
                row_keys = _keys_of_rows(study) if row_keys is None else row_keys
                findings.append(Finding(
                    "SG221",
                    f"job {record.job_id}'s {result['kind']} result of {result.get('variant')} is the run job "
                    f"{other.job_id} holds at {other.display_path}:{other_pointer} ({words}): one run counted as "
                    "two jobs that agree",
                    record.display_path, line=record.line_of(pointer), pointer=pointer,
                    key=row_keys.get((id(record), pointer)),
                    # the finding sits at the job read second, which need not be the copy
                    hint=f"the job that did not run it, {other.job_id} or {record.job_id}, holds a copy: remove "
                         "that result, or collect a run of its own into that job"))
                break
    return findings
