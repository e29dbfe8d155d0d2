"""What a result's ``method.timer`` names: CUDA events around each forward,
or the host's clock. The record writer (which refuses a machine without a GPU
as the measuring machine of GPU timings) and the study's readings of timings
(:mod:`studygen.study.timing`) read it through these two tests, so that one
spelling of a timer is one timer everywhere."""

from __future__ import annotations


def is_cuda_event_timer(timer) -> bool:
    """Whether a record's ``method.timer`` names CUDA events (``cuda-events``
    as ``collect run`` writes it, ``cuda_event``, ``CUDA events``)."""
    lowered = str(timer or "").lower()
    if not lowered.isalnum():  # a name of letters and digits alone ("trtexec") has nothing to drop: no loop a letter
        lowered = "".join(ch for ch in lowered if ch.isalnum())
    return lowered.startswith("cudaevent")


# ``method.timer`` names of the host's clock (letters and digits only, lower case): ``perf-counter`` is what
# ``collect run`` writes where it has no CUDA device and times each forward with ``time.perf_counter``.
HOST_CLOCK_TIMERS = frozenset({"perfcounter", "timeperfcounter", "hostclock", "wallclock"})


def is_host_clock_timer(timer) -> bool:
    """Whether a record's ``method.timer`` names the host's clock
    (:data:`HOST_CLOCK_TIMERS`: ``perf-counter``, ``time.perf_counter``,
    ``host clock``, ``wall-clock``), the timer of a run on the CPU."""
    lowered = str(timer or "").lower()
    if not lowered.isalnum():  # as is_cuda_event_timer: a name of letters and digits alone has nothing to drop
        lowered = "".join(ch for ch in lowered if ch.isalnum())
    return lowered in HOST_CLOCK_TIMERS
