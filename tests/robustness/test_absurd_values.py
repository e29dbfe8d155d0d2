"""Absurd figures in records and study files (attack round): numbers no
measurement or setting can hold are refused by the schemas' bounds or a
stated limit, one line naming the file and place; render and check neither
crash, hang nor print them."""

from __future__ import annotations

import json

import pytest

from studygen.records.jsonpos import line_of_pointer
from tests.robustness.snapshot import snapshot
from tests.robustness.tiny import JOB_ID, make_tiny_project

STUDY = "families/tiny/study.yaml"
RECORD = f"measurements/tiny/{JOB_ID}.json"


@pytest.fixture
def tiny(tmp_path, run_cli):
    root = make_tiny_project(tmp_path / "project")
    assert run_cli("render", "--root", root).exit_code == 0
    return root


def _set(document: dict, pointer: str, value) -> None:
    *parents, last = pointer.strip("/").split("/")
    node = document
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    node[int(last) if isinstance(node, list) else last] = value


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


# (pointer, value, the message, [the place below the pointer]): each value passed the schemas before
RECORD_CASES = [
    ("/results/0/value_ms", 1e308, "1e+308 is greater than the maximum of 3600000"),
    ("/results/0/value_ms", 3600000.5, "3600000.5 is greater than the maximum of 3600000"),
    ("/results/0/throughput_qps", 1e300, "1e+300 is greater than the maximum of 1000000000"),
    ("/results/0/batch", 10**20, "100000000000000000000 is greater than the maximum of 1048576"),
    ("/results/0/distribution", {"repeats": 3, "repeat_medians_ms": [2.5] * 100_001},
     "holds 100001 items; the schema allows at most 100000", "/repeat_medians_ms"),
    ("/results/0/distribution", {"repeats": 3, "cv": 5000.0}, "5000.0 is greater than the maximum of 1000", "/cv"),
    ("/provenance/run_wall_s", 1e9, "1000000000.0 is greater than the maximum of 604800"),
]


@pytest.mark.parametrize("command", ["render", "check"])
@pytest.mark.parametrize("pointer, value, message, below", [(*case, "")[:4] for case in RECORD_CASES])
def test_a_figure_past_its_bound_is_refused_at_its_pointer(tiny, run_cli, command, pointer, value, message, below):
    record = json.loads((tiny / RECORD).read_text())
    _set(record, pointer, value)
    (tiny / RECORD).write_text(json.dumps(record, indent=2) + "\n")
    before = snapshot(tiny)
    done = run_cli(command, "tiny", "--root", tiny)
    assert "Traceback" not in done.err
    if command == "render":
        (line,) = done.err.splitlines()
        # as check names it: the line where the figure sits, its pointer after the message
        at = line_of_pointer((tiny / RECORD).read_text(), pointer + below)
        assert line.startswith(f"studygen: {RECORD}:{at}: ") and line.endswith(f" ({pointer}{below})")
    else:
        (line,) = [line for line in done.out.splitlines() if line.startswith(RECORD)]
        assert " SG202 " in line
    assert message in line and pointer + below in line
    assert done.exit_code == (2 if command == "render" else 1)
    assert snapshot(tiny) == before


def test_the_bounds_admit_the_largest_physical_figure(tiny, run_cli):
    record = json.loads((tiny / RECORD).read_text())
    _set(record, "/results/0/value_ms", 3600000)  # an hour, the bound itself
    (tiny / RECORD).write_text(json.dumps(record, indent=2) + "\n")
    assert run_cli("check", "tiny", "--root", tiny).out.count("SG202") == 0


@pytest.mark.parametrize("value", [".inf", "-.inf", ".nan", ".NaN", "+.INF"])
@pytest.mark.parametrize("key", ["anomaly_factor", "tolerances"])
def test_yaml_infinity_and_not_a_number_are_refused_at_their_line(tiny, run_cli, key, value):
    # before: anomaly_factor: .nan passed the schema (NaN compares false) and silently turned SG207 off
    text = (tiny / STUDY).read_text()
    text += f"{key}: {value}\n" if key == "anomaly_factor" else f"{key}:\n  latency: {value}\n"
    (tiny / STUDY).write_text(text)
    done = run_cli("check", "tiny", "--root", tiny)
    assert done.exit_code == 1 and "Traceback" not in done.err
    assert done.out == (f"{STUDY}:{_line_of(text, value)}: SG202 malformed YAML: {value!r} is not a finite number (no "
                        "figure or setting is infinite or not a number)\n1 error(s), 0 warning(s)\n")


def test_a_study_file_past_the_stated_limit_is_refused_before_parsing(tiny, run_cli):
    # before: a 5 MB flow list kept check busy 80 s before its first finding
    text = (tiny / STUDY).read_text() + "not_measured: [" + ", ".join(["{what: x, why: y}"] * 20_000) + "]\n"
    (tiny / STUDY).write_text(text)
    size = len(text.encode())
    done = run_cli("check", "tiny", "--root", tiny)
    assert done.exit_code != 0 and "Traceback" not in done.err
    assert f"{STUDY}: " in done.out + done.err
    assert f"{size} bytes" in done.out + done.err or "262144" in done.out + done.err


def test_an_absurd_figure_in_a_collected_log_is_refused_at_its_log_line(tmp_path, run_cli, monkeypatch):
    # before: "m/demo/j.json:/results/3/statistics_ms/max: ...", a place in a file that was never written
    from tests.conftest import FIXTURES

    lines = (FIXTURES / "trtexec" / "trt10.16_build-and-run.log").read_text(encoding="utf-8").split("\n")
    number = next(n for n, line in enumerate(lines, 1) if "] GPU Compute Time: min = " in line)
    lines[number - 1] = lines[number - 1].replace("max = 0.140381 ms", "max = 9e307 ms")
    (tmp_path / "big.log").write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = run_cli("collect", "trtexec", "--family", "demo", "--job", "j", "--variant", "fp32", "--log", "big.log",
                   "--measurements", "m")
    assert (done.exit_code, done.out) == (2, "")
    assert done.err == (f"studygen: big.log:{number}: 9e+307 is greater than the maximum of 3600000 "
                        "(/results/3/statistics_ms/max of m/demo/j.json); nothing written\n")
    assert not (tmp_path / "m" / "demo" / "j.json").exists()


@pytest.mark.parametrize("command", ["render", "check"])
def test_a_record_nested_past_what_the_parser_reads_is_named_at_the_line_it_passes_the_limit(tiny, run_cli, command):
    # before: "measurements/tiny/job-a.json: malformed JSON: nested too deeply to read (...)", no line
    text = (tiny / RECORD).read_text()
    line = _line_of(text, '"value_ms": 2.5')
    # value_ms sits at level 3 (the record, results, the result): its lists open level 4 on, one per line, so
    # level 101 opens 97 lines below
    deep = "[\n" * 150 + "[" * 100_000 + "]" * 100_000 + "]" * 150
    (tiny / RECORD).write_text(text.replace('"value_ms": 2.5', f'"value_ms": {deep}', 1))
    done = run_cli(command, "tiny", "--root", tiny)
    told = f"{RECORD}:{line + 97}: malformed JSON: nested too deeply to read (the limit is 100 levels)"
    if command == "render":
        assert (done.exit_code, done.err) == (2, f"studygen: {told}\n")
    else:
        assert done.exit_code == 1 and told.replace(": malformed", ": SG202 malformed", 1) in done.out.splitlines()
