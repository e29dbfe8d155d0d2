"""A performance summary the log reader read no run from: why, in words
for ``collect trtexec``'s refusal (the reader itself, :mod:`.log`, reads
runs from trtexec's prefixed lines only).

trtexec opens each summary with a line of its own, ``=== Performance
summary ===`` (TensorRT 8+) or a ``Host Latency`` block label (TensorRT 7),
and prints every line as ``[date-time] [I] message``. A summary pasted into
a README or an issue loses one or the other:

* the prefixes, cut whole or in part (``[I] GPU Compute``, ``02:10:45]
  [I] …``): the prefix is what tells trtexec's lines from anything else;
* the opening line, the excerpt starting lower down (``[08/29/2022-17:09:04]
  [I] Throughput: 4719.69 qps`` as its first line, or a TensorRT 7 block
  cut to ``GPU Compute`` after a ``(...)``): which run printed the figures,
  with which options, is above the cut.

Either way nothing is read, and the refusal names the first such line;
before, such a file was said to hold no summary at all.
"""

from __future__ import annotations

import re

from ...errors import InputError
from .figures import shown
from .summary import FIXED_LINES, SUMMARY_LABELS, SUMMARY_LINE

PREFIX = re.compile(r"^\[[^\]]*\] \[(?P<severity>[A-Z])\] ?(?P<message>.*)$")
# what is left of a cut prefix: bracketed tags ("[I] "), the first one's "[" gone where the cut fell in the date
PART_PREFIX = re.compile(r"^(?:[^\[\]]*\] ?)?(?:\[[^\[\]]*\] ?)*")
# block headers; TensorRT 7.0's report spells the first "Host latency" (samples/common/sampleReporting.cpp, printEpilog)
OLD_BLOCK = {"Host Latency": "host_latency", "Host latency": "host_latency", "Enqueue Time": "enqueue",
             "GPU Compute": "gpu_compute"}
# trtexec's header of a performance summary (TensorRT 8+)
SUMMARY_HEADER = "=== Performance summary ==="
# the lines that open a summary, TensorRT 8+'s header or a TensorRT 7 block's first label: what a pasted summary
# stripped of trtexec's prefixes is told by
SUMMARY_OPENINGS = frozenset({SUMMARY_HEADER, *(label for label, block in OLD_BLOCK.items() if block == "host_latency")})


def summary_line(message: str) -> bool:
    """Whether ``message`` (a line less its prefix) is one of a summary's
    own lines: a TensorRT 8+ timing (``GPU Compute Time: min = …``), one of
    its fixed lines in their one form (``Throughput: X qps``), or a TensorRT
    7 block label (``GPU Compute``)."""
    if message in OLD_BLOCK:
        return True
    if any(pattern.match(message) for pattern, _, _ in FIXED_LINES.values()):
        return True
    line = SUMMARY_LINE.match(message)
    return line is not None and line.group("label") in SUMMARY_LABELS and " = " in line.group("items")


def refuse_bare_summary(lines: list[str], display: str, *, opening_cut: bool = False) -> None:
    """InputError naming a performance summary the log reader could not read
    a run from (see the module docstring): the first opening line without
    trtexec's ``[date-time] [I] `` prefix, else, with ``opening_cut`` (no
    run was read at all, so no prefixed line opened a summary), the first
    summary line, prefixed (the opening cut above it) or not. Returns when
    there is none."""
    for number, raw in enumerate(lines, start=1):
        # a part of the prefix may be left ("[I] ===…", the date cut; "02:10:45] [I] ===…", cut inside it)
        if raw.strip() in SUMMARY_OPENINGS or PART_PREFIX.sub("", raw.strip()) in SUMMARY_OPENINGS:
            raise _no_prefix(raw.strip(), number, display)
    for number, raw in enumerate(lines if opening_cut else [], start=1):
        text = raw.strip()
        if not summary_line(PART_PREFIX.sub("", text)):
            continue
        if not PREFIX.match(text):
            raise _no_prefix(text, number, display)
        raise InputError(f"its performance summary starts at line {number} ({shown(text)}) without the line trtexec "
                         f"opens every summary with ({SUMMARY_HEADER!r}, or a TensorRT 7 'Host Latency' block): the "
                         "log was cut above it (an excerpt?), and which run printed it, with which options, is not in "
                         "the file; nothing recorded (collect the log trtexec wrote)", path=display, line=number)


def _no_prefix(text: str, number: int, display: str) -> InputError:
    return InputError(f"its performance summary (line {number}, {shown(text)}) has no trtexec line prefix "
                      "('[date-time] [I] '), which tells trtexec's lines and their severity from the rest: the log "
                      "was edited (prefixes cut when pasted?); nothing recorded (collect the log trtexec wrote)",
                      path=display, line=number)
