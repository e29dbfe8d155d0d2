"""SG224 GPU named but not measured (warning): the study's title names a
GPU model that none of its records was measured on, as a README headline
does when a study file written for one machine is reused on another ("... on
one H200" over tables whose every row says H100 80GB HBM3).

Only the title is read: it names the machine the study reports on. A
description or decision names other GPUs for context (the fleet a decision
is for, the card a study replaces, what FP8 needs), which an attack showed
in a dozen ordinary sentences; a title that compares with an unmeasured GPU
("H100 against A100") does state its result.

A GPU is named by its model as vendors write it (:data:`GPU_MODEL`, a list:
A100, H100, H200, B200, GB200, L4, L40S, T4, V100, RTX 3090, GTX 1070, RTX
A6000, MI300X, Jetson AGX Orin, ...; "H264" or "ViT-B16" name none); it is
measured when a record's ``gpu`` holds that model as a word, or as
neighbouring words joined ("RTX 3090" in "NVIDIA GeForce RTX 3090"), or a
word the named model begins (the title's "MI300" of an "MI300X"; a Jetson
by its module's name, "Orin" being what trtexec logs on a Jetson AGX
Orin). A record measured without a GPU (``collect run --cpu``) names none,
so a GPU in the title of a CPU study is reported. Not read:

- a study with a record that states no GPU at all (a publication's figures
  without their machine): the GPU named may be that record's;
- a title that denies or defers ("not", "no", "never", "without", "n't",
  "later", "next", "future", "plan") or cites another source ("published",
  "reported", "according to", "paper", "vendor", a link);
- a title the README does not print (a template that leaves it out).

Case (a GPU trial, session 22): a study file titled "timm resnet18 on one
H200" was run on an H100; render printed the title over H100 tables and
check said nothing.
"""

from __future__ import annotations

import re

from ..findings import Finding
from ..patterns import lazy_compile
from ..records.keys import measured_without_gpu
from ..records.load import yaml_text_line
from .prose_figures import sentence_at

CODE = "SG224"
GPU_MODEL = lazy_compile(
    r"(?<![\w.-])("
    r"G[BH]\d{3}|A(?:2|10G?|16|30|40|100|800)|H(?:20|100|200|800)|B(?:100|200|300)"  # NVIDIA data-centre parts
    r"|L(?:4|20|40S?)|T4|V100|P(?:4|40|100)|K80"
    r"|(?:RTX|GTX|TITAN)\s?(?:A\d{4}|\d{3,4})(?:\s?Ti|\s?SUPER)?"  # RTX 3090, GTX 1070, RTX A6000, RTX 4070 Ti
    r"|MI\d{3}[AX]?"  # AMD Instinct
    r"|Jetson\s+(?:AGX\s+|Orin\s+)?(?:Orin|Xavier|Nano|TX2)(?:\s+NX)?"
    r")s?(?![\w-])")
# words of a Jetson module's name that its GPU, as trtexec logs it, leaves out ("Orin" on a Jetson AGX Orin)
_MODULE_WORDS = re.compile(r"^(?:JETSON|AGX)")
# A sentence that names a machine without stating a result of this study on it.
ELSEWHERE = lazy_compile(
    r"\b(?:not|no|never|without|later|next|future|plans?|planned|published|reported|according\s+to|paper|"
    r"vendor|vendor's|blog|MLPerf)\b|n't\b|\]\(", re.IGNORECASE)


def model_key(text: str) -> str:
    """A model as compared: upper case, spaces and hyphens dropped (``RTX 3090`` -> ``RTX3090``)."""
    return re.sub(r"[\s-]+", "", text).upper()


def measured_models(study) -> set[str] | None:
    """The models the records were measured on, each word of a record's
    ``gpu`` and each two neighbouring words joined (:func:`model_key`); None
    when a record states no GPU and does not say it had none."""
    found: set[str] = set()
    for record in study.records:
        gpu = record.provenance.get("gpu")
        if not gpu:
            if measured_without_gpu(record.provenance):
                continue
            return None
        words = [model_key(word) for word in re.split(r"[\s-]+", gpu) if word]
        found.update(words)
        found.update(a + b for a, b in zip(words, words[1:]))
    return found


def is_measured(key: str, measured: set[str]) -> bool:
    """Whether the model ``key`` (:func:`model_key`) names a GPU of ``measured``
    (:func:`measured_models`): the same word, a word it begins with letters
    after ("MI300" of "MI300X"; not "A10" of "A100"), or, for a Jetson, its
    module's last word ("ORIN")."""
    bare = key
    while (stripped := _MODULE_WORDS.sub("", bare)) != bare:
        bare = stripped
    return any(word == key or (word.startswith(key) and word[len(key):].isalpha()) or (bare != key and word == bare)
               for word in measured)


def check(context) -> list[Finding]:
    study = context.study
    if not study.records:
        return []
    measured = measured_models(study)
    if measured is None:
        return []
    title, readme, findings = study.spec.get("title"), context.rendered_readme, []
    if not isinstance(title, str):
        return []
    for match in GPU_MODEL.finditer(title):
        named = match.group(1)
        if is_measured(model_key(named), measured) or ELSEWHERE.search(sentence_at(title, match.start())):
            continue
        if readme is not None and named not in readme:
            continue  # a title the README does not print publishes nothing
        shown = ", ".join(sorted({str(r.provenance.get("gpu") or "no GPU") for r in study.records}))
        findings.append(Finding(
            CODE, f"/title names the {named}, which no record was measured on (records: {shown})",
            study.rel(study.study_path), line=yaml_text_line(study.spec_text, ("title",), match.start()),
            pointer="/title", key=f"/title {named}",
            hint="name the GPU the records were measured on, or say that the study did not run on this one"))
    return findings
