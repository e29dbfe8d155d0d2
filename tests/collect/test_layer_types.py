"""Kernel time per group from TensorRT layer types (issue 22: "With TensorRT
layer names (``inception_3a/3x3 + inception_3a/relu_3x3``) the default groups
leave 85 % in ``other``; ``--exportLayerInfo`` gives each layer's type: use
it where it is there"), and SG210 on a real profile whose names match no
rule (its unclassified time was counted twice).

Figures are read off the public profiles and layer-info files, or summed
here from their rows, never from the collector's own output.
"""

from __future__ import annotations

import json
import math

from studygen.checks import CheckContext, sg210_kernel_coverage
from studygen.study import load_study
from tests.collect.conftest import FIXTURES, gpu_groups

PUBLIC = FIXTURES / "public"
ALEXNET_PROFILE = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.profile.json"
ALEXNET_GRAPH = PUBLIC / "fuzzylabs-6d8ac68a_alexnet_fp16.graph.json"
MOBILENET = {"26210e92": PUBLIC / "trex-26210e92_mobilenet.qat.onnx.engine",
             "7a07608d": PUBLIC / "trex-7a07608d_mobilenet.qat.onnx.engine"}
GOOGLENET_LOG = PUBLIC / "jetson-trt7_googlenet_raw_googlenet_None_int8_10.txt"
GOOGLENET_PROFILE = PUBLIC / "jetson-trt7_googlenet_profile_googlenet_None_int8_10.json"

# GoogLeNet's Caffe names, as TensorRT 7 profiles them, with the types a detailed layer info would give
CAFFE_LAYERS = [
    # name, averageMs, LayerType, TacticName
    ("conv1/7x7_s2 + conv1/relu_7x7", 0.08, "CaskConvolution", "sm80_xmma_fprop_implicit_gemm_i8i8"),
    ("inception_3a/pool_proj + inception_3a/relu_pool_proj", 0.02, "CaskConvolution", "sm80_xmma_fprop_i8i8"),
    ("inception_3a/3x3 + inception_3a/relu_3x3", 0.04, "CaskConvolution", "sm80_xmma_fprop_i8i8"),
    ("inception_3a/pool", 0.01, "CaskPooling", "sm50_pooling_max_nchw"),
    ("loss3/classifier", 0.03, "CaskGemmConvolution", "sm80_xmma_gemm_i8i8_i8i32_f32_tn_n"),
    ("prob", 0.005, "CaskSoftMaxV2", ""),
    ("inception_3a/output", 0.0, "NoOp", ""),
]


def _caffe_inputs(workdir):
    profile = workdir / "profile.json"
    profile.write_text(json.dumps([{"count": 100}] + [{"name": n, "averageMs": t, "timeMs": 100 * t}
                                                      for n, t, _, _ in CAFFE_LAYERS]))
    info = workdir / "layers.json"
    info.write_text(json.dumps({"Layers": [{"Name": n, "LayerType": k, "TacticName": tactic}
                                           for n, _, k, tactic in CAFFE_LAYERS], "Bindings": ["data", "prob"]}))
    return profile, info


def test_layer_types_group_caffe_names_that_no_rule_reads(collect, workdir):
    profile, info = _caffe_inputs(workdir)
    by_name = collect("trtexec", "--profile", profile, job="names")
    (kernel,) = by_name.kind("kernel_time")
    # names only: "pool_proj" reads as a pooling, "3x3", "classifier" and "prob" as nothing
    assert gpu_groups(kernel) == {"Conv": 0.08, "other": 0.105}
    assert kernel["unclassified_ms"] == 0.075
    typed = collect("trtexec", "--profile", profile, "--layer-info", info, job="types")
    (kernel,) = typed.kind("kernel_time")
    # the types decide the three convolutions (0.08 + 0.02 + 0.04), the pooling and the softmax; the
    # CaskGemmConvolution leaves "loss3/classifier" to its name, then to its tactic, an xmma GEMM
    assert gpu_groups(kernel) == {"Conv": 0.14, "GEMM/MatMul": 0.03, "normalization and elementwise": 0.005,
                                  "other": 0.01}
    assert kernel["unclassified_ms"] == 0.0 and kernel["profiled_total_ms"] == 0.185
    assert kernel["note"].endswith("; 6 layers grouped by their --exportLayerInfo type")


def test_alexnet_layer_info_leaves_nothing_unclassified(collect):
    rows = json.loads(ALEXNET_PROFILE.read_text())[1:]
    types = {layer["Name"]: layer["LayerType"] for layer in json.loads(ALEXNET_GRAPH.read_text())["Layers"]}
    (shape_call,) = [r for r in rows if types.get(r["name"]) == "shape_call"]
    by_name = collect("trtexec", "--profile", ALEXNET_PROFILE, job="names")
    (kernel,) = by_name.kind("kernel_time")
    # "dummy_shape_call__mye622_0_myl9_0" names nothing a rule reads
    assert kernel["unclassified_ms"] == shape_call["averageMs"] == 0.00204811
    typed = collect("trtexec", "--profile", ALEXNET_PROFILE, "--layer-info", ALEXNET_GRAPH, job="types")
    (kernel,) = typed.kind("kernel_time")
    assert kernel["unclassified_ms"] == 0.0
    gemm = [r["averageMs"] for r in rows if types.get(r["name"]) == "gemm"]  # the three classifier GEMMs
    assert len(gemm) == 3 and gpu_groups(kernel)["GEMM/MatMul"] == round(math.fsum(gemm), 12)
    conv = [r["averageMs"] for r in rows if types.get(r["name"]) == "CaskConvolution"]
    assert len(conv) == 5 and gpu_groups(kernel)["Conv"] == round(math.fsum(conv), 12)


def test_a_quantize_layer_stays_quantize_whether_typed_scale_or_reformat(collect):
    # QuantizeLinear_2 is a Scale layer in one commit's engine and a Reformat in the other's: those types
    # only settle what a name leaves open, and "QuantizeLinear_*" names its work
    for commit, stem in MOBILENET.items():
        profile, graph = stem.with_name(stem.name + ".profile.json"), stem.with_name(stem.name + ".graph.json")
        rows = json.loads(profile.read_text())[1:]
        types = {layer["Name"]: layer["LayerType"] for layer in json.loads(graph.read_text())["Layers"]}
        quantize = [r["averageMs"] for r in rows if r["name"].startswith("QuantizeLinear_")]
        assert {types[r["name"]] for r in rows if r["name"].startswith("QuantizeLinear_")} == \
            ({"Scale"} if commit == "26210e92" else {"Reformat"})
        done = collect("trtexec", "--profile", profile, "--layer-info", graph, job=commit)
        (kernel,) = done.kind("kernel_time")
        assert gpu_groups(kernel)["Quantize/Dequantize"] == round(math.fsum(quantize), 12)


def test_googlenet_groups_sum_to_the_total_and_sg210_counts_nothing_twice(tmp_path, run_cli, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli("new", "googlenet", "--variants", "int8", "--revision", "933850c1").exit_code == 0
    done = run_cli("collect", "trtexec", "--family", "googlenet", "--job", "xavier", "--log", GOOGLENET_LOG,
                   "--profile", GOOGLENET_PROFILE, "--gpu", "Jetson AGX Xavier", "--commit", "933850c1")
    assert done.exit_code == 0, done.err
    study = load_study(tmp_path / "families" / "googlenet", tmp_path)
    (record,) = study.records
    kernels = [(i, r) for i, r in enumerate(record.results) if r["kind"] == "kernel_time"]
    arrays, decoder, text, position = [], json.JSONDecoder(), GOOGLENET_PROFILE.read_text(), 0
    while text[position:].strip():  # seven arrays written one after the other, one per --batch
        position += len(text[position:]) - len(text[position:].lstrip())
        array, position = decoder.raw_decode(text, position)
        arrays.append(array)
    # the log's runs: --batch=1, 4, 8, 16, 32, 64, 128
    assert [k["batch"] for _, k in kernels] == [1, 4, 8, 16, 32, 64, 128] and len(arrays) == 7
    for (_, kernel), array in zip(kernels, arrays):
        total = round(math.fsum(row["averageMs"] for row in array[1:]), 12)
        assert kernel["profiled_total_ms"] == total
        assert round(math.fsum(g["time_ms"] for g in kernel["groups"]), 9) == round(total, 9)
        assert kernel["unclassified_ms"] <= next(g["time_ms"] for g in kernel["groups"] if g["group"] == "other")
    findings = sg210_kernel_coverage.check(CheckContext(study))
    # before: "kernel groups of job xavier, int8 sum to 2.659 ms, +35.4% off the profiled total 1.96335148 ms"
    assert findings and not any("sum to" in f.message for f in findings)
    index, first = kernels[0]
    (warning,) = [f for f in findings if f.pointer == f"/results/{index}"]
    assert warning.message.startswith(f"{100 * first['unclassified_share']:.1f}% of the profiled 1.96335148 ms")
