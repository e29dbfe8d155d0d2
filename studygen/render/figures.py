"""SVG figures drawn with matplotlib from what the records hold.

- ``latency``: latency per variant and shape. Where a result has repeats,
  every repeat's median is a point and the overall median a bar across them,
  so the spread is visible; where only a published figure exists (transcribed
  records), one point per job.
- ``kernel_time``: kernel time per group as stacked bars per variant, for
  every (job, shape) whose record lists at least two groups with times.

A figure whose data is absent is omitted and the README says why. Bytes are
deterministic: pinned matplotlib, fixed ``svg.hashsalt``, no date in the
metadata, text drawn as paths.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from ..records.numbers import format_number
from .text import gpu_label, shape_label, short_version

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


@dataclass
class FigureOutput:
    """One figure: where it goes, its SVG bytes (None when omitted), alt text or the reason it is omitted."""

    name: str
    path: Path
    svg: bytes | None
    alt: str
    omitted_because: str = ""

    def markdown(self, readme_dir: Path) -> str:
        """The README's embed (relative path, alt text) or the omission sentence."""
        if self.svg is None:
            return f"Figure omitted: {self.omitted_because}."
        rel = self.path.relative_to(readme_dir).as_posix()
        return f"![{self.alt}]({rel})"


def _svg_bytes(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", metadata=METADATA, bbox_inches="tight")
    return buffer.getvalue()


def _job_label(row: dict) -> str:
    parts = [gpu_label(row["gpu"])]
    if row["tensorrt"]:
        parts.append(f"TensorRT {short_version(row['tensorrt'])}")
    if row["mode"] and row["backend"] == "pytorch":
        parts.append(row["mode"])
    return " ".join(parts)


def latency_figure(study) -> FigureOutput:
    """Latency (ms) per variant, one panel per shape HxW."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = study.figures_dir / "latency.svg"
    rows = [r for r in study.rows if r["kind"] == "latency" and r["value"] is not None and r["shape"]]
    if not rows:
        return FigureOutput("latency", path, None, "", "the records hold no latency with a shape")
    shapes = sorted({r["shape"] for r in rows}, key=lambda s: tuple(int(v) for v in s.split("x")))
    variants = [v for v in study.variants if any(r["variant"] == v for r in rows)]
    series = sorted({_job_label(r) for r in rows})
    colors = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(series)}
    with matplotlib.rc_context(RC):
        fig, axes = plt.subplots(1, len(shapes), figsize=(3.2 * len(shapes) + 1.5, 3.4), squeeze=False,
                                 layout="constrained")
        for panel, (ax, shape) in enumerate(zip(axes[0], shapes)):
            shown = [v for v in variants if any(r["shape"] == shape and r["variant"] == v for r in rows)]
            for x, variant in enumerate(shown):
                picked = [r for r in rows if r["shape"] == shape and r["variant"] == variant]
                for k, row in enumerate(sorted(picked, key=_job_label)):
                    offset = (k - (len(picked) - 1) / 2) * 0.12
                    color = colors[_job_label(row)]
                    repeats = row["repeat_medians_ms"] or []
                    if repeats:
                        ax.scatter([x + offset] * len(repeats), repeats, s=10, color=color, alpha=0.6, linewidths=0)
                        ax.vlines(x + offset, min(repeats), max(repeats), color=color, linewidth=0.8)
                        ax.hlines(row["value"], x + offset - 0.05, x + offset + 0.05, color=color, linewidth=2)
                    else:
                        ax.scatter([x + offset], [row["value"]], s=22, color=color, marker="o")
            ax.set_xticks(range(len(shown)), [study.variant_label(v) for v in shown], rotation=20, ha="right")
            ax.set_xlim(-0.5, len(shown) - 0.5)
            ax.set_title(shape_label(shape))
            if panel == 0:
                ax.set_ylabel("latency (ms)")
        handles = [plt.Line2D([], [], color=colors[s], marker="o", linestyle="", label=s) for s in series]
        fig.legend(handles=handles, loc="outside right center", frameon=False)
        has_repeats = any(r["repeat_medians_ms"] for r in rows)
        fig.suptitle("Latency per variant and shape" + (" (points: repeat medians; bar: overall median)" if has_repeats
                                                         else " (one point per job)"))
        svg = _svg_bytes(fig)
        plt.close(fig)
    low = min(r["value"] for r in rows)
    high = max(r["value"] for r in rows)
    alt = (f"Latency per variant at {', '.join(shape_label(s) for s in shapes)}: "
           f"{format_number(low)} to {format_number(high)} ms over {len(rows)} results")
    return FigureOutput("latency", path, svg, alt)


def kernel_figure(study) -> FigureOutput:
    """Kernel time per group (ms), stacked bars per variant, one bar group per (job, shape)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = study.figures_dir / "kernel_time.svg"
    bars = []  # (label, {group: ms})
    for record in study.records:
        for result in record.results:
            if result["kind"] != "kernel_time":
                continue
            timed = {g["group"]: g["time_ms"] for g in result["groups"] if "time_ms" in g}
            if len(timed) >= 2:
                label = f"{record.job_id}\n{study.variant_label(result['variant'])} {shape_label(result.get('shape'))}"
                if result.get("mode"):
                    label += f" {result['mode']}"
                bars.append((label, timed))
    if not bars:
        return FigureOutput("kernel_time", path, None, "",
                            "no record lists kernel time for two or more groups of one profiled run "
                            "(ranges over rows the source does not list cannot be stacked)")
    groups = sorted({g for _, timed in bars for g in timed})
    colors = {g: PALETTE[i % len(PALETTE)] for i, g in enumerate(groups)}
    with matplotlib.rc_context(RC):
        fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(bars) + 2.5), 3.6), layout="constrained")
        bottoms = [0.0] * len(bars)
        for group in groups:
            heights = [timed.get(group, 0.0) for _, timed in bars]
            ax.bar(range(len(bars)), heights, bottom=bottoms, color=colors[group], label=group, width=0.6)
            bottoms = [b + h for b, h in zip(bottoms, heights)]
        ax.set_xticks(range(len(bars)), [label for label, _ in bars], rotation=30, ha="right", fontsize=7)
        ax.set_ylabel("kernel time (ms)")
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        ax.set_title("Kernel time per group")
        svg = _svg_bytes(fig)
        plt.close(fig)
    alt = f"Kernel time per group, stacked per variant, for {len(bars)} profiled runs; groups: {', '.join(groups)}"
    return FigureOutput("kernel_time", path, svg, alt)


FIGURES = {"latency": latency_figure, "kernel_time": kernel_figure}


def render_figures(study) -> dict[str, FigureOutput]:
    """Every figure of the study, by name."""
    return {name: build(study) for name, build in FIGURES.items()}
