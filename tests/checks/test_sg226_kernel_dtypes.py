"""SG226: a kernel-time result whose listed kernels' names say they ran on a 16-bit type the variant's declared
precision contradicts is a warning at the result (a new user's H100 BERT trace collected under fp32: 58 of 60
launches name bf16, and check said nothing). Kernel names and times made up here, spelled as real traces spell
them."""

from __future__ import annotations

from studygen.checks import CheckContext, sg226_kernel_dtypes

from .studies import kernel_time, load, record


def _kernels(*entries) -> list[dict]:
    return [{"name": name, "time_ms": time_ms, "calls": calls} for name, time_ms, calls in entries]


GEMM_BF16 = ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x64x64", 0.25, 4)
NORM_BF16 = ("void at::native::vectorized_layer_norm_kernel<c10::BFloat16, float>(int)", 0.05, 2)
TRITON = ("triton_poi_fused_add_0", 0.2, 2)
HALF_FILL = ("void at::native::FillFunctor<c10::Half>(int)", 0.01, 1)


def _result(variant: str, *groups) -> dict:
    result = kernel_time(variant, {name: sum(k.get("time_ms", 0.0) for k in kernels) for name, kernels in groups},
                         backend="pytorch", mode="eager")
    for entry, (_, kernels) in zip(result["groups"], groups):
        entry["kernels"] = kernels
    return result


def _messages(tmp_path, *results) -> list[str]:
    study = load(tmp_path, records=[record("h100", list(results))])
    return [f.message for f in sg226_kernel_dtypes.check(CheckContext(study))]


def test_bf16_kernels_under_fp32_and_fp16_are_warned_with_their_counts(tmp_path):
    groups = (("GEMM", _kernels(GEMM_BF16)), ("other", _kernels(NORM_BF16, TRITON)))
    # bf16 launches 4 + 2 = 6 of 8 listed; 0.30 ms of 0.50 ms listed: 60 %. "listed": a record lists a group's 20
    # largest kernels, so a trace of 2,000 bf16 kernels read "at least 20 of 20 kernel launches" (session 29)
    assert _messages(tmp_path, _result("fp32", *groups)) == [
        "kernel time of fp32 (declared fp32, job h100): at least 6 of the 8 listed kernel launches name bf16 data (0.300 ms, "
        "60% of the listed kernel time), so these figures time bf16 work in part"]
    assert _messages(tmp_path / "b", _result("fp16", *groups))[0].startswith(
        "kernel time of fp16 (declared fp16, job h100): at least 6 of the 8 listed kernel launches name bf16 data")


def test_kernels_of_the_declared_type_or_of_none_or_an_fp8_variant_pass(tmp_path):
    bf16 = (("GEMM", _kernels(GEMM_BF16)), ("other", _kernels(NORM_BF16, TRITON)))
    assert _messages(tmp_path, _result("fp8", *bf16)) == []  # 8 bits: unquantized parts run in 16 bits by design
    # under fp16 only fp16-named kernels and kernels that name no type
    assert _messages(tmp_path / "a", _result("fp16", ("other", _kernels(HALF_FILL, TRITON)))) == []
    # a result without listed kernels (a transcription) says nothing
    assert _messages(tmp_path / "b", kernel_time("fp32", {"GEMM": 0.4})) == []


def test_fp16_kernels_under_bf16_are_warned(tmp_path):
    from .studies import spec

    variants = [{"name": "bf16", "precision": "bf16", "label": "bf16"}]
    study = load(tmp_path, records=[record("h100", [_result("bf16", ("other", _kernels(HALF_FILL, TRITON)))])],
                 study=spec(variants=variants, recipes={}))
    assert [f.message for f in sg226_kernel_dtypes.check(CheckContext(study))] == [
        "kernel time of bf16 (declared bf16, job h100): at least 1 of the 3 listed kernel launches name fp16 data (0.010 ms, "
        "5% of the listed kernel time), so these figures time fp16 work in part"]


def test_every_result_is_read_and_both_types_under_fp32_are_named(tmp_path):
    plain = _result("fp32", ("other", _kernels(TRITON)))  # read first: names no type
    both = _result("fp32", ("GEMM", _kernels(GEMM_BF16)), ("other", _kernels(HALF_FILL)))
    both["shape"] = "640x640"
    # a kernel entry without calls counts once; one of no calls (a row the profiler kept) counts none
    sparse = _result("fp16", ("other", [{"name": GEMM_BF16[0], "time_ms": 0.0},
                                        {"name": NORM_BF16[0], "time_ms": 0.0, "calls": 0},
                                        {"name": TRITON[0], "time_ms": 0.5, "calls": 3}]))
    sparse["shape"] = "320x320"
    study = load(tmp_path, records=[record("h100", [plain, both, sparse])])
    findings = sg226_kernel_dtypes.check(CheckContext(study))
    assert [f.message for f in findings] == [
        "kernel time of fp32 (declared fp32, job h100): at least 5 of the 5 listed kernel launches name bf16 or fp16 data "
        "(0.260 ms, 100% of the listed kernel time), so these figures time bf16 or fp16 work in part",
        "kernel time of fp16 (declared fp16, job h100): at least 1 of the 4 listed kernel launches name bf16 data (0.000 ms, "
        "0% of the listed kernel time), so these figures time bf16 work in part"]
    assert findings[0].hint.startswith("check the dtype the model was loaded in")
    assert [f.pointer for f in findings] == ["/results/1/groups/0/time_ms", "/results/2/groups/0/time_ms"]


def test_kernels_of_no_time_give_no_share(tmp_path):
    zero = _result("fp32", ("GEMM", _kernels((GEMM_BF16[0], 0.0, 2))))
    assert _messages(tmp_path, zero) == [
        "kernel time of fp32 (declared fp32, job h100): at least 2 of the 2 listed kernel launches name bf16 data (0.000 ms), "
        "so these figures time bf16 work in part"]
