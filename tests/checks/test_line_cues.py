"""Checks that read every README line with a case-insensitive pattern skip
the lines that hold none of its words (SG205's image counts, SG217's causal
wording): the words are looked for in the case-folded line
(:func:`studygen.lint.vocabulary.ascii_folded`), at C speed, where the
pattern tries every position. Over real texts and texts built to find a
gap, what is found must be what the patterns alone find."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from studygen.checks import sg205_datasets, sg217_unchanged_group_cause
from studygen.checks.readme_text import normalize
from studygen.lint import vocabulary

from ..conftest import REPO, SHARED


def _real_lines() -> list[str]:
    files = [*REPO.glob("families/*/README.md"), *REPO.glob("docs/*.md"), REPO / "README.md",
             *(SHARED / "corpus").rglob("*.md")]
    return sorted({normalize(line) for path in files for line in path.read_text(encoding="utf-8").splitlines()})


FOLDED = ["800 İMAGES", "400 HELD OUT", "a thousand-ımage subset", "12 Images", "1000-image", "two hundred images",
          "BECAUSE of it", "Due To the casts", "thanks\tto", "ComeS from", "is WHY", "explaİned by", "makes it faster",
          "MADE fp8 slower", "owing to", "caused by", "cauſed by"]
PIECES = st.sampled_from(["800 ", "two ", "image", "IMAGE", "s", "held", " out", "-", "ı", "İ", "ſ", "K", " ",
                          "because", "due", " to", "make", "it", "faster", "why", "is ", "caused", " by", "came",
                          " from", "explain", "ed"])


def _image_counts_by_pattern(line):
    return [found for found in vocabulary.counts(line, sg205_datasets.IMAGE_NOUNS) if found[0] > 1]


def _causes_by_pattern(line):
    return [match.span() for match in sg217_unchanged_group_cause.CAUSE.finditer(line)]


def _causes_after_cue(line):
    return [match.span() for match in sg217_unchanged_group_cause.causes_in(line)]


def test_real_lines_give_what_the_patterns_alone_give():
    lines = _real_lines() + FOLDED
    assert len(lines) > 3000
    assert [sg205_datasets.image_counts(line) for line in lines] == [_image_counts_by_pattern(line) for line in lines]
    assert [_causes_after_cue(line) for line in lines] == [_causes_by_pattern(line) for line in lines]
    assert sum(1 for line in lines if _causes_by_pattern(line)) > 5  # the texts hold causes, and counts
    assert sum(1 for line in lines if _image_counts_by_pattern(line)) > 5


@given(st.lists(PIECES, max_size=10).map("".join))
def test_built_lines_give_what_the_patterns_alone_give(line):
    assert sg205_datasets.image_counts(line) == _image_counts_by_pattern(line)
    assert _causes_after_cue(line) == _causes_by_pattern(line)


def test_a_line_without_the_words_is_not_searched(monkeypatch):
    from studygen.checks import CheckContext

    monkeypatch.setattr(vocabulary, "counts", lambda *args: (_ for _ in ()).throw(AssertionError("searched")))
    assert sg205_datasets.image_counts("The FP8 engine is 1.31x faster at batch 8.") == []

    class Text:
        def prose_lines(self):
            return [(0, "The FP8 engine is 1.31x faster at batch 8."), (1, "| fp16 | 5.9 |")]

    class NoScan:
        def finditer(self, line):
            raise AssertionError(f"searched {line!r}")

    monkeypatch.setattr(sg217_unchanged_group_cause, "CAUSE", NoScan())
    context = CheckContext(None)
    context.__dict__["readme_text"] = Text()
    assert sg217_unchanged_group_cause.check(context) == []


def _compiled(pattern):
    return re.compile(pattern.pattern, pattern.flags)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(_compiled(sg217_unchanged_group_cause.CAUSE)))
def test_every_line_the_cause_pattern_matches_passes_its_cue(line):
    """Lines drawn from the pattern itself, so that a phrase added to CAUSE without its word in
    CAUSE_WORDS fails here (the lines above are drawn from a fixed list of pieces)."""
    assert _causes_after_cue(line) == _causes_by_pattern(line) != []


@settings(max_examples=300, deadline=None)
@given(st.from_regex(vocabulary._count_pattern(sg205_datasets.IMAGE_NOUNS, 4)))
def test_every_line_the_image_count_pattern_matches_passes_its_cue(line):
    """As above, for the image nouns of SG205 and IMAGE_NOUN_WORDS."""
    assert sg205_datasets.image_counts(line) == _image_counts_by_pattern(line)
