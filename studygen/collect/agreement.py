"""Agreement figures a user computed with a script of their own, read from a
small JSON file into ``agreement`` results (``studygen collect agreement``).

The format is studygen's own (no tool writes it; the user's script does, or
the user by hand), one file per image set::

    {
      "reference_variant": "fp32",
      "dataset": "heldout-512",
      "images": 512,
      "computed_by": "tools/compare.py, numpy 2.1, logits of the last layer",
      "figures": {
        "int8": {"logit_correlation": 0.99931, "max_abs_diff": 0.0412, "nonfinite_count": 0},
        "fp16": {"logit_correlation": 0.9999994}
      }
    }

``reference_variant``, ``dataset`` and ``figures`` are required; ``images``
(the inputs compared, a whole number), ``computed_by`` (how, in words: it
becomes a provenance note), ``score_threshold`` and ``iou_threshold`` (the
matching thresholds of ``precision`` and ``recall``, fractions) are
optional; any other key is refused, so a misspelt one never goes unread.
``figures`` maps each variant to its metrics: those the record schema's
``agreement`` kind takes (:data:`METRICS`), each within the range the metric
can have (:data:`RANGES`). Figures keep the digits the file prints them with.

Every refusal is one :class:`~studygen.errors.InputError` naming the file
and the JSON pointer of the value refused.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, UsageError
from ..fsutil import shown_path
from ..records.jsonpos import pointer_part
from ..records.kinds import Kind
from ..records.names import validate_job_id
from ..records.result import NewResult
from ..records.sources import DIGEST
from ..textio import parse_json
from .inputs import input_sha256, is_number, read_input_text

# A figures file is a few lines per variant; a megabyte is thousands of variants (a wrong file, a log).
MAX_FIGURES_BYTES = 2**20

# metric -> (lowest, highest, whole number): the values each metric of the agreement kind can take; its keys are the
# record schema's metric enum (tests/collect/test_agreement.py holds them equal)
RANGES: dict[str, tuple[float, float, bool]] = {
    "logit_correlation": (-1.0, 1.0, False),  # Pearson's r of the two models' logits
    "max_abs_diff": (0.0, 1e12, False),  # largest |variant - reference| over the logits compared; the schema's bound
    "nonfinite_count": (0, 1e12, True),  # NaN or infinite outputs of the variant
    "precision": (0.0, 1.0, False),  # matched detections over the variant's detections
    "recall": (0.0, 1.0, False),  # matched detections over the reference's detections
    "top1_agreement": (0.0, 1.0, False),  # inputs whose highest-scoring class is the reference's, over those compared
}
METRICS = tuple(RANGES)
# metrics whose figure depends on the detection-matching thresholds
MATCHED = ("precision", "recall")
REQUIRED = ("reference_variant", "dataset", "figures")
OPTIONAL = ("images", "computed_by", "score_threshold", "iou_threshold")
MAX_WORDS = 2000  # computed_by becomes a provenance note, which the schema holds to 4,000 characters


@dataclass
class AgreementFigures:
    """A figures file as read: its ``path`` and ``display``; the reference
    variant; the dataset id; ``figures`` as ``{variant: {metric: value}}``
    in file order (values as the file prints them: SourceFloat or int);
    the optional ``images`` count, ``computed_by`` words and matching
    thresholds (None when absent); ``sha256`` of the content read."""

    path: Path
    display: str
    reference_variant: str
    dataset: str
    figures: dict[str, dict[str, float | int]]
    sha256: str
    images: int | None = None
    computed_by: str | None = None
    thresholds: dict[str, float] = field(default_factory=dict)


def read_figures(path: Path, display: str | None = None) -> AgreementFigures:
    """Read and check the figures file ``path`` (see the module docstring).
    Raises InputError (a missing, empty, binary or too large file, above
    :data:`MAX_FIGURES_BYTES`; malformed JSON; a key the format does not
    have, a value of the wrong type, a metric the agreement kind does not
    take, a figure outside its metric's range), each naming the file and
    the JSON pointer. Reads the file once; its digest is of those bytes."""
    display = display or shown_path(path)
    text = read_input_text(path, display, MAX_FIGURES_BYTES)
    if len(text) > MAX_FIGURES_BYTES:  # a gzip file: bounded by its content, as a plain one
        raise InputError(f"decompresses to more than {MAX_FIGURES_BYTES} bytes (1 MiB), the limit for a figures file",
                         path=display)
    document = parse_json(text, display)
    if not isinstance(document, dict):
        raise InputError(f"a figures file is a JSON object with {', '.join(REQUIRED)}, not {_type(document)}",
                         path=display, pointer="/")
    for key in document:
        if key not in REQUIRED + OPTIONAL:
            raise InputError(f"unknown key {key!r}: a figures file holds {', '.join(REQUIRED + OPTIONAL)}",
                             path=display, pointer=f"/{pointer_part(key)}")
    for key in REQUIRED:
        if key not in document:
            raise InputError(f"missing {key!r}", path=display, pointer="/")
    reference = _name(document["reference_variant"], "variant name", display, "/reference_variant")
    dataset = _name(document["dataset"], "dataset id", display, "/dataset")
    images = document.get("images")
    if images is not None and (not isinstance(images, int) or isinstance(images, bool) or not 1 <= images <= 10**9):
        raise InputError(f"images is {_shown(images)}: give the number of inputs compared, a whole number from 1 "
                         "to 1,000,000,000", path=display, pointer="/images")
    computed_by = document.get("computed_by")
    if computed_by is not None and (not isinstance(computed_by, str) or not computed_by.strip()
                                    or len(computed_by) > MAX_WORDS):
        raise InputError(f"computed_by is {_shown(computed_by)}: give how the figures were computed, in words "
                         f"(at most {MAX_WORDS} characters)", path=display, pointer="/computed_by")
    thresholds = {}
    for key in ("score_threshold", "iou_threshold"):
        if key in document:
            thresholds[key] = _bounded(document[key], 0.0, 1.0, False, display, f"/{key}", key)
    figures = _figures(document["figures"], reference, display)
    if thresholds and not any(metric in MATCHED for metrics in figures.values() for metric in metrics):
        raise InputError(f"{', '.join(thresholds)} given, but no figure is a {' or '.join(MATCHED)} (the only "
                         "figures matched at a threshold)", path=display, pointer=f"/{next(iter(thresholds))}")
    return AgreementFigures(path, display, reference, dataset, figures, input_sha256(path), images,
                            " ".join(computed_by.split()) if computed_by else None, thresholds)


def _figures(value, reference: str, display: str) -> dict[str, dict[str, float | int]]:
    if not isinstance(value, dict) or not value:
        raise InputError(f"figures is {_shown(value) if value else 'empty'}: give an object of variants, each an object of metrics "
                         f"({', '.join(METRICS)})", path=display, pointer="/figures")
    figures = {}
    for variant, metrics in value.items():
        where = f"/figures/{pointer_part(variant)}"
        _name(variant, "variant name", display, where)
        if variant == reference:
            raise InputError(f"variant {variant!r} is the reference_variant: a variant agrees with itself by "
                             "definition", path=display, pointer=where)
        if not isinstance(metrics, dict) or not metrics:
            raise InputError(f"the figures of {variant} are {_shown(metrics) if metrics else 'empty'}: give an object of metrics "
                             f"({', '.join(METRICS)})", path=display, pointer=where)
        for metric, figure in metrics.items():
            if metric not in RANGES:
                raise InputError(f"unknown metric {metric!r}: the agreement kind takes {', '.join(METRICS)}",
                                 path=display, pointer=f"{where}/{pointer_part(metric)}")
            low, high, whole = RANGES[metric]
            _bounded(figure, low, high, whole, display, f"{where}/{metric}", metric)
        figures[variant] = dict(metrics)
    return figures


def _bounded(value, low: float, high: float, whole: bool, display: str, pointer: str, what: str):
    """``value`` when it is a finite number in ``[low, high]`` (a whole one when ``whole``); else InputError."""
    kind = "a whole number" if whole else "a number"
    if not is_number(value) or (whole and not isinstance(value, int)):
        raise InputError(f"{what} is {_shown(value)}: give {kind}", path=display, pointer=pointer)
    if not math.isfinite(value) or not low <= value <= high:
        # a fraction (precision, recall, top-1 agreement) written as a percent, 98.4 for 0.984, as the guide warns
        percent = f" (a fraction: {value}% is {value / 100:g})" if (low, high) == (0, 1) and 2 <= value <= 100 else ""
        raise InputError(f"{what} {value} is out of range: it lies between {_limit(low)} and {_limit(high)}{percent}",
                         path=display, pointer=pointer)
    return value


def _name(value, what: str, display: str, pointer: str) -> str:
    """``value`` when it is a name a record can hold (a variant name, a dataset id); else InputError."""
    if not isinstance(value, str):
        raise InputError(f"{what} is {_shown(value)}: give a string", path=display, pointer=pointer)
    try:
        return validate_job_id(value, what)
    except UsageError as exc:
        raise InputError(exc.message, path=display, pointer=pointer) from None


def _limit(value: float) -> str:
    return f"{value:,.0f}" if value >= 1e6 else f"{value:g}"


def _type(value) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _shown(value) -> str:
    """A refused value as a message quotes it: strings and numbers as written (cut at 40 characters), else its type."""
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "…")
    if is_number(value):
        return str(value)
    return _type(value)


def build_results(figures: AgreementFigures, variants: list[str], *, shape: str | None = None,
                  batch: int | None = None, backend: str | None = None, mode: str | None = None) -> list[NewResult]:
    """One ``agreement`` result per figure of ``variants`` (the file's
    variants to record, in file order), each naming the reference variant,
    the dataset, the options' shape, batch, backend and mode where given,
    the ``images`` count and, for precision and recall, the thresholds; its
    ``source_locator`` is ``FILE:/figures/VARIANT/METRIC`` (the file's name
    and the figure's pointer) and its ``source_sha256`` the digest of the
    file's content as read."""
    name = figures.path.name
    results = []
    for variant in variants:
        for metric, value in figures.figures[variant].items():
            pointer = f"/figures/{pointer_part(variant)}/{metric}"
            result = {"kind": Kind.AGREEMENT, "variant": variant, "reference_variant": figures.reference_variant,
                      "metric": metric, "value": value}
            optional = {"shape": shape, "batch": batch, "backend": backend, "mode": mode,
                        "dataset": figures.dataset, "images": figures.images}
            result.update((key, item) for key, item in optional.items() if item is not None)
            if metric in MATCHED:
                result.update(figures.thresholds)
            result["source_locator"] = f"{name}:{pointer}"
            result[DIGEST] = figures.sha256
            results.append(NewResult(result, f"{figures.display}: {pointer}"))
    return results


def provenance_note(figures: AgreementFigures) -> str:
    """The record's note of where the figures came from: the file's name,
    the first 12 hex digits of its content's sha256 (each result keeps all
    64) and, when the file says so, how they were computed."""
    note = f"agreement figures read from {figures.path.name} (sha256 {figures.sha256[:12]})"
    return note + (f", computed by {figures.computed_by}" if figures.computed_by else "")
