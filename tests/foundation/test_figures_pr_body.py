"""Figures (deterministic SVG, embedded with alt text, stale ones reported) and --pr-body."""

from __future__ import annotations

import json
import re

from tests.conftest import REPO

README = "families/deformable_detr/README.md"
LATENCY_SVG = "families/deformable_detr/figures/latency.svg"


def test_figures_render_identically_twice(project, run_cli):
    committed = (REPO / LATENCY_SVG).read_bytes()
    assert run_cli("render", "--root", project).exit_code == 0
    first = (project / LATENCY_SVG).read_bytes()
    (project / LATENCY_SVG).unlink()
    assert run_cli("render", "--root", project).exit_code == 0
    assert (project / LATENCY_SVG).read_bytes() == first == committed
    assert b"<dc:date>" not in first  # no date in the metadata


def test_figure_is_embedded_with_alt_text_and_omission_is_explained():
    text = (REPO / README).read_text()
    # a range per shape: 800 x 800 and 800 x 1067 time different work (rows read off `studygen rows deformable_detr`)
    assert ("![Latency, timing and statistic not stated, per variant at 800 x 800: 5.764 to 5.889 ms over 6 results; "
            "800 x 1067: 13.62 to 15.230 ms over 8 results](figures/latency.svg)") in text
    assert "Figure omitted: no record lists kernel time for two or more groups of one profiled run" in text


def test_changed_record_makes_figure_stale(project, run_cli):
    path = project / "measurements/deformable_detr/b300-trt11.4.json"
    data = json.loads(path.read_text())
    data["results"][0]["value_ms"] = 6.5
    path.write_text(json.dumps(data, indent=2) + "\n")
    result = run_cli("check", "--root", project)
    assert result.exit_code == 1
    assert f"{LATENCY_SVG}: SG201 figure is stale: its bytes differ from what the records render to" in result.out


def test_current_figure_is_checked_without_drawing(project, run_cli, monkeypatch):
    from studygen.render import drawing

    def no_drawing(fig):
        raise AssertionError("check drew a figure whose stamp is current")

    monkeypatch.setattr(drawing, "_svg_bytes", no_drawing)
    result = run_cli("check", "--root", project, "deformable_detr")
    assert "SG201" not in result.out, result.out
    stamp = (project / LATENCY_SVG).read_bytes().split(b"\n")[1]
    assert re.fullmatch(rb"<!-- studygen figure: inputs sha256:[0-9a-f]{64} drawing sha256:[0-9a-f]{64} -->", stamp)


def test_render_of_a_family_whose_figures_are_current_draws_none(project, run_cli, monkeypatch):
    # currency from the stamp, as check decides it: nothing drawn, so matplotlib is not imported for it
    from studygen.render import drawing

    def no_drawing(fig):
        raise AssertionError("render drew a figure whose stamp is current")

    monkeypatch.setattr(drawing, "_svg_bytes", no_drawing)
    monkeypatch.setattr(drawing, "_pyplot", lambda: (_ for _ in ()).throw(AssertionError("matplotlib imported")))
    before = (project / LATENCY_SVG).read_bytes()
    result = run_cli("render", "--root", project, "deformable_detr")
    assert result.exit_code == 0 and result.err.strip() == "up to date", result.err
    assert (project / LATENCY_SVG).read_bytes() == before


def test_render_redraws_a_hand_edited_figure_whose_stamp_was_kept(project, run_cli):
    path = project / LATENCY_SVG
    committed = path.read_bytes()
    path.write_bytes(committed.replace(b"#1f77b4", b"#000000"))  # recolour, stamp untouched: its digest fails
    result = run_cli("render", "--root", project, "deformable_detr")
    assert result.exit_code == 0 and f"wrote {LATENCY_SVG}" in result.out
    assert path.read_bytes() == committed


def test_hand_edited_figure_with_its_stamp_kept_is_stale(project, run_cli):
    path = project / LATENCY_SVG
    data = path.read_bytes()
    assert b"#1f77b4" in data
    path.write_bytes(data.replace(b"#1f77b4", b"#000000"))  # recolour, stamp untouched
    result = run_cli("check", "--root", project, "deformable_detr")
    assert f"{LATENCY_SVG}: SG201 figure is stale" in result.out


def test_figure_with_a_forged_inputs_digest_is_drawn_and_compared(project, run_cli):
    from studygen.render.charts import stamp
    from tests.render.test_chart_stamp_reading import read_stamp

    path = project / LATENCY_SVG
    inputs, _, drawing = read_stamp(path.read_bytes())
    path.write_bytes(stamp(drawing, "0" * 64))  # a stamp for other inputs: drawn again and compared
    result = run_cli("check", "--root", project, "deformable_detr")
    assert f"{LATENCY_SVG}: SG201 figure is stale" in result.out
    assert run_cli("render", "--root", project, "deformable_detr").exit_code == 0
    assert read_stamp(path.read_bytes())[0] == inputs


def test_deleted_figure_is_reported_missing(project, run_cli):
    (project / LATENCY_SVG).unlink()
    result = run_cli("check", "--root", project)
    assert f"{LATENCY_SVG}: SG201 missing: studygen render has not written it" in result.out


def _tables(markdown: str) -> list[str]:
    return re.findall(r"(?:^\|.*\|\n)+", markdown, flags=re.M)


def test_pr_body_has_the_readme_figures(project, run_cli):
    result = run_cli("render", "--pr-body", "deformable_detr", "--root", project)
    assert result.exit_code == 0, result.err
    body = result.out
    readme = (REPO / README).read_text()
    tables = _tables(body)
    assert len(tables) == 3  # latency, plan size, COCO AP
    for table in tables:
        assert table in readme
    for figure in ("5.889", "5.850", "14.747", "15.230", "83.0", "75.8", "0.4644", "0.4625", "1.01x", "0.97x"):
        assert figure in body
    assert "## Summary and decision" in body and "## Not measured" in body
    assert "Not measured: NVFP4 (not tried). Expected without a measurement" in body
    assert "](families/deformable_detr/figures/latency.svg)" in body
    # the decision is the study file's, word for word
    assert "FP8 is not shipped for this family" in body


def test_pr_body_needs_the_blocks(project, run_cli):
    # a template that neither extends the generic one nor writes the results and not_measured blocks
    template = project / "templates" / "deformable_detr.md.j2"
    template.write_text("{{ generated_note }}\n\n{% block summary %}Summary.{% endblock %}\n")
    result = run_cli("render", "--pr-body", "deformable_detr", "--root", project)
    assert result.exit_code == 1
    assert "template has no block results, not_measured (needed for --pr-body)" in result.err


def test_pr_body_takes_the_blocks_a_template_inherits(project, run_cli):
    # the shipped template writes no not_measured block: the generic template's fills it
    assert "{% block not_measured %}" not in (project / "templates" / "deformable_detr.md.j2").read_text()
    result = run_cli("render", "--pr-body", "deformable_detr", "--root", project)
    assert result.exit_code == 0, result.err
    assert "## Not measured\n\n- NVFP4 (not tried)" in result.out  # the heading says it; the entry does not again


def test_a_restamped_hand_edit_passes_check_and_render_until_the_figure_is_removed(project, run_cli):
    # the stamp is a checksum against accidents (as cog's): a forger who recomputes it passes check,
    # and render, which decides from the same stamp, leaves it; removing the figure puts the real one back
    import hashlib

    from studygen.render.charts import stamp
    from tests.render.test_chart_stamp_reading import read_stamp

    path = project / LATENCY_SVG
    committed = path.read_bytes()
    inputs, _, drawing = read_stamp(committed)
    forged = stamp(drawing.replace(b"#1f77b4", b"#000000"), inputs)
    path.write_bytes(forged)
    assert hashlib.sha256(read_stamp(path.read_bytes())[2]).hexdigest() == read_stamp(path.read_bytes())[1]
    assert "SG201" not in run_cli("check", "--root", project, "deformable_detr").out
    assert run_cli("render", "--root", project, "deformable_detr").exit_code == 0
    assert path.read_bytes() == forged
    path.unlink()
    assert run_cli("render", "--root", project, "deformable_detr").exit_code == 0
    assert path.read_bytes() == committed


def test_pr_body_refuses_extra_families(project, run_cli):
    result = run_cli("render", "--pr-body", "deformable_detr", "other", "--root", project)
    assert (result.exit_code, result.out) == (2, "")
    assert result.err == ("studygen: --pr-body prints one family's text; drop other "
                          "(or render them without --pr-body)\n")
