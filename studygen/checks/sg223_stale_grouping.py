"""SG223 kernel times grouped by other rules: a kernel-time result whose
groups are not what the study file's ``kernel_groups`` rules give.

Rules apply when a profile is collected; a record keeps their outcome (its
groups, each with its largest kernels) and a note naming the rules, never
the rules themselves, and render prints the groups the record holds. After
an edit of the rules (a group renamed, a rule added or reordered) the README
goes on showing a grouping the study file no longer states until the
profile is collected again with ``--replace``. What is compared
(:mod:`studygen.checks.kernel_rule_use`):

- a result noted as grouped by the built-in rules while the study file
  gives its own, or by the study file's rules while it now gives none;
- a result grouped by the study file's rules (by its note, or written by
  ``collect run``) that holds a group no rule names, or lists a kernel or
  layer whose name a rule now puts in another group.

A listed name no rule matches proves nothing (its TensorRT layer type or
tactic may have grouped it, and the record does not keep them), and names
past the largest a group lists are not known: a result whose listed names
all agree passes. A result grouped by the built-in rules under a study file
that gives none is not compared: those rules are studygen's, and a record
collected by an older studygen keeps the grouping it stated.

Case (trial 21): ``group: pooling`` renamed ``pool`` in the study file; the
record and the README kept ``pooling``, ``check`` said nothing, and only
``collect`` noticed ("the study file's kernel_groups changed since it was
recorded?").
"""

from __future__ import annotations

from ..findings import Finding
from ..records.unstated import RUN_COLLECTOR
from .kernel_rule_use import DEFAULT, STUDY_FILE, differences, grouped_results

SHOWN = 3  # differences a message names; the rest are counted


def where_words(record, result: dict) -> str:
    """``job h100-prof, fp32 at 28x28``: the result as SG210 words it."""
    return f"job {record.job_id}, {result['variant']}" + (f" at {result['shape']}" if result.get("shape") else "")


def hint(record, result: dict) -> str:
    """How to regroup ``result``: its source file collected again with
    ``--replace``; for a ``collect run`` record, which keeps no trace to read
    again (and has no ``--replace``), a new job timed under the rules."""
    if (record.provenance.get("collector") or {}).get("name") == RUN_COLLECTOR:
        return (f"collect run keeps no trace to group again: time the job anew under the study file's kernel_groups "
                f"(collect run --job NEW, then remove job {record.job_id}'s record), then render; or put the rules "
                "back as they were")
    locator = result.get("source_locator")
    source = f" ({locator.partition(':')[0]})" if locator else ""
    return (f'collect the profile{source} again with --replace "REASON" so that the study file\'s kernel_groups group it '
            "(rules apply only when a profile is collected), then render; or put the rules back as they were")


def stale_findings(study, rules) -> list[Finding]:
    """One error per kernel-time result grouped otherwise than the study
    file's rules say, at the first place that differs. ``rules``: the
    study's (:func:`~studygen.checks.kernel_rule_use.study_rules`), None
    when it gives none or one does not compile."""
    own = bool(study.spec.get("kernel_groups"))
    if own and rules is None:
        return []  # a pattern collect refuses: no grouping can be held against it
    findings = []
    for record, index, result, source in grouped_results(study):
        pointer = f"/results/{index}"
        if source == DEFAULT and own:
            said = ("its note says it was grouped by studygen's built-in rules, and the study file now gives rules of "
                    "its own (kernel_groups)")
        elif source == STUDY_FILE and not own:
            said = ("its note says it was grouped by the study file's kernel_groups, which the study file no longer "
                    "gives (the built-in rules apply)")
        elif own and source != DEFAULT:
            found = differences(rules, index, result)
            if not found:
                continue
            pointer = found[0].pointer
            more = f"; {len(found) - SHOWN} more" if len(found) > SHOWN else ""
            said = "it holds " + "; ".join(difference.words for difference in found[:SHOWN]) + more
        else:
            continue
        findings.append(Finding(
            "SG223", f"the kernel times of {where_words(record, result)} were grouped by other rules than the study "
            f"file's kernel_groups: {said}; the README shows the groups the record holds", record.display_path,
            line=record.line_of(pointer), pointer=pointer, hint=hint(record, result)))
    return findings


def check(context) -> list[Finding]:
    return stale_findings(context.study, context.study_rules)
