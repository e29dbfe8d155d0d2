"""Kernel time per group: ordered regular expressions → group name.

A name (a trtexec layer such as ``/encoder/layers.0/self_attn/MatMul`` or a
CUDA kernel such as ``sm80_xmma_fprop_implicit_gemm_…``) belongs to the group
of the **first** rule whose pattern is found in it (``re.search``, case
insensitive; write ``(?-i:…)`` for a case-sensitive part). A name no rule
matches is *unclassified*: its time is counted in the fallback group
``other`` and reported separately as ``unclassified_ms`` so a study can see how
much of the profile its rules do not explain (SG210).

A study file may replace the default rules with its own list under
``kernel_groups`` (``[{pattern, group}, …]``, see schemas/study.schema.json).
The collectors (``collect trtexec``, ``collect torch-profile``) and ``collect
run`` share this module, so the same rules group TensorRT layers and PyTorch
kernels.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Iterable

from ..errors import RecordError

FALLBACK_GROUP = "other"
GEMM = "GEMM/MatMul"
GRIDSAMPLE = "GridSample"
CONV = "Conv"
NORM_ELEMENTWISE = "normalization and elementwise"
QDQ = "Quantize/Dequantize"
DLA = "DLA"

# Order matters: the first match wins. Layout copies are claimed first so that
# "Reformatting CopyNode for Output Tensor 0 to …/Softmax" is not counted as
# the Softmax it feeds; convolution kernels before GEMM because cuDNN/TensorRT
# convolution kernels are named "…fprop_implicit_gemm…"; Quantize/Dequantize
# after Conv/GEMM because TensorRT fuses Q/DQ into the GEMM or convolution it
# feeds, and that kernel's time is the GEMM's or convolution's. Activation
# names (relu, gelu) are not elementwise evidence: TensorRT fuses them into the
# convolution or GEMM before them ("res2a_branch2a + res2a_branch2a_relu"),
# so such a name stays unclassified rather than being mis-sorted. cuDNN's FFT
# kernels (fft2d_r2c/c2r) are parts of an FFT convolution, and so are
# MIOpen's implicit-GEMM solvers on ROCm (igemm_fwd/bwd/wrw_gtc…, seen in the
# MI210 and MI300X fixtures). On ROCm, hipBLASLt and rocBLAS GEMMs are Tensile
# kernels named Cijk_<layout>_… (the MI300X fixtures). On a DLA (Jetson),
# trtexec's profile shows the DLA subgraph as "{ForeignNode[…]}" (its
# submission only) and charges the DLA's run to the copy of its output back
# ("<tensor> from nvm"), next to the other NvMedia transfers ("… to nvm",
# "… copy finish"): those are the DLA group, claimed before everything else.
DEFAULT_RULES: tuple[tuple[str, str], ...] = (
    (r"\s(?:to|from) nvm$|\scopy finish$", DLA),
    (r"^Reformatting CopyNode|reformatter|^reshape_(?:before|after)_|^Memcpy|^Memset", FALLBACK_GROUP),
    (r"grid_?sampl", GRIDSAMPLE),
    (r"(?<![a-z])conv(?!_?encoder)|convolution|fprop|dgrad|wgrad|winograd|convolve|depthwise|scudnn|hcudnn|implicit_precomp"
     r"|(?<![a-z])fft|(?<![a-z])igemm_(?:fwd|bwd|wrw)_", CONV),
    (r"gemm|gemv|matmul|(?<![a-z])(?:bmm|addmm|mm|linear|fc\d*|fully_?connected)(?![a-z])|cublas|cutlass|nvjet|scaled_mm"
     r"|^Cijk_", GEMM),
    (r"quantiz|dequant|fake_e4m3|e4m3fy|fp8_cast", QDQ),
    (r"norm|softmax|elementwise|pointwise|PWN\(|dropout|__myl_|triton_(?:poi|per|red)"
     r"|(?<![a-z])(?:add|mul|sub|div|pow|sqrt|rsqrt|exp|erf|neg|abs|where|cast)(?![a-z])", NORM_ELEMENTWISE),
    (r"pool|transpose|shuffle|reshape|concat|slice|gather|scatter|resize|upsample|interpolate|(?<![a-z])pad|topk|sort"
     r"|argmax|argmin|nchwToNhwc|nhwcToNchw|permute|index|constant|squeeze|identity|copy|fill|reduce", FALLBACK_GROUP),
)


@dataclass(frozen=True)
class Rule:
    """One rule: ``pattern`` (as written) → ``group``."""

    pattern: str
    group: str
    compiled: re.Pattern = field(compare=False, repr=False)


@dataclass(frozen=True)
class KernelGroupRules:
    """An ordered list of rules; ``source`` says where they came from
    (``default`` or the study file's path)."""

    rules: tuple[Rule, ...]
    source: str = "default"

    def classify(self, name: str) -> tuple[str, bool]:
        """``(group, matched)``: the first matching rule's group, or
        ``(FALLBACK_GROUP, False)`` when no rule matches."""
        for rule in self.rules:
            if rule.compiled.search(name):
                return rule.group, True
        return FALLBACK_GROUP, False

    @property
    def group_order(self) -> list[str]:
        """Group names in rule order (first appearance), the fallback last."""
        seen: list[str] = []
        for rule in self.rules:
            if rule.group not in seen and rule.group != FALLBACK_GROUP:
                seen.append(rule.group)
        return seen + [FALLBACK_GROUP]


def compile_rules(pairs: Iterable[tuple[str, str]], source: str = "default", pointer_base: str = "/kernel_groups") -> KernelGroupRules:
    """Compile ``(pattern, group)`` pairs. Raises RecordError naming
    ``source`` and ``/kernel_groups/N/pattern`` for an invalid expression."""
    rules = []
    for index, (pattern, group) in enumerate(pairs):
        try:
            compiled = re.compile(pattern, re.IGNORECASE)
        except re.error as exc:
            raise RecordError(f"invalid regular expression {pattern!r}: {exc}", path=source,
                              where=f"{pointer_base}/{index}/pattern") from None
        if not group:
            raise RecordError("empty group name", path=source, where=f"{pointer_base}/{index}/group")
        rules.append(Rule(pattern, group, compiled))
    return KernelGroupRules(tuple(rules), source)


def default_rules() -> KernelGroupRules:
    """The built-in rules (:data:`DEFAULT_RULES`)."""
    return compile_rules(DEFAULT_RULES)


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
    caller says which), ``calls`` when known, ``detail`` extra text (layer type,
    tactic, ONNX origin) tried when the name itself matches no rule."""

    name: str
    time_ms: float
    calls: int | None = None
    detail: str | None = None


@dataclass
class GroupedTimes:
    """Times summed per group: ``groups`` maps group → ms (rule order),
    ``kernels`` group → items (largest first), ``total_ms`` the sum of all
    items, ``unclassified_ms`` the time of items no rule matched."""

    groups: dict[str, float]
    kernels: dict[str, list[KernelItem]]
    total_ms: float
    unclassified_ms: float
    unclassified_names: list[str]

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
    """Sum ``items`` per group with ``rules`` (first match on the name, then on
    ``detail``). Groups with no item are left out; the fallback group holds
    the unclassified items plus any a rule sent there explicitly."""
    per_group: dict[str, list[KernelItem]] = {}
    unclassified: list[KernelItem] = []
    all_items = list(items)
    for item in all_items:
        group, matched = rules.classify(item.name)
        if not matched and item.detail:
            group, matched = rules.classify(item.detail)
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
    )


def groups_for_record(grouped: GroupedTimes, kernels_per_group: int = 20) -> list[dict]:
    """The record's ``groups`` list: ``{group, time_ms, kernels: [{name,
    time_ms, calls}]}`` with at most ``kernels_per_group`` largest non-zero
    kernels each (the group time always covers all of them)."""
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
