"""studygen.patterns.NeedsPattern: a pattern behind a substring test answers as the pattern, and every such
pattern of the package needs the words it names (read from its parse tree, so every text is covered)."""

from __future__ import annotations

import importlib
import pkgutil
import re
import re._constants as sre
import re._parser as sre_parse

import pytest

import studygen
from studygen.patterns import LazyPattern, NeedsPattern, ascii_folded, lazy_compile

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def holds_needed_word(items, needs: tuple[str, ...], run: str = "") -> bool:
    """True when every match of the parsed sequence ``items``, right after the literal letters ``run``, holds one
    of ``needs`` as a run of the pattern's own ASCII letters, consumed or looked ahead at (a lookbehind may read
    before ``pos``, so it never counts): a run of literals that holds a word, or an element that must match and
    does (a group, a repeat of at least one, a branch each of whose alternatives does), the run before it carried
    in (``re`` writes ``twice|thrice`` as ``t`` and a branch). Anything else breaks the run; the reading can only
    say no where the words are needed (the tests below hold it to that), never yes where they are not."""
    for op, av in items:
        if op is sre.LITERAL and chr(av).isascii():
            run += chr(av).lower()
            continue
        if any(word in run for word in needs):
            return True
        if op is sre.SUBPATTERN:
            inner = av[-1].data
        elif op is sre.ATOMIC_GROUP:
            inner = av.data
        elif op in _REPEATS and av[0] >= 1:
            inner = av[2].data
        elif op is sre.ASSERT and av[0] == 1:  # a lookahead; av[0] is -1 for a lookbehind
            inner = av[1].data
        elif op is sre.BRANCH:
            if all(holds_needed_word(branch.data, needs, run) for branch in av[1]):
                return True
            run = ""
            continue
        else:
            run = ""
            continue
        if holds_needed_word(inner, needs, run):
            return True
        run = ""
    return any(word in run for word in needs)


def needs_words(pattern: str, flags: int, needs: tuple[str, ...]) -> bool:
    assert needs and all(word.isascii() and word == word.lower() for word in needs), needs
    return holds_needed_word(sre_parse.parse(pattern, int(flags)).data, needs)


def package_needs_patterns() -> list[tuple[str, NeedsPattern]]:
    found = {}
    for info in pkgutil.walk_packages(studygen.__path__, "studygen."):
        if info.name.endswith(("__main__", "generic_template_code")):  # the latter is read as code, not imported
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, NeedsPattern):
                found[id(value)] = (f"{info.name}.{name}", value)
    return sorted(found.values(), key=lambda item: item[0])


def test_the_reading_says_yes_only_where_a_word_is_needed():
    assert needs_words(r"\b(?:faster|slower)\s+than\b", re.I, ("faster", "slower"))
    assert needs_words(r"\b(?:faster|slower)\s+than\b", re.I, ("than",))
    assert needs_words(r"(?:reduc|cut)\w*\s+by", 0, ("by",))
    assert needs_words(r"x(?=\s*per\s+run)", 0, ("per",))  # a lookahead's letters lie before endpos
    assert needs_words(r"(?:a|b)+transfer", 0, ("transfer",))
    assert needs_words(r"\b(?:twice|thrice)\b", re.I, ("twice", "thrice"))  # parsed as "t" and a branch
    assert needs_words(r"tw(?:ice)", 0, ("twice",)) and needs_words(r"tw(?=ice)", 0, ("twice",))
    assert not needs_words(r"(?<=per\s)run", 0, ("per",))  # a lookbehind may read before pos
    assert not needs_words(r"fast(?:er)?", 0, ("faster",))  # "fast" alone matches
    assert not needs_words(r"faster|quicker", 0, ("faster",))  # one alternative lacks it
    assert not needs_words(r"(?:faster)?\s+than", 0, ("faster",))
    assert not needs_words(r"(?:faster)*", 0, ("faster",))
    assert not needs_words(r"fas[tT]er", 0, ("faster",))  # a class breaks the run
    assert not needs_words(r"(?!faster)\w+", 0, ("faster",))
    assert not needs_words(r"tw(?:ice)?", 0, ("twice",)) and not needs_words(r"t(?:w|h)ice", 0, ("twice", "thice"))
    assert not needs_words(r"tw(?:i|o)ce", 0, ("twice",))  # one branch lacks it, the run carried in or not


def test_every_needs_pattern_of_the_package_needs_its_words():
    patterns = package_needs_patterns()
    assert len(patterns) >= 20, [name for name, _ in patterns]
    wrong = [name for name, gated in patterns if not needs_words(gated.full.pattern, gated.full._flags_given, gated.needs)]
    assert wrong == []


TEXT = "fp16 cut the latency by 38% against fp32; the FP8 build cut it further"


def test_a_needs_pattern_answers_as_its_pattern_and_compiles_it_only_past_its_words():
    full = lazy_compile(r"\b(?:cut|reduced)\s+(?:the\s+)?(\w+)\s+by\b", re.I)
    gated = NeedsPattern(full, needs=("cut", "reduced"))
    assert gated.search("fp16 is faster than fp32") is None and list(gated.finditer("no change here")) == []
    assert gated.sub("#", "nothing to do") == "nothing to do" and gated.subn("#", "none") == ("none", 0)
    assert "compiled" not in vars(full)  # no word: the pattern was never compiled
    compiled = re.compile(full.pattern, re.I)
    assert [m.span() for m in gated.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)] == [(5, 23)]
    assert gated.findall(TEXT) == ["latency"] and gated.sub("#", TEXT) == compiled.sub("#", TEXT)
    assert gated.search(TEXT, 6) is None and gated.match(TEXT, 5).group(1) == "latency"
    assert gated.search(TEXT, 0, 7) is None  # "cut" ends at 8: outside the window, no match and no search
    assert gated.search(TEXT, -3).span() == compiled.search(TEXT, -3).span() == (5, 23)  # re reads pos -3 as 0
    assert gated.fullmatch("CUT the ms BY").group(1) == "ms" and gated.groups == 1
    assert gated.pattern == full.pattern and "NeedsPattern(LazyPattern(" in repr(gated)
    assert isinstance(lazy_compile("x"), LazyPattern) and isinstance(lazy_compile("x", needs=("x",)), NeedsPattern)


@pytest.mark.parametrize("text", ["\u212aernel", "\u017fpread", "D\u0130STINCT", "mıx"])
def test_the_four_letters_ignorecase_reads_as_ascii_are_folded(text):
    word = re.compile(r"kernel|spread|distinct|mix", re.I).search(text).group(0)
    assert word and any(w in ascii_folded(text) for w in ("kernel", "spread", "distinct", "mix"))
