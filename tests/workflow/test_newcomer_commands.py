"""What a newcomer meets around the commands (issue 22, "Other"): collect
outside any project, a value typo in ``rows``, an empty family under
``check`` and ``render``, indexing ``study.figures(...)`` in a template, and
the next step ``new`` suggests."""

from __future__ import annotations

import pytest

from ..conftest import FIXTURES

LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"  # "Precision: FP32"


def _project(tmp_path, run_cli, monkeypatch, *families: tuple[str, str]):
    monkeypatch.chdir(tmp_path)
    for family, variants in families:
        assert run_cli("new", family, "--variants", variants, "--revision", "353a4d73").exit_code == 0
    return tmp_path


def _collect(run_cli, family="demo", job="h100-a", *extra):
    return run_cli("collect", "trtexec", "--family", family, "--job", job, "--variant", "fp32", "--log", LOG,
                   "--commit", "353a4d73", *extra)


# --- collect outside any project ------------------------------------------------------------------

def test_collect_outside_any_project_is_refused_unless_told_where(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused = _collect(run_cli)
    assert (refused.exit_code, refused.out) == (2, "")
    assert refused.err == ("studygen: no project here: no families/ folder in or above "
                           f"{tmp_path}; run studygen new FAMILY first, give --root DIR (the project's folder), "
                           "or --measurements DIR for a record that belongs to no study\n")
    assert list(tmp_path.iterdir()) == []  # nothing written, no folder made
    elsewhere = tmp_path / "records"
    kept_apart = _collect(run_cli, "demo", "h100-a", "--measurements", elsewhere)
    assert kept_apart.exit_code == 0, kept_apart.err
    assert (elsewhere / "demo" / "h100-a.json").is_file()


def test_collect_with_root_writes_into_that_project(tmp_path, run_cli, monkeypatch):
    project = tmp_path / "project"
    assert run_cli("new", "demo", "--variants", "fp32", "--root", project).exit_code == 0
    away = tmp_path / "away"
    away.mkdir()
    monkeypatch.chdir(away)
    done = _collect(run_cli, "demo", "h100-a", "--root", project)
    assert done.exit_code == 0, done.err
    assert (project / "measurements" / "demo" / "h100-a.json").is_file()
    assert list(away.iterdir()) == []
    unknown = _collect(run_cli, "other", "h100-a", "--root", project)
    assert unknown.exit_code == 2 and "unknown --family 'other'" in unknown.err


# --- rows: a value typo --------------------------------------------------------------------------

def test_rows_value_typo_lists_the_values_and_exits_2(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, ("demo", "fp32"))
    assert _collect(run_cli).exit_code == 0
    typo = run_cli("rows", "demo", "kind=latncy")
    assert (typo.exit_code, typo.out) == (2, "")
    assert typo.err == "studygen: no row has kind 'latncy'; kind values: latency, plan_size\n"
    both = run_cli("rows", "demo", "kind=plan_size", "metric=gpu_compute")  # each value exists, never together
    assert (both.exit_code, both.out) == (0, "no rows match\n")


# --- an empty family: check and render ----------------------------------------------------------

def test_check_of_a_family_without_records_says_to_collect(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, ("emptyfam", "fp32"))
    result = run_cli("check", "emptyfam")
    assert result.exit_code == 1
    assert "SG202 no records: measurements/emptyfam/ holds no *.json run record" in result.out
    assert "fix the file so it validates" not in result.out
    assert ("hint: collect its first records: studygen collect trtexec|torch-profile|coco --family emptyfam "
            "--job JOB ...") in result.out


def test_render_renders_the_other_families_and_reports_the_empty_one(tmp_path, run_cli, monkeypatch):
    _project(tmp_path, run_cli, monkeypatch, ("demo", "fp32"), ("emptyfam", "fp32"))
    assert _collect(run_cli).exit_code == 0
    result = run_cli("render")
    assert result.exit_code == 1
    assert "wrote families/demo/README.md" in result.out
    assert result.err == ("studygen: families/emptyfam/study.yaml: not rendered: no records: measurements/emptyfam/ "
                          "holds no *.json run record (collect its first records)\n")
    assert (tmp_path / "families/demo/README.md").is_file()
    assert not (tmp_path / "families/emptyfam/README.md").exists()
    named = run_cli("render", "emptyfam")
    assert named.exit_code == 1 and "not rendered: no records" in named.err
    # an invalid record still stops every family: nothing is written
    (tmp_path / "measurements/demo/broken.json").write_text("{", encoding="utf-8")
    (tmp_path / "families/demo/README.md").unlink()
    broken = run_cli("render")
    assert broken.exit_code == 2 and not (tmp_path / "families/demo/README.md").exists()


# --- study.figures(...)[i] in a template --------------------------------------------------------

@pytest.mark.parametrize(("expression", "printed"), [
    # the log's 0.0361328 ms as the README prints it: 4 significant digits
    ('study.figures(kind="latency", metric="gpu_compute")[0]', "0.03613 ms"),
    ('study.figures(kind="latency", metric="gpu_compute")[-1].number()', "0.03613"),
    ('study.figures(kind="plan_size")[0].job_id', "h100-a"),
])
def test_a_selection_is_indexed_like_a_list(tmp_path, run_cli, monkeypatch, expression, printed):
    _template(tmp_path, run_cli, monkeypatch, "{{ " + expression + " }}")
    result = run_cli("render", "demo")
    assert result.exit_code == 0, result.err
    assert f"FIGURE: {printed}\n" in (tmp_path / "families/demo/README.md").read_text()


def test_an_index_past_the_selection_names_the_count_not_a_type(tmp_path, run_cli, monkeypatch):
    _template(tmp_path, run_cli, monkeypatch, '{{ study.figures(kind="plan_size")[3] }}')
    result = run_cli("render", "demo")
    assert result.exit_code == 1
    assert "study.figures(...) selected 1 row: there is no row [3]" in result.err
    assert "RowSet" not in result.err and "object" not in result.err


def _template(tmp_path, run_cli, monkeypatch, body: str):
    _project(tmp_path, run_cli, monkeypatch, ("demo", "fp32"))
    assert _collect(run_cli).exit_code == 0
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates/demo.md.j2").write_text(
        '{% extends "studygen/generic.md.j2" %}\n{% block header %}{{ super() }}\nFIGURE: ' + body +
        "\n{% endblock %}\n", encoding="utf-8")
    study = tmp_path / "families/demo/study.yaml"
    study.write_text(study.read_text().replace("template: studygen/generic.md.j2", "template: demo.md.j2"))


# --- new: the next step -------------------------------------------------------------------------

def test_new_suggests_the_collector_of_its_backend(tmp_path, run_cli):
    pytorch = run_cli("new", "eager", "--variants", "fp32,bf16", "--backend", "pytorch", "--root", tmp_path)
    assert pytorch.exit_code == 0, pytorch.err
    assert "collect trtexec" not in pytorch.err
    # with --software torch=VERSION: a Kineto trace names no torch version, and check's SG209 asks for it (a new
    # user's trial, session 26: the command as printed left check with an error per record)
    assert ("next: studygen collect torch-profile --family eager --job JOB --variant fp32 --trace TRACE --mode eager "
            "--software torch=VERSION --commit COMMIT") in pytorch.err
    tensorrt = run_cli("new", "engine", "--variants", "fp16,int8", "--backend", "tensorrt", "--root", tmp_path)
    assert ("next: studygen collect trtexec --family engine --job JOB --variant fp16 --log LOG --commit COMMIT"
            in tensorrt.err) and "torch-profile" not in tensorrt.err
    neither = run_cli("new", "any", "--variants", "fp16", "--root", tmp_path)
    for collector in ("collect trtexec", "collect torch-profile", "collect coco"):
        assert collector in neither.err  # without --backend: every ingest collector, each with what it reads
    # agreement figures name their variants in the file: the line names none
    assert "  studygen collect agreement --family any --job JOB --input FIGURES.json --commit COMMIT  " in neither.err


def test_the_collect_command_new_prints_leaves_no_waiver_matching_nothing(tmp_path, run_cli, monkeypatch):
    # new --backend pytorch printed a collect command with --commit COMMIT beside a waiver of "has no repository
    # commit" in the study file: followed as printed, check said the waiver matched no finding (SG216, an error)
    from ..conftest import SHARED

    monkeypatch.chdir(tmp_path)
    (tmp_path / "families").mkdir()
    trace = SHARED / "fixtures/torch_profiler/cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
    steps = [run_cli("new", "tp", "--variants", "fp32", "--backend", "pytorch"),
             run_cli("collect", "torch-profile", "--family", "tp", "--job", "j1", "--variant", "fp32", "--trace", trace,
                     "--mode", "eager", "--commit", "0123abc", "--software", "torch=2.4.1"),
             run_cli("render", "tp"), run_cli("check", "tp")]
    assert "--mode eager --software torch=VERSION --commit COMMIT, then" in steps[0].err
    assert [step.exit_code for step in steps] == [0, 0, 0, 0], [step.out + step.err for step in steps]
    assert "SG216" not in steps[3].out and "repository commit" not in steps[3].out
    # new's three placeholders, no revision; and SG226: the trace's kernels are bf16, the variant fp32 (session 28)
    assert steps[3].out.endswith("0 error(s), 4 warning(s), 1 waived\n")
    assert " SG226 [warning] kernel time of fp32 (declared fp32, job j1): at least 58 of the 60 listed kernel launches name bf16" \
        in steps[3].out
    # once ready to publish, a record collected without --commit is an error again
    study = tmp_path / "families/tp/study.yaml"
    study.write_text(study.read_text().replace("status: draft", "status: ready"))
    (tmp_path / "measurements/tp/j1.json").write_text(
        (tmp_path / "measurements/tp/j1.json").read_text().replace('"repository_commit": "0123abc"',
                                                                   '"repository_commit": null'))
    ready = run_cli("check", "tp")
    assert ("measurements/tp/j1.json:8: SG209 job j1: collected record has no repository commit "
            "(/provenance/repository_commit)") in ready.out.splitlines()
