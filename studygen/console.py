"""The ``studygen`` console script and ``python -m studygen`` (``__main__``).

A Ctrl-C ends ``studygen`` with one line, ``studygen: interrupted``, and
exit code 130. :func:`studygen.cli.run` does that once it is running; until
then (importing the command line takes tens of milliseconds) a SIGINT is
answered here by a handler that prints the line and exits at once. A
KeyboardInterrupt would not always end the process: one raised in a
weakref callback of the import system is printed as "Exception ignored"
with a traceback and the import goes on, and Python 3.11 wraps one raised
in ``__set_name__`` (``functools.cached_property``) in a RuntimeError.
Once ``run`` has returned, an interrupt kills the process as SIGINT's
default does: a KeyboardInterrupt in an atexit callback would print a
traceback too.

Only :func:`main` changes the handler, and only where SIGINT has Python's
own (one ignored by whoever started the process stays ignored): importing
this module or ``studygen`` leaves a library user's handlers alone. What
runs before ``main`` answers an interrupt as Python does: the interpreter's
start-up (site and the ``.pth`` files of the environment: an editable
install's finder, say), runpy, and, for the console script, importing this
module (``python -m studygen`` holds SIGINT back meanwhile, ``__main__``).
"""

# the C module that signal wraps, loaded by the interpreter before any code runs: the signal module itself,
# not otherwise imported by studygen --help, took 0.4 ms more to start
import _signal
import atexit
import gc
import os
import sys

INTERRUPTED = "studygen: interrupted\n"  # the line cli.run prints for an interrupt
EXIT_INTERRUPTED = 128 + _signal.SIGINT  # errors.EXIT_INTERRUPTED, not imported here (see _exit_interrupted)


def _exit_interrupted(_signum, _frame) -> None:
    """SIGINT while starting: the line, then exit 130 (``errors.EXIT_INTERRUPTED``,
    not imported here: nothing is imported while the handler runs). Nothing
    has been written or started yet, so nothing needs undoing."""
    os.write(2, INTERRUPTED.encode())
    os._exit(EXIT_INTERRUPTED)


def main(argv=None, *, release=None) -> None:
    """Console entry point: :func:`studygen.cli.run` with ``argv`` (default:
    ``sys.argv[1:]``), exiting with its code; an interrupt while the command
    line is imported ends as one while it runs. ``release``: the signal mask
    to put back once the handler is in place (``__main__`` blocks SIGINT
    while it imports this module; one that came meanwhile arrives then)."""
    ours = _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler
    if ours:
        _signal.signal(_signal.SIGINT, _exit_interrupted)
    if release is not None:
        _signal.pthread_sigmask(_signal.SIG_SETMASK, release)
    try:
        from .cli import run

        if ours:  # from here on a Ctrl-C is a KeyboardInterrupt again, which run turns into its line
            _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        code = run(argv)
        if ours:
            _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
    except KeyboardInterrupt:  # one between the handler's change and run's own try, or after run returned
        if ours:
            _signal.signal(_signal.SIGINT, _signal.SIG_DFL)
        sys.stderr.write(INTERRUPTED)
        code = EXIT_INTERRUPTED
    # What is still alive now goes with the process: moved out of the collector's reach, it is freed by
    # the interpreter's teardown without the collections that walk all of it first (about 20 ms of a
    # check of the shipped project, 15 ms of a render: benchmarks/family_check.py).
    gc.freeze()
    if argv is None and _the_program(sys._getframe(1)):
        leave(code)
    sys.exit(code)  # called from other code (a script's, a profiler's, runpy's): SystemExit is its to catch


# The frames that may stand between the interpreter and main where studygen is the program: runpy's for
# python -m studygen (and for a console script run from a zip: pip's Windows launcher), none for a console script.
_ENTRY_FRAMES = ("_run_code", "_run_module_as_main")


def _the_program(caller) -> bool:
    """Whether ``caller``, the frame that called :func:`main`, is the
    program's entry: the module-level code of ``__main__`` (the console
    script, studygen/__main__.py), run directly by the interpreter or by
    runpy's ``python -m``. Not where anything else is on the stack: a
    profiler (``python -m cProfile -m studygen`` prints its report after
    catching SystemExit), ``runpy.run_module`` from a script, pdb, a script
    calling main in a ``try``, which a fast exit would end on the spot."""
    if caller.f_code.co_name != "<module>" or caller.f_globals.get("__name__") != "__main__":
        return False
    frame = caller.f_back
    while frame is not None:
        if frame.f_globals.get("__name__") != "runpy" or frame.f_code.co_name not in _ENTRY_FRAMES:
            return False
        frame = frame.f_back
    return True


def leave(code: int) -> None:
    """End the process with exit status ``code`` once the command is done,
    skipping the interpreter's teardown (freeing every module and object:
    about 9 ms of a check of the shipped project, 8 ms of a render) as
    mypy's fast exit does: the atexit callbacks run first, as Python's exit
    runs them (coverage's data file, a sitecustomize's handlers, logging's),
    then stdout and stderr are flushed. Every file a command writes is
    closed by then (each is written through a ``with``). Python's own exit
    is kept where it still has work: another thread alive (it waits for
    those), multiprocessing loaded (``collect run``'s compile workers,
    check's spawned workers off Linux: its children and their finalizers
    are Python's exit's to end), or a stream that cannot be flushed (a
    closed pipe, which it reports as it always has). :func:`main` calls this
    only where studygen is the program (:func:`_the_program`, ``argv`` not
    given)."""
    threading = sys.modules.get("threading")
    # CPython's (elsewhere Python's exit runs the callbacks): run them all now, or forget them once run
    run_callbacks, forget_callbacks = getattr(atexit, "_run_exitfuncs", None), getattr(atexit, "_clear", None)
    if run_callbacks is None or forget_callbacks is None or (threading is not None and threading.active_count() > 1) \
            or "multiprocessing" in sys.modules:
        sys.exit(code)
    if not _flushed():  # a closed pipe or stream, none at all: Python reports it
        sys.exit(code)
    run_callbacks()
    if not _flushed():  # what a callback wrote cannot go out: Python reports it, not running the callbacks twice
        forget_callbacks()
        sys.exit(code)
    os._exit(code)


def _flushed() -> bool:
    """Whether stdout and stderr flushed; False where one is closed, gone (None), or its device refuses it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        return False
    return True


__all__ = ["leave", "main"]
