"""Labels from the study file and the records (variant labels, GPU names,
recipe names) reach the README escaped exactly once: rendered, the text is
the label as written. Before, a table header or a GPU cell left ``*x*`` and
``_x_`` as emphasis (escaped not at all), the Variants list escaped ``<`` and
``&`` twice (a reader saw ``&lt;``), a recipe heading left its emphasis, and
a side-finding sentence escaped HTML twice. The README is rendered to HTML
with markdown-it (CommonMark, GFM tables), so what is checked is what a reader
sees, whatever escapes mdformat normalises. Figures are made up."""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from studygen.render.engine import render_markdown

from ..checks.studies import collected_provenance, latency, record
from .test_generic_issue22 import generic

LABEL = "A|B *x* <y> & z"
FP8_LABEL = "fp8_e4m3 _q_"
GPU = "H|200 *SXM* _x_ <b>"
RECIPE = "lin_*ears* [r]"


def rendered(tmp_path) -> str:
    variants = [{"name": "fp16", "precision": "fp16", "label": LABEL},
                {"name": "fp8_e4m3", "precision": "fp8", "recipe": RECIPE, "label": FP8_LABEL}]
    evidence = {"kernels": [{"name": "sm90_xmma_gemm_e4m3", "time_ms": 1.0}]}
    # FP8 slower than fp16 on the same platform: a side-finding sentence naming both labels and the GPU
    results = [latency("fp16", 4.0), latency("fp8_e4m3", 5.0, fp8_evidence=evidence)]
    study = generic(tmp_path, [record("a", results, collected_provenance(gpu=f"NVIDIA {GPU}"))], variants=variants,
                    recipes={RECIPE: {"description": "FP8 linears"}})
    return MarkdownIt("commonmark").enable("table").render(render_markdown(study))


def shown(text: str) -> str:
    return html.escape(text, quote=False)


def test_labels_in_tables_read_as_written(tmp_path):
    page = rendered(tmp_path)
    assert f"<th>{shown(LABEL)} (ms)</th>" in page
    assert f"<th>{shown(FP8_LABEL)} (ms)</th>" in page
    assert f"<th>{shown(LABEL)} / {shown(FP8_LABEL)}</th>" in page
    assert page.count(f"<td>{shown(GPU)}</td>") == 2  # the latency table and the provenance table
    assert "<em>" not in page


def test_labels_in_prose_read_as_written(tmp_path):
    page = rendered(tmp_path)
    assert f"<li><strong>{shown(LABEL)}</strong> (<code>fp16</code>)</li>" in page
    assert f"<h3>Recipe {shown(RECIPE)}</h3>" in page
    side = page.split("<h2>Side findings</h2>")[1].split("</li>")[0]
    assert shown(LABEL) in side and shown(FP8_LABEL) in side and shown(GPU) in side
    assert "&amp;lt;" not in page and "&amp;amp;" not in page


def test_a_label_in_the_repeated_measurements_table_reads_as_written(tmp_path):
    variants = [{"name": "fp16", "precision": "fp16", "label": LABEL}]
    study = generic(tmp_path, [record("a", [latency("fp16", 4.0)]), record("b", [latency("fp16", 4.5)])],
                    variants=variants)
    page = MarkdownIt("commonmark").enable("table").render(render_markdown(study))
    assert f"<td>{shown(LABEL)} median GPU compute time 800 x 800</td>" in page
