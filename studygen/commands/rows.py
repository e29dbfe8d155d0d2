"""``studygen rows FAMILY [FIELD=VALUE...]``: the family's rows as templates see them.

A row is one figure of one record (:class:`studygen.study.rows.Row`);
its fields (:data:`studygen.study.rows.ROW_FIELDS`) are exactly the names a
template filter takes (``study.figures(kind='latency', shape='800x800')``,
``study.one(...)``, ``study.table(...)``). The text form prints the fields
that hold one value for every row once, then a table of the fields that
tell the rows apart; ``--format json`` prints every field of every row.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import click

from ..errors import UsageError
from ..study import load_study, resolve_targets
from ..study.rows import ROW_FIELDS
from . import command
from .common import resolve_root, root_option

# Fields that identify a row's source rather than select it: printed, never a reason to tell rows apart.
SOURCE_FIELDS = ("record", "pointer", "key", "config_key")


@dataclass
class RowsOptions:
    """Options of ``studygen rows``."""

    family: str = ""  # FAMILY (a name or a study folder)
    filters: tuple[str, ...] = ()  # FIELD=VALUE...: keep rows whose field prints as VALUE
    root: Path | None = None  # --root DIR
    output_format: str = "text"  # --format text|json


def parse_filters(filters: tuple[str, ...]) -> dict[str, str]:
    """``("kind=latency", ...)`` → ``{"kind": "latency"}``. Raises UsageError
    for an item without ``=`` or a field that is no row field (listing them)."""
    parsed = {}
    for item in filters:
        name, equals, value = item.partition("=")
        if not equals:
            raise UsageError(f"filter '{item}' is not FIELD=VALUE")
        if name not in ROW_FIELDS:
            raise UsageError(f"unknown field '{name}'; row fields: {', '.join(ROW_FIELDS)}")
        parsed[name] = value
    return parsed


def cell(value) -> str:
    """A field as the text form prints it (and as a FIELD=VALUE filter matches it)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return f"[{len(value)} values]"
    return str(value)


def run_rows(options: RowsOptions) -> list[dict]:
    """The family's rows (every field), narrowed by the filters. Raises
    UsageError for an unknown family or field, or a value no row has
    (:func:`refuse_unknown_values`), RecordError when a record is invalid
    (the first problem is named)."""
    filters = parse_filters(options.filters)
    root = resolve_root(options.root, [options.family])
    (study_dir,) = resolve_targets(root, [options.family])
    study = load_study(study_dir, root)
    if study.problems:
        raise study.problems[0].error()
    rows = [row.fields() for row in study.rows]
    refuse_unknown_values(rows, filters)
    return [row for row in rows if all(cell(row[name]) == wanted for name, wanted in filters.items())]


def refuse_unknown_values(rows: list[dict], filters: dict[str, str]) -> None:
    """UsageError naming the values a field has when a filter asks for one
    no row has (``kind=latncy``): a typo would otherwise print "no rows
    match" and exit 0, as if the study held no such figure. Values that
    each exist but never together still select nothing, without an error."""
    for name, wanted in filters.items():
        values = {cell(row[name]) for row in rows}
        if wanted not in values:
            shown = sorted(v for v in values if v)
            have = f"{name} values: {', '.join(shown)}" if shown else f"{name} is empty in every row"
            raise UsageError(f"no row has {name} {wanted!r}; {have}")


def rows_text(rows: list[dict]) -> str:
    """Shared fields once (``field: value``), then a table of the fields that differ between rows."""
    from tabulate import tabulate

    if not rows:
        return "no rows match\n"
    shared = [name for name in ROW_FIELDS if name not in SOURCE_FIELDS and len({cell(row[name]) for row in rows}) == 1]
    varying = [name for name in ROW_FIELDS if name not in shared and name not in SOURCE_FIELDS]
    lines = [f"{len(rows)} row(s); the same in every row:"]
    lines += [f"  {name}: {cell(rows[0][name])}" for name in shared if cell(rows[0][name]) != ""]
    empty = [name for name in shared if cell(rows[0][name]) == ""]
    if empty:
        lines.append(f"  empty in every row: {', '.join(empty)}")
    columns = [*varying, "record", "pointer"]
    table = tabulate([[cell(row[name]) for name in columns] for row in rows], headers=columns, tablefmt="simple")
    return "\n".join(lines) + "\n\n" + table + "\n"


@command("rows")
@click.argument("family")
@click.argument("filters", nargs=-1, metavar="[FIELD=VALUE]...")
@root_option
@click.option("--format", "output_format", type=click.Choice(("text", "json")), default="text", show_default=True,
              help="text: shared fields once, then a table of the fields that tell rows apart; json: every field.")
def rows_command(family, filters, root, output_format):
    """The text form prints the fields every row shares once, then a table of the fields that tell them apart."""
    rows = run_rows(RowsOptions(family=family, filters=tuple(filters), root=root, output_format=output_format))
    if output_format == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        click.echo(rows_text(rows), nl=False)
