"""SG205 rule 4 reads a number as a count of images only when it quantifies
them: a factor, a size, a unit, a side of a dimension or the value of a
setting next to the word "image" is no count (issue 22 follow-up: "a 7x7
window on a 32-fold downsampled image" was read as "README states 32
images")."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg205_datasets
from studygen.checks.sg205_datasets import image_counts
from studygen.lint.vocabulary import repeat_counts

from .studies import DEFAULT_DATASETS, coco_ap, dataset, line_of, load, record

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
GOOD = [record("job", [coco_ap("fp16", 0.4644), coco_ap("fp8", 0.4625)])]

NOT_COUNTS = [
    # factors
    "the decoder samples a 5x5 neighbourhood on a 16-fold downsampled image",
    "features of a 64-fold reduced image",
    "pooled to a 16 x downsampled image",
    "a ×8 upscaled image",
    "a 4 times smaller image",
    "sampled at stride 16 image features",
    "with stride=8 image tiles",
    "at 1/16 resolution of the input image",
    "a 1:4 crop of the image",
    # sizes, units, dimensions
    "a 16-bit depth image",
    "an 8 bit grayscale image",
    "each 640x640 image",
    "every 512 x 512 image",
    "a 1333 by 800 image",
    "a 48 px thumbnail image",
    "a 12-megapixel camera image",
    "the 3 channel input image",
    "a 7 MB image file",
    "an image of 64 MB",
    # the number quantifies another word that a function word separates from images
    "about 96 tokens per image",
    "the 12 layers of the image encoder",
]

COUNTS = [
    ("the AP rests on 96 images", [96]),
    ("12 held-out images", [12]),
    ("the first 48 images of val2017", [48]),
    ("on 640 COCO images", [640]),
    ("sixty-four downsampled images", [64]),
    ("300 of the images", [300]),
    ("a 250-image subset and a five-hundred-image pool", [250, 500]),
    ("a 16-fold downsampled feature map of 48 images", [48]),
    ("a 640x640 input, 72 COCO 2017 val images", [72]),
    ("with 8-bit weights on 96 held-out images", [96]),
]


@pytest.mark.parametrize("line", NOT_COUNTS)
def test_a_factor_size_or_setting_next_to_image_is_no_count(line):
    assert image_counts(line) == []


@pytest.mark.parametrize("line, expected", COUNTS)
def test_a_number_that_quantifies_images_is_a_count(line, expected):
    assert [count for count, _, _ in image_counts(line)] == expected


def test_the_count_after_a_rejected_number_is_still_read():
    # the 16 of "16-fold" is no count; the 48 after it is, with its own place
    line = "a 16-fold downsampled feature map of 48 images"
    ((count, start, end),) = image_counts(line)
    assert (count, line[start:end]) == (48, "48 images")


def test_durations_and_units_are_not_repeat_counts():
    assert repeat_counts("a 5-minute run") == []
    assert repeat_counts("a 30 s run") == []
    assert repeat_counts("one 30-second run") == []
    assert [c for c, _, _ in repeat_counts("over 7 timed runs")] == [7]
    assert [c for c, _, _ in repeat_counts("a 5-run median")] == [5]


def test_readme_with_factors_and_sizes_draws_only_its_true_counts(tmp_path):
    datasets = dict(DEFAULT_DATASETS, **{"stride-24": dataset("stride-24", "evaluation", 24, ids=range(21, 45))})
    template = (HEADER
                + "The decoder samples a 5x5 neighbourhood on a 16-fold downsampled image.\n\n"
                + "Each 640x640 image is a 3 channel image of about 2 MB; features sit at 1/16 resolution of the image.\n\n"
                + "AP is read on 8 held-out images (the first 24 images of the stride set were also scored).\n\n"
                + "{{ study.dataset_table() }}\n")
    study = load(tmp_path, records=GOOD, datasets=datasets, template=template)
    readme = [f for f in sg205_datasets.check(CheckContext(study)) if f.file == "families/toy/README.md"]
    assert [f.line for f in readme] == [line_of(study, "first 24 images")]
    assert readme[0].message.startswith('README states 24 images ("24 images"), the count of stride-24, which no result uses')
