"""A kernel-time group's time beside the kernels it lists: figures no
profile can give together (checked by
:func:`studygen.records.load.refuse_disorder`).

Every collector (trtexec, torch.profiler, collect run; see
:func:`studygen.collect.kernel_groups.groups_for_record`) writes a group's
``time_ms`` as the sum of all its kernels' times and lists at most its
:data:`KERNELS_LISTED_PER_GROUP` largest kernels with time. So, in a result
whose source lists its rows (``rows_listed`` true):

- a group listing fewer kernels lists every kernel with time: its
  ``time_ms`` is their sum;
- a group listing that many may hold more: its ``time_ms`` is at least
  their sum.

A figure is known only to the digits the record prints: each addend and the
group's own figure may be off by half a unit of its last printed digit, so
the sum may miss by the sum of those halves and no more (the collectors sum
figures as printed, rounded to 12 significant digits, well inside it). A
record beyond that was edited or damaged. Figures are compared in decimal,
as printed, so the tolerance's edge is exact.

Nothing is compared where ``rows_listed`` is false or absent (a source's
ranges over rows it does not list, or a record that does not say), nor for
a group given as a range. The profiled total is not compared with the
groups: the schema states no rule between them (a source may list only
some groups), and SG210 warns when they part by more than 2 %.
"""

from __future__ import annotations

from decimal import Decimal

from .kinds import Kind

# the most kernels a collector lists per group (its largest with time): fewer means the list is complete
KERNELS_LISTED_PER_GROUP = 20


def printed(figure: float) -> Decimal:
    """``figure`` exactly as the record prints it: the JSON text a parsed
    figure keeps (:class:`~studygen.numbers.SourceFloat`: ``0.100000`` is
    known to 6 decimals, its trailing zeros are digits), else ``repr`` (the
    shortest text that reads back as the same float: ``0.1`` is 0.1, not
    0.1000…0555)."""
    return Decimal(_text(figure))


def _text(figure: float) -> str:
    return getattr(figure, "source", None) or repr(figure)


def half_unit(figure: Decimal) -> Decimal:
    """Half a unit of ``figure``'s last printed digit: 0.0005 for 0.915,
    0.5 for 12, 5E-7 for 1.2e-06."""
    return Decimal(5).scaleb(figure.as_tuple().exponent - 1)


def group_sum_disagreement(result: dict) -> tuple[str, str] | None:
    """``(field, words)`` for the first group of a ``kernel_time`` result
    whose ``time_ms`` (ms) its listed kernels contradict, field as a pointer
    below the result (``"groups/2/time_ms"``): ``"groups/2/time_ms 0.815 ms
    is not the sum of its 3 listed kernels, 0.915 ms (a complete list: fewer
    than 20), beyond the ±0.002 ms their printed digits allow"``; else None.
    Only a result with ``rows_listed`` true is compared (see the module)."""
    if result.get("kind") != Kind.KERNEL_TIME or result.get("rows_listed") is not True:
        return None
    groups = result.get("groups")
    for index, group in enumerate(groups if isinstance(groups, list) else []):
        time_ms, kernels = group.get("time_ms"), group.get("kernels")
        if not isinstance(time_ms, (int, float)) or not kernels:
            continue
        figures = [printed(kernel["time_ms"]) for kernel in kernels]
        listed, stated = sum(figures, Decimal(0)), printed(time_ms)
        slack = sum((half_unit(figure) for figure in figures), half_unit(stated))
        field = f"groups/{index}/time_ms"
        complete = len(kernels) < KERNELS_LISTED_PER_GROUP
        if complete and abs(stated - listed) > slack:
            return field, (f"{field} {_text(time_ms)} ms is not the sum of its {len(kernels)} listed kernels, "
                           f"{listed:f} ms (a complete list: fewer than {KERNELS_LISTED_PER_GROUP}), beyond the "
                           f"±{slack.normalize():f} ms their printed digits allow")
        if not complete and listed - stated > slack:
            return field, (f"{field} {_text(time_ms)} ms is below the sum of its {len(kernels)} largest kernels, "
                           f"{listed:f} ms, beyond the ±{slack.normalize():f} ms their printed digits allow "
                           "(a group's time covers all its kernels)")
    return None
