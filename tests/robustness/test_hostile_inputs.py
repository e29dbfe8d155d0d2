"""Hostile inputs end fast with one line naming the file and the place:
special files are refused before anything opens them (a FIFO would wait
for a writer forever), study files may not use YAML aliases (an alias chain
expands exponentially), repeat a key or nest past the limit, a lone
surrogate is refused at its pointer, and a ``kernel_groups`` pattern that
could backtrack for ages on a long kernel name is matched by RE2 or refused."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest
import yaml

from studygen.collect import kernel_groups
from studygen.collect.kernel_groups import compile_rules, default_rules
from studygen.errors import RecordError
from studygen.records.kernel_rules import backtracking_risk
from tests.conftest import FIXTURES, REPO
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import make_tiny_project

STUDY = "families/tiny/study.yaml"
# one image with one box: ground truth collect coco accepts, so that only the other input is refused
GROUND_TRUTH = {"images": [{"id": 1, "width": 90, "height": 90}], "categories": [{"id": 1, "name": "thing"}],
                "annotations": [{"id": 1, "image_id": 1, "category_id": 1, "bbox": [10, 10, 50, 50], "area": 2500,
                                 "iscrowd": 0}]}
INPUTS = [("trtexec", "--log"), ("trtexec", "--times"), ("trtexec", "--profile"), ("trtexec", "--layer-info"),
          ("trtexec", "--plan"), ("torch-profile", "--trace"), ("coco", "--annotations"), ("coco", "--detections")]


@pytest.mark.parametrize("command, option", INPUTS)
def test_a_fifo_as_any_collector_input_is_refused_without_waiting_for_a_writer(tmp_path, command, option):
    os.mkfifo(tmp_path / "pipe")
    args = ["--family", "demo", "--job", "j", "--measurements", "m", option, "pipe"]
    if command == "coco":  # the other input of the two a real file, so that only the FIFO is refused
        (tmp_path / "gt.json").write_text(json.dumps(GROUND_TRUTH))
        args += ["--dataset", "d"] + (["--detections", "gt.json"] if option == "--annotations"
                                      else ["--annotations", "gt.json"])
    # timeout: a budget for the test run only (before the fix this waited forever), no figure asserted
    done = subprocess.run([sys.executable, "-m", "studygen", "collect", command, *args], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "studygen: pipe: is a FIFO (named pipe), not a regular file\n"
    assert not (tmp_path / "m").exists()


@pytest.fixture
def tiny(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project")
    assert run_cli("render", "--root", root).exit_code == 0
    return root


@pytest.mark.parametrize("make, why", [(os.mkfifo, "is a FIFO (named pipe), not a regular file"),
                                       (os.mkdir, "is a folder, not a file")])
@pytest.mark.parametrize("command", ["render", "check"])
def test_a_study_file_that_is_no_regular_file_is_named_as_such(tiny, run_cli, command, make, why):
    study = tiny / STUDY
    study.unlink()
    make(study)
    before = snapshot(tiny)
    done = run_cli(command, "tiny", "--root", tiny)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == f"studygen: {STUDY}: {why}\n"  # not "unknown family 'tiny'"
    assert snapshot(tiny) == before


def _check_with_study_text(tiny, run_cli, text: str):
    (tiny / STUDY).write_text(text, encoding="utf-8")
    return run_cli("check", "tiny", "--root", tiny)


def _study_text(tiny) -> str:
    return (tiny / STUDY).read_text(encoding="utf-8")


def test_yaml_aliases_in_a_study_file_are_refused_at_their_line(tiny, run_cli):
    # a billion-laughs chain: ten levels of ten aliases each expand to 10**10 items; refused on line 3
    chain = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] + [
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 11)]
    done = _check_with_study_text(tiny, run_cli, "\n".join(chain) + "\n" + _study_text(tiny))
    assert done.exit_code == 1
    assert done.out == (f"{STUDY}:2: SG202 malformed YAML: alias *a0: study files may not use aliases (write the "
                        "value out where it is needed)\n1 error(s), 0 warning(s)\n")


def test_a_yaml_merge_key_alias_is_refused_too(tiny, run_cli):
    done = _check_with_study_text(tiny, run_cli, "base: &base {k: 1}\nmore:\n  <<: *base\n" + _study_text(tiny))
    assert done.exit_code == 1 and done.out.startswith(f"{STUDY}:3: SG202 malformed YAML: alias *base: ")


def test_a_key_written_twice_in_a_study_file_is_refused_naming_both_lines(tiny, run_cli):
    text = _study_text(tiny)
    first = next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith("title:"))
    last = text.count("\n") + 1
    done = _check_with_study_text(tiny, run_cli, text + "title: another title\n")
    assert done.out == (f"{STUDY}:{last}: SG202 malformed YAML: duplicate key 'title' (first on line {first}): the "
                        "last would silently win\n1 error(s), 0 warning(s)\n")


@pytest.mark.parametrize("depth, refused", [(99, False), (100, True), (10000, True)])
def test_study_yaml_nested_past_the_limit_is_refused_not_a_recursion_error(tiny, run_cli, depth, refused):
    # the study mapping is level 1, so `deep:` holding `depth` lists reaches level depth + 1
    text = _study_text(tiny)
    done = _check_with_study_text(tiny, run_cli, text + "deep: " + "[" * depth + "]" * depth + "\n")
    assert done.exit_code == 1 and "Traceback" not in done.err
    line = text.count("\n") + 1
    if refused:
        assert done.out == (f"{STUDY}:{line}: SG202 malformed YAML: nested more than 100 levels deep (lists or "
                            "mappings); the limit is 100\n1 error(s), 0 warning(s)\n")
    else:  # parsed: the schema refuses the unknown key
        assert "nested more than" not in done.out and "'deep' was unexpected" in done.out


def test_a_lone_surrogate_in_a_study_file_is_refused_at_its_pointer(tiny, run_cli):
    text = _study_text(tiny).replace("summary: FP8 is not shipped for this family.",
                                     'summary: "FP8 is \\ud800 not shipped"')
    done = _check_with_study_text(tiny, run_cli, text)
    assert done.out == (f"{STUDY}:/decision/summary: SG202 a lone surrogate (\\ud800) in a string: not a Unicode "
                        "character, so not writable as UTF-8\n1 error(s), 0 warning(s)\n")
    done = run_cli("render", "tiny", "--root", tiny)
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: {STUDY}:/decision/summary: a lone surrogate (\\ud800) in a string: not a "
                        "Unicode character, so not writable as UTF-8\n")


def test_a_lone_surrogate_in_a_record_is_sg202_at_its_pointer(tiny, run_cli):
    record = tiny / "measurements" / "tiny" / "job-a.json"
    text = record.read_text(encoding="utf-8").replace('"gpu": "NVIDIA H100 80GB HBM3"', '"gpu": "NVIDIA \\udc80"')
    record.write_text(text, encoding="utf-8")
    before = snapshot(tiny)
    done = run_cli("check", "tiny", "--root", tiny, "--format", "json")
    problems = [(f["code"], f["file"], f["message"]) for f in json.loads(done.out) if f["code"] == "SG202"]
    assert problems == [("SG202", "measurements/tiny/job-a.json", "a lone surrogate (\\udc80) in a string: not a "
                         "Unicode character, so not writable as UTF-8")]
    done = run_cli("render", "tiny", "--root", tiny)
    assert done.exit_code == 2 and "UnicodeEncodeError" not in done.err
    assert done.err == ("studygen: measurements/tiny/job-a.json:/provenance/gpu: a lone surrogate (\\udc80) in a "
                        "string: not a Unicode character, so not writable as UTF-8\n")
    assert snapshot(tiny) == before


def test_a_lone_surrogate_in_a_collector_input_is_refused_at_its_pointer(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    trace = json.loads((FIXTURES / "trtexec" / "detr-r50_profile.json").read_text(encoding="utf-8"))
    text = json.dumps(trace).replace('"name": "', '"name": "\\ud83d', 1)
    (tmp_path / "profile.json").write_text(text, encoding="utf-8")
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--measurements", "m",
                   "--profile", "profile.json")
    assert (done.exit_code, done.out) == (2, "")
    assert done.err.startswith("studygen: profile.json:/1/name: a lone surrogate (\\ud83d) in a string"), done.err
    assert not (tmp_path / "m").exists()


KINETO = FIXTURES / "torch_profiler" / "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"


@pytest.mark.parametrize("place", ["kernel name", "args key", "top-level value"])
def test_a_lone_surrogate_in_a_profiler_trace_is_refused_at_its_pointer(tmp_path, run_cli, monkeypatch, place):
    # issue 24, item 7: a kernel name "sm90\udc80" reached RE2 and the writer as a UnicodeEncodeError
    monkeypatch.chdir(tmp_path)
    trace = json.loads(gzip.decompress(KINETO.read_bytes()))
    index = next(i for i, event in enumerate(trace["traceEvents"]) if event.get("cat") == "kernel")
    kernel = trace["traceEvents"][index]
    if place == "kernel name":
        kernel["name"] = "sm90\udc80" + kernel["name"]
        pointer = f"/traceEvents/{index}/name"
    elif place == "args key":
        kernel["args"]["note\ud800"] = 1
        pointer = f"/traceEvents/{index}/args/note\\ud800"
    else:
        trace["deviceProperties"][0]["name"] = "H100 \udfff"
        pointer = "/deviceProperties/0/name"
    (tmp_path / "trace.json").write_text(json.dumps(trace), encoding="utf-8")  # json spells each as \uXXXX
    done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "j", "--variant", "v",
                   "--measurements", "m", "--trace", "trace.json")
    assert (done.exit_code, done.out) == (2, "")
    surrogate = {"kernel name": "dc80", "args key": "d800", "top-level value": "dfff"}[place]
    assert done.err == (f"studygen: trace.json:{pointer}: a lone surrogate (\\u{surrogate}) in a string: not a "
                        "Unicode character, so not writable as UTF-8\n")
    assert not (tmp_path / "m").exists()


# ---- kernel_groups patterns from study files ----

CATASTROPHIC = ["^(a+)+$", "(a|aa)*b", "(x+x+)+y", "(?:[a-z]+_?)*$"]
CUBIC = [".*a.*b.*c", "a.*b.*c"]  # the second unanchored: search tries every start
# issue 24: a pattern Python's re runs may cost linear time at most (two unbounded repeats in a row,
# the unanchored start counted, took (?<!q)a.*b past a minute on a 200,000-character name)
QUADRATIC = ["a.*b", "fc\\d*", "(?<![a-z])conv.*fwd", "^(\\w+)_\\1"]
SAFE = ["gemm", "^sm90_.*gemm", "(?<![a-z])conv(?!_?encoder)", "fc\\d", "^(?=.*conv)(?!.*encoder)", "(?<=_)(a)\\1"]
LONG_NAME = "a" * 40 + "!"  # ^(a+)+$ tries ~2**40 ways on it in Python's re


@pytest.mark.parametrize("pattern", CATASTROPHIC)
def test_static_check_refuses_nested_repeats(pattern):
    assert backtracking_risk(pattern) == ("a repeated part that itself repeats or alternates (as in (a+)+ or "
                                          "(a|ab)*), exponential")


@pytest.mark.parametrize("pattern", CUBIC)
def test_static_check_refuses_three_unbounded_repeats_in_a_row(pattern):
    assert backtracking_risk(pattern) == ("2 unbounded repeats in a row (a backreference counts as one) after an "
                                          "unanchored start, a cost growing with the name's length to the power 3, "
                                          "where linear is the most allowed"
                                          if not pattern.startswith(".*a") else
                                          "3 unbounded repeats in a row (a backreference counts as one) after an "
                                          "unanchored start, a cost growing with the name's length to the power 4, "
                                          "where linear is the most allowed")


@pytest.mark.parametrize("pattern", QUADRATIC)
def test_static_check_refuses_a_cost_quadratic_in_the_name(pattern):
    anchored = pattern.startswith("^")
    assert backtracking_risk(pattern) == (
        f"{2 if anchored else 1} unbounded {'repeats in a row' if anchored else 'repeat'} (a backreference counts as "
        f"one){'' if anchored else ' after an unanchored start'}, a cost growing with the name's length to the power "
        "2, where linear is the most allowed")


@pytest.mark.parametrize("pattern", ["(.+)\\1x", "(?<=a)(.*)\\1b", "(?=(.*)\\1x)", "(?<!q)a.*b"])
def test_a_pattern_re2_cannot_run_that_would_hang_on_a_long_name_is_refused(pattern):
    # before: accepted, and a search took minutes: the first three on a name of 8,000 a's and a '!'
    # (backreferences went uncounted), the last on one of 200,000 (two unbounded repeats in a row were allowed)
    with pytest.raises(RecordError) as raised:
        compile_rules([(pattern, "G")], "s.yaml")
    assert "RE2 cannot run it (a lookaround or backreference), so rewrite it without that" in raised.value.line()


@pytest.mark.parametrize("pattern", SAFE + [p for p, _ in kernel_groups.DEFAULT_RULES])
def test_static_check_passes_the_default_rules_and_plain_patterns(pattern):
    assert backtracking_risk(pattern) is None


def test_with_re2_a_catastrophic_pattern_is_matched_in_linear_time():
    rules = compile_rules([("^(a+)+$", "A"), ("gemm", "G")], source="s.yaml")
    assert type(rules.rules[0].compiled).__module__.startswith("re2")
    assert rules.classify(LONG_NAME) == ("other", False)  # ends at once (a hang before)
    assert rules.classify("a" * 40) == ("A", True)
    assert rules.classify("SM90_GEMM") == ("G", True)  # case-insensitive in RE2 as in re


def test_with_re2_a_lookaround_goes_to_re_after_the_static_check():
    rules = compile_rules([("(?<![a-z])conv", "C")], source="s.yaml")
    assert type(rules.rules[0].compiled.full.compiled).__module__ == "re"  # behind the test for "conv" (NeedsPattern)
    assert rules.rules[0].compiled.needs == ("conv",)
    assert [rules.classify(n)[0] for n in ("my_conv", "deconv", "CONV2d")] == ["C", "other", "C"]
    assert _refusal([("ok", "A"), ("(?<![a-z])(a+)+$", "B")], "s.yaml") == (
        "s.yaml:/kernel_groups/1/pattern: regular expression '(?<![a-z])(a+)+$' could take very long on a long "
        "name: a repeated part that itself repeats or alternates (as in (a+)+ or (a|ab)*), exponential; RE2 cannot "
        "run it (a lookaround or backreference), so rewrite it without that")


def _refusal(pairs, source: str) -> str:
    with pytest.raises(RecordError) as raised:
        compile_rules(pairs, source=source)
    return raised.value.line()


@pytest.fixture
def without_re2(monkeypatch):
    """As on a machine where the google-re2 package is missing (import fails)."""
    monkeypatch.setitem(sys.modules, "re2", None)


def test_without_re2_a_catastrophic_pattern_is_refused_naming_the_study_file(without_re2):
    assert _refusal([("gemm", "G"), ("^(a+)+$", "A")], "families/x/study.yaml") == (
        "families/x/study.yaml:/kernel_groups/1/pattern: regular expression '^(a+)+$' could take very long on a "
        "long name: a repeated part that itself repeats or alternates (as in (a+)+ or (a|ab)*), exponential; the "
        "google-re2 package is not installed, so rewrite it without that")


def test_without_re2_the_default_rules_group_as_with_it(without_re2):
    names = ["sm90_xmma_gemm_f16f16", "my_conv2d_kernel", "Reformatting CopyNode for Input", "layer_norm_fwd",
             "grid_sampler_2d", "dequantize_fp8", "mystery"]
    fallback = default_rules()
    # a rule behind its words' test (NeedsPattern) holds its re pattern in .full
    engines = [rule.compiled.full.compiled if hasattr(rule.compiled, "full") else rule.compiled for rule in fallback.rules]
    assert all(type(engine).__module__ == "re" for engine in engines)
    grouped = [fallback.classify(name) for name in names]
    assert grouped == [("GEMM/MatMul", True), ("Conv", True), ("other", True), ("normalization and elementwise", True),
                       ("GridSample", True), ("Quantize/Dequantize", True), ("other", False)]


def test_a_study_with_a_catastrophic_pattern_is_refused_by_collect_without_re2(tmp_path, run_cli, monkeypatch,
                                                                             without_re2):
    root = make_tiny_project(tmp_path / "project", records=[])
    study = root / STUDY
    spec = yaml.safe_load(study.read_text(encoding="utf-8"))
    spec["kernel_groups"] = [{"pattern": "^(a+)+$", "group": "A"}]
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    monkeypatch.chdir(root)
    done = run_cli("collect", "trtexec", "--family", "tiny", "--job", "j", "--variant", "fp16",
                   "--profile", FIXTURES / "trtexec" / "detr-r50_profile.json")
    assert (done.exit_code, done.out) == (2, "")
    # refused as the study file is read, at the rule's line, before any input is read
    line = study.read_text(encoding="utf-8").splitlines().index("- pattern: ^(a+)+$") + 1
    assert done.err.startswith(f"studygen: {STUDY}:{line}: regular expression '^(a+)+$' could "
                               "take very long on a long name"), done.err
    assert done.err.endswith("(/kernel_groups/0/pattern)\n")
    assert snapshot(root / "measurements") == {"tiny/datasets/tiny-val-8.json": (
        root / "measurements" / "tiny" / "datasets" / "tiny-val-8.json").read_bytes()}


def test_check_refuses_a_study_whose_rule_collect_refuses_where_it_only_checked_that_the_rule_parses(tmp_path, run_cli,
                                                                                                       monkeypatch):
    # a lookbehind keeps RE2 out and fc\\d* is a second unbounded repeat after the unanchored start: the rule parses,
    # so check loaded the study and its rules went unread (SG210 and SG223 were skipped), while collect refused it
    root = make_tiny_project(tmp_path / "project")
    study = root / STUDY
    spec = yaml.safe_load(study.read_text(encoding="utf-8"))
    spec["kernel_groups"] = [{"pattern": "gemm", "group": "GEMM"},
                             {"pattern": "(?<![a-z])fc\\d*(?![a-z])", "group": "GEMM"}]
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    line = study.read_text(encoding="utf-8").splitlines().index("- pattern: (?<![a-z])fc\\d*(?![a-z])") + 1
    monkeypatch.chdir(root)
    done = run_cli("check")
    assert done.exit_code == 1
    assert done.out.startswith(f"{STUDY}:{line}: SG202 regular expression '(?<![a-z])fc\\\\d*(?![a-z])' could take very "
                               "long on a long name: 1 unbounded repeat"), done.out
    assert "(/kernel_groups/1/pattern)" in done.out.splitlines()[0]
    # the same rule without the repeat (equivalent here: a digit after fc is no letter either) is taken
    spec["kernel_groups"][1]["pattern"] = "(?<![a-z])fc(?![a-z])"
    study.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert "SG202" not in run_cli("check").out


# ---- duplicate keys in collector inputs: json keeps the last one silently ----

def _with_duplicate(source, key: str, value: str, *, first_value_only: bool = False) -> tuple[str, int]:
    """``source``'s text with ``"key": value`` added right after the first
    ``"key": …`` pair, and the line it is on."""
    text = source if isinstance(source, str) else source.read_text(encoding="utf-8")
    if first_value_only:
        text = text[:text.index("]") + 1] + "\n"
    at = text.index(f'"{key}"')
    comma = text.index(",", at)
    return text[:comma] + f', "{key}": {value}' + text[comma:], text[:comma].count("\n") + 1


@pytest.mark.parametrize("option, fixture, key, value, first_only", [
    ("--times", "trt7_resnet50-int8_times-concatenated.json", "computeMs", "999", True),
    ("--profile", "trt8.6_resnet50-int8_profile.json", "averageMs", "999", False),
    ("--layer-info", "trt8.6_resnet50-int8_layer-info-detailed.json", "Name", '"other"', False),
])
def test_a_key_repeated_in_a_trtexec_export_is_refused_at_its_line(tmp_path, run_cli, monkeypatch, option, fixture,
                                                                   key, value, first_only):
    monkeypatch.chdir(tmp_path)
    text, line = _with_duplicate(FIXTURES / "trtexec" / fixture, key, value, first_value_only=first_only)
    (tmp_path / "input.json").write_text(text, encoding="utf-8")
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--measurements", "m", option, "input.json")
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: input.json:{line}: malformed JSON: duplicate key {key!r} in one object (the last "
                        "would silently win)\n")
    assert not (tmp_path / "m").exists()


def test_a_repeated_dur_or_trace_events_in_a_profiler_trace_is_refused(tmp_path, run_cli, monkeypatch):
    import gzip

    monkeypatch.chdir(tmp_path)
    trace = gzip.decompress((FIXTURES / "torch_profiler" / "alexnet_kineto_trace.json.gz").read_bytes()).decode()
    text, line = _with_duplicate(trace, "dur", "99999")
    (tmp_path / "dur.json").write_text(text, encoding="utf-8")
    at = trace.index('"traceEvents"')
    (tmp_path / "events.json").write_text(trace[:at] + '"traceEvents": [], ' + trace[at:], encoding="utf-8")
    for name, expected in (("dur.json", f"dur.json:{line}: malformed JSON: duplicate key 'dur' in one object"),
                           ("events.json", "events.json:/traceEvents: malformed JSON: duplicate key 'traceEvents'")):
        done = run_cli("collect", "torch-profile", "--family", "demo", "--job", "j", "--measurements", "m",
                       "--trace", name)
        assert (done.exit_code, done.out) == (2, "")
        assert done.err == f"studygen: {expected} (the last would silently win)\n"
    assert not (tmp_path / "m").exists()


def test_a_repeated_key_in_coco_detections_is_refused(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gt.json").write_text(json.dumps(GROUND_TRUTH), encoding="utf-8")
    (tmp_path / "dt.json").write_text('[\n{"image_id": 1, "category_id": 1, "bbox": [0, 0, 1, 1],\n "score": 0.5, '
                                      '"score": 0.9}\n]\n', encoding="utf-8")
    done = run_cli("collect", "coco", "--family", "demo", "--job", "j", "--measurements", "m", "--dataset", "d",
                   "--annotations", "gt.json", "--detections", "dt.json")
    assert (done.exit_code, done.out) == (2, "")
    # collect coco reads detections with the same duplicate-key refusal as every collector input: the line of the repeat
    assert done.err == "studygen: dt.json:3: malformed JSON: duplicate key 'score' in one object (the last would silently win)\n"


def test_second_key_position_finds_the_repeat_in_its_own_object_only():
    from studygen.collect.inputs import second_key_position

    text = '{"a": {"k": 1}, "b": [{"k": "}{\\"k\\":"}, {"k": 2}], "c": {"x": 1, "k": 3, "k": 4}}'
    assert second_key_position(text, 0, "k") == text.rindex('"k"')
    assert second_key_position(text, 0, "x") is None
    assert second_key_position('[{"k": 1}, {"k": 2}]', 0, "k") is None


@pytest.mark.parametrize("escape, code", [("\\ud800", "d800"), ("\\uD800", "d800"), ("\\uDFFF", "dfff"),
                                          ("\\udBfF", "dbff")])
def test_every_spelling_of_a_lone_surrogate_escape_in_a_record_is_sg202(tiny, run_cli, escape, code):
    # the loader's shortcut skips the walk for texts without an escape: it must see every case
    record = tiny / "measurements" / "tiny" / "job-a.json"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace('"gpu": "NVIDIA H100 80GB HBM3"', f'"gpu": "NVIDIA H100{escape}"'), encoding="utf-8")
    done = run_cli("check", "tiny", "--root", tiny, "--format", "json")
    problems = [(f["code"], f["file"], f["pointer"], f["message"]) for f in json.loads(done.out) if f["code"] == "SG202"]
    assert problems == [("SG202", "measurements/tiny/job-a.json", "/provenance/gpu", f"a lone surrogate (\\u{code}) "
                         "in a string: not a Unicode character, so not writable as UTF-8")]


def test_a_surrogate_pair_escape_in_a_record_is_a_character_not_a_problem(tiny, run_cli):
    record = tiny / "measurements" / "tiny" / "job-a.json"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace('"gpu": "NVIDIA H100 80GB HBM3"', '"gpu": "NVIDIA H100 \\ud83d\\uDE00"'),
                      encoding="utf-8")
    done = run_cli("check", "tiny", "--root", tiny, "--format", "json")
    assert [f for f in json.loads(done.out) if f["code"] == "SG202"] == []
    assert run_cli("render", "tiny", "--root", tiny).exit_code == 0
    assert "| H100 \U0001f600 |" in (tiny / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
