"""``run.batch`` is the number of images in each timed and profiled forward
(a new user's trial: ``batch: 8`` was written into every result while each
forward still took one photograph, so a batch-1 time was published as batch
8's, and check passed the README's "batch 8 is 8 times the throughput")."""

from __future__ import annotations

import json

import pytest

from studygen.collect.run.context import batched_photos, meminfo_available

from .conftest import make_tiny_project
from .test_failed_forward import VIT_STUDY


@pytest.mark.parametrize(("photos", "batch", "expected"), [
    (2, 1, [[0], [1]]),  # one input per photograph, as before batches were made
    (6, 4, [[0, 1, 2, 3], [4, 5, 0, 1]]),  # the set starts again to fill the last batch
    (2, 3, [[0, 1, 0]]),  # a batch larger than the set: one input, every photograph in it
    (3, 3, [[0, 1, 2]]),
])
def test_batches_take_every_photograph_and_hold_batch_images(photos, batch, expected):
    assert batched_photos(photos, batch) == expected


@pytest.mark.parametrize(("photos", "batch"), [(0, 1), (2, 0)])
def test_an_empty_set_or_batch_is_refused(photos, batch):
    with pytest.raises(ValueError, match="both must be 1 or more"):
        batched_photos(photos, batch)


def test_a_study_at_batch_3_times_forwards_of_three_images(tmp_path, run_cli, monkeypatch):
    import transformers

    seen: list[int] = []
    forward = transformers.ViTForImageClassification.forward

    def counting(self, *args, **kwargs):  # what each forward is given, the model's own forward then run
        seen.append(int(kwargs["pixel_values"].shape[0]))
        return forward(self, *args, **kwargs)

    monkeypatch.setattr(transformers.ViTForImageClassification, "forward", counting)
    study = VIT_STUDY.replace('  shapes: ["32x32", "48x48"]', '  shapes: ["32x32"]\n  batch: 3')
    root = make_tiny_project(tmp_path / "project", study)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "b3", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 0, done.err
    results = json.loads((root / "measurements" / "tiny" / "b3.json").read_text())["results"]
    timed = [r for r in results if r["kind"] in ("latency", "kernel_time")]
    assert timed and {r["batch"] for r in timed} == {3}
    # timing and profiling forwards take 3 images (the held-out set's 2 photographs, the first again);
    # the agreement stage compares outputs photograph by photograph
    assert set(seen) == {1, 3} and seen.count(3) > seen.count(1)


def test_a_resume_after_the_batch_changed_measures_the_new_batch(tmp_path, run_cli):
    # a resume looked for any latency of the cell whatever its batch: it recorded nothing, and check passed
    study = VIT_STUDY.replace('  shapes: ["32x32", "48x48"]', '  shapes: ["32x32"]\n  batch: 1')
    root = make_tiny_project(tmp_path / "project", study)
    command = ("collect", "run", "--study", root / "families" / "tiny", "--job", "b", "--root", root,
               "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert run_cli(*command).exit_code == 0
    study_file = root / "families" / "tiny" / "study.yaml"
    study_file.write_text(study_file.read_text().replace("  batch: 1", "  batch: 2"))
    done = run_cli(*command, "--resume")
    assert done.exit_code == 0, done.err
    results = json.loads((root / "measurements" / "tiny" / "b.json").read_text())["results"]
    latencies = sorted((r["variant"], r["batch"]) for r in results if r["kind"] == "latency")
    assert latencies == [("fp16", 1), ("fp16", 2), ("fp32", 1), ("fp32", 2)]


def test_inputs_that_cannot_fit_are_refused_before_any_record(tmp_path, run_cli):
    # attack: run.batch 2**20 (the schema's limit) filled a 23 GB machine's memory in 18 s without a word
    from studygen.collect.run.context import input_bytes

    assert input_bytes(2, 3, 32, 32) == 1 * 3 * 3 * 32 * 32 * 4  # one input of 3 images, float32
    assert input_bytes(6, 4, 10, 20) == 2 * 4 * 3 * 10 * 20 * 4
    # 48 TiB at 2048x2048: more than any machine has free, so the test does not depend on this one's memory
    study = VIT_STUDY.replace('  shapes: ["32x32", "48x48"]', '  shapes: ["32x32", "2048x2048"]\n  batch: 1048576')
    root = make_tiny_project(tmp_path / "project", study)
    done = run_cli("collect", "run", "--study", root / "families" / "tiny", "--job", "huge", "--root", root,
                   "--commit", "0" * 40, "--clean", "--quiet", "--cpu")
    assert done.exit_code == 2
    assert done.err.startswith("studygen: families/tiny/study.yaml")
    assert ("run.batch 1048576 at 2048x2048: the timing inputs take 49152.0 GiB (1048576 images of 3 x 2048 x 2048 "
            "float32 values per input), more than the ") in done.err and "(/run/batch)" in done.err
    assert not (root / "measurements" / "tiny" / "huge.json").exists()


def test_the_size_test_passes_what_fits_and_what_it_cannot_measure():
    from studygen.collect.run.context import refuse_oversized_inputs
    from studygen.errors import RecordError

    refuse_oversized_inputs({"batch": 8}, ["32x32"], 6, 8 * 3 * 32 * 32 * 4, "here", "s.yaml")  # exactly fits
    refuse_oversized_inputs({"batch": 8}, ["32x32"], 6, None, "here", "s.yaml")  # free memory unknown
    with pytest.raises(RecordError, match=r"run.batch 8 at 64x32: .* 0.0 GiB free on here"):
        refuse_oversized_inputs({"batch": 8}, ["32x32", "64x32"], 6, 8 * 3 * 32 * 32 * 4, "here", "s.yaml")


def test_memory_available_is_read_from_meminfo_not_memfree():
    # MemFree leaves out the page cache Linux gives back: a machine showing 18.1 GiB free had 24.1 GB available
    text = "MemTotal:       24576000 kB\nMemFree:        18456428 kB\nMemAvailable:   24083896 kB\nBuffers: 1 kB\n"
    assert meminfo_available(text) == 24083896 * 1024
    assert meminfo_available("MemTotal: 1 kB\nMemFree: 2 kB\n") is None  # a kernel before 3.14: sysconf instead
    assert meminfo_available("MemAvailable: " + "9" * 30 + " kB\n") is None  # a line no kernel writes
