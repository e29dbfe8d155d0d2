"""Image sets for calibration and agreement: photographs shipped with scikit-image.

The GPU machine has no COCO images, but scikit-image ships real photographs in
``skimage.data`` (astronaut, coffee, chelsea, rocket, ...). A dataset
definition (``measurements/<family>/datasets/<id>.json``, schemas/dataset.schema.json)
names them (``image_ids``: the ``skimage.data`` function names) and pins each
file by the sha256 of the file scikit-image ships (``images[].sha256``), so a
run on another scikit-image release that changed a photograph is refused
instead of silently measuring other pixels.

Preprocessing (:func:`to_pixel_values`): RGB (grey repeated to three
channels, alpha dropped), scaled to [0, 1], resized to exactly ``H x W`` with
bilinear interpolation and antialiasing, normalised with the ImageNet mean and
standard deviation that the Deformable DETR image processor uses.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ...errors import InputError, RecordError
from ...digests import image_ids_sha256
from ...records.schemas import schema_bytes, schema_errors
from ..inputs import file_sha256

SOURCE = "skimage.data"
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
# skimage.data functions whose shipped file has another stem
FILE_STEMS = {"immunohistochemistry": "ihc", "cat": "chelsea"}


@dataclass
class Photo:
    """One photograph: ``name`` (skimage.data function), ``pixels`` uint8 HxWx3 numpy array, ``sha256`` of the shipped file."""

    name: str
    pixels: object
    sha256: str


def shipped_file(name: str) -> Path:
    """The file scikit-image ships for ``skimage.data.<name>()``. Raises InputError when there is none."""
    import skimage.data

    folder = Path(skimage.data.__file__).parent
    stem = FILE_STEMS.get(name, name)
    matches = sorted(p for p in folder.iterdir() if p.stem == stem and p.suffix in (".png", ".jpg", ".jpeg", ".tif"))
    if not matches:
        raise InputError(f"skimage.data has no shipped image file for {name!r} (looked for {stem}.* in {folder})")
    return matches[0]


def load_photo(name: str) -> Photo:
    """``skimage.data.<name>()`` as uint8 RGB ``H x W x 3`` with the sha256 of its shipped file."""
    import numpy as np
    import skimage.data

    loader = getattr(skimage.data, name, None)
    if loader is None or name.startswith("_"):
        raise InputError(f"skimage.data has no image {name!r}")
    pixels = np.asarray(loader())
    if pixels.dtype == bool:
        pixels = pixels.astype(np.uint8) * 255
    if pixels.ndim == 2:
        pixels = np.stack([pixels] * 3, axis=-1)
    pixels = np.ascontiguousarray(pixels[..., :3]).astype(np.uint8)
    return Photo(name=name, pixels=pixels, sha256=file_sha256(shipped_file(name)))


def skimage_dataset_definition(dataset_id: str, names: list[str], *, role: str, selection: str) -> dict:
    """A dataset definition (schemas/dataset.schema.json) for ``skimage.data`` photographs,
    with each image's shipped-file sha256, height and width. Raises ValueError for a ``role`` the
    schema does not take (an agreement set is an ``evaluation`` set), and for a definition the
    schema refuses otherwise (a ``dataset_id`` that is no name, an empty ``selection``), naming the
    field: written anyway, the file was refused only when ``collect run`` read it."""
    roles = json.loads(schema_bytes("dataset"))["properties"]["role"]["enum"]
    if role not in roles:
        raise ValueError(f"role {role!r} is none of {', '.join(roles)} (an agreement set is an evaluation set)")
    import skimage

    images = []
    for name in names:
        photo = load_photo(name)
        images.append({"name": name, "sha256": photo.sha256,
                       "height": int(photo.pixels.shape[0]), "width": int(photo.pixels.shape[1])})
    definition = {
        "schema_version": 1,
        "dataset_id": dataset_id,
        "source": f"{SOURCE} (photographs shipped with scikit-image)",
        "split": "none",
        "role": role,
        "selection": selection,
        "count": len(names),
        "image_ids": list(names),
        "image_ids_sha256": image_ids_sha256(names),
        "revision": f"scikit-image {skimage.__version__}",
        "images": images,
    }
    problems = schema_errors("dataset", definition)
    if problems:
        pointer, message = problems[0]
        raise ValueError(f"dataset definition {dataset_id!r}: {message} ({pointer})")
    return definition


def load_image_set(definition: dict, display: str) -> list[Photo]:
    """The photographs a dataset definition names, each checked against its sha256.

    Raises InputError when the source is not ``skimage.data`` and RecordError
    (``display`` + JSON pointer) when a shipped file's sha256 differs from the
    definition's.
    """
    if not str(definition.get("source", "")).startswith(SOURCE):
        raise InputError(f"collect run reads image sets from {SOURCE} only; this definition's source is "
                         f"{definition.get('source')!r}", path=display)
    expected = {entry["name"]: (index, entry["sha256"]) for index, entry in enumerate(definition.get("images") or [])}
    photos = []
    for name in definition["image_ids"]:
        photo = load_photo(str(name))
        if name not in expected:
            raise RecordError(f"image {name!r} has no sha256 under images", path=display, pointer="/images")
        index, digest = expected[name]
        if photo.sha256 != digest:
            raise RecordError(f"skimage.data file for {name!r} has sha256 {photo.sha256}, the definition pins {digest}",
                              path=display, pointer=f"/images/{index}/sha256")
        photos.append(photo)
    return photos


def to_pixel_values(photo: Photo, height: int, width: int):
    """``photo`` as a float32 tensor of shape ``(1, 3, height, width)``: [0, 1]
    scaled, bilinear (antialiased) resize, ImageNet mean/std normalised."""
    import torch
    import torch.nn.functional as F

    tensor = torch.from_numpy(photo.pixels).permute(2, 0, 1).unsqueeze(0).float() / 255.0
    tensor = F.interpolate(tensor, size=(height, width), mode="bilinear", align_corners=False, antialias=True)
    mean = torch.tensor(IMAGENET_MEAN).view(1, 3, 1, 1)
    std = torch.tensor(IMAGENET_STD).view(1, 3, 1, 1)
    return ((tensor - mean) / std).contiguous()
