"""The command table (studygen/commands/__init__.py): a command declared with
``command`` takes its summary from the table, written once, and adds its
docstring (or the details it is given) after a blank line.

The shipped commands are declared when their modules are imported; these
tests declare commands of their own, at test time, with the real table."""

from __future__ import annotations

import click
import pytest

from studygen.commands import COLLECT_COMMANDS, COMMANDS, CommandEntry, command, command_help

RENDER = COMMANDS["render"].summary


def test_help_is_the_summary_then_the_details_without_their_indentation():
    entry = CommandEntry("studygen.commands.example", "example_command", "Do one thing to a study.")
    details = """First line of the details.

        An indented paragraph.
        """
    assert command_help(entry, details) == {
        "help": "Do one thing to a study.\n\nFirst line of the details.\n\nAn indented paragraph.",
        "short_help": "Do one thing to a study."}
    for nothing in (None, ""):  # no details: the summary alone, no blank line after it
        assert command_help(entry, nothing) == {"help": "Do one thing to a study.", "short_help": entry.summary}


def test_a_declared_command_reads_its_summary_from_the_table():
    def render_again(families):
        """Render once more.

        Second paragraph."""
        return families

    declared = command("render")(render_again)
    assert isinstance(declared, click.Command) and declared.name == "render"
    assert declared.callback is render_again and declared.short_help == RENDER
    assert declared.help == f"{RENDER}\n\nRender once more.\n\nSecond paragraph."


def test_details_given_replace_the_docstring_and_options_reach_click():
    def run_it():
        """Not shown."""

    declared = command("run", COLLECT_COMMANDS, details="  Only this.", hidden=True, no_args_is_help=True)(run_it)
    assert declared.name == "run" and declared.help == f"{COLLECT_COMMANDS['run'].summary}\n\nOnly this."
    assert declared.hidden and declared.no_args_is_help
    undocumented = command("check")(lambda: None)
    assert undocumented.help == COMMANDS["check"].summary and undocumented.name == "check"
    blank = command("lint", details="")(run_it)  # empty details are given too: the docstring is not used
    assert blank.help == COMMANDS["lint"].summary


def test_a_command_the_table_does_not_list_is_refused_when_declared():
    with pytest.raises(KeyError, match="trtexec"):
        command("trtexec")  # a collect subcommand, not in COMMANDS
    with pytest.raises(KeyError, match="nope"):
        command("nope", COLLECT_COMMANDS)
