"""studygen.patterns: a lazy pattern behaves as re.compile's, compiled at first use only."""

from __future__ import annotations

import re

import pytest

from studygen.patterns import GuardedPattern, LazyPattern, lazy_compile

TEXT = "fp16 8.19 ms, FP8 9.45 ms at 800x800; fp32 21.26 ms"


def test_nothing_is_compiled_until_first_use():
    broken = lazy_compile("(unclosed")  # a syntax error is raised at first use, not at import
    assert broken.pattern == "(unclosed" and "search" not in vars(broken)
    with pytest.raises(re.error):
        broken.search("x")


@pytest.mark.parametrize("pattern, flags", [(r"(?P<variant>fp\d+)\s+(?P<ms>\d+\.\d+) ms", re.I), (r"\d+x\d+", 0)])
def test_every_method_answers_as_the_compiled_pattern(pattern, flags):
    lazy, compiled = lazy_compile(pattern, flags), re.compile(pattern, flags)
    assert lazy.search(TEXT).group(0) == compiled.search(TEXT).group(0)
    assert [m.span() for m in lazy.finditer(TEXT)] == [m.span() for m in compiled.finditer(TEXT)]
    assert lazy.findall(TEXT) == compiled.findall(TEXT)
    assert lazy.sub("#", TEXT) == compiled.sub("#", TEXT) and lazy.subn("#", TEXT) == compiled.subn("#", TEXT)
    assert lazy.split(TEXT) == compiled.split(TEXT)
    assert lazy.match(TEXT) == compiled.match(TEXT) is None or lazy.match(TEXT).span() == compiled.match(TEXT).span()
    assert (lazy.fullmatch("800x800") is None) == (compiled.fullmatch("800x800") is None)
    assert (lazy.flags, lazy.groups, lazy.groupindex) == (compiled.flags, compiled.groups, compiled.groupindex)
    assert lazy.compiled is compiled or lazy.compiled.pattern == compiled.pattern
    assert isinstance(lazy.compiled, re.Pattern) and not isinstance(lazy, re.Pattern)


def test_after_first_use_attributes_are_plain_and_unknown_names_fail():
    lazy = LazyPattern(r"ms\b")
    lazy.search(TEXT)
    assert vars(lazy)["search"] == lazy.compiled.search  # found without __getattr__ from now on
    with pytest.raises(AttributeError):
        lazy.no_such_method
    assert repr(lazy) == r"LazyPattern('ms\\b', 0)"


def test_compiled_may_be_the_first_use_and_flags_default_to_none():
    lazy = lazy_compile(r"fp8")
    assert isinstance(lazy.compiled, re.Pattern) and lazy.compiled.flags == re.compile("fp8").flags
    assert lazy.search("FP8") is None  # no flag given: case matters
    with pytest.raises(AttributeError, match="^groupdict$"):
        lazy.groupdict


def test_a_guarded_pattern_answers_as_its_pattern_and_compiles_it_only_past_its_guard():
    full = lazy_compile(r"\bfp(?:8|16)\s+(?:is|was)\s+(?:faster|slower)\b", re.I)
    guarded = GuardedPattern(full, guard=lazy_compile(r"\bfp(?:8|16)\s", re.I))  # where each match starts
    assert guarded.search("fp32 is faster") is None and list(guarded.finditer("no precision here")) == []
    assert "compiled" not in vars(full)  # the guard found nothing: the costly pattern was never compiled
    text = "FP8 was slower; then fp16 is faster, fp8 is big"
    assert [m.span() for m in guarded.finditer(text)] == [(0, 14), (21, 35)] == [m.span() for m in full.finditer(text)]
    assert [m.group(0) for m in guarded.finditer(text, 1, 36)] == ["fp16 is faster"]
    assert guarded.search(text, 1).group(0) == "fp16 is faster" and guarded.search(text, 1, 30) is None
    assert guarded.pattern == full.pattern and "GuardedPattern(LazyPattern(" in repr(guarded)
