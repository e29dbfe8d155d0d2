"""The kernel-time chart drawn as shares: each bar is one profiled run's
kernel time, 100 % tall, split into its groups' percentages, with the run's
total in ms printed above it.

:mod:`.charts` chooses this drawing when the runs' totals lie too far apart
for one linear axis (:data:`studygen.render.charts.SPAN_LIMIT`): a batch-1
bar of 2 ms next to a batch-128 bar of 92 ms is a sliver whose groups cannot
be told apart, and a logarithmic axis would not help, since stacked parts
do not add up on a log scale (a part's height would depend on what lies
under it). Shares keep every bar's make-up readable and the printed totals
keep the sizes. The stamp's code digest covers this module for the charts
it draws (:func:`studygen.render.charts.inputs_digest`).
"""

from __future__ import annotations

from .drawing import PALETTE, RC, _pyplot, _svg_bytes, stacked_bars


def draw_kernel_shares(bars: list[tuple[str, dict[str, float]]], groups: list[str], totals: list[str]) -> bytes:
    """SVG bytes: one stacked bar per ``(label, {group: percent})`` of
    ``bars`` (each bar's percentages sum to 100, or to 0 for a run with no
    kernel time), groups stacked in ``groups`` order, one colour each, and
    ``totals[i]`` (text, e.g. ``"1.96 ms"``) above bar i."""
    matplotlib, plt = _pyplot()
    colors = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    with matplotlib.rc_context(RC):
        fig, ax = stacked_bars(plt, bars, groups, colors)
        for x, total in enumerate(totals):
            ax.text(x, 101.5, total, ha="center", va="bottom", fontsize=7)
        ax.set_ylim(0, 112)  # room for the totals above the 100 % bars
        ax.set_yticks(range(0, 101, 20))
        ax.set_xticks(range(len(bars)), [label for label, _ in bars], rotation=30, ha="right", fontsize=7)
        ax.set_ylabel("share of the run's kernel time (%)")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        ax.set_title("Kernel time per group, as a share of each run's total\n(total kernel time above each bar)")
        svg = _svg_bytes(fig)
        plt.close(fig)
    return svg
