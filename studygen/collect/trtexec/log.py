"""trtexec console log reader: runs, their performance summaries, settings,
``--dumpProfile`` tables and what the log says about the measuring machine
(what a run holds once read: :mod:`.runs`).

Format (seen in ../shared/fixtures/trtexec, TensorRT 7.x, 8.4-8.6 and
10.16, and TensorRT's ``samples/common/sampleReporting.cpp``):

* Each run starts with ``&&&& RUNNING TensorRT.trtexec [TensorRT vNNNNNN]
  # <command>`` and ends with ``&&&& PASSED`` (or ``FAILED``). Log lines are
  ``[date time] [I] message``; a log captured part way (no ``&&&& RUNNING``)
  is one run starting at its first summary or version line.
* A log pasted into another file keeps a wrapper before every line (``# ``
  in a Python comment, ``[INFO] `` from a CI runner, a timestamp): the text
  before the first trtexec line is the wrapper, and only lines that carry
  it (its digits may differ, as a timestamp's do) are read, without it.
* TensorRT 8+ prints ``=== Performance summary ===`` with lines such as
  ``GPU Compute Time: min = X ms, max = …, mean = …, median = …,
  percentile(90%) = … ms``, ended by ``Total GPU Compute Time:``; each
  line in between is read, named as unread (``TrtexecRun.unread``) or
  refused by :mod:`.summary`, never read as a setting (a setting line of
  another severity, ``[W] Selected Device: …``, is named too). A summary
  that never reaches its end is refused, also in a run that PASSED.
  TensorRT 7 prints blocks (``Host Latency``, ``Host latency`` in 7.0 /
  ``min: X ms (end to end Y ms)`` / ``percentile: X ms at 99%``), ended by
  ``total compute time: X s``; it multiplies its query counts and
  throughput by the implicit batch, so an explicit-batch run prints them
  as 0, which is no measurement (left out, ``TrtexecRun.zeroed``).
* The device, engine size and throughput are printed once per run; a
  second printing that disagrees (a line after the summary, a concatenated
  log) is refused naming both lines, never taken in silence.
* ``* GPU compute time is unstable, with coefficient of variance = X%.``
  marks the GPU compute timing unstable; the ``* Throughput may be bound
  by …`` warnings are kept for the latency notes.
* ``--dumpProfile`` prints ``=== Profile (N iterations ) ===``, a column
  line and one row per layer ending in a ``Total`` row. TensorRT 8.6+
  puts the figures first and the layer name last (``Time(ms) Avg.(ms)
  [Median(ms)] Time(%) Layer``); before 8.6 the name comes first, right
  aligned (``Layer Time (ms) Avg. Time (ms) [Median Time (ms)] Time %``).
  With the profiler on and no ``--separateProfileRun``, trtexec prints
  ``The e2e network timing is not reported …`` and no summary.
* The Reporting Options' ``Export profile to JSON file: FILE`` (FILE empty
  when the run exported none) is kept: a ``--profile`` array is refused for a
  run that wrote none (:func:`.common.profile_runs`).

Every figure is kept as printed, and one that is no finite double is
refused with its line (:mod:`.figures`).
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

from ...errors import InputError
from ...fsutil import shown_path
from ..inputs import read_input_text
from ...records.order import statistics_disorder
from ...records.provenance import UNKNOWN_GPU_TAKEN, UNKNOWN_TENSORRT_TAKEN
from .figures import FIG, NOT_FINITE, NUM, Context, printed_once, rank_of, read_count, read_figure, refuse_unit, shown
from .command import conflicting_flag
from .runs import READ_FLAGS, ProfileTable, Summary, TrtexecLog, TrtexecRun, decode_version_tag, version_of_line
from .printed_layers import printed_layer, starts_block
from .summary import read_summary_line
from .bare_summary import OLD_BLOCK, PREFIX, SUMMARY_HEADER, refuse_bare_summary

RUNNING = re.compile(r"^&&&& RUNNING (?P<program>\S+)(?P<tags>(?: \[[^\]]*\])*)\s*#\s*(?P<command>.*?)\s*$")
# the closing line repeats the opening one's tags and command: "&&&& PASSED TensorRT.trtexec [TensorRT v8400] # trtexec …"
STATUS = re.compile(r"^&&&& (?P<status>PASSED|FAILED|WAIVED)\b(?: \S+(?P<tags>(?: \[[^\]]*\])*)\s*#\s*(?P<command>.*?)\s*$)?")
VERSION_TAG = re.compile(r"\[TensorRT v(\d{4,6})\]")
# a line standing for lines left out of an excerpt: grep's group separator, an ellipsis
OMISSION_LINE = re.compile(r"^\s*(?:--|\.{3,}|\u2026|\[(?:\.{3}|\u2026)\])\s*$")
LOG_START = re.compile(r"&&&& (?:RUNNING|PASSED|FAILED|WAIVED)\b|\[[^\[\]]*\] \[[A-Z]\](?: |$)")
MAX_WRAPPER = 64
VERSION_LINE = re.compile(r"^TensorRT version: (\d+(?:\.\d+)*)\s*$")
DEVICE_LINE = re.compile(r"^Selected Device: (.+?)\s*$")
# Python's int() refuses more digits than this (sys.get_int_max_str_digits(), 4300 by default): a batch, shape or
# compute capability that long raised ValueError from the readers, an internal error instead of the line's name
_LONG_NUMBER = re.compile(r"\d{4301}")
COMPUTE_LINE = re.compile(r"^Compute Capability: (\d+)\.(\d+)\s*$")  # Device Information
COMPUTE_LABEL = re.compile(r"^\s*Compute\s+Capability\s*:", re.IGNORECASE)  # the same line, however damaged
TF32_DEFAULT_LINE = re.compile(r"^TF32 is enabled by default\b")  # TensorRT 10, before the Model Options
# Model Options' format: ONNX, Caffe, UFF for a run that builds its engine, "*" for one that loads it
FORMAT_LINE = re.compile(r"^Format: (\S+)\s*$")
PRECISION_LINE = re.compile(r"^Precision: (.+?)\s*$")  # Build Options: what the builder may use
SETTING_LINE = re.compile(r"^(Data transfers|Spin-wait|CUDA Graph|Separate profiling): (Enabled|Disabled)\s*$")
BATCH_LINE = re.compile(rf"^Batch: ({FIG})\s*$")
SHAPE_LINE = re.compile(r"^Input (?P<phase>inference|build) shapes? ?: (?P<shapes>.+?)\s*$")
# a dynamic input given no shape: trtexec sets each free dimension to 1 and says which shape it runs at
OVERRIDE_LINE = re.compile(r"^Dynamic dimensions required for input: (?P<name>.+), but no shapes were provided\. "
                           r"Automatically overriding shape to: (?P<dims>\S+)\s*$")
# the dimensions trtexec allocated an input's buffer with, the only shape a log run with "model" shapes states, in the
# wording of TensorRT 8.0-8.6.0 ("Created input binding for x with dimensions 1x3x8x8"), of 8.6.1-10.14 ("Input binding
# for x with dimensions 1x3x8x8 is created.") and of 10.16 ("... 1x3x8x8 and type fp32 is created."); output bindings
# are left alone
BINDING_LINE = re.compile(r"^(?:Created input binding for (?P<name>.+) with dimensions (?P<dims>\S+)"
                          r"|Input binding for (?P<later_name>.+) with dimensions (?P<later_dims>\S+)"
                          r"(?: and type \S+)? is created\.)\s*$")
WARMUP_LINE = re.compile(rf"^Warmup completed ({FIG}) queries over ({FIG}) ms\s*$")
TRACE_LINE = re.compile(rf"^Timing trace has ({FIG}) queries over {FIG} s\s*$")
THROUGHPUT_LINE = re.compile(rf"^(?:Throughput|throughput): ({FIG}) qps\s*$")
ENGINE_SIZE_LINE = re.compile(rf"^Created engine with size: ({FIG}) MiB\s*$")
UNSTABLE_LINE = re.compile(rf"^\* GPU compute time is unstable, with coefficient of variance = ({FIG})%\.?\s*$")
BOUND_LINE = re.compile(r"^\* Throughput may be bound by (.+?)\s*$")
NO_E2E_LINE = re.compile(r"^The e2e network timing is not reported")
# trtexec turned the CUDA graph off after printing its options (8.x-10.x: the engine could not be captured;
# 7.2-8.x: a profiled run on CUDA < 11.1), a [W] line
GRAPH_IGNORED_LINE = re.compile(r"(?:The specified --useCudaGraph flag has been ignored|Ignored --useCudaGraph flag)\b")
ENGINE_BUILT_LINE = re.compile(r"^Engine built in ")
SKIPPED_INFERENCE_LINE = re.compile(r"^(?:Skip inference: Enabled|Skipped inference phase\b.*?)\s*$")  # 8.6+
EXPORT_PROFILE_LINE = re.compile(r"^Export profile to JSON file:(?: (?P<file>.*?))?\s*$")  # Reporting Options
OLD_STAT = re.compile(rf"^(min|max|mean|median): ({FIG}) ms(?: \(end to end ({FIG}) ms\))?\s*$")
OLD_PERCENTILE = re.compile(rf"^percentile: ({FIG}) ms at ({FIG})%(?: \(end to end ({FIG}) ms at {FIG}%\))?\s*$")
# a TensorRT 7 statistic with whatever unit follows its figure (only ms is read)
OLD_UNIT = re.compile(r"^(?:min|max|mean|median|percentile): [-+]?[\w.]+(?:[-+]\d+)? (?P<unit>[^\s(]+)")
# a TensorRT 7 statistic line of a block, recognised by its name whatever follows
OLD_ANY_STAT = re.compile(r"^(?:min|max|mean|median|percentile):")
OLD_END = re.compile(r"^total compute time: \S+ s\s*$")
PROFILE_HEADER = re.compile(r"^=== Profile \((\d+) iterations? \) ===\s*$")
# TensorRT 8.6+: figures first, the layer last; before 8.6: the layer first, right aligned
PROFILE_COLUMNS = re.compile(r"^\s*Time\(ms\)\s+Avg\.\s*\(ms\)\s+(?:Median\(ms\)\s+)?Time\(%\)\s+Layer\s*$")
OLD_PROFILE_COLUMNS = re.compile(
    r"^\s*Layer\s+Time \(ms\)\s+Avg\. Time \(ms\)\s+(?:Median Time \(ms\)\s+)?Time %\s*$")

# the lines _parse_setting reads: inside the performance summary one of them, of any severity, is named, not read
SETTING_PATTERNS = (VERSION_LINE, DEVICE_LINE, COMPUTE_LINE, TF32_DEFAULT_LINE, FORMAT_LINE, PRECISION_LINE, SETTING_LINE, BATCH_LINE, SHAPE_LINE,
                    OVERRIDE_LINE, BINDING_LINE, WARMUP_LINE, TRACE_LINE, THROUGHPUT_LINE, ENGINE_SIZE_LINE,
                    UNSTABLE_LINE, BOUND_LINE, NO_E2E_LINE, EXPORT_PROFILE_LINE)

SETTING_NAMES = {"Data transfers": "data_transfers", "Spin-wait": "spin_wait", "CUDA Graph": "cuda_graph",
                 "Separate profiling": "separate_profile_run"}


def wrapper_pattern(lines: list[str]) -> re.Pattern | None:
    """The wrapper every trtexec line of the file carries (``# ``,
    ``[INFO] ``, a timestamp), as a pattern whose digits may vary: what
    precedes the first ``&&&& RUNNING``, else the commonest prefix of the
    first log lines. None when trtexec's lines start at column 0."""
    prefixes: collections.Counter = collections.Counter()
    for line in lines:
        found = LOG_START.search(line, 0, MAX_WRAPPER + 40)
        if found is None:
            continue
        wrapper = line[:found.start()]
        if "&&&&" in wrapper:
            continue
        if line.startswith("&&&& RUNNING", found.start()):
            prefixes = collections.Counter({wrapper: 1})
            break
        prefixes[re.sub(r"\d", "0", wrapper)] += 1
        if sum(prefixes.values()) >= 200:
            break
    if not prefixes:
        return None
    wrapper = prefixes.most_common(1)[0][0]
    return re.compile(re.sub(r"\d", r"\\d", re.escape(wrapper))) if wrapper else None


def parse_log(path: Path, display: str | None = None) -> TrtexecLog:
    """Parse a trtexec console log into runs.

    A run closed with ``&&&& FAILED`` goes to ``TrtexecLog.failed`` with
    its ``[E]`` lines, none of its figures read. Raises InputError (naming
    file and line) when the file is not a trtexec log, a run lacks its closing ``&&&& PASSED`` line
    (the log is cut, or trtexec crashed: nothing of that run is read), its
    summary or profile table is incomplete, or a figure is not finite. A
    last line without a newline is dropped, since it may be half-written
    (unless it is the ``&&&& PASSED`` line).
    """
    display = display or shown_path(path)
    text = read_input_text(path, display)
    if _is_json(text):
        if '"Layers"' in text[:200]:
            raise InputError("this is trtexec --exportLayerInfo JSON, not a console log: pass it as --layer-info",
                             path=display)
        raise InputError("this is JSON, not a trtexec console log (use --times, --profile or --layer-info)", path=display)
    if long_number := _LONG_NUMBER.search(text):
        raise InputError("a number of more than 4300 digits, which no count, shape or figure of a run has (Python "
                         "reads no integer that long): nothing recorded", path=display,
                         line=text.count("\n", 0, long_number.start()) + 1)
    lines = text.split("\n")
    if not text.endswith("\n") and not lines[-1].startswith("&&&& PASSED"):
        # possibly half-written; a status line, even cut, shows the run finished
        lines = lines[:-1]
    wrapper = wrapper_pattern(lines)
    runs: list[TrtexecRun] = []
    current: TrtexecRun | None = None
    state = {"mode": None, "block": None}
    where = Context(display)
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r")
        if wrapper is not None:
            wrapped = wrapper.match(line)
            if wrapped is None:
                continue
            line = line[wrapped.end():]
        if current is not None and line.strip():
            current.last_line, current.last_text = number, line
        where.number = number
        if line.startswith("&&&& "):
            match = RUNNING.match(line)
            if match:
                command = match.group("command") or None
                current = TrtexecRun(index=len(runs), line=number, command=command,
                                     command_line_number=number if command else None)
                tag = VERSION_TAG.search(match.group("tags") or "")
                if tag:
                    current.tensorrt_version = decode_version_tag(tag.group(1))
                    current.version_line = number
                runs.append(current)
                state = {"mode": None, "block": None}
                continue
            status = STATUS.match(line)
            if status and current is not None:
                _closing_line(current, status, where)
                state = {"mode": None, "block": None}
                continue
        prefixed = PREFIX.match(line)
        if prefixed is None:
            if state.get("layers") and current is not None and (layer := printed_layer(line)):
                current.printed_layers[layer[0]] = (number, layer[1])
            # a line marking text left out (grep's "--") cuts a TensorRT 7 block until a header; another program's
            # line on the same console (a Jetson driver's NvMap message) does not: what follows is still the block's
            if state["mode"] == "old" and OMISSION_LINE.match(line):
                state.update(block=None, cut_at=number)
            continue
        message = prefixed.group("message")
        state["layers"] = starts_block(message)  # the printed layers run to the next prefixed line
        where.severity = prefixed.group("severity")
        if current is None:
            # A log without "&&&& RUNNING" (output captured part way): one run.
            if not (message.startswith("===") or message in OLD_BLOCK or message.startswith("TensorRT version")):
                continue
            current = TrtexecRun(index=0, line=number)
            runs.append(current)
        if where.severity == "E":
            current.errors.append((number, message.strip()))
        _parse_message(current, message, state, where)
    if not runs:
        refuse_bare_summary(lines, display, opening_cut=True)
        raise InputError("not a trtexec console log: no '&&&& RUNNING' line and no performance summary", path=display)
    if all(run.summary_line is None for run in runs):
        refuse_bare_summary(lines, display)  # '&&&& RUNNING' kept, the prefixes cut: not "no summary" either
    passed = [run for run in runs if run.status != "FAILED"]
    failed = [run for run in runs if run.status == "FAILED"]
    for run in passed:
        _check_run(run, display)
        _drop_zero_batch_figures(run)
    for run in failed:  # which configuration a failed run tried is as unknown (it may be why it failed)
        _refuse_conflicting_flag(run, display)
    return TrtexecLog(display=display, runs=passed, failed=failed)


def _drop_zero_batch_figures(run: TrtexecRun) -> None:
    """Forget the query counts and throughput of a run that prints them as
    0, into ``run.zeroed`` (line, what): no run that timed anything timed 0
    queries at 0 qps. TensorRT 7's report (``printPerformanceReport`` in
    ``samples/common/sampleReporting.cpp``) multiplies both counts and the
    throughput by the implicit batch, which is 0 for an explicit-batch
    engine; the warm-up count is multiplied by the same 0, so it goes too."""
    if run.timed_queries == 0:
        run.zeroed.append((run.trace_line, "the timed and warm-up query counts"))
        run.timed_queries = run.warmup_queries = None
    if run.throughput_qps == 0:
        run.zeroed.append((run.throughput_line, "the throughput"))
        run.throughput_qps = run.throughput_line = None


def _closing_line(run: TrtexecRun, status: re.Match, where: Context) -> None:
    """``&&&& PASSED|FAILED|WAIVED …``: the run's status, and the tags and
    command the closing line repeats, which are the only ones a log
    captured part way (no ``&&&& RUNNING``) has: its version tag is taken
    where the run states none and checked against one it states, its
    command where the run has none."""
    run.status, run.status_line = status.group("status"), where.number
    if tag := VERSION_TAG.search(status.group("tags") or ""):
        version = decode_version_tag(tag.group(1))
        _check_version(run, version, where)
        if run.tensorrt_version is None:
            run.tensorrt_version, run.version_line = version, where.number
    if run.command is None and status.group("command"):
        run.command, run.command_line_number = status.group("command"), where.number


def _is_json(text: str) -> bool:
    """True when ``text`` starts with a whole JSON object or array (log
    lines start with "[date] [I]", which is no JSON)."""
    stripped = text.lstrip()
    if stripped[:1] not in ("{", "["):
        return False
    try:
        json.JSONDecoder().raw_decode(stripped)
    except (ValueError, RecursionError):
        return False
    return True


def _parse_message(run: TrtexecRun, message: str, state: dict, where: Context) -> None:
    """Update ``run`` from one log message (the text after ``[time] [I] ``)."""
    mode = state["mode"]
    if mode == "summary" and read_summary_line(run, message, state, where):
        return  # inside the summary each trtexec line is read, named as unread, or refused (.summary)
    if mode == "summary" and any(pattern.match(message) for pattern in SETTING_PATTERNS):
        # a [W] or [V] setting line inside the summary comes from an edited or concatenated log, as an [I] one does
        label = message.split(": ", 1)[0] if ": " in message else None
        run.unread.append((where.number, f"the label {shown(label)}" if label else f"the line {shown(message)}"))
        return
    if message.startswith("Average on "):
        return  # the trace averages: thousands of lines, never a summary figure
    if mode == "old" and _old_summary_line(run, message, state, where):
        return
    if mode == "profile" and _profile_row(run, message, state, where):
        return
    if message == SUMMARY_HEADER:
        _refuse_second_summary(run, where)
        state["mode"], run.summary_line = "summary", where.number
        return
    if OLD_BLOCK.get(message) == "host_latency" and mode is None:
        _refuse_second_summary(run, where)  # a TensorRT 7 summary opens with its Host Latency block
    if message in OLD_BLOCK and mode is None and run.summary_line is None:
        state["mode"], state["block"], run.summary_line = "old", OLD_BLOCK[message], where.number
        return
    header = PROFILE_HEADER.match(message)
    if header:
        state.update(mode="profile", profile_rows=[], profile_iterations=int(header.group(1)),
                     profile_line=where.number, profile_has_median=None, profile_layout=None)
        run.profile_open_line = where.number
        return
    _parse_setting(run, message, where)


def _refuse_second_summary(run: TrtexecRun, where: Context) -> None:
    """InputError when ``run`` already has a summary: trtexec prints one a
    run, so a second one with no '&&&& RUNNING' line before it is another
    run pasted in (a README's summaries, each under its own shell command),
    whose settings are unknown. Before, the second of two TensorRT 7 blocks
    was dropped without a word, and two newer summaries were refused as one
    run printing a figure twice."""
    if run.summary_line is not None:
        raise InputError(f"{run.label} has a second performance summary (line {where.number}; the first is on "
                         f"line {run.summary_line}) with no '&&&& RUNNING' line between them: two runs whose "
                         "commands the log does not hold; nothing recorded (collect each run's own log, or "
                         "one file a run)", path=where.display, line=where.number)


def _old_summary_line(run: TrtexecRun, message: str, state: dict, where: Context) -> bool:
    """One line of a TensorRT 7 summary block; True when consumed. ``(end to
    end X ms)`` feeds the end_to_end timing."""
    if message in OLD_BLOCK:
        state["block"] = OLD_BLOCK[message]
        return True
    if OLD_END.match(message):
        run.summary_complete = True
        state["mode"] = None
        return True
    stat = OLD_STAT.match(message)
    percentile = OLD_PERCENTILE.match(message)
    if state["block"] and not (stat or percentile) and (other := OLD_UNIT.match(message)):
        refuse_unit(other.group("unit"), f"the {state['block']} {message.split(':')[0]}", where)
    if state["block"] and not (stat or percentile) and OLD_ANY_STAT.match(message):
        raise InputError(f"the {state['block']} {message.split(':')[0]} line does not read as 'X ms' (the line is "
                         "cut or damaged): nothing recorded", path=where.display, line=where.number)
    if not state["block"] and (stat or percentile) and state.get("cut_at"):
        run.unread.append((where.number, f"the statistic {shown(message)} after line {state['cut_at']}, which is no "
                                         "trtexec line: its block's header is not in the log"))
        return True
    if not state["block"] or not (stat or percentile):
        return False
    if stat:
        name, value, end_to_end = stat.group(1), stat.group(2), stat.group(3)
    else:
        name = "p" + rank_of(percentile.group(2), state["block"], where)
        value, end_to_end = percentile.group(1), percentile.group(3)
    timing = state["block"]
    _old_statistic(run, timing, name, read_figure(value, f"the {timing} {name}", where), state, where)
    if end_to_end is not None:
        _old_statistic(run, "end_to_end", name, read_figure(end_to_end, f"the end_to_end {name}", where), state, where)
    return True


def _old_statistic(run: TrtexecRun, timing: str, name: str, value: float | int, state: dict, where: Context) -> None:
    """One statistic of a TensorRT 7 block into the run's summary; InputError
    naming both lines when the summary already holds it (the last must not win)."""
    seen = state.setdefault("old_lines", {})
    if (timing, name) in seen:
        raise InputError(f"the performance summary of {run.label} prints the {timing} {name} twice, on lines "
                         f"{seen[timing, name]} and {where.number}: which one is the measurement is unknown; "
                         "nothing recorded", path=where.display, line=where.number)
    seen[timing, name] = where.number
    run.summary.setdefault(timing, Summary(timing, {}, where.number)).statistics_ms[name] = value


def _profile_row(run: TrtexecRun, message: str, state: dict, where: Context) -> bool:
    """One line of a ``--dumpProfile`` table (either layout); True when consumed.
    Lines that are no row (a warning printed in between) are left alone."""
    columns_line = PROFILE_COLUMNS.match(message) or OLD_PROFILE_COLUMNS.match(message)
    if columns_line:
        state["profile_has_median"] = "Median" in message
        state["profile_layout"] = "layer-last" if PROFILE_COLUMNS.match(message) else "layer-first"
        return True
    if state.get("profile_has_median") is None:
        return False
    columns = 4 if state["profile_has_median"] else 3
    if state["profile_layout"] == "layer-last":
        parts = message.split(None, columns)
        figures, name = parts[:columns], parts[columns].strip() if len(parts) == columns + 1 else None
    else:
        parts = message.rsplit(None, columns)
        figures, name = parts[1:], parts[0].strip() if len(parts) == columns + 1 else None
    if not name or not all(NOT_FINITE.match(p) or re.fullmatch(NUM, p) for p in figures):
        if where.severity == "I":
            # the table's own lines are [I]; a warning printed in between is not, and is left alone
            shown = message.strip() if len(message.strip()) <= 80 else message.strip()[:77] + "..."
            raise InputError(f"the --dumpProfile table of {run.label} has the line {shown!r}, which is no row of "
                             f"{columns} figures and a layer (cut or damaged): nothing recorded",
                             path=where.display, line=where.number)
        return False
    numbers = [read_figure(p, f"the profile row {name!r}", where) for p in figures]
    total_ms, avg_ms = numbers[0], numbers[1]
    median_ms = numbers[2] if state["profile_has_median"] else None
    if name == "Total":
        run.profile = ProfileTable(state["profile_iterations"], state["profile_rows"], avg_ms, state["profile_line"],
                                   state["profile_layout"])
        run.profile_open_line = None
        state["mode"] = None
    else:
        state["profile_rows"].append((name, avg_ms, median_ms, total_ms))
    return True


def _parse_setting(run: TrtexecRun, message: str, where: Context) -> None:
    """Options, device, version, counts and warnings outside the summary."""
    number = where.number
    if match := VERSION_LINE.match(message):
        version = version_of_line(match.group(1))
        _check_version(run, version, where)
        run.tensorrt_version, run.version_line = version, number
    elif match := DEVICE_LINE.match(message):
        run.device, run.device_line = printed_once(run, "device", (run.device, run.device_line), match.group(1), where)
    elif match := COMPUTE_LINE.match(message):
        run.compute_capability = (int(match.group(1)), int(match.group(2)))
    elif COMPUTE_LABEL.match(message):  # not MAJOR.MINOR: kept to say whether TF32 could run is not known
        run.compute_capability_unread = (number, message.strip())
    elif TF32_DEFAULT_LINE.match(message):
        run.tf32_default_line = number
    elif match := FORMAT_LINE.match(message):
        run.model_format, run.model_format_line = match.group(1), number
    elif match := PRECISION_LINE.match(message):
        run.precision, run.precision_line = match.group(1), number
    elif match := SETTING_LINE.match(message):
        run.settings[SETTING_NAMES[match.group(1)]] = match.group(2) == "Enabled"
    elif match := BATCH_LINE.match(message):
        if match.group(1) == "Explicit":
            run.explicit_batch = True
        else:
            # printed twice, differently (logs pasted together): which one ran is unknown, never the last in silence
            run.batch, run.batch_line = printed_once(run, "batch", (run.batch, run.batch_line),
                                                     read_count(match.group(1), "the batch", where), where)
    elif match := SHAPE_LINE.match(message):
        if match.group("shapes") != "model":  # "model": the shapes the model itself fixes, none printed
            field_name = "input_shapes" if match.group("phase") == "inference" else "build_shapes"
            printed = getattr(run, field_name)
            setattr(run, field_name, match.group("shapes") if printed is None else f"{printed}, {match.group('shapes')}")
    elif match := OVERRIDE_LINE.match(message):
        shape = f"{match.group('name')}={match.group('dims')}"
        run.overridden_shapes = shape if run.overridden_shapes is None else f"{run.overridden_shapes}, {shape}"
    elif match := BINDING_LINE.match(message):
        bound = (match.group("name") or match.group("later_name"), match.group("dims") or match.group("later_dims"))
        if bound not in run.bound_inputs:  # trtexec binds again per stream (--infStreams): one input, one entry
            run.bound_inputs.append(bound)
            run.binding_lines.append(number)
    elif match := WARMUP_LINE.match(message):
        run.warmup_queries = read_count(match.group(1), "the warm-up query count", where)
        run.warmup_ms = read_figure(match.group(2), "the warm-up duration", where)
    elif match := TRACE_LINE.match(message):
        run.timed_queries = read_count(match.group(1), "the timed query count", where)
        run.trace_line = number
    elif match := THROUGHPUT_LINE.match(message):
        run.throughput_qps, run.throughput_line = printed_once(
            run, "throughput (qps)", (run.throughput_qps, run.throughput_line),
            read_figure(match.group(1), "the throughput", where), where)
    elif match := ENGINE_SIZE_LINE.match(message):
        run.engine_size_mib, run.engine_size_line = printed_once(
            run, "engine size (MiB)", (run.engine_size_mib, run.engine_size_line),
            read_figure(match.group(1), "the engine size", where), where)
    elif match := UNSTABLE_LINE.match(message):
        run.unstable_cv_percent = read_figure(match.group(1), "the GPU compute coefficient of variance", where)
        run.unstable_line = number
    elif match := BOUND_LINE.match(message):
        run.warnings.append((number, match.group(1)))
    elif NO_E2E_LINE.match(message):
        run.no_e2e_line = number
    elif match := EXPORT_PROFILE_LINE.match(message):
        run.profile_export, run.profile_export_line = match.group("file") or "", number
    elif ENGINE_BUILT_LINE.match(message):
        run.engine_built_line = number
    elif SKIPPED_INFERENCE_LINE.match(message):
        run.skipped_inference.append((number, message.strip()))
    elif GRAPH_IGNORED_LINE.search(message) and run.graph_ignored_line is None:
        run.graph_ignored_line = number


def _check_version(run: TrtexecRun, version: str, where: Context) -> None:
    """InputError naming both lines when ``version`` (of a ``TensorRT
    version:`` line or a ``[TensorRT vNNNN]`` tag) contradicts the version
    the run already stated, compared on the parts both print (``8.6.1``
    agrees with ``8.6.1.6``): one run is one TensorRT build, and a record
    must not name the wrong one."""
    previous = run.tensorrt_version
    if previous is None:
        return
    parts, earlier = version.split("."), previous.split(".")
    if parts[:len(earlier)] != earlier[:len(parts)]:
        raise InputError(f"{run.label} states TensorRT {previous} on line {run.version_line} and {version} on "
                         f"line {where.number}: one run is one TensorRT build; nothing recorded",
                         path=where.display, line=where.number)


def _refuse_conflicting_flag(run: TrtexecRun, display: str) -> None:
    """InputError at the command's line when it gives a flag collect reads
    twice with two values (:func:`.command.conflicting_flag`)."""
    if conflict := conflicting_flag(run.command, READ_FLAGS):
        name, values = conflict
        shown_values = ", ".join(f"{name}={value}" if value else name for value in values)
        raise InputError(f"the command of {run.label} gives {name} {len(values)} times ({shown_values}): trtexec reads "
                         "it once and fails on another copy ('Unknown option'), so which one this run used is "
                         "unknown (the command was edited?); nothing recorded", path=display,
                         line=run.command_line_number or run.line)


def _check_run(run: TrtexecRun, display: str) -> None:
    """Refuse runs whose figures cannot be trusted."""
    _refuse_conflicting_flag(run, display)
    if run.line and run.command is not None and run.status is None:
        if run.last_text is not None and not PREFIX.match(run.last_text) and not run.summary_line:
            shown = run.last_text.strip()
            shown = shown if len(shown) <= 160 else shown[:157] + "..."
            raise InputError(f"{run.label} has no '&&&& PASSED' line: it ends with {shown!r}, which trtexec did not "
                             "log (it crashed or was killed?); nothing recorded", path=display,
                             line=run.last_line)
        inside = "inside the performance summary" if run.summary_line else "before the run finished"
        raise InputError(f"the log ends {inside} of {run.label} (no '&&&& PASSED' line): "
                         "the file is cut; nothing recorded", path=display, line=run.summary_line or run.line)
    if run.summary_line and not run.summary_complete:
        # trtexec ends every summary it prints; a run that PASSED without that end had its summary cut or edited
        cut = "is incomplete (the log is cut?)" if run.status is None else (
            f"never reaches its end ('Total GPU Compute Time' or 'total compute time') before "
            f"'&&&& {run.status}': the summary is cut short (the log was edited or concatenated?)")
        raise InputError(f"the performance summary of {run.label} {cut}; nothing recorded",
                         path=display, line=run.summary_line)
    if run.profile_open_line is not None:
        raise InputError(f"the --dumpProfile table of {run.label} has no Total row (the log is cut?); nothing recorded",
                         path=display, line=run.profile_open_line)
    for summary in run.summary.values():
        if "median" not in summary.statistics_ms:
            raise InputError(f"the {summary.timing} summary of {run.label} has no median", path=display,
                             line=summary.line)
        if disorder := statistics_disorder(summary.statistics_ms):
            raise InputError(f"the {summary.timing} summary of {run.label} is out of order: {disorder}, which no "
                             "set of timings gives (the log was edited?); nothing recorded", path=display,
                             line=summary.line)


def log_provenance(log: TrtexecLog | None, gpu_option: str | None = None,
                   version_option: str | None = None) -> tuple[str | None, str | None, list[str]]:
    """``(gpu, tensorrt_version, notes)`` from the log: the selected device and
    the TensorRT version (None when the log does not say). The notes say what
    the log leaves out and where the record's value then comes from:
    ``gpu_option`` (``--gpu``) and ``version_option`` (``--software
    tensorrt=``), else unknown. Raises InputError when runs of one log
    disagree (one job is one machine)."""
    if log is None:
        return None, None, []
    devices = {run.device for run in log.every_run if run.device}
    versions = {run.tensorrt_version for run in log.every_run if run.tensorrt_version}
    if len(devices) > 1:
        raise InputError(f"runs name different devices {sorted(devices)}: one job is one GPU; split the log", path=log.display)
    if len(versions) > 1:
        raise InputError(f"runs name different TensorRT versions {sorted(versions)}; split the log", path=log.display)
    notes = []
    if not versions:
        taken = f"recorded from --software tensorrt={version_option}" if version_option else UNKNOWN_TENSORRT_TAKEN
        notes.append(f"{log.basename} states no TensorRT version (no 'TensorRT version:' line or [TensorRT vNNNN] tag): {taken}")
    if not devices:
        taken = f"GPU recorded from --gpu {gpu_option!r}" if gpu_option else UNKNOWN_GPU_TAKEN
        notes.append(f"{log.basename} names no device (no 'Selected Device:' line): {taken}")
    return (devices.pop() if devices else None), (versions.pop() if versions else None), notes
