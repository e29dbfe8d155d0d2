"""Reading input text safely: size and file-type guards, UTF-8 decoding, and a
JSON parser that refuses what would silently become a wrong figure.

Used by every layer that reads a file a user names (collectors, records, lint),
so it sits in the core below them. Every failure is one
:class:`~studygen.errors.InputError` or :class:`~studygen.errors.RecordError`
naming the file and the line.
"""

from __future__ import annotations

import errno
import json
import math
import os
import re
import stat
import sys
from pathlib import Path

from .errors import InputError, RecordError
from .numbers import SourceFloat

MAX_INPUT_BYTES = 500 * 1024 * 1024  # larger inputs are refused (ingest issue: 500 MB within 4 GB)
# A record, dataset definition or study file holds summaries, not raw timings: a few hundred KiB
# at most. Larger ones are refused before render turns them into a README nobody can read.
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
# Records nest about 6 levels (/results/0/groups/0/kernels/0), study files about 5; deeper is a
# mistake or an attack (10,000 levels broke the parsers' recursion), refused with its place.
MAX_NESTING = 100
# What render writes (a README of at most MAX_DOCUMENT_BYTES characters, each at most 4 bytes in
# UTF-8, or a figure) is read back by check and render no larger than this: a bigger file cannot be
# current, and reading a 2 GB one took check past a minute.
MAX_RENDERED_BYTES = 4 * MAX_DOCUMENT_BYTES
SYMLINK_LOOP = "is a symbolic link loop (a link that leads back to itself), not a file"
_SURROGATE = re.compile("[\ud800-\udfff]")


def regular_file(path: Path, display: str | None = None, folder: str = "is a folder, not a file") -> os.stat_result:
    """``path``'s status, once it is known to be a regular file (symbolic
    links followed). Raises InputError, before anything opens the file, when
    it is missing, unreadable, a folder (``folder`` words it) or a special
    file: opening a FIFO waits for a writer forever, a device may never end
    (``/dev/zero``), a socket cannot be opened."""
    display = display or str(path)
    try:
        status = path.stat()
    except FileNotFoundError:
        if path.is_symlink():  # a dangling link: "no such file" sent a person looking at a file that is there
            raise InputError(f"is a symbolic link to {os.readlink(path)}, which does not exist", path=display) from None
        raise InputError("no such file", path=display) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise InputError(SYMLINK_LOOP, path=display) from None
        raise InputError(f"cannot read: {exc.strerror or type(exc).__name__}", path=display) from None
    if stat.S_ISDIR(status.st_mode):  # what path.is_dir() tests, without a second stat
        raise InputError(folder, path=display)
    if not stat.S_ISREG(status.st_mode):
        raise InputError(f"is {_special_kind(status.st_mode)}, not a regular file", path=display)
    return status


def _special_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")):
        if test(mode):
            return name
    return "a special file"


def read_text(path: Path, display: str | None = None, limit: int = MAX_INPUT_BYTES, allow_empty: bool = False) -> str:
    """The file's text as UTF-8. Raises InputError (one line) when the file is
    missing, a folder or another non-regular file (:func:`regular_file`),
    empty (unless ``allow_empty``: a template may be), larger than ``limit``
    bytes (default 500 MiB), binary or not UTF-8."""
    display = display or str(path)
    return decode_text(read_bytes(path, display, limit), display, allow_empty=allow_empty)


def read_bytes(path: Path, display: str | None = None, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The file's bytes, once it is known to be a regular file
    (:func:`regular_file`: not a FIFO, device, folder or symbolic link loop)
    of at most ``limit`` bytes (default 500 MiB). Raises InputError (one
    line naming ``display``) otherwise. Opened without blocking and checked
    again on the open descriptor, so a file swapped for a FIFO between the
    two looks still cannot hang the reader."""
    display = display or str(path)
    fd, size = open_regular(path, display, limit)
    try:
        return read_open(fd, size, display, limit)
    finally:
        os.close(fd)


def open_regular(path: Path, display: str, limit: int = MAX_INPUT_BYTES) -> tuple[int, int]:
    """``(descriptor, size in bytes)`` of ``path`` opened for reading, once
    it is known to be a regular file of at most ``limit`` bytes, both before
    the open and on the open descriptor (see :func:`read_bytes`). The caller
    closes the descriptor. Raises InputError as :func:`read_bytes` does."""
    status = regular_file(path, display)
    _refuse_oversize(status.st_size, limit, display)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or type(exc).__name__}", path=display) from None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise InputError(f"is {_special_kind(opened.st_mode)}, not a regular file", path=display)
        _refuse_oversize(opened.st_size, limit, display)
    except BaseException:
        os.close(fd)
        raise
    return fd, opened.st_size


def read_open(fd: int, size: int, display: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of the open regular file ``fd`` from its current offset,
    ``size`` being its size when opened: at most ``limit`` bytes, InputError
    for a file that grew past it while read or that cannot be read."""
    try:  # the descriptor read directly: a buffered file object around it cost a third of reading a record
        # sized by the file, not the limit: reading the limit (16 MiB for a record) made a buffer that
        # large for every file; one byte more tells a file that grew since fstat, read on to the limit
        want = min(size, limit) + 1
        raw = _read_up_to(fd, want, want)
        if len(raw) == want:
            raw += _read_up_to(fd, limit + 1 - len(raw), 2**20)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or type(exc).__name__}", path=display) from None
    _refuse_oversize(len(raw), limit, display)  # a file that grew while read
    return raw


def _read_up_to(fd: int, count: int, piece_size: int) -> bytes:
    """At most ``count`` bytes from ``fd``, fewer only at the end of the file,
    read in pieces of at most ``piece_size`` bytes (the file's size: one
    read; 1 MiB past it, so that a limit never makes a buffer that large)."""
    pieces, left = [], count
    while left > 0:
        piece = os.read(fd, min(left, piece_size))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _refuse_oversize(size: int, limit: int, display: str) -> None:
    if size > limit:
        shown = f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit // 2**10} KiB"
        raise InputError(f"file is {size} bytes; the limit is {limit} bytes ({shown})", path=display)


UTF8_BOM = b"\xef\xbb\xbf"  # U+FEFF as UTF-8: Windows editors write it first; no text starts with it


_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"), (b"\xff\xfe", "UTF-16LE"),
              (b"\xfe\xff", "UTF-16BE"))


def wide_unicode(raw: bytes) -> str | None:
    """The name of the UTF-16 or UTF-32 encoding ``raw`` is written in
    (``"UTF-16LE (byte order mark FF FE)"``), when it starts with that
    encoding's byte order mark or, without one, when its first 8 KiB hold
    NUL bytes at every other byte and only there (a Windows editor's
    "Unicode"); None for anything else, binary data included."""
    for mark, name in _WIDE_BOMS:
        if raw.startswith(mark):
            return f"{name} (byte order mark {mark.hex(' ').upper()})"
    sample = raw[:8192]
    sample = sample[: len(sample) - len(sample) % 2]
    for name, zeros, others in (("UTF-16LE", sample[1::2], sample[0::2]), ("UTF-16BE", sample[0::2], sample[1::2])):
        if zeros and not zeros.strip(b"\x00") and b"\x00" not in others and _reads_as_text(sample, name):
            return name
    return None


def _reads_as_text(sample: bytes, codec: str) -> bool:
    """True when ``sample`` decodes with ``codec`` to printable text (tabs and line ends allowed):
    b"\\x00\\x01\\x02" has its NUL bytes at every other byte too, and is binary."""
    try:
        text = sample.decode(codec)
    except UnicodeDecodeError:
        return False
    return all(char.isprintable() or char in "\t\r\n" for char in text)


def decode_text(raw: bytes, display: str, where: str = "", allow_empty: bool = False) -> str:
    """``raw`` as UTF-8 text, without the byte order mark some editors put
    first (every text input of studygen reads through here, so each accepts
    one alike); InputError when it is empty (unless ``allow_empty``), UTF-16 or UTF-32
    (:func:`wide_unicode`, named), binary (NUL bytes in the first 8 KiB) or not UTF-8 (placed at the line of the first bad byte). ``where``
    qualifies the messages (for example " after gzip decompression")."""
    body = raw[len(UTF8_BOM):] if raw.startswith(UTF8_BOM) else raw
    if not allow_empty and not body.strip():
        raise InputError(f"file is empty{where}", path=display)
    if b"\x00" in body[:8192]:
        wide = wide_unicode(body)
        if wide is not None:
            raise InputError(f"{wide} text{where}, not UTF-8: studygen reads UTF-8 only (save the file as UTF-8)",
                             path=display, line=1)
        what = "binary content" if where else "binary file"
        raise InputError(f"{what} (NUL bytes){where}, not text", path=display)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        # placed as an editor shows it: line, and the byte's column in that line and in the file (1-based, in bytes)
        line = body.count(b"\n", 0, exc.start) + 1
        column = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"not UTF-8 text: byte {column} of the line (byte {exc.start + len(raw) - len(body) + 1} of "
                         f"the file{where})", path=display, line=line) from None


class _JSONRefusal(ValueError):
    """A JSON value that parses but must not be read as a figure; ``literal`` locates it."""

    def __init__(self, message: str, literal: str, number: bool = False):
        super().__init__(message)
        self.literal = literal
        self.number = number  # a number literal: its JSON pointer can be found (:func:`_pointer_of_number`)


def _pointer_of_number(text: str, literal: str) -> str | None:
    """JSON pointer of the first number written ``literal`` in ``text``, which
    failed to parse only because of that number; None if not found. Parses
    again with the number replaced by a marker: only on the error path."""
    marker = object()

    def mark(source: str):
        return marker if source == literal else 0

    try:
        document = json.JSONDecoder(parse_float=mark, parse_int=mark, parse_constant=mark).decode(text)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[object, str]] = [(document, "")]
    while stack:
        item, pointer = stack.pop()
        if item is marker:
            return pointer or "/"
        if isinstance(item, dict):
            stack.extend((child, f"{pointer}/{_pointer_part(key)}") for key, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((child, f"{pointer}/{index}") for index, child in reversed(list(enumerate(item))))
    return None


def _line_of_literal(text: str, literal: str, occurrence: int = 1) -> int | None:
    """Line of the ``occurrence``-th appearance of ``literal`` in ``text`` (1-based)."""
    position = -1
    for _ in range(occurrence):
        position = text.find(literal, position + 1)
        if position < 0:
            return None
    return text.count("\n", 0, position) + 1


def _shown(literal: str) -> str:
    """``literal`` as a message quotes it: its ends only, when longer than 24 characters."""
    return literal if len(literal) <= 24 else f"{literal[:12]}…{literal[-10:]}"


_SMALLEST_NORMAL, _LARGEST = sys.float_info.min, sys.float_info.max
_new_float = float.__new__


def _finite_float(literal: str) -> SourceFloat:
    # SourceFloat(literal) made as its __new__ makes it, without calling that __new__ (a sixth of this hook's time)
    value = _new_float(SourceFloat, literal)
    value.source = literal
    if _SMALLEST_NORMAL <= value <= _LARGEST or -_LARGEST <= value <= -_SMALLEST_NORMAL:
        return value  # a finite, normal, non-zero double: nearly every figure
    if not math.isfinite(value):
        raise _JSONRefusal(f"number {_shown(literal)} is out of range (not a finite double)", literal, number=True)
    if value == 0:
        if any(digit in "123456789" for digit in literal.lower().partition("e")[0]):
            raise _JSONRefusal(f"number {_shown(literal)} is out of range (too small for a double: it would read as 0)",
                               literal, number=True)
    elif abs(value) < sys.float_info.min:  # a subnormal keeps a few bits at most: 5e-324 reads as 4.94e-324
        raise _JSONRefusal(f"number {_shown(literal)} is out of range (below the smallest normal double, "
                           f"{sys.float_info.min:.4g}; no measurement is that small)", literal, number=True)
    return value


# A double holds integers up to about 1.8e308 (309 digits); a longer literal cannot become a figure
# (float() overflows in every template and check), so it is refused where it is read.
_MAX_INT_DIGITS = 309


def _bounded_int(literal: str) -> int:
    if len(literal) < _MAX_INT_DIGITS:  # fewer digits than that, sign included: nearly every integer
        return int(literal)
    digits = len(literal) - literal.startswith("-")
    if digits >= _MAX_INT_DIGITS:
        try:
            if digits > _MAX_INT_DIGITS:
                raise OverflowError
            float(int(literal))
        except OverflowError:
            raise _JSONRefusal(f"integer {_shown(literal)} ({digits} digits) is out of range (beyond a double's range, "
                               f"about 1.8e308)", literal, number=True) from None
    return int(literal)


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


# Made once: json.loads with hooks would build a new decoder per call. Every float
# passes the finiteness test as it is made (a pre-scan of the text for long
# exponents cost five times the parse itself).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_bounded_int,
                            object_pairs_hook=_no_duplicate_keys)
# _DECODER with Python's own integers (made by the parser in C): for a text holding no run of _MAX_INT_DIGITS
# digits, where _bounded_int refuses nothing and returns int(literal) (its calls: a fifth of parse_json's time).
_PLAIN_INT_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float,
                                      object_pairs_hook=_no_duplicate_keys)
_DIGIT_STRIDE = 16
_DIGITS_AS_ZERO = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))  # each digit "0", any other byte " "
_LONG_DIGIT_RUN = b"0" * _MAX_INT_DIGITS


def _may_hold_long_integer(data: bytes) -> bool:
    """Whether the UTF-8 text ``data`` holds :data:`_MAX_INT_DIGITS` digits
    in a row (inside a string or not), so that it may hold an integer
    :func:`_bounded_int` refuses. Every :data:`_DIGIT_STRIDE`-th byte is
    looked at first: such a run covers at least ``_MAX_INT_DIGITS //
    _DIGIT_STRIDE`` of them in a row, and a text without that many is done
    with after a sixteenth of the work."""
    run_sampled = b"0" * (_MAX_INT_DIGITS // _DIGIT_STRIDE)
    if run_sampled not in data[::_DIGIT_STRIDE].translate(_DIGITS_AS_ZERO):
        return False
    return _LONG_DIGIT_RUN in data.translate(_DIGITS_AS_ZERO)


def document_problem(value, limit: int = MAX_NESTING) -> tuple[str, str] | None:
    """``(JSON pointer, reason)`` of the first place in a parsed document
    (dicts, lists, strings, numbers) that no file of studygen may hold, or
    None: lists or mappings nested deeper than ``limit`` (the pointer names
    the container past the limit), or a string or key holding a lone
    surrogate (``"\\ud800"`` in JSON or YAML: no Unicode character, it
    cannot be written as UTF-8). Walks without recursion."""
    # Pointers are built only for the place refused: a walk that formatted one per value was a
    # third of the time a check of 500 records spent loading them.
    if isinstance(value, str):
        return ("/", _surrogate_reason(value)) if _has_surrogate(value) else None
    parents: list[tuple[object, int]] = []  # (key, index of the parent entry) per container visited
    stack = [(value, -1, 0)]
    while stack:
        item, entry, depth = stack.pop()
        if not isinstance(item, (dict, list)):
            continue
        if depth >= limit:
            return _pointer_of(parents, entry), (f"nested more than {limit} levels deep (lists or mappings); "
                                                 f"the limit is {limit}")
        children = item.items() if isinstance(item, dict) else enumerate(item)
        for key, child in children:
            if isinstance(key, str) and _has_surrogate(key):
                parents.append((key, entry))
                return _pointer_of(parents, len(parents) - 1), _surrogate_reason(key)
            if isinstance(child, str):
                if _has_surrogate(child):
                    parents.append((key, entry))
                    return _pointer_of(parents, len(parents) - 1), _surrogate_reason(child)
            elif isinstance(child, (dict, list)):
                parents.append((key, entry))
                stack.append((child, len(parents) - 1, depth + 1))
    return None


def _has_surrogate(text: str) -> bool:
    return not text.isascii() and _SURROGATE.search(text) is not None


def _pointer_of(parents: list[tuple[object, int]], entry: int) -> str:
    """The JSON pointer of ``parents[entry]`` (``"/"`` for the document itself)."""
    parts = []
    while entry >= 0:
        key, entry = parents[entry]
        parts.append(_pointer_part(key))
    return "/" + "/".join(reversed(parts)) if parts else "/"


def _surrogate_reason(text: str) -> str:
    code = ord(_SURROGATE.search(text).group())
    return f"a lone surrogate (\\u{code:04x}) in a string: not a Unicode character, so not writable as UTF-8"


def _pointer_part(key) -> str:
    # a key holding a lone surrogate is shown escaped, or the message itself could not be printed
    return str(key).encode("utf-8", "backslashreplace").decode("utf-8").replace("~", "~0").replace("/", "~1")


def _line_past_nesting(text: str, limit: int) -> int:
    """Line (1-based) of the first ``[`` or ``{`` of JSON ``text`` that opens
    level ``limit + 1``, strings skipped; 0 when none does. Only on the error
    path: Python's parser ran out of recursion and names no place."""
    depth, line = 0, 1
    for token in re.finditer(r'"(?:[^"\\\n]|\\.)*"?|[\[{]|[\]}]|\n', text):
        kind = token.group(0)[0]
        if kind == "\n":
            line += 1
        elif kind in "[{":
            depth += 1
            if depth > limit:
                return line
        elif kind in "]}":
            depth -= 1
    return 0


def json_value_error_reason(exc: ValueError) -> str:
    """How a message words ``exc``, a ValueError that decoding JSON raised:
    an integer literal past Python's digit limit (4300 digits by default)
    as such, not in Python's own words (which tell the reader to call
    ``sys.set_int_max_str_digits()``); any other as its text."""
    reason = str(exc)
    if "int_max_str_digits" in reason or "Exceeds the limit" in reason:
        return "an integer with more than 4300 digits (no measurement has that many)"
    return reason


def parse_json(text: str, display: str):
    """``json.loads`` with errors as ``file:N: malformed JSON: …``.

    Refused as well, since each would become a wrong figure silently: NaN and
    Infinity (not JSON), numbers beyond a double's range (``1e400`` would read
    as infinity, a 400-digit integer breaks every ``float()``), numbers below
    it (``1e-400`` would read as 0, a subnormal such as ``5e-324`` keeps no
    precision), number refusals named by their JSON pointer and line,
    duplicate keys (the last would win), nesting deeper than
    :data:`MAX_NESTING` and lone surrogates (:func:`document_problem`, with
    their pointer). A leading byte order mark is read past, as
    :func:`decode_text` does. Floats keep their source digits (:class:`SourceFloat`).

    A text that can hold none of these but a duplicate key or a float out of
    range (no run of :data:`_MAX_INT_DIGITS` digits, nesting within the
    limit, no surrogate) is read with Python's own integers; one refused
    there is read again as any other text, which words the refusal. Both
    readings run in this function's frame: a text nested nearly as deep as
    Python's recursion limit reads (or is refused) at the same depth of
    calls as before the first reading was added.
    """
    body = text[1:] if text.startswith("\ufeff") else text  # a byte order mark, as decode_text
    data = body.encode("utf-8", "surrogatepass")
    if not _may_hold_long_integer(data) and not may_hold_document_problem(body, data=data):
        # nesting and surrogates counted on a text not parsed yet: the answer is right once it parses below
        try:
            return _PLAIN_INT_DECODER.decode(body)
        except (ValueError, RecursionError):
            pass
    try:
        document = _DECODER.decode(body)
    except json.JSONDecodeError as exc:
        raise RecordError(f"malformed JSON: {exc.msg} (column {exc.colno})", path=display, line=exc.lineno) from None
    except _JSONRefusal as exc:
        occurrence = 2 if str(exc).startswith("duplicate key") else 1
        line = _line_of_literal(text, exc.literal, occurrence)
        pointer = _pointer_of_number(text, exc.literal) if exc.number else None
        raise RecordError(f"malformed JSON: {exc}", path=display, line=line or 0, pointer=pointer) from None
    except RecursionError:
        raise RecordError(f"malformed JSON: nested too deeply to read (the limit is {MAX_NESTING} levels)",
                          line=_line_past_nesting(text, MAX_NESTING),
                          path=display) from None
    except ValueError as exc:  # e.g. an integer literal longer than Python's digit limit
        raise RecordError(f"malformed JSON: {json_value_error_reason(exc)}", path=display) from None
    problem = document_problem(document) if may_hold_document_problem(text) else None
    if problem is not None:
        pointer, reason = problem
        raise RecordError(reason, path=display, pointer=pointer)
    return document


# JSON spells a lone surrogate only as an escape (``\\ud800``); a pair (``\\ud83d\\ude00``) matches too.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Every byte but the quote and the four brackets, deleted by bytes.translate (C speed) to leave a text's structure.
_NOT_STRUCTURE = bytes(range(256)).translate(None, b'"[]{}')


def may_hold_document_problem(text: str, limit: int = MAX_NESTING, data: bytes | None = None) -> bool:
    """False when the JSON ``text`` (text that parsed) cannot parse to a
    document that :func:`document_problem` refuses, so that the walk over
    every value (a tenth of loading a record) is skipped: its lists and
    mappings nest at most ``limit`` levels (:func:`nesting_within`) and it
    holds no surrogate, neither escaped nor raw. True otherwise (the walk
    decides). ``data``: ``text`` encoded as :func:`nesting_within` encodes it, when at hand."""
    if not nesting_within(text, limit, data):
        return True
    escaped = _holds_surrogate_escape(text)
    if text.isascii():
        return escaped
    return escaped or _SURROGATE.search(text) is not None


def _holds_surrogate_escape(text: str) -> bool:
    """Whether :data:`_SURROGATE_ESCAPE` matches in ``text``, tried at each
    backslash (``str.find``, at C speed: over the 31 shipped records a search
    by the expression itself takes 0.76 ms, this 0.04), by a search past
    :data:`_FEW_BACKSLASHES` of them."""
    index, seen = text.find("\\"), 0
    while index != -1:
        if _SURROGATE_ESCAPE.match(text, index):
            return True
        seen += 1
        if seen > _FEW_BACKSLASHES:
            return _SURROGATE_ESCAPE.search(text, index) is not None
        index = text.find("\\", index + 1)
    return False


def nesting_within(text: str, limit: int, data: bytes | None = None) -> bool:
    """Whether the lists and mappings of the JSON ``text`` (text that
    parsed) nest at most ``limit`` levels, brackets inside strings not
    counted; found at C speed, where walking the parsed document visits
    every value (records with hundreds of kernel entries have thousands).

    The text is reduced to its quotes and brackets: escaped quotes dropped
    (:func:`_escaped_quotes_dropped`), so that the quotes left delimit the
    strings; every other piece between quotes is inside a string and
    dropped (two quotes side by side first, most strings holding no
    bracket: dropping them leaves what is outside the strings as it was).
    Each pass then deletes the innermost pairs (``[]``, ``{}``), one level;
    the brackets are gone after as many passes as the deepest nesting.
    ``data``: ``text`` as UTF-8 with ``surrogatepass``, when already encoded.
    A text of at most ``limit`` opening brackets in all (a record of a few
    KiB) nests no deeper, and a structure of at most ``2 * limit`` brackets
    neither: both answered without the passes."""
    data = text.encode("utf-8", "surrogatepass") if data is None else data
    if data.count(b"[") + data.count(b"{") <= limit:
        return True
    structure = _escaped_quotes_dropped(data).translate(None, _NOT_STRUCTURE).replace(b'""', b"")
    if b'"' in structure:
        structure = b"".join(structure.split(b'"')[::2])
    if len(structure) <= 2 * limit:
        return True
    for _ in range(limit):
        if not structure:
            return True
        structure = _innermost_pairs_dropped(structure)
    return not structure


def _innermost_pairs_dropped(structure: bytes) -> bytes:
    """``structure`` (brackets only) without each ``[]`` and ``{}`` it holds,
    one level: a pair that dropping another leaves (``{[]}``) stays for the
    next pass, as in one substitution of both by a regular expression, here
    by ``bytes.replace`` (the substitution, a match at a time, took four
    times as long over the H200 records). Each ``[]`` is marked first, so that no
    ``{}`` forms where one went; dropping a ``{}`` forms no ``[]`` that is
    looked for again."""
    return structure.replace(b"[]", b"\0").replace(b"{}", b"").replace(b"\0", b"")


# Backslashes read one by one by _escaped_quotes_dropped; a text holding more has its escapes removed by replace.
_FEW_BACKSLASHES = 64


def _escaped_quotes_dropped(data: bytes) -> bytes:
    """JSON text ``data`` (UTF-8) without the quotes a backslash escapes:
    a quote after a run of an odd number of backslashes (JSON pairs them
    left to right). The backslashes are left, for the reduction to brackets
    drops them anyway. A record holds a few backslashes, if any, so they
    are found with ``bytes.find``: ``replace`` over the whole text, as for
    a text holding more than :data:`_FEW_BACKSLASHES`, cost half the bound."""
    quotes, seen = [], 0
    index = data.find(b"\\")
    while index != -1:
        end = index
        while data[end:end + 1] == b"\\":
            end += 1
            seen += 1
            if seen > _FEW_BACKSLASHES:
                return data.replace(b"\\\\", b"").replace(b'\\"', b"")
        if (end - index) % 2 and data[end:end + 1] == b'"':
            quotes.append(end)
        index = data.find(b"\\", end)
    if not quotes:
        return data
    pieces, start = [], 0
    for quote in quotes:
        pieces.append(data[start:quote])
        start = quote + 1
    pieces.append(data[start:])
    return b"".join(pieces)
