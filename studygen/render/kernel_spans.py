"""What each kernel-time figure of a PyTorch profiler trace spans, said
beside the kernel-time table.

A ``collect torch-profile`` result is the mean per ``ProfilerStep#N`` over
the steps that hold kernels, or, for a trace without steps, the total over
the whole trace; the two print under one heading, in one kind of cell, and
only the record's note told them apart (a user's ResNet trace, three steps,
beside an AlexNet trace of none, both read as "1 profiled run"). Kernels
launched before the profiler's window are in no step, and the kernels no
``kernel_groups`` rule matches are in ``other``: the collector says how many
only in notes. A trace of one rank of a distributed job holds communication
kernels whose time includes waiting for the other ranks (71% of that
ResNet step's kernel time was NCCL). :meth:`KernelSpanHelpers.kernel_time_spans`
says all of it, one line per profile, and :meth:`KernelSpanHelpers.kernel_time_groups`
splits the kernel-time rows by span, so that the generic template prints a
table per span, the span in its heading and column headers (a trial put an
A100 trace's whole-trace totals and a V100 trace's means per step in one
"fp32 (ms)" column).

A ``collect run --cpu`` profile has no GPU kernels at all: its groups hold CPU
operators' self times per forward (the record's ``profiler`` says so, and the
README printed it nowhere, under a heading and a column that speak of
kernels). Its line says so, with the range of its forwards' totals, which a
host stall on a shared machine spreads over tens of times the median (a
user's small ResNet: 0.374 to 22.6 ms a forward).

Read from the result (``iterations``, ``per_iteration``, ``device``,
``distributed``, ``note``) and from the record's provenance note on kernels
without a launch, the notes as :mod:`studygen.records.trace_notes` writes
and reads them; a record collected before ``device`` and ``distributed``
were recorded says neither.
"""

from __future__ import annotations

import re

from ..records.profile_spread import CPU_SPAN, ITERATION_SPAN, WHOLE_TRACE_SPAN, cpu_operator_profile
from ..records.kinds import Kind
from ..records.trace_notes import LEFT_OUT, UNLAUNCHED_NOTE, UNMATCHED_NOTE, says_no_step_kernel
from ..study.timing import row_kernel_span
from .escaping import escape_label_in_prose
from .labels import shape_label
from .produced import emit, helper
from .rows import ViewBase, fmt

# the ``profiler`` field collect torch-profile writes (collect.torch_profile.profiler_name)
KINETO_TRACE = re.compile(r"^torch\.profiler \(Kineto trace\b")
STEP_LABEL = re.compile(r"^ProfilerStep#(\d+)$")
# what a CPU operator profile's figures are where a table names its metric (no kernel time: see _cpu_line)
CPU_OPERATOR_WORDS = "CPU operator self time (ms)"
# a kernel-time table's value header per span, where a study holds several (kernel_time_groups)
SPAN_HEADERS = {WHOLE_TRACE_SPAN: "{label} (ms over the whole trace)", ITERATION_SPAN: "{label} (ms per iteration)",
                CPU_SPAN: "{label} (CPU operator ms per forward)"}
# communication kernels of NCCL and RCCL (whose kernels keep NCCL's names)
COMMUNICATION_KERNEL = re.compile(r"nccl|rccl", re.IGNORECASE)


def steps_words(labels: list[str]) -> str:
    """``ProfilerStep#15 to #17``, ``ProfilerStep#15 and #16`` or ``ProfilerStep#6``
    for the step labels in order; other labels as written, first to last."""
    if len(labels) == 1:
        return labels[0]
    numbers = [STEP_LABEL.match(label) for label in (labels[0], labels[-1])]
    last = f"#{numbers[1].group(1)}" if all(numbers) else labels[-1]
    return f"{labels[0]} {'and' if len(labels) == 2 else 'to'} {last}"


def _kernels(count: int) -> str:
    return f"{count} kernel{'' if count == 1 else 's'}"


class KernelSpanHelpers(ViewBase):
    """What each profiler trace's kernel-time figures span."""

    @helper("gap")
    def kernel_time_spans(self) -> list[str]:
        """One line per kernel-time result read from a PyTorch profiler
        trace (``collect torch-profile``), in record order: what its figures
        span (``the mean per profiled step over 3 steps (ProfilerStep#15 to
        #17)``, with the steps' totals from least to most, or ``the total
        over the whole trace (no profiler steps)``); the device and the rank
        of a distributed job, and that the time of its communication kernels
        (NCCL or RCCL names, by group) includes waiting for the other ranks;
        how many kernels and ms were left out of every step, or counted in
        whole-trace totals, because the trace lacks their launch; and how
        many kernels match no ``kernel_groups`` rule and are in ``other``.
        A profile of CPU operators (:func:`~studygen.records.profile_spread.cpu_operator_profile`) is said to
        be CPU operator self time per forward, not GPU kernel time, with its
        forwards' totals from least to most. Results of other profilers get
        none."""
        lines = []
        for record in self._study.records:
            for result in record.results:
                if result["kind"] != Kind.KERNEL_TIME:
                    continue
                if KINETO_TRACE.match(str(result.get("profiler") or "")):
                    lines.append(self._span_line(record, result))
                elif cpu_operator_profile(record, result):
                    lines.append(self._cpu_line(record, result))
        return lines

    @helper()
    def kernel_time_groups(self, **filters) -> list[dict]:
        """The kernel-time rows matching ``filters`` split by what their
        figures span (:func:`~studygen.records.profile_spread.kernel_span`: a
        total over the whole trace, a mean per profiled iteration, CPU
        operators' self time per forward), one group per span in row order,
        so that a table per group never sets a whole trace's total beside a
        mean per step. Each group is ``{"span": the span, "jobs": [job ids],
        "variants": (variant names), "heading": the span and its jobs in
        words, or '' when there is one group, "value_header": a
        :meth:`table` value header, the span in it when there are several}``."""
        spans: dict[str, list] = {}
        for row in self.figures(**filters).rows:
            span = row_kernel_span(row)
            if span is not None:
                spans.setdefault(span, []).append(row)
        out = []
        for span, rows in spans.items():
            jobs = list(dict.fromkeys(row.job_id for row in rows))
            present = {row.variant for row in rows}
            several = len(spans) > 1
            named = escape_label_in_prose(", ".join(jobs[:-1]) + f" and {jobs[-1]}" if len(jobs) > 1 else jobs[0])
            heading = f"{span[0].upper()}{span[1:]}, in job{'s' if len(jobs) > 1 else ''} {named}" if several else ""
            out.append({"span": span, "jobs": jobs, "heading": heading,
                        "variants": tuple(name for name in self._variant_order() if name in present),
                        "value_header": SPAN_HEADERS[span] if several else "{label} (ms)"})
        return out

    def _cpu_line(self, record, result: dict) -> str:
        """What a CPU operator profile's figures are: self times of CPU
        operators per forward, grouped by the kernel-group rules, the mean over
        its profiled forwards with their totals' range."""
        rows = [r for r in self._study.rows if r.result is result]
        total = next((r for r in rows if r.pointer.endswith("/profiled_total_ms")), None)
        text = (f"In job {record.job_id} ({self._where(result)}), no GPU was used: each figure is the self time "
                "of its group's CPU operators per forward, not GPU kernel time")
        totals = [entry["profiled_total_ms"] for entry in result.get("per_iteration") or []]
        if len(totals) > 1:
            text += f", the mean over {len(totals)} profiled forwards"
            if total is not None:
                low, high = fmt(min(totals), total), fmt(max(totals), total)
                # least and most, not "from … to …": lint would read a range over the table's total column (SG101)
                text += f"; the least of their totals is {low} ms and the most {high} ms" if low != high else \
                    f"; each of their totals is {low} ms"
        return emit(escape_label_in_prose(text + "."), [total] if total else [])

    def _where(self, result: dict) -> str:
        """``fp16, at 800 x 800, batch 1, eager``: the variant's label and the configuration the result states."""
        where = [self._label(result["variant"]), f"at {shape_label(result['shape'])}" if result.get("shape") else "",
                 f"batch {result['batch']}" if result.get("batch") is not None else "", str(result.get("mode") or "")]
        return ", ".join(w for w in where if w)

    def _span_line(self, record, result: dict) -> str:
        rows = [r for r in self._study.rows if r.result is result]
        total = next((r for r in rows if r.pointer.endswith("/profiled_total_ms")), None)
        sentences = [f"In job {record.job_id} ({self._where(result)}), " + self._span(result, total) + "."]
        placed = self._placement(result)
        if placed:
            sentences.append(placed)
        sentences.extend(self._unlaunched(record, result))
        unmatched = UNMATCHED_NOTE.search(str(result.get("note") or ""))
        if unmatched:
            count = int(unmatched.group(1))
            # kernels told apart by name: "the 4 kernels" read as 4 launches where the trial's 4 names ran 600 times
            sentences.append(f"Group other includes {count} distinct kernels (by name, not launches) that match no "
                             "kernel_groups rule." if count != 1 else
                             "Group other includes 1 distinct kernel (by name, not launches) that matches no "
                             "kernel_groups rule.")
        return emit(escape_label_in_prose(" ".join(sentences)), [total] if total else [])

    def _span(self, result: dict, total) -> str:
        """What the figures are: a mean per step with the steps' totals, or a whole-trace total."""
        steps = [entry["label"] for entry in result.get("per_iteration") or []]
        if not steps:
            why = ("no kernel in its profiler steps" if says_no_step_kernel(str(result.get("note") or ""))
                   else "no profiler steps")
            return f"each figure is the total over the whole trace ({why})"
        if len(steps) == 1:
            return f"each figure is the kernel time of its one profiled step ({steps_words(steps)})"
        text = f"each figure is the mean per profiled step over {len(steps)} steps ({steps_words(steps)})"
        totals = [entry["profiled_total_ms"] for entry in result["per_iteration"]]
        if total is not None:
            low, high = fmt(min(totals), total), fmt(max(totals), total)
            text += f"; a step's total kernel time ranges from {low} to {high} ms" if low != high else \
                f"; every step's total kernel time is {low} ms"
        return text

    def _placement(self, result: dict) -> str:
        """The device, the rank of a distributed job, and what its communication kernels' time holds."""
        device, distributed = result.get("device"), result.get("distributed")
        if device is None and not distributed:
            return ""
        text = "The kernels ran" + (f" on device {device}" if device is not None else "")
        if not distributed:
            return text + "."
        backend = f" ({distributed['backend']})" if distributed.get("backend") else ""
        text += f"{',' if device is not None else ''} as rank {distributed['rank']} of {distributed['world_size']}{backend}"
        groups = [g["group"] for g in result["groups"]
                  if any(COMMUNICATION_KERNEL.search(str(k.get("name"))) for k in g.get("kernels") or [])]
        if groups:
            named = " and ".join(groups)
            text += (f"; the time of its communication kernels (group {named}) includes waiting for the other "
                     "ranks, not only transfers")
        return text + "."

    def _unlaunched(self, record, result: dict) -> list[str]:
        """The provenance note on kernels without a launch in this result's trace, as one sentence each."""
        file, _, place = str(result.get("source_locator") or "").partition(":")
        device = place.removeprefix("device ") if place.startswith("device ") else None
        sentences = []
        for note in record.data.get("provenance", {}).get("notes") or []:
            found = UNLAUNCHED_NOTE.match(str(note))
            if not found or found.group("file") != file or found.group("device") != device:
                continue
            before = found.group("why").startswith("launched before")
            if found.group("done") == LEFT_OUT:
                why = "launched before the first profiled step" if before else "whose launch the trace lacks"
                done = "are left out of every step" if int(found.group("count")) != 1 else "is left out of every step"
            else:
                why = "launched before profiling began" if before else "whose launch the trace lacks"
                done = "are counted in the totals" if int(found.group("count")) != 1 else "is counted in the totals"
            sentences.append(f"{_kernels(int(found.group('count')))} ({found.group('ms')} ms) {why} {done}.")
        return sentences
