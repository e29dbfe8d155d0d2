"""``studygen collect``: turn trtexec output, PyTorch profiler traces and COCO
detections into schema-checked run records; print or merge this machine's
provenance (``env``); ``run`` (measure a study on a GPU node) lives in
``studygen.commands.collect_run`` and is loaded only when invoked.

One module per subcommand (:mod:`.trtexec`, :mod:`.torch_profile`,
:mod:`.coco`, :mod:`.env`, imported when invoked), each with an options dataclass whose fields
carry their flags (:mod:`.options`) and a ``run_*`` function that the click
command and Python callers share; :mod:`.ingest` holds the steps the ingest
subcommands have in common.

Every ingest subcommand takes ``--family NAME --job ID`` and optional
``--variant NAME --shape HxW --batch N --measurements DIR`` and writes or
extends ``DIR/NAME/ID.json`` (atomically, schema-checked first, never
overwriting a result). Bad input ends in one line naming the file and the
place, exit 2, nothing written.
"""

from __future__ import annotations

import importlib
import importlib.util

import click

from ...errors import UsageError
from .. import COLLECT_COMMANDS, COMMANDS, command_help


# name -> (module, attribute, short help): each subcommand is imported when
# invoked, so ``collect --help`` and one subcommand import only what they
# need; the short help is here so --help imports none (a test keeps it equal
# to each command's own). ``run`` needs torch: when its module is missing,
# --help lists it as unavailable.
def _unavailable_command(name: str, reason: str) -> click.Command:
    def refuse(**_):
        raise UsageError(f"collect {name} is unavailable: {reason}")

    return click.Command(name, callback=refuse, help=f"(unavailable: {reason})", add_help_option=False,
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


class CollectGroup(click.Group):
    """A click group whose subcommands are imported on use; when one's
    module is missing, ``--help`` lists it as unavailable instead of failing."""

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *COLLECT_COMMANDS])

    def get_command(self, ctx, name):
        if name in COLLECT_COMMANDS:
            module_name, attribute = COLLECT_COMMANDS[name].module, COLLECT_COMMANDS[name].attribute
            try:
                module = importlib.import_module(module_name)
            except ImportError as exc:
                return _unavailable_command(name, f"{type(exc).__name__}: {exc}")
            command = getattr(module, attribute, None)
            if command is None:
                return _unavailable_command(name, f"{module_name} has no {attribute}")
            return command
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter):
        rows = []
        for name in self.list_commands(ctx):
            if name in COLLECT_COMMANDS:
                module_name, help_text = COLLECT_COMMANDS[name].module, COLLECT_COMMANDS[name].summary
                if importlib.util.find_spec(module_name) is None:
                    help_text = f"(unavailable: module {module_name} is not installed)"
                rows.append((name, help_text))
            else:
                rows.append((name, super().get_command(ctx, name).get_short_help_str(limit=80)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group("collect", cls=CollectGroup, **command_help(COMMANDS["collect"], None))
def collect_group():
    """``studygen collect``: its subcommands are :data:`studygen.commands.COLLECT_COMMANDS`."""
