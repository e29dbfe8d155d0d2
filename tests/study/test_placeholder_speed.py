"""The placeholder rules skip each pattern's scan for a text that cannot
hold what it finds (:class:`studygen.study.placeholders._Cues`): ASCII text
with no slot mark, or, lower-cased, no word the pattern needs. Each pattern tries every position
of a line (they open with a look-behind), and SG218 asks them of every
README line: 3 % of a project's check. The answers must be those of the
patterns alone, over real texts and texts built to find a gap."""

from __future__ import annotations


import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from studygen.checks.readme_text import normalize
from studygen.study import placeholders

from ..conftest import REPO, SHARED
from ..checks.test_sg218_placeholder_text import PLACEHOLDERS, PROSE_SLOTS, TEMPLATE_SLOTS

RULES = (placeholders.names_a_marker, placeholders.placeholder_found, placeholders.template_slots)


def _patterns_alone(monkeypatch) -> None:
    """Every text goes to every pattern: each may match, every text may hold a slot."""
    monkeypatch.setattr(placeholders._Cues, "may", lambda self, *needed: True)
    monkeypatch.setattr(placeholders, "_SLOT_MARKS", ("",))  # "" is in every text


def _answers(texts) -> list:
    return [tuple(rule(text) for rule in RULES) for text in texts]


def _real_texts() -> list[str]:
    """Every line, normalized as SG218 reads README lines, of the project's Markdown and
    study files and of the shared corpus; and every cell text the sg218 tests use."""
    files = [*REPO.glob("families/*/README.md"), *REPO.glob("docs/*.md"), REPO / "README.md",
             *REPO.glob("families/*/study.yaml"), *(SHARED / "corpus").rglob("*.md")]
    lines = {normalize(line) for path in files for line in path.read_text(encoding="utf-8").splitlines()}
    return sorted(lines | {*PLACEHOLDERS, *TEMPLATE_SLOTS, *PROSE_SLOTS})


# Case the patterns fold as re.IGNORECASE does, beyond ASCII: dotted and dotless i, long s, the Kelvin sign.
FOLDED = ["TODO", "ToDo: add it", "FİXME", "fıxme", "fıll in", "lorem ıpſum", "TBD", "tbd.", "XXX", "N/A", "n/A",
          "To Be Determined.", "to be confırmed", "Write the decision HERE.", "wrıte it here", "Kelvin K: TODO",
          "the A100 run is TBD", "(tbd)", "…", "—", "- -", "|---|---|", "...", " ", "Where the FP8 gain comes from",
          "Put it there", "Insert: here", "added here", "%", "%X%", "${A}", "{{ a.b }}", "<b>x</b>", "<br>", "[x]"]
PIECES = st.sampled_from(["todo", "TODO", "tbd", "xxx", "fill", " in", "fixme", "lorem", " ipsum", "n/a", "N/A",
                          "to be", " decided", "here", "write ", "add ", "ı", "İ", "ſ", "K", "<", ">", "[", "]",
                          "{", "}", "{{", "}}", "$", "%", "_", "-", "/", ".", ":", " ", "\n", "x", "gpu", "1", "…"])


def test_plain_texts_answer_as_the_patterns_do(monkeypatch):
    texts = _real_texts() + FOLDED
    fast = _answers(texts)
    _patterns_alone(monkeypatch)
    assert fast == _answers(texts)
    assert len(texts) > 3000  # the corpus and the project were read


@given(st.lists(PIECES, max_size=12).map("".join))
def test_built_texts_answer_as_the_patterns_do(text):
    fast = _answers([text])
    with pytest.MonkeyPatch.context() as monkeypatch:
        _patterns_alone(monkeypatch)
        assert fast == _answers([text])


class _NoScan:
    def __getattr__(self, name):
        raise AssertionError(f"a plain text was scanned ({name})")


@pytest.mark.parametrize("text", ["The FP8 engine is 1.31x faster than fp16 at batch 8.",
                                  "| fp16 | 14.747 | NVIDIA B200 |", "Latency rises with the batch."])
def test_a_plain_line_is_not_scanned(monkeypatch, text):
    for name in ("_ANY_MARKER", "_FILLER", "_INSTRUCTION", "_SPELLED", "_OTHER_SLOT", "_SLOT", "_SENTENCES"):
        monkeypatch.setattr(placeholders, name, _NoScan())
    assert placeholders.names_a_marker(text) is False
    assert placeholders.placeholder_found(text)[0] == ""
    assert placeholders.template_slots(text) == []
    assert placeholders.placeholder_found("- . -")[0] == "it holds nothing but placeholder text"


def test_importing_the_rules_compiles_no_pattern():
    """The patterns compile at first use (2.5 ms of every check's start went
    to compiling them at import), and a plain README line never uses most."""
    import subprocess
    import sys

    probe = ("import re; import studygen.study.placeholders as p; from studygen.patterns import LazyPattern, NeedsPattern; "
             "found = [n for n, v in vars(p).items() if isinstance(v, (LazyPattern, NeedsPattern, re.Pattern))]; "
             "lazy = lambda n: getattr(vars(p)[n], 'full', vars(p)[n]); "  # a NeedsPattern's own lazy pattern
             "assert len(found) >= 10, found; "
             "assert all(isinstance(lazy(n), LazyPattern) and 'compiled' not in vars(lazy(n)) for n in found), found; "
             "p.names_a_marker('The FP8 engine is faster.'); "
             "assert not any('compiled' in vars(lazy(n)) for n in found)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr


def test_a_line_with_a_link_is_scanned_for_slots_alone(monkeypatch):
    """A link's bracket may open a slot, so the slot patterns read the line;
    the others need their words, which it does not hold."""
    assert placeholders.template_slots("Shipped. [reason]") == ["[reason]"]
    for name in ("_ANY_MARKER", "_FILLER", "_INSTRUCTION", "_SPELLED", "_STANDALONE", "_AS_NOTE"):
        monkeypatch.setattr(placeholders, name, _NoScan())
    line = "See [the trtexec guide](https://example.com/guide) for the flags."
    assert placeholders.names_a_marker(line) is False
    assert placeholders.placeholder_found(line)[0] == ""


def _drawn(pattern):
    return st.from_regex(re.compile(pattern.pattern, pattern.flags), alphabet=st.characters(codec="ascii"))


# each gated pattern with the cue words names_a_marker asks for before running it (all hand-kept beside it)
GATES = [("marker", placeholders._ANY_MARKER, (placeholders._MARKER_WORDS,)),
         ("spelled", placeholders._SPELLED, (placeholders._SPELLED_ENDS,)),
         ("instruction", placeholders._INSTRUCTION, (("here",), placeholders._INSTRUCTION_VERBS)),
         ("filler", placeholders._FILLER, (placeholders._FILLER_WORDS,))]


@pytest.mark.parametrize(("name", "pattern", "cues"), GATES, ids=[gate[0] for gate in GATES])
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_every_text_a_gated_pattern_matches_holds_its_cue_words(name, pattern, cues, data):
    """Texts drawn from each pattern itself (ASCII, where the cues apply): a word added to a pattern
    without its cue would skip the texts holding it, and fails here."""
    text = data.draw(_drawn(pattern))
    assert pattern.search(text) is not None
    assert placeholders._Cues(text).may(*cues)


def _prose_field_as_written(path: tuple) -> bool:
    """PROSE_FIELDS read as their comment says, field by field: is_prose_field must answer this."""
    return any(len(field) == len(path) and all(step in ("*", actual) for step, actual in zip(field, path))
               for field in placeholders.PROSE_FIELDS)


def _near_paths() -> list[tuple]:
    """Every path of at most two steps drawn from the fields' own steps and others (an index, an unknown key,
    "*" as a key), and every path that takes each step of a field as written or as one of those others, with
    a step more and a step less."""
    steps = sorted({step for field in placeholders.PROSE_FIELDS for step in field}) + [0, 3, "x", "*"]
    paths = [()] + [(step,) for step in steps] + [(first, second) for first in steps for second in steps]
    for field in placeholders.PROSE_FIELDS:
        for path in itertools.product(*[(step, 0, "x", "*") for step in field]):
            paths += [path, (*path, "x"), path[:-1]]
    return paths


def test_prose_fields_are_looked_up_as_written():
    """is_prose_field looks a path up among the fields of its length and first step: the same answer as
    reading every field, over paths one step from each field, longer, shorter and at the root."""
    paths = _near_paths()
    assert sum(map(placeholders.is_prose_field, paths)) > len(placeholders.PROSE_FIELDS)
    assert [placeholders.is_prose_field(path) for path in paths] == [_prose_field_as_written(path) for path in paths]
    assert placeholders.is_prose_field(()) is False
