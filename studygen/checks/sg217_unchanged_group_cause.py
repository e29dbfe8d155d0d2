"""SG217 cause in an unchanged kernel group: a sentence that gives a cause for a
latency difference through a kernel group the recipe changes (FP8 GEMMs, the
FP8 input casts), where the profiles put the difference elsewhere: in a group
the recipe does not change, or outside every group (host time).

For every variant with a recipe and its reference (the variant of the recipe's
``dequantize`` precision) at each mode and shape, the latency difference is
split by kernel group (:func:`studygen.study.attribution.recipe_pairs`). A
pair counts only when its difference is resolved: larger than the spread
between compilations of either side (compiled cells with several
compilations). Where the largest part of a resolved difference, going the
difference's way, lies in a group the recipe does not change (or in the
unattributed rest), a README sentence with causal wording (because, due to,
thanks to, comes from, makes ... faster or slower) about a difference in speed
(faster, slower, difference, saves, costs more, latency...) that names a group
the recipe changes is an error at its line. A sentence naming a mode or a shape is
held against that mode's or shape's pairs only.

Case (H200 study, 2026-11-30): "FP8 is slower than fp16 compiled because
casting the linears' inputs to FP8 costs more than the FP8 GEMMs save", while
the three compilations put 1.18 ms of the 1.27 ms difference at 800 x 800 in
the grid-sampling kernels Inductor generated, a group the recipe does not touch.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..lint.vocabulary import ascii_folded
from ..patterns import lazy_compile
from ..study.attribution import recipe_groups, recipe_pairs
from ..study.rows import Row
from .base import prose_finding
from .readme_text import quote, sentence_at

CAUSE = lazy_compile(r"\b(?:because|due\s+to|thanks\s+to|owing\s+to|caused\s+by|comes?\s+from|came\s+from|"
                   r"(?:is|are)\s+why|explain(?:s|ed)?\s+by|makes?\s+\w+(?:\s+\w+)?\s+(?:faster|slower)|"
                   r"made\s+\w+(?:\s+\w+)?\s+(?:faster|slower))\b", re.I)
# A word each alternative of CAUSE holds, lower case: a line holding none gives no cause (most README lines).
CAUSE_WORDS = ("because", "due", "thanks", "owing", "caused", "come", "came", "why", "explain", "make", "made")
# How prose names a kernel group. Loose words such as "linear" or "quantized" are left out:
# "each quantized linear adds host-side work" names a module, not a kernel group.
GROUP_WORDS = {
    "GEMM/MatMul": lazy_compile(r"\bGEMMs?\b|\bmatmuls?\b|matrix multipl", re.I),
    "Quantize/Dequantize": lazy_compile(r"\bcasts?\b|\bcasting\b|dequantiz|quantize/dequantize", re.I),
    "GridSample": lazy_compile(r"grid[ -]?sampl", re.I),
    "Conv": lazy_compile(r"\bconvolutions?\b|\bconv\b", re.I),
}
# A sentence about a difference in speed: "because TorchDynamo cannot trace ..." alone is no such cause.
DIFFERENCE = lazy_compile(r"\b(?:faster|slower|speed-?ups?|slow-?downs?|differences?|differs?|gains?|loses|"
                        r"overhead|costs?\s+more|saves?|savings?|latency|quicker)\b", re.I)
MODE_WORDS = {"eager": lazy_compile(r"\beager\b", re.I),
              "compile": lazy_compile(r"\bcompiled?\b|torch\.compile|inductor", re.I)}


def misplaced_pairs(study) -> list[tuple[Row, Row, str, set[str], object]]:
    """``(reference row, recipe row, where the difference lies, recipe groups, attribution)``
    for each resolved pair whose difference lies outside the recipe's groups."""
    found = []
    for base, row, attribution in recipe_pairs(study):
        spreads = [round(max(m) - min(m), 6) for m in (base.compilation_medians(), row.compilation_medians()) if m]
        if attribution.latency_delta_ms == 0 or abs(attribution.latency_delta_ms) <= max(spreads, default=0.0):
            continue  # not resolved: no cause to give
        parts = [*attribution.groups, ("unattributed", attribution.unattributed_ms)]
        same_way = [(abs(delta), group) for group, delta in parts if delta * attribution.latency_delta_ms > 0]
        where = max(same_way)[1] if same_way else "unattributed"
        changed = set(recipe_groups(study, row.variant))
        if where not in changed:
            found.append((base, row, where, changed, attribution))
    return found


def _about(sentence: str, row: Row) -> bool:
    """Whether a sentence may be about the pair's mode and shape (it names none, or names these)."""
    modes = [mode for mode, words in MODE_WORDS.items() if words.search(sentence)]
    if modes and row.mode not in modes:
        return False
    shapes = re.findall(r"\b(\d{2,5})\s*[x×]\s*(\d{2,5})\b", sentence)
    return not shapes or f"{row.shape}" in {f"{h}x{w}" for h, w in shapes}


def causes_in(line: str):
    """The causal phrases of ``line`` (:data:`CAUSE` matches), in order; a
    line whose case-folded text (:func:`studygen.lint.vocabulary.ascii_folded`,
    where a case-insensitive pattern's ASCII words are substrings) holds no
    word of :data:`CAUSE_WORDS` is not searched: most README lines."""
    folded = ascii_folded(line)
    if not any(word in folded for word in CAUSE_WORDS):
        return iter(())
    return CAUSE.finditer(line)


def check(context) -> list[Finding]:
    study = context.study
    text = context.readme_text
    if text is None:
        return []
    pairs = None
    findings = []
    for index, line in text.prose_lines():
        for match in causes_in(line):
            sentence = sentence_at(line, match.start(), match.end())
            if not DIFFERENCE.search(sentence):
                continue
            if pairs is None:
                pairs = misplaced_pairs(study)
            for base, row, where, changed, attribution in pairs:
                named = [g for g in changed if g in GROUP_WORDS and GROUP_WORDS[g].search(sentence)]
                if not named or not _about(sentence, row):
                    continue
                delta = dict([*attribution.groups, ("unattributed", attribution.unattributed_ms)])[where]
                place = "outside every kernel group (unattributed: host time, gaps)" if where == "unattributed" \
                    else f"in {where}, a group the recipe does not change"
                findings.append(prose_finding(
                    context, "SG217", index, match.span(),
                    f"the sentence gives {', '.join(sorted(named))} as a cause, but the profiles put "
                    f"{delta:+.3f} ms of the {attribution.latency_delta_ms:+.3f} ms difference between "
                    f"{study.variant_label(row.variant)} and {study.variant_label(base.variant)} "
                    f"({row.mode}, {row.shape}) {place}; sentence: {quote(sentence)}",
                    "state where the profiles put the difference (study.attribution_sentence(a, b, ...)), "
                    "or name the cause the kernel groups support",
                    "name the cause the kernel groups support, or write where the profiles put the difference "
                    "as this finding gives it"))
                break
            else:
                continue
            break
    return findings
