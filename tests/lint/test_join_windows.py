"""The faster readings of SG103's and SG107's joins across tables
(studygen/lint/table_windows.py, table_joins.py, heading_scope.py,
prose_rows.py) against the readings they replaced, kept here as oracles:
sorting every candidate table by its distance, asking a scope of each
table, each cell's names read per clause, a heading's name looked up in
each clause's words, a sentence's clause breaks found a character at a
time. Documents, labels and figures are generated here from seeds."""

from __future__ import annotations

import random
from bisect import bisect_left

import pytest

import studygen.lint.table_joins as table_joins
from studygen.lint import lint_text, parse_document
from studygen.lint.header_names import prose_words
from studygen.lint.heading_scope import _named_within, _occurrences, heading_index, heading_name, heading_tables
from studygen.lint.prose_rows import _clause_breaks
from studygen.lint.restriction import TextView
from studygen.lint.table_joins import cells_of, names_of, pick, side_cells, sides
from studygen.lint.table_windows import TableSet, nearest_window
from studygen.lint.text import CLAUSE_REACH


# --- the oracles: the readings before session 27 -------------------------------------------------------------


def _old_window(orders: list[int], near: int, limit: int) -> list[int]:
    middle = bisect_left(orders, near)
    window = sorted(orders[max(0, middle - limit):middle + limit], key=lambda order: (abs(order - near), order))[:limit]
    return sorted(window)


def _old_side_cells(document, kind, named, near, within=None, ranges=False):
    names = names_of(document, kind, ranges)
    sided = ([], [])
    seen = set()
    held_lists = [names.holders[name][order] for name in (named.x, named.y)
                  for order in _old_window(names.orders.get(name, []), near, table_joins.TABLE_LIMIT)]
    for held in held_lists:
        if within is not None and not within(held[0].table):
            continue
        for cell in held:
            if id(cell) in seen:
                continue
            seen.add(id(cell))
            side = cell.side(named, names.common)
            if side is not None:
                sided[side].append(cell)
    return sided


def _old_pick(document, kind, subject, reference, view, block, ranges=False, named=None):
    readings = sides(document, kind, subject, reference, ranges)
    top = block.headings[-1] if block.headings else None
    held = None if named is None else {id(table) for table in named}
    scopes = ((lambda table: table.section == block.section) if held is None else (lambda table: id(table) in held),
              lambda table: bool(table.headings) and table.headings[-1] == top, None)
    for within in scopes:
        joins = [table_joins.join(document, kind, reading, view, block.order, within, ranges) for reading in readings]
        paired = [joined for joined in joins if joined is not None and joined.pairs]
        chosen = paired[0] if len(paired) == 1 else joins[0] if len(joins) == 1 and not paired else None
        if chosen is not None and chosen.xs and chosen.ys:
            return chosen
        if within is not None and any(joined is None or (joined.xs and joined.ys) for joined in joins):
            return None
    return None


def _old_names(cells, common):
    slots, members, holders = {}, {}, {}
    for cell in cells:
        for slot, name in cell.own_names(common) + [(slot, name) for name, slot in cell.scope.names.items()]:
            slots.setdefault(name, set()).add(slot)
            members.setdefault(slot, set()).add(name)
            holders.setdefault(name, {}).setdefault(cell.table.order, []).append(cell)
    return slots, members, holders


def _old_names_in(words, index, sizes):
    return {run for size in sizes for i in range(len(words) - size + 1) if (run := tuple(words[i:i + size])) in index}


def _old_words_within(words, first, last):
    found = []
    for a, b, word in words[bisect_left([a for a, _, _ in words], first):]:
        if a >= last:
            break
        if b <= last:
            found.append(word)
    return found


def _old_clauses(text, start, end):
    reach = max(0, start - CLAUSE_REACH)
    breaks = [at for at in range(reach, start) if text[at] in ",;()"]
    before = [(breaks[i - 1] + 1 if i else reach, breaks[i]) for i in range(len(breaks) - 1, -1, -1)]
    return [(start, end), *before, (reach, min(len(text), end + CLAUSE_REACH))]


def _old_heading_tables(sentence, start, end):
    index = heading_index(sentence.block.document)
    if not index:
        return None
    words = prose_words(sentence.text)
    sizes = frozenset(len(name) for name in index)
    named = set()
    for first, last in _old_clauses(sentence.text, start - sentence.start, end - sentence.start):
        named = _old_names_in(_old_words_within(words, first, last), index, sizes)
        if named:
            break
    if len(named) != 1:
        return None
    name = named.pop()
    if any(heading_name(heading) == name for heading in sentence.block.headings):
        return None
    return index[name]


# --- generated documents ---------------------------------------------------------------------------------------

_GPUS = ("A100", "H100", "L4", "T4")
_PRECISIONS = ("fp16", "int8", "fp32")


def _table(rng: random.Random) -> str:
    shape = rng.randrange(3)
    if shape == 0:
        first, second = rng.sample(_PRECISIONS, 2)
        rows = "".join(f"| {gpu} | {rng.uniform(1, 9):.2f} | {rng.uniform(1, 9):.2f} |\n"
                       for gpu in rng.sample(_GPUS, rng.randrange(1, 4)))
        return f"| GPU | {first} (ms) | {second} (ms) |\n|---|---:|---:|\n{rows}"
    if shape == 1:
        first, second = rng.sample(_GPUS, 2)
        rows = "".join(f"| {precision} | {rng.uniform(1, 9):.2f} | {rng.uniform(1, 9):.2f} |\n"
                       for precision in rng.sample(_PRECISIONS, rng.randrange(1, 4)))
        return f"| Precision | {first} (ms) | {second} (ms) |\n|---|---:|---:|\n{rows}"
    rows = "".join(f"| {batch} | {rng.uniform(1, 9):.2f} |\n" for batch in rng.sample((1, 2, 4, 8), rng.randrange(1, 4)))
    return f"| Batch | latency (ms) |\n|---|---:|\n{rows}"


def _sentence(rng: random.Random) -> str:
    x, y = rng.sample(_PRECISIONS, 2)
    place = rng.choice(["", f" on the {rng.choice(_GPUS)}", f" at batch {rng.choice((1, 2, 4, 8))}"])
    opening = rng.choice(["", f"On the {rng.choice(_GPUS)}, ", "For the policies, ", "In this study, "])
    return f"{opening}{x} is {rng.uniform(0.5, 3):.2f}x {rng.choice(['faster', 'slower'])} than {y}{place}."


def _document(seed: int) -> str:
    rng = random.Random(seed)
    parts = ["# Study\n\n"]
    for _ in range(rng.randrange(1, 5)):
        parts.append(f"## {rng.choice(['Results', 'Latency', 'Results', 'Appendix'])}\n\n")  # repeated top headings
        for _ in range(rng.randrange(0, 4)):
            heading = rng.choice([f"### {rng.choice(_GPUS)}", f"### {rng.choice(_PRECISIONS)} on {rng.choice(_GPUS)}",
                                  "### Numbers", "### Policy", "### Studies"])  # "policies" and "study" stem apart
            parts.append(heading + "\n\n")
            if rng.random() < 0.4:
                parts.append(" ".join(_sentence(rng) for _ in range(rng.randrange(1, 3))) + "\n\n")
            if rng.random() < 0.3:
                parts.append(f"Timed on {rng.choice(_GPUS)} with {rng.choice(_PRECISIONS)}:\n\n")
            parts.append(_table(rng) + "\n")
        parts.append(" ".join(_sentence(rng) for _ in range(rng.randrange(1, 4))) + "\n\n")
    return "".join(parts)


def _clauses(document):
    """(block, sentence, subject, reference, view) of each "than" comparison of the document's prose."""
    for block in document.prose:
        for sentence in block.sentences:
            text = sentence.text
            at = text.find(" than ")
            if at == -1:
                continue
            figure = text.find("x ")
            yield (block, sentence, text[:figure], text[at + 6:],
                   TextView(text, document.label_vocab, document.multiword_labels, document.label_parts))


def _cells(join):
    if join is None:
        return None
    return (join.kind, join.sides, [id(c) for c in join.xs], [id(c) for c in join.ys],
            [(id(x), id(y)) for x, y in join.pairs], join.common)


# --- the tests -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_the_nearest_window_holds_the_orders_sorting_by_distance_kept(seed):
    rng = random.Random(seed)
    orders = sorted(rng.sample(range(400), rng.randrange(0, 120)))
    for _ in range(40):
        near, limit = rng.randrange(-5, 410), rng.choice([1, 2, 3, 5, 64])
        if rng.random() < 0.3 and orders:
            near = rng.choice(orders)  # a block at a table's order: a distance of 0
        start, end = nearest_window(orders, near, limit)
        assert orders[start:end] == _old_window(orders, near, limit)


def test_two_orders_as_near_keep_the_lower_one():
    # 10 and 20 both lie 5 from 15: the window of one keeps 10; of two, both
    assert nearest_window([10, 20, 40], 15, 1) == (0, 1)
    assert nearest_window([10, 20, 40], 15, 2) == (0, 2)
    assert nearest_window([10, 20, 40], 31, 2) == (1, 3)  # 20 lies 11 away, 40 9 away; 10 21 away
    assert nearest_window([10, 20], 500, 5) == (0, 2)


@pytest.mark.parametrize("seed", range(40))
def test_a_table_set_keeps_the_window_orders_it_holds(seed):
    rng = random.Random(seed)

    class _Table:
        def __init__(self, order):
            self.order = order

    orders = sorted(rng.sample(range(300), rng.randrange(1, 150)))
    held = {order: f"cells of {order}" for order in orders}
    tables = [_Table(order) for order in rng.sample(range(300), rng.randrange(0, 150))]
    scope = TableSet(reversed(tables))  # given in any order, kept in document order
    for _ in range(30):
        start = rng.randrange(0, len(orders))
        end = rng.randrange(start, len(orders) + 1)
        wanted = {table.order for table in tables}
        assert scope.among(orders, start, end, held) == [held[o] for o in orders[start:end] if o in wanted]
    assert all(scope(table) for table in tables) and not scope(_Table(7))


@pytest.mark.parametrize("seed", range(40))
def test_side_cells_and_pick_read_what_the_sorted_windows_and_scope_tests_read(monkeypatch, seed):
    # a window of 2 tables makes the nearest-tables bound matter on these small documents
    monkeypatch.setattr(table_joins, "TABLE_LIMIT", 2 if seed % 2 else 64)
    document = parse_document(_document(seed), "t.md")
    new_picks, cases = [], []
    for block, sentence, subject, reference, view in _clauses(document):
        named = heading_tables(sentence, sentence.start, sentence.end)
        for ranges in (False, True):
            for reading in sides(document, "time", subject, reference, ranges):
                halves = {id(table) for table in document.tables[::2]}
                # a scope given as a test of a table (any function) reads as the same tables given as a TableSet
                for within in (None, TableSet(document.tables[::2]), TableSet(named or ()),
                               lambda table, halves=halves: id(table) in halves):
                    new = side_cells(document, "time", reading, block.order, within, ranges)
                    old = _old_side_cells(document, "time", reading, block.order, within, ranges)
                    assert [list(map(id, cells)) for cells in new] == [list(map(id, cells)) for cells in old]
            new_picks.append(_cells(pick(document, "time", subject, reference, view, block, ranges, named)))
            cases.append((subject, reference, view, block, ranges, named))
    monkeypatch.setattr(table_joins, "side_cells", _old_side_cells)
    assert new_picks == [_cells(_old_pick(document, "time", s, r, v, b, g, n)) for s, r, v, b, g, n in cases]


@pytest.mark.parametrize("seed", range(30))
def test_names_are_read_as_each_cell_adding_its_own_and_its_scopes(seed):
    document = parse_document(_document(seed), "t.md")
    for ranges in (False, True):
        names = names_of(document, "time", ranges)
        slots, members, holders = _old_names(cells_of(document, "time", ranges), names.common)
        assert list(names.slots.items()) == list(slots.items())  # the same names, first added in the same order
        assert names.members == members
        assert {name: {o: list(map(id, cells)) for o, cells in by_order.items()} for name, by_order in holders.items()} \
            == {name: {o: list(map(id, cells)) for o, cells in by_order.items()} for name, by_order in names.holders.items()}
        for cell in cells_of(document, "time", ranges):
            assert names.own[id(cell)] == {name for _, name in cell.own_names(names.common)}


@pytest.mark.parametrize("seed", range(40))
def test_a_sentences_heading_names_within_a_clause_are_those_its_words_there_hold(seed):
    rng = random.Random(seed)
    vocabulary = ["h100", "a100", "fp16", "on", "the", "run", "int8", "8"]
    index = {tuple(rng.choice(vocabulary) for _ in range(rng.randrange(1, 4))): [] for _ in range(6)}
    sizes = frozenset(map(len, index))
    firsts = frozenset(name[0] for name in index)
    words, at = [], 0
    for _ in range(rng.randrange(0, 30)):
        word = rng.choice(vocabulary)
        at += rng.randrange(1, 3)
        words.append((at, at + len(word), word))
        at += len(word)
    found = _occurrences(tuple(words), index, sizes, firsts)
    for _ in range(30):
        first = rng.randrange(0, at + 2)
        last = rng.randrange(first, at + 3)
        assert _named_within(found, first, last) == _old_names_in(_old_words_within(words, first, last), index, sizes)


@pytest.mark.parametrize("seed", range(30))
def test_heading_tables_names_what_each_clauses_words_named(seed):
    # every clause of a generated page (its tables under several headings), read from every seventh offset of its
    # sentence: the tables it names are those the old reading named (each clause's words looked up per name length)
    text = _document(seed)
    document = parse_document(text, "t.md")
    for block in document.prose:
        for sentence in block.sentences:
            for start in range(sentence.start, sentence.end, 7):
                for end in (start + 1, sentence.end):
                    assert heading_tables(sentence, start, end) is _old_heading_tables(sentence, start, end)
    lint_text(text, "t.md")


@pytest.mark.parametrize("count", [3, 40])
def test_heading_tables_with_few_and_many_heading_names(count):
    # 40 names: more first words than the sentence screen tries; each sentence names one heading or none
    text = "".join(f"## Part {i}\n\n### Rig{i} box\n\n| Precision | time (ms) |\n|---|---:|\n| fp16 | {i}.5 |\n"
                   f"| int8 | {i}.1 |\n\nOn the rig{(i + 1) % count} box, int8 is 1.2x faster than fp16; fp16 is slower.\n\n"
                   for i in range(count))
    document = parse_document(text, "t.md")
    named = 0
    for block in document.prose:
        for sentence in block.sentences:
            for start in range(sentence.start, sentence.end, 5):
                found = heading_tables(sentence, start, sentence.end)
                assert found is _old_heading_tables(sentence, start, sentence.end)
                named += found is not None
    assert named > count  # the rigs' own sentences name other rigs' headings


def test_clause_breaks_are_the_commas_semicolons_and_parentheses_but_a_labels():
    document = parse_document("Here (INT8) runs 2.0x faster, fp16 (at batch 8; eager) is (b) 1.1x slower.\n", "t.md")
    sentence = document.prose[0].sentences[0]
    text = sentence.text.replace("(INT8)", " INT8 ").replace("(b)", " b ")
    assert _clause_breaks(sentence) == [at for at, char in enumerate(text) if char in ",;()"]
    assert [sentence.text[at] for at in _clause_breaks(sentence)] == [",", "(", ";", ")"]


_TWO_RIGS = ("## A100\n\n| Mode | TPOT (ms) |\n|---|---:|\n| eager | 4.1 |\n| paged | 3.4 |\n\n"
             "## H100\n\n| Mode | TPOT (ms) |\n|---|---:|\n| eager | 2.6 |\n| paged | 2.1 |\n\n## Summary\n\n{}\n")


def _named_heading(sentence_text: str, clause: str) -> list[str] | None:
    document = parse_document(_TWO_RIGS.format(sentence_text), "t.md")
    sentence = document.prose[-1].sentences[0]
    start = sentence.block.text.index(clause)
    tables = heading_tables(sentence, start, start + len(clause))
    return None if tables is None else [table.headings[0] for table in tables]


def test_each_clause_before_the_figures_is_read_nearest_first():
    # the clause of the figure names no heading, nor the one before it; the one before that names the A100: its
    # tables, though the whole sentence names the H100 too
    text = "On the A100, with graphs on, paged is 1.20x faster than eager, as on the H100."
    assert _named_heading(text, "paged is 1.20x faster than eager") == ["A100"]
    assert _named_heading(text.replace(", with graphs on", ""), "paged is 1.20x faster than eager") == ["A100"]
    # the whole sentence is read last, and a name opening it counts
    assert _named_heading("A100 aside, paged is 1.20x faster than eager.", "paged is 1.20x faster than eager") \
        == ["A100"]
    assert _named_heading("Paged is 1.20x faster than eager on both, the A100 and the H100.", "Paged is 1.20x") is None
