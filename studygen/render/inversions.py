"""The README's side findings on precision: each configuration where a
lower-precision variant is slower than a higher one, as one sentence naming
the figures of each side (pooled over jobs and compilations where several
measured it), and whether the timings are host-bound."""

from __future__ import annotations

from ..numbers import format_number
from ..study.analyses import precision_inversions
from ..study.compilations import PooledCell, pooled_cell
from ..study.rows import Row
from ..study.timing import latency_signature
from .host_bound import inversion_clause
from .escaping import escape_label_in_prose
from .labels import gpu_label, shape_label, version_label
from .produced import emit, helper
from .rows import ViewBase, fmt, matches


def jobs_phrase(*rows) -> str:
    """``job a`` or ``jobs a and b`` for the distinct job ids of ``rows``, in order."""
    jobs = list(dict.fromkeys(r.job_id for r in rows))
    return ("job " if len(jobs) == 1 else "jobs ") + " and ".join(jobs)


def on_machine(gpu: str | None) -> str:
    """`` on H100 80GB HBM3`` (or `` on CPU AMD EPYC 7763``) for a row's
    measuring machine, escaped for prose; '' where its record states none: a
    sentence says nothing of a machine it does not know ("on not stated"
    read as a machine's name)."""
    return f" on {escape_label_in_prose(gpu_label(gpu))}" if gpu else ""


def values_text(rows: list[Row]) -> str:
    """``9.061`` for one row's figure, ``9.061 to 9.085`` over several rows."""
    lowest = min(rows, key=lambda r: r.value)
    highest = max(rows, key=lambda r: r.value)
    low, high = fmt(lowest.value, lowest), fmt(highest.value, highest)
    return low if low == high else f"{low} to {high}"


class InversionHelpers(ViewBase):
    """Side findings on precision inversions (:meth:`precision_inversions`)."""

    @helper("side_finding")
    def precision_inversions(self, host_bound: bool = True, **filters) -> list[str]:
        """One sentence per pair of variants and configuration (GPU, TensorRT
        version or mode, shape, batch, timing) where the lower-precision
        variant is slower than the higher one (SG208's data, which judges each
        run by the timing of its GPU work:
        :func:`~studygen.study.timing.compute_rows`): the figures of
        each side, as a range over jobs when several jobs measured it;
        "is no faster than" where they print alike (the study's precision
        rounds the gap away: "slower" would state what they do not show), or
        where the figures of several jobs, pooled, overlap (their medians' order is then not settled).
        ``filters`` (row fields, as :meth:`figures` takes them) keep the
        pairs whose rows match them (``metric="gpu_compute"``); every pair is
        of rows the tables show (:func:`~studygen.study.timing.shown_rows`). Both rows of a pair are timed
        alike (:func:`~studygen.study.analyses.precision_inversions`): a pair
        timed differently, which SG212 would flag, is no inversion. The batch is named when the sentences' pairs
        differ in it, so that no two sentences read alike. Pairs of two checkpoint revisions make two sentences,
        each naming its jobs (the Provenance table gives each job's revision).
        With ``host_bound`` (default), a sentence whose timings are host-bound
        (:mod:`studygen.study.host_bound`: the host took at least 90 % of the
        median to issue each forward, the profiled kernels less) says so, with the host's issue times
        and the kernel totals (:func:`~.host_bound.inversion_clause`): such a
        gap times the host's work, not the GPU's."""
        groups: dict[tuple, list[tuple[Row, Row]]] = {}
        for low, high in precision_inversions(self._study):
            if filters and not (matches(low, filters) and matches(high, filters)):
                continue
            # the revision too: pairs of two model files are two findings, never one range over both
            where = (low.variant, high.variant, low.backend, low.gpu, low.software, low.mode,
                     low.shape, low.batch, low.metric, latency_signature(low), low.key.revision)
            groups.setdefault(where, []).append((low, high))
        batches = len({where[7] for where in groups}) > 1 or self._several_batches
        lines = []
        for pairs in groups.values():
            low, high = pairs[0]
            lows, highs = self._same_measurement_figures(low), self._same_measurement_figures(high)
            after = inversion_clause(lows, highs, self.label(low.variant), self.label(high.variant),
                                     self._ms) if host_bound else ""
            # TensorRT pairs name their jobs; they are pooled too when a job's figure of either key is in no
            # pair: one job's pair alone would state a difference that job's figure may not bear out (SG203)
            in_pairs = {id(row) for pair in pairs for row in pair}
            left_out = any(id(row) not in in_pairs for row in lows + highs)
            low_cell, high_cell = pooled_cell(lows), pooled_cell(highs)
            # several compilations of one job are pooled as several jobs are: one job's medians may overlap too
            pooled = len({r.job_id for r in lows + highs}) > 1 or max(len(low_cell.compilations),
                                                                       len(high_cell.compilations)) > 1
            if (low.backend != "tensorrt" or left_out) and pooled:
                line = self._pooled_inversion(low_cell, high_cell, batches, after)
                if line:
                    lines.append(line)
                continue
            lines.append(emit(self._inversion_sentence(pairs, batches) + after,
                              list({id(row): row for row in [*(r for pair in pairs for r in pair),
                                                             *(lows + highs if after else [])]}.values()),
                              compared=pairs))
        return lines

    def _same_measurement_figures(self, row: Row) -> list[Row]:
        """Every job's row with a value of ``row``'s measurement (key and
        timing signature: :meth:`same_measurement_rows`), in record order (a
        figure timed otherwise is another measurement: pooling it would put
        latencies measured differently together, SG212)."""
        return [r for r in self.same_measurement_rows(row) if r.value is not None]

    def _pooled_inversion(self, low: PooledCell, high: PooledCell, batch: bool = False, after: str = "") -> str:
        """A PyTorch configuration several jobs measured, or one job compiled
        several times, or a TensorRT one where some job's figure is in no
        inverted pair, as the README's other figures of it read it (issue 26):
        each variant's median over every compilation of every job (a job
        without compilations counts once), '' when the lower precision is not
        the slower one at those medians. One job's pair alone would state a
        difference the other jobs' figures may not bear out, and one job's two
        medians a difference its own compilations may not (session 27's GPU
        trial: "slower" over overlapping compilations). Where the figures overlap (the slower side's least is
        at or under the other's most), which jobs ran decides the order of the
        medians: "is no faster than", saying it is not settled (case,
        an H100 trial: fp16 4.225 ms (3.673 to 6.677) against fp32 4.105 ms
        (3.765 to 6.185), slower in two jobs of three and faster in one, read
        "is slower than"). ``batch``: name the batch of a TensorRT configuration;
        ``after``: text the sentence ends with (:func:`~.host_bound.inversion_clause`)."""
        if low.median_ms <= high.median_ms:
            return ""
        first, ms = low.first, self.decimals("ms")
        one_job = len({*low.jobs, *high.jobs}) == 1

        def figure(cell: PooledCell) -> str:
            if len(cell.compilations) == 1 and not cell.numbered:  # one job's figure, as its record prints it
                return f"{fmt(cell.first.value, cell.first)} ms (job {cell.first.job_id})"
            what = f"{len(cell.jobs)} jobs"
            if cell.numbered:
                what = f"{len(cell.compilations)} compilations" + ("" if one_job else f" in {what}")
            return (f"{format_number(cell.median_ms, ms)} ms ({what}: {format_number(cell.low, ms)} to "
                    f"{format_number(cell.high, ms)})")

        if first.backend == "tensorrt":  # as the sentence of one job's pairs names it (_inversion_sentence)
            at = (f" at {shape_label(first.shape)}" if first.shape else "") + (f", batch {first.batch}" if batch else "")
            where = f" with TensorRT {version_label(first.tensorrt)}{at}"
        else:
            where = f" at {shape_label(first.shape)} ({first.mode})"
        # medians that print alike show no slower side (as _inversion_sentence); figures that overlap, ends
        # printing alike included, leave the medians' order to which jobs ran: neither states an inversion
        tied = format_number(low.median_ms, ms) == format_number(high.median_ms, ms)
        overlap = not tied and (low.low <= high.high or format_number(low.low, ms) == format_number(high.high, ms))
        verb = "is no faster than" if tied or overlap else "is slower than"
        spread = "; the figures overlap, so the order of the medians is not settled" if overlap else ""
        text = (f"{self.label(first.variant)}{on_machine(first.gpu)}{where} "
                f"{verb} {self.label(high.first.variant)} at the medians "
                f"{f'of its compilations (job {first.job_id})' if one_job else 'over every job'}, with {figure(low)} "
                f"against {figure(high)}{spread}.{after}")
        same_job = low.same_job_pairs(high)
        return emit(text, [*low.rows, *high.rows], compared=same_job)

    def _inversion_sentence(self, pairs: list[tuple[Row, Row]], batch: bool = False) -> str:
        """The lower-precision rows of ``pairs`` are slower than the higher ones:
        on TensorRT with GPU, version, shape (and batch when ``batch``) and
        jobs; on PyTorch with GPU, shape (batch) and mode, and the jobs when
        there are several."""
        low, high = pairs[0]
        lows = list({id(p[0]): p[0] for p in pairs}.values())
        highs = list({id(p[1]): p[1] for p in pairs}.values())
        low_text, high_text = values_text(lows), values_text(highs)
        figures = f"{low_text} ms against {high_text} ms"
        # figures that print alike (the study's precision rounds the gap away) show no slower side: say what they show
        verb = "is no faster than" if low_text == high_text else "is slower than"
        batch_words = f", batch {low.batch}" if batch else ""
        if low.backend == "tensorrt":
            slower = f"{self.label(low.variant)} {verb} {self.label(high.variant)}{on_machine(low.gpu)}"
            at = f" at {shape_label(low.shape)}" if low.shape else ""  # a run without a shape: no "at" clause
            return (f"{slower} with TensorRT {version_label(low.tensorrt)}{at}{batch_words}: "
                    f"{figures} ({jobs_phrase(*lows, *highs)}).")
        # One clause, so that the ranges are read as the rows of this GPU, shape and mode (lint SG101).
        jobs = list(dict.fromkeys(r.job_id for r in lows + highs))
        over = f" over {len(jobs)} jobs ({' and '.join(jobs)})" if len(jobs) > 1 else ""
        at = f" at {shape_label(low.shape)}" if low.shape else ""
        return (f"{self.label(low.variant)}{on_machine(low.gpu)}{at}{batch_words} ({low.mode}) "
                f"{verb} {self.label(high.variant)} with {figures}{over}.")
