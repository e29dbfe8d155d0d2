"""``python -m studygen``: :func:`studygen.console.main`. SIGINT is held
back (blocked) while ``console`` is imported, and main lets it through once
its handler is in place: an interrupt then ends as one later on, not in a
traceback from this import, nor in "Exception ignored" from the import
system's callbacks, which no ``try`` here would catch."""

import _signal  # as in console: loaded by the interpreter before any code runs

held = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT}) if hasattr(_signal, "pthread_sigmask") else None
from .console import main  # noqa: E402 - after SIGINT is held back

main(release=held)
