"""What a template sees: a read-only view of a study with helpers that compute
every figure from records.

Templates hold no literal figures (SG211): they ask this view for figures,
ranges, ratios, tables and hedged wording. Each helper's output says what it
covers: a range spans every row it was given and prints any restriction the
template applied ("on TensorRT 11.4 only"), so no range can silently drop a row.

The helpers live by kind, one module each: row selection and the row objects
(:mod:`.rows`), computed figures, ranges and spread (:mod:`.spans`), tables
(:mod:`.tables`), verdicts (:mod:`.verdicts`), and sections from the study as
a whole (:mod:`.sections`). Each is declared a helper where it is defined
(:func:`~studygen.render.produced.helper`: the kind of what it prints, and
whether that is Markdown); a template reaches declared helpers only. What each
helper printed is recorded for checks (:mod:`.produced`).
"""

from __future__ import annotations

import functools

from ..errors import TemplateError
from .compilations import CompilationHelpers
from .kernel_changes import KernelChangeHelpers
from .kernel_spans import KernelSpanHelpers
from .escaping import escape_cell, escape_markup
from .labels import gpu_label, shape_label, short_version
from .method_split import MethodSplitHelpers
from .produced import helper, helper_spec
from .quality import QualityHelpers
from .inversions import InversionHelpers
from .sections import SectionHelpers
from .tables import TableHelpers
from .verdicts import VerdictHelpers

# What the view holds besides its helpers (set in ViewBase.__init__).
VIEW_ATTRIBUTES = ("spec", "family", "title", "decision", "model")


class StudyView(TableHelpers, VerdictHelpers, SectionHelpers, InversionHelpers, CompilationHelpers, KernelChangeHelpers,
                KernelSpanHelpers, MethodSplitHelpers, QualityHelpers):
    """The object templates receive as ``study``."""

    @classmethod
    @functools.cache
    def helper_names(cls) -> list[str]:
        """Every name a template may use on ``study``, sorted: the methods
        declared helpers (:func:`studygen.render.produced.helper`) and the
        study-file attributes."""
        declared = [name for name in dir(cls) if helper_spec(getattr(cls, name)) is not None]
        return sorted({*declared, *VIEW_ATTRIBUTES})

    @helper()
    def comparison(self, name: str) -> "StudyView":
        """The view of the study file's ``comparisons`` entry ``name``: every
        helper, over that entry's records only (a side measurement the
        study's own figures do not pool). Raises TemplateError for a name the
        study file does not declare."""
        known = self._study.comparison_records
        if name not in known:
            raise TemplateError(f"comparison {name!r} is not in the study file's comparisons "
                                f"(declared: {', '.join(known) or 'none'})")
        return StudyView(self._study.comparison(name))

    @helper()
    def comparison_names(self) -> list[str]:
        """Names of the study file's ``comparisons`` entries, in its order."""
        return [entry["name"] for entry in self.spec.get("comparisons") or []]

    @helper()
    def comparison_about(self, name: str) -> str:
        """The ``about`` text of the study file's ``comparisons`` entry ``name``."""
        for entry in self.spec.get("comparisons") or []:
            if entry["name"] == name:
                return entry["about"]
        raise TemplateError(f"comparison {name!r} is not in the study file's comparisons")

    # ---- labels and escaping of record strings ----------------------------
    @helper()
    def gpu(self, value) -> str:
        """``NVIDIA B200`` → ``B200``."""
        return gpu_label(value)

    @helper()
    def version(self, value) -> str:
        """``11.4.0.106`` → ``11.4``."""
        return short_version(value)

    @helper()
    def shape(self, value) -> str:
        """``800x1067`` → ``800 x 1067``."""
        return shape_label(value)

    @helper(markdown=True)
    def escape(self, text) -> str:
        """A record string (a note a collector copied from a log) as prose
        that reads as written: no HTML, link, image, emphasis, code span or
        block of its own (:func:`~studygen.render.escaping.escape_markup`).
        Markdown as it is, so that ``{{ study.escape(x) }}`` is escaped once:
        the plain-text escape it returned before was escaped again by the
        template engine (a ``<`` in a note showed as ``&lt;``)."""
        return escape_markup(text)

    @helper()
    def cell(self, text) -> str:
        """A record string made safe for one table cell."""
        return escape_cell(text)
