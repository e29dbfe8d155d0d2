"""Read the tables of a rendered README with markdown-it-py (test helper)."""

from __future__ import annotations

from markdown_it import MarkdownIt


def readme_tables(text: str) -> dict[str, list[dict[str, str]]]:
    """``{heading: [row dicts]}`` for the first table under each heading."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables: dict[str, list[dict[str, str]]] = {}
    heading, i = "", 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            heading = tokens[i + 1].content
        elif tok.type == "table_open":
            headers, rows, current, in_head = [], [], [], False
            while tokens[i].type != "table_close":
                t = tokens[i]
                if t.type == "thead_open":
                    in_head = True
                elif t.type == "thead_close":
                    in_head = False
                elif t.type == "tr_open":
                    current = []
                elif t.type == "inline":
                    current.append(t.content)
                elif t.type == "tr_close":
                    if in_head:
                        headers = current
                    else:
                        rows.append(dict(zip(headers, current)))
                i += 1
            tables.setdefault(heading, rows)
        i += 1
    return tables


def find_row(rows: list[dict[str, str]], **labels) -> dict[str, str]:
    """The one row whose label cells equal ``labels`` (header name → text)."""
    found = [r for r in rows if all(r.get(k) == v for k, v in labels.items())]
    assert len(found) == 1, f"{labels}: {len(found)} rows in {rows}"
    return found[0]
