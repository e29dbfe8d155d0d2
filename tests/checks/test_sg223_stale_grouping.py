"""SG223 (error): kernel times grouped by other rules than the study file's
kernel_groups; and SG210's warning about a rule that takes no listed name.

The records are made up: a trtexec profile of four layers grouped by the
study file's rules, as ``collect trtexec`` notes it."""

from __future__ import annotations

from studygen.checks import CheckContext, kernel_rule_use, sg210_kernel_coverage, sg223_stale_grouping
from studygen.findings import ERROR, WARNING

from .studies import collected_provenance, kernel_time, load, record, spec

RULES = [{"pattern": "^node_conv", "group": "convolution"},
         {"pattern": "node_linear", "group": "linear"},
         {"pattern": "max_pool", "group": "pooling"}]
NOTE = "4 layers (0 with zero time); groups by families/toy/study.yaml kernel_groups rules"


def profile(groups: dict[str, list[tuple[str, float]]], note: str = NOTE, **extra) -> dict:
    """A kernel-time result listing ``groups``: group -> [(layer name, ms)], each group's time their sum."""
    result = kernel_time("fp16", {group: round(sum(t for _, t in layers), 4) for group, layers in groups.items()},
                         total=round(sum(t for layers in groups.values() for _, t in layers), 4), note=note,
                         rows_listed=True, source_locator="run.log:83", **extra)
    for entry in result["groups"]:
        entry["kernels"] = [{"name": name, "time_ms": t} for name, t in groups[entry["group"]]]
    return result


AS_COLLECTED = {"convolution": [("node_conv2d_myl0_1", 0.0105)], "linear": [("node_linear_myl5_2", 0.0112)],
                "pooling": [("node_max_pool2d", 0.0045), ("node_max_pool2d_1", 0.0045)]}


def _rule_findings(study):
    """SG210's findings of rules no profile uses, with the study's rules compiled as check compiles them."""
    return sg210_kernel_coverage.rule_findings(study, kernel_rule_use.study_rules(study))


def _study(tmp_path, rules, groups=AS_COLLECTED, **extra):
    return load(tmp_path, study=spec(kernel_groups=rules),
                records=[record("prof", [profile(groups, **extra)])])


def test_a_record_grouped_by_the_rules_as_they_are_passes(tmp_path):
    study = _study(tmp_path, RULES)
    assert sg223_stale_grouping.check(CheckContext(study)) == []
    assert _rule_findings(study) == []


def test_a_renamed_group_is_found_at_the_record(tmp_path):
    renamed = [*RULES[:2], {"pattern": "max_pool", "group": "pool"}]
    study = _study(tmp_path, renamed)
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert (finding.code, finding.severity, finding.file, finding.pointer) == (
        "SG223", ERROR, "measurements/toy/prof.json", "/results/0/groups/2/group")
    assert finding.line == study.records[0].line_of("/results/0/groups/2/group") > 0
    assert finding.message == (
        "the kernel times of job prof, fp16 at 800x1067 were grouped by other rules than the study file's "
        "kernel_groups: it holds group 'pooling', which no rule names; 'node_max_pool2d' in group 'pooling', which "
        "the rules put in 'pool'; 'node_max_pool2d_1' in group 'pooling', which the rules put in 'pool'; the README "
        "shows the groups the record holds")
    assert finding.hint.startswith('collect the profile (run.log) again with --replace "REASON"')


def test_a_rule_added_for_unclassified_layers_is_found_beyond_three_named(tmp_path):
    # before the new rule the two reformats were unclassified; "other" stays a group the rules name
    groups = dict(AS_COLLECTED, other=[("Reformatting CopyNode 0", 0.0056), ("Reformatting CopyNode 1", 0.001)])
    added = [*RULES, {"pattern": "^Reformatting", "group": "reformat"}]
    (finding,) = sg223_stale_grouping.check(CheckContext(_study(tmp_path, added, groups)))
    assert finding.pointer == "/results/0/groups/3/kernels/0"
    assert "'Reformatting CopyNode 0' in group 'other', which the rules put in 'reformat'" in finding.message
    # a rule moved up takes the pooling layers and the linear one ("node_"): four places differ, three are named
    moved = [{"pattern": "node_(?:linear|max)", "group": "pooling"}, *RULES]
    (finding,) = sg223_stale_grouping.check(CheckContext(_study(tmp_path / "b", moved)))
    assert finding.pointer == "/results/0/groups/1/kernels/0"
    assert "'node_linear_myl5_2' in group 'linear', which the rules put in 'pooling'" in finding.message
    assert finding.message.count("which the rules put in") == 1  # the pooling layers stay where they were


def test_a_name_no_rule_matches_proves_nothing(tmp_path):
    # a layer grouped by its TensorRT type or tactic (which the record does not keep) under a rule of the study
    groups = dict(AS_COLLECTED, convolution=[("node_conv2d_myl0_1", 0.0105), ("fused_block_3", 0.004)])
    assert sg223_stale_grouping.check(CheckContext(_study(tmp_path, RULES, groups))) == []
    # nor does it prove that a rule of its group took nothing: its tactic may be what the rule matched
    by_tactic = [*RULES, {"pattern": "implicit_gemm", "group": "convolution"}]
    assert _rule_findings(_study(tmp_path / "b", by_tactic, groups)) == []
    (unused,) = _rule_findings(_study(tmp_path / "c", by_tactic))
    assert unused.pointer == "/kernel_groups/3/pattern"


def test_built_in_rules_against_the_study_files_own(tmp_path):
    builtin = "4 layers (0 with zero time); groups by default kernel_groups rules"
    study = _study(tmp_path, RULES, note=builtin)
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert finding.pointer == "/results/0"
    assert finding.message == (
        "the kernel times of job prof, fp16 at 800x1067 were grouped by other rules than the study file's "
        "kernel_groups: its note says it was grouped by studygen's built-in rules, and the study file now gives rules "
        "of its own (kernel_groups); the README shows the groups the record holds")
    # without rules of its own the built-in ones apply: a record collected by them is not compared
    plain = load(tmp_path / "b", records=[record("prof", [profile(AS_COLLECTED, note=builtin)])])
    assert sg223_stale_grouping.check(CheckContext(plain)) == []
    # a record grouped by the study file's rules that the study file no longer gives
    gone = load(tmp_path / "c", records=[record("prof", [profile(AS_COLLECTED)])])
    (finding,) = sg223_stale_grouping.check(CheckContext(gone))
    assert "grouped by the study file's kernel_groups, which the study file no longer gives" in finding.message


def test_a_transcribed_result_is_not_compared(tmp_path):
    renamed = [*RULES[:2], {"pattern": "max_pool", "group": "pool"}]
    assert sg223_stale_grouping.check(CheckContext(_study(tmp_path, renamed, note="quoted from a paper"))) == []


def test_a_rule_with_a_typo_is_named_at_the_study_file_with_the_unclassified_names(tmp_path):
    typo = [RULES[0], {"pattern": "node_lienar", "group": "linear"}, RULES[2]]
    groups = {"convolution": AS_COLLECTED["convolution"], "pooling": AS_COLLECTED["pooling"],
              "other": [("node_linear_myl5_2", 0.0112), ("node_linear_1_2_myl5_3", 0.0106), ("__mye59_0", 0.0017)]}
    study = _study(tmp_path, typo, groups)
    assert sg223_stale_grouping.check(CheckContext(study)) == []  # grouped by the rules as they are
    (finding,) = _rule_findings(study)
    assert (finding.code, finding.severity, finding.file, finding.pointer) == (
        "SG210", WARNING, "families/toy/study.yaml", "/kernel_groups/1/pattern")
    lines = (tmp_path / "families/toy/study.yaml").read_text().splitlines()
    assert "node_lienar" in lines[finding.line - 1]
    assert finding.message == (
        "rule 2 ('node_lienar', group linear) takes no kernel or layer of the 1 kernel-time result(s) grouped by "
        "the study file's rules: its pattern is found in none of their names; names no rule matches (counted in "
        "'other'): 'node_linear_myl5_2', 'node_linear_1_2_myl5_3', '__mye59_0'")
    assert finding in sg210_kernel_coverage.check(CheckContext(study))


def test_a_rule_an_earlier_broad_rule_starves_is_named_with_that_rule(tmp_path):
    broad = [{"pattern": "node", "group": "layers"}, *RULES]
    study = _study(tmp_path, broad, {"layers": [name_time for layers in AS_COLLECTED.values() for name_time in layers]})
    findings = _rule_findings(study)
    assert [f.pointer for f in findings] == ["/kernel_groups/1/pattern", "/kernel_groups/2/pattern",
                                             "/kernel_groups/3/pattern"]
    assert findings[2].message.endswith(
        "the kernel and layer names it matches are taken by an earlier rule, which wins: rule 1 ('node', group "
        "layers) takes 2 of them")


def test_a_rule_whose_group_lists_only_its_largest_kernels_is_not_named(tmp_path):
    # 20 listed pooling layers (as many as a collector lists) may hide a smaller one the second rule took
    many = {"pooling": [(f"node_max_pool2d_{k}", 0.01) for k in range(20)]}
    rules = [{"pattern": "max_pool", "group": "pooling"}, {"pattern": "avg_pool", "group": "pooling"}]
    assert _rule_findings(_study(tmp_path, rules, many)) == []
    fewer = {"pooling": [(f"node_max_pool2d_{k}", 0.01) for k in range(19)]}  # a complete listing
    (finding,) = _rule_findings(_study(tmp_path / "b", rules, fewer))
    assert finding.pointer == "/kernel_groups/1/pattern"


def test_a_collect_run_record_is_told_to_time_a_new_job(tmp_path):
    # trial s21: the hint said to collect again with --replace, an option collect run does not have
    provenance = collected_provenance()
    provenance["collector"] = {"name": "studygen collect run", "version": "0.1.0"}
    renamed = [*RULES[:2], {"pattern": "max_pool", "group": "pool"}]
    study = load(tmp_path, study=spec(kernel_groups=renamed),
                 records=[record("laptop-1", [profile(AS_COLLECTED)], provenance)])
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert finding.hint == ("collect run keeps no trace to group again: time the job anew under the study file's "
                            "kernel_groups (collect run --job NEW, then remove job laptop-1's record), then render; or "
                            "put the rules back as they were")


RENAMED = [*RULES[:2], {"pattern": "max_pool", "group": "pool"}]


def run_provenance() -> dict:
    """A record's provenance as collect run writes it (that collector notes no rules in its results)."""
    return collected_provenance(collector={"name": "studygen collect run", "version": "0.1.0"})


def unnoted(groups) -> dict:
    result = profile(groups)
    del result["note"]
    return result


def test_a_collect_run_result_is_compared_without_a_note_naming_its_rules(tmp_path):
    study = load(tmp_path, study=spec(kernel_groups=RENAMED),
                 records=[record("laptop-1", [unnoted(AS_COLLECTED)], run_provenance())])
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert finding.pointer == "/results/0/groups/2/group"
    assert finding.hint.startswith("collect run keeps no trace to group again")
    # the same unnoted result from another collector was not grouped by any rules: nothing to hold against them
    other = load(tmp_path / "b", study=spec(kernel_groups=RENAMED), records=[record("laptop-1", [unnoted(AS_COLLECTED)])])
    assert sg223_stale_grouping.check(CheckContext(other)) == []


def test_without_rules_of_its_own_a_collect_run_result_is_passed_over_and_the_next_one_checked(tmp_path):
    # laptop-1 (collect run) sorts before prof, whose note names study-file rules the study no longer gives
    study = load(tmp_path, records=[record("laptop-1", [unnoted(AS_COLLECTED)], run_provenance()),
                                    record("prof", [profile(AS_COLLECTED)])])
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert (finding.file, finding.pointer) == ("measurements/toy/prof.json", "/results/0")


def test_a_result_that_agrees_does_not_end_the_search_and_a_shapeless_one_is_named_by_its_variant(tmp_path):
    agrees = profile({"convolution": AS_COLLECTED["convolution"], "pool": AS_COLLECTED["pooling"]}, shape="64x64")
    stale = profile(AS_COLLECTED)
    del stale["shape"], stale["source_locator"]
    study = load(tmp_path, study=spec(kernel_groups=RENAMED), records=[record("prof", [agrees, stale])])
    (finding,) = sg223_stale_grouping.check(CheckContext(study))
    assert finding.pointer == "/results/1/groups/2/group"
    assert finding.message.startswith("the kernel times of job prof, fp16 were grouped by other rules")
    # no source_locator: the hint names no file
    assert finding.hint == ('collect the profile again with --replace "REASON" so that the study file\'s kernel_groups '
                            "group it (rules apply only when a profile is collected), then render; or put the rules back "
                            "as they were")


def test_differences_past_the_third_are_counted(tmp_path):
    # every group renamed: three groups no rule names and four layers the rules put elsewhere
    renamed_all = [{"pattern": "^node_conv", "group": "conv"}, {"pattern": "node_linear", "group": "fc"},
                   {"pattern": "max_pool", "group": "pool"}]
    (finding,) = sg223_stale_grouping.check(CheckContext(_study(tmp_path, renamed_all)))
    assert finding.message == (
        "the kernel times of job prof, fp16 at 800x1067 were grouped by other rules than the study file's "
        "kernel_groups: it holds group 'convolution', which no rule names; 'node_conv2d_myl0_1' in group "
        "'convolution', which the rules put in 'conv'; group 'linear', which no rule names; 4 more; the README shows "
        "the groups the record holds")
    assert finding.hint == ('collect the profile (run.log) again with --replace "REASON" so that the study file\'s '
                            "kernel_groups group it (rules apply only when a profile is collected), then render; or put "
                            "the rules back as they were")


def _rules_and_result(tmp_path, rules, groups, **extra):
    study = _study(tmp_path, rules, groups, **extra)
    return kernel_rule_use.study_rules(study), study.records[0].results[0]


def test_rule_uses_count_a_name_against_every_later_rule_that_matches_it(tmp_path):
    broad = [{"pattern": "node", "group": "layers"}, *RULES]
    rules, result = _rules_and_result(
        tmp_path, broad, {"layers": [name_time for layers in AS_COLLECTED.values() for name_time in layers]})
    uses = kernel_rule_use.rule_uses(rules, [result], [])
    assert [use.takes for use in uses] == [True, False, False, False]
    assert [use.shadowed for use in uses] == [{}, {0: 1}, {0: 1}, {0: 2}]


def test_rule_uses_go_on_past_a_rule_whose_group_the_result_lacks(tmp_path):
    # no convolution group; the others list only their largest layers (rows_listed false), so they may hold more
    groups = {"linear": AS_COLLECTED["linear"], "pooling": AS_COLLECTED["pooling"]}
    rules, result = _rules_and_result(tmp_path, RULES, groups)
    result = dict(result, rows_listed=False)
    assert [use.maybe for use in kernel_rule_use.rule_uses(rules, [result], [])] == [False, True, True]


def test_rule_uses_read_past_an_elided_node_and_a_name_no_rule_matches(tmp_path):
    listed = {"other": [("{ForeignNode[/conv1...relu_4]}", 0.02), ("node_linear_myl5_2", 0.0112),
                        ("fused_block_3", 0.004), ("node_max_pool2d", 0.0045)]}
    rules, result = _rules_and_result(tmp_path, RULES, listed, note="quoted from a paper")
    assert [use.takes for use in kernel_rule_use.rule_uses(rules, [], [result])] == [False, True, True]


def test_unclassified_names_are_the_fallback_names_no_rule_takes_largest_first(tmp_path):
    rules, _ = _rules_and_result(tmp_path, RULES, AS_COLLECTED)
    first = {"groups": [{"group": "other", "kernels": [
        {"name": "Reformatting CopyNode 0", "time_ms": 0.0056}, {"name": "node_linear_myl5_2", "time_ms": 0.0112},
        {"name": "{ForeignNode[/conv1...relu_4]}", "time_ms": 0.03}, {"name": "__mye59_0"}]},
        {"group": "pooling", "kernels": [{"name": "avg_pool_7", "time_ms": 0.05}]}]}
    second = {"groups": [{"group": "other", "kernels": [
        {"name": "Reformatting CopyNode 0", "time_ms": 0.001}, {"name": "__mye12_1", "time_ms": 0.0017}]}]}
    # a name keeps its largest time over the results; one listed without a time sorts last
    assert kernel_rule_use.unclassified_names(rules, [first, second]) == [
        "Reformatting CopyNode 0", "__mye12_1", "__mye59_0"]


def test_each_distinct_name_is_searched_once_by_each_rule(tmp_path):
    # two layers, read by differences, rule_uses (twice: as current and other) and unclassified_names: every
    # rule searches each name once
    rules, result = _rules_and_result(tmp_path, RULES, {"linear": [("node_linear_myl5_2", 0.0112)],
                                                        "other": [("fused_block_3", 0.004)]})
    searched = []

    class Counted:
        def __init__(self, compiled):
            self.compiled = compiled

        def search(self, name):
            searched.append(name)
            return self.compiled.search(name)

    rules.rules = [rule._replace(compiled=Counted(rule.compiled)) for rule in rules]  # a StudyRule is a NamedTuple
    assert kernel_rule_use.differences(rules, 0, result) == []
    uses = kernel_rule_use.rule_uses(rules, [result], [result])
    assert [use.takes for use in uses] == [False, True, False]
    assert kernel_rule_use.unclassified_names(rules, [result]) == ["fused_block_3"]
    assert sorted(searched) == ["fused_block_3"] * 3 + ["node_linear_myl5_2"] * 3
