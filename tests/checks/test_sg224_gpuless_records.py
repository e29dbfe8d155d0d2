"""SG224 where a record states no GPU, and a Jetson named without its module. Case (a new user's trial, session
28): an int8 study held four trtexec records (two GTX 1070 logs, a Jetson TensorRT 7 batch sweep, an RTX 3080) and
one written by hand with agreement figures computed on a CPU, stating no GPU. That one record turned the GPU test
off for the whole study ("The int8 engine takes 0.21 ms at batch 1 on an A100." passed), and "int8 on the Jetson
was timed with CUDA graphs." passed because a bare "Jetson" named no GPU, so the clause stood for every int8 run,
the RTX 3080's (timed with graphs) among them. The study here is made up in the same shape."""

from __future__ import annotations

from studygen.checks import CheckContext, sg224_unmeasured_gpu

from .studies import collected_provenance, latency, load, record, spec

GRAPHS = {"timer": "trtexec", "cuda_graph": True, "data_transfers": False}
PLAIN = {"timer": "trtexec", "cuda_graph": False, "data_transfers": True}


def _agreement(variant: str, value: float) -> dict:
    return {"kind": "agreement", "variant": variant, "reference_variant": "fp32", "metric": "logit_correlation",
            "value": value, "backend": "other", "dataset": "held-out-128"}


def _no_gpu(results: list[dict]) -> dict:
    """A record written by hand that states no GPU (nor that it had none)."""
    return record("by-hand", results, collected_provenance(gpu=None, tensorrt=None))


TIMED = [
    record("xavier", [latency("fp16", 4.118, shape="224x224", method=PLAIN)],
           collected_provenance("NVIDIA Jetson (module not stated)")),
    record("rtx4080", [latency("fp16", 0.3907, shape="224x224", method=GRAPHS)], collected_provenance("NVIDIA GeForce RTX 4080")),
]


def _warnings(tmp_path, sentence: str, records) -> list[str]:
    study = load(tmp_path, records=records, study=spec(title="A classifier on two cards",
                                                       decision={"shipped": False, "summary": sentence}))
    return [f.message for f in sg224_unmeasured_gpu.check(CheckContext(study))]


def test_a_gpuless_record_that_times_nothing_leaves_timings_on_other_gpus_read(tmp_path):
    records = [*TIMED, _no_gpu([_agreement("fp16", 0.99931)])]
    assert _warnings(tmp_path, "fp16 takes 0.27 ms at batch 1 on an L40S.", records) == [
        "/decision/summary states a result on the L40S, which no record was measured on (records: NVIDIA GeForce "
        "RTX 4080, NVIDIA Jetson (module not stated), no GPU)"]
    # a ratio or a speed comparative is a timing too
    assert len(_warnings(tmp_path / "ratio", "On the A100 fp16 is 2.1x faster than on the RTX 4080.", records)) == 1


def test_a_gpuless_record_may_still_be_the_gpus_it_could_have_measured(tmp_path):
    # a record stating no GPU that holds a timing may be the L40S's: as before, nothing is said
    records = [*TIMED, _no_gpu([latency("fp16", 0.2718, shape="224x224")])]
    assert _warnings(tmp_path, "fp16 takes 0.27 ms at batch 1 on an L40S.", records) == []
    # the agreement record may be the L40S's for a figure that is no timing; and the title is left as before
    records = [*TIMED, _no_gpu([_agreement("fp16", 0.99931)])]
    assert [m for m in _warnings(tmp_path / "ap", "On the L40S fp16 reaches AP 0.4410.", records) if "L40S" in m] == []


def test_a_bare_jetson_names_the_jetson_runs(tmp_path):
    assert _warnings(tmp_path, "fp16 on the Jetson was timed with CUDA graphs.", TIMED) == [
        "/decision/summary says a run for the Jetson, fp16 was timed with CUDA graphs on, which none of its records "
        "was (CUDA graph settings measured for the Jetson, fp16: off)"]
    assert _warnings(tmp_path / "true", "fp16 on the Jetson was timed without CUDA graphs.", TIMED) == []


def test_a_bare_jetson_is_measured_by_any_jetson_module(tmp_path):
    orin = [record("orin", [latency("fp16", 1.934, shape="224x224")], collected_provenance("Orin"))]
    assert _warnings(tmp_path, "On the Jetson fp16 takes 1.934 ms.", orin) == []
    desktop = [TIMED[1]]
    assert _warnings(tmp_path / "none", "On the Jetson fp16 takes 1.934 ms.", desktop) == [
        "/decision/summary states a result on the Jetson, which no record was measured on (records: NVIDIA GeForce "
        "RTX 4080)"]
