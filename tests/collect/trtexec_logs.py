"""trtexec console logs written in trtexec's layout with figures of our
own, for tests that need a run line, settings and a performance summary
(TensorRT 8+ layout) without a real log's thousand lines."""

from __future__ import annotations

STAMP = "[10/03/2022-09:12:01] [I] "

SUMMARY = """\
=== Performance summary ===
Throughput: 812.5 qps
Latency: min = 19.2 ms, max = 21.9 ms, mean = 19.9 ms, median = 19.8 ms, percentile(99%) = 21.4 ms
Enqueue Time: min = 0.51 ms, max = 0.93 ms, mean = 0.6 ms, median = 0.58 ms, percentile(99%) = 0.9 ms
H2D Latency: min = 1.7 ms, max = 2.2 ms, mean = 1.9 ms, median = 1.85 ms, percentile(99%) = 2.1 ms
GPU Compute Time: min = 17.1 ms, max = 18.8 ms, mean = 17.6 ms, median = 17.5 ms, percentile(99%) = 18.5 ms
D2H Latency: min = 0.31 ms, max = 0.42 ms, mean = 0.35 ms, median = 0.34 ms, percentile(99%) = 0.4 ms
Total Host Walltime: 3.01 s
Total GPU Compute Time: 2.9 s
"""


def log_text(command: str | None, *messages: str, running: bool = True, tag: str = "[TensorRT v8400]") -> str:
    """A trtexec log: ``&&&& RUNNING`` (unless ``running`` is False, a log
    captured part way), the ``messages`` and the summary as ``[I]`` lines,
    then ``&&&& PASSED`` with the same tag and command."""
    lines = []
    if running and command is not None:
        lines.append(f"&&&& RUNNING TensorRT.trtexec {tag} # {command}")
    lines += [STAMP + m for m in messages]
    lines += [STAMP + m for m in SUMMARY.splitlines()]
    closing = f"&&&& PASSED TensorRT.trtexec {tag}".rstrip()
    lines.append(closing + (f" # {command}" if command else ""))
    return "\n".join(lines) + "\n"


def write(workdir, text: str, name: str = "run.log"):
    path = workdir / name
    path.write_text(text, encoding="utf-8")
    return path
