"""A study's Inductor settings are data (records.inductor_settings): switches
and numbers that change how Inductor compiles, never a program, a folder, a
file or debug output. Case (attack round): ``run.inductor_config:
{cpp.cxx: /path/evil.sh}`` was set on torch._inductor.config and ``collect
run`` ran that program as its C++ compiler."""

from __future__ import annotations

import pytest
import yaml

from studygen.records.inductor_settings import (inductor_config_problem, setting_name_problem,
                                                setting_value_problem, typed_setting_problem)
from tests.robustness.tiny import make_tiny_project, study_spec


@pytest.mark.parametrize("name, word", [
    ("cpp.cxx", "cxx"), ("cuda.cuda_cxx", "cxx"), ("trace.debug_dir", "debug"), ("trace.enabled", "trace"),
    ("triton.debug_sync_kernel", "debug"), ("Debug", "debug"), ("aot_inductor.package", "package"),
    ("aot_inductor.use_runtime_constant_folding", "aot_inductor"), ("test_configs.use_libtorch", "test_configs"),
    ("cuda.use_binary_remote_cache", "remote"), ("rocm.save_temps", "save"), ("profile_bandwidth", "profile"),
    ("some.compiler_path", "compiler"), ("cutlass.cutlass_hash_with_compile_cmd", "cmd"),
])
def test_debug_trace_file_and_program_settings_are_refused_by_a_word_of_their_name(name, word):
    problem = setting_name_problem(name)
    assert problem == (f"{name!r} is a debug, trace, file, folder or program setting ('{word}'): a study sets only "
                       "switches and numbers that change how Inductor compiles")


@pytest.mark.parametrize("name", ["triton.autotune_pointwise", "coordinate_descent_tuning", "max_autotune",
                                  "compile_threads", "epilogue_fusion", "triton.cudagraphs", "fx_graph_cache",
                                  "enable_linear_binary_folding", "keep_output_stride"])
def test_switches_and_numbers_of_compilation_pass_by_name(name):
    assert setting_name_problem(name) is None


@pytest.mark.parametrize("value", ["/tmp/evil.sh", "", "1", [1], {"a": 1}, None, float("inf"), float("nan")])
def test_a_value_that_is_no_switch_or_finite_number_is_refused(value):
    assert setting_value_problem("max_autotune", value) == (
        f"'max_autotune' is given {value!r}: a setting takes true/false, a whole number or a number, never text, "
        "a list, a mapping or null")


@pytest.mark.parametrize("value", [True, False, 0, -3, 0.25])
def test_switches_and_finite_numbers_pass_as_values(value):
    assert setting_value_problem("max_autotune", value) is None


@pytest.mark.parametrize("current, value, accepted", [
    (True, False, True), (False, 1, False), (False, 0, False), (4, 8, True), (4, True, False), (4, 2.0, False),
    (0.5, 0.25, True), (0.5, 2, True), (0.5, False, False),
])
def test_torch_s_type_decides_the_value_s_type(current, value, accepted):
    # a boolean is never taken for a whole number (True == 1 in Python), a whole number is taken for a number
    problem = typed_setting_problem("some_setting", current, value)
    assert (problem is None) == accepted
    if not accepted:
        assert problem == (f"'some_setting' holds {type(current).__name__} in torch._inductor.config, "
                           f"and is given {type(value).__name__} {value!r}")


@pytest.mark.parametrize("current", ["g++", None, ["a"], {"a": 1}, ("x",)])
def test_a_setting_torch_holds_as_text_list_or_null_is_refused_whatever_the_value(current):
    assert typed_setting_problem("worker_start_method", current, True) == (
        f"'worker_start_method' holds {type(current).__name__} in torch._inductor.config: a study sets only settings "
        "that hold true/false or a number")


def test_the_name_and_value_rules_hold_at_apply_time_too():
    assert typed_setting_problem("cpp.cxx", True, False).startswith("'cpp.cxx' is a debug, trace")
    assert typed_setting_problem("max_autotune", False, "yes").startswith("'max_autotune' is given 'yes'")


def test_the_first_refused_setting_of_a_study_is_named_at_its_pointer():
    spec = {"run": {"inductor_config": {"triton.autotune_pointwise": False, "cpp.cxx": True, "a/b~c": 1}}}
    assert inductor_config_problem(spec) == ("/run/inductor_config/cpp.cxx", "inductor_config: " +
                                             setting_name_problem("cpp.cxx"))
    spec["run"]["inductor_config"] = {"max_autotune": True, "a/b~c": 1}
    assert inductor_config_problem(spec)[0] == "/run/inductor_config/a~1b~0c"
    assert inductor_config_problem({"run": {"inductor_config": {"max_autotune": True, "compile_threads": 4}}}) is None
    assert inductor_config_problem({}) is None
    assert inductor_config_problem({"run": {"modes": ["eager"]}}) is None


@pytest.mark.parametrize("settings, pointer, words", [
    ({"cpp.cxx": "/tmp/evil.sh"}, "/run/inductor_config/cpp.cxx",
     "'/tmp/evil.sh' is not of type 'boolean', 'integer', 'number'"),
    ({"trace.enabled": True}, "/run/inductor_config/trace.enabled",
     "inductor_config: 'trace.enabled' is a debug, trace, file, folder or program setting ('trace')"),
    ({"max_autotune": True, "cuda.cuda_cxx": 0}, "/run/inductor_config/cuda.cuda_cxx",
     "inductor_config: 'cuda.cuda_cxx' is a debug, trace, file, folder or program setting ('cxx')"),
    ({"trace.debug_dir": ["/etc"]}, "/run/inductor_config/trace.debug_dir", "is not of type"),
    ({"max_autotune": None}, "/run/inductor_config/max_autotune", "None is not of type"),
])
def test_check_and_render_refuse_the_study_file_at_the_setting_s_line(tmp_path, run_cli, settings, pointer, words):
    root = make_tiny_project(tmp_path / "project")
    study = root / "families" / "tiny" / "study.yaml"
    # each setting on a line of its own, its value (flow style) on the same line
    settings_lines = "".join(f"    {name}: {yaml.safe_dump(value, default_flow_style=True).splitlines()[0]}\n"
                             for name, value in settings.items())
    text = yaml.safe_dump(study_spec(), sort_keys=False) + "run:\n  modes: [eager, compile]\n  inductor_config:\n"
    study.write_text(text + settings_lines, encoding="utf-8")
    line = text.count("\n") + list(settings).index(pointer.rsplit("/", 1)[1]) + 1
    done = run_cli("check", "--root", root)
    assert done.exit_code == 1
    (finding,) = [text for text in done.out.splitlines() if text.startswith("families/tiny/study.yaml:")]
    assert finding.startswith(f"families/tiny/study.yaml:{line}: SG202 ") and words in finding
    assert finding.endswith(f"({pointer})")
    done = run_cli("render", "--root", root)
    assert done.exit_code == 2 and not (root / "families" / "tiny" / "README.md").exists()
    assert done.err.startswith("studygen: families/tiny/study.yaml:") and words in done.err


def test_a_name_that_is_no_dotted_identifier_and_a_word_value_are_named_in_full():
    assert setting_name_problem("a..b") == ("'a..b' is not a torch._inductor.config name (dotted identifiers, "
                                            "e.g. triton.autotune_pointwise)")
    assert inductor_config_problem({"run": {"inductor_config": {"max_autotune": "yes"}}}) == (
        "/run/inductor_config/max_autotune", "inductor_config: 'max_autotune' is given 'yes': a setting takes "
        "true/false, a whole number or a number, never text, a list, a mapping or null")
    # a run block or settings of the wrong shape are the schema's to refuse, not this rule's to trip over
    assert inductor_config_problem({"run": {"inductor_config": ["cpp.cxx"]}}) is None
    assert inductor_config_problem({"run": ["inductor_config"]}) is None
