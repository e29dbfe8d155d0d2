"""A study: its study file, its run records and dataset definitions, loaded.

Flow: ``records`` (validated JSON) → :class:`Study` (this module, with the
flattened figure table) → ``render`` and ``checks``. Loading never raises on
a bad record: the problem is kept in :attr:`Study.problems` so ``check`` can
report it as SG202 while ``render`` refuses to run.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import RecordError, StudygenError, UsageError
from ..fsutil import shown_path, shown_paths_in
from ..place import Place
from ..records.keys import FIELDS, measurement_and_config_keys, software_signature
from ..records.load import Dataset, Record, load_dataset, load_record, load_yaml, yaml_line
from ..numbers import source_decimals
from ..records.schemas import validate_document
from ..records.write import validate_family_name
from ..records.kinds import KERNEL_SHARE_METRIC, RESULT_KINDS, Kind, ResultKind, RowShape, metric_of
from ..textio import regular_file

STUDY_FILE = "study.yaml"


def find_root(start: Path | None = None) -> Path:
    """The project root: the nearest folder at or above ``start`` (default:
    the working directory) that holds ``families/``. Raises UsageError."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "families").is_dir():
            return folder
    raise UsageError(f"no project root: no folder holding families/ at or above {here} (use --root DIR)")


def family_dirs(root: Path) -> list[Path]:
    """Every ``families/<f>/`` holding a study file, sorted by name."""
    return sorted(p.parent for p in (root / "families").glob(f"*/{STUDY_FILE}"))


def resolve_targets(root: Path, targets: tuple[str, ...] | list[str]) -> list[Path]:
    """Study folders for command-line targets: family names or paths to a
    folder holding a study file. No targets: every family. Raises UsageError
    for an unknown family or a path without a study file."""
    if not targets:
        dirs = family_dirs(root)
        if not dirs:
            raise UsageError(f"no families/*/{STUDY_FILE} under {root}")
        return dirs
    resolved = []
    for target in targets:
        as_path = Path(target)
        if ("/" in target or as_path.is_dir()) and (as_path / STUDY_FILE).is_file():
            resolved.append(as_path.resolve())
            continue
        if ("/" in target or target.startswith(".")) and not as_path.exists():
            raise UsageError(f"{target}: no such folder")
        if "/" in target or target.startswith("."):
            refuse_special_study_file(as_path / STUDY_FILE, root)
            raise UsageError(f"{target}: no {STUDY_FILE} in that folder")
        validate_family_name(target)
        candidate = root / "families" / target
        if not (candidate / STUDY_FILE).is_file():
            refuse_special_study_file(candidate / STUDY_FILE, root)
            known = ", ".join(p.name for p in family_dirs(root)) or "none"
            raise UsageError(f"unknown family '{target}' (known: {known})")
        resolved.append(candidate)
    return list(dict.fromkeys(resolved))  # "check X X" checks X once


def refuse_special_study_file(path: Path, root: Path | None = None) -> None:
    """InputError naming ``path`` when a study file is there but is no
    regular file (a folder, a FIFO, a device; :func:`studygen.textio.regular_file`),
    so that it is not mistaken for a family without a study file."""
    if os.path.lexists(path):
        regular_file(path, shown_path(path, root))


@dataclass(frozen=True)
class Problem:
    """A file that failed to load, at a :class:`~studygen.place.Place`:
    reported by check as SG202, refused by render (:meth:`error`)."""

    place: Place
    message: str

    @classmethod
    def at(cls, path: str, message: str, pointer: str | None = None, line: int = 0) -> "Problem":
        return cls(Place(path, line, pointer), message)

    @classmethod
    def of_error(cls, error: StudygenError, shown: str) -> "Problem":
        """The problem an error met while loading the file shown as ``shown``
        reports, at the error's place. A pointer to the whole document (``/``)
        is dropped: the line (1) says as much."""
        place = replace(error.place, path=shown)
        if place.pointer == "/":
            place = replace(place, pointer=None)
        return cls(place, error.message)

    def error(self) -> RecordError:
        """The problem as the error render and collect raise (one line naming the place)."""
        return RecordError(self.message, place=self.place)

    @property
    def path(self) -> str:
        return self.place.path

    @property
    def pointer(self) -> str | None:
        return self.place.pointer

    @property
    def line(self) -> int:
        return self.place.line


@dataclass
class Study:
    """A loaded study. ``spec`` is the validated study file."""

    root: Path
    study_dir: Path
    spec: dict
    spec_text: str
    records: list[Record] = field(default_factory=list)
    datasets: dict[str, Dataset] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def family(self) -> str:
        return self.spec["family"]

    @property
    def study_path(self) -> Path:
        return self.study_dir / STUDY_FILE

    @property
    def readme_path(self) -> Path:
        return self.study_dir / "README.md"

    @property
    def figures_dir(self) -> Path:
        return self.study_dir / "figures"

    @property
    def measurements_dir(self) -> Path:
        rel = self.spec.get("measurements") or f"measurements/{self.family}"
        return self.root / rel

    def rel(self, path: Path) -> str:
        return shown_path(path, self.root)

    @property
    def variants(self) -> dict[str, dict]:
        return {v["name"]: v for v in self.spec["variants"]}

    def variant_precision(self, variant: str) -> str | None:
        return self.variants.get(variant, {}).get("precision")

    @property
    def declared_not_measured(self) -> list[dict]:
        """The study file's ``not_measured`` entries (``config``, ``reason``, …):
        configurations the study declares it did not measure."""
        return list(self.spec.get("not_measured") or [])

    def variant_label(self, variant: str) -> str:
        return self.variants.get(variant, {}).get("label", variant)

    # ---- lookups of a row's sources (render and checks ask these per row) ----
    def record_at(self, display_path: str) -> Record:
        """The record shown as ``display_path``. Raises KeyError when the study has none."""
        index = self.__dict__.get("_records_by_path")
        if index is None or len(index) != len(self.records):
            index = {record.display_path: record for record in self.records}
            self.__dict__["_records_by_path"] = index
        return index[display_path]

    def result_of(self, row: dict) -> dict:
        """The record result a flattened row comes from (``/results/<i>`` of its record)."""
        return self.record_at(row["record"]).results[int(row["pointer"].split("/")[2])]

    def repeat_medians(self, row: dict) -> list[float]:
        """Per-repeat medians (ms) of a latency row, ``[]`` when its record has none."""
        if row["kind"] != Kind.LATENCY or row["value"] is None:
            return []
        distribution = self.result_of(row).get("distribution") or {}
        return list(distribution.get("repeat_medians_ms") or [])

    def compilation_medians(self, row: dict) -> list[float]:
        """Per-compilation medians (ms) of a latency row, in compilation order:
        ``compilations[*].median_ms`` of its result (``collect run`` with
        ``run.compilations``); ``[]`` for rows without independent compilations
        (eager, ingested, older records). Their spread (max - min) is the
        between-compilation spread of a compiled cell."""
        if row["kind"] != Kind.LATENCY or row["value"] is None:
            return []
        return [entry["median_ms"] for entry in self.result_of(row).get("compilations") or []]

    def compilation_repeat_medians(self, row: dict) -> list[list[float]]:
        """Each compilation's per-repeat medians (ms) of a latency row, in compilation order; ``[]`` as above."""
        if row["kind"] != Kind.LATENCY or row["value"] is None:
            return []
        return [list(entry["repeat_medians_ms"]) for entry in self.result_of(row).get("compilations") or []]

    def compilation_kernel_groups(self, row: dict) -> list[dict[str, float]]:
        """Each compilation's kernel time by group (ms per forward) of a kernel_time
        row's result, in compilation order; ``[]`` when the result keeps none."""
        if row["kind"] != Kind.KERNEL_TIME:
            return []
        return [dict(entry["groups"]) for entry in self.result_of(row).get("compilations") or []]

    def line_of_row(self, row: dict) -> int:
        """Line of a row's pointer in its record file (0 when the record is unknown)."""
        try:
            return self.record_at(row["record"]).line_of(row["pointer"])
        except KeyError:
            return 0

    @functools.cached_property
    def rows(self) -> list[dict]:
        """Every figure of every record as one flat row (see :func:`flatten_record`)."""
        rows = []
        for record in self.records:
            rows.extend(flatten_record(record, self))
        return rows

    @functools.cached_property
    def frame(self):
        """:attr:`rows` as a pandas DataFrame (imported lazily)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=ROW_COLUMNS)


ROW_COLUMNS = (
    "job_id", "record", "pointer", *FIELDS, "precision", "value", "decimals", "display_decimals", "value_min", "value_max",
    "range_over", "unit", "approximate", "weights", "transcribed", "timing_method",
    "repeats", "repeat_medians_ms", "samples", "cv", "unstable", "unstable_reason", "reference_variant", "note", "tensorrt", "key", "config_key",
)


# Method settings that make two latencies incomparable, in the order ``timing_method`` names them.
TIMING_METHOD_FIELDS = ("cuda_graph", "data_transfers", "spin_wait", "host_sync")


def _record_fields(record: Record) -> tuple:
    """What every row of ``record`` shares: ``(job_id, record, family,
    revision, gpu, tensorrt, weights, transcribed)``, read once a record
    rather than once a result."""
    provenance = record.provenance
    checkpoint = provenance["checkpoint"]
    return (record.job_id, record.display_path, record.data["family"], checkpoint.get("revision"),
            provenance.get("gpu"), (provenance.get("software") or {}).get("tensorrt"), checkpoint.get("weights"),
            "source" in provenance)


# A row's keys before its measurement keys, in order, each None until set. Copied per row
# rather than written as one 40-entry literal, which CPython builds 16 entries at a time,
# merging and resizing the dict twice (13 % of flattening).
_ROW_TEMPLATE = dict.fromkeys((
    "job_id", "record", "pointer", "family", "revision", "variant", "recipe", "precision", "kind", "metric",
    "statistic", "group", "shape", "batch", "backend", "mode", "gpu", "tensorrt", "software", "dataset",
    "value", "decimals", "display_decimals", "value_min", "value_max", "range_over", "unit", "approximate",
    "weights", "transcribed", "timing_method", "repeats", "repeat_medians_ms", "samples", "cv", "unstable",
    "unstable_reason", "reference_variant", "note",
))


def _base_row(record: Record, shared: tuple, variants: dict[str, dict], signatures: dict, index: int, result: dict,
              named: tuple) -> dict:
    """The row of ``record.results[index]`` before its value: ``shared`` is
    :func:`_record_fields` of the record, ``named`` the result's ``(metric,
    statistic, group)``, ``signatures`` the record's software signature per
    (backend, kind), filled here as they come."""
    job_id, display_path, family, revision, gpu, tensorrt, weights, transcribed = shared
    variant = result["variant"]
    variant_spec = variants.get(variant, {})
    method = result.get("method")
    timing_method = ",".join([f"{name}={method[name]}" for name in TIMING_METHOD_FIELDS if name in method]) if method else ""
    distribution = result.get("distribution") or {}
    backend = result.get("backend")
    kind = result["kind"]
    software = signatures.get((backend, kind))
    if software is None:
        software = signatures[backend, kind] = software_signature(record.provenance, backend, kind)
    metric, statistic, group = named
    get = result.get
    row = _ROW_TEMPLATE.copy()  # every key in place, in order: the stores below never grow the dict
    row["job_id"] = job_id
    row["record"] = display_path
    row["pointer"] = f"/results/{index}"
    row["family"] = family
    row["revision"] = revision
    row["variant"] = variant
    row["recipe"] = variant_spec.get("recipe")
    row["precision"] = variant_spec.get("precision")
    row["kind"] = kind
    row["metric"] = metric
    row["statistic"] = statistic
    row["group"] = group
    row["shape"] = get("shape")
    row["batch"] = get("batch")
    row["backend"] = backend
    row["mode"] = get("mode")
    row["gpu"] = gpu
    row["tensorrt"] = tensorrt
    row["software"] = software
    row["dataset"] = get("dataset")
    row["approximate"] = bool(get("approximate", False))
    row["weights"] = weights
    row["transcribed"] = transcribed
    row["timing_method"] = timing_method
    row["repeats"] = distribution.get("repeats")
    row["repeat_medians_ms"] = distribution.get("repeat_medians_ms")
    row["samples"] = distribution.get("samples")
    row["cv"] = distribution.get("cv")
    row["unstable"] = bool(get("unstable", False))
    row["unstable_reason"] = get("unstable_reason")
    row["reference_variant"] = get("reference_variant")
    row["note"] = get("note")
    return row


def _with_value(row: dict, holder: dict, name: str, unit: str, pointer: str) -> dict:
    """``row`` (changed in place: pass a copy of a row shared by several) with
    its value (or range) from ``holder[name]`` or ``holder[name + '_range']``."""
    row["unit"] = unit
    if name in holder:
        row["value"] = holder[name]
        row["decimals"] = source_decimals(holder[name])
        row["pointer"] = f"{pointer}/{name}"
    elif f"{name}_range" in holder:
        rng = holder[f"{name}_range"]
        row.update(value_min=rng["min"], value_max=rng["max"], range_over=rng["over"])
        row["pointer"] = f"{pointer}/{name}_range"
    return row


def flatten_record(record: Record, study: "Study") -> list[dict]:
    """One row per figure: latency (ms), plan size (MiB), COCO statistic,
    agreement metric, kernel time per group (ms) and share (%), kernel-time
    difference (ms), module counts; a not-measured result is a row without
    a value; engine layers give no row. Metric, statistic, group, unit,
    value field and printing key come from the result kinds table
    (:data:`studygen.records.kinds.RESULT_KINDS`). Ranges over unlisted rows
    keep ``value_min``/``value_max`` and leave ``value`` empty."""
    rows = []
    variants, signatures, shared = study.variants, {}, _record_fields(record)
    for index, result in enumerate(record.results):
        kind = RESULT_KINDS[result["kind"]]
        base = _base_row(record, shared, variants, signatures, index, result, metric_of(result))
        rows.extend(ROW_BUILDERS[kind.rows](base, result, kind, f"/results/{index}"))
    printing = study.spec.get("precision", {})
    for row in rows:
        printing_key = RESULT_KINDS[row["kind"]].printing_key
        row["display_decimals"] = printing.get(printing_key) if printing_key else None
        row["key"], row["config_key"] = measurement_and_config_keys(row)
    return rows


def _value_field(kind: ResultKind, holder: dict) -> str:
    """The first of the kind's value fields that ``holder`` states (as itself
    or as ``<field>_range``); the first field when it states none."""
    for name in kind.value_fields:
        if name in holder or f"{name}_range" in holder:
            return name
    return kind.value_fields[0]


def _value_rows(base: dict, result: dict, kind: ResultKind, pointer: str) -> list[dict]:
    """The one row of a result holding one figure (or a range) in the unit of
    its kind; a value field the kind divides (a plan size in bytes: 2**20
    bytes a MiB) is converted, its decimals those of the source."""
    name = _value_field(kind, result)
    row = _with_value(base, result, name, kind.unit, pointer)
    divisor = dict(kind.divisors).get(name)
    if divisor is not None and name in result:
        row["value"] = result[name] / divisor
    return [row]


def _group_rows(base: dict, result: dict, kind: ResultKind, pointer: str) -> list[dict]:
    """A row per group (time in ms, and share in % where the source gives a
    range of it), then the profiled total as group ``total``."""
    rows = []
    for g_index, group in enumerate(result["groups"]):
        gp = f"{pointer}/groups/{g_index}"
        g_row = {**base, "group": group["group"]}
        if "time_ms" in group or "time_ms_range" in group:
            rows.append(_with_value(dict(g_row), group, "time_ms", kind.unit, gp))
        if "share_percent_range" in group:
            rows.append(_with_value({**g_row, "metric": KERNEL_SHARE_METRIC}, group, "share_percent", "%", gp))
    if "profiled_total_ms" in result or "profiled_total_ms_range" in result:
        rows.append(_with_value({**base, "group": "total"}, result, "profiled_total_ms", kind.unit, pointer))
    return rows


def _count_rows(base: dict, result: dict, kind: ResultKind, pointer: str) -> list[dict]:
    """A count (quantized modules): a whole number, no decimals to keep."""
    name = kind.value_fields[0]
    return [{**base, "value": result[name], "unit": kind.unit, "pointer": f"{pointer}/{name}"}]


def _reason_rows(base: dict, result: dict, kind: ResultKind, pointer: str) -> list[dict]:
    """A metric the study names but did not measure: no value, the reason as its note."""
    return [{**base, "note": result["reason"]}]


def _no_rows(base: dict, result: dict, kind: ResultKind, pointer: str) -> list[dict]:
    """No figure (an engine's layer list)."""
    return []


# How a result becomes rows, for each shape a result kind names (RESULT_KINDS[kind].rows).
ROW_BUILDERS = {
    RowShape.VALUE: _value_rows,
    RowShape.GROUPS: _group_rows,
    RowShape.COUNT: _count_rows,
    RowShape.REASON: _reason_rows,
    RowShape.NONE: _no_rows,
}


def load_study(study_dir: Path, root: Path) -> Study:
    """Load ``study_dir/study.yaml`` and the records it names.

    Raises RecordError when the study file itself is unreadable or invalid
    (nothing can be checked without it). Bad records and dataset files are
    kept as :class:`Problem` entries; a study with no record at all is a
    problem too.
    """
    study_path = study_dir / STUDY_FILE
    rel = shown_path(study_path, root)
    spec, text = load_yaml(study_path, rel)
    if not isinstance(spec, dict):
        raise RecordError("study file must be a YAML mapping", path=rel, pointer="/")
    try:
        validate_document("study", spec, path=rel, text=None)
        if spec["family"] != study_dir.name and study_dir.parent == root / "families":
            raise RecordError(f"family '{spec['family']}' differs from its folder name '{study_dir.name}'",
                              path=rel, pointer="/family")
    except RecordError as exc:
        raise at_yaml_line(exc, text) from None
    study = Study(root=root, study_dir=study_dir, spec=spec, spec_text=text)
    records_dir = study.measurements_dir
    shown_in = {records_dir: shown_paths_in(records_dir, root)}
    # (display-path function of the record's folder, record path): the folder is known, not asked per record
    record_paths = [(shown_in[records_dir], path) for path in _json_files(records_dir, root, study.problems)]
    for extra in spec.get("extra_measurements", []):  # more record folders (a test case adding rows to shared records)
        extra_dir = root / extra
        if not _is_folder(extra_dir):
            study.problems.append(Problem.at(rel, f"extra_measurements: {extra}/ is not a folder", "/extra_measurements"))
            continue
        shown_in_extra = shown_in.setdefault(extra_dir, shown_paths_in(extra_dir, root))
        record_paths += [(shown_in_extra, path) for path in _json_files(extra_dir, root, study.problems)]
    for shown_in_folder, path in record_paths:
        shown = shown_in_folder(path)
        try:
            study.records.append(load_record(path, shown))
        except StudygenError as exc:
            study.problems.append(Problem.of_error(exc, shown))
    for path in _json_files(records_dir / "datasets", root, study.problems):
        shown = shown_path(path, root)
        try:
            dataset = load_dataset(path, shown)
            study.datasets[dataset.dataset_id] = dataset
        except StudygenError as exc:
            study.problems.append(Problem.of_error(exc, shown))
    if not record_paths and not study.problems:
        study.problems.append(Problem.at(rel, f"no records: {shown_path(records_dir, root)}/ holds no *.json run record"))
    study.problems.extend(record_consistency_problems(study))
    return study


def at_yaml_line(exc: RecordError, text: str) -> RecordError:
    """``exc`` (placed by a JSON pointer into the study file) placed at the YAML
    line of that node instead, the pointer kept in the message; as it was when
    the node has no line (a missing key)."""
    pointer = exc.place.pointer
    if not pointer:
        return exc
    steps = [int(part) if part.isdigit() else part.replace("~1", "/").replace("~0", "~")
             for part in pointer.split("/")[1:] if part]
    line = yaml_line(text, *steps)
    if not line:
        return exc
    return RecordError(f"{exc.message} ({pointer})", place=Place(exc.place.path, line))


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a parent without search permission
        return False


def _file_name(path: Path) -> str:
    return path.name


def _json_files(folder: Path, root: Path, problems: list) -> list[Path]:
    """The ``*.json`` files directly in ``folder``, sorted; none when it does not
    exist. A folder that exists but cannot be listed is a problem (SG202)."""
    try:
        if not folder.is_dir():
            return []
        return sorted(folder.glob("*.json"), key=_file_name)  # one folder: by name is the order of the paths
    except OSError as exc:
        problems.append(Problem.at(shown_path(folder, root), f"cannot list the folder: {exc.strerror or exc}"))
        return []


def record_consistency_problems(study: Study) -> list[Problem]:
    """What a record may not say although its schema allows it: another
    family, a job id other than its file name (so two files cannot claim one
    job), a variant the study file does not declare."""
    problems = []
    declared, family = set(study.variants), study.family
    for record in study.records:
        if record.data["family"] != family:
            problems.append(Problem.at(record.display_path, f"family '{record.data['family']}' but the study is '{family}'",
                                    "/family", record.line_of("/family")))
        if record.job_id != record.path.stem:
            problems.append(Problem.at(record.display_path, f"job_id '{record.job_id}' differs from the file name '{record.path.name}'",
                                    "/job_id", record.line_of("/job_id")))
        for index, result in enumerate(record.results):
            if result["variant"] in declared and (not result.get("reference_variant")
                                                  or result["reference_variant"] in declared):
                continue  # nearly every result: no list of names to build
            names = [("variant", result["variant"])]
            if result.get("reference_variant"):
                names.append(("reference_variant", result["reference_variant"]))
            for field_name, variant in names:
                if variant not in declared:
                    pointer = f"/results/{index}/{field_name}"
                    problems.append(Problem.at(record.display_path,
                                            f"variant '{variant}' is not declared in {study.rel(study.study_path)} "
                                            f"(declared: {', '.join(sorted(declared))})", pointer, record.line_of(pointer)))
    return problems
