"""Fill a study's Jinja template and format the result with mdformat.

Templates run in Jinja's ``ImmutableSandboxedEnvironment`` with
``StrictUndefined``: a template can call the view's helpers but not reach
``__class__``, import modules, open files or change a list or mapping it is
given (the study file's spec, a record row: a template that appended a waiver
made ``check`` pass a hand-edited README), and an undefined name is an error,
not an empty string. Execution is bounded (:data:`MAX_TEMPLATE_STEPS` loop
items and calls, :data:`MAX_OUTPUT_CHARS` of output, and what it makes as it
makes it: :mod:`studygen.render.limits`) and an object's default
repr (``<… object at 0x7f…>``, an address that differs from run to run) may not
reach the output. Output is formatted with mdformat (GFM tables) so it is
byte-identical from run to run and stable under mdformat.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from ..errors import InputError, TemplateError
from ..fsutil import atomic_write_bytes, remove_stale_temp_files, resolved, shown_path
from ..markdown_format import format_markdown
from ..patterns import lazy_compile
from ..records.load import yaml_line
from ..textio import MAX_DOCUMENT_BYTES, MAX_RENDERED_BYTES, read_bytes, read_text, regular_file
from . import limits
from .charts import render_charts
from .generated import GENERATED_NOTE, holds_note
from .produced import anchoring, helper_spec
from .escaping import escape_alt, escape_prose
from .prose import Markdown
from .rows import TemplateRow
from .template_memo import (BUDGET_FILTER, ParsedTemplate, compiled_template, parsed_template, shipped_code,
                            shipped_template)
from .template_chain import ancestors, refuse_unprinted_blocks
from .study_file import StudyDataError, StudyFileList, StudyFileMapping, as_written, missing_field
from .view import StudyView



class Rendered(NamedTuple):
    """What one study renders to: the README (path → bytes) and its charts
    (path → :class:`studygen.render.charts.Chart`, drawn on demand)."""

    study_dir: Path
    files: dict[Path, bytes]
    charts: dict
    root: Path | None = None  # the project root: messages name paths relative to it

    @property
    def readme(self) -> str:
        return self.files[self.study_dir / "README.md"].decode("utf-8")

    def paths(self) -> list[Path]:
        """Every output path, charts first (render writes the README last)."""
        return [*self.charts, *self.files]

    def data(self, path: Path) -> bytes:
        """The bytes render writes to ``path`` (a chart is drawn if it was not yet)."""
        return self.charts[path].svg if path in self.charts else self.files[path]

    def is_current(self, path: Path, committed: bytes) -> bool:
        """True when ``committed`` is what render writes to ``path``; a chart
        is compared through its stamp (see Chart.is_current: drawn only when
        the stamp names other inputs or does not match its drawing)."""
        if path in self.charts:
            return self.charts[path].is_current(committed)
        return committed == self.data(path)


def template_dirs(study) -> list[Path]:
    return [study.study_dir, study.root / "templates"]


def _one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) folded to one space."""
    return " ".join(str(text).split())


def _template_error(exc: Exception, template_name: str, study=None) -> TemplateError:
    """A TemplateError naming the template file (relative to the project root
    when ``study`` is given) and the template line of ``exc``, on one line."""
    import jinja2

    def shown(name) -> str:
        name = str(name)
        return study.rel(Path(name)) if study is not None and Path(name).is_absolute() else name

    if isinstance(exc, jinja2.TemplateSyntaxError):
        name = exc.filename or exc.name or template_name
        return TemplateError(f"template syntax error: {_one_line(exc.message)}", path=shown(name), line=exc.lineno or 0)
    if isinstance(exc, UnreadableTemplate):
        return TemplateError(f"template cannot be read: {exc.message}", path=shown(exc.path), line=exc.place.line)
    line, name, reached = 0, template_name, ""
    frames = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if frame.filename.endswith((".j2", ".jinja", ".md")) or frame.filename == "<template>"]
    if frames:
        line, name = frames[-1].lineno or 0, frames[-1].filename
        own = [frame for frame in frames if not _builtin_file(frame.filename)]
        if _builtin_file(name) and own:  # a built-in template ran it for one of the study's (imported, included)
            reached = f" (reached from {shown(own[-1].filename)} line {own[-1].lineno or 0})"
            name = f"{BUILTIN_PREFIX}/{Path(name).name}"
    if isinstance(exc, RecursionError):  # Python's words name none of the ways a template recurses
        exc = TemplateError("maximum recursion depth exceeded: a macro that calls itself, or a template that "
                            "includes or imports itself, without end")
    if isinstance(exc, StudyDataError):  # its place is the study file's; the template line says who asked
        return TemplateError(f"{exc.message} (asked for by {shown(name)} line {line})", place=exc.place)
    kind = "template error"
    if isinstance(exc, MemoryError):
        kind, exc = "template ran out of memory", TemplateError(
            "a value it builds is too large for this machine's memory")
    elif isinstance(exc, jinja2.exceptions.SecurityError):
        kind = "template refused by the sandbox"
    elif isinstance(exc, jinja2.UndefinedError):
        kind = "undefined name in template"
    if isinstance(exc, jinja2.TemplateNotFound):
        # {% include/import/extends %} of a name outside the template folders (or absent):
        # the loader refuses absolute paths and '..', so no other file can be read.
        folders = ", ".join(study.rel(p) for p in template_dirs(study)) if study is not None else "the template folders"
        message = (f"template '{exc.name}' not found in {folders} (templates may include only template files there, "
                   f"named {', '.join('*' + suffix for suffix in TEMPLATE_SUFFIXES)})")
    else:
        message = exc.message if isinstance(exc, TemplateError) else str(exc)
    return TemplateError(f"{kind}: {_one_line(message)}{reached}", path=shown(name), line=line)


def _builtin_file(filename: str) -> bool:
    """True for the file of a template shipped with studygen (``studygen/render/templates``)."""
    return Path(filename).parent == Path(__file__).parent / "templates"


class UnreadableTemplate(TemplateError):
    """A template file that is not text studygen reads (not UTF-8, binary, too large)."""


# A template file's name ends so: the family folder is a template folder too (a template may sit next to its
# study file), and it also holds the README render writes, the study file, charts and scripts. Included, the
# README fed the last render's text into the next one, and the study file printed as prose.
TEMPLATE_SUFFIXES = (".j2", ".jinja", ".jinja2")


def _confined_loader(search_path: list[Path]):
    """A ``FileSystemLoader`` that also refuses a template file whose real path
    (symbolic links followed) lies outside ``search_path`` (Jinja's loader
    already refuses absolute names and '..', this closes the symlink way
    out) or whose name (the link's target's, for a link) does not end in
    one of :data:`TEMPLATE_SUFFIXES` (the README, the study file, a chart),
    and reads a template as every text input is read
    (:func:`studygen.textio.read_text`: a byte order mark dropped, at most
    :data:`MAX_DOCUMENT_BYTES`; a file that is not UTF-8 text is an
    :class:`UnreadableTemplate` naming it, not a UnicodeDecodeError)."""
    import jinja2
    from jinja2.loaders import split_template_path

    folders = [resolved(Path(p)) for p in search_path]

    class ConfinedFileSystemLoader(jinja2.FileSystemLoader):
        def get_source(self, environment, template):
            pieces = split_template_path(template)  # TemplateNotFound for '..'
            path = next((Path(folder, *pieces) for folder in self.searchpath if Path(folder, *pieces).is_file()), None)
            if path is None or not any(resolved(path).is_relative_to(folder) for folder in folders) \
                    or not resolved(path).name.endswith(TEMPLATE_SUFFIXES):
                raise jinja2.TemplateNotFound(template)
            try:
                source = read_text(path, str(path), limit=MAX_DOCUMENT_BYTES, allow_empty=True)  # renders nothing
            except InputError as exc:
                raise UnreadableTemplate(exc.message, path=str(path), line=exc.place.line) from None
            mtime = path.stat().st_mtime
            return source, os.path.normpath(path), lambda: path.is_file() and path.stat().st_mtime == mtime

    return ConfinedFileSystemLoader([str(p) for p in search_path])


BUILTIN_PREFIX = "studygen"  # "studygen/generic.md.j2" names a template shipped with studygen
GENERIC_TEMPLATE = f"{BUILTIN_PREFIX}/generic.md.j2"


def _builtin_loader():
    """The templates shipped in ``studygen/render/templates`` (package data,
    read with importlib.resources), addressed as ``studygen/NAME``."""
    import jinja2

    return jinja2.PackageLoader("studygen.render", "templates")


# A step is one loop item or one call. The shipped studies take a few hundred steps each; nested
# range(100000) loops would take 10**10 (render and check hung). At about 2 * 10**6 steps a second, a
# runaway template ends in well under a second.
MAX_TEMPLATE_STEPS = 1_000_000
MAX_OUTPUT_CHARS = MAX_DOCUMENT_BYTES  # a README past the size any loader of studygen reads is refused
# An object's default repr, or a function's: its address differs from run to run.
OBJECT_ADDRESS = lazy_compile(r" at 0x[0-9A-Fa-f]+>")


def make_environment(search_path: list[Path]):
    """The sandboxed Jinja environment: immutable (a template cannot change a
    list, mapping or set it is given), StrictUndefined, no autoescape
    (Markdown, not HTML: record strings are escaped by the view's helpers),
    keep trailing newline; '*' and '**' limited (:func:`limits.refuse_huge_result`);
    every loop item and call counted against :data:`MAX_TEMPLATE_STEPS`
    (``steps`` holds the count); no ``lipsum`` (random text: output would
    differ from run to run)."""
    import jinja2
    from jinja2.exceptions import SecurityError
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    class StudySandbox(ImmutableSandboxedEnvironment):
        # also keeps them out of compile-time constant folding
        intercepted_binops = frozenset({"*", "**", "+", "%"})
        code_generator_class = limits.budgeted_code_generator()
        steps = 0
        budget = None  # what the template made (studygen.render.limits.TemplateBudget), set below

        def step(self) -> None:
            self.steps += 1
            if self.steps > MAX_TEMPLATE_STEPS:
                raise SecurityError(f"more than {MAX_TEMPLATE_STEPS} steps (loop items and calls): a loop that "
                                    "does not end, or loops nested too deep")

        def budgeted(self, iterable):
            for item in iterable:
                self.step()
                yield item

        def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja2's signature
            __self.step()
            what = f"calling {getattr(__obj, '__name__', type(__obj).__name__)}"
            args = limits.listed_arguments(__obj, args)
            __self.budget.room(limits.call_size(__obj, args, kwargs), what)
            result = __self.budget.made_by(super().call(__context, __obj, *args, **kwargs), what)
            return trusted_result(__obj, result)

        def sliced(self, value):
            return self.budget.made_by(value, "a slice")

        def wrap_str_format(self, value):
            # str.format and format_map: each field is given room for its width, precision and text
            if super().wrap_str_format(value) is None:
                return None
            return limits.bounded_format(self, value)

        def produced(self, text):
            return self.budget.made_by(text, "the text it prints")

        def printed(self, value):
            # what {{ value }} prints, in one call (limits.budgeted_code_generator): produced(str(finalize(value)))
            return self.produced(str(self.finalize(value)))

        def concatenated(self, join, parts):
            self.budget.room(sum(limits.text_size(part) for part in parts), "'~'")
            return self.budget.made_by(join(parts), "'~'")

        def finalized(self, value):
            self.budget.room(limits.text_size(value), "printing a value")
            return markdown_value(value)

        def is_safe_attribute(self, obj, attr, value):
            # A template reaches the view's declared helpers and study-file attributes only. Jinja's own
            # test passes each of them (no name of a helper starts with "_", and a view is no function,
            # type or mutable container): it is asked of any other object.
            if isinstance(obj, StudyView):
                return attr in helper_names
            return super().is_safe_attribute(obj, attr, value)

        def getattr(self, obj, attribute):
            # A misspelt helper or row field would otherwise surface as "undefined": name the valid ones.
            value = super().getattr(obj, attribute)
            if isinstance(value, jinja2.Undefined) and isinstance(obj, StudyFileMapping) and not hasattr(obj, attribute):
                return missing_field(self.undefined, obj, attribute)  # a method (update) stays the sandbox's refusal
            if isinstance(value, jinja2.Undefined) and not hasattr(obj, attribute):  # else: refused by the sandbox
                if isinstance(obj, StudyView):
                    raise TemplateError(f"unknown helper study.{attribute}; helpers are "
                                        f"{', '.join(StudyView.helper_names())}")
                if isinstance(obj, TemplateRow):
                    raise TemplateError(f"a row has no field {attribute}; its fields are {', '.join(TemplateRow.field_names())}")
            return value

        def getitem(self, obj, argument):
            # study.spec.recipes["r"]["description"]: a field the study file lacks names the file and pointer
            value = super().getitem(obj, argument)
            if (isinstance(value, jinja2.Undefined) and isinstance(obj, (StudyFileMapping, StudyFileList))
                    and not (isinstance(argument, str) and hasattr(obj, argument))):
                return missing_field(self.undefined, obj, argument)
            return value

        def call_binop(self, context, operator, left, right):
            limits.refuse_huge_result(operator, left, right)
            self.budget.room(limits.binop_size(operator, left, right), f"'{operator}'")
            return self.budget.made_by(super().call_binop(context, operator, left, right), f"'{operator}'")

        def _compile(self, source, filename):
            return limits.compile_generated(source, filename)

        def compile(self, source, name=None, filename=None, raw=False, defer_init=False):  # noqa: A003 - jinja2's
            if raw or defer_init or not isinstance(source, str):
                return super().compile(source, name, filename, raw, defer_init)
            return compiled_template(source, name, filename, lambda: self._compile_shipped(source, name, filename))

        def _compile_shipped(self, source, name, filename):
            # a built-in template's code generated at development time, its code object from Python's bytecode
            shipped = shipped_template(source, name)
            if shipped is None:
                return super(StudySandbox, self).compile(source, name, filename)
            return shipped_code(shipped[1], filename or "<template>")

        def _parse(self, source, name, filename):
            return parsed_template(self, source, name, filename).tree

        def parsed(self, source, name=None, filename=None) -> ParsedTemplate:
            """``parse``, giving the tree with its nodes listed (:class:`ParsedTemplate`)."""
            try:
                return parsed_template(self, source, name, filename)
            except jinja2.TemplateSyntaxError:
                self.handle_exception(source=source)

    helper_names = frozenset(StudyView.helper_names())
    env = StudySandbox(
        loader=jinja2.ChoiceLoader([jinja2.PrefixLoader({BUILTIN_PREFIX: _builtin_loader()}),
                                    _confined_loader(search_path)]),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=markdown_value,
        # without Jinja's optimizer pass (constant sub-expressions folded while compiling, which studies'
        # templates, printing figures of records, gain nothing from): a template compiles in about 25 % less
        # time, and every process compiles its templates anew; template_memo.parsed_template relies on it (the
        # optimizer rewrites a tree's fields, which would leave the children it lists once stale)
        optimized=False,
    )
    env.budget = limits.TemplateBudget()
    env.filters = limits.budgeted_filters(env.filters, env.budget)
    env.filters[BUDGET_FILTER] = env.budgeted
    env.finalize = env.finalized
    env.globals.pop("lipsum", None)
    return env


def trusted_result(function, result):
    """``result`` of a call a template made, as :class:`~studygen.render.prose.Markdown`
    when ``function`` is a view helper declared to print Markdown
    (:func:`studygen.render.produced.helper`: its record strings are escaped
    cell by cell) and the result is text; anything else as it is, so that a
    template's ``{{ }}`` escapes it for prose."""
    spec = helper_spec(function)
    if isinstance(result, str) and spec is not None and spec.markdown:
        return Markdown(result)
    return result


def markdown_value(value):
    """What ``{{ value }}`` puts in the Markdown (Jinja's ``finalize``): the
    Markdown of a table helper, the generated note and figure links as they
    are; any other text (a record or study file string, ``figure.job_id``,
    ``study.decision.summary``, ``study.label(...)``, a filter's result, a
    figure's formatted value, any other object as ``str()`` prints it)
    escaped for prose (:func:`~studygen.render.escaping.escape_prose`): a GPU name
    ``"B200\\n\\n# x"`` cannot add a heading. A prose field of the study file
    (:class:`~studygen.render.study_file.StudyFileText`) is noted as printed
    as written from its field. Numbers and None as they are.
    Raises jinja2's SecurityError for text holding an object's default repr
    (:data:`OBJECT_ADDRESS`: ``'%s'|format(study)``), whose address would
    make the output differ from run to run."""
    if isinstance(value, Markdown) or value is None or isinstance(value, (int, float)):
        return value
    text = str(value)  # text, a figure, a list, a method or another object: as str() prints it
    address = OBJECT_ADDRESS.search(text)
    if address:
        from jinja2.exceptions import SecurityError

        shown = text[max(0, address.start() - 60):address.end()]
        raise SecurityError(f"prints an object, not a figure or text ({_one_line(shown)!r}): its address differs "
                            "from run to run")
    return escape_prose(as_written(value, text))


def bounded_output(chunks) -> str:
    """The text of a template's output generator, refused past
    :data:`MAX_OUTPUT_CHARS`. The refusal is thrown into the generator, so
    that its traceback names the template line that made the last piece."""
    from jinja2.exceptions import SecurityError

    parts, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > MAX_OUTPUT_CHARS:
            chunks.throw(SecurityError(f"output past {MAX_OUTPUT_CHARS} characters, more than a README may hold"))
        parts.append(chunk)
    return "".join(parts)


PR_BODY_BLOCKS = ("summary", "results", "runs_without_figure", "not_measured")
# printed where the template has it: a results cell's "—" points a reader to the failed runs listed there (a new
# user's pull request body left the failed fp16 build out, session 28); a template without it still renders
OPTIONAL_BLOCKS = frozenset({"runs_without_figure"})
def render_markdown(study, template_name: str | None = None, extra_context: dict | None = None,
                    blocks: tuple[str, ...] | None = None) -> str:
    """The study's README text (formatted), without writing anything.

    Raises TemplateError (file and line) for a missing template, a syntax
    error, an undefined name or a sandbox violation.
    """
    import jinja2

    template_name = template_name or study.spec["template"]
    env = make_environment(template_dirs(study))
    view = StudyView(study)
    note = Markdown(GENERATED_NOTE.format(
        family=study.family, records=study.rel(study.measurements_dir), study_file=study.rel(study.study_path)))
    context = {"study": view, "generated_note": note}
    context.update(extra_context or {})
    try:
        template = env.get_template(template_name)
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(f"template '{exc.name}' not found in {', '.join(study.rel(p) for p in template_dirs(study))}"
                            + ("" if str(exc.name).endswith(TEMPLATE_SUFFIXES) else
                               f" (a template file is named {', '.join('*' + suffix for suffix in TEMPLATE_SUFFIXES)})"),
                            path=study.rel(study.study_path), line=yaml_line(study.spec_text, "template"),
                            pointer="/template") from None
    except Exception as exc:  # noqa: BLE001 - a syntax error in the template file
        raise _template_error(exc, template_name, study) from None
    refuse_unprinted_blocks(env, template_name, study)
    try:
        with anchoring() as anchors:
            text = _generate(env, template, template_name, context, blocks)
    except Exception as exc:  # noqa: BLE001 - any failure inside a template is the template's error
        raise _template_error(exc, template_name, study) from None
    try:
        formatted = format_markdown(text)
        if blocks is None and not holds_note(formatted.encode("utf-8")):
            # Without the note, the README render writes reads as hand-written to the next render, which then
            # refuses to replace it: a template that leaves the note out could be rendered once only.
            formatted = format_markdown(f"{note}\n\n{text}")
    except RecursionError:  # mdformat builds a tree of nested nodes with one Python call per level
        shown = study.rel(Path(template.filename)) if template.filename and Path(template.filename).is_absolute() \
            else template_name
        raise TemplateError("template error: its output nests emphasis, links, quotes or lists too deeply for "
                            "mdformat to format (more levels than Python's recursion limit)", path=shown) from None
    return anchors.strip(formatted)


def _generate(env, template, template_name: str, context: dict, blocks: tuple[str, ...] | None) -> str:
    """The template's output (the whole of it, or ``blocks`` joined by a blank
    line), before formatting. Raises what the template raises."""
    if blocks is None:
        return bounded_output(template.generate(**context))
    # Same template, same context: the pull request text cannot disagree with the README.
    jinja_context = template.new_context(context)
    for ancestor in ancestors(env, template_name):
        for name, render_block in ancestor.blocks.items():  # as Jinja's {% extends %} does
            jinja_context.blocks.setdefault(name, []).append(render_block)
    missing = [b for b in blocks if b not in jinja_context.blocks and b not in OPTIONAL_BLOCKS]
    if missing:
        raise TemplateError(f"template has no block {', '.join(missing)} (needed for --pr-body)")
    return "\n\n".join(bounded_output(jinja_context.blocks[b][0](jinja_context)) for b in blocks
                         if b in jinja_context.blocks)


def render_study(study) -> Rendered:
    """Everything a study renders to (README, and charts where the study has them).
    Templates get the charts as ``figures`` (``figures.latency``: the image
    link, or the sentence saying why the chart is omitted)."""
    charts = render_charts(study)
    # alt text names groups and shapes from the records and study file: escaped like any such string
    readme = render_markdown(study, extra_context={"figures": {
        name: Markdown(replace(chart, alt=escape_alt(chart.alt)).markdown(study.study_dir))
        for name, chart in charts.items()}})
    return Rendered(study.study_dir, {study.readme_path: readme.encode("utf-8")},
                    {chart.path: chart for chart in charts.values() if chart.present}, study.root)


def _is_current_on_disk(rendered: Rendered, path: Path) -> bool:
    """True when ``path`` holds what render writes there. False when nothing
    is there, a folder (the write names it) or a regular file too large to
    be render's output; InputError naming it when a FIFO, device or link loop
    stands there (opening one could hang, and writing over it would lose
    what it is)."""
    if not os.path.lexists(path) or path.is_dir():
        return False
    if regular_file(path).st_size > MAX_RENDERED_BYTES:
        return False
    return rendered.is_current(path, read_bytes(path, limit=MAX_RENDERED_BYTES))


def write_rendered(rendered: Rendered) -> list[Path]:
    """Write each file atomically (figures first, README last); return the
    paths whose bytes changed. Temp files that a killed render left next to
    these files are removed first (see :func:`studygen.fsutil.stale_temp_files`)."""
    stale = []
    for path in rendered.paths():
        remove_stale_temp_files(path.parent)
        # a figure whose stamp is current is not drawn (nor matplotlib imported), as in check
        if _is_current_on_disk(rendered, path):
            continue
        stale.append(path)
    for path in stale:  # refuse before writing anything, so a read-only folder leaves the set as it was
        folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), None)
        if folder is not None and not os.access(folder, os.W_OK | os.X_OK):
            raise InputError(f"cannot write: {shown_path(folder, rendered.root)} is not writable",
                             path=shown_path(path, rendered.root))
    changed = []
    for path in stale:
        try:
            atomic_write_bytes(path, rendered.data(path))
        except OSError as exc:  # a full disk, a README that is a folder: name the target, not the temp file
            raise InputError(f"cannot write: {exc.strerror or exc}", path=shown_path(path, rendered.root)) from None
        changed.append(path)
    return changed
