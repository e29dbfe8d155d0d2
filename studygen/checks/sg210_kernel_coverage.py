"""SG210 kernel-time coverage (warning): kernel groups of a profile that do
not add up to its profiled total within 2 %, or an unclassified share above
10 %.

For each ``kind: kernel_time`` result that lists a ``profiled_total_ms`` and
a time for every group: the sum of the group times must be within 2 % of
the total. ``unclassified_ms`` is the part of the ``other`` group that no
grouping rule matched (the collectors count those kernels in ``other``), so
it is never added to the groups a second time; a record that keeps it apart
from its groups falls short of its total and is found here. The
unclassified share is ``unclassified_share``, else ``unclassified_ms`` over
the total, else the time of a group named ``other`` or ``unclassified``
over the total. Results that give ranges over unlisted rows, or no total,
cannot be summed and are skipped.

A third warning: a profile's per-layer total more than 2 % above the GPU
compute time of the run it should have profiled (the same job and
configuration; :func:`studygen.study.analyses.kernel_time_over_compute`). The
layers of an iteration run inside its GPU compute time, so a larger total is
a profile of another run, or of a run whose per-layer timing added overhead:
its groups do not describe the latency they sit beside. What the record
states about the profiling run decides what is said. A run timed apart from
its profile (``method.separate_profile_run`` true, trtexec's
``--separateProfileRun``) is not compared at all: its profile carries the
profiler's overhead by design, the README says so of every trtexec profile,
and no collect could clear the warning (case: a user's two int8 logs, both
run with ``--separateProfileRun``, were told to collect with
``--separateProfileRun``). A run that profiled in the timed run (false) can
only have been given another run's profile, which the message and hint say;
where the record does not say (no log, a TensorRT 7 log), the hint names the
log that would.

Cases: (seed) the source gives its kernel groups only as ranges over rows it
does not list, so no sum can be checked; a collected profile whose grouping
rules miss the deformable-attention kernels would leave them unclassified.
A fourth, at the study file: a rule of its ``kernel_groups`` that takes no
kernel or layer any record lists (:func:`rule_findings`), a typo in its
pattern or an earlier rule that takes every name it was written for (the
message names that rule). Only the results grouped by the rules as they are
(SG223 finds the others) are read, and a rule is named only where the names
prove it: a group of its that lists fewer kernels than it holds, or a name
grouped by its layer type or tactic, may hide what it took.

(issue 22) A TensorRT 7 GoogLeNet profile whose Caffe layer names
(``inception_3a/3x3 + inception_3a/relu_3x3``) match no rule had its
unclassified time counted twice, "+35.4% off the profiled total", although
its groups summed to the total exactly.
"""

from __future__ import annotations

from ..findings import Finding
from ..numbers import carried_decimals, format_number, source_decimals
from ..records.kinds import Kind
from ..records.load import yaml_line
from ..study.analyses import KERNEL_OVER_COMPUTE_LIMIT, UNCLASSIFIED_LIMIT, kernel_time_over_compute, unclassified_share
from ..study.timing import batch_words
from .kernel_rule_use import (DEFAULT, FALLBACK_GROUP, differences, grouped_results, rule_uses, unclassified_names)

SUM_TOLERANCE = 0.02


def _finding(record, pointer: str, message: str, hint: str) -> Finding:
    return Finding("SG210", message, record.display_path, line=record.line_of(pointer), pointer=pointer, hint=hint)


def total_text(result: dict) -> str:
    """``profiled_total_ms`` as a message prints it: at the digits the
    record supports. A mean over profiled iterations (``per_iteration``)
    with no more digits than their totals carry: a trace's record collected
    before the collector wrote its figures at the trace's resolution holds
    the mean to 12 significant digits (32.4186086667 over totals of 6
    decimals, 42.235168 ...), which no iteration measured. Any other total as
    its source printed it."""
    total = result["profiled_total_ms"]
    carried = carried_decimals(entry["profiled_total_ms"] for entry in result.get("per_iteration") or []
                               if isinstance(entry, dict) and "profiled_total_ms" in entry)
    own = source_decimals(total)
    if carried is None or (own is not None and own <= carried):
        return format_number(total)
    return format_number(total, carried)


def unclassified_hint(result: dict) -> str:
    """What to do about unclassified time: grouping rules, and for a
    TensorRT profile the layer types of ``--exportLayerInfo``, which group
    layers whose names say nothing about their work. Rules apply when a
    profile is read, so the hint names the re-collect that applies them."""
    hint = ("add grouping rules (kernel_groups in the study file) for the kernels left over, then collect the "
            'profile again with --replace "REASON" (rules apply only when a profile is collected)')
    if result.get("backend") == "tensorrt":
        hint += (", or collect the profile again with --layer-info (trtexec --exportLayerInfo with "
                 "--profilingVerbosity=detailed) so that its layers are grouped by their type")
    return hint


def check_result(record, index: int, result: dict) -> list[Finding]:
    total = result.get("profiled_total_ms")
    groups = result["groups"]
    if not total or any("time_ms" not in g for g in groups):
        return []
    pointer = f"/results/{index}"
    where = f"job {record.job_id}, {result['variant']}" + (f" at {result['shape']}" if result.get("shape") else "")
    findings = []
    summed = sum(g["time_ms"] for g in groups)
    if abs(summed - total) > SUM_TOLERANCE * total:
        findings.append(_finding(
            record, f"{pointer}/profiled_total_ms",
            f"kernel groups of {where} sum to {format_number(summed, 3)} ms, "
            f"{format_number(100 * (summed - total) / total, 1, sign=True)}% off the profiled total "
            f"{total_text(result)} ms (limit {format_number(100 * SUM_TOLERANCE, 0)}%)",
            "group every kernel (add an 'other' group) or fix the total"))
    share = unclassified_share(result)
    if share is not None and share > UNCLASSIFIED_LIMIT:
        findings.append(_finding(
            record, pointer,
            f"{format_number(100 * share, 1)}% of the profiled {total_text(result)} ms of {where} is unclassified "
            f"(limit {format_number(100 * UNCLASSIFIED_LIMIT, 0)}%)",
            unclassified_hint(result)))
    return findings


def over_compute_findings(study) -> list[Finding]:
    """One warning per profile whose per-layer total exceeds its run's GPU
    compute time by more than the limit (:func:`kernel_time_over_compute`),
    on the profile's ``profiled_total_ms``."""
    findings = []
    for found in kernel_time_over_compute(study):
        total, result = found.total, found.total.result
        where = (f"job {total.job_id}, {result['variant']}" + (f" at {result['shape']}" if result.get("shape") else "")
                 + f" {batch_words(total)}")
        if found.profiled_in_timed_run:
            cause = ("a profile of another run: the log states that this run profiled its layers while it was timed "
                     "(no --separateProfileRun), so they ran inside that time")
        else:
            cause = "a profile of another run, or of a run whose profiling added time to each layer"
        findings.append(_finding(
            total.record, total.pointer,
            f"the per-layer kernel total of {where} is {format_number(total.value)} ms, "
            f"{format_number(100 * found.excess, 1)}% above the {format_number(found.compute_ms)} ms {found.statistic} "
            f"GPU compute time of the same run it should fit in (limit "
            f"{format_number(100 * KERNEL_OVER_COMPUTE_LIMIT, 0)}%): {cause}",
            over_compute_hint(found.profiled_in_timed_run)))
    return findings


def over_compute_hint(profiled_in_timed_run: bool) -> str:
    """What clears a per-layer total above its run's GPU compute time:
    for a run that profiled while timed, the profile that run wrote, or a
    job of its own for the profile; for a run whose record does not say how
    it profiled, first the log that says it (a run timed apart from its
    profile, ``--separateProfileRun``, is never compared)."""
    own_job = ("collect the profile this run wrote (its --exportProfile file, or the --dumpProfile table of the "
               "same log), or record the profile that was given as a job of its own")
    if profiled_in_timed_run:
        return own_job
    return ("collect with the run's trtexec log (--log) so that the record states whether its layers were profiled "
            "in a separate run (--separateProfileRun: their total then carries the profiler's overhead by design "
            f"and is not compared); otherwise {own_job}")


NAMES_SHOWN = 5  # unclassified names a rule's finding lists


def rule_findings(study, rules) -> list[Finding]:
    """One warning per rule of the study file's ``kernel_groups`` that takes
    no listed kernel or layer of any record
    (:func:`studygen.checks.kernel_rule_use.rule_uses`), at its pattern:
    naming the earlier rules that take the names it matches, else listing
    the largest unclassified names (:data:`NAMES_SHOWN`). Nothing when no
    result is grouped by the rules as they are. ``rules``: the study's
    (:func:`~studygen.checks.kernel_rule_use.study_rules`), None when it
    gives none or one does not compile."""
    if rules is None:
        return []
    current, others = [], []
    for record, index, result, source in grouped_results(study):
        if source != DEFAULT and not differences(rules, index, result):
            current.append(result)
    if not current:
        return []
    held = {id(result) for result in current}  # a set: a study of many profiles is not walked once per profile
    others = [result for record in study.records for result in record.results
              if result.get("kind") == Kind.KERNEL_TIME and id(result) not in held]
    unclassified = None
    findings = []
    for use in rule_uses(rules, current, others):
        if use.takes or use.maybe:
            continue
        rule = use.rule
        if use.shadowed:
            earlier = "; ".join(f"{rules[index].words()} takes {count} of them"
                                for index, count in sorted(use.shadowed.items()))
            said = (f"the kernel and layer names it matches are taken by an earlier rule, which wins: {earlier}")
            hint = "move the rule above the earlier one, or narrow the earlier rule's pattern, then collect again"
        else:
            if unclassified is None:
                unclassified = unclassified_names(rules, current)
            shown = ", ".join(repr(name) for name in unclassified[:NAMES_SHOWN])
            more = f" and {len(unclassified) - NAMES_SHOWN} more" if len(unclassified) > NAMES_SHOWN else ""
            said = "its pattern is found in none of their names" + (
                f"; names no rule matches (counted in '{FALLBACK_GROUP}'): {shown}{more}" if unclassified else "")
            hint = "fix the pattern (a typo?) or remove the rule"
        findings.append(Finding(
            "SG210", f"{rule.words()} takes no kernel or layer of the {len(current)} kernel-time "
            f"result(s) grouped by the study file's rules: {said}", study.rel(study.study_path),
            line=yaml_line(study.spec_text, "kernel_groups", rule.index, "pattern"), pointer=rule.pointer,
            hint=hint + '; rules apply only when a profile is collected: collect it again with --replace "REASON"'))
    return findings


def check(context) -> list[Finding]:
    study = context.study
    findings = []
    for record in study.records:
        for index, result in enumerate(record.results):
            if result["kind"] == Kind.KERNEL_TIME:
                findings.extend(check_result(record, index, result))
    return findings + over_compute_findings(study) + rule_findings(study, context.study_rules)
