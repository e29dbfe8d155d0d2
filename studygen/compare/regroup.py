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
"""

from __future__ import annotations

from dataclasses import dataclass

from ..place import Place
from ..records.keys import blanking
from ..records.kinds import Kind

_without_group = blanking("group", "metric")
SHA_SHOWN = 12  # hex digits of the input's sha256 a line prints (the JSON gives all of it)


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

    def words(self, arrow: str = "->") -> str:
        """``job a, fp32 kernel time, 28 x 28: groups Conv, other -> convolution, pooling, other; same input
        (sha256 cf7613d979c8…, run.log:83), grouped by other kernel_groups rules; 4 figures -> 6, not compared``."""
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
    return sorted(found, key=lambda r: (r.job, r.place.path, r.place.line)), frozenset(taken)


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
