"""studygen.checks.readme_text: which README lines are prose, where a helper's
output sits, and the sentence around a mention (read off the short README
below by hand)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from studygen.checks.readme_text import ReadmeText, normalize, normalized_with_offsets, sentence_at
from studygen.render.produced import Produced

README = """# Title

The GEMMs take 0.19 to 0.21 ms.

```
0.5 ms inside a fence
```

~~~
tilde fence 0.6 ms
~~~

<!-- a comment
3.5 ms -->
Last line 0.7 ms.
"""


def test_prose_lines_leave_out_both_fences_and_comments():
    text = ReadmeText(README, [])
    assert [line for _, line in text.prose_lines() if line] == ["# Title", "The GEMMs take 0.19 to 0.21 ms.", "Last line 0.7 ms."]


def place(line: int, start: int, end: int) -> tuple[int, int]:
    """README offsets of columns ``start`` to ``end`` of 0-based ``line``."""
    before = sum(len(text) + 1 for text in README.split("\n")[:line])
    return before + start, before + end


def test_locate_reads_the_place_the_render_noted_or_gives_zero():
    # The README says "0.19 to 0.21 ms" on line 3; the helper's output was printed on line 15 only.
    printed = Produced("range", "0.7 ms", places=[place(14, 10, 16)])
    text = ReadmeText(README, [printed])
    assert text.locate(printed) == 15
    assert text.locate(Produced("range", "0.19 to 0.21 ms")) == 0  # the same words, but no helper printed them
    twice = Produced("range", "0.7 ms", places=[place(14, 10, 16), place(2, 15, 30)])
    assert ReadmeText(README, [twice]).locate(twice) == 3  # the first time it was printed
    cell = Produced("figure", "0.5", within=("A", "B"))
    table = Produced("table", "| A | B |", headers=("A", "B"), places=[place(14, 0, 4)])
    assert ReadmeText(README, [cell, table]).locate(cell) == 15  # a cell is placed by its table


def test_a_cell_of_two_tables_with_the_same_header_cells_is_placed_by_the_first_in_the_readme():
    # the table printed on line 15 is noted before the one on line 3: the cell goes to line 3 either way
    cell = Produced("figure", "0.5", within=("A", "B"))
    later = Produced("table", "| A | B |", headers=("A", "B"), places=[place(14, 0, 4)])
    earlier = Produced("table", "| A | B |", headers=("A", "B"), places=[place(2, 0, 4)])
    assert ReadmeText(README, [cell, later, earlier]).locate(cell) == 3
    assert ReadmeText(README, [cell, earlier, later]).locate(cell) == 3
    other = Produced("figure", "0.5", within=("A", "C"))
    assert ReadmeText(README, [other, later, earlier]).locate(other) == 0  # no table with those headers


def test_a_place_covers_its_columns_on_normalized_lines():
    text = ReadmeText(README, [Produced("range", "0.19 to 0.21 ms", places=[place(2, 15, 30)])])
    line = text.lines[2]
    start = line.index("0.19")
    assert text.covered(2, start, start + 4) and text.covered(2, start, line.index(" ms") + 3)
    assert not text.covered(2, 0, 3) and not text.covered(14, 10, 13)
    assert text.covered(2, start, start + 4, kinds={"range"}) and not text.covered(2, start, start + 4, kinds={"ratio"})


def test_a_place_over_several_lines_covers_their_middle_and_stops_where_it_ends():
    start, end = place(2, 15, 16)[0], place(14, 0, 9)[1]  # from "0.19" on line 3 to "Last line" on line 15
    text = ReadmeText(README, [Produced("table", "...", places=[(start, end)])])
    assert text.covered(8, 0, len(text.lines[8])) and text.covered(14, 0, 9)
    assert not text.covered(14, 10, 13) and not text.covered(2, 0, 3)


def test_places_follow_the_lines_checks_number():
    # a line separator inside a table cell is a line of its own for str.splitlines, as for the findings
    readme = "| a\u2028b | c |\nnext 1.5 ms\n"
    start = readme.index("1.5")
    text = ReadmeText(readme, [item := Produced("figure", "1.5", places=[(start, start + 3)])])
    assert text.raw_lines[2] == "next 1.5 ms" and text.locate(item) == 3 and text.covered(2, 5, 8)


def test_sentence_at_cuts_at_full_stops_and_semicolons_either_side():
    line = "FP8 is fine; NVFP4 was not tried. Next one; and more."
    start = line.index("NVFP4")
    assert sentence_at(line, start, start + 5) == "NVFP4 was not tried."
    start = line.index("Next")
    assert sentence_at(line, start, start + 4) == "Next one;"
    assert sentence_at("- NVFP4 alone", 2, 7) == "NVFP4 alone"


def test_offsets_map_each_column_of_a_line_onto_its_normalized_text():
    line = "  | a\\_b  \\x |\t\\! "  # 18 characters
    text, offsets = normalized_with_offsets(line)
    assert text == "| a_b \\x | !"  # escapes of punctuation dropped, "\\x" kept, whitespace folded and stripped
    # leading spaces to 0; both characters of "\\_" to the "_"; the run of two spaces: its first to the space,
    # the second after it; the tab to the space before "!"; the trailing space and the end to the end (12)
    assert offsets == [0, 0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 10, 11, 11, 12, 12]


def test_a_place_is_read_off_the_lines_where_it_starts_and_ends():
    readme = "a  \\*b*\nx | y\n  z  w\n"
    item = Produced("table", "...", places=[(readme.index("*b*"), readme.index("w") + 1)])
    text = ReadmeText(readme, [item])
    assert text.lines == ["a *b*", "x | y", "z w"]
    assert text.spans == [[(2, 5, item)], [(0, 5, item)], [(0, 3, item)]]


_TEXT = st.text(st.sampled_from(" \t\u00a0\u3000\\ab|*!`~_\u2060\u00e9"), max_size=24)


@given(line=_TEXT)
def test_offsets_keep_every_character_kept_and_its_order(line):
    text, offsets = normalized_with_offsets(line)
    assert text == normalize(line)  # ReadmeText.lines are normalize's, places are mapped by these offsets
    assert len(offsets) == len(line) + 1 and offsets[-1] == len(text)
    assert offsets == sorted(offsets) and all(0 <= offset <= len(text) for offset in offsets)
    escaped = False
    for column, char in enumerate(line):  # a kept character lands on itself; a backslash escape on what it keeps
        if escaped:
            escaped = False
            continue
        if char == "\\" and column + 1 < len(line) and line[column + 1] in "!*`~_|\\":
            assert offsets[column] == offsets[column + 1] and text[offsets[column]] == line[column + 1]
            escaped = True
        elif not char.isspace():
            assert text[offsets[column]] == char


def test_a_quote_cut_short_ends_at_a_word_and_never_cuts_a_figure():
    from studygen.checks.readme_text import quote
    sentence = "bf16 on H200 at 800 x 1067 (eager) is slower than fp32 with 43.963 ms against 29.579 ms."
    assert quote(sentence) == f'"{sentence}"'  # 88 characters: whole
    # a limit that falls inside 29.579: the figure is left out with the words before it kept, never "29"
    assert quote(sentence, 80) == '"bf16 on H200 at 800 x 1067 (eager) is slower than fp32 with 43.963 ms against…"'
    for limit in range(10, len(sentence)):
        shown = quote(sentence, limit)[1:-1]
        assert len(shown) <= limit and shown.endswith("…")
        assert sentence.startswith(shown[:-1]) and sentence[len(shown) - 1] == " "  # cut where a word ends
    assert quote("x" * 30, 12) == '"' + "x" * 11 + '…"'  # no white space to cut at: cut at the limit


def test_a_text_shortened_to_keep_a_place_past_its_head_is_cut_before_it_too():
    """SG218 quotes a placeholder that may sit deep in a long field: the
    text is cut before it (at a word) as well as after, "…" marking both cuts."""
    from studygen.checks.readme_text import shortened

    words = " ".join(f"w{index:03d}" for index in range(200))  # 5 characters a word with its space
    assert shortened(words[:140], keep=130) == words[:140]  # short enough: whole, wherever the place
    assert shortened(words, keep=104) == words[:139] + "…"  # the place in the first three quarters: the head
    # past them: from the first whole word of the 35 characters before the place
    assert shortened(words, keep=105) == "…" + words[75:209] + "…"
    assert shortened(words, keep=500) == "…" + words[470:604] + "…"
    kept = shortened(words, 40, keep=995)  # the last word, from the first word of the 10 characters before it
    assert kept == "…" + words[990:] == "…w198 w199"
    glued = "x" * 300 + "<gpu>" + "y" * 300  # no white space near the place: the cut is at it
    assert shortened(glued, keep=300) == "…<gpu>" + "y" * 133 + "…"
    spaced = "word  " * 100  # two spaces after each word: the cut after the first leaves no space at the start
    assert shortened(spaced, keep=300) == "…" + spaced[270:406] + "…"


def _old_reading(line: str):
    """normalize and normalized_with_offsets as they read a line before, with every run of whitespace a change
    (a lone space between two words included): patched in for the comparison."""
    import re

    from studygen.checks import readme_text

    saved = readme_text._SPACES, readme_text._CHANGED
    readme_text._SPACES, readme_text._CHANGED = re.compile(r"\s+"), re.compile(r"(\s+)|\\([!-/:-@\[-`{-~])")
    try:
        return normalize(line), normalized_with_offsets(line)
    finally:
        readme_text._SPACES, readme_text._CHANGED = saved


@given(line=st.text(st.sampled_from(" \t\n\u00a0\u3000\\ab|*!`~_\u2060\u00e9"), max_size=24))
def test_lone_spaces_kept_as_they_are_read_as_every_run_was(line):
    assert (normalize(line), normalized_with_offsets(line)) == _old_reading(line)


def test_the_projects_and_corpus_lines_read_as_before():
    from ..conftest import REPO, SHARED

    files = [*REPO.glob("families/*/README.md"), *REPO.glob("docs/*.md"), *(SHARED / "corpus").rglob("*.md")]
    lines = {line for path in files for line in path.read_text(encoding="utf-8").splitlines()}
    lines |= {" a", "a ", " ", "a \\* b", "a\\* b ", "\ta b", "a b\u00a0c"}
    assert len(lines) > 3000
    for line in sorted(lines):
        assert (normalize(line), normalized_with_offsets(line)) == _old_reading(line), line


def test_a_lone_space_is_no_change_to_read():
    """The changes read on a line are its runs of whitespace and its escapes, not each space between two words."""
    from studygen.checks import readme_text

    line = "The fp16 engine  is\tfaster \\* here "
    changes = [match.group() for match in readme_text._CHANGED.finditer(line)]
    assert changes == ["  ", "\t", "\\*", " "]
    assert normalized_with_offsets(line)[0] == "The fp16 engine is faster * here"
