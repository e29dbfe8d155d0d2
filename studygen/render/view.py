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

from .compilations import CompilationHelpers
from .labels import escape_cell, escape_inline, gpu_label, shape_label, short_version
from .produced import helper, helper_spec
from .sections import SectionHelpers
from .tables import TableHelpers
from .verdicts import VerdictHelpers

# What the view holds besides its helpers (set in ViewBase.__init__).
VIEW_ATTRIBUTES = ("spec", "family", "title", "decision", "model")


class StudyView(TableHelpers, VerdictHelpers, SectionHelpers, CompilationHelpers):
    """The object templates receive as ``study``."""

    @classmethod
    @functools.cache
    def helper_names(cls) -> list[str]:
        """Every name a template may use on ``study``, sorted: the methods
        declared helpers (:func:`studygen.render.produced.helper`) and the
        study-file attributes."""
        declared = [name for name in dir(cls) if helper_spec(getattr(cls, name)) is not None]
        return sorted({*declared, *VIEW_ATTRIBUTES})

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

    @helper()
    def escape(self, text) -> str:
        """A record string made safe for Markdown prose."""
        return escape_inline(text)

    @helper()
    def cell(self, text) -> str:
        """A record string made safe for one table cell."""
        return escape_cell(text)
