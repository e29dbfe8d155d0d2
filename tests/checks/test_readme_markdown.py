"""The lint rules on the committed README (checks/readme_markdown.py): lint
findings, mdformat's rewrite, and a README that cannot be read, each at the
README's shown path; no README is SG201's to report."""

from __future__ import annotations

from studygen.checks import CheckContext, readme_markdown
from studygen.findings import ERROR, Finding

from .studies import latency, load, record

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
    assert readme_markdown.check(CheckContext(study)) == [Finding("SG104", "not UTF-8 text (byte 8)", README)]


def test_a_readme_nested_past_what_mdformat_formats_is_sg104_at_the_deep_line(tmp_path):
    # issue 24: 20,000 nested emphasis markers made check stop with "internal error: RecursionError"
    study = _study(tmp_path)
    text = study.readme_path.read_text(encoding="utf-8")
    study.readme_path.write_text(text + "\nfine\n\nx" + "*" * 20000 + "y" + "*" * 20000 + "\n", encoding="utf-8")
    findings = [f for f in readme_markdown.check(CheckContext(study)) if f.code == "SG104"]
    assert [(f.file, f.line, f.severity, f.message) for f in findings] == [(
        README, text.count("\n") + 4, ERROR, "nests emphasis, links, quotes or lists more levels deep than mdformat "
        "can format (Python's recursion limit): the renderer cannot have written it")]
