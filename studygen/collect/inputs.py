"""Reading collector inputs: size, emptiness, binary and UTF-8 guards, gzip,
JSON (one value or several concatenated), figures as their source printed them.

Every failure is one :class:`~studygen.errors.InputError` line naming the file
and the place (``line N``, or a JSON pointer).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import gzip
import hashlib
import json
import math
import os
import re
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..fsutil import shown_path
from ..records.sources import DIGEST, TIMED_KINDS, source_file
from ..textio import (MAX_INPUT_BYTES, UTF8_BOM, decode_text, document_problem, json_value_error_reason, open_regular,
                      read_open)

GZIP_MAGIC = b"\x1f\x8b"


def read_input_text(path: Path, display: str | None = None, limit: int = MAX_INPUT_BYTES) -> str:
    """The text of ``path`` (plain or gzip-compressed, by its magic bytes).

    The file is opened once and its bytes are read once: what is parsed is
    what :func:`recorded_reads` keeps the digests of (:class:`ReadDigests`).
    Raises InputError for a missing, empty, binary or non-UTF-8 file, or one
    whose (decompressed) size exceeds 500 MiB (:data:`MAX_INPUT_BYTES`), so a
    500 MB input stays well within 4 GB of memory once parsed. ``limit``
    (bytes) bounds a file as stored lower where its format is small (a
    figures file of a few lines: :mod:`studygen.collect.agreement`).
    """
    display = display or shown_path(path)
    fd, size = open_regular(path, display, limit)  # a FIFO or device refused before the open could wait on it
    try:
        try:
            magic = os.read(fd, 2)
            os.lseek(fd, 0, os.SEEK_SET)
        except OSError as exc:
            raise InputError(f"cannot read: {exc.strerror}", path=display) from None
        if magic == GZIP_MAGIC:
            text, digests = _read_gzip_text(fd, size, display)
        else:
            raw = read_open(fd, size, display, limit)
            text = decode_text(raw, display)
            stored = hashlib.sha256(raw).hexdigest()
            content = hashlib.sha256(memoryview(raw)[len(UTF8_BOM):]).hexdigest() if raw.startswith(UTF8_BOM) \
                else stored
            digests = ReadDigests(content, stored)
    finally:
        os.close(fd)
    _remember(path, display, digests)
    return text


@dataclass(frozen=True)
class ReadDigests:
    """sha256 (hex) of one input as it was read to be parsed: ``content``
    of its content (:func:`content_sha256`'s digest: gzip decompressed, no
    leading byte order mark), ``stored`` of its bytes as stored
    (:func:`file_sha256`'s)."""

    content: str
    stored: str


# absolute path -> digests of each input read_input_text read, while recorded_reads is in force
_READS: contextvars.ContextVar[dict[str, ReadDigests] | None] = contextvars.ContextVar("input_reads", default=None)


@contextlib.contextmanager
def recorded_reads() -> Iterator[dict[str, ReadDigests]]:
    """While in force, every input :func:`read_input_text` reads keeps the
    digests of the bytes it parsed, for :func:`stamp_digests` and
    :func:`stored_sha256`: hashing the file by reading it again gave a file
    replaced meanwhile the digest of another content than its figures'."""
    reads: dict[str, ReadDigests] = {}
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


def under_recorded_reads(function: Callable) -> Callable:
    """``function`` run under :func:`recorded_reads` (a collector's run: it
    parses its inputs, then stamps their digests)."""

    @functools.wraps(function)
    def run(*args, **kwargs):
        with recorded_reads():
            return function(*args, **kwargs)
    return run


def _remember(path: Path, display: str, digests: ReadDigests) -> None:
    """Keep ``digests`` as ``path``'s; InputError when this collect read the file before with other content."""
    reads = _READS.get()
    if reads is None:
        return
    key = os.path.abspath(path)
    earlier = reads.setdefault(key, digests)
    if earlier.content != digests.content:
        raise InputError(f"changed while read: read twice, as sha256 {earlier.content[:12]} then "
                         f"{digests.content[:12]}; one input cannot give two contents, nothing recorded", path=display)


def _read(path: Path) -> ReadDigests | None:
    reads = _READS.get()
    return None if reads is None else reads.get(os.path.abspath(path))


def stored_sha256(path: Path) -> str:
    """sha256 (hex) of ``path``'s bytes as stored: those :func:`read_input_text`
    parsed when it read the file under :func:`recorded_reads`, else
    :func:`file_sha256` of the file now (an input read for its size only,
    such as an engine plan)."""
    read = _read(path)
    return read.stored if read is not None else file_sha256(path)


def input_sha256(path: Path) -> str:
    """sha256 (hex) of ``path``'s content (see :func:`content_sha256`): that
    :func:`read_input_text` parsed under :func:`recorded_reads`, else the
    file's now."""
    read = _read(path)
    return read.content if read is not None else content_sha256(path)


def file_sha256(path: Path, display: str | None = None) -> str:
    """sha256 (hex) of the bytes of ``path`` as stored (a gzip file's
    compressed bytes), read piece by piece by :func:`hashlib.file_digest`.
    Raises InputError when it cannot be read."""
    try:
        with path.open("rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=display or shown_path(path)) from None


def content_sha256(path: Path, display: str | None = None) -> str:
    """sha256 (hex) of the content of ``path`` as :func:`read_input_text`
    reads it: a gzip file's decompressed bytes, any other file's bytes,
    without a leading UTF-8 byte order mark; so a copy re-compressed,
    decompressed or re-saved with a mark has the digest of its original.
    Read piece by piece, at most :data:`MAX_INPUT_BYTES` of content. Raises
    InputError when it cannot be read, is damaged or grew past the limit."""
    display = display or shown_path(path)
    digest = hashlib.sha256()
    produced = 0
    try:
        with path.open("rb") as raw:
            compressed = raw.read(2) == GZIP_MAGIC
            raw.seek(0)
            handle = gzip.open(raw, "rb") if compressed else raw
            first = True
            while chunk := handle.read(1 << 20):
                if first and chunk.startswith(UTF8_BOM):  # decode_text drops it: the same text, the same input
                    chunk = chunk[len(UTF8_BOM):]
                first = False
                produced += len(chunk)
                if produced > MAX_INPUT_BYTES:
                    raise InputError(f"holds more than {MAX_INPUT_BYTES} bytes (500 MiB), the limit", path=display)
                digest.update(chunk)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise InputError(f"damaged gzip file: {exc}", path=display) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=display) from None
    return digest.hexdigest()


def stamp_digests(results: list, inputs: list[Path]) -> None:
    """Give each timed result of ``results`` (:class:`~studygen.records.result.NewResult`,
    changed in place) read from one of ``inputs`` (its ``source_locator``
    names the file) the :func:`input_sha256` of that file as its
    ``source_sha256``: what tells one input collected into two jobs from two
    runs (:func:`studygen.records.sources.run_keys`). Under
    :func:`recorded_reads`, the digest of the bytes its figures were parsed
    from. A name two inputs share (``a/run.json``,
    ``b/run.json``) stamps nothing: a locator gives the name alone, so which
    file's content its result holds is not known."""
    names = [path.name for path in inputs]
    by_name = {path.name: path for path in inputs if names.count(path.name) == 1}
    digests: dict[str, str] = {}
    for new in results:
        name = source_file(new.result)
        if new.result.get("kind") not in TIMED_KINDS or name not in by_name:
            continue
        if name not in digests:
            digests[name] = input_sha256(by_name[name])
        new.result[DIGEST] = digests[name]


class _Hashed:
    """A binary file read through ``read``, hashing every byte it hands out
    (``digest``): gzip reads the stored bytes through it, so they are hashed
    in the same pass that decompresses them."""

    def __init__(self, handle):
        self.handle, self.digest = handle, hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        data = self.handle.read(size)
        self.digest.update(data)
        return data


def _read_gzip_text(fd: int, size: int, display: str) -> tuple[str, ReadDigests]:
    """The text and digests of the gzip file open as ``fd`` (at offset 0, ``size`` bytes)."""
    too_big = InputError(f"decompresses to more than {MAX_INPUT_BYTES} bytes (500 MiB), the limit", path=display)
    # ISIZE, the gzip trailer: uncompressed size mod 2**32 (RFC 1952). A cut or damaged file ends in
    # arbitrary bytes, so a large ISIZE is only a hint: decompress without keeping the output and refuse
    # as too big only when the data agrees (a damaged file ends in the "damaged gzip" error instead).
    try:
        os.lseek(fd, max(size - 4, 0), os.SEEK_SET)
        claims_too_big = int.from_bytes(os.read(fd, 4), "little") > MAX_INPUT_BYTES
        os.lseek(fd, 0, os.SEEK_SET)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=display) from None
    raw = bytearray()
    produced = 0
    try:
        with open(fd, "rb", closefd=False) as stored:
            hashed = _Hashed(stored)
            with gzip.GzipFile(fileobj=hashed, mode="rb") as handle:
                while chunk := handle.read(1 << 20):
                    produced += len(chunk)
                    if produced > MAX_INPUT_BYTES:
                        raise too_big
                    if not claims_too_big:
                        raw += chunk
            while hashed.read(1 << 20):  # what gzip left unread (nothing, once it reached the end): hashed too
                pass
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"damaged gzip file: {exc}", path=display) from None
    if claims_too_big:
        # complete and intact, yet its trailer disagrees with its size: only a damaged file does that
        raise InputError(f"damaged gzip file: its trailer says more than {MAX_INPUT_BYTES} bytes, "
                         f"it decompresses to {produced}", path=display)
    text = decode_text(bytes(raw), display, " after gzip decompression")
    content = memoryview(raw)[len(UTF8_BOM):] if raw.startswith(UTF8_BOM) else raw
    return text, ReadDigests(hashlib.sha256(content).hexdigest(), hashed.digest.hexdigest())


def _refuse_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def json_error(text: str, pos: int, message: str, display: str) -> InputError:
    """A malformed-JSON InputError naming the line and column of ``pos``;
    says the file is cut short when the error is at its end."""
    line, col = _line_col(text, pos)
    if pos >= len(text.rstrip()) or message.startswith("Unterminated string"):
        message += ": the file ends inside a JSON value (truncated?)"
    return InputError(f"malformed JSON: {message} (column {col})", path=display, line=line)


def out_of_range(literal: str, value: float) -> bool:
    """True when the number ``literal`` does not survive as a double: it
    overflows to infinity (``1e400``), or a non-zero literal underflows to 0
    (``1e-400``, which would become a 0 ms figure)."""
    if not math.isfinite(value):
        return True
    if value == 0.0:
        mantissa = literal.lower().partition("e")[0]
        return any(digit in mantissa for digit in "123456789")
    return False


class _OutOfRange(float):
    """A JSON number that is no double (see :func:`out_of_range`), kept as
    its ``literal`` until :func:`decode_at` refuses it by its pointer."""

    __slots__ = ("literal",)


class _Hooks:
    """The decoder's ``parse_float``: it marks a number out of range and sets
    ``suspect``, so the decoded value is searched for the mark only then."""

    def __init__(self):
        self.suspect = False

    def number(self, literal: str) -> float:
        value = float(literal)
        if out_of_range(literal, value):
            self.suspect = True
            value = _OutOfRange(value)
            value.literal = literal
        return value

    def integer(self, literal: str) -> int | float:
        """An integer literal, marked like a float out of range when no double holds it (309 digits or more:
        a 400-digit ``dur`` stopped collect with an OverflowError); only for a text that holds such a run."""
        value = int(literal)  # past Python's 4300 digits: ValueError, which decode_at words
        try:
            float(value)
        except OverflowError:
            self.suspect = True
            marked = _OutOfRange(-math.inf if value < 0 else math.inf)
            digits = len(literal.lstrip("-"))
            marked.literal = f"{literal[:12]}…{literal[-10:]} ({digits} digits)"
            return marked
        return value


# a run of digits as long as the shortest integer no double holds (1e308 has 309 digits)
_LONG_DIGIT_RUN = re.compile(r"\d{309}")


class _Decoder(json.JSONDecoder):
    """A JSON decoder with :class:`_Hooks` (see :func:`decoder`)."""

    def __init__(self):
        self.hooks = _Hooks()
        super().__init__(parse_constant=_refuse_constant, parse_float=self.hooks.number,
                         object_pairs_hook=refuse_duplicate_keys)


class DuplicateKey(ValueError):
    """A key written twice in one JSON object (:func:`decoder`'s hook)."""

    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    """``dict(pairs)``, or DuplicateKey when a key comes twice: json keeps the
    last silently, and a repeated ``"dur"`` or ``"computeMs"`` is a wrong figure."""
    document = dict(pairs)  # C speed; a shorter dict than the pair list means a key came twice
    if len(document) == len(pairs):
        return document
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise DuplicateKey(key)
        seen.add(key)
    return document


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]]')


def second_key_position(text: str, pos: int, key: str) -> int | None:
    """Where ``key`` comes a second time in one object of the JSON value at
    ``pos`` (a valid value but for that), or None. Walks strings and
    brackets only: used on the error path, to name the line."""
    objects: list[set | None] = []  # per open bracket: the keys seen (None for a list)
    for token in _TOKEN.finditer(text, pos):
        part = token.group()
        if part in "{[":
            objects.append(set() if part == "{" else None)
        elif part in "}]":
            objects.pop()
            if not objects:
                return None
        elif objects and objects[-1] is not None and text.startswith(":", skip_space(text, token.end())):
            name = json.loads(part)
            if name == key and name in objects[-1]:
                return token.start()
            objects[-1].add(name)
    return None


def decoder() -> json.JSONDecoder:
    """The one JSON decoder every collector input is read with (trtexec
    exports, Kineto traces, COCO files). It refuses what would silently give
    a wrong figure: NaN and Infinity (not JSON), a key written twice in one
    object (:func:`refuse_duplicate_keys`: a repeated ``"dur"`` replaces a
    kernel's duration, a repeated ``"computeMs"`` an iteration's time) and
    numbers beyond a double's range (``1e400``, ``1e-400``), which
    :func:`decode_at` and :func:`parse_json_values` refuse naming their JSON
    pointer."""
    return _Decoder()


def refused_pointer(value, pointer: str = "") -> tuple[str, str] | None:
    """``(JSON pointer, reason)`` of the first number out of range in ``value`` as :func:`decoder` decoded it, or None."""
    stack = [(value, pointer)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, _OutOfRange):
            reads_as = "0" if item == 0 else "infinity"
            return where, f"number {item.literal} is out of range: not a finite double (it would read as {reads_as})"
        if isinstance(item, dict):
            stack.extend((v, f"{where}/{_escape(str(k))}") for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, f"{where}/{i}") for i, v in reversed(list(enumerate(item))))
    return None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _refuse_marked(value, pointer: str, display: str, fallback_line: int) -> None:
    """InputError naming the JSON pointer of the first number out of range in
    ``value`` (``fallback_line`` when that pointer is the empty one: the whole value)."""
    found = refused_pointer(value, pointer)
    if found is not None:
        refused_at, reason = found
        if refused_at:
            raise InputError(reason, path=display, pointer=refused_at)
        raise InputError(reason, path=display, line=fallback_line)


def decode_at(json_decoder: json.JSONDecoder, text: str, pos: int, display: str, pointer: str | None = ""):
    """``raw_decode`` at ``pos`` with errors as InputError (line, column;
    a repeated key names the line of the repeat; nesting too deep to parse
    names ``pointer`` or the line). With a :func:`decoder`, a number out of
    range is refused naming its JSON pointer, ``pointer`` being that of the
    value decoded here (None: the caller checks with :func:`refused_pointer`)."""
    hooks = getattr(json_decoder, "hooks", None)
    if hooks is not None:
        hooks.suspect = False
    try:
        value, end = json_decoder.raw_decode(text, pos)
        if hooks is not None and _LONG_DIGIT_RUN.search(text, pos, end) is not None:
            # read again with its integers through the hooks (a Python call per integer: only for a value
            # holding a run of digits that long), so that one no double holds is refused at its pointer
            value, end = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=hooks.number,
                                          parse_int=hooks.integer, object_pairs_hook=refuse_duplicate_keys
                                          ).raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        raise json_error(text, exc.pos, exc.msg, display) from None
    except DuplicateKey as exc:
        at = second_key_position(text, pos, exc.key)
        raise InputError(f"malformed JSON: duplicate key {exc.key!r} in one object (the last would silently win)",
                         path=display, line=_line_col(text, at if at is not None else pos)[0]) from None
    except RecursionError:  # Python's parser recurses per level: ~1000 levels deep it stops
        raise InputError("malformed JSON: nested too deeply to read (arrays or objects about 1000 levels deep; "
                         "no trtexec, profiler or COCO file nests more than 10)", path=display,
                         pointer=pointer or None, line=0 if pointer else _line_col(text, pos)[0]) from None
    except ValueError as exc:  # NaN or Infinity, an integer longer than Python's digit limit
        raise InputError(f"malformed JSON: {json_value_error_reason(exc)}", path=display,
                         line=_line_col(text, pos)[0]) from None
    if pointer is not None and hooks is not None and hooks.suspect:
        _refuse_marked(value, pointer, display, _line_col(text, pos)[0])
    if pointer is not None:
        refuse_surrogate_in(value, text, pos, end, display, pointer)
    return value, end


_JSON_SPACE = re.compile(r"[ \t\r\n]*")


def skip_space(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not JSON whitespace
    (a regular expression: 300 MB of padding is skipped in well under a second,
    not minutes as one character at a time)."""
    return _JSON_SPACE.match(text, pos).end()


def parse_json_values(text: str, display: str) -> list[tuple[object, int]]:
    """Every JSON value in ``text``, in order, with the line it starts on.

    trtexec writes one array per run and people concatenate the files of
    several runs (``cat times_*.json``), so a file may hold several values
    back to back. Raises InputError naming the line for malformed or
    truncated JSON or NaN/Infinity (not JSON), and the JSON pointer of a
    number out of range or a repeated key (:func:`decoder`).
    """
    json_decoder = decoder()
    values = []
    suspect = False
    pos = 0
    while True:
        pos = skip_space(text, pos)
        if pos >= len(text):
            break
        start_line = _line_col(text, pos)[0]
        value, pos = decode_at(json_decoder, text, pos, display, pointer=None)
        values.append((value, start_line))
        suspect = suspect or json_decoder.hooks.suspect
    if not values:
        raise InputError("file is empty", path=display)
    refuse_lone_surrogates(text, values, display)
    for index, (value, line) in enumerate(values if suspect else []):
        # pointers as the collectors name them: /<index> only in a file of several values
        _refuse_marked(value, f"/{index}" if len(values) > 1 else "", display, line)
    return values


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def refuse_lone_surrogates(text: str, values: list[tuple[object, int]], display: str) -> None:
    """InputError naming the JSON pointer of a string (or key) that holds a
    lone surrogate: JSON can spell one (``"\\ud800"``), Unicode has no such
    character, and the record it would reach could not be written as UTF-8.
    Only a text with such an escape is walked (:func:`studygen.textio.document_problem`)."""
    if "\\u" not in text or not _SURROGATE_ESCAPE.search(text):
        return
    for index, (value, _) in enumerate(values):
        problem = document_problem(value, limit=sys.maxsize)
        if problem is not None:
            pointer, reason = problem
            # pointers as the collectors name them: /<index> only in a file of several values
            refused_at = (f"/{index}" if len(values) > 1 else "") + (pointer if pointer != "/" else "")
            raise InputError(reason, path=display, pointer=refused_at or "/")


def refuse_surrogate_in(value, text: str, start: int, end: int, display: str, pointer: str) -> None:
    """InputError naming the JSON pointer (under ``pointer``, that of
    ``value``) of a string or key of ``value`` that holds a lone surrogate,
    ``value`` being decoded from ``text[start:end]``; only a span that
    spells one (``\\ud800``) is walked. A kernel name ``"sm90\\udc80"`` in
    a profiler trace reached RE2 and the record writer as a UnicodeEncodeError."""
    if text.find("\\u", start, end) < 0 or _SURROGATE_ESCAPE.search(text, start, end) is None:
        return
    problem = document_problem(value, limit=sys.maxsize)
    if problem is not None:
        where, reason = problem
        raise InputError(reason, path=display, pointer=pointer + (where if where != "/" else "") or "/")


def load_json_values(path: Path, display: str | None = None) -> list[tuple[object, int]]:
    """:func:`parse_json_values` of the file's text (plain or gzip)."""
    display = display or shown_path(path)
    return parse_json_values(read_input_text(path, display), display)


def figure(text: str) -> float | int:
    """A figure as its source printed it: ``"0"`` → ``0`` (int), ``"0.0361328"``
    → ``0.0361328`` (float); raises ValueError for anything else and for a
    number no double holds (:func:`out_of_range`: ``nan``, ``inf``,
    ``1e400``, and ``1e-400``, which would read as 0; a whole number of
    more than 309 digits)."""
    if text.isdigit():
        whole = int(text)  # ValueError past Python's 4,300 digits
        if whole > sys.float_info.max:  # a record stores figures as doubles (JSON readers too)
            raise ValueError(f"not a finite number: {len(text)} digits")
        return whole
    value = float(text)
    if out_of_range(text, value):
        raise ValueError(f"not a finite number: {text}")
    return value


def significant(value: float, digits: int = 12) -> float:
    """``value`` rounded to ``digits`` significant digits: removes binary
    noise from computed figures (a median of two values, a mean) without
    touching the digits their inputs carry."""
    if value == 0 or not math.isfinite(value):
        return value
    places = digits - int(math.floor(math.log10(abs(value)))) - 1
    return round(value, places)


def is_number(value) -> bool:
    """True for an int or float that is not a bool."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
