"""SVG charts drawn with matplotlib from what the records hold.

- ``latency``: latency per variant and shape. Where a result has repeats,
  every repeat's median is a point and the overall median a bar across them,
  so the spread is visible; where only a published figure exists (transcribed
  records), one point per job.
- ``kernel_time``: kernel time per group as stacked bars per variant, for
  every (job, shape) whose record lists at least two groups with times.

A chart whose data is absent is omitted and the README says why. Bytes are
deterministic: pinned matplotlib, fixed ``svg.hashsalt``, no date in the
metadata, text drawn as paths.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import importlib.metadata
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..numbers import format_number
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


STAMP_PREFIX = b"<!-- studygen figure: inputs sha256:"


@dataclass
class Chart:
    """One chart: where it goes, alt text or the reason it is omitted, the
    digest of what it is drawn from, and how to draw it.

    Drawing is deferred: ``check`` compares the committed file's stamp with
    :attr:`inputs_sha256` and draws only when they differ (a chart costs
    ~0.5 s of matplotlib; a 20-family project would spend most of its check
    redrawing charts that are current). The idea is cog's output checksum.
    """

    name: str
    path: Path
    alt: str
    omitted_because: str = ""
    inputs_sha256: str | None = None
    draw: Callable[[], bytes] | None = None
    _svg: bytes | None = field(default=None, repr=False)

    @property
    def present(self) -> bool:
        return self.draw is not None

    def drawing(self) -> bytes:
        """The chart as matplotlib writes it (SVG bytes, no stamp); drawn once."""
        if self._svg is None:
            self._svg = self.draw()
        return self._svg

    @property
    def svg(self) -> bytes | None:
        """The file's bytes: the drawing with the stamp line after the XML
        declaration (``<!-- studygen figure: inputs sha256:I drawing sha256:D -->``,
        I = :attr:`inputs_sha256`, D = sha256 of the drawing); None when omitted."""
        if not self.present:
            return None
        return stamp(self.drawing(), self.inputs_sha256)

    def is_current(self, committed: bytes) -> bool:
        """True when ``committed`` (a file's bytes) is what this chart renders to.

        Without drawing when its stamp names these inputs and its drawing hashes
        to the stamped digest (so a hand edit of the SVG is still caught);
        otherwise by drawing and comparing bytes.
        """
        if not self.present:
            return False
        stamped = read_stamp(committed)
        if stamped is not None and stamped[0] == self.inputs_sha256:
            return hashlib.sha256(stamped[2]).hexdigest() == stamped[1]
        return committed == self.svg

    def markdown(self, readme_dir: Path) -> str:
        """The README's embed (relative path, alt text) or the omission sentence."""
        if not self.present:
            return f"Figure omitted: {self.omitted_because}."
        rel = self.path.relative_to(readme_dir).as_posix()
        return f"![{self.alt}]({rel})"


def stamp(drawing: bytes, inputs_sha256: str) -> bytes:
    """``drawing`` (an SVG from matplotlib, whose first line is the XML
    declaration) with the stamp line inserted after that first line."""
    head, _, rest = drawing.partition(b"\n")
    line = STAMP_PREFIX + f"{inputs_sha256} drawing sha256:{hashlib.sha256(drawing).hexdigest()} -->".encode()
    return head + b"\n" + line + b"\n" + rest


def read_stamp(data: bytes) -> tuple[str, str, bytes] | None:
    """``(inputs sha256, drawing sha256, drawing bytes)`` of a stamped chart
    file, or None when its second line is no stamp."""
    head, _, rest = data.partition(b"\n")
    line, _, body = rest.partition(b"\n")
    if not line.startswith(STAMP_PREFIX) or not line.endswith(b" -->"):
        return None
    fields = line[len(STAMP_PREFIX):-len(b" -->")].split(b" drawing sha256:")
    if len(fields) != 2:
        return None
    return fields[0].decode("ascii", "replace"), fields[1].decode("ascii", "replace"), head + b"\n" + body


def inputs_digest(name: str, inputs) -> str:
    """sha256 over the chart's name, the data it is drawn from (JSON, floats
    as repr), matplotlib's version and the source of the modules that draw it:
    a change to any of them makes a committed chart's stamp stale."""
    payload = json.dumps([name, inputs, matplotlib_version(), _code_sha256()], sort_keys=True, ensure_ascii=True,
                         separators=(",", ":"))
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


@functools.cache
def matplotlib_version() -> str:
    """The installed matplotlib's version, as its package metadata states it
    (equal to ``matplotlib.__version__``), read without importing matplotlib:
    the import costs ~0.3 s, most of a fresh family's ``studygen check``.
    Raises importlib.metadata.PackageNotFoundError when it is not installed."""
    return importlib.metadata.version("matplotlib")


@functools.cache
def _code_sha256() -> str:
    """sha256 over what the drawing modules (this one, and text.py for the
    labels) do: their syntax trees without docstrings and import statements,
    so moving an import or rewording a comment leaves committed charts
    current, while any change to the code that draws makes them stale."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for module in (here / "charts.py", here / "text.py"):
        digest.update(ast.dump(_without_docs_and_imports(ast.parse(module.read_text("utf-8")))).encode("utf-8"))
    return digest.hexdigest()


def _without_docs_and_imports(tree: ast.Module) -> ast.Module:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        kept = [child for child in body if not isinstance(child, (ast.Import, ast.ImportFrom))]
        if kept and isinstance(kept[0], ast.Expr) and isinstance(getattr(kept[0], "value", None), ast.Constant) \
                and isinstance(kept[0].value.value, str):
            kept = kept[1:]
        node.body = kept or [ast.Pass()]
    return tree


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


def printable(text: str) -> str:
    """``text`` with control characters (a carriage return or tab from a hand-edited
    record) as spaces: the chart's font has no glyph for them. Newlines stay."""
    return "".join(" " if (ord(ch) < 32 and ch != "\n") or ord(ch) == 127 else ch for ch in text)


def one_line(text: str) -> str:
    """:func:`printable` on one line (a label under a tick or in the legend)."""
    return printable(text).replace("\n", " ")


def _job_label(row: dict) -> str:
    parts = [gpu_label(row["gpu"])]
    if row["tensorrt"]:
        parts.append(f"TensorRT {short_version(row['tensorrt'])}")
    if row["mode"] and row["backend"] == "pytorch":
        parts.append(row["mode"])
    return one_line(" ".join(parts))


def _same_look_runs(picked: list[tuple[str, dict]], x: int) -> list[list[tuple[float, str, dict]]]:
    """``picked`` (``(job label, row)`` of one panel and variant, sorted by
    job label) as runs of consecutive rows drawn alike (same job label, so
    same colour, and repeats or not), each row with its x position:
    ``(x, label, row)``. Offsets: 0.12 between neighbouring rows (less when
    more than six share the slot, so all stay within 0.4 of ``x``), centred on ``x``."""
    runs: list[list[tuple[float, str, dict]]] = []
    previous = None
    step = min(0.12, 0.8 / len(picked))  # many jobs: squeeze them into the variant's slot, never past it
    for k, (label, row) in enumerate(picked):
        position = x + (k - (len(picked) - 1) / 2) * step
        look = (label, bool(row["repeat_medians_ms"]))
        if look == previous:
            runs[-1].append((position, label, row))
        else:
            runs.append([(position, label, row)])
        previous = look
    return runs


def _draw_run(ax, run: list[tuple[float, str, dict]], color: str) -> None:
    """One run of alike rows (see :func:`_same_look_runs`) in one call per
    artist kind rather than one per row: the same marks in the same order
    (matplotlib draws points before lines whatever the call order), and a
    chart of thousands of jobs costs dozens of artists, not thousands.
    With repeats: every repeat median a point, a line over their span and a
    bar at the overall median; without: one point per row."""
    if not run[0][2]["repeat_medians_ms"]:
        ax.scatter([position for position, _, _ in run], [row["value"] for _, _, row in run], s=22, color=color,
                   marker="o")
        return
    xs = [position for position, _, row in run for _ in row["repeat_medians_ms"]]
    ax.scatter(xs, [ms for _, _, row in run for ms in row["repeat_medians_ms"]], s=10, color=color, alpha=0.6,
               linewidths=0)
    positions = [position for position, _, _ in run]
    ax.vlines(positions, [min(row["repeat_medians_ms"]) for _, _, row in run],
              [max(row["repeat_medians_ms"]) for _, _, row in run], color=color, linewidth=0.8)
    ax.hlines([row["value"] for _, _, row in run], [p - 0.05 for p in positions], [p + 0.05 for p in positions],
              color=color, linewidth=2)


def latency_chart(study) -> Chart:
    """Latency (ms) per variant, one panel per shape HxW."""
    path = study.figures_dir / "latency.svg"
    rows = [r for r in study.rows if r["kind"] == "latency" and r["value"] is not None and r["shape"]]
    if not rows:
        return Chart("latency", path, "", "the records hold no latency with a shape")
    shapes = sorted({r["shape"] for r in rows}, key=lambda s: tuple(int(v) for v in s.split("x")))
    panels: dict[tuple[str, str], list[tuple[str, dict]]] = {}  # (shape, variant) -> (job label, row), in row order
    for row in rows:
        panels.setdefault((row["shape"], row["variant"]), []).append((_job_label(row), row))
    present = {variant for _, variant in panels}
    variants = [v for v in study.variants if v in present]
    labels = {v: one_line(study.variant_label(v)) for v in variants}
    inputs = {"points": [[shape, variant, label, row["value"], row["repeat_medians_ms"] or []]
                         for (shape, variant), picked in panels.items() for label, row in picked],
              "variants": [[v, labels[v]] for v in variants]}

    low = min(r["value"] for r in rows)
    high = max(r["value"] for r in rows)
    alt = (f"Latency per variant at {', '.join(shape_label(s) for s in shapes)}: "
           f"{format_number(low)} to {format_number(high)} ms over {len(rows)} results")
    return Chart("latency", path, alt, inputs_sha256=inputs_digest("latency", inputs),
                 draw=functools.partial(_draw_latency, panels, shapes, variants, labels))


def _draw_latency(panels: dict[tuple[str, str], list[tuple[str, dict]]], shapes: list[str], variants: list[str],
                  labels: dict[str, str]) -> bytes:
    """The latency chart's SVG: ``panels`` maps (shape, variant) to its
    (job label, row) pairs; one panel per shape, variants in ``variants``
    order under their ``labels``, one colour per job label."""
    matplotlib, plt = _pyplot()
    series = sorted({label for picked in panels.values() for label, _ in picked})
    colors = {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(series)}
    with matplotlib.rc_context(RC):
        fig, axes = plt.subplots(1, len(shapes), figsize=(3.2 * len(shapes) + 1.5, 3.4), squeeze=False,
                                 layout="constrained")
        for panel, (ax, shape) in enumerate(zip(axes[0], shapes)):
            shown = [v for v in variants if (shape, v) in panels]
            for x, variant in enumerate(shown):
                picked = sorted(panels[shape, variant], key=lambda labelled: labelled[0])
                for run in _same_look_runs(picked, x):
                    _draw_run(ax, run, colors[run[0][1]])
            ax.set_xticks(range(len(shown)), [labels[v] for v in shown], rotation=20, ha="right")
            ax.set_xlim(-0.5, len(shown) - 0.5)
            ax.set_title(shape_label(shape))
            if panel == 0:
                ax.set_ylabel("latency (ms)")
        handles = [plt.Line2D([], [], color=colors[s], marker="o", linestyle="", label=s) for s in series]
        fig.legend(handles=handles, loc="outside right center", frameon=False)
        has_repeats = any(row["repeat_medians_ms"] for picked in panels.values() for _, row in picked)
        fig.suptitle("Latency per variant and shape" + (" (points: repeat medians; bar: overall median)"
                                                         if has_repeats else " (one point per job)"))
        svg = _svg_bytes(fig)
        plt.close(fig)
    return svg


def kernel_chart(study) -> Chart:
    """Kernel time per group (ms), stacked bars per variant, one bar group per (job, shape)."""
    path = study.figures_dir / "kernel_time.svg"
    bars = []  # (label, {group: ms})
    for record in study.records:
        for result in record.results:
            if result["kind"] != "kernel_time":
                continue
            timed = {g["group"]: g["time_ms"] for g in result["groups"] if "time_ms" in g}
            if len(timed) >= 2:
                variant = one_line(study.variant_label(result["variant"]))
                label = f"{record.job_id}\n{variant} {shape_label(result.get('shape'))}"
                if result.get("mode"):
                    label += f" {printable(result['mode'])}"
                bars.append((label, {printable(group): ms for group, ms in timed.items()}))
    if not bars:
        return Chart("kernel_time", path, "",
                     "no record lists kernel time for two or more groups of one profiled run "
                     "(ranges over rows the source does not list cannot be stacked)")
    groups = sorted({g for _, timed in bars for g in timed})

    alt = f"Kernel time per group, stacked per variant, for {len(bars)} profiled runs; groups: {', '.join(groups)}"
    inputs = [[label, sorted(timed.items())] for label, timed in bars]
    return Chart("kernel_time", path, alt, inputs_sha256=inputs_digest("kernel_time", inputs),
                 draw=functools.partial(_draw_kernel_times, bars, groups))


def _draw_kernel_times(bars: list[tuple[str, dict[str, float]]], groups: list[str]) -> bytes:
    """The kernel-time chart's SVG: one stacked bar per ``(label, {group: ms})``
    of ``bars``, groups stacked in ``groups`` order, one colour each."""
    matplotlib, plt = _pyplot()
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
    return svg


CHARTS = {"latency": latency_chart, "kernel_time": kernel_chart}


def render_charts(study) -> dict[str, Chart]:
    """Every chart of the study, by name (``latency``, ``kernel_time``); an
    omitted chart says why (:attr:`Chart.omitted_because`)."""
    return {name: build(study) for name, build in CHARTS.items()}
