"""skimage.data photographs: pinned by the sha256 of the shipped file, preprocessed to HxW."""

from __future__ import annotations

import json

import numpy as np
import pytest

from studygen.collect.run.images import (IMAGENET_MEAN, IMAGENET_STD, Photo, load_image_set, load_photo,
                                         skimage_dataset_definition, to_pixel_values)
from studygen.errors import InputError, RecordError
from studygen.collect.run.datasets import refresh_definition

# sha256sum of the files scikit-image 0.26 ships (skimage/data/astronaut.png, camera.png)
ASTRONAUT_SHA256 = "88431cd9653ccd539741b555fb0a46b61558b301d4110412b5bc28b5e3ea6cb5"
CAMERA_SHA256 = "b0793d2adda0fa6ae899c03989482bff9a42d3d5690fc7e3648f2795d730c23a"


def test_photos_are_rgb_uint8_and_pinned_by_file_hash():
    astronaut = load_photo("astronaut")
    assert astronaut.pixels.shape == (512, 512, 3) and astronaut.pixels.dtype == np.uint8
    assert astronaut.sha256 == ASTRONAUT_SHA256
    camera = load_photo("camera")  # grey: repeated to three channels
    assert camera.pixels.shape == (512, 512, 3)
    assert (camera.pixels[..., 0] == camera.pixels[..., 2]).all()
    assert camera.sha256 == CAMERA_SHA256
    with pytest.raises(InputError, match="no image 'not_a_photo'"):
        load_photo("not_a_photo")


def test_pixel_values_shape_and_normalisation():
    white = Photo(name="white", pixels=np.full((30, 40, 3), 255, dtype=np.uint8), sha256="")
    tensor = to_pixel_values(white, 64, 96)
    assert tuple(tensor.shape) == (1, 3, 64, 96)
    for channel in range(3):
        expected = (1.0 - IMAGENET_MEAN[channel]) / IMAGENET_STD[channel]
        assert float(tensor[0, channel].min()) == pytest.approx(expected, abs=1e-5)
        assert float(tensor[0, channel].max()) == pytest.approx(expected, abs=1e-5)


def test_definition_lists_names_hashes_and_sizes(tmp_path):
    definition = skimage_dataset_definition("two", ["astronaut", "camera"], role="calibration", selection="two")
    assert definition["count"] == 2 and definition["image_ids"] == ["astronaut", "camera"]
    assert definition["images"][0] == {"name": "astronaut", "sha256": ASTRONAUT_SHA256, "height": 512, "width": 512}
    photos = load_image_set(definition, "two.json")
    assert [p.name for p in photos] == ["astronaut", "camera"]
    path = tmp_path / "two.json"
    path.write_text(json.dumps(definition), encoding="utf-8")
    assert refresh_definition(path) is False  # this machine ships the same files


def test_a_changed_photograph_is_refused_with_its_pointer():
    definition = skimage_dataset_definition("two", ["astronaut", "camera"], role="calibration", selection="two")
    definition["images"][1]["sha256"] = "0" * 64
    with pytest.raises(RecordError) as caught:
        load_image_set(definition, "measurements/x/datasets/two.json")
    assert caught.value.where == "/images/1/sha256"
    assert CAMERA_SHA256 in caught.value.message
    other = dict(definition, source="COCO 2017 val")
    with pytest.raises(InputError, match="skimage.data only"):
        load_image_set(other, "two.json")
