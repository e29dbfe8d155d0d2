"""A number that is part of a GPU's name or a variant's label is no figure in
SG204 and SG206 messages (new-user trial: SG204 said a hand-written verdict was
"about 1070", SG206 that a sentence names a configuration "with figures 3090,
0.0612")."""

from __future__ import annotations

import re

from studygen.checks import CheckContext, sg204_noise_verdict, sg206_unmeasured
from studygen.checks.readme_text import numbered_labels, numbers_in

from .studies import collected_provenance, codes, latency, load, record, spec

HEADER = "{{ generated_note }}\n\n# {{ study.title }}\n\n"
RECORDS = [record("pascal", [latency("fp32", 0.2113), latency("fp16", 0.2001)],
                  provenance=collected_provenance(gpu="NVIDIA GeForce GTX 1070")),
           record("ampere", [latency("fp16", 0.0612)], provenance=collected_provenance(gpu="NVIDIA GeForce RTX 3090"))]
VARIANTS = [{"name": "fp16", "precision": "fp16", "label": "fp16"},
            {"name": "fp32", "precision": "fp32", "label": "fp32 batch 8"}]


def _study(tmp_path, prose: str, **study):
    return load(tmp_path, records=RECORDS, template=HEADER + prose + "\n", study=spec(variants=VARIANTS, **study))


def test_numbers_of_gpu_names_and_variant_labels_are_left_out(tmp_path):
    study = _study(tmp_path, "")
    labels = numbered_labels(study)
    sentence = "On the GeForce GTX 1070 fp32 batch 8 took 0.2113 ms, 1070 times, and the rtx3090 2 runs"
    assert numbers_in(sentence, labels) == ["0.2113", "1070", "2"]
    assert numbers_in(sentence) == ["1070", "8", "0.2113", "1070", "2"]
    assert labels.search("a GTX 10700") is None  # whole words only


def test_sg204_names_no_gpu_number_as_what_the_verdict_is_about(tmp_path):
    study = _study(tmp_path, "On the GTX 1070, fp16 against fp32 (0.2001 ms) is within run-to-run noise.")
    message = codes(sg204_noise_verdict.check(CheckContext(study)), "SG204")[0].message
    assert re.match(r'verdict "within run-to-run noise" about 0\.2001 ms is written by hand', message), message


def test_sg206_names_no_gpu_number_as_a_figure(tmp_path):
    not_measured = [{"config": "fp32 on the GeForce RTX 3090", "reason": "no fp32 log", "expectation": "slower",
                     "because": "more bytes"}]
    study = _study(tmp_path, "fp32 on the GeForce RTX 3090 runs at 0.0612 ms.", not_measured=not_measured)
    message = codes(sg206_unmeasured.check(CheckContext(study)), "SG206")[0].message
    assert "hand-written text names it with figures 0.0612: " in message, message
