"""Property-based tests (hypothesis): every input to ``check`` and ``lint``
ends in findings or a clean one-line error, never a traceback or an internal
error, and valid generated input is never refused.

Profiles (tests/conftest.py): "ci" by default, a few hundred examples over
this file; ``--hypothesis-profile=long`` runs at least 1000 per test.
Commands run in-process through :func:`studygen.cli.run`.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from studygen.records.schemas import validator
from studygen.render.charts import LAYOUT_COLLAPSED_NOTE
from tests.robustness import strategies as gen
from tests.robustness.tiny import FAMILY, dataset, make_tiny_project, run_record, study_spec

PROPERTY_TEMPLATE = """\
{{ generated_note }}

# {{ study.title }}

{{ study.decision.summary }}

## Every figure

{{ study.list_table(study.figures(), columns=("job_id", "gpu", "tensorrt", "shape", "variant", "group", "value")) }}

## Same measurement in two jobs

{{ study.repeated_measurements() }}

## Figures

{% for name, markdown in figures | dictsort %}
{{ markdown }}

{% endfor %}
## Side findings

{% for line in study.precision_inversions() %}
- {{ line }}
{% endfor %}

## Known gaps

{% for gap in study.known_gaps() %}
- {{ gap }}
{% endfor %}
{% for job, note in study.record_notes() %}
- {{ job }}: {{ study.escape(note) }}
{% endfor %}

## Image sets

{{ study.dataset_table() }}

## Provenance

{{ study.provenance_table() }}
"""

SUMMARY = re.compile(r"^\d+ error\(s\), \d+ warning\(s\)(, \d+ waived)?$")
FINDING_LINE = re.compile(r"^\S.*: SG\d{3}( \[(warning|notice)\])? ")
GITHUB_LINE = re.compile(r"^::(error|warning|notice) file=[^:]*::")
RECORDS = Path("measurements") / FAMILY
STUDY_FILE = Path("families") / FAMILY / "study.yaml"
FORMATS = st.sampled_from(["text", "json", "github"])


@dataclass
class Result:
    exit_code: int
    out: str
    err: str


def run_captured(*argv) -> Result:
    """``studygen ARGV`` in-process; stdout and stderr captured. Python
    warnings (matplotlib's, from drawing figures of odd data) are recorded,
    not printed: this file is about studygen's own error reporting."""
    from studygen.cli import run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        code = run([str(a) for a in argv])
    return Result(code, out.getvalue(), err.getvalue())


def internal_error_place(*argv) -> tuple[str, str, str] | None:
    """Run ``studygen ARGV`` again with STUDYGEN_DEBUG=1 (the CLI re-raises);
    the exception type, file and function of the innermost studygen frame."""
    import os
    import traceback

    from studygen.cli import run

    saved = os.environ.get("STUDYGEN_DEBUG")
    os.environ["STUDYGEN_DEBUG"] = "1"
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
                warnings.catch_warnings(record=True):
            run([str(a) for a in argv])
    except Exception as exc:  # noqa: BLE001 - the internal error being located
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/studygen/" in f.filename]
        frame = frames[-1]
        return type(exc).__name__, "studygen/" + frame.filename.rsplit("/studygen/", 1)[1], frame.name
    finally:
        if saved is None:
            del os.environ["STUDYGEN_DEBUG"]
        else:
            os.environ["STUDYGEN_DEBUG"] = saved
    return None


def run_clean(*argv, output_format: str | None = "text") -> Result:
    """``studygen ARGV``, asserted clean (see :func:`assert_clean`); an
    internal error fails with the place it was raised at."""
    result = run_captured(*argv)
    if "internal error" in result.err:
        raise AssertionError(f"{result.err.strip()} at {internal_error_place(*argv)}")
    assert_clean(result, output_format)
    return result


def assert_clean(result: Result, output_format: str | None = "text") -> None:
    """Findings (exit 0/1, well-formed output, nothing on stderr) or one clean
    error line (exit 2); never a traceback or an internal error.
    ``output_format`` None: render's output (``wrote PATH`` lines; on stderr
    at most one line, ``up to date`` or the error, or after ``wrote`` lines a
    drawn chart's layout note, one line a chart)."""
    everything = result.out + result.err
    assert "Traceback" not in everything, everything
    assert "internal error" not in result.err, result.err
    assert result.exit_code in (0, 1, 2), result
    if output_format is None:
        assert all(line.startswith("wrote ") for line in result.out.splitlines()), result.out
        # a chart whose drawn labels leave no room is named on stderr (its
        # documented layout note), one line a chart; anything else is one line
        notes = [line for line in result.err.splitlines() if line.endswith(f": {LAYOUT_COLLAPSED_NOTE}")]
        assert all(line.startswith("studygen: ") and ".svg: " in line for line in notes), notes
        rest = "".join(line + "\n" for line in result.err.splitlines() if line not in notes)
        assert rest.count("\n") <= 1, result.err
        if result.exit_code == 0:
            assert rest in ("", "up to date\n") and not (notes and rest), result.err
        else:
            assert not notes and rest.count("\n") == 1 and rest.startswith("studygen: "), result.err
        return
    assert result.err.count("\n") <= 1, result.err
    if result.exit_code == 2:
        assert result.out == ""
        assert result.err.count("\n") == 1 and result.err.startswith("studygen: "), result.err
        return
    assert result.err == "", result.err
    if output_format == "json":
        findings = json.loads(result.out)
        assert isinstance(findings, list)
        assert (result.exit_code == 1) == any(f["severity"] == "error" for f in findings)
        return
    lines = result.out.rstrip("\n").split("\n")
    assert SUMMARY.match(lines[-1]), lines[-1]
    assert (result.exit_code == 1) == (not lines[-1].startswith("0 error(s)"))
    for line in lines[:-1]:
        if output_format == "github":
            assert GITHUB_LINE.match(line), line
        else:
            assert FINDING_LINE.match(line) or line.startswith("    "), line


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A tiny project whose template calls every table helper; each example rewrites its inputs."""
    return make_tiny_project(tmp_path_factory.mktemp("properties") / "project", template=PROPERTY_TEMPLATE)


def _reset(project: Path, *, baseline_record: bool) -> None:
    records = project / RECORDS
    for path in records.glob("*.json"):
        path.unlink()
    for path in (records / "datasets").glob("*.json"):
        path.unlink()
    (records / "datasets" / f"{dataset()['dataset_id']}.json").write_text(json.dumps(dataset(), indent=2) + "\n")
    if baseline_record:
        (records / "job-a.json").write_text(json.dumps(run_record(), indent=2) + "\n")
    (project / STUDY_FILE).write_text(yaml.safe_dump(study_spec(), sort_keys=False), encoding="utf-8")
    shutil.rmtree(project / "families" / FAMILY / "figures", ignore_errors=True)
    (project / "families" / FAMILY / "README.md").unlink(missing_ok=True)


def _write_record(project: Path, document) -> Path:
    path = project / RECORDS / f"{document['job_id']}.json"
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# ---- records -------------------------------------------------------------------

def _json_findings(project: Path) -> list[dict]:
    result = run_clean("check", "--root", project, "--format", "json", output_format="json")
    return json.loads(result.out) if result.exit_code in (0, 1) else []


@given(record=gen.run_records(FAMILY), baseline=st.booleans(), output_format=FORMATS)
def test_valid_records_render_and_check_cleanly(project, record, baseline, output_format):
    assert not list(validator("run").iter_errors(json.loads(json.dumps(record)))), "the strategy must build valid records"
    _reset(project, baseline_record=baseline)
    path = _write_record(project, record)
    shown = str(path.relative_to(project))

    rendered = run_clean("render", "--root", project, output_format=None)
    assert rendered.exit_code in (0, 1), rendered.err  # a valid record is never refused (2)
    checked = run_clean("check", "--root", project, "--format", output_format, output_format=output_format)
    assert checked.exit_code in (0, 1), checked.err
    found = _json_findings(project)
    assert not [f for f in found if f["code"] == "SG202" and f["file"] == shown], "a valid record is reported invalid"
    if rendered.exit_code == 0:
        assert not [f for f in found if f["code"] == "SG201"], "check disagrees with the render it follows"


@given(data=st.data(), baseline=st.booleans(), output_format=FORMATS)
def test_mutated_records_are_findings(project, data, baseline, output_format):
    record = data.draw(gen.run_records(FAMILY), label="record")
    mutated, how = gen.mutate(data, record)
    _reset(project, baseline_record=baseline)
    path = project / RECORDS / "mutated.json"
    path.write_text(json.dumps(mutated, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    result = run_clean("check", "--root", project, "--format", output_format, output_format=output_format)
    assert result.exit_code in (0, 1), result.err  # a bad record file is a finding, not an error
    invalid = not isinstance(mutated, dict) or bool(list(validator("run").iter_errors(json.loads(json.dumps(mutated)))))
    if invalid:
        found = _json_findings(project)
        assert [f for f in found if f["code"] == "SG202" and f["file"] == str(path.relative_to(project))], how
        assert result.exit_code == 1
    run_clean("render", "--root", project, output_format=None)


@given(payload=st.one_of(gen.junk_bytes, gen.run_records(FAMILY).flatmap(
    lambda r: gen.truncated(json.dumps(r, indent=2))).map(str.encode)), output_format=FORMATS)
def test_junk_record_files_are_sg202(project, payload, output_format):
    _reset(project, baseline_record=True)
    path = project / RECORDS / "junk.json"
    path.write_bytes(payload)
    result = run_clean("check", "--root", project, "--format", output_format, output_format=output_format)
    found = _json_findings(project)
    assert [f for f in found if f["code"] == "SG202" and f["file"] == str(path.relative_to(project))]
    assert result.exit_code == 1
    rendered = run_clean("render", "--root", project, output_format=None)
    assert rendered.exit_code == 2 and rendered.err.startswith(f"studygen: {path.relative_to(project)}")


@given(data=st.data(), target=st.sampled_from(["study", "dataset"]))
def test_mutated_study_and_dataset_files_end_cleanly(project, data, target):
    _reset(project, baseline_record=True)
    if target == "study":
        path = project / STUDY_FILE
        mutated, _ = gen.mutate(data, study_spec())
        text = data.draw(st.one_of(st.just(yaml.safe_dump(mutated, sort_keys=False, allow_unicode=True)),
                                   gen.text, gen.truncated(yaml.safe_dump(study_spec(), sort_keys=False))), label="yaml")
        path.write_text(text, encoding="utf-8")
    else:
        path = project / RECORDS / "datasets" / f"{dataset()['dataset_id']}.json"
        mutated, _ = gen.mutate(data, dataset())
        path.write_text(json.dumps(mutated, ensure_ascii=False), encoding="utf-8")
    run_clean("check", "--root", project)
    run_clean("render", "--root", project, output_format=None)


# ---- Markdown --------------------------------------------------------------------

@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("documents")


@given(document=gen.markdown_documents, output_format=FORMATS)
def test_generated_markdown_lints_cleanly(documents, document, output_format):
    path = documents / "doc.md"
    path.write_text(document, encoding="utf-8")
    result = run_clean("lint", path, "--format", output_format, output_format=output_format)
    if not document.strip():
        assert result.err == f"studygen: {path}: file is empty\n"
    elif "\x00" in document:
        assert result.err == f"studygen: {path}: binary file (NUL bytes), not text\n"
    else:
        assert result.exit_code in (0, 1), result.err  # a readable Markdown file is never refused


@given(payload=st.one_of(gen.junk_bytes, gen.text.map(str.encode), gen.markdown_documents.flatmap(gen.truncated).map(str.encode)))
def test_junk_markdown_ends_cleanly(documents, payload):
    path = documents / "junk.md"
    path.write_bytes(payload)
    result = run_clean("lint", path)
    if result.exit_code == 2:
        assert result.err.startswith(f"studygen: {path}:")  # the one line names the file (and a line, where known)
