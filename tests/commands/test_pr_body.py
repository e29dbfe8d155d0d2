"""``studygen render --pr-body FAMILY``: the known gaps carried, figure links under ``--link-base URL``."""

from __future__ import annotations

import yaml

from studygen.commands.pr_text import link_figures


def test_pr_body_carries_the_known_gaps(project, run_cli):
    result = run_cli("render", "--pr-body", "deformable_detr", "--root", project)
    assert result.exit_code == 0, result.err
    body = result.out
    gaps = body[body.index("## Known gaps\n"):]
    spec = yaml.safe_load((project / "families/deformable_detr/study.yaml").read_text())
    # every waiver of the study file, with the start of its reason
    assert gaps.count("- Waived ") == len(spec["waivers"]) > 0
    for waiver in spec["waivers"]:
        assert " ".join(waiver["reason"].split()[:6]) in " ".join(gaps.split())
    assert "- Image set coco2017-val-calib-256 (256 images): " in gaps
    assert body.index("## Not measured") < body.index("## Known gaps")
    # without --link-base the figure links stay relative to the repository root
    assert "](families/deformable_detr/figures/latency.svg)" in body


def test_link_base_makes_figure_links_absolute(project, run_cli):
    result = run_cli("render", "--pr-body", "deformable_detr", "--link-base", "https://github.com/org/repo/raw/main/",
                     "--root", project)
    assert result.exit_code == 0, result.err
    assert "](https://github.com/org/repo/raw/main/families/deformable_detr/figures/latency.svg)" in result.out
    assert "](families/" not in result.out


def test_link_base_is_refused_without_pr_body_or_as_a_relative_url(project, run_cli):
    alone = run_cli("render", "--link-base", "https://example.org/raw", "--root", project)
    assert (alone.exit_code, alone.err) == (2, "studygen: --link-base sets the figure links of --pr-body; "
                                                "give --pr-body FAMILY too\n")
    relative = run_cli("render", "--pr-body", "deformable_detr", "--link-base", "raw/main", "--root", project)
    assert relative.exit_code == 2
    assert relative.err == ("studygen: --link-base 'raw/main': give an absolute http(s) URL, "
                            "e.g. https://github.com/ORG/REPO/raw/BRANCH\n")
    assert relative.out == ""


def test_link_figures_touches_only_the_figures_folder():
    text = ("![a](families/f/figures/a.svg) [b](families/f/figures/b.svg) ![c](families/g/figures/c.svg) "
            "[d](docs/x.md) (families/f/figures/e.svg)")
    assert link_figures(text, "families/f/figures/", "https://h/x") == (
        "![a](https://h/x/families/f/figures/a.svg) [b](https://h/x/families/f/figures/b.svg) "
        "![c](families/g/figures/c.svg) [d](docs/x.md) (families/f/figures/e.svg)")
