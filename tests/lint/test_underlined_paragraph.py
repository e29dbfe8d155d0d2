"""A paragraph of two lines or more with "---" right under it renders as
one long setext heading, though the writer meant a rule; lint read it as a
heading, so no rule saw its sentences. Case (unseen benchmark documents,
session 24): a three-line conclusion over a "---" line held a comparison
its table contradicts and passed with 0 findings. A one-line title over its
underline stays a heading. Documents and figures of our own, checked by
hand."""

from __future__ import annotations

from studygen.lint import lint_text
from studygen.lint.parse import parse_document

TABLE = """\
# Allocators

| Threads | Allocator | Alloc time (us) |
|---|---|---|
| 2 | slab | 3.10 |
| 2 | buddy | 4.25 |
| 8 | slab | 9.80 |
| 8 | buddy | 7.45 |

"""


def _sg107(text: str) -> list[tuple[int, str]]:
    return [(f.line, f.message) for f in lint_text(text, "t.md") if f.code == "SG107"]


def test_a_claim_in_an_underlined_paragraph_is_read():
    # 8 threads: slab 9.80 us against buddy 7.45 us, so slab is not faster there
    text = TABLE + ("Both allocators were warmed up first.\n"
                    "At 8 threads the slab allocator is faster than buddy.\n"
                    "---\n")
    ((line, message),) = _sg107(text)
    assert line == 11
    assert message.endswith("row '8 / slab' has 9.80 against 7.45")


def test_an_underlined_paragraph_is_a_paragraph_block():
    text = TABLE + "First line of a note.\nSecond line of it.\n---\n\nClosing words.\n"
    kinds = [(block.kind, block.line) for block in parse_document(text, "t.md").blocks]
    assert ("paragraph", 10) in kinds
    assert ("heading", 10) not in kinds


def test_a_one_line_title_over_its_underline_stays_a_heading():
    text = TABLE + "At 8 threads the slab allocator is faster than buddy\n---\n"
    kinds = [block.kind for block in parse_document(text, "t.md").blocks if block.line == 10]
    assert kinds == ["heading"]
    assert _sg107(text) == []


def test_yaml_front_matter_between_two_rules_is_no_prose():
    # attack 24: front matter (title, summary) between the opening '---' and the next one parses as a setext
    # heading of two lines; read as prose since today's commit, 'title: ... slab is slower than buddy' was
    # reported by SG107 (3.10 against 4.25 us). Metadata is not the page's text; the same lines in the body are.
    matter = "---\ntitle: Allocator study\nsummary: at 2 threads, slab is slower than buddy\n---\n\n"
    assert _sg107(matter + TABLE) == []
    assert parse_document(matter + TABLE, "t.md").prose == []
    body = TABLE + "Allocator study\nAt 2 threads, slab is slower than buddy.\n---\n"
    assert len(_sg107(body)) == 1
