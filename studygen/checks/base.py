"""What the checks of one run share: the :class:`CheckContext` (the study and
the README as render makes it now), and findings located in records, in that
README, and in the study-file fields it prints as written."""

from __future__ import annotations

import functools
from dataclasses import replace

from ..errors import StudygenError
from ..findings import Finding
from ..patterns import lazy_compile
from ..records.load import yaml_phrase_line, yaml_text_line
from ..render.engine import Rendered, render_study
from ..render.produced import WRITTEN, recording
from ..study.rows import Row
from .kernel_rule_use import StudyRules, study_rules
from .prose_figures import quotations
from .readme_text import ReadmeText


class CheckContext:
    """One study as every check of a run reads it (each check is a pure
    function ``check(context) -> list[Finding]``).

    ``study`` is the loaded :class:`studygen.study.Study`. The properties
    below render the study once, on first use, and keep the result for the
    other checks (render is the costly step): ``rendered`` (what render
    writes, None when it fails), ``render_error`` (the TemplateError or other
    StudygenError it failed with, SG201 reports it), ``produced`` (every
    render helper output of that render, :class:`studygen.render.produced.Produced`),
    ``rendered_readme`` (the README's text, which ``readme_text`` reads) and
    ``readme_text`` (the README as a :class:`studygen.checks.readme_text.ReadmeText`).
    What more than one check reads of the study file is worked out once too:
    ``quotations`` (the figures its claims quote) and ``study_rules`` (its
    kernel grouping rules, compiled).
    """

    def __init__(self, study):
        self.study = study

    @functools.cached_property
    def _render(self) -> tuple[Rendered | None, list, StudygenError | None]:
        try:
            with recording() as produced:
                rendered = render_study(self.study)
        except StudygenError as exc:
            return None, [], exc
        return rendered, list(produced), None

    @property
    def rendered(self) -> Rendered | None:
        """What ``studygen render`` writes now (README and figures); None when it cannot render."""
        return self._render[0]

    @property
    def render_error(self) -> StudygenError | None:
        """Why the study cannot render (template or study file), None when it can."""
        return self._render[2]

    @property
    def produced(self) -> list:
        """The render helper outputs of the README (``[]`` when it cannot render)."""
        return self._render[1]

    @functools.cached_property
    def rendered_readme(self) -> str | None:
        """The README text render makes now; None when the study has
        problems (SG202: it is not rendered) or cannot render (SG201)."""
        if self.study.problems or self.rendered is None:
            return None
        return self.rendered.readme

    @functools.cached_property
    def readme_text(self) -> ReadmeText | None:
        """The README as render makes it now, with the spans each helper
        printed; None when the study cannot render or has invalid records
        (SG201 and SG202 say why)."""
        readme = self.rendered_readme
        return None if readme is None else ReadmeText(readme, self.produced)

    @functools.cached_property
    def quotations(self) -> list[tuple[tuple, int, str, str, str]]:
        """:func:`~studygen.checks.prose_figures.quotations` of the study
        file: what SG213 and SG222 (both of its readings) read, made once.
        Read only."""
        return quotations(self.study.spec)

    @functools.cached_property
    def study_rules(self) -> StudyRules | None:
        """:func:`~studygen.checks.kernel_rule_use.study_rules` of the
        study: SG210 and SG223 read the same rules, and the kernel names each
        rule was searched in are kept with them (a profile lists the same
        kernels in many results)."""
        return study_rules(self.study)

    def produced_outputs(self, kinds=None):
        """``(item, readme)`` for each render helper output of the README (of
        ``kinds`` only, when given; a study-file string printed as written,
        kind :data:`~studygen.render.produced.WRITTEN`, only when asked by
        kind): ``item`` a :class:`studygen.render.produced.Produced`,
        ``readme`` the :attr:`readme_text` that locates it. Yields nothing
        when the study cannot render."""
        readme = self.readme_text
        if readme is None:
            return
        for item in self.produced:
            if item.kind in kinds if kinds is not None else item.kind != WRITTEN:
                yield item, readme


def row_finding(code: str, row: Row, message: str, hint: str = "", **extra) -> Finding:
    """A finding about one figure row: its record, pointer, line and key (as text, which waivers name)."""
    return Finding(code, message, row.record.display_path, line=row.line, pointer=row.pointer, key=row.key.text(),
                   hint=hint, **extra)


def readme_finding(study, code: str, line: int, message: str, hint: str = "", **extra) -> Finding:
    """A finding about a README line (lines of the README as render makes it;
    SG201 keeps the committed README equal to it)."""
    return Finding(code, message, study.rel(study.readme_path), line=line, hint=hint, **extra)


def prose_finding(context, code: str, index: int, span: tuple[int, int], message: str, hint: str,
                  written_hint: str, **extra) -> Finding:
    """A finding about the hand-written sentence at ``span`` (``(start,
    end)`` in line ``index``, 0-based, of :attr:`CheckContext.readme_text`):
    at the README line when the template wrote it (:func:`readme_finding`,
    ``hint``); at the study-file field when render printed the field there as
    written (:func:`at_written_field`, ``written_hint``: what to change in
    the field, in words that need no template helper)."""
    finding = readme_finding(context.study, code, index + 1, message, hint, **extra)
    item = context.readme_text.written_at(index, *span)
    if item is None:
        return finding
    return at_written_field(context, finding, item, written_hint, context.readme_text.lines[index][span[0]:span[1]])


# "line 26", "lines 12, 30 and 41" in a message: lines of the README the finding was made in
_README_LINES = lazy_compile(r"\blines? \d+(?:(?:, | and )\d+)*\b")


def at_written_field(context, finding: Finding, item, advice: str, phrase: str = "",
                     offset: int | None = None) -> Finding:
    """``finding`` (at a README line) moved to the study-file field render
    printed there as written (``item``, a ``Produced`` of kind
    :data:`~studygen.render.produced.WRITTEN`): the study file, the line
    where ``phrase`` (the sentence at fault, as the README prints it) starts
    in the field, or the field's own line when that is unknown or not
    certain (:func:`~studygen.records.load.yaml_phrase_line`), or, given
    ``offset`` (a character offset into the field's text: where the figure
    at fault stands), the line of that character
    (:func:`~studygen.records.load.yaml_text_line`); and the field's
    pointer. Its hint says to edit the field, which the README prints at
    the finding's line, as ``advice`` says (lower case, no final
    stop). README lines its message names ("the table at line 26") say
    they are the README's ("the table at README.md line 26"), the finding
    now naming the study file."""
    study = context.study
    if offset is None:
        line = yaml_phrase_line(study.spec_text, item.field_path, phrase)
    else:
        line = yaml_text_line(study.spec_text, item.field_path, offset)
    hint = (f"edit {item.source.pointer} in this file, which the README prints as written "
            f"({finding.file} line {finding.line})" + (f": {advice}" if advice else "") + "; then run studygen render")
    message = _readme_lines_named(finding.message, finding.file, str(item.text))
    return replace(finding, message=message, file=item.source.path, line=line, pointer=item.source.pointer, hint=hint)


def _readme_lines_named(message: str, readme: str, field_text: str) -> str:
    """``message`` with each mention of a line (lines of the README
    ``readme``, as shown) naming the README's file: "line 26" becomes
    "README.md line 26". A mention the field's own text holds too ("line 3"
    in a sentence the message quotes) is left as it is: which one it is
    cannot be told."""
    name = readme.rsplit("/", 1)[-1]
    written = " ".join(field_text.split()).lower()
    return _README_LINES.sub(
        lambda match: match.group() if match.group().lower() in written else f"{name} {match.group()}", message)
