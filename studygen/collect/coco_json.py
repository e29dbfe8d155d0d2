"""Reading a large COCO JSON file one element at a time.

A 450 MB annotations file parsed whole becomes several GB of Python objects
(ingest issue 13: 7.1 GB); read element by element, each image, annotation
or detection is parsed by the C scanner of :mod:`json`, handed to the caller
(which keeps only the fields COCOeval uses) and dropped. The text itself stays
in memory (1 byte per character for ASCII JSON).

What :func:`studygen.textio.parse_json` refuses is refused here too, each as
one :class:`~studygen.errors.InputError` naming the file and a JSON pointer
or line: duplicate keys (issue 13, trtexec item 6: the last would silently
win), NaN and Infinity (not JSON), malformed or truncated JSON, more than one
value in the file. Numbers beyond a double's range are left to the callers,
which test the fields they read (``1e400`` reads as infinity).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import InputError
from ..fsutil import shown_path
from .inputs import DuplicateKey, json_error, read_input_text, refuse_duplicate_keys, second_key_position

_SPACE = re.compile(r"[ \t\n\r]*")
_SPACE_CHARS = frozenset(" \t\n\r")


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not valid JSON")


def out_of_range(value) -> bool:
    """True for a JSON number that is not a finite double: ``1e400`` (parsed
    as infinity) or an integer beyond a double's range."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) > 1.7976931348623157e308
    return False


def number_refusal(display: str, pointer: str) -> InputError:
    """The refusal of the number at ``pointer`` that is no finite double."""
    return InputError("number out of range: it is not a finite double (1e400 would read as infinity)",
                      path=display, pointer=pointer)


def check_numbers(values: list, display: str, pointer: str) -> None:
    """Refuse the first value of ``values`` out of a double's range, naming ``pointer/index``."""
    for index, value in enumerate(values):
        if out_of_range(value):
            raise number_refusal(display, f"{pointer}/{index}")


# Box coordinates beyond this many pixels are refused: the largest images evaluated with COCO tools (gigapixel
# slides, satellite scenes) are ~1e5 px a side, and 1e6 keeps every product of a coordinate with an image size
# or another coordinate far inside a double's range (1e308 read as a box overflows to inf and warns).
MAX_COORDINATE_PX = 1e6


def coordinate_refusal(value: float, display: str, pointer: str) -> InputError:
    """The refusal of a bbox coordinate beyond :data:`MAX_COORDINATE_PX`."""
    return InputError(f"bbox coordinate {value:g} is beyond ±{MAX_COORDINATE_PX:g} px: no image is that large "
                      "(another unit, or a corrupt number?)", path=display, pointer=pointer)


def check_box(bbox: list, display: str, pointer: str) -> None:
    """Refuse the first of 4 bbox numbers that is no finite double or lies
    beyond :data:`MAX_COORDINATE_PX`, naming ``pointer/index``."""
    check_numbers(bbox, display, pointer)
    for index, value in enumerate(bbox):
        if abs(value) > MAX_COORDINATE_PX:
            raise coordinate_refusal(value, display, f"{pointer}/{index}")


def duplicate_key(doc: "JsonText", key: str, pos: int) -> InputError:
    """The refusal of ``key`` repeated in one object, at the line of ``pos``
    (the repeat), in the words of :func:`studygen.collect.inputs.decode_at`."""
    return InputError(f"malformed JSON: duplicate key {key!r} in one object (the last would silently win)",
                      path=doc.display, line=doc.line_of(pos))


def escape_pointer(key: str) -> str:
    """``key`` as one JSON pointer segment (RFC 6901: ``~`` → ``~0``, ``/`` → ``~1``)."""
    return key.replace("~", "~0").replace("/", "~1")


class JsonText:
    """A JSON document's text with a cursor-free reader over it.

    ``display`` names the file in errors. Methods take and return character
    positions; errors carry the JSON pointer of the element being read.
    """

    def __init__(self, text: str, display: str):
        self.text = text
        self.display = display
        decoder = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=refuse_duplicate_keys)
        self._scan = decoder.scan_once

    @classmethod
    def read(cls, path: Path, display: str | None = None) -> "JsonText":
        """The file's text (plain or gzip; size, binary and UTF-8 guards of
        :func:`~studygen.collect.inputs.read_input_text`)."""
        display = display or shown_path(path)
        return cls(read_input_text(path, display), display)

    def line_of(self, pos: int) -> int:
        return self.text.count("\n", 0, pos) + 1

    def skip_space(self, pos: int) -> int:
        return _SPACE.match(self.text, pos).end()

    def start(self) -> int:
        """Position of the document's one value (after space; a byte order mark is gone, see decode_text)."""
        pos = self.skip_space(0)
        if pos >= len(self.text):
            raise InputError("file is empty", path=self.display)
        return pos

    def finish(self, pos: int) -> None:
        """Refuse anything but space after the document's value at ``pos``."""
        pos = self.skip_space(pos)
        if pos < len(self.text):
            raise InputError("holds more than one JSON value (another starts here); expected one",
                             path=self.display, line=self.line_of(pos))

    def value(self, pos: int, pointer: str) -> tuple[object, int]:
        """The JSON value at ``pos`` (space skipped) and the position after it."""
        pos = self.skip_space(pos)
        try:
            return self._scan(self.text, pos)
        except StopIteration as stop:
            raise self._malformed(stop.value, "Expecting value") from None
        except json.JSONDecodeError as exc:
            raise self._malformed(exc.pos, exc.msg) from None
        except DuplicateKey as exc:  # worded as every collector input words it, at the line of the repeat
            at = second_key_position(self.text, pos, exc.key)
            raise duplicate_key(self, exc.key, pos if at is None else at) from None
        except RecursionError:
            raise InputError("malformed JSON: nested too deeply to read", path=self.display,
                             pointer=pointer or None) from None
        except ValueError as exc:  # NaN/Infinity, or an integer longer than Python's digit limit
            reason = str(exc)
            if "int_max_str_digits" in reason or "Exceeds the limit" in reason:
                reason = "an integer with more than 4300 digits (no measurement has that many)"
            raise InputError(f"malformed JSON: {reason}", path=self.display,
                             pointer=pointer or None, line=0 if pointer else self.line_of(pos)) from None

    def _malformed(self, pos: int, message: str) -> InputError:
        return json_error(self.text, pos, message, self.display)

    def _expect(self, pos: int, char: str, what: str) -> int:
        pos = self.skip_space(pos)
        if self.text.startswith(char, pos):
            return pos + 1
        raise self._malformed(pos, f"Expecting {what}")


class Members:
    """Iterate over an object's members, reading each value through a callback.

    ``for key, value_pos in Members(doc, pos, pointer)``: the loop body must
    call :meth:`done` with the position after the value before the next turn.
    ``end`` is the position after the closing brace once the loop ends.
    """

    def __init__(self, doc: JsonText, pos: int, pointer: str = ""):
        self.doc = doc
        self.pointer = pointer
        self.pos = doc._expect(pos, "{", "'{'")
        self.end: int | None = None
        self._seen: set[str] = set()
        self._value_end: int | None = None

    def done(self, end: int) -> None:
        self._value_end = end

    def __iter__(self) -> Iterator[tuple[str, int]]:
        doc, text = self.doc, self.doc.text
        pos = doc.skip_space(self.pos)
        if text.startswith("}", pos):
            self.end = pos + 1
            return
        while True:
            pos = doc.skip_space(pos)
            if not text.startswith('"', pos):
                raise doc._malformed(pos, "Expecting property name enclosed in double quotes")
            key_pos = pos
            key, pos = doc.value(pos, self.pointer)
            if key in self._seen:
                raise duplicate_key(doc, key, key_pos)
            self._seen.add(key)
            pos = doc.skip_space(doc._expect(pos, ":", "':' delimiter"))
            self._value_end = None
            yield key, pos
            if self._value_end is None:
                raise RuntimeError("Members: the loop body did not report the end of the value")
            pos = doc.skip_space(self._value_end)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith("}", pos):
                self.end = pos + 1
                return
            raise doc._malformed(pos, "Expecting ',' delimiter")


class Elements:
    """Iterate over an array's elements: ``for index, value in Elements(doc, pos, pointer)``.

    Each element is parsed whole (C speed) and yielded with its index;
    ``end`` is the position after the closing bracket once the loop ends.
    """

    def __init__(self, doc: JsonText, pos: int, pointer: str):
        self.doc = doc
        self.pointer = pointer
        self.pos = doc._expect(pos, "[", "'['")
        self.end: int | None = None

    def __iter__(self) -> Iterator[tuple[int, object]]:
        doc, text = self.doc, self.doc.text
        scan, space = doc._scan, _SPACE.match
        pos = space(text, self.pos).end()
        if text.startswith("]", pos):
            self.end = pos + 1
            return
        index = 0
        while True:
            try:
                value, pos = scan(text, pos)
            except Exception:  # read it again the careful way, which words the error with its place
                doc.value(pos, f"{self.pointer}/{index}")
                raise
            yield index, value
            index += 1
            char = text[pos:pos + 1]
            if char in _SPACE_CHARS:
                pos = space(text, pos).end()
                char = text[pos:pos + 1]
            if char == ",":
                pos += 1
                if text[pos:pos + 1] in _SPACE_CHARS:
                    pos = space(text, pos).end()
                continue
            if char == "]":
                self.end = pos + 1
                return
            raise doc._malformed(pos, "Expecting ',' delimiter")
