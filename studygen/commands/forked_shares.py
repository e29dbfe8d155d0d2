"""Work split over forked processes, the parent taking a share: how ``check``
spreads its studies where processes fork (Linux).

A process pool (``concurrent.futures``) was used first and left four faults
once every project went through it (found by an attack of the parallel
check): an interrupt to the process group printed workers' tracebacks,
sometimes hung the parent on a worker that survived it or was lost; a parent
killed alone left its idle workers blocked forever; a worker that could not
start (too many open files) hung the exit; and the error raised was the
first in the order work was handed out, not the study order. Here each
share is one ``os.fork``: the children ignore interrupts (the parent answers
one for all: it kills them, reaps them and raises), a child notices between
items that its parent is gone and stops, a share whose process cannot start
is done by the parent, and every item's outcome comes back so that the
caller raises the error of the first item in its own order.
"""

from __future__ import annotations

import os
import pickle
import signal
from typing import Callable

# an item's outcome: (True, value) or (False, the exception it raised)
Outcome = tuple[bool, object]


def split_by_size(sizes: list[int], shares: int) -> list[list[int]]:
    """Indices of ``sizes`` dealt into ``shares`` lists, largest first, each
    to the share holding the least so far (ties: the earlier share), each
    list in dealing order. Greedy longest-processing-time scheduling
    (Graham, 1969): the longest share is within 4/3 of the best split."""
    dealt: list[list[int]] = [[] for _ in range(shares)]
    held = [0] * shares
    for index in sorted(range(len(sizes)), key=lambda i: -sizes[i]):
        least = held.index(min(held))
        dealt[least].append(index)
        held[least] += sizes[index]
    return dealt


def outcomes_in_forks(work: Callable, items: list, shares: list[list[int]]) -> dict[int, Outcome]:
    """``work(items[i])`` for every index ``i`` of ``shares``: the first share
    in this process, each other in a forked child. Returns each index's
    outcome; an ``Exception`` an item raises is its outcome (the share goes
    on), anything else (KeyboardInterrupt, SystemExit) stops the run: the
    children are killed and reaped, and it is raised here. What ``work``
    returns must pickle. POSIX only (``os.fork``)."""
    children: list[tuple] = []
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # no child may take an interrupt
        own = list(shares[0])
        try:
            for share in shares[1:]:
                started = _fork_share(work, items, share, blocked)
                if started is None:
                    own.extend(share)  # could not start a process: done here
                else:
                    children.append(started)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # an interrupt held meanwhile arrives here
        outcomes = {index: _outcome(work, items[index]) for index in own}
        while children:
            pid, reader, share = children[0]
            data = _read_all(reader)
            children.pop(0)  # its output is all read, it ends by itself: an interrupt from here need not kill it
            outcomes.update(_collected(pid, data, share))
        return outcomes
    finally:
        for pid, reader, _share in children:  # stopped early: no child outlives the run
            _stop(pid, reader)


def _outcome(work: Callable, item) -> Outcome:
    try:
        return True, work(item)
    except Exception as exc:  # noqa: BLE001 - the caller raises it in its own order
        return False, exc


def _fork_share(work: Callable, items: list, share: list[int], mask) -> tuple | None:
    """(pid, read end of its pipe, share) of a child forked to do ``share``;
    None when no process or pipe could be made (EMFILE, EAGAIN)."""
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the child: never returns
        _run_share(work, items, share, reader, writer, mask)
    os.close(writer)
    return pid, reader, share


def _run_share(work: Callable, items: list, share: list[int], reader: int, writer: int, mask) -> None:
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers an interrupt for the whole run
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(reader)
        parent = os.getppid()
        outcomes = {}
        for index in share:
            if os.getppid() != parent:  # the parent is gone: nobody reads what this share finds
                os._exit(1)
            outcomes[index] = _outcome(work, items[index])
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(_pickled(outcomes))
        status = 0
    finally:
        os._exit(status)  # no atexit handler, no flush of the parent's buffers, in any case


def _pickled(outcomes: dict[int, Outcome]) -> bytes:
    """``outcomes`` pickled; an exception that does not pickle is sent as a
    RuntimeError naming its type and message."""
    try:
        return pickle.dumps(outcomes)
    except Exception:  # noqa: BLE001 - an exception object of a library that does not pickle
        return pickle.dumps({index: (done, value if done else RuntimeError(f"{type(value).__name__}: {value}"))
                             for index, (done, value) in outcomes.items()})


def _read_all(reader: int) -> bytes:
    """Everything a child wrote to its pipe, up to its end; the pipe closed."""
    with os.fdopen(reader, "rb") as pipe:
        return pipe.read()


def _collected(pid: int, data: bytes, share: list[int]) -> dict[int, Outcome]:
    """The outcomes a child sent (``data``), once it has ended; a child that
    ended without sending them gives each item of its share a RuntimeError."""
    _, status = os.waitpid(pid, 0)
    if data and os.waitstatus_to_exitcode(status) == 0:
        return pickle.loads(data)  # noqa: S301 - written by this run's own child, through its own pipe
    code = os.waitstatus_to_exitcode(status)
    failure = RuntimeError(f"a worker process ended without its results (exit status {code})")
    return {index: (False, failure) for index in share}


def _stop(pid: int, reader: int) -> None:
    """Kill the child ``pid`` and reap it; close its pipe (either may be done already)."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    try:
        os.close(reader)
    except OSError:
        pass
