"""An interrupt that does not reach ``cli.run`` as a KeyboardInterrupt still
ends the run as one (an attack found both: a Ctrl-C while a command's
modules import became "internal error: RuntimeError ..." on Python 3.11,
or was swallowed on its way and the check went on to exit 0)."""

from __future__ import annotations

import gc
import signal
import sys
import threading
import weakref

import pytest

from studygen import cli


@pytest.fixture
def default_sigint():
    """SIGINT with Python's own handler during the test, as console.main leaves it for run."""
    earlier = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, earlier)


class _InterruptingName:
    def __set_name__(self, owner, name):
        raise KeyboardInterrupt


def _made_by_set_name() -> BaseException:
    """What Python raises for a KeyboardInterrupt in ``__set_name__``: a RuntimeError around it on 3.11."""
    try:
        type("Holder", (), {"field": _InterruptingName()})
    except BaseException as exc:  # noqa: BLE001 - the very object Python makes
        return exc
    raise AssertionError("__set_name__ raised nothing")


def test_an_error_made_of_an_interrupt_is_an_interrupt():
    made = _made_by_set_name()
    if sys.version_info < (3, 12):
        assert isinstance(made, RuntimeError) and isinstance(made.__cause__, KeyboardInterrupt)
    assert cli.caused_by_interrupt(made)


def test_an_error_with_no_interrupt_in_its_chain_is_not_one():
    try:
        try:
            raise ValueError("inner")
        except ValueError as inner:
            raise RuntimeError("outer") from inner
    except RuntimeError as outer:
        assert not cli.caused_by_interrupt(outer)
    looped = RuntimeError("a")
    looped.__context__ = RuntimeError("b")
    looped.__context__.__context__ = looped  # a cycle ends the walk
    assert not cli.caused_by_interrupt(looped)
    assert not cli.caused_by_interrupt(None)


def test_a_swallowed_interrupt_is_noticed_and_handlers_come_back(default_sigint):
    hook = sys.unraisablehook
    with cli.interrupts_noticed() as noticed:
        assert not noticed.interrupted
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            pass  # as a library's callback or compiled extension does
        assert noticed.interrupted
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert sys.unraisablehook is hook


def test_an_interrupt_python_can_only_report_is_not_reported(default_sigint, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: reported.append(type(unraisable.exc_value)))

    class Target:
        pass

    def interrupting(_reference):
        raise KeyboardInterrupt

    with cli.interrupts_noticed():
        target, other = Target(), Target()
        references = [weakref.ref(target, interrupting), weakref.ref(other, lambda _r: 1 / 0)]
        del target, other
        gc.collect()
    assert [reference() for reference in references] == [None, None]
    assert reported == [ZeroDivisionError]  # any other error still goes to the hook there was


def test_a_handler_set_by_someone_else_is_left_alone():
    earlier = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        hook = sys.unraisablehook
        with cli.interrupts_noticed() as noticed:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            assert sys.unraisablehook is hook
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        assert not noticed.interrupted
    finally:
        signal.signal(signal.SIGINT, earlier)


def test_outside_the_main_thread_no_handler_is_touched(default_sigint):
    seen = []

    def in_thread():
        with cli.interrupts_noticed() as noticed:  # signal.signal would raise ValueError here
            seen.append((signal.getsignal(signal.SIGINT), noticed.interrupted))

    thread = threading.Thread(target=in_thread)
    thread.start()
    thread.join()
    assert seen == [(signal.default_int_handler, False)]
