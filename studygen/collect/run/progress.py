"""Progress of a ``collect run`` on stderr: a rich progress bar per stage, and log lines."""

from __future__ import annotations


class Progress:
    """A rich progress bar per stage on stderr, and log lines (shown even when
    stderr is not a terminal); ``quiet`` shows nothing."""

    def __init__(self, quiet: bool = False):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True, quiet=quiet)
        self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), console=self.console, transient=False)
        self.bar.start()

    def task(self, description: str, total: int):
        """A new bar of ``total`` steps; returns its id for :meth:`advance`."""
        return self.bar.add_task(description, total=total)

    def advance(self, task) -> None:
        self.bar.advance(task)

    def log(self, message: str) -> None:
        self.bar.console.log(message)

    def stop(self) -> None:
        self.bar.stop()
