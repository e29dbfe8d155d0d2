"""Build the model a study names, without fetching anything from a hub.

Two ways, chosen by the study file's ``model.weights``:

* ``pretrained``: ``model.hf_class.from_pretrained(model.local_dir, local_files_only=True)``;
  the folder must exist (relative paths are read from the project root).
* ``random-init``: ``transformers.AutoConfig.for_model(**model.config)`` (the
  mapping must carry ``model_type``), ``torch.manual_seed(model.seed)``, then
  ``hf_class(config)`` (``hf_class.from_config(config)`` for a transformers
  auto class such as ``AutoModelForImageClassification``, which cannot be
  instantiated directly). A timm backbone is created with
  ``use_pretrained_backbone=False`` forced, so no backbone weights are fetched.

The returned module is fp32, on the CPU, in eval mode; every variant is a copy
of it, so all variants share the same weights.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from ...errors import InputError, RecordError


def build_model(model_spec: dict, *, root: Path, study_path: str):
    """``(module, checkpoint)``: the fp32 eval-mode model and the record's
    ``provenance.checkpoint`` block (id, revision, weights, seed, local_dir, config).

    Raises RecordError for a study model entry that cannot be built (no or an
    unknown class, missing seed or config) and InputError for a missing checkpoint folder.
    """
    import torch
    import transformers

    class_name = model_spec.get("hf_class")
    if not class_name:
        raise RecordError("model.hf_class is not set: name the transformers class collect run builds, e.g. "
                          "AutoModelForImageClassification or DeformableDetrForObjectDetection",
                          path=study_path, pointer="/model")
    model_class = getattr(transformers, class_name, None)
    if model_class is None:
        raise RecordError(f"transformers has no class {class_name!r}{_timm_hint(class_name)}", path=study_path,
                          pointer="/model/hf_class")
    weights = model_spec.get("weights", "pretrained")
    checkpoint = {"id": model_spec["id"], "revision": model_spec.get("revision"), "weights": weights}
    if weights == "pretrained":
        local_dir = model_spec.get("local_dir")
        if not local_dir:
            raise RecordError("pretrained weights need model.local_dir (nothing is fetched from a hub)",
                              path=study_path, pointer="/model/local_dir")
        folder = Path(local_dir) if Path(local_dir).is_absolute() else root / local_dir
        if not (folder / "config.json").is_file():
            raise InputError(f"checkpoint folder has no config.json: {folder}")
        model = model_class.from_pretrained(str(folder), local_files_only=True, dtype=torch.float32)
        checkpoint.update(local_dir=str(local_dir), seed=None)
    else:
        seed = model_spec.get("seed")
        if seed is None:
            raise RecordError("random-init weights need model.seed", path=study_path, pointer="/model/seed")
        config = random_init_config(model_spec.get("config") or {}, study_path)
        torch.manual_seed(int(seed))
        from_config = getattr(model_class, "from_config", None)  # an auto class; a model class has none
        model = from_config(config) if from_config is not None else model_class(config)
        checkpoint.update(seed=int(seed), local_dir=None, config=dict(model_spec.get("config") or {}))
    model = model.float().eval()
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    return model, checkpoint


def image_input_problem(model, class_name: str) -> str | None:
    """Why ``model`` cannot be measured by ``collect run``, or None: collect run
    calls every model as ``model(pixel_values=...)`` (batch x 3 x H x W), so a
    model whose ``forward`` names no ``pixel_values`` parameter (a language
    model's ``input_ids``) would fail its first forward. A forward that takes
    only ``**kwargs`` passes: nothing says what it reads.

    Case (a new user's trial, session 29): a random-init ``LlamaForCausalLM``
    passed the study file's checks, accepted ``run.shapes: ["1x128"]`` as 1 x 128
    pixels and stopped in the agreement stage with "internal error: ValueError:
    You must specify exactly one of input_ids or inputs_embeds", its forward
    having put ``pixel_values`` into ``**kwargs``.
    """
    try:
        parameters = inspect.signature(model.forward).parameters
    except (TypeError, ValueError):  # a forward inspect cannot read: let the forward itself decide
        return None
    named = [name for name, p in parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if "pixel_values" in parameters or not named:
        return None
    shown = ", ".join(named[:4]) + (", ..." if len(named) > 4 else "")
    return (f"{class_name} takes no pixel_values (its forward takes {shown}): collect run feeds images only, as "
            "model(pixel_values=BATCH x 3 x H x W) at each run.shapes HxW; time a model of other inputs with a "
            "script of your own under the PyTorch profiler and record its trace with collect torch-profile")


def _timm_hint(class_name: str) -> str:
    """What to write instead of a class of another package (``torchvision.models.resnet50``,
    ``timm.create_model``, ``resnet50``): collect run looks names up in transformers alone, and
    a timm architecture (timm carries torchvision's ResNets, ViTs, ...) is built through
    transformers' timm wrapper. '' for a name shaped like a transformers class (CamelCase)."""
    if class_name[:1].isupper() and "." not in class_name:
        return ""
    architecture = class_name.rsplit(".", 1)[-1]
    return ("; collect run builds transformers classes only: for a timm or torchvision architecture, set "
            "hf_class: TimmWrapperForImageClassification and, with weights: random-init, config: "
            f"{{model_type: timm_wrapper, architecture: {architecture}, num_labels: N}} (timm's name of it)")


def random_init_config(overrides: dict, study_path: str):
    """A transformers config from the study's ``model.config`` mapping (``model_type`` required).
    Nested ``backbone_config`` mappings become config objects too; pretrained backbone
    weights are switched off."""
    import transformers

    overrides = dict(overrides)
    model_type = overrides.pop("model_type", None)
    if not model_type:
        raise RecordError("random-init needs model.config.model_type (e.g. deformable_detr)",
                          path=study_path, pointer="/model/config")
    backbone = overrides.get("backbone_config")
    if isinstance(backbone, dict):
        backbone = dict(backbone)
        backbone_type = backbone.pop("model_type", None)
        if not backbone_type:
            raise RecordError("model.config.backbone_config needs a model_type", path=study_path,
                              pointer="/model/config/backbone_config")
        if "use_pretrained_backbone" in transformers.AutoConfig.for_model(backbone_type).to_dict():
            backbone["use_pretrained_backbone"] = False
        overrides["backbone_config"] = transformers.AutoConfig.for_model(backbone_type, **backbone)
    overrides["use_pretrained_backbone"] = False
    try:
        return transformers.AutoConfig.for_model(model_type, **overrides)
    except (ValueError, TypeError) as exc:
        raise RecordError(f"cannot build a {model_type} config: {exc}", path=study_path, pointer="/model/config") from None


def count_modules(model, type_name: str = "Linear") -> int:
    """How many submodules are ``torch.nn.<type_name>`` instances (ModelOpt's quantized subclasses included)."""
    import torch

    cls = getattr(torch.nn, type_name)
    return sum(isinstance(m, cls) for m in model.modules())
