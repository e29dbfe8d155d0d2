"""Which latencies time the host: the rule, and the figures that show it.

``collect run`` records, per latency result, how long the host took to
return from issuing a repeat's forwards, per forward
(``distribution.host_issue_ms_per_forward``), beside the CUDA-event median.
Forwards are queued back to back, so while the host issues faster than the
GPU runs it stays ahead, and the events time the GPU. When issuing a forward
takes about as long as the forward's median, the GPU waits for the host
between kernels: the figure is then the host's pace (Python, dispatch,
kernel launches), and a difference between two such figures is a
difference in host work, whatever the kernels take.

Rule: a latency is *host-bound* when its host issue time per forward is at
least :data:`HOST_BOUND_SHARE` (90 %) of its median and the profiled kernels
beside it (``kernel_time``'s ``profiled_total_ms``) take less than that share
of the median. Below that issue time, the host has a tenth of a forward or
more in hand; issue times that close to the median leave the GPU idle in the
gaps, which the events count. But CUDA queues only so many launches: once
the host is that far ahead, each launch waits for a slot, and the issue time
follows the GPU's pace whatever the host's work. Kernels that fill 90 % of
the median leave the GPU no such gaps, so that figure is the GPU's.

Case (a trial of collect run on an H100: a random-init ViT of hidden size
192 and 12 layers at 224 x 224, eager): fp32 median
6.185 ms with the host issuing each forward in 6.031 ms while the profiled
kernels took 1.159 ms; fp16 6.677 ms, host 7.133 ms, kernels 0.467 ms. The
README read "fp16 is slower than fp32" as a GPU result.

Case (a new user's ResNet of 23.7 M parameters at batch 64, 224 x 224, eager,
on an H100): fp32 median 11.149 ms, host issue 10.899 ms, profiled kernels
10.804 ms; the README listed it as host-bound, "not the GPU's" time, while
the GPU was busy for 97 % of each forward and the host waited on a full
launch queue.
"""

from __future__ import annotations

from typing import NamedTuple

from ..records.kinds import Kind
from ..records.timers import is_cuda_event_timer
from .attribution import kernel_result_of
from .rows import Row

HOST_BOUND_SHARE = 0.9  # host issue time per forward over the median at which a latency times the host


class HostBound(NamedTuple):
    """A host-bound latency row's figures (ms per forward): ``issue_ms`` the
    host's time to issue a forward, ``median_ms`` the row's figure,
    ``kernel_ms`` the profiled kernel total of the kernel_time result beside
    it (None when the record has no profile of it)."""

    row: Row
    issue_ms: float
    median_ms: float
    kernel_ms: float | None


def host_bound(row: Row) -> HostBound | None:
    """``row``'s :class:`HostBound` figures when it is a latency timed by CUDA
    events with a value whose host issue time per forward is at least
    :data:`HOST_BOUND_SHARE` of it while its profiled kernels (where the
    record has them) take less; None otherwise (kernels that fill the
    median: the GPU's pace; another kind, no figure,
    a record without host times: trtexec's, or collect run's before they
    were recorded; or a figure timed by the host's clock, ``collect run
    --cpu``: there the host does the forward's work, and no GPU waits)."""
    if row.kind != Kind.LATENCY or not row.value:
        return None
    if not is_cuda_event_timer((row.result.get("method") or {}).get("timer")):
        return None
    issue = (row.result.get("distribution") or {}).get("host_issue_ms_per_forward")
    if issue is None or issue < HOST_BOUND_SHARE * row.value:
        return None
    kernel = (kernel_result_of(row) or {}).get("profiled_total_ms")
    if kernel is not None and kernel >= HOST_BOUND_SHARE * row.value:
        return None  # the GPU was busy for nearly every forward: the host waited for launch slots, not the GPU for it
    return HostBound(row, issue, row.value, kernel)
