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
one for all: it kills them, reaps them and raises), a child dies with its
parent (Linux: the kernel kills it, even inside an item that never ends;
elsewhere it notices between items), a share whose process cannot start is
done by the parent, and every item's outcome comes back so that the caller
raises the error of the first item in its own order.

A child sends each item's outcome as soon as the item is done, as a frame of
its own on its pipe: ``_HEADER`` (the item's index, the payload's length in
bytes) then the pickled ``(done, value)``. So a child that crashes (a signal,
``os._exit``) fails only the items it sent nothing for, and a frame that does
not unpickle fails only its own item. The parent reads every child's pipe
between its own items and then until each ends, so a child whose outputs
exceed the pipe's buffer waits for one of the parent's items at most.

With ``steal`` (check's way), a child takes each item of its share from a
queue of its own before doing it: a pipe holding the share's indices, written
whole before the fork and read 4 bytes at a time (a read of a pipe takes
whole units for one reader at a time). The parent, its own share done, takes
the items a child has not begun from the same queue and does them itself, so
that the processes end together even where the sizes the shares were dealt by
mispredict the work; and where a child dies, the items still in its queue are
done by the parent, only the item it died in failing.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
from typing import Callable

from ..collect.lazy import lazy_import

try:
    import fcntl
except ImportError:  # Windows, which imports this module (check does) but never forks
    fcntl = None

# imported in a forked child, on its first use (about 1 ms), never in check's own process
ctypes = lazy_import("ctypes")

# an item's outcome: (True, value) or (False, the exception it raised)
Outcome = tuple[bool, object]


class WorkerEnded(RuntimeError):
    """The outcome of an item whose worker process ended before sending it:
    not raised by the item, so a caller may report it apart from the items'
    own errors. ``how``: ``by signal SIGKILL``, ``with exit status 7``."""

    def __init__(self, how: str, item: str):
        super().__init__(f"a worker process ended {how} before checking {item}")
        self.how = how

# a frame's header: the item's index in ``items``, the length of the pickle that follows (bytes)
_HEADER = struct.Struct("<IQ")
# a pipe's buffer asked for (F_SETPIPE_SZ), and the most read at once: Linux lets any user have up to
# /proc/sys/fs/pipe-max-size, 1 MiB by default, against the 64 KiB a pipe starts with
_PIPE_BYTES = 1 << 20
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class _Child:
    """A forked child doing ``share``: its pid, the read end of its pipe, and
    the bytes read from it that do not make a whole frame yet. (A plain
    class: a dataclass's generated methods cost a compile at import.)"""

    def __init__(self, pid: int, reader: int, share: list[int], queue: int | None = None):
        self.pid, self.reader, self.share = pid, reader, share
        self.received = bytearray()
        self.queue = queue  # the read end of the share's queue (with steal), None once drained
        self.left: list[int] = []  # items still queued when the child ended, for the parent


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


def outcomes_in_forks(work: Callable, items: list, shares: list[list[int]],
                      shown: Callable[[object], str] = str, steal: bool = False) -> dict[int, Outcome]:
    """``work(items[i])`` for every index ``i`` of ``shares``: the first share
    in this process, each other in a forked child. Returns each index's
    outcome; an ``Exception`` an item raises is its outcome (the share goes
    on), anything else (KeyboardInterrupt, SystemExit) stops the run: the
    children are killed and reaped, and it is raised here. An item whose
    child ended before sending its outcome (a crash, the out-of-memory
    killer) gets a :class:`WorkerEnded` naming the exit status or signal and
    the item (``shown(item)``); an
    exception or value that does not come back through pickle, a
    RuntimeError naming its type. With ``steal``, this process, its share
    done, does the items children have not begun, and those a dead child left
    (see the module docstring). Call it from the main thread (a child
    dies with the thread that forked it). POSIX only (``os.fork``)."""
    children: list[_Child] = []
    queued: list[_Child] = []  # children whose queues may still hold items (one that ended stays here)
    try:
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # no child may take an interrupt
        own = list(shares[0])
        try:
            for share in shares[1:]:
                started = _fork_share(work, items, share, blocked, steal)
                if started is None:
                    own.extend(share)  # could not start a process: done here
                else:
                    children.append(started)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # an interrupt held meanwhile arrives here
        outcomes: dict[int, Outcome] = {}

        def describe(index: int) -> str:  # an item as an error names it: made only when one fails
            return shown(items[index])

        queued.extend(children)
        while True:
            index = own.pop(0) if own else _taken_from_queues(queued) if steal else None
            if index is None:
                if not children:
                    return outcomes
                _read_ready(children, describe, outcomes, wait=True)
                continue
            outcomes[index] = _outcome(work, items[index])
            _read_ready(children, describe, outcomes, wait=False)  # a child with a full pipe waits for no more
    finally:
        for child in children:  # stopped early: no child outlives the run
            _stop(child)
        for child in queued or children:
            _close_queue(child)


def _outcome(work: Callable, item) -> Outcome:
    try:
        return True, work(item)
    except Exception as exc:  # noqa: BLE001 - the caller raises it in its own order
        return False, exc


def _fork_share(work: Callable, items: list, share: list[int], mask, steal: bool = False) -> _Child | None:
    """The child forked to do ``share`` (taking its items from a queue with
    ``steal``, where one can hold them); None when no process or pipe could
    be made (EMFILE, EAGAIN)."""
    queue = _queue_of(share) if steal else None
    try:
        reader, writer = os.pipe()
    except OSError:
        _close(queue)
        return None
    _widen(writer)
    parent = os.getpid()  # taken before the fork: a child that sees another parent knows this one is gone
    try:
        pid = os.fork()
    except OSError:
        for end in (reader, writer, queue):
            _close(end)
        return None
    if pid == 0:  # the child: never returns
        _run_share(work, items, share if queue is None else _queue_items(queue), parent, (reader, writer), mask)
    os.close(writer)
    return _Child(pid, reader, share, queue=queue)


_INDEX = struct.Struct("<I")  # an item's index in a share's queue


def _queue_of(share: list[int]) -> int | None:
    """The read end of a pipe holding ``share``'s indices (:data:`_INDEX`
    each), its write end closed, so that a read takes the next index or,
    the queue empty, ends at once; None where no pipe could be made or the
    share does not fit its buffer (then the child does its share as dealt)."""
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        _widen(writer)
        os.set_blocking(writer, False)
        data = b"".join(_INDEX.pack(index) for index in share)
        if os.write(writer, data) == len(data):  # a pipe takes all or nothing up to its buffer: one write
            return reader
    except OSError:  # BlockingIOError: more than the buffer holds
        pass
    finally:
        os.close(writer)
    os.close(reader)
    return None


def _queue_items(queue: int):
    """The indices taken from ``queue`` one at a time, until it is empty."""
    while data := os.read(queue, _INDEX.size):
        yield _INDEX.unpack(data)[0]


def _taken_from_queues(children: list[_Child]) -> int | None:
    """An index taken from the first child's queue that has one, or left
    there when the child ended; None when every queue is empty (each is
    then closed)."""
    for child in children:
        if child.left:
            return child.left.pop(0)
        if child.queue is not None:
            data = os.read(child.queue, _INDEX.size)
            if data:
                return _INDEX.unpack(data)[0]
            _close_queue(child)
    return None


def _close_queue(child: _Child) -> None:
    _close(child.queue)
    child.queue = None


def _close(descriptor: int | None) -> None:
    if descriptor is not None:
        try:
            os.close(descriptor)
        except OSError:
            pass


def _widen(pipe: int) -> None:
    """Ask for a pipe buffer of ``_PIPE_BYTES`` (Linux); where it is refused
    (a lower pipe-max-size, the user's pipes over their limit, no
    F_SETPIPE_SZ) the pipe keeps its 64 KiB, and a child waits sooner."""
    try:
        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, _PIPE_BYTES)
    except (AttributeError, OSError):  # AttributeError: no fcntl, or no F_SETPIPE_SZ in it
        pass


def _run_share(work: Callable, items: list, share, parent: int, pipe: tuple[int, int], mask) -> None:
    """The child's life: each item of ``share`` (indices, or their queue's
    :func:`_queue_items`) done and its frame written to the pipe's write end,
    ``pipe[1]``, at once; exit status 0 once all are sent, 1 when the parent
    is gone or the pipe breaks."""
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent answers an interrupt for the whole run
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(pipe[0])
        _die_with_parent()
        with os.fdopen(pipe[1], "wb") as writer:
            for index in share:
                # the parent is gone: nobody reads what this share finds (checked first right after
                # _die_with_parent, for a parent that ended before the kernel was asked)
                if os.getppid() != parent:
                    os._exit(1)
                writer.write(_frame(index, _outcome(work, items[index])))
                writer.flush()  # sent now: the parent keeps it whatever happens to this process later
        status = 0
    finally:
        os._exit(status)  # no atexit handler, no flush of the parent's buffers, in any case


def _die_with_parent() -> None:
    """Ask Linux to send this process SIGKILL when its parent ends, so that
    an item that never ends does not outlive it (``prctl(PR_SET_PDEATHSIG)``,
    through ctypes, imported in the child only). Best effort: elsewhere,
    or where it fails, the check between items is all there is."""
    if sys.platform != "linux":
        return
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except Exception:  # noqa: BLE001, S110 - no libc prctl to call: the check between items remains
        pass


def _frame(index: int, outcome: Outcome) -> bytes:
    """``_HEADER`` (``index``, the payload's length) then the payload: the
    pickled outcome, or a failed outcome saying why it could not be sent.
    An exception must also unpickle (one whose ``__init__`` takes other
    arguments than it gives ``Exception`` pickles but does not load): it is
    tried here, where a failure costs only this item."""
    done, value = outcome
    try:
        payload = pickle.dumps(outcome)
        if not done:
            pickle.loads(payload)  # noqa: S301 - just made here
    except Exception as exc:  # noqa: BLE001 - any type a library's item returns or raises
        reason = _described(value) if not done else f"its result could not be sent back ({_described(exc)})"
        payload = pickle.dumps((False, RuntimeError(reason)))
    return _HEADER.pack(index, len(payload)) + payload


def _described(exc: BaseException) -> str:
    """``Type: message`` of ``exc``; the type alone where its message cannot be made."""
    try:
        return f"{type(exc).__name__}: {exc}"
    except Exception:  # noqa: BLE001 - a __str__ that fails
        return type(exc).__name__


def _read_ready(children: list[_Child], describe: Callable[[int], str], outcomes: dict[int, Outcome],
                wait: bool) -> None:
    """One read from each child's pipe that has something (waiting for one
    when ``wait``), its whole frames put into ``outcomes``; a child whose
    pipe is at its end is taken off ``children`` and reaped. ``describe``:
    an item's name in an error, by its index."""
    poller = select.poll()
    for child in children:
        poller.register(child.reader, select.POLLIN)
    for reader, _events in poller.poll(None if wait else 0):
        child = next(child for child in children if child.reader == reader)
        data = os.read(reader, _PIPE_BYTES)
        if data:
            child.received += data
            _take_frames(child.received, outcomes)
        else:
            children.remove(child)  # it ends by itself: an interrupt from here need not kill it
            outcomes.update(_ended(child, describe, outcomes))


def _take_frames(received: bytearray, outcomes: dict[int, Outcome]) -> None:
    """Each whole frame at the start of ``received`` unpickled into
    ``outcomes`` and cut off; a part frame stays for the next read."""
    while len(received) >= _HEADER.size:
        index, length = _HEADER.unpack_from(received)
        end = _HEADER.size + length
        if len(received) < end:
            return
        try:
            outcomes[index] = pickle.loads(received[_HEADER.size:end])  # noqa: S301 - this run's own child wrote it
        except Exception as exc:  # noqa: BLE001 - a class that loads in the child but not here
            outcomes[index] = (False, RuntimeError(f"the outcome a worker process sent could not be read "
                                                   f"({_described(exc)})"))
        del received[:end]


def _ended(child: _Child, describe: Callable[[int], str], outcomes: dict[int, Outcome]) -> dict[int, Outcome]:
    """A :class:`WorkerEnded` for each item of ``child``'s share with no
    outcome in ``outcomes``, naming how the child ended (reaped here, its
    pipe closed)."""
    _, status = os.waitpid(child.pid, 0)
    os.close(child.reader)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        try:
            how = f"by signal {signal.Signals(-code).name}"
        except ValueError:  # a real-time signal has no name
            how = f"by signal {-code}"
    else:
        how = f"with exit status {code}"
    # with a queue, the items the child had not taken are this process's to do (their outcomes, when done,
    # replace the failures below, as do those of items this process took from the queue before)
    child.left = list(_queue_items(child.queue)) if child.queue is not None else []
    _close_queue(child)
    return {index: (False, WorkerEnded(how, describe(index))) for index in child.share if index not in outcomes}


def _stop(child: _Child) -> None:
    """Kill ``child`` and reap it; close its pipe (either may be done already)."""
    try:
        os.kill(child.pid, signal.SIGKILL)
        os.waitpid(child.pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass
    try:
        os.close(child.reader)
    except OSError:
        pass
