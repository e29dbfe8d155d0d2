"""studygen.commands.forked_shares: each share but the first is done in a
forked child, its outcomes come back through a pipe one frame an item (kept
when the child dies later; an outcome that does not unpickle fails only its
item), a share whose process cannot start is done here, an interrupt stops
and reaps every child, and a child dies with its parent."""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time

import pytest

from studygen.commands.forked_shares import WorkerEnded, outcomes_in_forks
from tests.conftest import REPO


class TwoArgumentError(Exception):
    """Pickles, but pickle.loads calls it with its message alone and fails (a TypeError)."""

    def __init__(self, study, reason):
        super().__init__(f"{study}: {reason}")


class LoadsOnlyWhereRaised(Exception):
    """Unpickles in the process that pickled it only: as a class a child has and this process has not."""

    def __reduce__(self):
        return _remade, (os.getpid(),)


def _remade(pid):
    if os.getpid() != pid:
        raise ImportError(f"no such class outside process {pid}")
    return LoadsOnlyWhereRaised("remade")


def _reaped(pid: int) -> bool:
    """Whether the child ``pid`` has ended and been waited for (no zombie left)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@pytest.fixture
def forked(monkeypatch) -> list[int]:
    """The pids os.fork gives this process (the children) while the test runs."""
    pids, fork = [], os.fork

    def recorded():
        pid = fork()
        if pid:
            pids.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded)
    return pids


def test_each_share_but_the_first_is_done_in_a_child_of_its_own(forked):
    here = os.getpid()
    outcomes = outcomes_in_forks(lambda item: (item, os.getpid()), ["a", "b", "c", "d"], [[0, 3], [1], [2]])
    assert sorted(outcomes) == [0, 1, 2, 3] and all(done for done, _ in outcomes.values())
    assert [outcomes[i][1][0] for i in range(4)] == ["a", "b", "c", "d"]
    pids = {i: outcomes[i][1][1] for i in range(4)}
    assert pids[0] == pids[3] == here
    assert len({pids[1], pids[2], here}) == 3  # two children, one per share
    assert sorted(forked) == sorted([pids[1], pids[2]]) and all(map(_reaped, forked))


def test_an_item_s_exception_is_its_outcome_and_the_share_goes_on():
    def work(item):
        if item == "bad":
            raise ValueError(f"no {item}")
        return item.upper()

    outcomes = outcomes_in_forks(work, ["bad", "ok", "bad", "fine"], [[0, 1], [2, 3]])
    assert outcomes[1] == (True, "OK") and outcomes[3] == (True, "FINE")  # the child's second item after its error
    for index in (0, 2):
        done, error = outcomes[index]
        assert not done and isinstance(error, ValueError) and str(error) == "no bad"


def test_a_share_whose_process_cannot_start_is_done_here(monkeypatch):
    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    here = os.getpid()
    outcomes = outcomes_in_forks(lambda item: os.getpid(), ["a", "b", "c"], [[0], [1], [2]])
    assert outcomes == {0: (True, here), 1: (True, here), 2: (True, here)}


def test_an_interrupt_here_stops_and_reaps_every_child(forked):
    here = os.getpid()

    def work(item):
        if os.getpid() == here:
            raise KeyboardInterrupt  # as Ctrl-C arriving while this process checks its own share
        time.sleep(30)  # a child still busy: it must be killed, not waited for
        return item

    with pytest.raises(KeyboardInterrupt):
        outcomes_in_forks(work, ["mine", "theirs", "others"], [[0], [1], [2]])
    assert len(forked) == 2 and all(map(_reaped, forked))  # killed and reaped (waiting would take their 30 s)


def test_a_child_that_ends_without_its_outcomes_fails_each_of_its_items():
    here = os.getpid()

    def work(item):
        if os.getpid() != here:
            os._exit(3)  # as a child the kernel killed (out of memory) or that crashed
        return item

    outcomes = outcomes_in_forks(work, ["a", "b", "c"], [[0], [1, 2]])
    assert outcomes[0] == (True, "a")
    for index, item in ((1, "b"), (2, "c")):
        done, error = outcomes[index]
        assert not done and isinstance(error, RuntimeError)
        assert str(error) == f"a worker process ended with exit status 3 before checking {item}"
    # the caller says how an item is named (check: the study's folder relative to the project)
    outcomes = outcomes_in_forks(work, ["a", "b"], [[0], [1]], shown=lambda item: f"families/{item}")
    assert str(outcomes[1][1]) == "a worker process ended with exit status 3 before checking families/b"


def _crash(how: str) -> None:
    faulthandler.disable()  # pytest's handler would print the crash: the signal alone is wanted
    if how == "exit":
        os._exit(7)
    os.kill(os.getpid(), signal.SIGSEGV if how == "SIGSEGV" else signal.SIGRTMIN + 1)


@pytest.mark.parametrize(("how", "named"), [("exit", "with exit status 7"), ("SIGSEGV", "by signal SIGSEGV"),
                                            ("real-time", f"by signal {signal.SIGRTMIN + 1}")])
def test_a_child_that_dies_keeps_the_outcomes_it_had_sent(how, named):
    """Its first two items' outcomes (a value, an error) came back before it
    died on the third: only the third and fourth fail, naming how it ended
    (failed before: every item of the share, with the exit status only)."""
    here = os.getpid()

    def work(item):
        if os.getpid() != here and item == "c":
            _crash(how)
        if item == "bad":
            raise ValueError("bad study")
        return item.upper()

    outcomes = outcomes_in_forks(work, ["a", "b", "bad", "c", "d"], [[0], [1, 2, 3, 4]])
    assert outcomes[0] == (True, "A") and outcomes[1] == (True, "B")
    assert not outcomes[2][0] and type(outcomes[2][1]) is ValueError and str(outcomes[2][1]) == "bad study"
    for index, item in ((3, "c"), (4, "d")):
        done, error = outcomes[index]
        assert not done and type(error) is WorkerEnded and error.how == named  # the caller tells it apart
        assert str(error) == f"a worker process ended {named} before checking {item}"
    assert sorted(outcomes) == [0, 1, 2, 3, 4]


def test_an_outcome_that_does_not_come_back_through_pickle_fails_its_item_alone():
    """An exception whose __init__ wants two arguments (pickles, does not
    load), a value that does not pickle, an exception that loads in the
    child only, one of a local class (does not pickle) with no message to
    give: each a RuntimeError naming what happened, the items around them
    unharmed (failed before: pickle.loads raised here, for the run)."""
    class NoMessageError(Exception):
        def __str__(self):
            raise ValueError("no message")

    def work(item):
        if item == "no message":
            raise NoMessageError()
        if item == "two":
            raise TwoArgumentError("tiny", "broken")
        if item == "generator":
            return (n for n in range(3))
        if item == "there only":
            raise LoadsOnlyWhereRaised("made")
        return item

    items = ["two", "ok", "generator", "there only", "fine", "two", "no message"]
    outcomes = outcomes_in_forks(work, items, [[5], [0, 1, 2, 3, 4, 6]])
    assert outcomes[1] == (True, "ok") and outcomes[4] == (True, "fine")
    errors = {index: outcomes[index][1] for index in (0, 2, 3, 6)}
    assert not any(outcomes[index][0] for index in errors) and all(type(e) is RuntimeError for e in errors.values())
    assert str(errors[0]) == "TwoArgumentError: tiny: broken"
    assert str(errors[2]) == ("its result could not be sent back "
                              "(TypeError: cannot pickle 'generator' object)")
    assert str(errors[3]).startswith("the outcome a worker process sent could not be read (ImportError: no such "
                                     "class outside process ")
    assert str(errors[6]) == "NoMessageError"
    assert not outcomes[5][0] and type(outcomes[5][1]) is TwoArgumentError  # raised here: kept as it was


def test_outputs_over_the_pipe_s_buffer_arrive_whole_while_this_process_does_its_share(tmp_path):
    """A child's three outcomes of 600 KB each (1.8 MB against a pipe of
    64 KiB, or 1 MiB where it could be widened): read between this
    process's own items, so the child ends while they go on, and whole."""
    finished = tmp_path / "child finished"
    here = os.getpid()

    def work(item):
        if os.getpid() == here:  # one of this process's 400 items: up to 20 s for the child to end
            if not finished.exists():
                time.sleep(0.05)
            return finished.exists()
        if item == "z":
            finished.touch()
        return item * 600_000

    child_items = ["x", "y", "z"]
    outcomes = outcomes_in_forks(work, child_items + list(range(400)), [list(range(3, 403)), [0, 1, 2]])
    for index, item in enumerate(child_items):
        assert outcomes[index] == (True, item * 600_000)
    assert outcomes[402] == (True, True)  # this process's last item saw the child done


def test_a_child_that_ends_while_this_process_does_its_share_is_reaped_then(tmp_path):
    """The child dies during this process's first item: it is reaped, and
    its item failed, before the second item begins (not once the share is
    over, a zombie meanwhile)."""
    pid_file = tmp_path / "child.pid"
    here = os.getpid()

    def work(item):
        if os.getpid() != here:
            pid_file.with_suffix(".part").write_text(str(os.getpid()))
            pid_file.with_suffix(".part").rename(pid_file)
            os._exit(4)
        if item == "first":
            for _ in range(1200):  # until the child has ended (60 s at most)
                if pid_file.exists() and _gone(int(pid_file.read_text())):
                    break
                time.sleep(0.05)
            return _gone(int(pid_file.read_text()))
        return os.path.exists(f"/proc/{pid_file.read_text()}")  # gone from /proc once reaped

    outcomes = outcomes_in_forks(work, ["first", "second", "theirs"], [[0, 1], [2]])
    assert outcomes[0] == (True, True) and outcomes[1] == (True, False)
    assert not outcomes[2][0] and str(outcomes[2][1]) == "a worker process ended with exit status 4 before checking theirs"


def test_this_process_waits_for_its_children_without_spinning():
    """CPU time, not wall time: a child sleeps 2 s after this process's
    share is done; waiting for it by polling in a loop would take about
    that much of this process's CPU time, a blocking wait almost none."""
    import resource

    here = os.getpid()

    def work(item):
        if os.getpid() != here:
            time.sleep(2)
        return item

    before = resource.getrusage(resource.RUSAGE_SELF)
    outcomes = outcomes_in_forks(work, ["mine", "theirs"], [[0], [1]])
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert outcomes == {0: (True, "mine"), 1: (True, "theirs")}
    assert (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) < 0.5


def _pipe_max_size() -> int:
    try:
        with open("/proc/sys/fs/pipe-max-size", encoding="ascii") as limit:
            return int(limit.read())
    except OSError:
        return 0


@pytest.mark.skipif(_pipe_max_size() < 1 << 20, reason="no pipe of 1 MiB to be had here")
def test_a_child_s_pipe_holds_a_mib_while_this_process_does_one_long_item(tmp_path):
    """A child's outcome of 900 KB is written while this process is inside
    one item, with no read between: the pipe was widened to 1 MiB (its 64
    KiB would have held the child until this item ended, 20 s here)."""
    finished = tmp_path / "child finished"
    here = os.getpid()

    def work(item):
        if os.getpid() == here:
            for _ in range(400):
                if finished.exists():
                    return True
                time.sleep(0.05)
            return False
        if item == "after":
            finished.touch()
            return item
        return item * 900_000

    outcomes = outcomes_in_forks(work, ["mine", "x", "after"], [[0], [1, 2]])
    assert outcomes == {0: (True, True), 1: (True, "x" * 900_000), 2: (True, "after")}


def _gone(pid: int) -> bool:
    """Whether ``pid`` runs no more (no such process, or a zombie nobody reaps)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except FileNotFoundError:
        return True


PARENT = """
import os, sys
from studygen.commands.forked_shares import outcomes_in_forks

def work(item):
    if item == "stuck":
        with open(sys.argv[1] + ".part", "w") as written:
            written.write(str(os.getpid()))
        os.rename(sys.argv[1] + ".part", sys.argv[1])
        while True:  # a study that never ends: no check between items comes
            pass
    return item

outcomes_in_forks(work, ["here", "stuck"], [[0], [1]])
"""


@pytest.mark.skipif(sys.platform != "linux", reason="the kernel kills a child with its parent on Linux only")
def test_a_child_stuck_in_an_item_dies_when_its_parent_is_killed(tmp_path):
    """SIGKILL to the parent while its child is in an item that never ends:
    the child goes too (it lived on before, checking only between items)."""
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(pid_file)], env=dict(os.environ, PYTHONPATH=str(REPO)))
    child = None
    try:
        for _ in range(1200):  # the child is in its item once it has written its pid (60 s at most)
            if pid_file.exists() or parent.poll() is not None:
                break
            time.sleep(0.05)
        child = int(pid_file.read_text())
        assert not _gone(child)
        parent.kill()
        assert parent.wait(timeout=60) == -signal.SIGKILL
        for _ in range(600):  # gone at once where it works; 30 s before calling it alive
            if _gone(child):
                break
            time.sleep(0.05)
        assert _gone(child)
    finally:
        parent.kill()
        parent.wait()
        if child is not None and not _gone(child):
            os.kill(child, signal.SIGKILL)


def _wait_for(condition, limit_s: float = 30.0) -> None:
    """Until ``condition()`` holds (a test's rendezvous between processes; never a bound on its time)."""
    deadline = time.monotonic() + limit_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.005)


def test_with_steal_this_process_does_the_items_a_child_has_not_begun(forked, tmp_path):
    """The child holds its first item until this process has done the last one: only stealing from the
    child's queue gets that far (without it the child would do every item of its share)."""
    here, began, last_done = os.getpid(), tmp_path / "began", tmp_path / "last-done"

    def work(item):
        if item == "mine":
            _wait_for(began.exists)  # the child has taken its first item
        elif item == "held":
            began.touch()
            _wait_for(last_done.exists)
        elif item == "last":
            last_done.touch()
        return item, os.getpid()

    outcomes = outcomes_in_forks(work, ["mine", "held", "next", "last"], [[0], [1, 2, 3]], steal=True)
    assert outcomes == {0: (True, ("mine", here)), 1: (True, ("held", forked[0])), 2: (True, ("next", here)),
                        3: (True, ("last", here))}


def _zombie(pid: int) -> bool:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat_file:
        return stat_file.read().rpartition(")")[2].split()[0] == "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_with_steal_the_items_a_dead_child_left_in_its_queue_are_done_here(forked):
    """The child dies in its first item; this process, waiting until it is dead before taking any, does the
    two items still queued: only the item it died in fails (without stealing all three failed)."""
    here = os.getpid()

    def work(item):
        if item == "mine":
            _wait_for(lambda: forked and _zombie(forked[0]))
        elif item == "crash" and os.getpid() != here:
            os.kill(os.getpid(), signal.SIGKILL)
        return item, os.getpid()

    outcomes = outcomes_in_forks(work, ["mine", "crash", "b", "c"], [[0], [1, 2, 3]], steal=True)
    done, error = outcomes[1]
    assert not done and str(error) == "a worker process ended by signal SIGKILL before checking crash"
    assert {index: outcomes[index] for index in (0, 2, 3)} == {0: (True, ("mine", here)), 2: (True, ("b", here)),
                                                               3: (True, ("c", here))}


def test_a_share_s_queue_holds_its_indices_in_order_or_is_not_made(monkeypatch):
    from studygen.commands import forked_shares

    queue = forked_shares._queue_of([5, 0, 70000])
    assert list(forked_shares._queue_items(queue)) == [5, 0, 70000] and os.read(queue, 4) == b""
    os.close(queue)
    monkeypatch.setattr(forked_shares, "_widen", lambda pipe: None)  # the 64 KiB a pipe starts with
    fits = forked_shares._queue_of(list(range(16384)))  # 65,536 bytes: fits
    assert fits is not None
    os.close(fits)
    assert forked_shares._queue_of(list(range(16385))) is None  # four bytes more: the share is done as dealt


def test_without_steal_a_child_s_items_stay_its_own(forked, tmp_path):
    """The child holds its first item until half a second after this process's share is done, time enough to
    take the child's next item if it stole: without steal it never does."""
    began, mine_done = tmp_path / "began", tmp_path / "mine-done"

    def work(item):
        if item == "mine":
            _wait_for(began.exists)
            mine_done.touch()
        elif item == "held":
            began.touch()
            _wait_for(mine_done.exists)
            time.sleep(0.5)
        return item, os.getpid()

    outcomes = outcomes_in_forks(work, ["mine", "held", "next"], [[0], [1, 2]])
    assert outcomes[2] == (True, ("next", forked[0]))


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_with_steal_no_descriptor_is_left_open(monkeypatch):
    """Every queue and pipe is closed: after a run, an interrupt, a share whose pipe or process could not be made."""
    here = os.getpid()
    before = _open_descriptors()
    assert outcomes_in_forks(lambda item: item, ["a", "b", "c", "d"], [[0], [1, 2], [3]], steal=True)[3] == (True, "d")
    assert _open_descriptors() == before

    def interrupted(item):
        if os.getpid() == here:
            raise KeyboardInterrupt
        time.sleep(30)

    with pytest.raises(KeyboardInterrupt):
        outcomes_in_forks(interrupted, ["mine", "theirs", "more"], [[0], [1, 2]], steal=True)
    assert _open_descriptors() == before

    pipes, made = os.pipe, []

    def second_pipe_fails():  # the share's queue is made, its outcome pipe is not
        made.append(1)
        if len(made) == 2:
            raise OSError(24, "Too many open files")
        return pipes()

    monkeypatch.setattr(os, "pipe", second_pipe_fails)
    assert outcomes_in_forks(lambda item: os.getpid(), ["a", "b"], [[0], [1]], steal=True) == {0: (True, here), 1: (True, here)}
    assert _open_descriptors() == before
    monkeypatch.setattr(os, "pipe", pipes)

    def no_fork():
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert outcomes_in_forks(lambda item: os.getpid(), ["a", "b"], [[0], [1]], steal=True) == {0: (True, here), 1: (True, here)}
    assert _open_descriptors() == before
