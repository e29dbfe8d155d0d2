"""torch.compile for a variant, and whether the compiled forward replays CUDA graphs.

A variant is compiled once per (backend, mode) with ``dynamic=False`` (one
graph per input shape; Dynamo's recompile limits are raised so that every
shape of a study fits). Inductor's ``reduce-overhead`` and ``max-autotune``
modes replay CUDA graphs through cudagraph trees; a graph Inductor cannot
capture is run launch by launch and counted in
``counters["inductor"]["cudagraph_skips"]``, which the record reports.

Inductor settings: the study's ``run.inductor_config`` (plus ``collect run
--inductor``) is set on ``torch._inductor.config`` before compiling, in the
process that compiles (each compilation worker is a process of its own), and
the record keeps it with the ``TORCHINDUCTOR_*`` environment variables
(:func:`compile_settings`), so that a compiled figure says how it was compiled.
"""

from __future__ import annotations

from ...records.inductor_settings import typed_setting_problem
from .context import Variant

CUDA_GRAPH_MODES = ("reduce-overhead", "max-autotune")


def compiled_forward(variant: Variant, settings: dict):
    """``torch.compile`` of the variant's model (FP8: its transplanted plain
    model) with the study's ``compile_backend`` and ``compile_mode``, cached on
    the variant."""
    import torch

    for limit in ("cache_size_limit", "recompile_limit"):
        if hasattr(torch._dynamo.config, limit):
            setattr(torch._dynamo.config, limit, max(getattr(torch._dynamo.config, limit), 64))
    if hasattr(torch._dynamo.config, "accumulated_cache_size_limit"):
        torch._dynamo.config.accumulated_cache_size_limit = max(torch._dynamo.config.accumulated_cache_size_limit, 1024)
    apply_inductor_config(settings.get("inductor_config") or {})
    key = (settings["compile_backend"], settings["compile_mode"])
    if key not in variant.compiled:
        kwargs = {"backend": settings["compile_backend"], "dynamic": False}
        if settings["compile_backend"] == "inductor":
            kwargs["mode"] = settings["compile_mode"]
        variant.compiled[key] = torch.compile(variant.compile_model or variant.model, **kwargs)
    return variant.compiled[key]


def apply_inductor_config(config: dict) -> None:
    """Set each ``name: value`` of ``config`` (dotted names under
    ``torch._inductor.config``, e.g. ``triton.autotune_pointwise``) for this
    process. Raises ValueError, setting nothing, for a name Inductor's config
    does not list (``get_config_copy``: its settings, not the modules it
    imports) or a setting studies may not change, by name, by the type torch
    holds or by the value's type (:func:`~studygen.records.inductor_settings.typed_setting_problem`);
    the compilation is then recorded as failed, with that reason."""
    if not config:
        return
    import torch._inductor.config as inductor_config

    current = inductor_config.get_config_copy()
    for name, value in config.items():
        if name not in current:
            raise ValueError(f"torch._inductor.config has no setting {name!r}")
        problem = typed_setting_problem(name, current[name], value)
        if problem:
            raise ValueError(f"torch._inductor.config: {problem}")
    for name, value in config.items():
        *parents, leaf = name.split(".")
        holder = inductor_config
        for part in parents:
            holder = getattr(holder, part)
        setattr(holder, leaf, value)


# Set per compilation by collect run itself (an empty folder each time): not a setting of the study
OWN_VARIABLES = ("TORCHINDUCTOR_CACHE_DIR",)


def compile_settings(settings: dict, environ: dict) -> dict:
    """The record's Inductor settings of a compiled latency: ``inductor_config``
    (what the study set) and ``inductor_environment`` (the ``TORCHINDUCTOR_*``
    variables of ``environ`` but the cache folder), each left out when empty."""
    out = {}
    if settings.get("inductor_config"):
        out["inductor_config"] = dict(settings["inductor_config"])
    variables = {name: value for name, value in sorted(environ.items())
                 if name.startswith("TORCHINDUCTOR_") and name not in OWN_VARIABLES}
    if variables:
        out["inductor_environment"] = variables
    return out


def uses_cuda_graphs(settings: dict) -> bool:
    """Inductor's reduce-overhead and max-autotune modes replay CUDA graphs (cudagraph trees)."""
    return settings["compile_backend"] == "inductor" and settings["compile_mode"] in CUDA_GRAPH_MODES


def cudagraph_skips() -> int:
    """Inductor's count of compiled graphs it ran without CUDA graphs (``counters["inductor"]["cudagraph_skips"]``)."""
    from torch._dynamo.utils import counters

    return int(counters["inductor"]["cudagraph_skips"])


def cuda_graph_report(skips_before: int, settings: dict) -> dict | None:
    """``{"skipped_graphs": n}`` for a compile mode that uses CUDA graphs, else None.

    Inductor skips CUDA graphs for a compiled graph it cannot capture (CPU tensors,
    mutated inputs...) and runs it launch by launch; n counts those graphs, so the
    record says whether the timed forward replayed graphs throughout.
    """
    if not uses_cuda_graphs(settings):
        return None
    return {"skipped_graphs": cudagraph_skips() - skips_before}


def forward_call(forward, inputs: list, cuda_graphs: bool):
    """``call(i)``: one forward on ``inputs[i % len(inputs)]`` (pixel values, batch x 3 x H x W).

    With CUDA graphs each call starts a new cudagraph-tree step, so a replay may
    reuse the memory of the previous forward's outputs (which nothing holds).
    """
    if not cuda_graphs:
        return lambda i: forward(pixel_values=inputs[i % len(inputs)])
    import torch

    def call(i):
        torch.compiler.cudagraph_mark_step_begin()
        return forward(pixel_values=inputs[i % len(inputs)])

    return call
