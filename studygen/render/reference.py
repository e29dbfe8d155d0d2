"""The study guide's helper reference, generated from the helpers' docstrings.

``docs/study-guide.md`` holds the table between two marker lines; a test keeps
it equal to :func:`helper_reference`. Regenerate it with
``python -m studygen.render.reference --write docs/study-guide.md``.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path

from ..patterns import lazy_compile
from .rows import TemplateRow
from .view import VIEW_ATTRIBUTES, StudyView

BEGIN = "<!-- helper reference: generated from the helpers' docstrings by python -m studygen.render.reference -->"
END = "<!-- end of helper reference -->"
ATTRIBUTE_TEXT = {
    "spec": "the study file as a mapping (`study.spec.variants`, `study.spec.get(\"description\")`)",
    "family": "the family name",
    "title": "the study file's title",
    "decision": "the study file's decision (`summary`, `shipped`, `revisit_when`)",
    "model": "the study file's model entry",
}


SPHINX_ROLE = lazy_compile(r":(?:meth|func|class|data|mod):`~?([^`]+)`")


def first_paragraph(doc: str | None) -> str:
    """A docstring's first paragraph on one line, made safe for a table cell
    (Sphinx roles such as ``:meth:`span``` become code spans)."""
    paragraph = inspect.cleandoc(doc or "").split("\n\n")[0]
    return SPHINX_ROLE.sub(r"`\1`", " ".join(paragraph.split())).replace("|", "\\|")


def call_form(helper) -> str:
    """``(a_variant, b_variant, **filters)``: the helper's parameters without
    ``self`` and without annotations."""
    signature = inspect.signature(helper)
    parameters = [p.replace(annotation=inspect.Parameter.empty) for name, p in signature.parameters.items()
                  if name != "self"]
    return str(signature.replace(parameters=parameters, return_annotation=inspect.Signature.empty))


def helper_reference() -> str:
    """The Markdown table of every name a template may use on ``study`` (with
    its parameters and the first paragraph of its docstring), then the fields
    a row has."""
    lines = ["| helper | gives |", "| --- | --- |"]
    for name in StudyView.helper_names():
        if name in VIEW_ATTRIBUTES:
            lines.append(f"| `study.{name}` | {ATTRIBUTE_TEXT[name]} |")
            continue
        helper = getattr(StudyView, name)
        lines.append(f"| `study.{name}{call_form(helper)}` | {first_paragraph(helper.__doc__)} |")
    fields = ", ".join(f"`{name}`" for name in TemplateRow.field_names())
    lines += ["", f"A row (from `study.figures(...)`, `study.one(...)`) has: {fields}.", "",
              "Besides `study`, a template gets `figures` (`figures.latency`, `figures.kernel_time`: each chart as an "
              "embedded image, or a sentence saying why it is omitted) and `generated_note` (the line that marks the "
              "README as generated; render puts it at the top where a template places it nowhere, since a README "
              "without it reads as written by hand and the next render would refuse to replace it). The latency chart plots, of each run, the timing "
              "the generic template's tables show (`study.latency_groups(shown=true)`: GPU compute time of trtexec's "
              "six timings, a CPU run's end-to-end time), names it on its y-axis as the records say it was timed (`median GPU compute "
              "time (ms)`; `median CUDA-event time per forward (ms)` for collect run's CUDA events around each "
              "forward, which hold the GPU's waits for the host), and draws one row of panels per timing method, split and headed as `study.latency_groups` "
              "splits the tables (\"Timed as TensorRT engine, GPU compute time, CUDA graphs off, …\"), so that "
              "latencies timed differently never share an axis; its alt text gives each method's range per shape, and "
              "per batch where the method holds several (\"224 x 224: 1.973 ms at batch 1, 91.60 ms at batch 128\"): "
              "a batch-1 and a batch-4 latency time different work and never share one range. A "
              "figure without a shape is drawn in a panel of its own, \"shape not stated\", never left out."]
    return "\n".join(lines) + "\n"


def replace_reference(text: str, reference: str) -> str:
    """``text`` with the part between :data:`BEGIN` and :data:`END` replaced.
    Raises ValueError when the markers are missing."""
    head, begin, rest = text.partition(BEGIN + "\n")
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError("the helper reference markers are missing")
    return head + begin + reference + "\n" + end + tail


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Print (or write into a guide) the template helper reference.")
    parser.add_argument("--write", type=Path, help="replace the reference between the markers of this file")
    args = parser.parse_args(argv)
    if args.write is None:
        sys.stdout.write(helper_reference())
        return 0
    args.write.write_text(replace_reference(args.write.read_text("utf-8"), helper_reference()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
