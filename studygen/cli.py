"""Command line: ``studygen render|check|lint|collect|new|rows``.

Subcommands are imported only when invoked (Polygraphy-style lazy loading), so
``studygen --help`` imports neither pandas nor torch. Every
:class:`~studygen.errors.StudygenError` ends as one line on stderr and its exit
code; anything else is an internal error (exit 2, one line; set
``STUDYGEN_DEBUG=1`` for the traceback).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading

import click

from . import __version__
from .commands import COMMANDS
from .errors import EXIT_INTERRUPTED, EXIT_USAGE, StudygenError


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        if name not in COMMANDS:
            return None
        entry = COMMANDS[name]
        return getattr(importlib.import_module(entry.module), entry.attribute)

    def format_commands(self, ctx, formatter):
        rows = [(name, COMMANDS[name].summary) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def print_version(ctx, _param, value) -> None:
    """``--version``: the version with the commit it came from (studygen.version,
    imported only here: it may ask git)."""
    if not value or ctx.resilient_parsing:
        return
    from .version import studygen_version

    click.echo(f"studygen, version {studygen_version()}")
    ctx.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=print_version,
              help=f"Show the version ({__version__} and the commit it came from) and exit.")
def cli():
    """studygen: inference study READMEs generated from measurement records and checked against them."""


def run(argv=None) -> int:
    """Run the CLI with ``argv``; return the exit code. Errors become one line on stderr.

    An interrupt (Ctrl-C, SIGINT) ends the run with ``studygen: interrupted``
    and :data:`~studygen.errors.EXIT_INTERRUPTED` also where the
    KeyboardInterrupt it raised did not reach here as itself (see
    :func:`interrupts_noticed`)."""
    with interrupts_noticed() as noticed:
        code = _run(argv)
    if noticed.interrupted and code != EXIT_INTERRUPTED:
        return _interrupted()
    return code


def _interrupted() -> int:
    """The one line an interrupt ends a run with, and its exit code."""
    click.echo("studygen: interrupted", err=True)
    return EXIT_INTERRUPTED


def _run(argv) -> int:
    try:
        result = cli.main(args=argv, prog_name="studygen", standalone_mode=False)
        return result if isinstance(result, int) else 0
    except (click.exceptions.Abort, KeyboardInterrupt):  # Abort: click's form of KeyboardInterrupt (Ctrl-C, SIGINT)
        return _interrupted()
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except StudygenError as exc:
        click.echo(f"studygen: {exc.line()}", err=True)
        return exc.exit_code
    except Exception as exc:  # noqa: BLE001 - the one place internal errors are caught
        if caused_by_interrupt(exc):  # an error made of the interrupt: no internal error to report
            return _interrupted()
        if os.environ.get("STUDYGEN_DEBUG"):
            raise
        click.echo(f"studygen: {_missing_package(exc) or 'internal error: ' + type(exc).__name__ + ': ' + str(exc)} "
                   "(set STUDYGEN_DEBUG=1 for the traceback)", err=True)
        return EXIT_USAGE


def caused_by_interrupt(exc: BaseException) -> bool:
    """Whether a KeyboardInterrupt is in ``exc``'s chain of causes and
    contexts: Python 3.11 wraps one raised in ``__set_name__`` (a dataclass
    field, a cached_property, while a command's module is imported) in a
    RuntimeError, which would otherwise read as an internal error."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


class _Noticed:
    interrupted = False


@contextlib.contextmanager
def interrupts_noticed():
    """Within: SIGINT raises KeyboardInterrupt as Python's own handler does,
    and is also recorded (``.interrupted`` of what this yields), and a
    KeyboardInterrupt that cannot propagate (one raised in a callback,
    which Python reports as "Exception ignored") is not printed. An
    interrupt is then never lost: one swallowed on its way (the import
    system's weakref callbacks, a compiled extension such as PyYAML's
    ``_yaml`` while it imports) still ends the run as an interrupt. Only
    where SIGINT has Python's default handler (``console.main`` gives it
    that); a handler set by someone else is left alone, and so is every
    handler when run is called outside the main thread (where Python lets
    no handler be set)."""
    noticed = _Noticed()
    ours = (signal.getsignal(signal.SIGINT) is signal.default_int_handler
            and threading.current_thread() is threading.main_thread())

    def record(signum, frame):
        noticed.interrupted = True
        signal.default_int_handler(signum, frame)

    def quiet_interrupt(unraisable):
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            earlier_hook(unraisable)

    earlier_hook = sys.unraisablehook
    if ours:
        signal.signal(signal.SIGINT, record)
        sys.unraisablehook = quiet_interrupt
    try:
        yield noticed
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            sys.unraisablehook = earlier_hook


def _missing_package(exc: Exception) -> str | None:
    """What to say when ``exc`` is a library that is not installed (a
    ModuleNotFoundError naming its module; e.g. a GPU machine given
    studygen's wheels without their dependencies lacked wcwidth, which
    mdformat-gfm imports): the package to install. None for anything else."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    top = exc.name.partition(".")[0]
    if top == "studygen":  # a module of our own missing is our fault, not the installation's
        return None
    # the module's name, not a package to pip install: they differ (yaml is PyYAML's, re2 google-re2's)
    return (f"the Python module {top} is not installed in this environment (this command or a library it uses "
            "needs it): install studygen with its dependencies (pip install -e . in its checkout; "
            "pip install -e '.[gpu]' for collect run's torch, transformers and ModelOpt)")


def main(argv=None) -> None:
    """Console entry point."""
    sys.exit(run(argv))


if __name__ == "__main__":
    main()
