"""The notes ``collect torch-profile`` keeps on a trace's kernels, written
and read back by one definition: the collector writes them into a
kernel-time result's ``note`` and the record's provenance notes
(:mod:`studygen.collect.torch_profile`), and render says what each figure
spans from them (:mod:`studygen.render.kernel_spans`), records collected
before any field held these counts included.
"""

from __future__ import annotations

from ..patterns import lazy_compile

LEFT_OUT = "left out"
COUNTED_IN_TOTALS = "counted in the whole-trace totals"
_NO_STEP_KERNEL = "no kernel falls in the trace's"
# "1 kernel matched no rule", "18 kernels matched no rule"; records written before the singular say "1 kernels"
_UNMATCHED = "matched no rule"

# A count is read up to 18 digits, more kernels than a trace holds: a note is text from disk, and a count past
# Python's 4300-digit limit (a hand-edited result note has no length limit) stopped render with int()'s error.
_COUNT = r"\d{1,18}"
# kernels without their launch in the trace: "<file>[ (device N)]: <n> kernels (<ms> ms) <why>: <what was done>"
UNLAUNCHED_NOTE = lazy_compile(r"^(?P<file>.+?)(?: \(device (?P<device>" + _COUNT + r")\))?: (?P<count>" + _COUNT + r") kernels? "
                               r"\((?P<ms>[0-9.e+-]+) ms\) (?P<why>.+): (?P<done>" + LEFT_OUT + "|"
                               + COUNTED_IN_TOTALS + r")$")
UNMATCHED_NOTE = lazy_compile(r"(?:^|; )(" + _COUNT + r") kernels? " + _UNMATCHED + r"(?:;|$)")


def unlaunched_note(file: str, device: int | None, count: int, ms: str, why: str, done: str) -> str:
    """``resnet.json.gz (device 2): 757 kernels (30.8 ms) launched before ...: left out`` (``done``:
    :data:`LEFT_OUT` or :data:`COUNTED_IN_TOTALS`; ``ms`` as printed); read back by :data:`UNLAUNCHED_NOTE`."""
    where = "" if device is None else f" (device {device})"
    return f"{file}{where}: {count} kernel{'' if count == 1 else 's'} ({ms} ms) {why}: {done}"


def unmatched_note(count: int) -> str:
    """``18 kernels matched no rule`` or ``1 kernel matched no rule`` (of the study file's kernel_groups),
    read back by :data:`UNMATCHED_NOTE` (which also reads the ``1 kernels`` of records written before)."""
    return f"{count} kernel{'' if count == 1 else 's'} {_UNMATCHED}"


def no_step_kernel_note(steps: int) -> str:
    """The note of a trace whose ProfilerStep ranges hold no kernel (its times are whole-trace totals)."""
    return f"{_NO_STEP_KERNEL} {steps} ProfilerStep ranges: times are totals over the whole trace"


def says_no_step_kernel(note: str) -> bool:
    """Whether a result's ``note`` holds :func:`no_step_kernel_note`."""
    return _NO_STEP_KERNEL in note
