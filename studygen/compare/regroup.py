"""Kernel-time profiles read again from the same input, grouped by other rules.

A kernel-time result (:data:`~studygen.records.kinds.Kind.KERNEL_TIME`)
gives one figure per kernel group, and its groups are the study file's
``kernel_groups`` rules as they stood when ``collect`` read the profile.
Changing those rules and reading the same profile again (``collect ...
--replace``) renames groups and moves kernels between them: compared key by
key (:mod:`studygen.compare.figures`), the group ``other`` that lost the
pooling kernels reads as 75 % faster, beyond its spread, and each renamed
group as one removed and one new figure, though nothing was measured again.
Case (trial s21): a study that gave its kernels their own groups failed CI
with ``beyond spread: fp32 kernel time other ... -75.26 %``, 5 new and 3
removed figures.

:func:`find_regroupings` pairs such results before the keys are compared: a
result of one job at the base and one of the same job at the head that
name the same input (``source_sha256`` and ``source_locator``, both
stated), measure the same thing apart from the group (the measurement key
less its group and metric, which a share row sets) and give the same
profiled total, but whose groups differ (their names, or the time each
holds). Such a pair is a :class:`Regrouping`, reported once, and its rows
on both sides are left out of the comparison by key: a bookkeeping change
of one input is no move of any figure. A result whose input or total
changed is compared key by key as before: it may be a new measurement.
Results that pair with more than one on the other side are left alone
(which went where cannot be told).

A profile measured again (``collect run`` keeps no input to read again: a
new job record, another total) under other rules is paired by what its
groups list instead (:func:`_moved_kernels`): the same job's result at the
same key less its group, whose listed kernels include one that a group held
at the base and another group holds at the head. Only the groups those
kernels left or joined are taken out of the comparison; the others, and the
total, are compared as before, since the run is a new measurement. Case (a
new user's ResNet, fp32 on an H100, timed again after the default rules
took cuDNN's batch norms, ``cudnn::bn_fw_inf_…``, out of ``other``): diff
said ``beyond spread: fp32 kernel time normalization and elementwise …
+172.05 %`` and ``other … -78.11 %`` for one kernel that changed group.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..place import Place
from ..records.keys import blanking
from ..records.kinds import Kind

_without_group = blanking("group", "metric")
SHA_SHOWN = 12  # hex digits of the input's sha256 a line prints (the JSON gives all of it)
SHOWN_MOVES = 3  # kernels a line names that changed group; the rest are counted


@dataclass(frozen=True)
class Regrouping:
    """One profile grouped otherwise from the same input: ``job``; ``what``
    (the profile in words, no group); ``old_groups``/``new_groups`` (group
    names, in the record's order); ``sha256`` and ``locator`` (the input
    both sides name); ``old_figures``/``new_figures`` (rows of the result
    left out of the comparison at base and head); ``place`` (the head
    record's ``groups`` of the result)."""

    job: str
    what: str
    old_groups: tuple[str, ...]
    new_groups: tuple[str, ...]
    sha256: str
    locator: str
    old_figures: int
    new_figures: int
    place: Place
    moved: tuple[tuple[str, str, str], ...] = ()  # (kernel, base group, head group) of a profile measured again

    def words(self, arrow: str = "->") -> str:
        """``job a, fp32 kernel time, 28 x 28: groups Conv, other -> convolution, pooling, other; same input
        (sha256 cf7613d979c8…, run.log:83), grouped by other kernel_groups rules; 4 figures -> 6, not compared``;
        for a profile measured again, the kernels that changed group: ``job b, fp32 kernel time, 28 x 28: 1 listed
        kernel in another group (bn_fw_inf: other -> norm), grouped by other kernel_groups rules; groups norm and
        other not compared``."""
        if self.moved:
            kernels = "; ".join(f"{name}: {old} {arrow} {new}" for name, old, new in self.moved[:SHOWN_MOVES])
            more = f"; {len(self.moved) - SHOWN_MOVES} more" if len(self.moved) > SHOWN_MOVES else ""
            groups = sorted({group for _, old, new in self.moved for group in (old, new)})
            return (f"job {self.job}, {self.what}: {len(self.moved)} listed kernel{'' if len(self.moved) == 1 else 's'} "
                    f"in another group ({kernels}{more}), grouped by other kernel_groups rules; groups "
                    f"{', '.join(groups[:-1])} and {groups[-1]} not compared")
        return (f"job {self.job}, {self.what}: groups {', '.join(self.old_groups)} {arrow} "
                f"{', '.join(self.new_groups)}; same input (sha256 {self.sha256[:SHA_SHOWN]}…, {self.locator}), "
                f"grouped by other kernel_groups rules; {self.old_figures} figure{'' if self.old_figures == 1 else 's'}"
                f" {arrow} {self.new_figures}, not compared")


def find_regroupings(base, head, describe) -> tuple[list[Regrouping], frozenset[int]]:
    """``(regroupings, rows)``: each :class:`Regrouping` of the studies
    ``base`` and ``head`` (None: no study at that side), by job and then
    place, and the ``id`` of every row of theirs at either side (to leave
    out of the comparison by key). ``describe(study, row)`` gives a row's
    profile in words without its group."""
    if base is None or head is None:
        return [], frozenset()
    old, new = _profiles(base), _profiles(head)
    found, taken = [], set()
    for identity in sorted(old.keys() & new.keys(), key=str):  # one order whatever the hash seed
        if len(old[identity]) != 1 or len(new[identity]) != 1:
            continue
        (old_rows,), (new_rows,) = old[identity], new[identity]
        old_result, new_result = old_rows[0].result, new_rows[0].result
        if _grouping(old_result) == _grouping(new_result) or _total(old_result) != _total(new_result):
            continue  # the same groups compare as they are; another total is another reading
        pointer = "/".join(new_rows[0].pointer.split("/")[:3]) + "/groups"  # /results/<n>/groups
        record = new_rows[0].record
        found.append(Regrouping(
            identity[0], describe(head, new_rows[0]), _names(old_result), _names(new_result), identity[1],
            identity[2], len(old_rows), len(new_rows), Place(record.display_path, record.line_of(pointer), pointer)))
        taken.update(map(id, old_rows + new_rows))
    moved, left_out = _moved_kernels(base, head, describe, taken)
    found += moved
    return sorted(found, key=lambda r: (r.job, r.place.path, r.place.line)), frozenset(taken | left_out)


def _moved_kernels(base, head, describe, taken: set) -> tuple[list[Regrouping], set]:
    """The :class:`Regrouping` (with ``moved``) of each pair of kernel-time
    results, one of a job at the base and one at the head at the same key
    less group and metric, none of whose rows is in ``taken``, whose listed
    kernels include one in another group; and the ``id`` of the rows of the
    groups such kernels left or joined, at both sides."""
    old, new = _listed_profiles(base, taken), _listed_profiles(head, taken)
    found, left_out = [], set()
    for identity in sorted(old.keys() & new.keys(), key=str):
        if len(old[identity]) != 1 or len(new[identity]) != 1:
            continue  # which went where cannot be told
        (old_rows,), (new_rows,) = old[identity], new[identity]
        before, after = _kernel_groups(old_rows[0].result), _kernel_groups(new_rows[0].result)
        moves = tuple((name, before[name], after[name]) for name in sorted(before.keys() & after.keys())
                      if before[name] != after[name])
        if not moves:
            continue
        groups = {group for _, was, now in moves for group in (was, now)}
        old_out = [row for row in old_rows if row.key.group in groups]
        new_out = [row for row in new_rows if row.key.group in groups]
        record = new_rows[0].record
        pointer = "/".join(new_rows[0].pointer.split("/")[:3]) + "/groups"
        found.append(Regrouping(
            identity[0], describe(head, new_rows[0]), _names(old_rows[0].result), _names(new_rows[0].result), "", "",
            len(old_out), len(new_out), Place(record.display_path, record.line_of(pointer), pointer), moves))
        left_out.update(map(id, old_out + new_out))
    return found, left_out


def _listed_profiles(study, taken: set) -> dict[tuple, list[list]]:
    """(job, key less group and metric) -> the rows of each kernel-time result
    whose groups list their kernels and none of whose rows is in ``taken``."""
    by_result: dict[int, list] = {}
    for row in study.rows:
        groups = row.result.get("groups")
        if row.kind == Kind.KERNEL_TIME and isinstance(groups, list) \
                and any(isinstance(group.get("kernels"), list) for group in groups):
            by_result.setdefault(id(row.result), []).append(row)
    found: dict[tuple, list[list]] = {}
    for rows in by_result.values():
        if not any(id(row) in taken for row in rows):  # a result find_regroupings paired by its input
            found.setdefault((rows[0].job_id, _without_group(rows[0].key)), []).append(rows)
    return found


def _kernel_groups(result: dict) -> dict[str, str]:
    """Each listed kernel's name -> its group (a name two groups list: neither, it moved nowhere)."""
    seen: dict[str, set] = {}
    for group in result["groups"]:
        for kernel in group.get("kernels") or []:
            if isinstance(kernel, dict) and isinstance(kernel.get("name"), str):
                seen.setdefault(kernel["name"], set()).add(str(group.get("group")))
    return {name: groups.pop() for name, groups in seen.items() if len(groups) == 1}


def _profiles(study) -> dict[tuple, list[list]]:
    """(job, sha256, locator, key less group and metric) -> the rows of each
    kernel-time result with groups that names its input, one list a result."""
    by_result: dict[int, list] = {}
    for row in study.rows:
        result = row.result
        if row.kind == Kind.KERNEL_TIME and isinstance(result.get("groups"), list) \
                and isinstance(result.get("source_sha256"), str) and isinstance(result.get("source_locator"), str):
            by_result.setdefault(id(result), []).append(row)
    found: dict[tuple, list[list]] = {}
    for rows in by_result.values():
        result = rows[0].result
        identity = (rows[0].job_id, result["source_sha256"], result["source_locator"], _without_group(rows[0].key))
        found.setdefault(identity, []).append(rows)
    return found


def _names(result: dict) -> tuple[str, ...]:
    return tuple(str(group.get("group")) for group in result["groups"])


def _grouping(result: dict) -> tuple:
    """Each group's name and the figures it holds, in order."""
    return tuple((group.get("group"), group.get("time_ms"), str(group.get("time_ms_range")),
                  str(group.get("share_percent_range"))) for group in result["groups"])


def _total(result: dict) -> tuple:
    return result.get("profiled_total_ms"), str(result.get("profiled_total_ms_range")), result.get("iterations")
