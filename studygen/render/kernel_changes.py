"""Which kernels of a group differ between the fastest and the slowest compilation of a cell, and how Inductor was set.

For a kernel group whose time differs between a job's compilations, ``collect
run`` keeps each compilation's largest kernels of that group with their launch
configuration (``compilations[*].kernels``: name, time, grid, block). Inductor
names a kernel after the operators fused into it and a number counting the
kernels it generated (``triton_poi_fused_..._view_64``); the number moves from
one compilation to the next when the graph is lowered a little differently, so
a kernel is matched by its name without that number and, among kernels of one
such name, by the order of their numbers (the order Inductor generated them in).

- :meth:`KernelChangeHelpers.kernel_changes`: per compiled cell (pooled over its
  jobs), the kernels of a group whose launch configuration differs between the
  fastest and the slowest compilation, each with both configurations and times,
  and what every other kernel of the group adds up to;
- :meth:`KernelChangeHelpers.inductor_settings`: the Inductor settings the
  records of compiled figures say were used.

Case (issue 26): in FP8 at 800 x 800 on one H200, each of the four per-level
grid-sampling pointwise kernels ran either 26588 blocks of 256 threads (about
1.0 to 1.5 ms) or 13294 blocks of 128 threads (about 1.7 to 2.0 ms),
Inductor's pointwise autotuning picking one by timing; the slowest compilation
picked the slow one three times, the fastest once.
"""

from __future__ import annotations

import re
from math import prod

from ..records.kinds import Kind
from ..study.compilations import Compilation, PooledCell, pooled_cells
from .produced import cells_of, emit, helper
from .spans import SpanHelpers
from .tables import markdown_table
from .rows import shape_order
from .escaping import escape_cell, escape_label
from .labels import shape_label

_NUMBER_SUFFIX = re.compile(r"_\d+$")
_TRITON_KIND = re.compile(r"^(triton_(?:poi|per|red))_")
NAME_SHOWN = 48  # characters of a kernel name a table cell shows


def kernel_family(name: str) -> str:
    """A kernel's name without Inductor's number suffix (``..._view_64`` → ``..._view``)."""
    return _NUMBER_SUFFIX.sub("", name)


def _suffix(name: str) -> int:
    match = _NUMBER_SUFFIX.search(name)
    return int(match.group()[1:]) if match else -1


def launch(kernel: dict) -> str:
    """``13294 blocks x 128 threads`` (grid and block sizes multiplied out); ``not recorded`` without them."""
    if not kernel.get("grid") or not kernel.get("block"):
        return "not recorded"
    return f"{prod(kernel['grid'])} blocks x {prod(kernel['block'])} threads"


def kernel_kind(name: str) -> str:
    """What Inductor generated a kernel as: ``triton_poi`` (pointwise),
    ``triton_per`` (persistent reduction), ``triton_red`` (reduction); any
    other kernel by its name without number suffix (:func:`kernel_family`)."""
    match = _TRITON_KIND.match(name)
    return match.group(1) if match else kernel_family(name)


def _by_number(kernels: list[dict]) -> list[dict]:
    return sorted(kernels, key=lambda k: _suffix(k["name"]))


def matched_kernels(fast: list[dict], slow: list[dict]) -> list[tuple[dict | None, dict | None, int, int]]:
    """``(kernel in fast, kernel in slow, its place, how many)`` for the kernels
    two compilations list for one group. Kernels of one kind
    (:func:`kernel_kind`) are matched in the order of their numbers when both
    list as many of that kind (Inductor may fuse another operator into a kernel
    in one compilation and not the other, which changes its name but not its
    place); otherwise by name without number (:func:`kernel_family`), in the
    order of their numbers, when both list as many of that name; a kernel left
    over comes alone (the other side None)."""
    matched = []
    for kind in dict.fromkeys(kernel_kind(k["name"]) for k in [*fast, *slow]):
        a = _by_number([k for k in fast if kernel_kind(k["name"]) == kind])
        b = _by_number([k for k in slow if kernel_kind(k["name"]) == kind])
        if len(a) == len(b):
            matched += [(x, y, i, len(a)) for i, (x, y) in enumerate(zip(a, b), 1)]
            continue
        for family in dict.fromkeys(kernel_family(k["name"]) for k in [*a, *b]):
            fa = [k for k in a if kernel_family(k["name"]) == family]
            fb = [k for k in b if kernel_family(k["name"]) == family]
            if len(fa) == len(fb):
                matched += [(x, y, i, len(fa)) for i, (x, y) in enumerate(zip(fa, fb), 1)]
            else:
                matched += [(x, None, i, len(fa)) for i, x in enumerate(fa, 1)]
                matched += [(None, y, i, len(fb)) for i, y in enumerate(fb, 1)]
    return matched


KIND_WORDS = {"triton_poi": "pointwise kernel", "triton_per": "persistent-reduction kernel", "triton_red": "reduction kernel"}


def kernel_label(x: dict | None, y: dict | None, place: int, size: int) -> str:
    """``pointwise kernel 2 of 8: triton_poi_fused_bitwise_not_grid_sampler…``
    (the fastest compilation's name, without its number and shortened; the
    slowest's when the fastest does not list it)."""
    name = kernel_family((x or y)["name"])
    shown = name if len(name) <= NAME_SHOWN else name[:NAME_SHOWN] + "…"
    kind = KIND_WORDS.get(kernel_kind(name), "kernel")
    return f"{kind} {place} of {size}: {shown}"


class KernelChangeHelpers(SpanHelpers):
    """Kernels that differ between compilations, and Inductor's settings (see the module docstring)."""

    @helper("table", markdown=True)
    def kernel_changes(self, group: str, **filters) -> str:
        """A table, per compiled cell with two compilations or more (every job
        pooled; shapes by size): the kernels of ``group`` whose launch
        configuration differs between the cell's fastest and slowest
        compilation, each with its configuration and time (ms per forward) in
        both and the difference; then the rest of the group's difference (every
        other kernel); a cell whose two compilations list no kernels of the
        group says so."""
        headers = ["Shape HxW", "Variant", "Kernel", "Fastest compilation", "Slowest compilation", "Slowest minus fastest ms"]
        body, rows = [], []
        cells = [cell for cell in pooled_cells(self.figures(kind=Kind.LATENCY, **filters).rows)
                 if len(cell.compilations) > 1]
        order = self._variant_order()
        cells.sort(key=lambda cell: (shape_order(cell.first.shape), order.get(cell.first.variant, len(order))))
        with cells_of(headers, body):
            for cell in cells:
                body += self._cell_changes(cell, group)
                rows += cell.rows
        return emit(markdown_table(body, headers), rows, headers)

    def _cell_changes(self, cell: PooledCell, group: str) -> list[list[str]]:
        """The table rows of :meth:`kernel_changes` for one cell."""
        fast, slow = cell.fastest(), cell.slowest()
        where = [shape_label(cell.first.shape), escape_label(self._label(cell.first.variant))]
        names = f"{fast.label} ({self._ms(fast.median_ms)} ms)", f"{slow.label} ({self._ms(slow.median_ms)} ms)"
        total = _group_ms(slow, group) - _group_ms(fast, group)
        listed_fast, listed_slow = fast.kernels.get(group), slow.kernels.get(group)
        if not listed_fast or not listed_slow:
            return [where + [f"{escape_cell(group)} kernels not kept for both compilations", names[0], names[1],
                             self._ms(total, True)]]
        lines, changed = [], 0.0
        for x, y, place, size in matched_kernels(listed_fast, listed_slow):
            if x is not None and y is not None and launch(x) == launch(y):
                continue
            difference = (y["time_ms"] if y else 0.0) - (x["time_ms"] if x else 0.0)
            changed += difference
            lines.append(where + [escape_cell(kernel_label(x, y, place, size)), self._kernel_side(x), self._kernel_side(y),
                                  self._ms(difference, True)])
        if not lines:
            lines.append(where + ["none with another launch configuration", names[0], names[1], self._ms(total, True)])
            return lines
        lines.insert(0, where + [f"all {escape_cell(group)} kernels", names[0], names[1], self._ms(total, True)])
        lines.append(where + ["every other kernel of the group", "", "", self._ms(total - changed, True)])
        return lines

    def _kernel_side(self, kernel: dict | None) -> str:
        """``13294 blocks x 128 threads, 1.998 ms``; ``not listed`` for None."""
        if kernel is None:
            return "not listed"
        return f"{launch(kernel)}, {self._ms(kernel['time_ms'])} ms"

    @helper("figure")
    def inductor_settings(self, **filters) -> str:
        """The Inductor settings the selected compiled latencies' records say
        were used, in words: ``Inductor's defaults`` (a record that keeps its
        settings and names none), each ``torch._inductor.config`` setting and
        ``TORCHINDUCTOR_*`` variable a record names, or ``not recorded`` (a
        record from before settings were kept: schema version 1); several
        distinct settings joined by ``; ``."""
        found, rows = {}, []
        for row in self.figures(kind=Kind.LATENCY, mode="compile", **filters).rows:
            found.setdefault(_settings_words(row), []).append(row)
            rows.append(row)
        return emit("; ".join(found) if found else "no compiled figure", rows)


def _group_ms(compilation: Compilation, group: str) -> float:
    return (compilation.groups or {}).get(group, 0.0)


def _settings_words(row) -> str:
    """One compiled latency's Inductor settings in words (see :meth:`KernelChangeHelpers.inductor_settings`)."""
    compile_block = row.result.get("compile") or {}
    config = compile_block.get("inductor_config") or {}
    environment = compile_block.get("inductor_environment") or {}
    if not config and not environment:
        return "Inductor's defaults" if row.record.data.get("schema_version", 1) >= 2 else "not recorded"
    parts = [f"{name} = {value}" for name, value in sorted(config.items())]
    parts += [f"{name}={value}" for name, value in sorted(environment.items())]
    return ", ".join(parts)
