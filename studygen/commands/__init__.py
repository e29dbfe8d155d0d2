"""One module per command (after asv/commands): each exposes a function callable
from Python with an options dataclass, and the click command that wraps it.

:data:`COMMANDS` and :data:`COLLECT_COMMANDS` name each command's module and
hold its summary, the one place it is written: ``studygen --help`` lists the
commands from them without importing any, and each command, declared with
:func:`command`, prints the same summary first in its own ``--help``,
followed by what its docstring adds.
"""

from __future__ import annotations

import inspect
from typing import NamedTuple

import click

from ..records.kinds import Kind


class CommandEntry(NamedTuple):
    """Where a command lives (``module``, ``attribute``) and its one-line ``summary``."""

    module: str
    attribute: str
    summary: str


COMMANDS = {
    "render": CommandEntry("studygen.commands.render", "render_command",
                           "Render family READMEs and figures from their records (default: every family)."),
    "check": CommandEntry("studygen.commands.check", "check_command",
                          "Check studies (default: every family): stale README, invalid records, claims against data."),
    "diff": CommandEntry("studygen.commands.diff", "diff_command",
                         "Compare studies at two git revisions: figures beyond their spread, verdicts."),
    "lint": CommandEntry("studygen.commands.lint", "lint_command",
                         "Check Markdown files (or folders of *.md) against their own tables."),
    "collect": CommandEntry("studygen.commands.collect", "collect_group",
                            "Turn measurements (trtexec, profiler traces, COCO detections, agreement figures, GPU runs) "
                            "into records."),
    "new": CommandEntry("studygen.commands.new", "new_command",
                        "Start a study family: write families/FAMILY/study.yaml using the built-in generic template."),
    "rows": CommandEntry("studygen.commands.rows", "rows_command",
                         "Print a family's rows with every field a template filter can use."),
}

COLLECT_COMMANDS = {
    # named by the kind it records (tests/records/test_kinds.py: a kind is spelt in few modules)
    Kind.AGREEMENT: CommandEntry("studygen.commands.collect.agreement", "agreement_command",
                                 "Ingest agreement figures of your own (logit correlation, max abs diff, ...) against a "
                                 "reference variant."),
    "coco": CommandEntry("studygen.commands.collect.coco", "coco_command",
                         "Evaluate detections with COCOeval (bbox) and record the 12 statistics."),
    "env": CommandEntry("studygen.commands.collect.env", "env_command",
                        "Print this machine's provenance block as JSON; with --family/--job/--role merge it into a "
                        "record."),
    "run": CommandEntry("studygen.commands.collect_run", "run_command",
                        "Measure a study's variants (latency, kernel time per group, agreement) with PyTorch and write "
                        "its record."),
    "torch-profile": CommandEntry("studygen.commands.collect.torch_profile", "torch_profile_command",
                                  "Ingest kernel time per group from a PyTorch profiler (Kineto) trace."),
    "trtexec": CommandEntry("studygen.commands.collect.trtexec", "trtexec_command",
                            "Ingest trtexec output: latency summary, per-iteration times, layer profile, layer info, "
                            "plan size."),
}


def command_help(entry: CommandEntry, details: str | None) -> dict:
    """The help keywords of a click command or group: ``help`` the summary and,
    after a blank line, ``details`` (a docstring: indentation removed);
    ``short_help`` the summary."""
    details = inspect.cleandoc(details or "")
    return {"help": f"{entry.summary}\n\n{details}" if details else entry.summary, "short_help": entry.summary}


def command(name: str, table: dict[str, CommandEntry] = COMMANDS, details: str | None = None, **options):
    """``click.command(name)`` with its help from ``table`` (see
    :func:`command_help`); ``details`` default to the function's docstring.
    Raises KeyError for a command the table does not list."""
    entry = table[name]

    def declare(function):
        return click.command(name, **command_help(entry, details if details is not None else function.__doc__),
                             **options)(function)

    return declare
