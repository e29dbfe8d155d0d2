"""Load run records, dataset definitions and study files, validated.

Every failure is a :class:`RecordError` naming the file and the place
(``line N`` for malformed JSON or YAML, a JSON pointer for schema errors).
"""

from __future__ import annotations

import json
import math
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError, RecordError
from .jsonpos import line_of_pointer
from .migrate import migrate
from .numbers import SourceFloat
from .schemas import validate_document

MAX_INPUT_BYTES = 500 * 1024 * 1024  # larger inputs are refused (ingest issue: 500 MB within 4 GB)
# A record, dataset definition or study file holds summaries, not raw timings: a few hundred KiB
# at most. Larger ones are refused before render turns them into a README nobody can read.
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024


@dataclass
class Record:
    """A validated run record: ``data`` is the JSON object, ``text`` its source."""

    path: Path
    display_path: str
    data: dict
    text: str

    @property
    def job_id(self) -> str:
        return self.data["job_id"]

    @property
    def provenance(self) -> dict:
        return self.data["provenance"]

    @property
    def results(self) -> list[dict]:
        return self.data["results"]

    def line_of(self, pointer: str) -> int:
        """Line of ``pointer`` in this record's file (1-based)."""
        return line_of_pointer(self.text, pointer)


@dataclass
class Dataset:
    """A validated dataset definition."""

    path: Path
    display_path: str
    data: dict
    text: str = field(repr=False, default="")

    @property
    def dataset_id(self) -> str:
        return self.data["dataset_id"]

    def line_of(self, pointer: str) -> int:
        return line_of_pointer(self.text, pointer)


def read_text(path: Path, display: str | None = None, limit: int = MAX_INPUT_BYTES) -> str:
    """The file's text as UTF-8. Raises InputError (one line) when the file is
    missing, a folder or another non-regular file, empty, larger than ``limit``
    bytes (default 500 MiB), binary or not UTF-8."""
    display = display or str(path)
    try:
        status = path.stat()
    except FileNotFoundError:
        raise InputError("no such file", path=display) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=display) from None
    if stat.S_ISDIR(status.st_mode):  # what path.is_dir() tests, without a second stat
        raise InputError("is a folder, not a file", path=display)
    if not stat.S_ISREG(status.st_mode):  # reading a FIFO would wait for a writer forever
        raise InputError("not a regular file (a FIFO, socket or device)", path=display)
    size = status.st_size
    if size > limit:
        raise InputError(f"file is {size} bytes; the limit is {limit} bytes ({limit // 2**20} MiB)", path=display)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=display) from None
    return decode_text(raw, display)


def decode_text(raw: bytes, display: str, where: str = "") -> str:
    """``raw`` as UTF-8 text; InputError when it is empty, binary (NUL bytes
    in the first 8 KiB) or not UTF-8. ``where`` qualifies the messages (for
    example " after gzip decompression")."""
    if not raw.strip():
        raise InputError(f"file is empty{where}", path=display)
    if b"\x00" in raw[:8192]:
        what = "binary content" if where else "binary file"
        raise InputError(f"{what} (NUL bytes){where}, not text", path=display)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start}{where})", path=display) from None


class _JSONRefusal(ValueError):
    """A JSON value that parses but must not be read as a figure; ``literal`` locates it."""

    def __init__(self, message: str, literal: str):
        super().__init__(message)
        self.literal = literal


def _line_of_literal(text: str, literal: str, occurrence: int = 1) -> int | None:
    """Line of the ``occurrence``-th appearance of ``literal`` in ``text`` (1-based)."""
    position = -1
    for _ in range(occurrence):
        position = text.find(literal, position + 1)
        if position < 0:
            return None
    return text.count("\n", 0, position) + 1


def _finite_float(literal: str) -> SourceFloat:
    value = SourceFloat(literal)
    if not math.isfinite(value):
        raise _JSONRefusal(f"number {literal} is out of range (not a finite double)", literal)
    return value


def _refuse_constant(name: str):
    raise _JSONRefusal(f"{name} is not valid JSON", name)


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    document = dict(pairs)  # C speed; a shorter dict than the pair list means a key came twice
    if len(document) == len(pairs):
        return document
    seen: dict[str, object] = {}
    for key, value in pairs:
        if key in seen:
            raise _JSONRefusal(f"duplicate key {key!r} (the last would silently win)", f'"{key}"')
        seen[key] = value
    return seen


# A JSON number reads as infinity only when it is at least ~1.8e308: with no
# run of 100 digits (integer part below 1e100) and no positive exponent of 3
# digits after a digit (at most e99) it stays below 1e199, so a text without
# either needs no per-float finiteness test. A match (inside a string too)
# only means the test runs.
_MAYBE_OUT_OF_RANGE = re.compile(r"\d{100}|\d[eE]\+?\d{3}")


# json.loads with hooks builds a new decoder per call; these two are made once.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=SourceFloat,
                            object_pairs_hook=_no_duplicate_keys)
_CHECKING_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float,
                                     object_pairs_hook=_no_duplicate_keys)


def parse_json(text: str, display: str):
    """``json.loads`` with errors as ``file:line N: malformed JSON: …``.

    Refused as well, since each would become a wrong figure silently: NaN and
    Infinity (not JSON), numbers beyond a double's range (``1e400`` would read
    as infinity), duplicate keys (the last would win), nesting too deep to
    parse. Floats keep their source digits (:class:`SourceFloat`).
    """
    decoder = _CHECKING_DECODER if _MAYBE_OUT_OF_RANGE.search(text) else _DECODER
    try:
        if text.startswith("\ufeff"):  # as json.loads words it
            raise json.JSONDecodeError("the file starts with a byte order mark (U+FEFF); save it as UTF-8 without one",
                                       text, 0)
        return decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"malformed JSON: {exc.msg} (column {exc.colno})", path=display, where=f"line {exc.lineno}") from None
    except _JSONRefusal as exc:
        occurrence = 2 if str(exc).startswith("duplicate key") else 1
        line = _line_of_literal(text, exc.literal, occurrence)
        raise RecordError(f"malformed JSON: {exc}", path=display, where=f"line {line}" if line else None) from None
    except RecursionError:
        raise RecordError("malformed JSON: nested too deeply to read", path=display) from None
    except ValueError as exc:  # e.g. an integer literal longer than Python's digit limit
        reason = str(exc)
        if "int_max_str_digits" in reason or "Exceeds the limit" in reason:
            reason = "an integer with more than 4300 digits (no measurement has that many)"
        raise RecordError(f"malformed JSON: {reason}", path=display) from None


def load_record(path: Path, display: str | None = None) -> Record:
    """Read, migrate and validate one run record.

    Raises RecordError (malformed JSON, schema violation with JSON pointer,
    unknown schema_version) or InputError (unreadable file).
    """
    display = display or str(path)
    text = read_text(path, display, MAX_DOCUMENT_BYTES)
    try:
        document = migrate(parse_json(text, display), path=display)
    except RecordError as exc:
        if exc.where and exc.where.startswith("/"):
            exc.pointer = exc.where
            exc.line_number = line_of_pointer(text, exc.where)
        raise
    validate_document("run", document, path=display, text=text)
    return Record(path=path, display_path=display, data=document, text=text)


def load_dataset(path: Path, display: str | None = None) -> Dataset:
    """Read and validate one dataset definition; also checks that the file
    name is ``<dataset_id>.json`` and that a listed id set matches its count
    and sha256 (see :func:`image_ids_sha256`)."""
    display = display or str(path)
    text = read_text(path, display, MAX_DOCUMENT_BYTES)
    document = parse_json(text, display)
    if isinstance(document, dict) and document.get("schema_version") != 1:
        raise RecordError("this studygen needs schema_version 1 for dataset definitions", path=display, where="/schema_version")
    validate_document("dataset", document, path=display, text=text)
    if path.stem != document["dataset_id"]:
        raise RecordError(f"dataset_id '{document['dataset_id']}' differs from the file name '{path.name}'", path=display, where="/dataset_id")
    ids = document.get("image_ids")
    if ids is not None:
        if len(ids) != document["count"]:
            raise RecordError(f"count {document['count']} but {len(ids)} image ids listed", path=display, where="/count")
        digest = image_ids_sha256(ids)
        if digest != document["image_ids_sha256"]:
            raise RecordError(f"image_ids_sha256 does not match the listed ids (computed {digest})", path=display, where="/image_ids_sha256")
    return Dataset(path=path, display_path=display, data=document, text=text)


def image_ids_sha256(image_ids) -> str:
    """sha256 (hex) of the sorted image ids, one per line, UTF-8, with a
    trailing newline. Integer ids sort numerically, strings lexically."""
    import hashlib

    ordered = sorted(image_ids, key=lambda v: (isinstance(v, str), v))
    payload = "".join(f"{v}\n" for v in ordered).encode("utf-8")
    return hashlib.sha256(payload).hexdigest()


def load_yaml(path: Path, display: str | None = None):
    """PyYAML ``safe_load`` with errors as ``file:line N: …``."""
    import yaml

    display = display or str(path)
    text = read_text(path, display, MAX_DOCUMENT_BYTES)
    try:
        return yaml.safe_load(text), text
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise RecordError(f"malformed YAML: {problem}", path=display, where=where) from None


def yaml_line(text: str, *path) -> int:
    """1-based line of the YAML node at ``path`` (keys and indexes) in ``text``; 0 if absent."""
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return 0
    for step in path:
        if node is None:
            return 0
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if k.value == step), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            return 0
    return node.start_mark.line + 1 if node is not None else 0
