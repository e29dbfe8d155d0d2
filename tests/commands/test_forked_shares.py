"""studygen.commands.forked_shares: each share but the first is done in a
forked child, its outcomes come back through a pipe, a share whose process
cannot start is done here, and an interrupt stops and reaps every child."""

from __future__ import annotations

import os
import time

import pytest

from studygen.commands.forked_shares import outcomes_in_forks


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
    for index in (1, 2):
        done, error = outcomes[index]
        assert not done and isinstance(error, RuntimeError) and "exit status 3" in str(error)
