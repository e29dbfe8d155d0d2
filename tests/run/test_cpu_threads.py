"""``collect run --cpu`` records the intra-op threads torch timed on, and two
thread counts are two measurements: a user's trial (session 23) timed one
study in two jobs, one with the default threads and one with
``OMP_NUM_THREADS=1``, and the README pooled them into one cell
("0.3533 to 0.4667 (2 jobs)") with nothing in the records to tell them apart.

The model is a random-init ResNet classifier of two tiny stages, fp32 eager
only, three forwards a repeat: a few seconds on this CPU.
"""

from __future__ import annotations

import json

import pytest

from .conftest import make_tiny_project, run_studygen

STUDY = """\
schema_version: 1
family: tiny
title: tiny ResNet classifier timed on two thread counts
template: studygen/generic.md.j2
model:
  id: tiny-resnet-classifier
  hf_class: ResNetForImageClassification
  weights: random-init
  seed: 11
  config: {model_type: resnet, embedding_size: 8, hidden_sizes: [8, 16], depths: [1, 1], layer_type: basic,
           num_labels: 5}
variants:
  - {name: fp32, precision: fp32}
run:
  shapes: ["32x48"]
  modes: [eager]
  warmup_iterations: 1
  iterations: 3
  repeats: 3
  profile_iterations: 2
  agreement_set: held
decision: {shipped: false, summary: a test study}
"""


def collect_with_threads(root, job: str, threads: int) -> dict:
    """``collect run --cpu`` into ``job`` with torch set to ``threads`` intra-op threads; the record."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        code, output = run_studygen("collect", "run", "--study", root / "families" / "tiny", "--job", job,
                                    "--root", root, "--commit", "0" * 40)
    finally:
        torch.set_num_threads(before)
    assert code == 0, output
    return json.loads((root / "measurements" / "tiny" / f"{job}.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def two_thread_counts(tmp_path_factory):
    root = make_tiny_project(tmp_path_factory.mktemp("threads") / "project", STUDY)
    records = {job: collect_with_threads(root, job, threads) for job, threads in (("default", 2), ("one", 1))}
    return root, records


def test_each_cpu_latency_records_the_threads_it_was_timed_on(two_thread_counts):
    _, records = two_thread_counts
    for job, threads in (("default", 2), ("one", 1)):
        [latency] = [r for r in records[job]["results"] if r["kind"] == "latency"]
        assert latency["method"]["timer"] == "perf-counter"
        assert latency["method"]["intra_op_threads"] == threads
        assert records[job]["schema_version"] == 4  # the field is version 4's


def test_two_thread_counts_are_two_tables_in_the_readme(two_thread_counts):
    root, _ = two_thread_counts
    code, output = run_studygen("render", "tiny", "--root", root)
    assert code == 0, output
    readme = (root / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
    assert ("### Latency (ms, median end-to-end time with 2 intra-op threads; median end-to-end time with 1 "
            "intra-op thread)") in readme
    assert "Timed as PyTorch eager, end-to-end time with 2 intra-op threads:" in readme
    assert "Timed as PyTorch eager, end-to-end time with 1 intra-op thread:" in readme
    assert "(2 jobs" not in readme.split("### Latency")[1].split("###")[0]  # no cell pools the two
