"""Progress of a ``collect run`` on stderr: a rich progress bar per stage, and log lines."""

from __future__ import annotations

import sys


class Progress:
    """A rich progress bar per stage on stderr, and log lines (shown even when
    stderr is not a terminal); ``quiet`` shows nothing."""

    def __init__(self, quiet: bool = False):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True, quiet=quiet)
        # no refresh thread: it would take the GIL ten times a second while forwards are being
        # launched and timed; the bars are redrawn when a step ends (advance) instead
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=self.console, transient=False, auto_refresh=False)
        self.bar.start()

    def task(self, description: str, total: int):
        """A new bar of ``total`` steps; returns its id for :meth:`advance`."""
        return self.bar.add_task(description, total=total)

    def advance(self, task) -> None:
        self.bar.advance(task)
        self.bar.refresh()

    def end(self, task, note: str = "") -> None:
        """Stop ``task``'s bar where it is (its clock stops), ``note`` (why it
        stopped short: ``fp32 failed``) added to its description in brackets;
        a bar left open would count on until the run ends."""
        if note:
            self.bar.update(task, description=f"{self.bar.tasks[task].description} ({note})")
        self.bar.stop_task(task)
        self.bar.refresh()

    def log(self, message: str) -> None:
        self.bar.console.log(message)

    def stop(self) -> None:
        self.bar.stop()


class LineProgress:
    """Progress of a compilation worker (:mod:`.compilations`): log lines on
    stderr with a ``prefix``, no bars (several processes share one stderr)."""

    def __init__(self, prefix: str, quiet: bool = False):
        self.prefix = prefix
        self.quiet = quiet

    def task(self, description: str, total: int):
        return None

    def advance(self, task) -> None:
        pass

    def end(self, task, note: str = "") -> None:
        pass

    def log(self, message: str) -> None:
        if not self.quiet:
            print(f"[{self.prefix}] {message}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        pass
