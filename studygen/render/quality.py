"""COCO quality figures one statistic at a time.

A ``collect coco`` run records COCOeval's twelve bbox statistics (AP, AP50,
APs, AR100, ...), each a result of kind ``coco_ap`` with its own
``statistic``. They differ in IoU threshold, object area range and the
number of detections kept per image, so a table cell or column that pooled
them would print AP next to AR or small-object AP as one figure's spread.
:meth:`QualityHelpers.quality_filters` gives a template the filters of one
statistic each, with what the statistic is in words, so that each table
names what its columns hold (the generic template's COCO AP section prints
one table per statistic; :func:`studygen.render.tables.refuse_mixed_cells`
refuses a cell that would mix them).
"""

from __future__ import annotations

from ..records.kinds import Kind
from .escaping import escape_label_in_prose
from .produced import helper
from .rows import ViewBase
from .tables import platform_fields_unneeded

_EVERY_IOU = "averaged over IoU 0.50 to 0.95"
_AREAS = {"all": "objects of every area", "small": "small objects (under 32 x 32 pixels)",
          "medium": "medium objects (32 x 32 to 96 x 96 pixels)", "large": "large objects (over 96 x 96 pixels)"}

# pycocotools' summarize() order: (statistic, precision or recall, IoU, area range, detections kept per image)
COCO_STATISTICS = (
    ("AP", "precision", _EVERY_IOU, "all", 100), ("AP50", "precision", "at IoU 0.50", "all", 100),
    ("AP75", "precision", "at IoU 0.75", "all", 100), ("APs", "precision", _EVERY_IOU, "small", 100),
    ("APm", "precision", _EVERY_IOU, "medium", 100), ("APl", "precision", _EVERY_IOU, "large", 100),
    ("AR1", "recall", _EVERY_IOU, "all", 1), ("AR10", "recall", _EVERY_IOU, "all", 10),
    ("AR100", "recall", _EVERY_IOU, "all", 100), ("ARs", "recall", _EVERY_IOU, "small", 100),
    ("ARm", "recall", _EVERY_IOU, "medium", 100), ("ARl", "recall", _EVERY_IOU, "large", 100),
)
_ORDER = {entry[0]: place for place, entry in enumerate(COCO_STATISTICS)}
_WORDS = {name: f"{name}: {what} {iou}, {_AREAS[area]}, up to {kept} detection{'s' if kept > 1 else ''} per image"
          for name, what, iou, area, kept in COCO_STATISTICS}


def statistic_words(statistic) -> str:
    """``AP50`` -> ``AP50: precision at IoU 0.50, objects of every area, up
    to 100 detections per image`` (pycocotools' summarize(): its IoU
    thresholds, area ranges and maxDets); a statistic outside COCOeval's
    twelve as the record names it (``not stated`` for none)."""
    return _WORDS.get(statistic, str(statistic) if statistic else "statistic not stated")


def difference_header(statistic) -> str:
    """The header of a difference column of ``statistic`` in points: ``{b}
    minus {a} (AP points)``, ``(AR points)`` for COCOeval's recalls."""
    entry = COCO_STATISTICS[_ORDER[statistic]] if statistic in _ORDER else None
    return "{b} minus {a} (" + ("AR" if entry and entry[1] == "recall" else "AP") + " points)"


class QualityHelpers(ViewBase):
    """Filters of one quality statistic each (see the module docstring)."""

    @helper()
    def quality_filters(self, kind: str = Kind.COCO_AP, **filters) -> list[dict]:
        """The quality rows of ``kind`` (default ``coco_ap``) matching
        ``filters``, one group per statistic in pycocotools' order (AP, AP50,
        AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl; any other after
        them as first met): ``{"filters": filters with kind and statistic,
        "statistic": its name, "holds": what it is in words (IoU, object
        areas, detections per image), "header": "{label} (AP50)", a
        ``value_header`` for :meth:`table`, "difference_header": the header
        of a ``delta_points`` column (``{b} minus {a} (AP points)``, AR
        points for a recall), "variants": the study file's
        variants with figures of it}``. A table per group holds one
        statistic in every cell and column."""
        rows = self.figures(kind=kind, **filters).rows
        present = list(dict.fromkeys(row.statistic for row in rows))
        present.sort(key=lambda name: _ORDER.get(name, len(_ORDER)))
        out = []
        for statistic in present:
            narrowed = dict(filters, kind=kind, statistic=statistic)
            variants = {row.variant for row in rows if row.statistic == statistic}
            out.append({"filters": narrowed, "statistic": statistic, "holds": statistic_words(statistic),
                        "header": f"{{label}} ({statistic})", "difference_header": difference_header(statistic),
                        "variants": tuple(name for name in self._variant_order() if name in variants)})
        return out

    @helper()
    def quality_sources(self, kind: str = Kind.COCO_AP, **filters) -> list[str]:
        """Where the quality rows of ``kind`` matching ``filters`` were scored, as one line, when their tables
        leave out the GPU and TensorRT columns (:func:`~.tables.platform_fields_unneeded`) and the variants'
        figures come from jobs on different GPUs or software: ``fp32 from job a (NVIDIA L4, tensorrt=10.16.1)
        and fp16 from job b (NVIDIA A10, tensorrt=10.14.1) were scored on detections of different runs: a
        difference of the two includes whatever differs between those runs.`` An empty list otherwise."""
        rows = self.figures(kind=kind, **filters).rows
        if not platform_fields_unneeded(rows):
            return []
        where: dict[str, dict[str, tuple]] = {}
        for row in rows:
            software = ", ".join(part for part in str(row.software or "").split(",") if part)
            where.setdefault(row.variant, {})[row.job_id] = (row.gpu or "GPU not stated", software)
        if len({platform for jobs in where.values() for platform in jobs.values()}) < 2:
            return []
        parts = []
        for variant in (name for name in self._variant_order() if name in where):
            jobs = "; ".join(f"job {job} ({gpu}{', ' + software if software else ''})"
                             for job, (gpu, software) in where[variant].items())
            parts.append(f"{self._label(variant)} from {jobs}")
        listed = ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]
        return [escape_label_in_prose(f"{listed} were scored on detections of different runs: a difference of "
                                      "two variants' figures includes whatever differs between those runs.")]

    @helper()
    def agreement_reference(self, **filters) -> str:
        """The label of the variant that every agreement row matching ``filters`` is measured against, when they
        all name one: ``fp32``, for the heading "Agreement with fp32"; the table's index then leaves the reference
        out, since no two rows differ in it. ``""`` when the rows name several (the index gives each row's) or
        none. Case (a new user's trial, session 28): an agreement table of fp16 and int8 against fp32 was headed
        "Agreement with the reference" and named fp32 nowhere."""
        references = {row.reference_variant for row in self.figures(kind=Kind.AGREEMENT, **filters).rows}
        if len(references) != 1 or None in references:
            return ""
        return escape_label_in_prose(self._label(next(iter(references))))
