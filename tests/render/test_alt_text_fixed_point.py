"""An image's alt text is written so that mdformat leaves it as it is: render's
README is then a fixed point of the formatting SG104 checks. mdformat writes
an alt text as the text it reads as, escapes dropped, so the backslash escapes
render used to write came out as markup on the next pass: a kernel group named
``_scaled_mm_`` gave a README that check failed with SG104 right after render."""

from __future__ import annotations

import pytest
import yaml
from markdown_it import MarkdownIt

from studygen.markdown_format import format_markdown
from studygen.render.charts import kernel_chart
from studygen.render.engine import GENERIC_TEMPLATE, render_study
from studygen.render.escaping import escape_alt
from studygen.study import load_study

from ..checks.studies import FAMILY, collected_provenance, kernel_time, record, spec, write_project

HOSTILE_NAMES = [
    "_scaled_mm_", "*x*", "**bold**", "`code`", "``", "<b>", "</div>", "<!-- c -->", "&amp;", "&#95;", "&lt;",
    "![i](x)", "[link](http://e.example)", "]", "[", "x]y[z", "a\\", "\\", "\\*", "a\\_b", "~~gone~~", "~x~", "_",
    "__init__", "_a_b_", "x*y*z", "*", "<http://e.example>", "[^1]", "a | b", "# head", "> quote", "- item",
    "1. one", "---", "***", "a  b", " lead", "trail ", "tab\there", "line\nbreak", "\x1b[31m", "\u202eevil",
    "é_ü_", "a\u00a0_b_", "!", "![", "*\\_*",
]
# names mdformat leaves as they are: written as given
PLAIN_NAMES = ["scaled_mm", "GEMM/MatMul", "R&D", "a < b", "www.example.com", "mail@example.com", "a\\b"]
FULLWIDTH_BACK = {0xFF00 + code: 0x20 + code for code in range(0x01, 0x5F)}  # U+FF01-U+FF5E to U+0021-U+007E


@pytest.mark.parametrize("name", HOSTILE_NAMES + PLAIN_NAMES)
def test_an_alt_text_holding_any_name_stays_as_written_through_mdformat(name):
    alt = escape_alt(f"Kernel time per group; groups: {name}, other")
    line = f"![{alt}](figures/kernel_time.svg)"
    assert format_markdown(line) == line + "\n"
    # one image, the path as written: the name added no link, image, HTML or emphasis
    (paragraph,) = [token for token in MarkdownIt("commonmark").enable("strikethrough").parse(line) if token.type == "inline"]
    (image,) = paragraph.children
    assert image.type == "image" and image.attrs["src"] == "figures/kernel_time.svg"
    assert all(child.type == "text" for child in image.children)
    # it reads as the name: its markup characters in their fullwidth forms, nothing dropped
    shown = "".join(child.content for child in image.children).translate(FULLWIDTH_BACK)
    folded = name.replace("\n", " ").replace("\x1b", "\\u001b").replace("\u202e", "\\u202e")
    assert shown == f"Kernel time per group; groups: {folded}, other"


@pytest.mark.parametrize("name", PLAIN_NAMES)
def test_a_name_mdformat_leaves_alone_is_written_as_given(name):
    assert escape_alt(f"groups: {name}") == f"groups: {name}"


def test_a_name_that_would_be_markup_is_written_in_fullwidth_forms():
    assert escape_alt("groups: _scaled_mm_, other") == "groups: ＿scaled＿mm＿, other"
    assert escape_alt("GEMM](http://x) ![y") == "GEMM］(http://x) !［y"
    assert escape_alt("&amp; <b>") == "＆amp; ＜b＞"


def kernel_study(tmp_path, groups: dict[str, float]):
    variants = yaml.safe_load("[{name: fp16, precision: fp16, label: fp16 eager}]")
    study_dir = write_project(tmp_path, records=[record("h100", [kernel_time(
        "fp16", groups, backend="pytorch", mode="eager")], collected_provenance())], study=spec(variants=variants))
    (tmp_path / "templates" / f"{FAMILY}.md.j2").unlink()
    study_file = study_dir / "study.yaml"
    study_file.write_text(yaml.safe_dump(dict(yaml.safe_load(study_file.read_text()), template=GENERIC_TEMPLATE),
                                         sort_keys=False))
    return load_study(study_dir, tmp_path)


@pytest.mark.parametrize("name", ["_scaled_mm_", "*x*", "`a`", "<b>", "&amp;", "![i](x)", "]"])
def test_render_writes_a_readme_mdformat_leaves_as_it_is(tmp_path, name):
    study = kernel_study(tmp_path, {name: 0.2, "other": 0.1})
    assert kernel_chart(study).alt.endswith(f"groups: {name}, other")
    readme = render_study(study).files[study.readme_path].decode("utf-8")
    assert format_markdown(readme) == readme  # what SG104 asks of a README
    assert f"groups: {escape_alt(name)}, other](figures/kernel_time.svg)" in readme
