"""The study file's ``kernel_groups`` rules held against the kernel and layer
names its records list: which results were grouped by other rules (SG223),
and which rules take no name (SG210).

A kernel-time result says how it was grouped only through what a collector
wrote: ``collect trtexec`` and ``collect torch-profile`` note ``groups by
families/<f>/study.yaml kernel_groups rules`` (or ``groups by default
kernel_groups rules``), ``collect run`` groups by the study file's rules of
the day without a note, and a result transcribed from a publication carries
neither and is left alone (:func:`grouping_source`). The record keeps no
copy of the rules, only their outcome: each group and, where its source
lists rows (``rows_listed``), its largest kernels with time
(:data:`~studygen.records.group_sums.KERNELS_LISTED_PER_GROUP` at most). So
the rules are read back from the names: a study file's rule decides a name
first (its rules are tried on a TensorRT layer's type, tactic and origin
only when no rule matches the name), and an elided Myelin node or a
subgraph node named by its member list
(:func:`~studygen.records.kernel_rules.untold_node`) is unclassified
whatever its name; a listed name that no rule matches may have been grouped
by its type or tactic, which the record does not keep, so it proves nothing.

Patterns are compiled as collect compiles them
(:func:`~studygen.records.kernel_rules.compile_pattern`: RE2, or Python's
``re`` after its backtracking check), so a check is as safe from a hostile
pattern as a collect.

Case (trial 21): renaming a group ``pooling`` to ``pool`` in the study file
left a record and its README grouped by the old rules, and only the next
collect said so; a rule ``node_lienar`` (for ``node_linear``) took nothing,
and SG210 said only that 31.9 % of the profile was unclassified.
"""

from __future__ import annotations

from typing import Iterator, NamedTuple

from ..errors import RecordError
from ..records.group_sums import KERNELS_LISTED_PER_GROUP
from ..records.kernel_rules import FALLBACK_GROUP, GROUPED_BY, compile_pattern, untold_node
from ..records.kinds import Kind
from ..records.unstated import RUN_COLLECTOR


DEFAULT, STUDY_FILE, STUDY_RULES_THEN = "default", "study file", "the study file's rules when it ran"


class StudyRule(NamedTuple):
    """One entry of the study file's ``kernel_groups``: its index, pattern
    as written, group, and the compiled pattern (``search(name)``)."""

    index: int
    pattern: str
    group: str
    compiled: object

    @property
    def pointer(self) -> str:
        return f"/kernel_groups/{self.index}/pattern"

    def words(self) -> str:
        """``rule 2 ('max_pool', group pooling)``: 1-based, as a reader counts the list."""
        return f"rule {self.index + 1} ({self.pattern!r}, group {self.group})"


class StudyRules:
    """The study file's rules (:class:`StudyRule`, in order, iterated and
    indexed as a list) and the rules each kernel or layer name matches.
    A profile lists the same kernels in many results and records, so each
    distinct name is searched once: the names matched are held by this
    object, which :func:`study_rules` makes for one check call."""

    def __init__(self, rules: list[StudyRule]):
        self.rules = rules
        self._matching: dict[str, tuple[StudyRule, ...]] = {}

    def __iter__(self) -> Iterator[StudyRule]:
        return iter(self.rules)

    def __getitem__(self, index: int) -> StudyRule:
        return self.rules[index]

    def matching(self, name: str) -> tuple[StudyRule, ...]:
        """Every rule whose pattern is found in ``name``, in rule order."""
        found = self._matching.get(name)
        if found is None:
            found = self._matching[name] = tuple(rule for rule in self.rules if rule.compiled.search(name))
        return found

    def taker(self, name: str) -> StudyRule | None:
        """The first rule whose pattern is found in ``name`` (the one that
        takes it), None when none is."""
        found = self.matching(name)
        return found[0] if found else None


def study_rules(study) -> StudyRules | None:
    """The study file's own rules, compiled; None when it gives none (the
    built-in rules apply) or when one cannot be compiled safely (collect
    refuses the study file then, and says why)."""
    entries = study.spec.get("kernel_groups") or []
    if not entries:
        return None
    rules = []
    try:
        for index, entry in enumerate(entries):
            compiled = compile_pattern(entry["pattern"], study.rel(study.study_path), f"/kernel_groups/{index}/pattern")
            rules.append(StudyRule(index, entry["pattern"], entry["group"], compiled))
    except RecordError:
        return None
    return StudyRules(rules)


def known_group(rules: StudyRules, name: str) -> str | None:
    """The group ``rules`` put a kernel or layer named ``name`` in whatever
    else the profile said of it, or None when its name alone cannot tell
    (no rule matches it: its type or tactic may have decided)."""
    if untold_node(name):
        return FALLBACK_GROUP
    rule = rules.taker(name)
    return rule.group if rule is not None else None


def grouping_source(record, result: dict) -> str | None:
    """Which rules grouped a kernel-time result: :data:`DEFAULT` (the
    built-in rules, by the collector's note), :data:`STUDY_FILE` (the study
    file's, by the note), :data:`STUDY_RULES_THEN` (``collect run``, which
    notes nothing), or None for a result no rules grouped (transcribed)."""
    found = GROUPED_BY.search(result.get("note") or "")
    if found:
        return DEFAULT if found.group(1) == "default" else STUDY_FILE
    if (record.provenance.get("collector") or {}).get("name") == RUN_COLLECTOR:
        return STUDY_RULES_THEN
    return None


def grouped_results(study) -> Iterator[tuple[object, int, dict, str]]:
    """``(record, index, result, source)`` of each kernel-time result some
    rules grouped (:func:`grouping_source`), in record order."""
    for record in study.records:
        for index, result in enumerate(record.results):
            if result.get("kind") == Kind.KERNEL_TIME:
                source = grouping_source(record, result)
                if source is not None:
                    yield record, index, result, source


class Difference(NamedTuple):
    """One place where a result's grouping differs from the rules':
    ``pointer`` into the result's record, and the words saying how."""

    pointer: str
    words: str


def differences(rules: StudyRules, index: int, result: dict) -> list[Difference]:
    """Where result ``index`` (grouped by the study file's rules, as they
    were) differs from ``rules`` (as they are): a group no rule names, and a
    listed name the rules now put in another group (:func:`known_group`)."""
    named = {rule.group for rule in rules} | {FALLBACK_GROUP}
    found = []
    for group_index, group in enumerate(result.get("groups") or []):
        pointer = f"/results/{index}/groups/{group_index}"
        if group["group"] not in named:
            found.append(Difference(f"{pointer}/group", f"group {group['group']!r}, which no rule names"))
        for kernel_index, kernel in enumerate(group.get("kernels") or []):
            now = known_group(rules, kernel["name"])
            if now is not None and now != group["group"]:
                found.append(Difference(f"{pointer}/kernels/{kernel_index}",
                                        f"{kernel['name']!r} in group {group['group']!r}, which the rules put in {now!r}"))
    return found


def complete_listing(result: dict, group: dict) -> bool:
    """Whether ``group`` of ``result`` lists every kernel with time: its
    source lists rows and the group lists fewer than a collector keeps."""
    return bool(result.get("rows_listed")) and len(group.get("kernels") or []) < KERNELS_LISTED_PER_GROUP


class RuleUse:
    """What the listed names say of one rule over the results grouped by
    the rules as they are: ``takes`` a name (it is the first to match one),
    ``maybe`` (a name it may have taken is not listed, or was grouped by
    what the record does not keep), and ``shadowed``: for each earlier rule,
    how many listed names this rule matches that the earlier one takes."""

    def __init__(self, rule: StudyRule, takes: bool = False, maybe: bool = False,
                 shadowed: dict[int, int] | None = None):
        self.rule, self.takes, self.maybe, self.shadowed = rule, takes, maybe, shadowed


def rule_uses(rules: StudyRules, current: list[dict], others: list[dict]) -> list[RuleUse]:
    """:class:`RuleUse` of every rule over the results ``current`` (grouped
    by ``rules``: a rule took a name only where its group is listed) and
    ``others`` (grouped by other rules, or transcribed: a rule that would
    take one of their names is in use, that record needing a collect)."""
    uses = [RuleUse(rule, shadowed={}) for rule in rules]
    by_index = {use.rule.index: use for use in uses}
    for result in current:
        groups = {group["group"]: group for group in result.get("groups") or []}
        for use in uses:
            group = groups.get(use.rule.group)
            if group is None:
                continue  # nothing went to its group: it took nothing here
            if not complete_listing(result, group) or "time_ms" not in group:
                use.maybe = True
            for kernel in group.get("kernels") or []:
                if rules.taker(kernel["name"]) is None and not untold_node(kernel["name"]):
                    use.maybe = True  # grouped by its type or tactic, perhaps by this rule
    for result in [*current, *others]:
        for group in result.get("groups") or []:
            for kernel in group.get("kernels") or []:
                name = kernel["name"]
                if untold_node(name):
                    continue
                matching = rules.matching(name)
                if not matching:
                    continue
                first = matching[0]
                by_index[first.index].takes = True
                for later in matching[1:]:
                    shadowed = by_index[later.index].shadowed
                    shadowed[first.index] = shadowed.get(first.index, 0) + 1
    return uses


def unclassified_names(rules: StudyRules, results: list[dict]) -> list[str]:
    """The listed names of the fallback group that no rule matches, each
    once, largest kernel time first: what a rule that takes nothing may
    have been written for."""
    times: dict[str, float] = {}
    for result in results:
        for group in result.get("groups") or []:
            if group["group"] != FALLBACK_GROUP:
                continue
            for kernel in group.get("kernels") or []:
                name = kernel["name"]
                if not untold_node(name) and rules.taker(name) is None:
                    times[name] = max(times.get(name, 0.0), kernel.get("time_ms") or 0.0)
    return sorted(times, key=lambda name: (-times[name], name))
