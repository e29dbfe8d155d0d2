"""COCO detections (the results format), read into columns against their ground truth.

A results file is a JSON array of ``{"image_id", "category_id", "bbox": [x,
y, w, h], "score"}`` in pixels, x and y the top-left corner (COCO's format
page). It is read one detection at a time (:mod:`studygen.collect.coco_json`)
into numpy columns, 48 bytes a detection instead of the ~600 its parsed
object takes, so 450 MB of detections (about 5 million) fit in memory.

Refused while reading, each naming the rule, the count, the total and the
first offending detection (``dt.json:/17: refused before evaluating, rule
image-ids: …``): ``image-ids`` (image ids not in the annotations, with a
hint when only the JSON type differs, e.g. ``"139"`` for ``139``),
``category-ids`` (ids not among the annotations' categories, e.g. contiguous
0-based labels), ``negative-size`` (w or h below 0), ``duplicate-detections``
(a detection repeated exactly: a results file written twice halves AP).
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..fsutil import shown_path
from .coco_json import MAX_COORDINATE_PX, Elements, JsonText, check_box, coordinate_refusal, number_refusal, out_of_range
from .coco_truth import GroundTruth
from .inputs import is_number
from .lazy import lazy_import

np = lazy_import("numpy")  # imported on first use, so that importing this module stays light

FIELDS = ("image_id", "category_id", "bbox", "score")


def mix64(values: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, elementwise on uint64 (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = values.astype(np.uint64, copy=True)
        z ^= z >> np.uint64(30)
        z *= np.uint64(0xBF58476D1CE4E5B9)
        z ^= z >> np.uint64(27)
        z *= np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return z


def row_hash(columns: list[np.ndarray]) -> np.ndarray:
    """A 64-bit hash of each row of the given equal-length columns (floats by their bits)."""
    out = np.zeros(len(columns[0]), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for column in columns:
            bits = np.ascontiguousarray(column, dtype=np.float64).view(np.uint64)
            out = mix64(out * np.uint64(31) + bits)
    return out


@dataclass
class Detections:
    """Detections as columns (numpy arrays of length N, file order).

    ``image``: index into the ground truth's ``image_list``; ``category``: the
    category id; ``box``: (N, 4) x, y, w, h in pixels; ``score``.
    """

    display: str
    image: np.ndarray
    category: np.ndarray
    box: np.ndarray
    score: np.ndarray

    def __len__(self) -> int:
        return len(self.image)

    def example(self, index: int, gt: GroundTruth) -> str:
        """Detection ``index`` as JSON, as the file gives it (up to number spelling)."""
        box = [_plain(v) for v in self.box[index]]
        return json.dumps({"image_id": gt.image_list[int(self.image[index])], "category_id": int(self.category[index]),
                           "bbox": box, "score": _plain(self.score[index])}, separators=(", ", ": "))


def _plain(value) -> int | float:
    value = float(value)
    return int(value) if value.is_integer() and abs(value) < 2**53 else value


def refusal(rule: str, what: str, count: int, total: int, index: int, example: str, display: str,
            hint: str = "", unit: str = "detections") -> InputError:
    """The one-line refusal of a detections rule: ``rule R: N of M detections …; e.g. detection I: {…}``."""
    message = f"refused before evaluating, rule {rule}: {count} of {total} {unit} {what}; e.g. detection {index}: {example}"
    if hint:
        message += f" ({hint})"
    return InputError(message, path=display, pointer=f"/{index}")


def check_detection(index: int, detection, display: str) -> None:
    """Refuse a detection that is not ``{image_id, category_id, bbox: 4 finite
    numbers, score: a finite number}`` (InputError at its JSON pointer)."""
    pointer = f"/{index}"
    if not isinstance(detection, dict):
        raise InputError("detection is not an object", path=display, pointer=pointer)
    for name in FIELDS:
        if name not in detection:
            raise InputError(f"detection without {name}", path=display, pointer=pointer)
    bbox = detection["bbox"]
    if not (isinstance(bbox, list) and len(bbox) == 4 and all(is_number(v) for v in bbox)):
        raise InputError("bbox must be 4 numbers [x, y, w, h]", path=display, pointer=f"{pointer}/bbox")
    check_box(bbox, display, f"{pointer}/bbox")
    score = detection["score"]
    if not is_number(score):
        raise InputError("score must be a number", path=display, pointer=f"{pointer}/score")
    if out_of_range(score):
        raise number_refusal(display, f"{pointer}/score")


def _results_array(path: Path, display: str) -> tuple[JsonText, Elements]:
    """The file's text and a reader over its top-level array; InputError when it holds no array."""
    doc = JsonText.read(path, display)
    pos = doc.start()
    if doc.text[pos] != "[":
        raise InputError("expected a JSON array of detections {image_id, category_id, bbox, score} (COCO results format)",
                         path=display)
    return doc, Elements(doc, pos, "")


def iter_detections(path: Path, display: str | None = None) -> Iterator[tuple[int, dict]]:
    """``(index, detection)`` for each element of a results file, each
    checked by :func:`check_detection`. Raises InputError for malformed JSON,
    duplicate keys, or a document that is not an array."""
    display = display or shown_path(path)
    doc, elements = _results_array(path, display)
    for index, detection in elements:
        check_detection(index, detection, display)
        yield index, detection
    doc.finish(elements.end)


def load_detections(path: Path, display: str | None = None) -> list[dict]:
    """The detections of a results file as a list of dicts (for small files;
    :func:`read_detections` keeps only columns)."""
    return [detection for _, detection in iter_detections(path, display)]


class _Columns:
    def __init__(self):
        self.image, self.category = array("q"), array("q")
        self.box, self.score = array("d"), array("d")
        self.unknown_image: list[int] = []
        self.unknown_category: list[int] = []
        self.negative: list[int] = []
        self.examples: dict[int, str] = {}
        self.unknown_image_ids: list = []
        self.categories_used: set = set()


def read_detections(path: Path, gt: GroundTruth, display: str | None = None) -> Detections:
    """The detections of a results file as columns, checked against ``gt``.

    Raises InputError for what :func:`iter_detections` refuses, then for the
    rules ``image-ids``, ``category-ids``, ``negative-size`` and
    ``duplicate-detections`` in that order.
    """
    display = display or shown_path(path)
    doc, elements = _results_array(path, display)
    table = detections_from(elements, gt, display)
    doc.finish(elements.end)
    return table


_EXACT = frozenset((int, float))  # what JSON numbers parse to; anything else takes the careful path


def detections_from(indexed: Iterable[tuple[int, object]], gt: GroundTruth, display: str) -> Detections:
    """Columns of ``(index, detection)`` pairs (a file's elements, or a
    model's output as dicts), each checked as :func:`check_detection` does."""
    columns = _Columns()
    image_index, categories, used = gt.image_index, gt.category_ids, columns.categories_used
    add_image, add_category = columns.image.append, columns.category.append
    add_box, add_score = columns.box.extend, columns.score.append
    total = 0
    for index, detection in indexed:
        total += 1
        try:
            image_id, category = detection["image_id"], detection["category_id"]
            bbox, score = detection["bbox"], detection["score"]
            x, y, w, h = bbox
            exact = type(bbox) is list and type(score) in _EXACT and type(x) in _EXACT and type(y) in _EXACT \
                and type(w) in _EXACT and type(h) in _EXACT and (x - x) + (y - y) + (w - w) + (h - h) + (score - score) == 0
        except Exception:  # not an object, a field missing, a bbox of another length: worded by check_detection
            exact = False
        if not exact:
            check_detection(index, detection, display)  # raises, or passes numbers of other types (numpy floats)
            image_id, category, (x, y, w, h), score = (detection["image_id"], detection["category_id"],
                                                       detection["bbox"], detection["score"])
        if type(category) is int or type(category) is float:
            used.add(category)
        image = None if isinstance(image_id, (bool, list, dict)) else image_index.get(image_id)
        if image is None:
            _remember(columns, columns.unknown_image, index, detection)
            if len(columns.unknown_image_ids) < 1000:
                columns.unknown_image_ids.append(image_id)
            continue
        if isinstance(category, (bool, list, dict)) or category not in categories:
            _remember(columns, columns.unknown_category, index, detection)
            continue
        if w < 0 or h < 0:
            _remember(columns, columns.negative, index, detection)
        try:
            add_box((x, y, w, h))
            add_score(score)
        except OverflowError:  # an integer beyond a double's range
            check_detection(index, detection, display)
            raise
        add_image(image)
        add_category(int(category))
    _refuse_rules(columns, gt, total, display)
    table = Detections(display=display, image=np.frombuffer(columns.image, dtype=np.int64),
                       category=np.frombuffer(columns.category, dtype=np.int64),
                       box=np.frombuffer(columns.box, dtype=np.float64).reshape(-1, 4),
                       score=np.frombuffer(columns.score, dtype=np.float64))
    _refuse_far_coordinates(table)
    _refuse_duplicates(table, gt)
    return table


def _refuse_far_coordinates(table: Detections) -> None:
    """The first coordinate beyond :data:`MAX_COORDINATE_PX` (the columns'
    rows are the detections in order: any skipped one was refused before)."""
    far = np.flatnonzero(np.abs(table.box.ravel()) > MAX_COORDINATE_PX)
    if len(far):
        row, column = divmod(int(far[0]), 4)
        raise coordinate_refusal(float(table.box[row, column]), table.display, f"/{row}/bbox/{column}")


def repeated_detections(table: Detections) -> tuple[np.ndarray, np.ndarray]:
    """``(repeats, originals)``: row indices of detections equal in every
    field (image, category, x, y, w, h, score, compared as float64 bits) to
    an earlier one, ascending, and for each the earlier copy it repeats.

    Rows are hashed (:func:`row_hash`) and sorted by hash, so equal rows are
    adjacent; neighbours with one hash are then compared exactly (a hash
    collision never makes a repeat, at worst it hides one, odds ~N²/2⁶⁵)."""
    if len(table) < 2:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    columns = [table.image.astype(float), table.category.astype(float), *table.box.T, table.score]
    order = np.argsort(row_hash(columns), kind="stable")
    rows = np.stack(columns, axis=1)[order]
    hashes_equal = np.flatnonzero(np.all(rows[1:].view(np.uint64) == rows[:-1].view(np.uint64), axis=1))
    later, earlier = order[hashes_equal + 1], order[hashes_equal]
    ascending = np.argsort(later, kind="stable")
    return later[ascending], earlier[ascending]


def _refuse_duplicates(table: Detections, gt: GroundTruth) -> None:
    """Rule ``duplicate-detections``: a detection written twice is two
    detections to COCOeval, the second a false positive at the same score (a
    results file written twice, or two batches appended, halves AP)."""
    repeats, originals = repeated_detections(table)
    if len(repeats):
        index = int(repeats[0])
        raise refusal("duplicate-detections", "repeat an earlier detection exactly (same image_id, category_id, bbox "
                      "and score)", len(repeats), len(table), index, table.example(index, gt), table.display,
                      f"the same as detection {int(originals[0])}; COCOeval counts each copy, the second as a false "
                      "positive: write each detection once")


def _remember(columns: _Columns, bucket: list[int], index: int, detection: dict) -> None:
    if not bucket:
        columns.examples[id(bucket)] = json.dumps(detection, separators=(", ", ": "))
    bucket.append(index)


def _refuse_rules(columns: _Columns, gt: GroundTruth, total: int, display: str) -> None:
    for rule, bucket, what, hint in (
            ("image-ids", columns.unknown_image, f"name image ids not in the annotations {gt.display}",
             _image_id_hint(columns.unknown_image_ids, gt)),
            ("category-ids", columns.unknown_category, "use category ids not among the annotations' categories", None),
            ("negative-size", columns.negative, "have a negative width or height (xywh boxes need w, h >= 0)", "")):
        if not bucket:
            continue
        if hint is None:
            hint = _category_hint(columns.categories_used, gt)
        raise refusal(rule, what, len(bucket), total, bucket[0], columns.examples[id(bucket)], display, hint)


def _image_id_hint(unknown: list, gt: GroundTruth) -> str:
    """Say so when the unknown ids name annotated images once their JSON type is changed."""
    known = gt.image_index
    as_text = {str(v) for v in known}
    if all(isinstance(v, str) for v in known):
        if any(isinstance(v, int) and not isinstance(v, bool) and str(v) in as_text for v in unknown):
            return "the annotations' image ids are strings and these integers: write them as strings"
    elif any(isinstance(v, str) and v.strip().lstrip("-").isdigit() and int(v) in known for v in unknown):
        return "the annotations' image ids are integers and these strings: write them as numbers"
    return ""


def _category_hint(used: set, gt: GroundTruth) -> str:
    """Name contiguous 0-based labels (a model's class indices) when every category id used looks like one."""
    if all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < max(len(gt.category_ids), 80) for c in used):
        return "contiguous 0-based labels instead of the annotations' category ids? map them to the category ids"
    return ""
