"""COCO ground truth, read into columns and validated before COCOeval sees it.

pycocotools checks almost nothing of the annotations it is given, and several
mistakes silently give a wrong AP (public reports, rebuilt here as tests with
figures of our own). Each is refused (or, where no figure changes, warned
about) in one line naming the file, a count and the first example:

- annotation ids that are not positive integers: COCOeval stores the matched
  ground truth's id in a zero-initialised array and reads 0 as "unmatched",
  so a detection matching the annotation with id 0 counts as a false positive
  (and a negative id lets one box be matched twice);
- repeated annotation ids: ``loadAnns`` looks annotations up by id, so every
  annotation sharing an id is evaluated as the last one of them;
- an image listed twice; image ids mixing integers and strings (COCOeval
  sorts them);
- boxes with zero or negative width or height (no detection can match one,
  so recall is capped); image sizes that are no pixel count from 1 to
  100 000 (0, negative, 10^12, a string): detections normalised to the image
  size would be scaled by them;
- no annotation at all, or only crowd regions, which COCOeval ignores: AP is
  undefined (COCOeval prints −1, which is never recorded as a figure);
- annotations carrying a ``score``: a detections dump passed as ground truth
  (a warning when fewer than half do); ``ignore`` without ``iscrowd`` is
  warned about (pycocotools overwrites it with ``iscrowd``);
- areas that no mask inside the box can have (larger than ``w × h`` or below
  0.1 % of it): COCOeval sorts boxes into small, medium and large by ``area``,
  so APs, APm and APl come out wrong when such an area lands in another
  range than its box.

String image ids are accepted: both evaluators get integer ids in their place
(see :mod:`studygen.collect.coco_eval`). Only the fields a bbox evaluation
uses are kept (segmentations are dropped as they are read), so a 450 MB
annotations file takes a fraction of the memory its parsed document would.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..fsutil import shown_path
from .coco_json import Elements, JsonText, Members, check_box, escape_pointer, number_refusal, out_of_range
from .inputs import is_number
from .lazy import lazy_import

np = lazy_import("numpy")  # imported on first use, so that importing this module stays light

# COCOeval's size ranges (pycocotools Params.setDetParams: areaRng, both ends inclusive).
SIZE_RANGES = {"small": (0.0, 32.0**2), "medium": (32.0**2, 96.0**2), "large": (96.0**2, 1e5**2)}
# A mask inside its box has at most the box's area; the box is printed to 2 decimals in COCO files, so
# allow 1 % and 1 px² of rounding. Below 0.1 % of the box no real mask lies (a one-pixel diagonal line
# across a 1000 px box covers 0.14 %): such an area is another unit (normalised, or a missing value).
AREA_OVER_BOX = 1.01
AREA_OVER_BOX_PX = 1.0
AREA_UNDER_BOX = 0.001
# The widest image side accepted, in pixels: COCOeval's areaRng ends at 1e5² px² ("all" and "large"), so a
# box in a larger image could fall outside every area range and go uncounted.
MAX_IMAGE_SIDE = 100_000
# More than this share of annotations with a "score" is a detections file, fewer a warning.
SCORED_SHARE = 0.5


@dataclass
class Annotations:
    """The annotations as columns (numpy arrays of length N, file order).

    ``image``: index into :attr:`GroundTruth.image_list`; ``category``: the
    category id; ``box``: (N, 4) x, y, w, h in pixels; ``area`` in px²;
    ``crowd``: 1 for ``iscrowd`` 1; ``ids``: the annotation ids as given.
    """

    image: np.ndarray
    category: np.ndarray
    box: np.ndarray
    area: np.ndarray
    crowd: np.ndarray
    ids: np.ndarray

    def __len__(self) -> int:
        return len(self.image)


@dataclass
class GroundTruth:
    """A COCO annotations file, validated.

    ``document``: the file's top-level object without its ``annotations``
    (images, categories, info as read); ``images``: id → (width, height),
    either None when missing; ``image_list``: the ids in file order (an
    image's index is its position here); ``category_ids``: the categories'
    ids; ``annotations``: the columns; ``warnings``: one line each, for the
    record's notes.
    """

    display: str
    document: dict
    images: dict
    image_list: list
    category_ids: set
    annotations: Annotations
    warnings: list[str] = field(default_factory=list)

    @property
    def image_ids(self) -> list:
        return list(self.images)

    @property
    def image_index(self) -> dict:
        """Image id → its index in :attr:`image_list`."""
        index = getattr(self, "_image_index", None)
        if index is None:
            index = self._image_index = {image_id: i for i, image_id in enumerate(self.image_list)}
        return index

    def sizes(self) -> np.ndarray:
        """(images, 2) width, height per image index; NaN where the file gives none."""
        return np.array([[np.nan if v is None else float(v) for v in self.images[i]] for i in self.image_list],
                        dtype=float).reshape(-1, 2)


class _Columns:
    """Growing columns while the annotations are read (8 bytes a value)."""

    def __init__(self):
        self.image, self.category, self.ids = array("q"), array("q"), array("q")
        self.box, self.area, self.crowd = array("d"), array("d"), array("b")
        self.scored: list[int] = []  # indices of annotations carrying a score
        self.bad_ids: list[int] = []  # indices of ids that are not positive integers
        self.ignored: list[int] = []  # indices of "ignore": 1 on boxes that are not crowd regions

    def frozen(self) -> Annotations:
        return Annotations(image=np.frombuffer(self.image, dtype=np.int64),
                           category=np.frombuffer(self.category, dtype=np.int64),
                           box=np.frombuffer(self.box, dtype=np.float64).reshape(-1, 4),
                           area=np.frombuffer(self.area, dtype=np.float64),
                           crowd=np.frombuffer(self.crowd, dtype=np.int8),
                           ids=np.frombuffer(self.ids, dtype=np.int64))


def _finite_number(value) -> bool:
    return is_number(value) and not out_of_range(value)


def _is_image_id(value) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def load_ground_truth(path: Path, display: str | None = None) -> GroundTruth:
    """Read and validate a COCO annotations file (``images``, ``annotations``,
    ``categories``), plain or gzip, up to 500 MiB.

    Raises InputError (one line: file, JSON pointer, count and first example)
    for malformed JSON, duplicate keys, a missing list, an image without an
    integer or string id, a category without an integer id, an annotation
    without a 4-number bbox, a numeric area, iscrowd 0 or 1, a known image or
    an id, and for each refusal listed in the module docstring.
    """
    display = display or shown_path(path)
    doc = JsonText.read(path, display)
    pos = doc.start()
    if doc.text[pos] != "{":
        hint = ""
        if doc.text[pos] == "[":
            hint = " (this is a JSON array, as a detections file is: --annotations and --detections swapped?)"
        raise InputError(f"expected a COCO annotations object with images, annotations, categories{hint}",
                         path=display)
    reader = _Reader(doc)
    members = Members(doc, pos)
    document: dict = {}
    images = image_list = columns = None
    skipped_at = None  # an annotations list before the images: read again once they are known
    for key, value_pos in members:
        if key == "annotations" and doc.text.startswith("[", value_pos):
            if isinstance(document.get("images"), list):
                images, image_list = reader.images(document["images"])
                columns, end = reader.annotations(value_pos, image_list)
                members.done(end)
            else:
                skipped_at = value_pos
                members.done(_skip_array(doc, value_pos))
            continue
        value, end = _read_value(doc, value_pos, f"/{escape_pointer(key)}")
        document[key] = value
        members.done(end)
    doc.finish(members.end)
    lists = {"images": isinstance(document.get("images"), list),
             "annotations": columns is not None or skipped_at is not None,
             "categories": isinstance(document.get("categories"), list)}
    for name, present in lists.items():
        if not present:
            raise InputError(f"no \"{name}\" list: not a COCO annotations file", path=display, pointer=f"/{name}")
    if images is None:
        images, image_list = reader.images(document["images"])
    category_ids = reader.categories(document["categories"])
    if columns is None:
        columns, _ = reader.annotations(skipped_at, image_list)
    gt = GroundTruth(display=display, document=document, images=images, image_list=image_list,
                     category_ids=category_ids, annotations=columns.frozen())
    gt.warnings.extend(validate(gt, columns))
    return gt


def _read_value(doc: JsonText, pos: int, pointer: str) -> tuple[object, int]:
    """A top-level value; a list element by element, so that errors name the element."""
    if not doc.text.startswith("[", pos):
        return doc.value(pos, pointer)
    elements = Elements(doc, pos, pointer)
    return [value for _, value in elements], elements.end


def _skip_array(doc: JsonText, pos: int) -> int:
    """End of the array at ``pos``, its elements parsed (duplicate keys refused) and dropped."""
    elements = Elements(doc, pos, "/annotations")
    for _ in elements:
        pass
    return elements.end


class _Reader:
    def __init__(self, doc: JsonText):
        self.doc = doc
        self.display = doc.display

    def refuse(self, message: str, pointer: str) -> InputError:
        return InputError(message, path=self.display, pointer=pointer)

    def images(self, listed: list) -> tuple[dict, list]:
        images, image_list = {}, []
        repeated: list[tuple[int, object]] = []
        for index, image in enumerate(listed):
            if not isinstance(image, dict) or not _is_image_id(image.get("id")):
                raise self.refuse("image without an integer or string id", f"/images/{index}")
            image_id = image["id"]
            if image_id in images:
                repeated.append((index, image_id))
                continue
            images[image_id] = (self.image_side(image, "width", index), self.image_side(image, "height", index))
            image_list.append(image_id)
        if not images:
            raise self.refuse("the annotations list no image", "/images")
        if repeated:
            index, image_id = repeated[0]
            first = next(i for i, image in enumerate(listed) if image["id"] == image_id)
            entries = "image entry repeats" if len(repeated) == 1 else "image entries repeat"
            raise self.refuse(f"{len(repeated)} {entries} an id listed before them (first: id "
                              f"{json.dumps(image_id)} at /images/{index}, listed first at /images/{first}): "
                              "the image count and the dataset's ids would not be the file's; "
                              "list each image once", f"/images/{index}")
        kinds = {type(image_id) for image_id in image_list}
        if len(kinds) > 1:
            strings = [i for i, image_id in enumerate(image_list) if isinstance(image_id, str)]
            raise self.refuse(f"{len(strings)} of {len(image_list)} image ids are strings and the others integers "
                              f"(first string: {json.dumps(image_list[strings[0]])}): COCOeval sorts image ids and "
                              "cannot order the two; use one type", f"/images/{_listed_at(listed, strings[0], image_list)}")
        return images, image_list

    def image_side(self, image: dict, axis: str, index: int) -> float | None:
        """An image's ``width`` or ``height`` in pixels; None when not given
        (absent or null: box normalisation then uses the boxes' extent).
        InputError naming its pointer for any other value outside
        1..MAX_IMAGE_SIDE: a size of 0 or 10^12 px is no image, and a normalised
        detection scaled by it would become any box at all."""
        value = image.get(axis)
        if value is None:
            return None
        if not _finite_number(value) or not 1 <= value <= MAX_IMAGE_SIDE:
            raise self.refuse(f"image {axis} {json.dumps(value)[:40]} is no image size: an image {axis} is a pixel "
                              f"count from 1 to {MAX_IMAGE_SIDE} (COCOeval's areas end at 1e5² px²); fix the "
                              "annotations or leave the size out", f"/images/{index}/{axis}")
        return value

    def categories(self, listed: list) -> set:
        category_ids = set()
        for index, category in enumerate(listed):
            if not isinstance(category, dict) or "id" not in category:
                raise self.refuse("category without an id", f"/categories/{index}")
            category_id = category["id"]
            if not isinstance(category_id, int) or isinstance(category_id, bool) or abs(category_id) >= 2**63:
                raise self.refuse(f"category id {json.dumps(category_id)} is not an integer of 64 bits at most",
                                  f"/categories/{index}/id")
            category_ids.add(category_id)
        return category_ids

    def annotations(self, pos: int, image_list: list) -> tuple[_Columns, int]:
        """The annotations list at ``pos`` as columns, and the position after it."""
        columns = _Columns()
        image_index = {image_id: i for i, image_id in enumerate(image_list)}
        elements = Elements(self.doc, pos, "/annotations")
        for index, annotation in elements:
            self._annotation(index, annotation, image_index, columns)
        return columns, elements.end

    def _annotation(self, index: int, annotation, image_index: dict, columns: _Columns) -> None:
        pointer = f"/annotations/{index}"
        if not isinstance(annotation, dict):
            raise self.refuse("annotation is not an object", pointer)
        bbox = annotation.get("bbox")
        if not (isinstance(bbox, list) and len(bbox) == 4 and all(is_number(v) for v in bbox)):
            raise self.refuse("bbox must be 4 numbers [x, y, w, h]", f"{pointer}/bbox")
        check_box(bbox, self.display, f"{pointer}/bbox")
        area = annotation.get("area")
        if not is_number(area):
            raise self.refuse("annotation without a numeric area (COCOeval's size ranges need it)", f"{pointer}/area")
        if out_of_range(area):
            raise number_refusal(self.display, f"{pointer}/area")
        crowd = annotation.get("iscrowd")
        if crowd not in (0, 1):  # True/False compare equal to 1/0 and pass, as in pycocotools
            raise self.refuse("annotation without iscrowd 0 or 1 (COCOeval needs it)", f"{pointer}/iscrowd")
        image_id = annotation.get("image_id")
        # a float id equal to an integer one finds it, as in pycocotools' dictionaries; True would find 1
        image = None if isinstance(image_id, (bool, list, dict)) else image_index.get(image_id)
        if image is None:
            raise self.refuse(f"image_id {image_id!r} is not among the images", f"{pointer}/image_id")
        if "id" not in annotation:
            raise self.refuse("annotation without an id", pointer)
        category = annotation.get("category_id")
        if not isinstance(category, int) or isinstance(category, bool) or abs(category) >= 2**63:
            raise self.refuse(f"category_id {json.dumps(category)} is not an integer of 64 bits at most",
                              f"{pointer}/category_id")
        annotation_id = annotation["id"]
        if not isinstance(annotation_id, int) or isinstance(annotation_id, bool) or annotation_id <= 0 \
                or annotation_id >= 2**63:
            columns.bad_ids.append(index)
            annotation_id = 0
        if "score" in annotation:
            columns.scored.append(index)
        if annotation.get("ignore") and not crowd:
            columns.ignored.append(index)
        columns.image.append(image)
        columns.category.append(category)
        columns.ids.append(annotation_id)
        columns.box.extend(bbox)
        columns.area.append(float(area))
        columns.crowd.append(int(crowd))


def _listed_at(listed: list, position: int, image_list: list) -> int:
    """Index in the images list of the ``position``-th distinct image."""
    wanted = image_list[position]
    return next(i for i, image in enumerate(listed) if image["id"] == wanted)


def validate(gt: GroundTruth, columns: _Columns) -> list[str]:
    """The ground-truth refusals of the module docstring, in order; returns
    warnings (one line each) for what changes no figure."""
    display, annotations = gt.display, gt.annotations
    count = len(annotations)

    def refuse(message: str, index: int) -> InputError:
        return InputError(message, path=display, pointer=f"/annotations/{index}")

    if count == 0:
        raise InputError("no annotation at all: AP is undefined without ground truth (COCOeval would print -1)",
                         path=display, pointer="/annotations")
    if columns.bad_ids:
        first = columns.bad_ids[0]
        raise refuse(f"{len(columns.bad_ids)} of {count} annotations have an id that is not a positive integer "
                     f"(first at /annotations/{first}): COCOeval reads a matched id of 0 as unmatched, so detections "
                     "of such boxes count as false positives; number the annotations from 1", first)
    ids = annotations.ids
    order = np.argsort(ids, kind="stable")
    repeats = order[1:][ids[order[1:]] == ids[order[:-1]]]
    if len(repeats):
        first = int(repeats.min())
        earlier = int(np.flatnonzero(ids == ids[first])[0])
        raise refuse(f"{len(repeats)} of {count} annotations repeat an id used before them (first: id "
                     f"{int(ids[first])} at /annotations/{first}, also at /annotations/{earlier}): COCOeval looks "
                     "annotations up by id and would evaluate every copy as the last one; give each its own id",
                     first)
    box = annotations.box
    flat = np.flatnonzero(((box[:, 2] <= 0) | (box[:, 3] <= 0)) & (annotations.crowd == 0))
    if len(flat):
        first = int(flat[0])
        raise refuse(f"{len(flat)} of {count} annotations have a zero or negative width or height (first: bbox "
                     f"{_box_text(box[first])} at /annotations/{first}): no detection can match such a box, so "
                     "recall would be capped; fix or drop them", first)
    if not np.any(annotations.crowd == 0):
        raise refuse(f"all {count} annotations are crowd regions (iscrowd 1), which COCOeval ignores: AP is "
                     "undefined (COCOeval would print -1)", 0)
    warnings = []
    if columns.scored:
        first = columns.scored[0]
        if len(columns.scored) > SCORED_SHARE * count:
            raise refuse(f"{len(columns.scored)} of {count} annotations carry a score (first at /annotations/{first}): "
                         "ground truth has none; is this a detections file passed as --annotations?", first)
        warnings.append(f"{display}: {len(columns.scored)} of {count} annotations carry a score (first at "
                        f"/annotations/{first}); COCOeval ignores it in ground truth")
    if columns.ignored:
        first = columns.ignored[0]
        warnings.append(f"{display}: {len(columns.ignored)} of {count} annotations carry \"ignore\" without iscrowd 1 "
                        f"(first at /annotations/{first}); COCOeval scores them like any box (only iscrowd makes it "
                        "ignore one)")
    warnings.extend(_area_check(gt))
    listed = np.isin(annotations.category, np.fromiter(gt.category_ids, dtype=np.int64, count=len(gt.category_ids)))
    unknown = np.flatnonzero(~listed)
    if not np.any(listed & (annotations.crowd == 0)):
        raise refuse(f"none of the {count} annotations is a box of a category in \"categories\" (first: category "
                     f"{int(annotations.category[0])} at /annotations/0): COCOeval would score nothing (AP -1)", 0)
    if len(unknown):
        first = int(unknown[0])
        warnings.append(f"{display}: {len(unknown)} of {count} annotations name a category id that is not in "
                        f"\"categories\" (first: category {int(annotations.category[first])} at /annotations/{first}); "
                        "COCOeval leaves them out of every figure")
    return warnings


def _box_text(box) -> str:
    return "[" + ", ".join(_number_text(v) for v in box) + "]"


def _number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def pair_keys(images: int, *pairs: tuple[np.ndarray, np.ndarray]) -> list[np.ndarray]:
    """One int64 key per (category id, image index) pair, for each ``(categories, image indices)`` given: equal
    keys exactly for equal pairs, whatever the size of the ids (they are numbered densely first)."""
    _, dense = np.unique(np.concatenate([categories for categories, _ in pairs]), return_inverse=True)
    keys, start = [], 0
    for categories, image in pairs:
        keys.append(dense[start:start + len(categories)].astype(np.int64) * images + image)
        start += len(categories)
    return keys


def size_ranges_of(area: np.ndarray) -> np.ndarray:
    """(N, 3) booleans: whether each area lies in COCOeval's small, medium, large range."""
    return np.stack([(area >= low) & (area <= high) for low, high in SIZE_RANGES.values()], axis=1)


def _area_check(gt: GroundTruth) -> list[str]:
    """Refuse areas no mask in the box can have when they move the annotation to
    another size range than its box's; warn when they move none."""
    annotations = gt.annotations
    box_area = annotations.box[:, 2] * annotations.box[:, 3]
    area = annotations.area
    impossible = np.flatnonzero((area > box_area * AREA_OVER_BOX + AREA_OVER_BOX_PX) | (area < box_area * AREA_UNDER_BOX))
    if not len(impossible):
        return []
    moved = impossible[np.any(size_ranges_of(area[impossible]) != size_ranges_of(box_area[impossible]), axis=1)]
    first = int(moved[0]) if len(moved) else int(impossible[0])
    example = (f"area {_number_text(area[first])} for bbox {_box_text(annotations.box[first])}, "
               f"w × h = {_number_text(box_area[first])}, at /annotations/{first}")
    what = (f"{len(impossible)} of {len(annotations)} annotations have an area larger than their box or below "
            f"{AREA_UNDER_BOX:.1%} of it")
    if len(moved):
        raise InputError(f"{what}, {len(moved)} of them in another COCO size range than their box (first: {example}): "
                         "APs, APm and APl would be wrong; give each annotation its mask or box area",
                         path=gt.display, pointer=f"/annotations/{first}")
    return [f"{gt.display}: {what} (first: {example}); none changes size range, so no figure changes"]
