"""records.kernel_rules: how backtracking_risk counts unbounded repeats along
one path (MAX_DEGREE 1: one repeat, or none plus an unanchored start), and
which names say nothing of their work (untold_node).

Each expected degree is worked out by hand from the rule in the module: a
repeat of more than one adds one and its body's degree; a backreference to a
group holding an unbounded repeat adds one; an alternation or a conditional
group adds its largest branch, not their sum; a lookaround's degree stands
beside the rest (the larger of the two counts), never added to it; an atomic
group counts its body; an unanchored pattern adds one."""

from __future__ import annotations

import pytest

from studygen.errors import RecordError
from studygen.records.kernel_rules import (backtracking_risk, compile_pattern, elided_foreign_node,
                                           listed_subgraph_node, untold_node)

PASSING = [
    "^sgemm.*",  # one repeat, anchored: degree 1
    "^(ab)\\1.*",  # a backreference to a bounded group adds nothing: 1
    "(ab)\\1",  # no repeat; unanchored: 1
    "^(a)?(?(1)b.*|c.*)",  # a conditional group: its larger branch (1), not both (2)
    "^(?=.*x).*y",  # the lookahead's 1 beside the body's 1: 1
    "^(?!.*x).*y",  # a negative lookahead likewise
]

TWO = "2 unbounded repeats in a row (a backreference counts as one),"
REFUSED = [
    ("sgemm.*", 2, "1 unbounded repeat (a backreference counts as one) after an unanchored start,"),
    ("^a.*b.*c", 2, TWO),
    ("^(a.*)\\1", 2, TWO),  # the backreference matches as much as its group
    ("^(?:(x.*)\\1)?", 2, TWO),  # inside a repeat of at most one
    ("^(?:(a.*))\\1", 2, TWO),  # the group found inside another group
    ("^(a.*)(?:\\1|b)", 2, TWO),  # a backreference inside an alternation
    ("^(a.*)(?=\\1.*)", 2, TWO),  # inside a lookahead: its own 2 beside the body's 1
    ("^(?:a.*){0,1}b.*", 2, TWO),  # a bounded repeat's body still counts
    ("^(?>a.*)b.*", 2, TWO),  # an atomic group's body counts
]


@pytest.mark.parametrize("pattern", PASSING)
def test_patterns_of_degree_one_pass(pattern):
    assert backtracking_risk(pattern) is None


@pytest.mark.parametrize(("pattern", "degree", "said"), REFUSED)
def test_patterns_of_degree_two_are_refused_saying_why(pattern, degree, said):
    risk = backtracking_risk(pattern)
    assert risk is not None and risk.startswith(said)
    assert risk.endswith(f"a cost growing with the name's length to the power {degree}, where linear is the most "
                         "allowed")


def test_a_nested_repeat_is_exponential():
    assert backtracking_risk("^(a+)+$") == ("a repeated part that itself repeats or alternates (as in (a+)+ or "
                                            "(a|ab)*), exponential")


def test_re2_refusing_a_pattern_prints_nothing(capfd):
    # RE2 has no lookahead: the pattern goes to Python's re, which finds no risk; RE2's own refusal stays silent
    rule = compile_pattern("^(?=sgemm)\\w+", "families/f/study.yaml", "/kernel_groups/0/pattern")
    assert rule.search("SGEMM_128x64") is not None  # case-insensitive as every rule
    assert capfd.readouterr().err == ""


def test_a_rule_is_case_insensitive_under_re2_too():
    rule = compile_pattern("gridsample", "families/f/study.yaml", "/kernel_groups/0/pattern")
    assert rule.search("void at::native::grid_sampler_2d_kernel") is None  # an underscore between: no match
    assert rule.search("GRIDSAMPLE_fwd_kernel") is not None


def test_a_risky_rule_is_refused_at_its_pointer():
    with pytest.raises(RecordError) as caught:
        compile_pattern("(?<=x)a.*b", "families/f/study.yaml", "/kernel_groups/2/pattern")
    assert caught.value.place.pointer == "/kernel_groups/2/pattern"
    assert ("could take very long on a long name: 1 unbounded repeat (a backreference counts as one) after an "
            "unanchored start" in caught.value.message)  # the lookbehind adds nothing: one repeat, unanchored


def test_names_that_say_nothing_of_their_work():
    assert listed_subgraph_node("{conv1/7x7_s2,conv1/relu_7x7,pool1/3x3_s2}")
    assert not listed_subgraph_node("{ForeignNode[conv1,relu1]}")  # a Myelin node, never a DLA member list
    assert not listed_subgraph_node("{conv1/7x7_s2}")  # one member names its work
    assert not listed_subgraph_node("conv1,relu1")  # no braces: a name with a comma
    assert elided_foreign_node("{ForeignNode[/encoder/layer.0/attn/MatMul.../encoder/layer.5/Add]}")
    assert not untold_node("{ForeignNode[conv1,relu1]}")  # its members listed, not elided: they may tell
    assert untold_node("{ForeignNode[a...b]}") and untold_node("{a,b}")
