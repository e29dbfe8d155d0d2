"""``python -m studygen``: :func:`studygen.console.main`. SIGINT is held
back (blocked) while ``console`` is imported, and main lets it through once
its handler is in place: an interrupt then ends as one later on, not in a
traceback from this import, nor in "Exception ignored" from the import
system's callbacks, which no ``try`` here would catch."""

import signal

held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hasattr(signal, "pthread_sigmask") else None
from .console import main  # noqa: E402 - after SIGINT is held back

main(release=held)
