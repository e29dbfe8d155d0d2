"""Rows as templates see them, and how templates select them.

A *row* is one figure of a record result (:class:`studygen.study.rows.Row`).
Templates select rows by filters (``study.figures(kind="latency",
tensorrt="11.4")``) and get a :class:`RowSet`; iterating it gives
:class:`TemplateRow` objects, which print as the figure they hold. Filters
that name *what* is measured select; any other filter narrows the rows, and
the range helpers print it as a restriction ("on TensorRT 11.4 only").
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from decimal import Decimal

from ..errors import TemplateError
from ..numbers import exact_decimal, format_number, kept_significant, readable_decimals
from ..study.rows import ROW_FIELDS, Row
from ..study.spread import own_spread_width
from ..study.timing import measurement_of, rows_by_measurement
from .escaping import escape_label_in_prose
from .labels import gpu_label, shape_label, short_version, version_label
from .produced import emit, helper
from .study_file import study_file_view

# Filters that define *what* is measured; any other filter narrows the rows and
# is printed as a restriction by the range helpers.
QUANTITY_FILTERS = {"kind", "metric", "statistic", "group", "variant", "unit", "reference_variant"}
DEFAULT_DECIMALS = {"ratio": 2, "percent": 0, "ap_delta_points": 2, "ms": 3}  # derived figures only
# Units of measured times and sizes: their instruments print more digits than a run repeats
# (readable_decimals); an agreement metric keeps its source's digits (a correlation of
# 0.99987 is not 0.9999 to a reader comparing it with 1).
MEASURED_UNITS = {"ms", "MiB"}
# A collected AP (pycocotools' float, 0.46123456789...) prints to this many significant digits: COCOeval's own
# summary prints three decimals, and no image set of a study's size moves AP in its 16th digit.
AP_UNIT, AP_SIGNIFICANT_DIGITS = "AP", 4
UNIT_SUFFIX = {"ms": " ms", "MiB": " MiB", "%": "%", "points": " points", "AP": "", "": "", "modules": ""}


def fmt(value, row: Row) -> str:
    """A source figure as printed (``value``: the row's value or one end of its
    range): the study file's per-metric precision when it sets one
    (``precision: {latency_ms: 3}``); else, for a collected time or size
    (:data:`MEASURED_UNITS`), the digits its own spread supports or 4
    significant digits, never more than its source carries
    (:func:`shown_decimals`); else the digits the source carries. A count (a
    metric named ``*_count``) prints as an integer whatever the precision. The
    record keeps every digit; only the README rounds."""
    if str(row.metric or "").endswith("_count") and float(value).is_integer():
        return format_number(value, 0)
    return format_number(value, shown_decimals(value, row))


def shown_decimals(value, row: Row) -> int | None:
    """Digits after the point :func:`fmt` prints ``value`` of ``row`` with
    (None: the source's own): the study file's precision for the row's kind
    (never rounding a nonzero figure below two significant digits:
    :func:`studygen.numbers.kept_significant`),
    else for a collected AP :data:`AP_SIGNIFICANT_DIGITS` significant digits
    (never more than its source carries), else for ms and MiB read off an
    instrument's output (not transcribed from a publication, which prints
    as published) :func:`studygen.numbers.readable_decimals` of the
    row's own spread (:func:`studygen.study.spread.own_spread_width`) capped
    at the digits its source supports (``Row.carried_decimals``: a sum of
    kernel times, those of its least precise addend)."""
    carried = row.carried_decimals(value)
    if row.display_decimals is not None:
        return kept_significant(value, row.display_decimals, carried)
    if row.unit == AP_UNIT and not row.transcribed:
        return readable_decimals(value, carried, significant=AP_SIGNIFICANT_DIGITS)
    if row.unit not in MEASURED_UNITS or row.transcribed:
        return carried  # a publication's figure is printed as published: its author already rounded it
    return readable_decimals(value, carried, own_spread_width(row))


def difference_decimals(rows: list[Row], values=None) -> int:
    """Decimals of a difference between the figures of ``rows`` (a spread
    max - min between jobs) where each figure prints as :func:`fmt` prints it
    alone: the most any of them prints with (:func:`shown_decimals`), so the
    spread reads as the difference of the figures beside it (5.1 and 5.02 are
    0.08 apart); for values without printed decimals (computed ones) the most
    any carries; 0 for none. ``values``: the figures, one per row (default
    each row's value; an end of a range row's range). :func:`spread_cells`
    prints more where that would not read as their difference."""
    values = [r.value for r in rows] if values is None else values
    shown = [shown_decimals(value, r) for value, r in zip(values, rows, strict=True) if value is not None]
    shown = [d for d in shown if d is not None]
    if shown:
        return max(shown)
    return max((r.decimals or 0) for r in rows) if rows else 0


def spread_cells(rows: list[Row], values=None) -> tuple[list[str], str]:
    """The figures of ``rows`` (one measurement in several jobs, each with a
    value) and their spread (max - min of the source decimals, exact) as one
    table row prints them, so that the row reads as its own arithmetic
    (:func:`reads_as_difference`): each figure as :func:`fmt` prints it alone
    and the spread at :func:`difference_decimals` where that holds (5.02;
    5.1 and 0.08), else every figure and the spread at one count of
    decimals, the fewest from the most those printed with up that make it
    hold (14.616 and 14.233 ms, two digits each alone, print 14.6; 14.2 and
    0.4, not 15; 14 and 0), a figure never past the digits its source
    carries (``Row.carried_decimals``). Where even those digits cannot make
    it hold (a kernel group's sum rounded to its least precise addend) the
    figures print at the most. A non-finite figure prints as :func:`fmt`
    prints it, beside the float difference. ``values``: the figures, one
    per row, where they are not the rows' values (the ends of a cell's
    range, a median over jobs); the rule is the one whatever prints the
    figures: a job-to-job cell (:meth:`~.spans.SpanHelpers.with_spread`)
    and ``studygen diff``'s old and new values and their change."""
    values = [r.value for r in rows] if values is None else list(values)
    alone = [fmt(value, row) for value, row in zip(values, rows, strict=True)]
    if not all(math.isfinite(value) for value in values):
        return alone, format_number(max(values) - min(values), difference_decimals(rows, values))
    spread = max(map(exact_decimal, values)) - min(map(exact_decimal, values))
    spread_text = format_number(spread, difference_decimals(rows, values))
    if reads_as_difference(values, alone, spread_text):
        return alone, spread_text
    caps = [row.carried_decimals(value) for value, row in zip(values, rows, strict=True)]
    first = max(_decimals_of(text) for text in [*alone, spread_text])
    # a computed figure carries no digits: its exact decimal text is as far as rounding can go
    last = max(first, *(cap if cap is not None else max(0, -exact_decimal(value).as_tuple().exponent)
                        for cap, value in zip(caps, values, strict=True)))
    for decimals in range(first, last + 1):
        texts = [format_number(value, decimals if cap is None else min(decimals, cap))
                 for value, cap in zip(values, caps, strict=True)]
        spread_text = format_number(spread, decimals)
        if reads_as_difference(values, texts, spread_text):
            break
    return texts, spread_text


def reads_as_difference(values, texts: list[str], spread_text: str) -> bool:
    """Whether ``texts`` (``values`` as printed) and ``spread_text`` (their
    max - min as printed) agree: the printed spread is the largest printed
    figure minus the smallest, and figures are ordered and told apart as
    their sources are (two print alike only where their sources are equal).
    ``15; 14`` beside ``0``, ``2.0; 2.0`` beside ``0.1`` and ``0.04395;
    0.04482`` beside ``0.00088`` do not; ``5.02; 5.1`` beside ``0.08`` does."""
    printed = sorted(zip(map(exact_decimal, values), map(Decimal, texts)))
    for (value, text), (next_value, next_text) in zip(printed, printed[1:]):
        if (text < next_text) != (value < next_value) or (text == next_text) != (value == next_value):
            return False
    return Decimal(spread_text) == printed[-1][1] - printed[0][1]


def _decimals_of(text: str) -> int:
    """Digits after the point in a printed number: ``0.131`` → 3, ``15`` → 0."""
    return len(text.partition(".")[2])


def counted(count: int, noun: str) -> str:
    """``1 job``, ``2 jobs``: a count with its noun, plural from 2 (and 0)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def undefined_text(rows) -> str | None:
    """``undefined: no ground truth …`` when every one of ``rows`` (study
    rows) holds a marker instead of a figure (:attr:`Row.undefined`), else
    None."""
    reasons = [row.undefined for row in rows]
    return reasons[0] if reasons and all(reasons) else None


def unit_suffix(unit: str) -> str:
    """What follows a number of ``unit``: ``" ms"``, ``"%"``, nothing for AP."""
    return UNIT_SUFFIX.get(unit, f" {unit}")


def shape_order(shape) -> tuple:
    """Sort key of a shape ``HxW`` by its numbers, height then width:
    ``640x640`` before ``640x1280`` before ``1280x1280`` (as text, ``1280x…``
    came first); a shape that is not ``x``-joined digits (None, a name)
    after every one that is, by its text."""
    parts = str(shape or "").split("x")
    if len(parts) >= 2 and all(part.isdigit() for part in parts):
        return (0, tuple(int(part) for part in parts))
    return (1, str(shape or ""))


def batch_order(batch) -> tuple:
    """Sort key of a batch size: by its number (1 before 8 before 16), a
    batch not stated (None) after every stated one."""
    return (0, batch) if isinstance(batch, int) else (1, 0)


def field_order(name: str, value, first: dict) -> tuple:
    """Sort key of a row ``value`` of the field ``name`` in a table or
    list: a shape (:func:`shape_order`) and a batch (:func:`batch_order`)
    by their numbers, a kernel group by where it first came but ``other``
    and then ``total`` last (the catch-all and the sum close each profile's
    rows: a group only a later profile has, a trial's MI300X Conv or the
    shipped H200 study's Quantize/Dequantize, came after the total), any
    other field by where its value first came (``first``: value -> its
    place, filled in row order)."""
    if name == "shape":
        return shape_order(value)
    if name == "batch":
        return batch_order(value)
    if name == "group":
        return (value == "total", value == "other", first[value])
    return (first[value],)


@dataclass(frozen=True, slots=True)
class TemplateRow:
    """One row as a template sees it: it prints as its figure (with its unit;
    ``number()`` without), and every row field (:data:`ROW_FIELDS`) reads as
    an attribute (``row.shape``, ``row.job_id``, ``row.record`` the record's
    path). The row itself stays out of the template's reach (the sandbox
    refuses names starting with ``_``): the helpers read it as ``_row``."""

    _row: Row

    @property
    def value(self):
        return self._row.value

    @property
    def is_range(self) -> bool:
        return self._row.is_range

    @property
    def low(self):
        return self._row.low

    @property
    def high(self):
        return self._row.high

    @property
    def unit(self) -> str:
        return self._row.unit or ""

    def number(self) -> str:
        """The figure without unit: ``5.850`` or ``0.19 to 0.21``; for a
        marker its source wrote instead of a figure, why there is none
        (``undefined: no ground truth …``)."""
        row = self._row
        if row.undefined:
            return emit(row.undefined, [row], kind="figure")
        if row.is_range:
            return self._figure_text(f"{fmt(row.low, row)} to {fmt(row.high, row)}")
        return self._figure_text(fmt(row.value, row))

    def _figure_text(self, printed: str) -> str:
        """``printed`` (the figure's digits, as :meth:`number` or a caller that
        chose them with other figures prints them) noted as the row's figure,
        ``about`` before an approximate one."""
        prefix = "about " if self._row.approximate else ""
        return emit(prefix + printed, [self._row], kind="figure")

    def __str__(self) -> str:
        suffix = "" if self._row.undefined else unit_suffix(self.unit)
        return emit(self.number() + suffix, [self._row], kind="figure")

    @classmethod
    def field_names(cls) -> list[str]:
        """What a template may read on a row, sorted: every row field
        (:data:`studygen.study.rows.ROW_FIELDS`) and the row's own properties and ``number()``."""
        own = [name for name in vars(cls) if not name.startswith("_") and name != "field_names"]
        return sorted({*ROW_FIELDS, *own})

    def __getattr__(self, name):
        return self._row.field(name)


class RowSet:
    """Rows selected by filters, with the restriction text the filters imply."""

    def __init__(self, rows: list[Row], filters: dict):
        self.rows = rows
        self.filters = filters

    def __iter__(self):
        return (TemplateRow(r) for r in self.rows)

    def __str__(self) -> str:
        # An object repr would put a memory address in the README (never byte-identical).
        raise TemplateError("a set of figures cannot be printed as it is: use study.span, study.table or "
                            "study.list_table, or loop over it")

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, index: int) -> TemplateRow:
        """The row at ``index`` (negative counts from the end), as a list
        gives it; TemplateError naming how many rows the selection holds when
        there is no such row (the sandbox would name this class instead)."""
        if isinstance(index, bool) or not isinstance(index, int):
            raise TemplateError(f"study.figures(...) is indexed by a whole number, not {index!r}: loop over it, or "
                                "select one row with study.one(...)")
        if not -len(self.rows) <= index < len(self.rows):
            count = counted(len(self.rows), "row")
            raise TemplateError(f"study.figures(...) selected {count}: there is no row [{index}]")
        return TemplateRow(self.rows[index])

    def restriction(self) -> str:
        """``on TensorRT 11.4 only`` style text for the narrowing filters, or ''."""
        return restriction_text(self.filters)


def restriction_text(filters: dict) -> str:
    """``on TensorRT 11.4 only`` style text for the filters in ``filters`` that
    narrow rows (not :data:`QUANTITY_FILTERS`, not None), or ''."""
    words = []
    for name, value in filters.items():
        if name in QUANTITY_FILTERS or value is None:
            continue
        values = list(value) if isinstance(value, (list, tuple, set)) else [value]
        if name == "tensorrt":
            words.append("on TensorRT " + and_list([version_label(v) for v in values]))
        elif name == "gpu":
            words.append("on " + and_list([gpu_label(v) for v in values]))
        elif name == "shape":
            words.append("at " + and_list([shape_label(v) for v in values]))
        elif name == "job_id":
            words.append(("in job " if len(values) == 1 else "in jobs ") + and_list(values))
        else:
            words.append(f"{name} " + and_list([str(v) for v in values]))
    return (", ".join(words) + " only") if words else ""


def and_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def matches(row: Row, filters: dict) -> bool:
    """True when ``row`` has every filter's value (a list, tuple or set: any of
    them; None: no condition). ``tensorrt`` also matches by major.minor
    (``"11.4"`` selects ``11.4.0.106``)."""
    for name, wanted in filters.items():
        if wanted is None:
            continue
        value = row.field(name)
        if name == "tensorrt" and value and not isinstance(wanted, (list, tuple, set)):
            if short_version(value) == str(wanted) or value == wanted:
                continue
            return False
        if isinstance(wanted, (list, tuple, set)):
            if value not in wanted and not (name == "tensorrt" and short_version(value) in wanted):
                return False
        elif value != wanted:
            return False
    return True


def selection_key(filters: dict) -> tuple | None:
    """``filters`` as a key of the rows they select: each filter's name with
    its value and the value's type (``tensorrt=1`` and ``tensorrt=True``
    select differently: :func:`matches` reads a version as text), a list,
    tuple or set item by item; None when a value cannot be a key (a
    template's undefined value, which :func:`matches` refuses as it reads it)."""
    try:
        key = tuple(sorted((name, _typed(value)) for name, value in filters.items()))
        hash(key)
    except Exception:  # noqa: BLE001 - TypeError, or jinja2's UndefinedError: no key, the rows are selected as ever
        return None
    return key


def _typed(value) -> tuple:
    """``value`` with its type, and those of its items for a list, tuple or set (:func:`selection_key`)."""
    if type(value) in (list, tuple):
        return (type(value), tuple(_typed(item) for item in value))
    if type(value) is set:
        return (set, frozenset(_typed(item) for item in value))
    return (type(value), value)


# Row fields that are bookkeeping, not something to select by.
NOT_FILTERS = {"record", "pointer", "key", "config_key", "value", "value_min", "value_max", "decimals",
               "display_decimals", "repeat_medians_ms", "note", "unstable_reason"}
FILTER_FIELDS = tuple(name for name in ROW_FIELDS if name not in NOT_FILTERS)


def telling_apart(rows: list[Row]) -> list[str]:
    """The filter fields (:data:`FILTER_FIELDS`, in their order) whose values
    differ among ``rows``: what a template adds to pick one of them."""
    return [name for name in FILTER_FIELDS if len({repr(r.field(name)) for r in rows}) > 1]


class ViewBase:
    """What every group of the view's helpers stands on: the study and its
    study file, row selection, variant labels and the study's precisions."""

    def __init__(self, study):
        self._study = study
        # what a template reads of the study file knows its place there: a field it lacks is an error naming both
        self.spec = study_file_view(study.spec, study.rel(study.study_path))
        self.family = study.family
        self.title = self.spec["title"]
        self.decision = self.spec["decision"]
        self.model = self.spec["model"]

    @helper()
    def figures(self, **filters) -> RowSet:
        """Rows whose fields equal the filters (a list means any of). Raises
        TemplateError for a filter that names no row field (a typo would
        otherwise select nothing, or everything)."""
        unknown = sorted(set(filters) - set(ROW_FIELDS))
        if unknown:
            raise TemplateError(f"unknown filter {', '.join(unknown)}; filters are the row fields "
                                f"{', '.join(sorted(FILTER_FIELDS))}")
        key = selection_key(filters)
        rows = self._selections.get(key) if key is not None else None
        if rows is None:
            kind = filters.get("kind")
            # the rows of one kind (read off the study's rows by kind once) are asked the other filters only:
            # their kind matches, whichever place the kind filter had among the others
            rest = {name: wanted for name, wanted in filters.items() if name != "kind"} if type(kind) is str else filters
            rows = [r for r in self._of_kind(kind) if matches(r, rest)]
            if key is not None:
                self._selections[key] = rows
        return RowSet(list(rows), filters)

    # Templates select by kind in nearly every call, and ask for the rows of one measurement key for every
    # figure with a spread: both are read off the study's rows once per view (one render), not scanned per call.
    @functools.cached_property
    def _rows_of_kind(self) -> dict:
        return {}

    # The rows each set of filters selected (selection_key -> rows): a template asks for the same selection
    # again and again (the shipped ones 64 times for 28 selections), and a view's study does not change.
    @functools.cached_property
    def _selections(self) -> dict:
        return {}

    def _of_kind(self, kind) -> list[Row]:
        """The study's rows that a ``kind=`` filter of ``kind`` keeps (as
        :func:`matches` reads it), in record order; every row when ``kind``
        is not one name (None, or a list: the other filters decide)."""
        if type(kind) is not str:
            return self._study.rows
        rows = self._rows_of_kind.get(kind)
        if rows is None:
            # what matches(r, {"kind": kind}) keeps, compared directly: matches' generic field lookup was a
            # fifth of rendering the scale benchmark's minimal template (1.2 us a row, once per kind asked)
            rows = self._rows_of_kind[kind] = [r for r in self._study.rows if r.kind == kind]
        return rows

    @functools.cached_property
    def _rows_by_measurement(self) -> dict:
        return rows_by_measurement(self._study.rows)

    def same_measurement_rows(self, row: Row) -> list[Row]:
        """Every row of the study of ``row``'s measurement (``row`` among them),
        in record order: its measurement key and, of a latency, its timing
        signature (:func:`studygen.study.timing.measurement_of`, as SG203 reads
        one measurement): a figure timed otherwise (CUDA graphs on against
        off) is no job-to-job spread of it. Not a template helper."""
        return self._rows_by_measurement.get(measurement_of(row), [])

    @helper()
    def ordered(self, row_set: RowSet, *fields: str) -> RowSet:
        """``row_set`` sorted by ``fields`` in turn (default ``mode`` then
        ``shape``): a shape and a batch by their numbers (:func:`field_order`:
        ``800x800`` before ``800x1067``), any other field in the order its
        values first come; rows equal in them keep their order."""
        fields = fields or ("mode", "shape")
        unknown = sorted(set(fields) - set(ROW_FIELDS))
        if unknown:
            raise TemplateError(f"ordered: unknown field {', '.join(unknown)}")
        first: dict[str, dict] = {name: {} for name in fields}
        for row in row_set.rows:
            for name in fields:
                first[name].setdefault(row.field(name), len(first[name]))

        def sort_key(row: Row) -> tuple:
            return tuple(field_order(name, row.field(name), first[name]) for name in fields)
        return RowSet(sorted(row_set.rows, key=sort_key), row_set.filters)

    @helper()
    def one(self, **filters) -> TemplateRow:
        """Exactly one row. Raises TemplateError otherwise, naming the filters,
        and for several rows each of them (job and JSON pointer) with the
        fields whose values tell them apart (``shape``, ``job_id``, …)."""
        found = self.figures(**filters)
        if len(found) == 1:
            return next(iter(found))
        message = f"expected one figure for {filters}, found {len(found)}"
        if len(found) > 1:
            apart = telling_apart(found.rows)
            listed = "; ".join(f"job {r.job_id} {r.pointer}"
                               + "".join(f" {name}={r.field(name)}" for name in apart if name != "job_id")
                               for r in found.rows)
            message += f": {listed}; they differ in {', '.join(apart)}: add one of these filters"
        raise TemplateError(message)

    @helper()
    def jobs(self) -> list[str]:
        """Job ids of the study's records, in record order."""
        return [r.job_id for r in self._study.records]

    @helper()
    def label(self, variant: str) -> str:
        """The variant's label from the study file (its id when it has none),
        its inline markup escaped (``*fast*`` prints as written, not italic),
        ready to print as a plain string, which the template engine escapes
        for prose (:func:`studygen.render.escaping.escape_prose`)."""
        return self._prose_label(variant)

    def _label(self, variant: str) -> str:
        """The variant's label as the study file gives it (its id when it has
        none): for an escaper of the place it goes (a table cell:
        :func:`~studygen.render.escaping.escape_label`), never printed as it is."""
        return self._study.variant_label(variant)

    def _prose_label(self, variant: str) -> str:
        """:meth:`_label` in a sentence a helper returns as a plain string
        (:func:`~studygen.render.escaping.escape_label_in_prose`)."""
        return escape_label_in_prose(self._study.variant_label(variant))

    @helper()
    def decimals(self, name: str) -> int:
        """Decimals of a derived figure (``ratio``, ``percent``, ``ap_delta_points``,
        ``ms``): the study file's ``precision`` entry, else the default."""
        return self.spec.get("precision", {}).get(name, DEFAULT_DECIMALS.get(name, 2))

    def _variant_order(self) -> dict[str, int]:
        """Each variant's place in the study file's ``variants`` (0 first): the
        order tables, columns and sentences list variants in."""
        return {variant["name"]: place for place, variant in enumerate(self.spec["variants"])}

    def _ms(self, value: float, sign: bool = False) -> str:
        """A time computed here (ms, not a row's own figure) at the study's ``ms`` decimals, signed when ``sign``."""
        return format_number(value, self.decimals("ms"), sign=sign)
