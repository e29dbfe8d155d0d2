"""SG224 on a TensorRT version named in a clause of the study file's prose, held to the version each record of
the runs the clause names states (:data:`studygen.checks.prose_settings.TENSORRT_VERSION`). Case (a new user's
trial, session 28): "fp16 on TensorRT 8.2.3 runs at 0.15 ms on the GTX 1070." passed where the 8.2.3 fp16 build
failed (its record holds a not_measured result) and the only fp16 figure on that GPU came from TensorRT 8.0.3.
The study here is made up: a T4 with TensorRT 8.5.3 (fp32) and 8.6.1 (fp16, and an fp32 build that failed), and
an RTX 2080 Ti whose log printed no version (fp16)."""

from __future__ import annotations

from studygen.checks import CheckContext, sg224_unmeasured_gpu

from .studies import collected_provenance, latency, load, record, spec

FAILED = {"kind": "not_measured", "variant": "fp32", "metric": "latency", "reason": "trtexec reported FAILED",
          "shape": "800x800", "batch": 1, "backend": "tensorrt", "mode": "engine"}
RECORDS = [
    record("t4-853", [latency("fp32", 2.417)], collected_provenance("Tesla T4", tensorrt="8.5.3")),
    record("t4-861", [latency("fp16", 1.093), FAILED], collected_provenance("Tesla T4", tensorrt="8.6.1")),
    record("ti-unknown", [latency("fp16", 0.7711)], collected_provenance("NVIDIA GeForce RTX 2080 Ti", tensorrt=None)),
]


def _warnings(tmp_path, sentence: str) -> list[str]:
    study = load(tmp_path, records=RECORDS, study=spec(title="A detector on two cards", decision={"shipped": False, "summary": sentence}))
    return [f.message for f in sg224_unmeasured_gpu.check(CheckContext(study))]


def test_a_version_none_of_the_named_runs_has_is_warned(tmp_path):
    assert _warnings(tmp_path, "fp32 on TensorRT 8.6.1 takes 2.4 ms on the T4.") == [
        "/decision/summary states a result on TensorRT 8.6.1 for the T4, fp32, which none of its records measured "
        "(TensorRT versions measured for the T4, fp32: 8.5.3)"]
    assert _warnings(tmp_path / "trt", "With TRT 8.5 the T4 runs fp16 in 1.1 ms.") == [
        "/decision/summary states a result on TensorRT 8.5 for the T4, fp16, which none of its records measured "
        "(TensorRT versions measured for the T4, fp16: 8.6.1)"]


def test_a_version_the_runs_have_or_begin_passes(tmp_path):
    assert _warnings(tmp_path, "fp16 on TensorRT 8.6 takes 1.093 ms on the T4.") == []
    assert _warnings(tmp_path / "list", "The T4 ran TensorRT 8.5.3 for fp32 and 8.6.1 for fp16, 2.417 and 1.093 ms.") == []
    # 8.6 begins 8.6.1 at a dot; 8.61 does not
    assert len(_warnings(tmp_path / "dot", "fp16 on TensorRT 8.61 takes 1.093 ms on the T4.")) == 1


def test_a_run_whose_log_printed_no_version_is_not_denied_one(tmp_path):
    assert _warnings(tmp_path, "On the RTX 2080 Ti, fp16 with TensorRT 7.2 takes 0.7711 ms.") == []


def test_a_gpu_model_of_three_words_is_measured(tmp_path):
    # "RTX 2080 Ti" is three words of "NVIDIA GeForce RTX 2080 Ti": SG224 joined only two, and reported it unmeasured
    assert _warnings(tmp_path, "The RTX 2080 Ti runs fp16 in 0.7711 ms.") == []
