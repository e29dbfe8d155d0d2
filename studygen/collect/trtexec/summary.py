"""The lines of a TensorRT 8+ performance summary in a trtexec console log,
from ``=== Performance summary ===`` to ``Total GPU Compute Time:`` (the
log reader, :mod:`.log`, hands each line in between here).

Format (seen in ../shared/fixtures/trtexec, TensorRT 8.4-10.16, and
TensorRT's ``samples/common/sampleReporting.cpp``): ``Throughput: X qps``;
one line per timing, ``GPU Compute Time: min = X ms, max = …, mean = …,
median = …, percentile(90%) = … ms``; ``Total Host Walltime: X s``; and
``Total GPU Compute Time: X s``, which ends it. All are ``[I]`` lines, and
trtexec prints nothing else in between.

Each ``[I]`` line of trtexec's own inside the summary is read, named as
unread (``TrtexecRun.unread``, one warning), or refused; never read and
named both, never passed over in silence:

* a timing label (:data:`SUMMARY_LABELS`) is read whole, each item
  ``statistic = figure ms``; a statistic name this reader does not know is
  named, a known one printed otherwise is damage and refused;
* ``Throughput``, ``Total Host Walltime`` and ``Total GPU Compute Time`` are
  read in the one form trtexec prints them; printed otherwise (with
  statistics, in another unit) they are refused, since a known line that
  does not read is damage or an edit, and dropping it would lose the
  throughput or the summary's end unseen;
* a known label followed by ``:`` and no space, or differing from a known
  label or statistic name only in case or spacing (any Unicode whitespace:
  ``GPU\u2003Compute Time``, ``GPU Compute Time :``, ``mean  =``,
  ``Mean =``), is a damaged known line: refused, since naming it would
  drop a figure trtexec measured;
* a percentile is keyed by its number read and written with ``:g``
  (``90.0%``, ``090%`` and ``90%`` are one), so one printed twice in two
  spellings is refused like any statistic printed twice;
* any other line is named and not read: a label a later TensorRT adds, a
  look-alike of a known one (``GPU Compute Time (p99.9)``), a line of no
  label, and a setting line (``Selected Device:``, ``Created engine with
  size:``), which trtexec prints before the run, never here: inside the
  summary it comes from an edited or concatenated log, so its figure goes
  into no record field and the warning says where it stands. One holding a
  control or format character (NUL, U+202E) is damage: refused.

Lines of another logger (``[W]``, ``[V]``, TensorRT's own ``[TRT]`` lines
at ``[I]``) are no summary line: the log reader treats them as anywhere,
except a setting line of any severity, which it names and does not read.
"""

from __future__ import annotations

import re

from ...errors import InputError
from .figures import FIG, Context, damaged, printed_once, rank_of, read_figure, refuse_unit, shown
from .runs import Summary, TrtexecRun

SUMMARY_ITEM = re.compile(rf"^(min|max|mean|median|percentile\(({FIG})%\)) = ({FIG}) (\S+)$")
# "name = figure unit" under a name SUMMARY_ITEM does not know (a statistic a later TensorRT adds)
OTHER_ITEM = re.compile(r"^(?P<name>[^=]+?) = \S+(?: \S+)?$")
KNOWN_ITEM = re.compile(r"^(?:min|max|mean|median|percentile\(.*)$")
# any "label: items" line of the summary; one whose label is a timing trtexec prints must read whole
SUMMARY_LINE = re.compile(r"^(?P<label>[^:]+?): (?P<items>.*)$")
SUMMARY_LABELS = {
    "Latency": "host_latency",
    "Host Latency": "host_latency",
    "End-to-End Host Latency": "end_to_end",
    "Enqueue Time": "enqueue",
    "H2D Latency": "h2d",
    "GPU Compute Time": "gpu_compute",
    "D2H Latency": "d2h",
}
# the summary's lines that are no timing, in the one form trtexec prints each (the last ends the summary)
FIXED_LINES = {
    "Throughput": (re.compile(rf"^Throughput: ({FIG}) qps\s*$"), "Throughput: X qps", "the throughput"),
    "Total Host Walltime": (re.compile(rf"^Total Host Walltime: ({FIG}) s\s*$"), "Total Host Walltime: X s",
                            "the total host walltime"),
    "Total GPU Compute Time": (re.compile(rf"^Total GPU Compute Time: ({FIG}) s\s*$"),
                               "Total GPU Compute Time: X s", "the total GPU compute time"),
}


def read_summary_line(run: TrtexecRun, message: str, state: dict, where: Context) -> bool:
    """One log message inside the performance summary (the text after
    ``[time] [I] ``) into ``run``; True when consumed (read or named as
    unread), False for another logger's line, which is no summary line.
    Ends the summary (``state["mode"]`` None) at ``Total GPU Compute
    Time``. InputError naming the line for a line refused (see the module
    docstring) and for a timing printed twice."""
    if where.severity != "I" or message.startswith("["):
        return False
    if not message.strip():
        return True  # an empty [I] line holds nothing to read or name
    match = SUMMARY_LINE.match(message)
    label = match.group("label") if match else _known_label_before_colon(message)
    if match and label in SUMMARY_LABELS:
        _timing_line(run, label, match.group("items"), where)
    elif label in FIXED_LINES or label in SUMMARY_LABELS:
        _fixed_line(run, label, message, state, where)
    elif (known := _known_in_shape(message.split(":", 1)[0] if ":" in message else None)) is not None:
        raise InputError(f"the performance summary of {run.label} has the label {shown(message.split(':', 1)[0])}, "
                         f"which is trtexec's {known!r} printed in another case or spacing (the log was edited or "
                         "damaged?); nothing recorded", path=where.display, line=where.number)
    else:
        _unknown_line(run, label, message, where)
    return True


def bare(text: str) -> str:
    """``text`` case-folded, every Unicode whitespace character (an em
    space, a no-break space) removed: the shape two spellings share when
    they differ only in case or spacing."""
    return "".join(char for char in text.casefold() if not char.isspace())


def _known_in_shape(label: str | None) -> str | None:
    """The known label ``label`` differs from only in case or spacing
    (``GPU compute time``, ``GPU\u2003Compute Time``, ``GPU Compute Time ``
    before its colon): a damaged known line, never a new label. None when
    it is no such label."""
    if label is None:
        return None
    return next((known for known in (*SUMMARY_LABELS, *FIXED_LINES) if bare(known) == bare(label)), None)


def _known_label_before_colon(message: str) -> str | None:
    """The known label a line starts with when a colon but no space follows
    it (``GPU Compute Time:min = …``, a damaged known line), else None."""
    return next((label for label in (*SUMMARY_LABELS, *FIXED_LINES) if message.startswith(label + ":")), None)


def _timing_line(run: TrtexecRun, label: str, items: str, where: Context) -> None:
    """A timing line into ``run.summary``; its unknown statistic names into ``run.unread``."""
    timing = SUMMARY_LABELS[label]
    if timing in run.summary:
        # which of the two trtexec measured is unknown: never let the last one win
        raise InputError(f"the performance summary of {run.label} prints {timing} twice, on lines "
                         f"{run.summary[timing].line} and {where.number} ({label!r}): "
                         "which one is the measurement is unknown; nothing recorded",
                         path=where.display, line=where.number)
    stats, unread = _summary_items(items, label, where)
    run.summary[timing] = Summary(timing, stats, where.number)
    run.unread += [(where.number, f"the statistic {shown(name)} of the {label} line") for name in unread]


def _fixed_line(run: TrtexecRun, label: str, message: str, state: dict, where: Context) -> None:
    """``Throughput``, ``Total Host Walltime`` or ``Total GPU Compute Time``
    in its one form: the throughput into ``run``, the summary ended at the
    last; its figure checked either way. InputError naming the line when it
    reads otherwise, or when a timing label lacks the space after its colon."""
    form, printed, what = FIXED_LINES.get(label, (None, f"{label}: min = X ms, …", None))
    match = form.match(message) if form else None
    if match is None:
        subject = (f"statistics under the label {label!r}" if label in FIXED_LINES and " = " in message
                   else f"the line {shown(message)}")
        raise InputError(f"the performance summary of {run.label} has {subject}, which trtexec prints as "
                         f"'{printed}' (the log was edited or damaged?); nothing recorded",
                         path=where.display, line=where.number)
    value = read_figure(match.group(1), what, where)
    if label == "Throughput":
        run.throughput_qps, run.throughput_line = printed_once(run, "throughput (qps)",
                                                               (run.throughput_qps, run.throughput_line), value, where)
    elif label == "Total GPU Compute Time":
        run.summary_complete = True
        state["mode"] = None


def _unknown_line(run: TrtexecRun, label: str | None, message: str, where: Context) -> None:
    """A line under a label that is no known one, or of no label: kept in
    ``run.unread``, not read. InputError naming the line when its label (the
    whole line when it has none) holds a control or format character (NUL,
    U+202E): a damaged known line must not pass as a new one."""
    if damaged(label if label is not None else message):
        what = "statistics" if " = " in message else "a line"
        subject = f"{what} under the label {shown(label)}" if label is not None else f"the line {shown(message)}"
        raise InputError(f"the performance summary of {run.label} has {subject}, which holds a character no "
                         f"trtexec {'line' if label is None else 'label'} holds (the log was edited or damaged?); "
                         "nothing recorded",
                         path=where.display, line=where.number)
    run.unread.append((where.number, f"the label {shown(label)}" if label is not None else f"the line {shown(message)}"))


def _summary_items(items: str, label: str, where: Context) -> tuple[dict[str, float], list[str]]:
    """``min = X ms, max = Y ms, percentile(99%) = Z ms`` → (statistics, the
    names of ``name = figure unit`` items under a name this reader does not
    know, left unread). InputError naming the line for an item that does not
    read (cut or damaged: a timing line is refused whole, never dropped
    unseen; also a known name or one holding a control character), and for
    a figure that is not finite."""
    stats, unread = {}, []
    for item in items.split(", "):
        other = OTHER_ITEM.match(item.strip())
        # a known name in another case or spacing ("Mean", "mean ", "median\u00a0") is damage, never a new name
        if other and not KNOWN_ITEM.match(bare(other.group("name"))) and not damaged(other.group("name")):
            unread.append(other.group("name"))
            continue
        match = SUMMARY_ITEM.match(item.strip())
        if not match:
            cut = item.strip() if len(item.strip()) <= 80 else item.strip()[:77] + "..."
            raise InputError(f"the {label} line of the performance summary has the item {cut!r}, which is no "
                             "'statistic = figure ms' (the line is cut or damaged): nothing recorded",
                             path=where.display, line=where.number)
        name = match.group(1)
        if name.startswith("percentile"):
            name = "p" + rank_of(match.group(2), label, where)
        refuse_unit(match.group(4), f"the {label} {match.group(1)}", where)
        if name in stats:
            raise InputError(f"the {label} line prints {match.group(1)} twice ({stats[name]:g} ms, then "
                             f"{match.group(3)} ms): which one is the measurement is unknown; nothing recorded",
                             path=where.display, line=where.number)
        stats[name] = read_figure(match.group(3), f"the {label} {name}", where)
    return stats, unread
