"""How many compilations a compiled cell gets: a fixed count, or ``auto`` with its stopping rule
(every figure below worked out by hand from the medians given)."""

from __future__ import annotations

import pytest
import yaml

from studygen.collect.run.compile_rule import (AT_MOST, FIXED_COUNT, RULE_MET, CompilationRule, inside_streak)
from studygen.collect.run.spec import build_plan
from studygen.errors import RecordError
from studygen.study import load_study

from .conftest import TINY_STUDY, make_tiny_project


def test_inside_streak_counts_the_last_compilations_that_did_not_widen_the_range():
    assert inside_streak([8.4, 9.8, 8.5, 9.0]) == 2  # 9.0 and 8.5 inside 8.4-9.8; 9.8 outside [8.4, 8.4]
    assert inside_streak([8.4, 8.5, 9.9]) == 0  # the last one widened the range
    assert inside_streak([8.4, 8.4, 8.4]) == 2  # the ends count as inside
    assert inside_streak([9.0, 8.0, 8.0, 9.0]) == 2  # 9.0 inside 8.0-9.0, 8.0 inside [8.0, 9.0]
    assert inside_streak([8.0, 9.0, 8.99, 7.99]) == 0
    assert inside_streak([8.0, 9.0, 8.5, 8.7, 9.01]) == 0
    assert inside_streak([8.0]) == 0 and inside_streak([]) == 0


def test_a_fixed_count_compiles_once_in_one_wave_and_stops():
    rule = CompilationRule.from_settings({"compilations": 6})
    assert (rule.count, rule.first_wave, rule.in_workers) == (6, 6, True)
    assert rule.next_wave({"fp16": [8.0] * 6, "fp8": [9.0] * 6}) == (0, FIXED_COUNT)
    # fewer than asked (a compilation left out): the rest, never more
    assert rule.next_wave({"fp16": [8.0] * 4}) == (2, None)
    assert rule.record([8.0, 8.1], FIXED_COUNT) == {"compilations": 6, "count": 2, "stopped": FIXED_COUNT}
    assert rule.next_wave({}) == (6, None)  # no cell compiled yet: the whole count
    one = CompilationRule.from_settings({"compilations": 1})
    assert (one.first_wave, one.in_workers) == (1, False)


def test_auto_compiles_at_least_then_waves_of_consecutive_inside_until_the_rule_holds_in_every_cell():
    rule = CompilationRule.from_settings({"compilations": "auto", "compilation_rule": {"at_least": 4,
                                                                                       "consecutive_inside": 2,
                                                                                       "at_most": 8}})
    assert (rule.count, rule.first_wave, rule.at_most) == (None, 4, 8)
    steady = [8.0, 8.4, 8.2, 8.1]  # streak 2
    assert rule.next_wave({"fp16": steady}) == (0, RULE_MET)
    # one cell still widening its range: two more compilations, the fewest that can meet the rule
    assert rule.next_wave({"fp16": steady, "fp8": [9.0, 9.5, 9.2, 10.1]}) == (2, None)
    # fewer than at_least so far (the first wave): the rest of it
    assert rule.next_wave({"fp16": [8.0, 8.4]}) == (2, None) and rule.next_wave({}) == (4, None)
    # near at_most: only what is left
    assert rule.next_wave({"fp8": [9.0, 9.5, 9.2, 10.1, 10.2, 10.3, 10.4]}) == (1, None)
    assert rule.next_wave({"fp8": [9.0, 9.5, 9.2, 10.1, 10.2, 10.3, 10.4, 10.5]}) == (0, AT_MOST)
    # the rule holds at at_most: it is met, not cut
    assert rule.next_wave({"fp8": [9.0, 9.5, 9.2, 10.1, 10.2, 10.3, 10.0, 9.9]}) == (0, RULE_MET)
    assert rule.record([9.0, 9.5, 9.2, 10.1, 10.2, 10.3, 10.0, 9.9], RULE_MET) == {
        "compilations": "auto", "at_least": 4, "consecutive_inside": 2, "at_most": 8, "count": 8,
        "stopped": RULE_MET, "inside_streak": 2}


def test_auto_without_a_rule_takes_the_defaults():
    rule = CompilationRule.from_settings({"compilations": "auto"})
    assert (rule.at_least, rule.consecutive_inside, rule.at_most, rule.first_wave) == (6, 3, 12, 6)
    partial = CompilationRule.from_settings({"compilations": "auto", "compilation_rule": {"at_most": 9}})
    assert (partial.at_least, partial.consecutive_inside, partial.at_most) == (6, 3, 9)


def _spec(run_lines: str) -> dict:
    spec = yaml.safe_load(TINY_STUDY)
    spec["run"].update(yaml.safe_load(run_lines))
    return spec


@pytest.mark.parametrize("run_lines, pointer, words", [
    ("{compilations: auto, compilation_rule: {at_least: 6, at_most: 5}}", "/run/compilation_rule/at_most",
     "at_most 5 is below at_least 6"),
    ("{compilations: auto, compilation_rule: {at_least: 3, consecutive_inside: 3}}",
     "/run/compilation_rule/consecutive_inside", "consecutive_inside 3 must be below at_least 3"),
])
def test_an_impossible_rule_is_refused_at_its_place(run_lines, pointer, words):
    with pytest.raises(RecordError, match=words) as raised:
        build_plan(_spec(run_lines), study_path="s.yaml")
    assert raised.value.place.pointer == pointer


@pytest.mark.parametrize("name, pointer", [("triton..x", "/run/inductor_config/triton..x"),
                                           ("a/b", "/run/inductor_config/a~1b"), ("1st", "/run/inductor_config/1st")])
def test_an_inductor_setting_that_is_no_dotted_name_is_refused_at_its_place(name, pointer):
    spec = _spec("{}")
    spec["run"]["inductor_config"] = {"triton.autotune_pointwise": False, name: 1}
    with pytest.raises(RecordError, match="is not a torch._inductor.config name") as raised:
        build_plan(spec, study_path="s.yaml")
    assert raised.value.place.pointer == pointer
    spec["run"]["inductor_config"] = {"triton.autotune_pointwise": False}
    assert build_plan(spec, study_path="s.yaml").settings["inductor_config"] == {"triton.autotune_pointwise": False}


@pytest.mark.parametrize("settings, pointer, words", [
    ({"cpp.cxx": True}, "/run/inductor_config/cpp.cxx", "'cpp.cxx' is a debug, trace, file, folder or program"),
    ({"max_autotune": "yes"}, "/run/inductor_config/max_autotune", "'max_autotune' is given 'yes'"),
])
def test_a_program_setting_or_a_word_value_is_refused_by_the_plan_too(settings, pointer, words):
    # the plan is built from study files check has not seen (collect run reads the file itself)
    spec = _spec("{}")
    spec["run"]["inductor_config"] = {"triton.autotune_pointwise": False, **settings}
    with pytest.raises(RecordError, match=words) as raised:
        build_plan(spec, study_path="s.yaml")
    assert raised.value.place.pointer == pointer


def test_a_fixed_count_needs_no_rule_and_the_rule_is_not_read_then():
    plan = build_plan(_spec("{compilations: 6, compilation_rule: {at_least: 6, at_most: 5}}"), study_path="s.yaml")
    assert plan.settings["compilations"] == 6


@pytest.mark.parametrize("value, accepted", [("auto", True), (6, True), (0, False), ("sometimes", False),
                                             ("6", False)])
def test_the_study_schema_takes_a_count_or_auto(tmp_path, value, accepted):
    text = TINY_STUDY.replace("  compilations: 1  #", f"  compilations: {value!r}  #".replace("'", '"'))
    root = make_tiny_project(tmp_path / "p", text)
    if accepted:
        assert load_study(root / "families" / "tiny", root).spec["run"]["compilations"] == value
    else:
        with pytest.raises(RecordError) as raised:
            load_study(root / "families" / "tiny", root)
        assert "study.yaml:57:" in str(raised.value) and "(/run/compilations)" in str(raised.value)
