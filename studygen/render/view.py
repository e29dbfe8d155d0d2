"""What a template sees: a read-only view of a study with helpers that compute
every figure from records.

Templates hold no literal figures (SG211): they ask this view for figures,
ranges, ratios, tables and hedged wording. Each helper's output says what it
covers: a range spans every row it was given and prints any restriction the
template applied ("on TensorRT 11.4 only"), so no range can silently drop a row.

The helpers live by kind, one module each: row selection and the row objects
(:mod:`.rows`), computed figures, ranges and spread (:mod:`.spans`), tables
(:mod:`.tables`), verdicts (:mod:`.verdicts`), and sections from the study as
a whole (:mod:`.sections`). What each helper printed is recorded for checks
(:mod:`.produced`).
"""

from __future__ import annotations

from .compilations import CompilationHelpers
from .sections import SectionHelpers
from .tables import TableHelpers
from .text import escape_cell, escape_inline, gpu_label, shape_label, short_version
from .verdicts import VerdictHelpers

# What the view holds besides its helpers (set in ViewBase.__init__).
VIEW_ATTRIBUTES = ("spec", "family", "title", "decision", "model")


class StudyView(TableHelpers, VerdictHelpers, SectionHelpers, CompilationHelpers):
    """The object templates receive as ``study``."""

    @classmethod
    def helper_names(cls) -> list[str]:
        """Every name a template may use on ``study``, sorted: the helpers
        (public methods) and the study-file attributes."""
        methods = [name for name in dir(cls) if not name.startswith("_") and callable(getattr(cls, name))]
        return sorted({*methods, *VIEW_ATTRIBUTES} - {"helper_names"})

    # ---- labels and escaping of record strings ----------------------------
    def gpu(self, value) -> str:
        """``NVIDIA B200`` → ``B200``."""
        return gpu_label(value)

    def version(self, value) -> str:
        """``11.4.0.106`` → ``11.4``."""
        return short_version(value)

    def shape(self, value) -> str:
        """``800x1067`` → ``800 x 1067``."""
        return shape_label(value)

    def escape(self, text) -> str:
        """A record string made safe for Markdown prose."""
        return escape_inline(text)

    def cell(self, text) -> str:
        """A record string made safe for one table cell."""
        return escape_cell(text)
