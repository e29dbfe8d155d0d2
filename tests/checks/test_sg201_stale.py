"""SG201: the committed README differs from what render makes now (or is
missing, unreadable, or the template cannot render)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg201_stale
from studygen.findings import ERROR

from .studies import latency, load, record

RECORDS = [record("job", [latency("fp16", 5.889), latency("fp8", 5.850)])]
TEMPLATE = ("{{ generated_note }}\n\n# {{ study.title }}\n\nFirst line.\nSecond line.\n\n"
            "fp16 median: {{ study.one(kind='latency', variant='fp16').number() }} ms.\n\nLast line.\n")


def _rendered_readme(tmp_path):
    """The study, its README path and bytes as render makes them; its chart written as render writes it."""
    study = load(tmp_path, records=RECORDS, template=TEMPLATE)
    rendered = CheckContext(study).rendered
    (readme,) = [path for path in rendered.paths() if path.suffix == ".md"]
    (chart,) = [path for path in rendered.paths() if path.suffix == ".svg"]
    chart.parent.mkdir(parents=True, exist_ok=True)
    chart.write_bytes(rendered.data(chart))
    return study, readme, rendered.data(readme)


def test_a_readme_as_rendered_is_current(tmp_path):
    study, readme, data = _rendered_readme(tmp_path)
    readme.write_bytes(data)
    assert sg201_stale.check(CheckContext(study)) == []


def test_a_hand_edit_is_stale_at_its_first_line_with_a_diff(tmp_path):
    study, readme, data = _rendered_readme(tmp_path)
    lines = data.decode("utf-8").splitlines(keepends=True)
    edited = lines.index("fp16 median: 5.889 ms.\n")
    readme.write_text("".join(lines[:edited]) + "fp16 median: 5.7 ms.\n" + "".join(lines[edited + 1:]), encoding="utf-8")
    (finding,) = sg201_stale.check(CheckContext(study))
    assert (finding.code, finding.severity, finding.file, finding.line) == ("SG201", ERROR, "families/toy/README.md", edited + 1)
    assert finding.message == "README is stale: it differs from what the records render to"
    assert finding.hint == "run studygen render toy (never edit it by hand)"
    # one line of context either side (n=1), the file on disk first: "committed" would be untrue of a README git
    # does not track (tmp_path is no repository) or one modified since its commit, as here
    assert finding.detail == (
        "--- families/toy/README.md (on disk)\n+++ families/toy/README.md (rendered)\n"
        f"@@ -{edited},3 +{edited},3 @@\n \n-fp16 median: 5.7 ms.\n+fp16 median: 5.889 ms.\n \n")[:-1]


def test_a_missing_readme_and_an_unreadable_one(tmp_path):
    study, readme, _ = _rendered_readme(tmp_path)
    (finding,) = sg201_stale.check(CheckContext(study))
    assert (finding.code, finding.file, finding.message) == ("SG201", "families/toy/README.md",
                                                            "missing: studygen render has not written it")
    assert finding.hint == "run studygen render toy"
    readme.mkdir()  # something that is no file stands in its place
    (finding,) = sg201_stale.check(CheckContext(study))
    assert (finding.code, finding.file, finding.message) == ("SG201", "families/toy/README.md", "cannot be read: is a folder, not a file")


def test_a_chart_whose_bytes_differ_is_stale(tmp_path):
    study, readme, data = _rendered_readme(tmp_path)
    readme.write_bytes(data)
    chart = tmp_path / "families" / "toy" / "figures" / "latency.svg"
    chart.write_bytes(chart.read_bytes().replace(b"<svg", b"<svg data-edited='1'", 1))
    (finding,) = sg201_stale.check(CheckContext(study))
    assert (finding.code, finding.file, finding.line) == ("SG201", "families/toy/figures/latency.svg", 0)
    assert finding.message == "figure is stale: its bytes differ from what the records render to"
    assert finding.hint == "run studygen render toy"


def test_a_template_that_cannot_render_is_reported_at_the_study_file(tmp_path):
    study = load(tmp_path, records=RECORDS, template="{{ generated_note }}\n\n{{ study.one(kind='nothing').number() }}\n")
    (finding,) = sg201_stale.check(CheckContext(study))
    assert finding.code == "SG201" and finding.file == "families/toy/study.yaml"
    assert finding.message.startswith("cannot render: ")
