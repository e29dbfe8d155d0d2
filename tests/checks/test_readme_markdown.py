"""The lint rules on the committed README (checks/readme_markdown.py): lint
findings, mdformat's rewrite, and a README that cannot be read, each at the
README's shown path; no README is SG201's to report."""

from __future__ import annotations

from studygen.checks import CheckContext, readme_markdown, run_checks
from studygen.findings import ERROR, Finding
from studygen.records.load import yaml_line
from studygen.study import load_study

from .studies import MINIMAL_TEMPLATE, latency, load, record, spec, write_project

README = "families/toy/README.md"


def _study(tmp_path):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])])
    context = CheckContext(study)
    study.readme_path.write_bytes(context.rendered.files[study.readme_path])
    return study


def test_a_fresh_readme_has_no_finding(tmp_path):
    study = _study(tmp_path)
    assert readme_markdown.check(CheckContext(study)) == []


def test_no_readme_is_left_to_sg201(tmp_path):
    study = _study(tmp_path)
    study.readme_path.unlink()
    assert readme_markdown.check(CheckContext(study)) == []


def test_lint_findings_and_the_mdformat_rewrite_name_the_readme(tmp_path):
    study = _study(tmp_path)
    text = study.readme_path.read_text(encoding="utf-8")
    table = "\n| GPU | fp16 ms |\n| --- | --- |\n| B200 | 5.889 | 6.1 |\n"
    study.readme_path.write_text(text + table, encoding="utf-8")
    findings = readme_markdown.check(CheckContext(study))
    header_line = text.count("\n") + 2
    assert [(f.code, f.file, f.line, f.severity) for f in findings] == [
        ("SG104", README, header_line + 2, ERROR),  # the row has 3 cells, its header 2
        ("SG104", README, header_line, ERROR),  # mdformat pads the table's cells from its header on
    ]
    assert "3 cells" in findings[0].message
    assert findings[1].message.startswith(f"mdformat (gfm, wrap keep) rewrites this document from line {header_line}")


def test_an_unreadable_readme_is_one_sg104_finding(tmp_path):
    study = _study(tmp_path)
    study.readme_path.write_bytes(b"# Title\n\xff\xfe\n")
    assert readme_markdown.check(CheckContext(study)) == [Finding("SG104", "not UTF-8 text: byte 1 of the line (byte 9 of the file)", README, 2)]


def test_a_readme_nested_past_what_mdformat_formats_is_sg104_at_the_deep_line(tmp_path):
    # issue 24: 20,000 nested emphasis markers made check stop with "internal error: RecursionError"
    study = _study(tmp_path)
    text = study.readme_path.read_text(encoding="utf-8")
    study.readme_path.write_text(text + "\nfine\n\nx" + "*" * 20000 + "y" + "*" * 20000 + "\n", encoding="utf-8")
    findings = [f for f in readme_markdown.check(CheckContext(study)) if f.code == "SG104"]
    assert [(f.file, f.line, f.severity, f.message) for f in findings] == [(
        README, text.count("\n") + 4, ERROR, "nests emphasis, links, quotes or lists more levels deep than mdformat "
        "can format (Python's recursion limit): the renderer cannot have written it")]


def _formatting_passes(monkeypatch) -> list[str]:
    """The texts SG104's mdformat pass formats from now on (the render's own formatting call is not counted)."""
    from studygen.lint import sg104_structure

    passes = []
    real = sg104_structure.format_markdown

    def counted(text):
        passes.append(text)
        return real(text)

    monkeypatch.setattr(sg104_structure, "format_markdown", counted)
    return passes


def _readme_findings(findings) -> list:
    """The findings placed in the README (the toy study's chart and variant findings are not)."""
    return [f for f in findings if f.file == README]


def test_a_readme_equal_to_the_render_is_formatted_once_more_for_sg104(tmp_path, monkeypatch):
    # render's output of a well-behaved study is an mdformat fixpoint: SG104's pass on it finds nothing
    study = _study(tmp_path)
    passes = _formatting_passes(monkeypatch)
    assert _readme_findings(run_checks(study)) == []
    assert passes == [study.readme_path.read_text(encoding="utf-8")]


def test_a_fresh_render_that_mdformat_rewrites_again_is_sg104_as_before(tmp_path):
    # mdformat is not idempotent on every text: a title of stray emphasis markers and brackets comes out of
    # render's formatting as "\\**\\]- *\\]**", which a second pass rewrites to "\\*\\*\\]- *\\]*\\*". The
    # README render writes is then no fixpoint, and check said so (SG104) until the pass was skipped for a
    # README equal to the render (82ab73d): that skip made this check pass with exit 0.
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])],
                 study=spec(title="Toy **]- *]** study"))
    context = CheckContext(study)
    study.readme_path.write_bytes(context.rendered.files[study.readme_path])
    text = study.readme_path.read_text(encoding="utf-8")
    assert text == context.rendered_readme and "# Toy \\**\\]- *\\]** study" in text.splitlines()
    findings = [f for f in _readme_findings(run_checks(load_study(study.study_dir, tmp_path))) if f.code == "SG104"]
    line = text.splitlines().index("# Toy \\**\\]- *\\]** study") + 1
    assert [(f.line, f.severity, f.message) for f in findings] == [(
        line, ERROR, "mdformat (gfm, wrap keep) rewrites this document from line "
        f"{line}: '# Toy \\\\**\\\\]- *\\\\]** study' becomes '# Toy \\\\*\\\\*\\\\]- *\\\\]*\\\\* study'")]


def test_a_readme_that_differs_from_the_render_is_formatted_and_its_rewrite_reported(tmp_path, monkeypatch):
    study = _study(tmp_path)
    text = study.readme_path.read_text(encoding="utf-8")
    edited = text + "\n*  a hand-made item\n"
    study.readme_path.write_text(edited, encoding="utf-8")
    passes = _formatting_passes(monkeypatch)
    findings = _readme_findings(run_checks(study))
    assert passes == [edited]
    line = text.count("\n") + 2
    # SG201 at the first line the committed README adds (the blank line), SG104 where mdformat rewrites
    assert [(f.code, f.line) for f in findings] == [("SG104", line), ("SG201", line - 1)]
    assert findings[0].message == ("mdformat (gfm, wrap keep) rewrites this document from line "
                                   f"{line}: '*  a hand-made item' becomes '- a hand-made item'")


def test_a_fresh_readme_with_crlf_line_endings_is_formatted_and_named(tmp_path, monkeypatch):
    study = _study(tmp_path)
    study.readme_path.write_bytes(study.readme_path.read_bytes().replace(b"\n", b"\r\n"))
    passes = _formatting_passes(monkeypatch)
    findings = _readme_findings(run_checks(study))
    assert len(passes) == 2  # the CRLF text, then the text with LF endings, which mdformat leaves as it is
    assert [(f.code, f.line) for f in findings] == [("SG104", 1), ("SG201", 1)]
    assert findings[0].message.startswith("line 1 ends in a carriage return")


def test_a_readme_of_a_study_that_is_not_rendered_is_formatted(tmp_path, monkeypatch):
    # an invalid record: the study is not rendered (SG202), so nothing tells the README is render's output
    study_dir = write_project(tmp_path, records=[record("job", [latency("fp16", "fast")])])
    (study_dir / "README.md").write_text("# Title\n\n*  item\n", encoding="utf-8")
    passes = _formatting_passes(monkeypatch)
    findings = run_checks(load_study(study_dir, tmp_path))
    assert passes == ["# Title\n\n*  item\n"]
    assert [(f.code, f.line) for f in _readme_findings(findings)] == [("SG104", 3)]


# A decision about two cards whose names carry model numbers, read by check through lint: 0.1547 / 0.04395 = 3.52x,
# so the 3090 is the faster one; before, "1070" and "3090" were taken for figures of the claim and it went unread.
_CARDS_TEMPLATE = MINIMAL_TEMPLATE.replace(
    "{{ study.decision.summary }}",
    "| GPU | fp16 GPU compute (ms) |\n| --- | --- |\n| GeForce GTX 1070 | 0.1547 |\n| RTX 3090 | 0.04395 |\n\n"
    "{{ study.decision.summary }}")


def _cards_study(tmp_path, summary: str):
    study = load(tmp_path, records=[record("job", [latency("fp16", 5.889)])], template=_CARDS_TEMPLATE,
                 study=spec(decision={"shipped": False, "summary": summary}))
    context = CheckContext(study)
    study.readme_path.write_bytes(context.rendered.files[study.readme_path])
    return study


def test_a_decision_naming_cards_by_model_number_is_read_against_the_table(tmp_path):
    wrong = _cards_study(tmp_path / "wrong", "The GTX-1070 is 3.5x faster than the RTX 3090.")
    findings = [f for f in readme_markdown.check(CheckContext(wrong)) if f.code == "SG103"]
    lines = wrong.readme_path.read_text(encoding="utf-8").splitlines()
    # the sentence is the decision summary, printed as written: the finding names the study file's field
    readme_line = lines.index("The GTX-1070 is 3.5x faster than the RTX 3090.") + 1
    assert [(f.file, f.line, f.pointer) for f in findings] == [
        ("families/toy/study.yaml", yaml_line(wrong.spec_text, "decision", "summary"), "/decision/summary")]
    assert findings[0].message.startswith("3.5x between row 'GeForce GTX 1070' and row 'RTX 3090' goes the wrong way")
    assert findings[0].hint.startswith(f"edit /decision/summary in this file, which the README prints as written "
                                       f"({README} line {readme_line}): ")
    right = _cards_study(tmp_path / "right", "The RTX 3090 is 3.5x faster than the GTX 1070.")
    assert readme_markdown.check(CheckContext(right)) == []


def test_a_range_in_a_record_note_is_no_summary_of_a_table_column(tmp_path):
    # collect coco notes the range of a job's AP over the orders of its tied scores; printed under Provenance,
    # "AP 0.3312 to 0.3312" was read as a summary of the AP column, which also holds the other job's 0.3087,
    # and check failed on render's own note (SG101). The same range written by hand after the notes still is.
    from .studies import coco_ap, collected_provenance

    note = ("over the orders of the tied scores, the AP statistics range as follows: AP 0.3312 to 0.3312, "
            "AP50 0.6105 to 0.6105")
    provenance = dict(collected_provenance(), notes=[note])
    study = load(tmp_path, template='{% extends "studygen/generic.md.j2" %}',
                 records=[record("tied", [coco_ap("fp16", 0.3312), coco_ap("fp16", 0.6105, statistic="AP50")],
                                 provenance),
                          record("other", [coco_ap("fp16", 0.3087), coco_ap("fp16", 0.5892, statistic="AP50")])])
    context = CheckContext(study)
    text = context.rendered.files[study.readme_path].decode("utf-8")
    assert f"- tied: {note}" in text
    study.readme_path.write_text(text, encoding="utf-8")
    assert [f for f in readme_markdown.check(CheckContext(study)) if f.code == "SG101"] == []
    # the same words in prose of the README's own (no note) are read as before
    study.readme_path.write_text(text + f"\nThe tied job: {note}.\n", encoding="utf-8")
    findings = [f for f in readme_markdown.check(CheckContext(study)) if f.code == "SG101"]
    assert [(f.line, f.message.split(" leaves")[0]) for f in findings] == [
        (text.count("\n") + 2, "range 0.3312 to 0.3312"), (text.count("\n") + 2, "range 0.6105 to 0.6105")]
