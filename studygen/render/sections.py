"""README sections of the view that come from the study as a whole: image
sets, provenance and record notes, side findings (precision inversions,
measurements reported by several jobs), what was not measured, and the known
gaps a README must admit by itself (waivers, explanations, unpublished image
ids, unstable timings)."""

from __future__ import annotations

import functools
import re

from ..errors import TemplateError
from ..numbers import format_number
from ..records.checkpoints import prefix_of
from ..records.keys import FIELDS, measuring_machine, stated_software
from ..records.kinds import RESULT_KINDS, Kind
from ..records.profile_spread import cpu_operator_profile
from ..study.analyses import UNCLASSIFIED_LIMIT, kernel_time_over_compute, unclassified_share
from ..study import NOT_MEASURED_KEY
from ..study.rows import Row
from ..study.spread import declared_sources
from ..study.timing import reported_by_several_jobs, timing_words
from ..study.waiver_rules import refusal
from .escaping import code_span, escape_cell, escape_label, escape_label_in_prose, escape_markup
from .kernel_spans import CPU_OPERATOR_WORDS
from .labels import NOT_STATED, gpu_label, shape_label, version_label
from .produced import emit, helper
from .rows import ViewBase, and_list, fmt, spread_cells
from .study_file import as_written
from .tables import DEFAULT_ORIGIN, index_label, machine_header, markdown_table, metric_words, unstated_label


# a kernel_time result's ``profiler`` field as collect trtexec writes it (or a transcription names it):
# trtexec's per-layer profiler, either form
TRTEXEC_PROFILE = re.compile(r"\btrtexec\b.*?(--dumpProfile|--exportProfile)")
# how a sentence names the profile: (with the file its source_locator names, without one)
PROFILE_SOURCE = {"--dumpProfile": ("the --dumpProfile table of {file}", "a --dumpProfile table"),
                  "--exportProfile": ("the --exportProfile file {file}", "an --exportProfile file")}


def _code_commit(provenance: dict) -> str | None:
    """The commit of the code that made a record's figures, as ``collect
    --commit`` recorded it (``provenance.repository_commit``), with
    ``(dirty)`` after it where ``--dirty`` said the tree had uncommitted
    changes; None where the record states none."""
    commit = provenance.get("repository_commit")
    if not commit:
        return None
    return f"{commit} (dirty)" if provenance.get("repository_dirty") else commit


def _commit_is_revision(provenance: dict) -> bool:
    """Whether a record's code commit is its checkpoint revision, one commit
    however shortened (:func:`~studygen.records.checkpoints.prefix_of`), its
    tree clean: a log published at the commit its model file was taken
    from, which a column of checkpoint revisions already names."""
    commit, revision = provenance.get("repository_commit"), provenance["checkpoint"].get("revision")
    return bool(commit and revision) and not provenance.get("repository_dirty") and prefix_of(commit, revision)


class SectionHelpers(ViewBase):
    """Datasets, provenance, measurements of several jobs, not measured and known gaps."""

    # ---- datasets and provenance --------------------------------------------
    @helper()
    def datasets(self) -> list[dict]:
        """Dataset definitions, sorted by id (each a dict with ``dataset_id``, ``count``, …)."""
        return [self._study.datasets[k].data for k in sorted(self._study.datasets)]

    @helper("dataset", markdown=True)
    def dataset_table(self) -> str:
        """One row per image set: id, role, image count, source, selection, and
        whether its image ids are published (with the first 12 hex digits of their sha256)."""
        body = []
        for d in self.datasets():
            ids = "listed, sha256 " + d["image_ids_sha256"][:12] if "image_ids_sha256" in d else "not published"
            body.append([escape_cell(d["dataset_id"]), escape_cell(d["role"]), str(d["count"]),
                         escape_cell(d["source"]), escape_cell(d["selection"]), ids])
        headers = ["Image set", "Role", "Images", "Source", "Selection", "Image ids"]
        return emit(markdown_table(body, headers), (), headers)

    @helper("table", markdown=True)
    def provenance_table(self) -> str:
        """One row per job: GPU (or the CPU of a record measured without one,
        :func:`~studygen.records.keys.measuring_machine`; the column is
        then headed ``Machine``), software versions, checkpoint weights, where
        its figures come from. Weights that a collector recorded as its
        default, nobody stating them, read ``pretrained (default, not in the
        input)`` (:func:`studygen.records.unstated.weights_defaulted`,
        :func:`studygen.render.tables.unstated_label`). When the records hold
        two or more checkpoint revisions (a record stating none counts as one
        more), a ``Checkpoint revision`` column
        gives each job's, as the measurement key and the result tables print
        it (:meth:`~studygen.records.checkpoints.Revisions.key`; ``not
        stated`` where none), and a ``Code commit`` column the commit
        ``collect --commit`` recorded (``(dirty)`` after it where the tree
        was), unless every job's commit is its checkpoint revision, which
        the column beside it already shows (a log published with its model
        file at one commit). A study of one revision prints neither."""
        records = self._study.records
        revisions = [self._study.revisions.key(record.provenance["checkpoint"].get("revision")) for record in records]
        several = len(set(revisions)) > 1
        commits = [_code_commit(record.provenance) for record in records]
        commit_shown = several and any(commits) and not all(_commit_is_revision(record.provenance) for record in records)
        machines = [measuring_machine(record.provenance) for record in records]
        body = []
        for record, revision, commit, machine in zip(records, revisions, commits, machines):
            p = record.provenance
            software = ", ".join(f"{k} {v}" for k, v in sorted(stated_software(p).items()) if v)
            origin = "transcribed: " + p["source"]["citation"] if "source" in p else \
                f"collected by {p['collector']['name']} {p['collector']['version']}"
            weights = p["checkpoint"]["weights"]
            if record.weights_defaulted:
                weights = unstated_label(weights, DEFAULT_ORIGIN)
            line = [escape_cell(record.job_id), escape_label(gpu_label(machine)), escape_cell(software or "not stated")]
            if several:
                line.append(index_label("revision", revision))
            if commit_shown:
                line.append(escape_cell(commit or NOT_STATED))
            body.append(line + [escape_cell(weights), escape_cell(origin)])
        headers = ["Job", machine_header(machines), "Software", *(["Checkpoint revision"] if several else []),
                   *(["Code commit"] if commit_shown else []), "Weights", "Figures"]
        return emit(markdown_table(body, headers), (), headers)

    @helper()
    def record_notes(self) -> list[tuple[str, str]]:
        """``(job_id, note)`` for every note in every record, in record order;
        each note printed as a ``record_note`` (what a record says about its
        input, no result of the study: SG206 reads no configuration in it)."""
        return [(job, emit(note, kind="record_note")) for job, note in self._notes()]

    def _notes(self) -> list[tuple[str, str]]:
        """``(job_id, note)`` as the records hold them (result notes, then provenance notes)."""
        notes = []
        for record in self._study.records:
            for note in record.data.get("notes", []) + record.provenance.get("notes", []):
                notes.append((record.job_id, note))
        return notes

    # ---- declared sources of spread ----------------------------------------------
    @helper("figure")
    def spread_sources(self) -> list[str]:
        """One line per ``spread_sources`` entry of the study file: what varies
        from job to job (``independent compilations``, ``independent engine
        builds``, ``independent jobs``), why (its reason, as written) and how
        far the study expects two jobs' figures to differ (``up to 2 %`` of
        their mean, or ``no bound stated``). SG203 holds two jobs' figures
        against these."""
        lines = []
        # declared_sources reads the study file's entries in order: the view's are the same, knowing their fields
        for source, entry in zip(declared_sources(self._study), self.spec.get("spread_sources") or [], strict=True):
            bound = (f"up to {format_number(source.up_to_percent)} % of their mean" if source.up_to_percent is not None
                     else "no bound stated")
            reason = as_written(entry["reason"], escape_label_in_prose(" ".join(source.reason.split())))
            lines.append(emit(f"{source.words} ({bound}): {reason}"))
        return lines

    @helper()
    def shared_record_notes(self) -> list[tuple[str, str]]:
        """``(jobs, note)`` per distinct note of the records, in the order
        first met, ``jobs`` naming every job whose record holds it (``a``,
        ``a and b``, ``a, b and c``): a note that ``collect`` wrote for each
        of seven public logs is said once, not seven times; each note
        printed as a ``record_note`` (:meth:`record_notes`)."""
        jobs_by_note: dict[str, list[str]] = {}
        for job, note in self._notes():
            jobs = jobs_by_note.setdefault(note, [])
            if job not in jobs:
                jobs.append(job)
        return [(and_list(jobs), emit(note, kind="record_note")) for note, jobs in jobs_by_note.items()]

    # ---- side findings -------------------------------------------------------
    @helper("table", markdown=True)
    def repeated_measurements(self) -> str:
        """Table of every measurement key (of a latency: and way of timing it,
        :func:`~studygen.study.timing.timing_signature`) reported by two or more jobs, with each
        job's value and the spread (max - min), printed so that each line reads as its own arithmetic
        (:func:`~studygen.render.rows.spread_cells`), and each line's checkpoint revision where the lines
        hold two or more; '' when no key is reported twice."""
        # latencies timed differently (trtexec flags, mode) are not one measurement, whatever their key (SG212)
        repeated = reported_by_several_jobs(self._study.rows)
        if not repeated:
            return ""
        # a TensorRT column only where some row was measured by TensorRT: "not stated" in a PyTorch study says nothing
        versions = any(r.tensorrt for rows in repeated.values() for r in rows)
        # a revision column only where the lines hold two or more: two lines of one name would read as one measurement
        revisions = len({rows[0].key.revision for rows in repeated.values()}) > 1
        body = [self._repeated_line(rows, versions, revisions) for rows in repeated.values()]
        machines = machine_header(rows[0].gpu for rows in repeated.values())
        headers = ["Measurement", machines, *(["TensorRT"] if versions else []),
                   *(["Checkpoint revision"] if revisions else []), "Value per job", "Spread"]
        # each table row is one measurement key: SG212 compares the jobs of a row, not a variant's rows
        return emit(markdown_table(body, headers), [r for rows in repeated.values() for r in rows], headers,
                    compared_by="key")

    def _repeated_line(self, rows: list[Row], versions: bool = True, revisions: bool = False) -> list[str]:
        """One line of :meth:`repeated_measurements`: the rows of one key,
        named so that no two lines read alike: variant label, a latency's
        statistic and timing in the latency tables' words (``median GPU compute time``,
        ``median host latency``: :func:`~studygen.study.timing.timing_words`; trtexec reports five
        timings), another figure's statistic or metric, kernel group and shape where the key has them,
        the batch where the study has several, e.g. ``fp16 median GPU compute time 800 x 800``; the TensorRT
        version in full when ``versions`` (two releases of one major.minor are two lines); the checkpoint
        revision, as the key holds it, when ``revisions``. A metric is named in
        a reader's words (:func:`~studygen.render.tables.metric_words`): the
        generic README's table read ``fp32 kernel_time Conv 64 x 64``."""
        first = rows[0]
        # a metric in a reader's words (kernel time (ms), logit correlation (Pearson r)), not its field name
        measured = timing_words(first) if first.kind == Kind.LATENCY else first.statistic or (
            CPU_OPERATOR_WORDS if first.kind == Kind.KERNEL_TIME and cpu_operator_profile(first.record, first.result)
            else metric_words(first.metric))
        batch = f"batch {first.batch}" if self._several_batches and first.batch is not None else ""
        what = " ".join(escape_label(part) if place == 0 else escape_cell(part) for place, part in enumerate(
            (self._label(first.variant), measured, first.group,
             shape_label(first.shape) if first.shape else "", batch)) if part)
        figures, spread = spread_cells(rows)
        return [what, escape_label(gpu_label(first.gpu)),
                *([escape_cell(version_label(first.tensorrt))] if versions else []),
                *([index_label("revision", first.key.revision)] if revisions else []),
                "; ".join(f"{escape_cell(r.job_id)}: {figure}" for r, figure in zip(rows, figures, strict=True)),
                spread]

    # ---- what the study file declares -----------------------------------------
    @helper("variant_list", markdown=True)
    def variant_entry(self, variant: dict) -> str:
        """One item of the Variants list for a study-file ``variant``: its
        label in bold, its name in code and its precision only where they add
        to the label, its recipe: ``**Fast engine** (`fast`): int8, recipe `r```.
        A declaration, not a result: SG206 lets it name a variant the study
        file lists under ``not_measured``. Study-file strings escaped once:
        the label as text (:func:`~studygen.render.escaping.escape_markup`),
        name and recipe as code spans (:func:`~studygen.render.escaping.code_span`)."""
        label = variant.get("label") or variant["name"]
        text = f"**{escape_markup(label)}**"
        if variant["name"] != label:
            text += f" ({code_span(variant['name'])})"
        if variant.get("precision") != variant["name"]:
            text += f": {escape_markup(variant.get('precision'))}"
        if variant.get("recipe"):
            text += f", recipe {code_span(variant['recipe'])}"
        return emit(text)

    @helper("condition")
    def revisit_conditions(self) -> list[str]:
        """The decision's ``revisit_when`` entries, one string each, in study-file
        order: conditions under which the decision is to be taken again, not
        results, so SG206 lets them name a configuration declared not measured."""
        return [emit(as_written(item)) for item in self.spec.get("decision", {}).get("revisit_when", [])]

    # ---- not measured and known gaps -----------------------------------------
    @helper("expectation")
    def expectation(self, config: str, lead: bool = True) -> str:
        """Hedged wording for a configuration the study declares not measured:
        ``Not measured: NVFP4 (not tried). Expected without a measurement: …, because …``
        (the configuration is any noun phrase, singular or plural, hence no verb);
        ``lead=False`` leaves out ``Not measured:`` under a heading that says it.
        Raises TemplateError when ``config`` is not listed under ``not_measured``."""
        # the study file's entries as the view holds them: each string printed as written from its field
        for entry in self.spec.get(NOT_MEASURED_KEY) or []:
            if entry["config"] == config or config in entry.get("aliases", []):
                text = f"{'Not measured: ' if lead else ''}{as_written(entry['config'])} ({as_written(entry['reason'])})."
                if entry.get("expectation"):
                    text += f" Expected without a measurement: {as_written(entry['expectation'])}"
                    if entry.get("because"):
                        text += f", because {as_written(entry['because'])}"
                    text += "."
                return emit(text)
        raise TemplateError(f"expectation({config!r}): not listed under not_measured in the study file")

    @helper()
    def not_measured(self) -> list[dict]:
        """The study file's ``not_measured`` entries (``config``, ``reason``, …)."""
        return self._study.declared_not_measured

    @helper("gap")
    def unclassified_kernel_time(self) -> list[str]:
        """One sentence per kernel-time profile whose time in no named group
        is above :data:`studygen.study.analyses.UNCLASSIFIED_LIMIT` of its
        total (SG210's limit; share as :func:`~studygen.study.analyses.unclassified_share`
        computes it), in record order: ``In job j1 (fp16 at 224 x 224, batch 4),
        85% of the profiled 12.549 ms is in no named group: the grouping rules
        match none of those kernel or layer names.`` A table whose biggest
        group is ``other`` says little about where the time goes; this says so."""
        lines = []
        for record in self._study.records:
            for result in record.results:
                share = unclassified_share(result) if result["kind"] == Kind.KERNEL_TIME else None
                if share is None or share <= UNCLASSIFIED_LIMIT:
                    continue
                rows = [r for r in self._study.rows if r.result is result]
                where = [f"at {shape_label(result['shape'])}" if result.get("shape") else "",
                         f"batch {result['batch']}" if result.get("batch") is not None else "",
                         str(result.get("mode") or "")]
                total = next((r for r in rows if r.pointer.endswith("/profiled_total_ms")), None)
                total_text = fmt(total.value, total) if total else format_number(result['profiled_total_ms'])
                text = (f"In job {record.job_id} ({self._label(result['variant'])} {', '.join(w for w in where if w)}), "
                        f"{format_number(100 * share, 0)}% of the profiled {total_text} ms "
                        "of kernel time is in no named group: the grouping rules match none of those kernel or layer names.")
                lines.append(emit(escape_label_in_prose(" ".join(text.replace(" )", ")").split())), rows))
        return lines

    @helper("gap")
    def kernel_time_profile_sources(self) -> list[str]:
        """One sentence per job and trtexec profile its kernel times were read
        from (a ``kernel_time`` result whose ``profiler`` names trtexec's
        ``--dumpProfile`` or ``--exportProfile``; the file from its
        ``source_locator``), in record order: ``In job h100, the per-layer
        times come from the --dumpProfile table of run.log, which trtexec
        takes in a profiled run that synchronises after each layer: they
        include that overhead and do not divide the latency of a run timed
        without the profiler.`` Kernel times of other profilers get none."""
        sources: dict[tuple[str, str, str], None] = {}
        for record in self._study.records:
            for result in record.results:
                found = TRTEXEC_PROFILE.search(str(result.get("profiler") or "")) \
                    if result["kind"] == Kind.KERNEL_TIME else None
                if found:
                    file = str(result.get("source_locator") or "").rsplit(":", 1)[0]
                    sources.setdefault((record.job_id, found.group(1), file), None)
        return [emit(escape_label_in_prose(
            f"In job {job}, the per-layer times come from {PROFILE_SOURCE[flag][not file].format(file=file)}, which trtexec "
            "takes in a profiled run that synchronises after each layer: they include that overhead and do not "
            "divide the latency of a run timed without the profiler.")) for job, flag, file in sources]

    @helper("gap")
    def kernel_time_over_compute(self) -> list[str]:
        """One sentence per kernel-time profile whose per-layer total is more
        than :data:`studygen.study.analyses.KERNEL_OVER_COMPUTE_LIMIT` above
        the GPU compute time of the same job and configuration (SG210's third
        warning; :func:`studygen.study.analyses.kernel_time_over_compute`), in
        row order: ``In job j1 (fp16 at 224 x 224, batch 4), the layers' kernel
        time adds up to 5.415 ms, 12% above the 4.82 ms mean GPU compute time of
        the same run: the profile was taken in another run, or profiling added
        time to each layer, so its groups do not divide that latency.``; for a
        run whose log states that it profiled while timed, ``the run profiled
        its layers while it was timed, which makes the profile another
        run's``. A run timed apart from its profile (``--separateProfileRun``)
        gets none: :meth:`kernel_time_profile_sources` already says that its
        layers carry the profiler's overhead. Both times print as the README
        prints the rows they come from (:func:`~.rows.fmt`): a mean that
        ``collect`` worked out from per-iteration timings keeps every digit in
        the record (0.477990457599), never in the sentence."""
        lines = []
        for found in kernel_time_over_compute(self._study):
            total, result = found.total, found.total.result
            where = [f"at {shape_label(result['shape'])}" if result.get("shape") else "",
                     f"batch {result['batch']}" if result.get("batch") is not None else "",
                     str(result.get("mode") or "")]
            cause = ("the run profiled its layers while it was timed, which makes the profile another run's"
                     if found.profiled_in_timed_run else
                     "the profile was taken in another run, or profiling added time to each layer")
            text = (f"In job {total.job_id} ({self.label(result['variant'])} {', '.join(w for w in where if w)}), "
                    f"the layers' kernel time adds up to {fmt(total.value, total)} ms, "
                    f"{format_number(100 * found.excess, 0)}% above the {fmt(found.compute_ms, found.compute)} ms "
                    f"{found.statistic} GPU compute time of the same run: {cause}, so its groups do not divide "
                    "that latency.")
            lines.append(emit(" ".join(text.replace(" )", ")").split()), [total, found.compute]))
        return lines

    @helper("expectation")
    def runs_without_figure(self) -> list[str]:
        """One sentence per distinct (metric, reason) of the records'
        not-measured results (a build or compilation that failed, a stage the
        run skipped), in record order, naming every variant, shape, mode and
        job it covers and the reason as the records give it:
        ``Latency of fp16 at 224 x 224 (compile) in job job-2: the compilation
        failed: ….``. A failed build reads as failed, not only as an empty
        table cell."""
        grouped: dict[tuple, list[Row]] = {}
        for row in self._study.rows:
            if row.kind == Kind.NOT_MEASURED:
                grouped.setdefault((row.metric, row.note), []).append(row)
        lines = []
        for (metric, reason), rows in grouped.items():
            def listed(values) -> str:
                return and_list(list(dict.fromkeys(values)))
            kind = RESULT_KINDS.get(metric)
            words = kind.words if kind is not None else metric_words(str(metric or "figure"))
            what = f"{words[0].upper()}{words[1:]} of {listed(self._label(r.variant) for r in rows)}"
            shapes = [shape_label(r.shape) for r in rows if r.shape]
            modes = [r.mode for r in rows if r.mode]
            text = (what + (f" at {listed(shapes)}" if shapes else "") + (f" ({listed(modes)})" if modes else "")
                    + f" in {'job' if len({r.job_id for r in rows}) == 1 else 'jobs'} {listed(r.job_id for r in rows)}: "
                    + (reason or "no reason recorded").rstrip(".") + ".")
            # a statement of what was not measured, as study.expectation's: SG206 lets it name a declared configuration
            lines.append(emit(escape_label_in_prose(" ".join(text.split())), rows))
        return lines

    @helper()
    def describe_key(self, key: str) -> str:
        """A measurement key in words: ``fp16 AP, B200, tensorrt=11.4.0.106,cuda=13, coco2017-val-heldout-400``
        (variant label, what is measured, shape, GPU, versions, dataset; empty parts left out), its
        inline markup escaped (a label's ``*`` prints as written)."""
        return escape_label_in_prose(self._key_words(key))

    def _key_words(self, key: str) -> str:
        """:meth:`describe_key` before escaping: for a sentence escaped as a whole."""
        parts = dict(zip(FIELDS, key.split("|")))
        if len(parts) != len(FIELDS):
            return key
        measured = parts["statistic"] if parts["statistic"] not in ("", "unspecified") else parts["kind"].replace("_", " ")
        what = " ".join(p for p in (self._label(parts["variant"]) if parts["variant"] else "", measured, parts["group"]) if p)
        where = [shape_label(parts["shape"]) if parts["shape"] else "", gpu_label(parts["gpu"]) if parts["gpu"] else "",
                 parts["software"], parts["dataset"]]
        return ", ".join(p for p in (what, *where) if p)

    @functools.cached_property  # read once per row by known_gaps and the repeated-measurements table
    def _several_batches(self) -> bool:
        """Whether the study's rows state more than one batch size: then a
        sentence naming a configuration names its batch too (its tables
        have a Batch column)."""
        return len({row.batch for row in self._study.rows if row.batch is not None}) > 1

    @helper("gap")
    def known_gaps(self) -> list[str]:
        """Everything the README must admit by itself: waivers and explanations
        with their reasons, image sets whose ids were not published, timings
        flagged unstable (configurations not measured are :meth:`expectation`'s)."""
        gaps = []
        for d in self.datasets():
            if "ids_not_published" in d:
                gaps.append(f"Image set {d['dataset_id']} ({d['count']} images): {d['ids_not_published']}.")
        listed = set()  # a profile's results: one entry, not one per group row
        for row in self._study.rows:
            if row.unstable and id(row.result) not in listed:
                listed.add(id(row.result))
                batch = f"batch {row.batch}" if self._several_batches and row.batch is not None else ""
                where = ", ".join(part for part in (self._label(row.variant), row.shape and shape_label(row.shape), batch)
                                  if part)
                what = "kernel-time profile" if row.kind == Kind.KERNEL_TIME else "timing"
                gaps.append(f"Unstable {what} in job {row.job_id} ({where}): {row.unstable_words(self._cv_percent)}.")
        # an entry check refuses (SG216) waives nothing, so the README never lists it as waived
        for w in self.spec.get("waivers", []):
            if refusal("waivers", w) is None:
                target = self._gap_target(w, f"README line {w.get('line')}")
                gaps.append(f"Waived {w['code']} ({target}): {as_written(w['reason'])}")
        for e in self.spec.get("explanations", []):
            if refusal("explanations", e) is not None:
                continue
            target = self._gap_target(e, "study")
            gaps.append(f"Explained {e['code']} ({target}): {as_written(e['text'])}")
        return [emit(escape_label_in_prose(g)) for g in gaps]

    def _gap_target(self, entry: dict, otherwise: str) -> str:
        """What a waiver or explanation covers, in words: its measurement key
        described, or the findings its ``match`` text selects (a match is a
        piece of a finding's message, such as ``kernel time attention: ``,
        so it is quoted without its trailing separators), else ``otherwise``."""
        if entry.get("key"):
            return self._key_words(entry["key"])
        match = (entry.get("match") or "").strip(" :;,")
        return f'findings matching "{match}"' if match else otherwise
