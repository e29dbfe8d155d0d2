"""Kernel time per group: ordered regular expressions → group name.

A name (a trtexec layer such as ``/encoder/layers.0/self_attn/MatMul`` or a
CUDA kernel such as ``sm80_xmma_fprop_implicit_gemm_…``) belongs to the group
of the **first** rule whose pattern is found in it (``re.search``, case
insensitive; write ``(?-i:…)`` for a case-sensitive part). A name no rule
matches is *unclassified*: its time is counted in the fallback group
``other``, and the part of ``other`` it makes up is reported as
``unclassified_ms`` (never on top of the groups) so a study can see how much
of the profile its rules do not explain (SG210). Fused attention kernels
(FlashAttention, cuDNN SDPA, memory-efficient and Composable Kernel FMHA,
TensorRT's fused MHA, Triton and AOTriton attention) have a group of their
own, ``attention`` (:data:`ATTENTION_PATTERN`, tried before convolution and
GEMM, whose words their names also carry).

A TensorRT layer whose type is known (``--exportLayerInfo`` with
``--profilingVerbosity=detailed`` gives each layer's ``LayerType``) is
grouped by its type first where the type names one kind of work
(:data:`DEFAULT_TYPE_RULES`: a ``CaskConvolution`` is convolution time
whatever its name, ``inception_3a/pool_proj`` included, and a fully
connected layer TensorRT runs as a 1x1 convolution is too); a type that
does not (a Myelin or plugin node, a generated ``kgen`` kernel, a
``CaskGemmConvolution``, which runs 1x1 convolutions and matrix multiplies
alike) leaves the layer to its name, and a few types only break a tie the
name leaves open (:data:`FALLBACK_TYPE_RULES`: a ``Scale`` layer is a batch
norm unless its name says it quantizes). Then the layer's tactic and
origin are tried.

Two TensorRT layer names are settled before any rule reads them. A Myelin
subgraph whose member list TensorRT elides, ``{ForeignNode[first...last]}``
(:func:`elided_foreign_node`: 88.7% of the sparsedrive fixture's profile,
``{ForeignNode[onnx::Gather_426...Squeeze_3019]}``), runs GEMMs, attention,
normalisation and copies under the names of only its first and last
members, which say nothing of the rest: it is untold, counted in ``other``
and in ``unclassified_ms`` whatever a rule would find in those two names
(a layer type that names one kind of work still decides first). A pointwise
fusion, ``PWN(…)`` at the start of the name, is elementwise work whatever
its fused operators are named (``PWN(/backbone/conv1/Relu)`` is no
convolution): :data:`DEFAULT_RULES` claims it before convolution and GEMM.

A study file may replace the default rules with its own list under
``kernel_groups`` (``[{pattern, group}, …]``, see schemas/study.schema.json);
its rules are matched against the name, then the type, tactic and origin,
and the type rules above, which name the default groups, do not apply.
Every pattern is compiled and guarded against backtracking by
:func:`studygen.records.kernel_rules.compile_pattern` (RE2 where it can run
the pattern, else Python's ``re`` after a static check), which check uses too.
The collectors (``collect trtexec``, ``collect torch-profile``) and ``collect
run`` share this module, so the same rules group TensorRT layers and PyTorch
kernels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import RecordError
from ..records.group_sums import KERNELS_LISTED_PER_GROUP
from ..records.kernel_rules import FALLBACK_GROUP, compile_pattern, elided_foreign_node, listed_subgraph_node, untold_node

GEMM = "GEMM/MatMul"
GRIDSAMPLE = "GridSample"
CONV = "Conv"
NORM_ELEMENTWISE = "normalization and elementwise"
QDQ = "Quantize/Dequantize"
DLA = "DLA"
ATTENTION = "attention"

# Fused attention kernels: one kernel runs softmax(Q K^T) V, so its time is neither GEMM nor softmax. Only
# kernel names are matched, never a module path: TensorRT names the projections of an ONNX model after the
# module ("/model/model/encoder/layers.0/self_attn/q_proj/MatMul" in ../shared/fixtures/trtexec/
# detr-r50_profile.json), and those stay GEMMs. The example behind each alternative:
# - flash_(fwd|bwd|att|fprop|bprop): PyTorch's FlashAttention-2 "void pytorch_flash::flash_fwd_kernel<
#   pytorch_flash::Flash_fwd_kernel_traits<64, 128, 128, 4, false, false, cutlass::bfloat16_t, ...>"
#   (../shared/fixtures/torch_profiler/cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz) and its
#   backward flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel (Dao-AILab/flash-attention, csrc/); the
#   FlashAttention-3/4 kernels flash::FlashAttnFwdSm90, flash::FlashAttentionForwardSm100
#   (Dao-AILab/flash-attention, hopper/ and flash_attn/cute/); cuDNN's
#   "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_..." and "..._flash_bprop_..." (also
#   matched by sdpa_sm; the fprop one is in this project's H200 eager and compiled profiles).
# - sdpa_sm<N>: cuDNN SDPA, "cudnn_generated_fort_native_sdpa_sm90_knob_7_64x128x128_4x1x1_kernel0_0"
#   (meta-pytorch/tritonbench issue 41), which carries no "flash".
# - fmha: PyTorch's memory-efficient SDPA and xformers, "fmha_cutlassF_f16_aligned_64x64_rf_sm80
#   (PyTorchMemEffAttention::AttentionKernel<...>::Params)" and "fmha_cutlassB_f32_aligned_64x64_k32_sm80"
#   (facebookresearch/xformers issue 1176); ROCm Composable Kernel tile "void ck_tile::kentry<256, 2,
#   ck_tile::FmhaFwdKernel<...>>" (ROCm/composable_kernel include/ck_tile/ops/fmha/kernel/fmha_fwd_kernel.hpp,
#   FmhaBwdOGradDotO in ROCm/rocm-libraries issue 12213) and aiter's "aiter::fmha_fwd_hd128_bf16_causal_...";
#   TensorRT's fused MHA "fmha_v2_flash_attention_fp16_64_32_S_qkv_128_causal_sm86_kernel_nl"; cuDNN's
#   helper "cudnn::fusion::fmha_reduce_head".
# - mha_v<N>: TensorRT Myelin's fused attention "_gemm_mha_v2" (NVIDIA/TensorRT issue 3620) and its decode
#   form "_gemv_mha_v1"; it holds "gemm", hence this group is tried before GEMM.
# - attn_(fwd|bwd): AOTriton on ROCm, "attn_fwd" (../shared/fixtures/torch_profiler/
#   rocm-mi300x_bert-small_profilerstep6_kineto_trace.json.gz); Triton's fused-attention tutorial "_attn_fwd"
#   (triton-lang/triton python/tutorials/06-fused-attention.py).
# - ^_fwd_kernel: the same tutorial's older kernel name, kept by Triton attention kernels that copied it
#   (xformers' split-K decoding "_fwd_kernel_splitK"); anchored, as a Triton kernel is named by its function.
# - ^aten::_?scaled_dot_product: a CPU profile's operators (collect run --cpu, a CPU-only trace) are ATen's, not
#   kernels: "aten::scaled_dot_product_attention" is the dispatching operator whose self time the profile keeps
#   beside its fused child "aten::_scaled_dot_product_flash_attention_for_cpu" (a random-init timm ViT-Tiny at
#   64 x 64 on a 2-core AMD EPYC: 0.131 ms over 12 calls against 63.4 ms), as "aten::linear" is beside
#   "aten::addmm" in GEMM. Anchored on "aten::", so no module path or layer name is read.
# - gemm_softmax_gemm, multihead_?attention: ROCm Composable Kernel's first fused attention
#   "kernel_batched_gemm_softmax_gemm_xdl_cshuffle_v1" and "kernel_batched_multiheadattention_forward_xdl_cshuffle"
#   (ROCm/composable_kernel include/ck/tensor_operation/gpu/, the device_batched_*attention* operations);
#   "batched_" in front, as a module path names a "MultiheadAttention" module whose MatMul is a GEMM.
# A pointwise, persistent-reduction or reduction kernel TorchInductor generates (triton_poi_, triton_per_, triton_red_)
# is named after every graph node its loop covers, views of an extern kernel's output included, so a name lists a
# convolution or matrix product whose work ran elsewhere (cuDNN, cuBLAS, a triton_tem_ template): in a SegFormer-B0
# compiled at bf16 on an H100, one compilation named its bilinear-upsample-and-concatenate kernel
# "triton_poi_fused__to_copy__unsafe_index_add_arange_bmm_cat_clamp_clone_mul_sub_transpose_view_4", another
# "triton_poi_fused__to_copy__unsafe_index__unsafe_view_add_arange_cat_clamp_clone_mul_sub_transpose_view_4", 0.0467 ms
# a forward in both, and the first was counted as GEMM (0.299 ms against the 0.199 ms its cuBLAS kernels took).
# The attention, convolution and GEMM rules refuse those prefixes, so the elementwise rule takes them, as a TensorRT PWN(...)
# fusion; grid sampling and FP8 casts, which run inside such kernels, keep their groups.
INDUCTOR_LOOP_EXCLUDED = r"^(?!triton_(?:poi|per|red)_).*?"

# A kernel TorchInductor generates (triton_poi_/triton_per_/triton_red_…) is named after the operators fused into
# it, so "triton_poi_fused__scaled_dot_product_flash_attention_0" copies an input of the attention kernel and
# is no attention: the pattern refuses those prefixes first (INDUCTOR_LOOP_EXCLUDED; the elementwise rule
# below takes them).
ATTENTION_PATTERN = (INDUCTOR_LOOP_EXCLUDED + r"(?:fmha|flash_?(?:fwd|bwd|att|fprop|bprop)|(?<![a-z])sdpa_sm\d"
                     r"|(?<![a-z])mha_v\d|(?<![a-z])attn_(?:fwd|bwd)|^_fwd_kernel|gemm_softmax_gemm"
                     r"|batched_multihead_?attention|^aten::_?scaled_dot_product)")


# An activation as a CPU profile names its ATen operator ("aten::gelu", "aten::relu_" in place, "aten::clamp_min",
# which aten::relu calls on the CPU): elementwise work of its own. In a random-init timm ViT-Tiny at 64 x 64, fp32,
# on a 2-core AMD EPYC (collect run --cpu), "aten::gelu" took 75.8 ms of the 639.1 ms profiled per forward and was
# the whole of SG210's 12 % unclassified, counted in "other" while the GPU's GELU kernels count as elementwise.
ATEN_ACTIVATION = (r"^aten::(?:gelu|relu|silu|sigmoid|tanh|hardswish|hardsigmoid|hardtanh|leaky_relu|elu|selu|mish"
                   r"|softplus|clamp|clamp_min|clamp_max|threshold)(?:_backward)?_?$")


# Order matters: the first match wins. Layout copies are claimed first so that
# "Reformatting CopyNode for Output Tensor 0 to …/Softmax" is not counted as
# the Softmax it feeds; fused attention (ATTENTION_PATTERN) before convolution and GEMM because its kernels
# are named "…flash_fprop…", "_gemm_mha_v2" or "…cutlass::bfloat16_t…"; convolution kernels before GEMM because cuDNN/TensorRT
# convolution kernels are named "…fprop_implicit_gemm…"; Quantize/Dequantize
# after Conv/GEMM because TensorRT fuses Q/DQ into the GEMM or convolution it
# feeds, and that kernel's time is the GEMM's or convolution's. Activation
# names (relu, gelu) are not elementwise evidence: TensorRT fuses them into the
# convolution or GEMM before them ("res2a_branch2a + res2a_branch2a_relu"),
# so such a name stays unclassified rather than being mis-sorted. An ATen
# operator of a CPU profile is no fusion: "aten::gelu" is the activation's own
# work (ATEN_ACTIVATION), as a GPU's GELU is, run by an ATen elementwise
# kernel the rule below already claims by "elementwise". cuDNN's FFT
# kernels (fft2d_r2c/c2r) are parts of an FFT convolution, and so are
# MIOpen's implicit-GEMM solvers on ROCm (igemm_fwd/bwd/wrw_gtc…, seen in the
# MI210 and MI300X fixtures). On ROCm, hipBLASLt and rocBLAS GEMMs are Tensile
# kernels named Cijk_<layout>_… (the MI300X fixtures). On a DLA (Jetson),
# trtexec's profile shows the DLA subgraph as "{ForeignNode[…]}" (its
# submission only) and charges the DLA's run to the copy of its output back
# ("<tensor> from nvm"), next to the other NvMedia transfers ("… to nvm",
# "… copy finish"): those are the DLA group, claimed before everything else.
# TensorRT 7-era DLA profiles (the haxconn googlenet fixtures) also mark each
# wait for a DLA tensor "<tensor> finish" ("loss3/classifier finish", "{…}
# output to be reformatted 0 finish"); no GPU-only profile here has such rows.
DEFAULT_RULES: tuple[tuple[str, str], ...] = (
    (r"\s(?:to|from) nvm$|\sfinish$", DLA),
    (r"^Reformatting CopyNode|reformatter|^reshape_(?:before|after)_|^Memcpy|^Memset", FALLBACK_GROUP),
    (r"^PWN\(", NORM_ELEMENTWISE),  # a pointwise fusion, whatever its members are named
    (r"grid_?sampl", GRIDSAMPLE),
    (ATTENTION_PATTERN, ATTENTION),
    (INDUCTOR_LOOP_EXCLUDED + r"(?:(?<![a-z])conv(?!_?encoder)|convolution|fprop|dgrad|wgrad|winograd|convolve|depthwise"
     r"|scudnn|hcudnn|implicit_precomp|(?<![a-z])fft|(?<![a-z])igemm_(?:fwd|bwd|wrw)_)", CONV),
    # "fc" alone, not "fc\d*": before (?![a-z]) the digits change no match, and unbounded they would make
    # the rule's cost quadratic in a name's length (backtracking_risk)
    (INDUCTOR_LOOP_EXCLUDED + r"(?:gemm|gemv|matmul|(?<![a-z])(?:bmm|addmm|mm|linear|fc|fully_?connected)(?![a-z])|cublas"
     r"|cutlass|nvjet|scaled_mm|^Cijk_)", GEMM),
    (r"quantiz|dequant|fake_e4m3|e4m3fy|fp8_cast", QDQ),
    # cuDNN names its batch-norm kernels bn_fw_inf_…, bn_fw_tr_…, bn_bw_… ("void cudnn::bn_fw_inf_1C11_kernel_NCHW<float,
    # …>", a ResNet's fp32 eager forward on an H100): no "norm" in them, where ATen's half-precision path
    # (batch_norm_transform_input_kernel) has one, so without this an fp32 variant's batch norms sat in "other".
    (r"norm|softmax|elementwise|pointwise|PWN\(|dropout|__myl_|triton_(?:poi|per|red)|(?<![a-z])bn_(?:fw|bw)_|"
     + ATEN_ACTIVATION +
     r"|(?<![a-z])(?:add|mul|sub|div|pow|sqrt|rsqrt|exp|erf|neg|abs|where|cast)(?![a-z])", NORM_ELEMENTWISE),
    (r"pool|transpose|shuffle|reshape|concat|slice|gather|scatter|resize|upsample|interpolate|(?<![a-z])pad|topk|sort"
     r"|argmax|argmin|nchwToNhwc|nhwcToNchw|permute|index|constant|squeeze|identity|copy|fill|reduce", FALLBACK_GROUP),
)

# The default groups in the order records list them: the order their rules had before the pointwise-fusion rule
# was put ahead of convolution and GEMM, so records collected before and after list groups alike.
DEFAULT_GROUP_ORDER = (DLA, GRIDSAMPLE, ATTENTION, CONV, GEMM, QDQ, NORM_ELEMENTWISE)


# TensorRT layer types (the LayerType of --exportLayerInfo, seen in the detailed fixtures of TensorRT
# 8.5-10.x: ../shared/fixtures/trtexec/*layer-info*, public/*graph.json, *layerinfo.json) that name one
# kind of work: they decide the group before the layer's name is read. Matched whole.
DEFAULT_TYPE_RULES: tuple[tuple[str, str], ...] = (
    (r"^(?:Cask|Cuda|Cudnn|FusedConvAct)?(?:Depthwise|Group)?(?:Convolution|Deconvolution|ConvActPool)$", CONV),
    (r"^(?:gemm|MatrixMultiply|FullyConnected|CaskFullyConnected)$", GEMM),
    (r"^(?:CaskSoftMax(?:V\d)?|SoftMax|Softmax|ElementWise|PointWise(?:V\d)?|Activation|Unary|LRN|Normalization)$",
     NORM_ELEMENTWISE),
    (r"^(?:CaskPooling|TiledPooling|Pooling|Shuffle|Slice|Concatenation|Gather|Scatter|Resize|Padding|Constant|TopK"
     r"|Reduce|Identity|shape_call)$", FALLBACK_GROUP),
)
# Types that only settle what the name leaves open: a Scale layer is a batch norm unless its name says it
# quantizes (QuantizeLinear_2 is a Scale in one mobilenet fixture, a Reformat in the other); a Reformat or
# NoOp copies or casts (its name may say it quantizes, or casts: elementwise by the name rules).
FALLBACK_TYPE_RULES: tuple[tuple[str, str], ...] = (
    (r"^Scale$", NORM_ELEMENTWISE),
    (r"^(?:Reformat|MyelinReformat|NoOp)$", FALLBACK_GROUP),
)


@dataclass(frozen=True)
class Rule:
    """One rule: ``pattern`` (as written) → ``group``; ``compiled`` has a
    ``search(name)`` (an RE2 or a Python pattern, :func:`compile_pattern`)."""

    pattern: str
    group: str
    compiled: object = field(compare=False, repr=False)


@dataclass(frozen=True)
class KernelGroupRules:
    """An ordered list of rules; ``source`` says where they came from
    (``default`` or the study file's path)."""

    rules: tuple[Rule, ...]
    source: str = "default"
    type_rules: tuple[Rule, ...] = ()  # tried on a layer's type before its name (DEFAULT_TYPE_RULES)
    fallback_type_rules: tuple[Rule, ...] = ()  # tried on its type after its name (FALLBACK_TYPE_RULES)
    order: tuple[str, ...] = ()  # the groups' order in a record, where not their rules' (DEFAULT_GROUP_ORDER)

    def classify(self, name: str) -> tuple[str, bool]:
        """``(group, matched)``: the first matching rule's group, or
        ``(FALLBACK_GROUP, False)`` when no rule matches."""
        return _first_match(self.rules, name)

    def classify_item(self, item: "KernelItem") -> tuple[str, bool, bool]:
        """``(group, matched, by_type)`` of one layer or kernel: its type by
        :attr:`type_rules`, then ``(FALLBACK_GROUP, False, False)`` for an
        elided Myelin node or a member-listed subgraph (:func:`untold_node`), else its name, its
        type by :attr:`fallback_type_rules`, then its detail (tactic, origin;
        for a study's own rules, which have no type tables, the type is tried
        with them first); ``by_type`` says whether a type table decided."""
        if item.layer_type:
            group, matched = _first_match(self.type_rules, item.layer_type)
            if matched:
                return group, True, True
        if untold_node(item.name):
            return FALLBACK_GROUP, False, False  # a few named members (or the first a rule finds) say nothing of the rest
        group, matched = self.classify(item.name)
        if matched:
            return group, True, False
        if item.layer_type:
            group, matched = _first_match(self.fallback_type_rules, item.layer_type)
            if matched:
                return group, True, True
        # the type tables above already read a type; a study's own rules (none) may name types themselves
        for text in (item.detail,) if self.type_rules else (item.layer_type, item.detail):
            if text:
                group, matched = self.classify(text)
                if matched:
                    return group, True, False
        return FALLBACK_GROUP, False, False

    @property
    def group_order(self) -> list[str]:
        """Group names in :attr:`order` where given, else in rule order
        (first appearance), the fallback last."""
        if self.order:
            return [group for group in self.order if group != FALLBACK_GROUP] + [FALLBACK_GROUP]
        seen: list[str] = []
        for rule in self.rules:
            if rule.group not in seen and rule.group != FALLBACK_GROUP:
                seen.append(rule.group)
        return seen + [FALLBACK_GROUP]


def _first_match(rules: tuple["Rule", ...], text: str) -> tuple[str, bool]:
    """``(group, True)`` of the first rule found in ``text``, else ``(FALLBACK_GROUP, False)``."""
    for rule in rules:
        if rule.compiled.search(text):
            return rule.group, True
    return FALLBACK_GROUP, False


def compile_rules(pairs: Iterable[tuple[str, str]], source: str = "default", pointer_base: str = "/kernel_groups") -> KernelGroupRules:
    """Compile ``(pattern, group)`` pairs (:func:`compile_pattern`). Raises
    RecordError naming ``source`` and ``/kernel_groups/N/pattern`` for an
    invalid expression or one that could backtrack for ages."""
    rules = []
    for index, (pattern, group) in enumerate(pairs):
        compiled = compile_pattern(pattern, source, f"{pointer_base}/{index}/pattern")
        if not group:
            raise RecordError("empty group name", path=source, pointer=f"{pointer_base}/{index}/group")
        rules.append(Rule(pattern, group, compiled))
    return KernelGroupRules(tuple(rules), source)


def default_rules() -> KernelGroupRules:
    """The built-in rules (:data:`DEFAULT_RULES`, and the layer-type rules
    :data:`DEFAULT_TYPE_RULES` and :data:`FALLBACK_TYPE_RULES`)."""
    names = compile_rules(DEFAULT_RULES)
    return KernelGroupRules(names.rules, names.source, order=DEFAULT_GROUP_ORDER,
                            type_rules=compile_rules(DEFAULT_TYPE_RULES, pointer_base="/type_rules").rules,
                            fallback_type_rules=compile_rules(FALLBACK_TYPE_RULES, pointer_base="/type_rules").rules)


def rules_from_study(spec: dict | None, source: str = "study.yaml") -> KernelGroupRules:
    """The study file's ``kernel_groups`` rules, or the defaults when the
    study gives none. ``spec`` is the loaded study mapping (or None)."""
    entries = (spec or {}).get("kernel_groups")
    if not entries:
        return default_rules()
    return compile_rules(((e["pattern"], e["group"]) for e in entries), source=source)


@dataclass
class KernelItem:
    """One timed layer or kernel: ``time_ms`` (per iteration or total, the
    caller says which), ``calls`` when known, ``layer_type`` (a TensorRT
    layer's type, from ``--exportLayerInfo``) and ``detail`` extra text
    (tactic, ONNX origin) tried when the name itself matches no rule."""

    name: str
    time_ms: float
    calls: int | None = None
    detail: str | None = None
    layer_type: str | None = None


@dataclass
class GroupedTimes:
    """Times summed per group: ``groups`` maps group → ms (rule order),
    ``kernels`` group → items (largest first), ``total_ms`` the sum of all
    items, ``unclassified_ms`` the time of items no rule matched (counted in
    the fallback group too: a part of it), ``by_type`` how many items their
    layer type grouped."""

    groups: dict[str, float]
    kernels: dict[str, list[KernelItem]]
    total_ms: float
    unclassified_ms: float
    unclassified_names: list[str]
    by_type: int = 0
    untold: int = 0  # unclassified items that are elided Myelin nodes (elided_foreign_node)
    listed: int = 0  # unclassified items that are subgraphs named by their member list (listed_subgraph_node)

    @property
    def unclassified_share(self) -> float:
        """``unclassified_ms / total_ms`` (0 when the total is 0)."""
        return self.unclassified_ms / self.total_ms if self.total_ms > 0 else 0.0


def clean_sum(values: Iterable[float]) -> float:
    """``math.fsum`` rounded to 12 significant digits: a sum of figures that
    carry at most ~7 digits, without binary noise such as 4.1616069100000015."""
    total = math.fsum(values)
    if total == 0:
        return 0.0
    digits = 12 - int(math.floor(math.log10(abs(total)))) - 1
    return round(total, digits)


def group_times(items: Iterable[KernelItem], rules: KernelGroupRules) -> GroupedTimes:
    """Sum ``items`` per group with ``rules`` (:meth:`KernelGroupRules.classify_item`:
    the layer type, the name, then the detail). Groups with no item are left
    out; the fallback group holds the unclassified items plus any a rule sent
    there explicitly."""
    per_group: dict[str, list[KernelItem]] = {}
    unclassified: list[KernelItem] = []
    all_items = list(items)
    by_type = 0
    for item in all_items:
        group, matched, typed = rules.classify_item(item)
        by_type += typed
        per_group.setdefault(group, []).append(item)
        if not matched:
            unclassified.append(item)
    order = rules.group_order
    groups = {g: clean_sum(i.time_ms for i in per_group[g]) for g in order if g in per_group}
    kernels = {g: sorted(per_group[g], key=lambda i: -i.time_ms) for g in groups}
    return GroupedTimes(
        groups=groups,
        kernels=kernels,
        total_ms=clean_sum(i.time_ms for i in all_items),
        unclassified_ms=clean_sum(i.time_ms for i in unclassified),
        unclassified_names=[i.name for i in unclassified],
        by_type=by_type,
        untold=sum(1 for i in unclassified if elided_foreign_node(i.name)),
        listed=sum(1 for i in unclassified if listed_subgraph_node(i.name)),
    )


def groups_for_record(grouped: GroupedTimes, kernels_per_group: int = KERNELS_LISTED_PER_GROUP) -> list[dict]:
    """The record's ``groups`` list: ``{group, time_ms, kernels: [{name,
    time_ms, calls}]}`` with at most ``kernels_per_group`` largest non-zero
    kernels each (the group time always covers all of them; a record's
    group listing fewer is read as complete and must sum to its time:
    :mod:`studygen.records.group_sums`)."""
    out = []
    for group, time_ms in grouped.groups.items():
        listed = []
        for item in grouped.kernels[group]:
            if item.time_ms <= 0 or len(listed) >= kernels_per_group:
                continue
            entry = {"name": item.name, "time_ms": item.time_ms}
            if item.calls is not None:
                entry["calls"] = item.calls
            listed.append(entry)
        row = {"group": group, "time_ms": time_ms}
        if listed:
            row["kernels"] = listed
        out.append(row)
    return out
