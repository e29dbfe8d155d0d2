"""Read the tables of a rendered README by heading (test helper over tests/robustness/mdtables.py)."""

from __future__ import annotations

from tests.robustness.mdtables import tables


def readme_tables(text: str) -> dict[str, list[dict[str, str]]]:
    """``{heading: [row dicts of cell text]}`` for the first table under each heading."""
    found: dict[str, list[dict[str, str]]] = {}
    for table in tables(text):
        found.setdefault(table.heading, [dict(zip(table.headers, (c.text for c in row))) for row in table.rows])
    return found


def find_row(rows: list[dict[str, str]], **labels) -> dict[str, str]:
    """The one row whose label cells equal ``labels`` (header name → text)."""
    found = [r for r in rows if all(r.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, f"{labels}: {len(found)} rows in {rows}"
    return found[0]
