"""SG224 on a timing method stated in the study file's prose: CUDA graphs and
data transfers, on or off, held to the records' ``method``. Case (a new
user's trial, session 25, left then): "All runs were timed with CUDA graphs."
passed a study where five of seven records say ``cuda_graph: false``. The
study here is made up: an L4 timed with CUDA graphs and without data
transfers (fp16, fp32), and an A10G timed without graphs and with transfers
(fp16)."""

from __future__ import annotations

import pytest

from studygen.checks import CheckContext, sg224_unmeasured_gpu

from .studies import collected_provenance, latency, load, record, spec

GRAPHS_NO_COPIES = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False}
PLAIN = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True}
RECORDS = [
    record("l4-fp16", [latency("fp16", 0.6127, method=GRAPHS_NO_COPIES)], collected_provenance("NVIDIA L4")),
    record("l4-fp32", [latency("fp32", 1.2034, method=GRAPHS_NO_COPIES)], collected_provenance("NVIDIA L4")),
    record("a10g-fp16", [latency("fp16", 0.8811, method=PLAIN)], collected_provenance("NVIDIA A10G")),
]


def _warnings(tmp_path, sentence: str, records=RECORDS) -> list[str]:
    study = load(tmp_path, records=records, study=spec(title="Toy detector on two cards", decision={"shipped": False, "summary": sentence}))
    return [f.message for f in sg224_unmeasured_gpu.check(CheckContext(study))]


@pytest.mark.parametrize(("sentence", "message"), [
    ("The A10G run was timed with CUDA graphs.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
    ("On the L4, fp16 was timed without CUDA graphs.",
     "/decision/summary says a run for the L4, fp16 was timed with CUDA graphs off, which none of its records was "
     "(CUDA graph settings measured for the L4, fp16: on)"),
    ("The L4 latencies were measured with data transfers, host-to-device copies included.",
     "/decision/summary says a run for the L4 was timed with data transfers on, which none of its records was "
     "(data transfer settings measured for the L4: off)"),
    ("trtexec ran the A10G engine with --noDataTransfers.",
     "/decision/summary says a run for the A10G was timed with data transfers off, which none of its records was "
     "(data transfer settings measured for the A10G: on)"),
    ("The A10G run was timed with CUDA graphs and is 1.4x slower than the L4 run.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
    ("All runs were timed without CUDA graphs.",
     "/decision/summary says every run was timed with CUDA graphs off, which 2 of its 3 records were not "
     "(CUDA graph settings measured: off, on)"),
    ("All runs were timed with CUDA graphs.",
     "/decision/summary says every run was timed with CUDA graphs on, which 1 of its 3 records was not "
     "(CUDA graph settings measured: off, on)"),
    ("Every fp16 latency was measured without data transfers.",
     "/decision/summary says every run for fp16 was timed with data transfers off, which 1 of its 2 records was not "
     "(data transfer settings measured for fp16: off, on)"),
])
def test_a_method_no_run_named_was_timed_with_is_warned(tmp_path, sentence, message):
    assert _warnings(tmp_path, sentence) == [message]


@pytest.mark.parametrize("sentence", [
    "The L4 runs used CUDA graphs and skipped host transfers.",  # true of both L4 records
    "fp32 was timed with CUDA graphs and without data transfers.",
    "The A10G run was timed without CUDA graphs, with data transfers.",
    "Runs were timed with CUDA graphs.",  # some were: no claim about every run
    "All runs with CUDA graphs are faster than the A10G run.",  # "with CUDA graphs" picks runs, claims no method
    "We did not time the A10G with CUDA graphs.",  # a denial
    "The A10G was never timed with CUDA graphs.",
    "We will time the A10G with CUDA graphs.",  # a plan
    "All runs timed with CUDA graphs are 2x faster than the A10G run.",  # a result: "all" picks the runs compared
    "We plan to rerun the A10G with CUDA graphs next week.",  # a plan
    "CUDA graphs could cut the A10G's launch overhead.",  # a supposition of no run's method
    "Without CUDA graphs, launch overhead grows with the layer count.",  # how things work: no run named or timed
])
def test_a_method_the_runs_named_have_or_no_claim_of_one_is_silent(tmp_path, sentence):
    assert _warnings(tmp_path, sentence) == []


def test_records_that_state_no_method_say_nothing_of_one(tmp_path):
    # a result without a cuda_graph flag (a log that did not print it) cannot contradict the sentence
    records = [record("l4-fp16", [latency("fp16", 0.6127)], collected_provenance("NVIDIA L4"))]
    assert _warnings(tmp_path, "All runs were timed with CUDA graphs.", records) == []


@pytest.mark.parametrize(("sentence", "message"), [
    # the verb that says how the runs were timed is the method's own word (an attack, session 27: all three passed)
    ("Every run used CUDA graphs.",
     "/decision/summary says every run was timed with CUDA graphs on, which 1 of its 3 records was not "
     "(CUDA graph settings measured: off, on)"),
    ("All runs skipped host-to-device copies.",
     "/decision/summary says every run was timed with data transfers off, which 1 of its 3 records was not "
     "(data transfer settings measured: off, on)"),
    ("On the A10G the engine ran with data transfers omitted.",
     "/decision/summary says a run for the A10G was timed with data transfers off, which none of its records was "
     "(data transfer settings measured for the A10G: on)"),
    # "with ... disabled" turns the method off (the "with" alone read it on: a false warning, the true case silent)
    ("The L4 engines were timed with CUDA graphs disabled.",
     "/decision/summary says a run for the L4 was timed with CUDA graphs off, which none of its records was "
     "(CUDA graph settings measured for the L4: on)"),
])
def test_a_method_whose_own_word_is_the_verb_is_read(tmp_path, sentence, message):
    assert _warnings(tmp_path, sentence) == [message]


@pytest.mark.parametrize("sentence", [
    # a supposition or a condition says how no run was timed (both were warned: a supposition read as a claim)
    "Had the A10G been timed with CUDA graphs, it would have been faster.",
    "If the A10G were timed with CUDA graphs, its launch gaps would close.",
    "If the A10G is timed with CUDA graphs, launch overhead drops.",
])
def test_a_method_supposed_or_set_as_a_condition_is_silent(tmp_path, sentence):
    assert _warnings(tmp_path, sentence) == []


def test_a_method_turned_off_after_its_with_is_read_off(tmp_path):
    assert _warnings(tmp_path, "The A10G engine was timed with CUDA graphs disabled.") == []


@pytest.mark.parametrize(("sentence", "message"), [
    # a denial in the other part of the clause says nothing of the part naming the method (it was read whole)
    ("The int8 build was never tried, and the A10G was timed with CUDA graphs.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
    # the part naming the A10G says the method; the L4 of the other part has it (any run of the two named held it)
    ("The A10G engine used CUDA graphs, and so did the L4 engines.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
    # a part naming no run is said of those its clause names
    ("The A10G fp16 latency is 0.8811 ms, and it was measured without data transfers.",
     "/decision/summary says a run for the A10G, fp16 was timed with data transfers off, which none of its records "
     "was (data transfer settings measured for the A10G, fp16: on)"),
    # "both" speaks of every run it names; "graph replay" is PyTorch's word for a CUDA graph run
    ("Both cards were timed with CUDA graphs.",
     "/decision/summary says every run was timed with CUDA graphs on, which 1 of its 3 records was not "
     "(CUDA graph settings measured: off, on)"),
    ("The A10G latency was timed via graph replay over 200 iterations.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
])
def test_a_method_is_read_in_its_part_of_the_clause(tmp_path, sentence, message):
    assert _warnings(tmp_path, sentence) == [message]


@pytest.mark.parametrize("sentence", [
    "The L4 engines used CUDA graphs, but the A10G engine was timed without them.",
    "We never tried int8, and both L4 runs used graph replay.",
    "According to the vendor, graph replay halves launch cost, and the A10G would gain most with CUDA graphs.",
])
def test_a_method_true_of_its_part_is_silent(tmp_path, sentence):
    assert _warnings(tmp_path, sentence) == []


def test_what_a_time_includes_or_excludes_is_no_method(tmp_path):
    # a GPU compute time excludes the copies whatever trtexec's flag: the A10G's, timed with transfers, does too
    assert _warnings(tmp_path, "Every GPU compute time excludes host-to-device copies.") == []
    assert _warnings(tmp_path, "The A10G compute time excludes H2D copies.") == []


@pytest.mark.parametrize(("sentence", "message"), [
    # the method before its verb, and "was run with" (an attack, session 27: all three passed)
    ("On the A10G, CUDA graphs were used for the timed loop.",
     "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
     "(CUDA graph settings measured for the A10G: off)"),
    ("For the A10G engine, data transfers were skipped.",
     "/decision/summary says a run for the A10G was timed with data transfers off, which none of its records was "
     "(data transfer settings measured for the A10G: on)"),
    ("Every engine was run with `--noDataTransfers`.",
     "/decision/summary says every run was timed with data transfers off, which 1 of its 3 records was not "
     "(data transfer settings measured: off, on)"),
])
def test_a_method_before_its_verb_is_read(tmp_path, sentence, message):
    assert _warnings(tmp_path, sentence) == [message]


def test_a_method_before_its_verb_true_of_its_runs_is_silent(tmp_path):
    assert _warnings(tmp_path, "On the L4, CUDA graphs were used and data transfers were skipped.") == []
    assert _warnings(tmp_path, "For the A10G, CUDA graphs were disabled.") == []


def test_one_methods_denial_word_denies_no_other_method(tmp_path):
    # the transfers' "without" denied the graphs (one warning of two); a denial's "or" joins a flag to it
    assert _warnings(tmp_path, "The A10G was timed with CUDA graphs and without data transfers.") == [
        "/decision/summary says a run for the A10G was timed with CUDA graphs on, which none of its records was "
        "(CUDA graph settings measured for the A10G: off)",
        "/decision/summary says a run for the A10G was timed with data transfers off, which none of its records was "
        "(data transfer settings measured for the A10G: on)"]
    assert _warnings(tmp_path, "The A10G was timed the plain way, without CUDA graphs or --noDataTransfers.") == []


def test_a_batch_shape_or_job_named_narrows_the_runs_a_method_is_said_of(tmp_path):
    # a new user's study (s27): "The H100 run at batch 1 was timed with --noDataTransfers." passed because the H100's
    # batch-4 run was timed so; here the L4's batch-4 run at 640 x 640 is timed plainly, its batch-1 runs with graphs
    records = [*RECORDS, record("l4-b4", [latency("fp16", 2.3001, shape="640x640", batch=4, method=PLAIN)],
                                collected_provenance("NVIDIA L4"))]
    assert _warnings(tmp_path / "a", "The L4 run at batch 4 was timed with CUDA graphs.", records) == [
        "/decision/summary says a run for the L4, batch 4 was timed with CUDA graphs on, which none of its records "
        "was (CUDA graph settings measured for the L4, batch 4: off)"]
    assert _warnings(tmp_path / "b", "The L4 run at 640 x 640 was timed with CUDA graphs.", records) == [
        "/decision/summary says a run for the L4, 640 x 640 was timed with CUDA graphs on, which none of its records "
        "was (CUDA graph settings measured for the L4, 640 x 640: off)"]
    assert _warnings(tmp_path / "c", "The l4-fp16 job was timed without CUDA graphs.", records) == [
        "/decision/summary says a run for job l4-fp16 was timed with CUDA graphs off, which none of its records was "
        "(CUDA graph settings measured for job l4-fp16: on)"]
    assert _warnings(tmp_path / "d", "The L4 run at batch 1 was timed with CUDA graphs.", records) == []
    # a batch no run of the L4 has narrows nothing (the batch reading reports it): some L4 run had graphs
    assert [w for w in _warnings(tmp_path / "e", "The L4 run at batch 8 was timed with CUDA graphs.", records)
            if "CUDA graph" in w] == []
