"""Charts drawn with matplotlib from plain data: SVG bytes from the numbers
and labels :mod:`.charts` selects from the records (and digests into the
chart's stamp).

Only this module and :mod:`.labels` decide how a chart looks, so the stamp's
code digest covers them alone (:func:`studygen.render.charts.inputs_digest`):
a change in how charts select their data changes the data digest when it
changes the data, and leaves committed charts current when it does not.
Bytes are deterministic: pinned matplotlib, fixed ``svg.hashsalt``, no date
in the metadata, text drawn as paths.
"""

from __future__ import annotations

import io
import textwrap


RC = {
    "svg.hashsalt": "studygen",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
    "text.parse_math": False,  # a "$" in a GPU name or variant label is text, not mathtext
}
METADATA = {"Date": None, "Creator": "studygen", "Format": None, "Type": None}
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")



# One point of the latency chart: (job label, latency ms, the repeat medians ms behind it or []).
Point = tuple[str, float, list]


def _pyplot():
    """``(matplotlib, matplotlib.pyplot)`` with the Agg backend, imported when a
    chart is first drawn (pyplot costs ~0.3 s to import)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return matplotlib, plt


def _svg_bytes(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=METADATA, bbox_inches="tight")
    return buffer.getvalue()


def _same_look_runs(picked: list[Point], x: int) -> list[list[tuple[float, Point]]]:
    """``picked`` (the points of one panel and variant, sorted by job label)
    as runs of consecutive points drawn alike (same job label, so same
    colour, and repeats or not), each point with its x position. Offsets:
    0.12 between neighbouring points (less when more than six share the slot,
    so all stay within 0.4 of ``x``), centred on ``x``."""
    runs: list[list[tuple[float, Point]]] = []
    previous = None
    step = min(0.12, 0.8 / len(picked))  # many jobs: squeeze them into the variant's slot, never past it
    for k, point in enumerate(picked):
        position = x + (k - (len(picked) - 1) / 2) * step
        look = (point[0], bool(point[2]))
        if look == previous:
            runs[-1].append((position, point))
        else:
            runs.append([(position, point)])
        previous = look
    return runs


def _draw_run(ax, run: list[tuple[float, Point]], color: str) -> None:
    """One run of alike points (see :func:`_same_look_runs`) in one call per
    artist kind rather than one per row: the same marks in the same order
    (matplotlib draws points before lines whatever the call order), and a
    chart of thousands of jobs costs dozens of artists, not thousands.
    With repeats: every repeat median a point, a line over their span and a
    bar at the overall median; without: one point per job."""
    if not run[0][1][2]:
        ax.scatter([position for position, _ in run], [ms for _, (_, ms, _) in run], s=22, color=color, marker="o")
        return
    xs = [position for position, (_, _, repeats) in run for _ in repeats]
    ax.scatter(xs, [ms for _, (_, _, repeats) in run for ms in repeats], s=10, color=color, alpha=0.6, linewidths=0)
    positions = [position for position, _ in run]
    ax.vlines(positions, [min(repeats) for _, (_, _, repeats) in run], [max(repeats) for _, (_, _, repeats) in run],
              color=color, linewidth=0.8)
    ax.hlines([ms for _, (_, ms, _) in run], [p - 0.05 for p in positions], [p + 0.05 for p in positions],
              color=color, linewidth=2)


def draw_latency(methods: list, panels: dict[tuple[int, str, str], list[Point]], variants: list[str],
                 labels: dict[str, str]) -> bytes:
    """The latency chart's SVG: one row of panels per entry of ``methods``
    (``[title, [[shape, panel title], ...], y-axis label]``; the title,
    wrapped, above the row unless empty), one panel per shape in it;
    ``panels`` maps (method index, shape, variant) to its points, variants
    in ``variants`` order under their ``labels``, one colour per job label
    across the figure, each row's legend naming its own. Rows never share a
    y-axis."""
    matplotlib, plt = _pyplot()
    series = sorted({point[0] for picked in panels.values() for point in picked})
    colors = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(series)}
    widest = max(len(shapes) for _, shapes, _ in methods)
    with matplotlib.rc_context(RC):
        # the legends sit beside the panels, inside the figure's width: room for the longest label (~0.07 in a character)
        legend_in = 0.5 + 0.07 * max((len(label) for label in series), default=0)
        fig = plt.figure(figsize=(3.2 * widest + legend_in, 3.4 * len(methods)), layout="constrained")
        for index, (subfig, (title, shapes, axis_label)) in enumerate(
                zip(fig.subfigures(len(methods), 1, squeeze=False)[:, 0], methods)):
            axes = subfig.subplots(1, len(shapes), squeeze=False)[0]
            for panel, (ax, (shape, shape_title)) in enumerate(zip(axes, shapes)):
                shown = [v for v in variants if (index, shape, v) in panels]
                for x, variant in enumerate(shown):
                    picked = sorted(panels[index, shape, variant], key=lambda point: point[0])
                    for run in _same_look_runs(picked, x):
                        _draw_run(ax, run, colors[run[0][1][0]])
                ax.set_xticks(range(len(shown)), [labels[v] for v in shown], rotation=20, ha="right")
                ax.set_xlim(-0.5, len(shown) - 0.5)
                ax.set_title(shape_title)
                if panel == 0:
                    ax.set_ylabel(axis_label)
            if title:
                subfig.suptitle(textwrap.fill(title, 60), fontsize="medium")
            shown = sorted({point[0] for (at, _, _), picked in panels.items() if at == index for point in picked})
            handles = [plt.Line2D([], [], color=colors[s], marker="o", linestyle="", label=s) for s in shown]
            subfig.legend(handles=handles, loc="outside right center", frameon=False)
        has_repeats = any(point[2] for picked in panels.values() for point in picked)
        fig.suptitle("Latency per variant and shape" + (" (points: repeat medians; bar: overall median)"
                                                         if has_repeats else " (one point per job)"))
        svg = _svg_bytes(fig)
        plt.close(fig)
    return svg


def stacked_bars(plt, bars: list[tuple[str, dict[str, float]]], groups: list[str], colors: dict):
    """A new figure and axes holding one stacked bar per ``(label, {group:
    height})`` of ``bars``, groups stacked in ``groups`` order in ``colors``
    (the kernel-time chart in ms and the share chart in percent both draw
    with it)."""
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(bars) + 2.5), 3.6), layout="constrained")
    bottoms = [0.0] * len(bars)
    for group in groups:
        heights = [values.get(group, 0.0) for _, values in bars]
        ax.bar(range(len(bars)), heights, bottom=bottoms, color=colors[group], label=group, width=0.6)
        bottoms = [b + h for b, h in zip(bottoms, heights)]
    return fig, ax


def draw_kernel_times(bars: list[tuple[str, dict[str, float]]], groups: list[str]) -> bytes:
    """The kernel-time chart's SVG: one stacked bar per ``(label, {group: ms})``
    of ``bars``, groups stacked in ``groups`` order, one colour each."""
    matplotlib, plt = _pyplot()
    colors = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    with matplotlib.rc_context(RC):
        fig, ax = stacked_bars(plt, bars, groups, colors)
        ax.set_xticks(range(len(bars)), [label for label, _ in bars], rotation=30, ha="right", fontsize=7)
        ax.set_ylabel("kernel time (ms)")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        ax.set_title("Kernel time per group")
        svg = _svg_bytes(fig)
        plt.close(fig)
    return svg
