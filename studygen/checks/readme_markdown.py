"""SG101–SG107 on the committed README: the lint checks (table vs prose,
structure) run on every family README, plus SG104 when mdformat would change
the README (not idempotent) or the README cannot be read as text.

The mdformat pass is made for every README, also one equal to the text
render makes now: mdformat is not idempotent on every text, so render's
output is not always a fixpoint (a study title of stray emphasis markers
and brackets comes out of render's formatting as text a second pass
rewrites), and such a README is SG104 although it is render's own output.

Case: the seed README passed its own Markdown checks yet its summary range
left out a table row; check lints every generated README so that a template
that writes such a range fails too.

A finding on a line whose whole text is a study-file field render printed
as written (the decision summary, a revisit condition: lint names a line,
not a place in it) is about that field: it is reported at the field
(:func:`~studygen.checks.base.at_written_field`), when the README on disk
holds that line as render makes it now. Case (a new user's study): "within
noise" in the decision summary was reported at README line 9, a file that is
never edited. SG104 stays on the README: its structure is render's.
"""

from __future__ import annotations

import re

from ..errors import StudygenError
from ..findings import Finding, error_finding
from ..lint import STRUCTURE_CODE, lint_text, mdformat_idempotency_finding
from ..lint.figures import figures_of, opening_figure
from ..textio import read_text
from ..patterns import lazy_compile
from .base import at_written_field

# the output kind of a record's note as render prints it (studygen.render.produced.OUTPUT_KINDS)
RECORD_NOTE = "record_note"

# A lint message's opening quotation of the text it is about ("'int8 is faster than fp16 on every GPU' compares ...")
_OPENING_QUOTE = lazy_compile(r"'(.+?)'(?=[ :,]|$)")
# A sentence of a field: up to a stop followed by white space (a decimal point is followed by a digit)
_SENTENCE = lazy_compile(r"\S.*?(?:[.!?](?=\s)|$)", re.DOTALL)


def check(context) -> list[Finding]:
    study = context.study
    path = study.readme_path
    if not path.exists():
        return []  # SG201 reports the missing README
    shown = study.rel(path)
    try:
        text = read_text(path, shown)
    except StudygenError as exc:
        return [error_finding(STRUCTURE_CODE, exc)]  # read_text names the file as shown
    findings = lint_text(text, shown)
    if findings:
        on_disk = text.splitlines()
        findings = [_at_its_field(context, finding, on_disk) for finding in findings
                    if not _about_a_record_note(context, finding, on_disk)]
    idempotency = mdformat_idempotency_finding(text, shown)  # also for render's own output (module docstring)
    if idempotency is not None:
        findings.append(idempotency)
    return findings


def _rendered_line(context, finding: Finding, on_disk: list[str]) -> int | None:
    """The 0-based index of the README line a lint ``finding`` names, where
    the README on disk (``on_disk``) holds that line as render makes it now;
    None for a structure finding, a finding without a line, no rendered
    README, or a line render does not make so (a stale README, SG201: the
    line may not be render's)."""
    readme = context.readme_text
    if finding.code == STRUCTURE_CODE or not finding.line or readme is None:
        return None
    index = finding.line - 1
    if index >= len(on_disk) or index >= len(readme.raw_lines) or on_disk[index] != readme.raw_lines[index]:
        return None
    return index


def _about_a_record_note(context, finding: Finding, on_disk: list[str]) -> bool:
    """True when ``finding`` (a lint finding at a line of the README on disk)
    is about text that, everywhere the line prints it, lies inside a record
    note (kind ``record_note``: what a collector wrote about its input,
    printed as written), where render prints that line so now. Such a note
    states no result of the study: its figures summarise no table column
    and derive nothing the README's tables give, and nobody words it but
    the collector. Case (a new user's study): collect coco's note on tied
    scores, "AP 0.4718 to 0.4718, AP50 0.8820 to 0.8820", the range of one
    job's AP over the orders of its ties, was read as a summary of the AP
    column and made three SG101 errors at the README's provenance list."""
    index = _rendered_line(context, finding, on_disk)
    if index is None:
        return False
    readme = context.readme_text
    notes = [(start, end) for start, end, item in readme.spans[index] if item.kind == RECORD_NOTE]
    if not notes:
        return False
    line = readme.lines[index]
    quoted = _OPENING_QUOTE.match(finding.message)
    if quoted:
        phrase = quoted.group(1).removesuffix("…")
        places = [(match.start(), match.start() + len(phrase)) for match in re.finditer(re.escape(phrase), line)]
    else:
        said = figures_of(finding.message) if opening_figure(finding.message) is not None else []
        places = [(figure.start, figure.end) for figure in figures_of(line)
                  if said and (figure.text, figure.unit) == (said[0].text, said[0].unit)]
    return bool(places) and all(any(low <= start and end <= high for low, high in notes) for start, end in places)


def _at_its_field(context, finding: Finding, on_disk: list[str]) -> Finding:
    """``finding`` (at a line of the README on disk, whose lines are
    ``on_disk``) at the study-file field whose text fills that line, where
    render prints that line so now; otherwise as it is."""
    index = _rendered_line(context, finding, on_disk)
    if index is None:
        return finding
    item = context.readme_text.written_line(index)
    if item is None:
        return finding
    # lint names a line, not a place in it: a claim the message opens with quoting ('int8 is faster ...'), else the
    # figure it opens with ("5.0x between ...", "range 0.05 to ..."), is the phrase to find in the field (its line
    # when it stands at one place only); the rule's hint says how to word the sentence, the field is where to word it
    advice = finding.hint.rstrip(".")
    quoted = _OPENING_QUOTE.match(finding.message)
    if quoted:
        return at_written_field(context, finding, item, advice, quoted.group(1).removesuffix("…"))
    return at_written_field(context, finding, item, advice, offset=_figure_offset(str(item.text), finding.message))


def _figure_offset(field_text: str, message: str) -> int | None:
    """Offset in ``field_text`` of the figure ``message`` opens with, read
    as a figure (printed digits and unit equal: "8x" is not the tail of
    "5.08x", nor the "8" of "batch 8"); where the field prints it more than
    once, the one whose sentence holds the most of the message's other
    figures ("8x does not follow from 11.09 and 0.2754 ms" is about the
    sentence printing 11.09 and 0.2754). None when the message opens with no
    figure, the field prints it nowhere, or two places tie: the field's own
    line is named then."""
    if opening_figure(message) is None:
        return None
    said = figures_of(message)
    if not said:
        return None
    opening, others = said[0], {figure.text for figure in said[1:]}
    written = figures_of(field_text)
    places = [figure.start for figure in written if (figure.text, figure.unit) == (opening.text, opening.unit)]
    if len(places) <= 1:
        return places[0] if places else None
    sentences = [(match.start(), match.end()) for match in _SENTENCE.finditer(field_text)]

    def shared(start: int) -> int:
        low, high = next((span for span in sentences if span[0] <= start < span[1]), (start, start + 1))
        return len(others & {figure.text for figure in written if low <= figure.start < high})

    scores = [shared(start) for start in places]
    best = max(scores)
    chosen = [start for start, score in zip(places, scores) if score == best]
    return chosen[0] if len(chosen) == 1 else None
