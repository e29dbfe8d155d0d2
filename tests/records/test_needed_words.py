"""patterns.needed_words and a kernel-group rule behind it (records.kernel_rules.compile_pattern): a rule that Python's re runs (one RE2
cannot) is tried only on names holding one of the words every match of it needs. The words are read off the
parse tree; here they are written out by hand for patterns of our own, and the gated search is held to the plain
one on every kernel and layer name the shipped records and the shared fixtures list, under every rule the shipped
study files and the built-in set give, and on made-up names (Unicode case folds included)."""

from __future__ import annotations

import glob
import json
import random
import re

import pytest
import yaml

from studygen.collect.kernel_groups import DEFAULT_RULES
from studygen.patterns import NeedsPattern, needed_words
from studygen.records.kernel_rules import compile_pattern
from tests.conftest import FIXTURES, REPO


@pytest.mark.parametrize("pattern, words", [
    ("(?<![a-z])conv(?!_?encoder)|fprop", ("conv", "fprop")),
    ("conv|convolution", ("conv",)),  # re factors the common prefix out: one run, then a branch with an empty side
    ("twice|thrice", ("hrice", "wice")),  # re writes it as t and a branch: the branch's words are the longer
    ("fully_?connected", ("connected",)),  # the optional underscore ends the run; the longer run is kept
    ("(?<![a-z])fc\\d*(?![a-z])", ("fc",)),
    ("(ab)+c*", ("ab",)),  # a repeat of at least once needs its content
    ("(?:ab)*c", ("c",)),  # one of none or more times needs nothing
    ("[ab]cd|ef", ("cd", "ef")),
    ("(?-i:GEMM)|Conv2d", ("conv2d", "gemm")),  # lower-cased: the test reads case-folded names
    ("x(?=abc)", ("x",)),  # a lookahead's letters are not matched, and not counted
    ("PWN\\(", ("pwn(",)),
])
def test_the_words_every_match_needs(pattern, words):
    assert needed_words(pattern) == words


@pytest.mark.parametrize("pattern", ["a|", "(?:abc)?", "[a-z]+", "\\w+_kernel|.", "(?<=conv)\\d", "(a)?b*",
                                     "é|ß"])
def test_no_words_where_some_match_needs_none(pattern):
    assert needed_words(pattern) is None


def _shipped_rule_patterns() -> list[str]:
    patterns = [pattern for pattern, _group in DEFAULT_RULES]
    for study_file in glob.glob(str(REPO / "families" / "*" / "study.yaml")):
        spec = yaml.safe_load(open(study_file, encoding="utf-8"))
        patterns += [rule["pattern"] for rule in spec.get("kernel_groups") or []]
    return patterns


def _names_listed(node, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name", "layer", "kernel") and isinstance(value, str):
                found.add(value)
            _names_listed(value, found)
    elif isinstance(node, list):
        for value in node:
            _names_listed(value, found)


def test_gated_rules_answer_as_the_plain_pattern_on_every_listed_name():
    names: set[str] = set()
    for path in [*glob.glob(str(REPO / "measurements" / "**" / "*.json"), recursive=True),
                 *glob.glob(str(FIXTURES / "**" / "*.json"), recursive=True)]:
        try:
            _names_listed(json.load(open(path, encoding="utf-8")), names)
        except (ValueError, UnicodeDecodeError):
            continue
    assert len(names) > 1500  # kernel and layer names of many profilers and TensorRT versions
    gated = 0
    for pattern in _shipped_rule_patterns():
        compiled = compile_pattern(pattern, "s.yaml", "/kernel_groups/0/pattern")
        plain = re.compile(pattern, re.IGNORECASE)
        gated += isinstance(compiled, NeedsPattern)
        assert [bool(compiled.search(name)) for name in sorted(names)] == \
            [bool(plain.search(name)) for name in sorted(names)], pattern
    assert gated >= 4  # the lookbehind rules of the H200 study and the built-in set are gated


def test_a_case_fold_re_reads_as_ascii_keeps_its_match():
    # re.IGNORECASE matches the Kelvin sign as k, a long s as s and a dotted capital I as i
    rule = compile_pattern("(?<![a-z])(?:kernel|sdpa|linear)", "s.yaml", "/kernel_groups/0/pattern")
    assert isinstance(rule, NeedsPattern)
    for name in ("my_\u212aernel", "fused_\u017fdpa", "L\u0130NEAR_fwd"):
        assert rule.search(name) is not None, name
    assert rule.search("relu_fwd") is None


def test_gated_and_plain_agree_on_made_up_names():
    generator = random.Random(20261206)
    patterns = ["(?<![a-z])conv(?!_?encoder)|fprop|(?<![a-z])fft", "(?<![a-z])(?:bmm|mm|fc)(?![a-z])|gemm",
                "(?<=_)pool(?:ing)?|(?<![a-z])pad", "twice|thrice"]
    alphabet = "convfprftbmgepolidasx_12 KTHWIC\u212a\u017f"
    for pattern in patterns:
        compiled, plain = compile_pattern(pattern, "s.yaml", "/p"), re.compile(pattern, re.IGNORECASE)
        for _ in range(3000):
            name = "".join(generator.choice(alphabet) for _ in range(generator.randint(0, 14)))
            assert bool(compiled.search(name)) == bool(plain.search(name)), (pattern, name)
