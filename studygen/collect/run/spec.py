"""What ``collect run`` measures, read from the study file.

The study file (``families/<f>/study.yaml``, validated against
schemas/study.schema.json by :func:`studygen.study.load_study`) names the
model, the variants with their precision and recipe, and under ``run`` the
shapes, modes, iteration counts and image sets. This module turns that into a
:class:`RunPlan`: the grid of :class:`Cell` (mode, shape HxW, variant) to time,
split by ``--shard K/N``. Nothing here imports torch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...errors import RecordError, UsageError
from ...records.inductor_settings import inductor_config_problem
from ...records.run_grid import grid
from ..kernel_groups import KernelGroupRules, default_rules, rules_from_study
from .compile_rule import AUTO, DEFAULT_RULE

SHAPE = re.compile(r"^([1-9][0-9]*)x([1-9][0-9]*)$")
MODES = ("eager", "compile")
PRECISIONS = ("fp32", "fp16", "bf16", "fp8")

DEFAULT_RUN = {
    "shapes": ["800x800"],
    "modes": ["eager"],
    "batch": 1,
    "warmup_iterations": 10,
    "iterations": 50,
    "repeats": 5,
    "profile_iterations": 5,
    "compile_backend": "inductor",
    "compile_mode": "default",
    "host_sync": "per_repeat",
    # Kernel names that prove an FP8 GEMM ran (cuBLASLt nvjet "qq" = both operands FP8 on Hopper;
    # CUTLASS and xmma kernels carry e4m3 in their names) and those of ModelOpt's fake quantization.
    "fp8_gemm_kernel_pattern": r"e4m3|e5m2|f8f8|nvjet\w*_qq|fp8_gemm",
    "fake_quant_kernel_pattern": r"fake_e4m3fy|fake_quant|fake_tensor_quant",
    "unstable_cv": 0.05,
    # independent compilations per compiled cell (own process, empty Inductor cache each): N or "auto"
    # (compile_rule.py: the rule in run.compilation_rule)
    "compilations": 3,
    # torch._inductor.config settings applied before compiling (name -> value), recorded with each compiled latency
    "inductor_config": {},
    # pin the measuring process to half of its cores while it times (CUDA only)
    "pin_timing": True,
}


@dataclass(frozen=True)
class Cell:
    """One timing cell: ``mode`` (eager|compile), ``shape`` ``HxW`` in pixels, ``variant`` name."""

    mode: str
    shape: str
    variant: str

    @property
    def height_width(self) -> tuple[int, int]:
        return parse_shape(self.shape)


@dataclass
class RunPlan:
    """Everything a run needs from the study file, resolved.

    ``cells`` is this shard's part of the grid in order (mode, shape, variant
    as the study lists them); ``settings`` the ``run`` block with defaults
    filled in; ``variants`` maps name → study variant entry; ``recipes`` the
    study's recipes; ``agreement`` the thresholds and reference variant;
    ``kernel_rules`` the study's kernel-group rules, compiled.
    """

    family: str
    model: dict
    variants: dict[str, dict]
    recipes: dict[str, dict]
    settings: dict
    agreement: dict
    cells: list[Cell]
    shard: tuple[int, int] = (1, 1)
    kernel_rules: KernelGroupRules = field(default_factory=default_rules)
    all_cells: list[Cell] = field(default_factory=list)

    @property
    def reference_variant(self) -> str:
        return self.agreement["reference_variant"]

    @property
    def agreement_shape(self) -> str:
        return self.agreement.get("shape") or self.settings["shapes"][0]

    def precision(self, variant: str) -> str:
        return self.variants[variant]["precision"]

    def recipe(self, variant: str) -> dict | None:
        name = self.variants[variant].get("recipe")
        return self.recipes.get(name) if name else None

    def groups(self) -> list[tuple[str, str, list[str]]]:
        """This shard's cells grouped for interleaving: ``[(mode, shape, [variant, ...])]``."""
        out: list[tuple[str, str, list[str]]] = []
        for cell in self.cells:
            if out and out[-1][0] == cell.mode and out[-1][1] == cell.shape:
                out[-1][2].append(cell.variant)
            else:
                out.append((cell.mode, cell.shape, [cell.variant]))
        return out

    def variants_in_shard(self) -> list[str]:
        """Variants that this shard times, plus the reference when agreement is computed here."""
        names = [c.variant for c in self.cells]
        if self.agreement_variants():
            names.append(self.reference_variant)
        return [v for v in self.variants if v in names]

    def calibrated_variants(self, chosen: list[str] | None = None) -> list[str]:
        """The variants among ``chosen`` (default: every declared one) that
        ModelOpt calibrates on ``run.calibration_set``: the FP8 ones. Not
        narrowed to a shard, so every shard of a job needs the same sets."""
        return [name for name in (chosen or self.variants) if self.precision(name) == "fp8"]

    def agreement_variants(self) -> list[str]:
        """Non-reference variants whose agreement this shard computes: those
        whose eager cell at the agreement shape belongs to it (so each
        agreement figure is computed by exactly one shard)."""
        return [c.variant for c in self.cells
                if c.mode == "eager" and c.shape == self.agreement_shape and c.variant != self.reference_variant]


def parse_shape(shape: str) -> tuple[int, int]:
    """``'800x1067'`` → ``(800, 1067)`` (height, width in pixels). Raises UsageError."""
    match = SHAPE.match(shape or "")
    if not match:
        raise UsageError(f"invalid shape {shape!r}: write HxW in pixels, e.g. 800x1067")
    return int(match.group(1)), int(match.group(2))


def parse_shard(text: str | None) -> tuple[int, int]:
    """``'2/4'`` → ``(2, 4)``; ``None`` → ``(1, 1)``. K is 1-based. Raises UsageError."""
    if not text:
        return 1, 1
    match = re.match(r"^([1-9][0-9]*)/([1-9][0-9]*)$", text)
    if not match or int(match.group(1)) > int(match.group(2)):
        raise UsageError(f"invalid --shard {text!r}: write K/N with 1 <= K <= N, e.g. 2/4")
    return int(match.group(1)), int(match.group(2))


def shard_cells(cells: list[Cell], shard: tuple[int, int]) -> list[Cell]:
    """Shard K of N: the K-th of N contiguous, near-equal slices of ``cells``.

    Contiguous slices keep the variants of one (mode, shape) together where the
    split allows, so they can still be interleaved. Sizes differ by at most one;
    a shard may be empty when N exceeds the number of cells.
    """
    index, count = shard
    total = len(cells)
    start = (index - 1) * total // count
    stop = index * total // count
    return cells[start:stop]


def build_plan(spec: dict, *, study_path: str, variants: list[str] | None = None, shapes: list[str] | None = None,
               modes: list[str] | None = None, shard: tuple[int, int] = (1, 1)) -> RunPlan:
    """The run plan for a validated study mapping ``spec``.

    ``variants``/``shapes``/``modes`` restrict the grid (each must be one the
    study declares). Compiled cells are limited to ``run.compile_variants`` and
    ``run.compile_shapes`` when the study gives them. Raises RecordError
    (pointer into the study file) for a variant whose precision this backend
    cannot run, an invalid shape or kernel-group pattern, UsageError for an
    unknown selection.
    """
    run = _whole_numbers({**DEFAULT_RUN, **(spec.get("run") or {})})
    declared = {v["name"]: v for v in spec["variants"]}
    _check_variants(spec, study_path)
    _check_shapes_and_modes(spec, run, study_path)
    _check_compilation_rule(run, study_path)
    _check_inductor_config(run, study_path)
    agreement = _agreement(spec, declared, study_path)
    chosen_variants = _select(variants, list(declared), "variant")
    chosen_shapes = _select(shapes, [str(s) for s in run["shapes"]], "shape")
    chosen_modes = _select(modes, list(run["modes"]), "mode")
    all_cells = _grid(run, list(declared))
    selected = [c for c in all_cells
                if c.mode in chosen_modes and c.shape in chosen_shapes and c.variant in chosen_variants]
    return RunPlan(
        family=spec["family"], model=spec["model"], variants=declared, recipes=spec.get("recipes") or {},
        settings=run, agreement=agreement, cells=shard_cells(selected, shard), shard=shard,
        kernel_rules=rules_from_study(spec, study_path), all_cells=all_cells,
    )


def _whole_numbers(run: dict) -> dict:
    """``run`` with each count the study schema types ``integer`` (batch,
    repeats, iterations, ...: the whole-number defaults of :data:`DEFAULT_RUN`)
    as an int: JSON Schema's ``integer`` takes any number without a fraction,
    so ``batch: 2.0`` passed the schema and then stopped a run mid-way with an
    internal error (``range`` takes no float), its record half written."""
    return {key: int(value) if isinstance(DEFAULT_RUN.get(key), int) and not isinstance(DEFAULT_RUN[key], bool)
            and isinstance(value, float) and value.is_integer() else value for key, value in run.items()}


def _check_variants(spec: dict, study_path: str) -> None:
    """Each variant's precision is one collect run measures; FP8 names a recipe that lists modules."""
    for index, entry in enumerate(spec["variants"]):
        if entry["precision"] not in PRECISIONS:
            raise RecordError(f"precision {entry['precision']!r} is not supported by collect run "
                              f"(supported: {', '.join(PRECISIONS)})", path=study_path, pointer=f"/variants/{index}/precision")
        if entry["precision"] == "fp8":
            recipe = entry.get("recipe")
            if not recipe or recipe not in (spec.get("recipes") or {}):
                raise RecordError(f"FP8 variant {entry['name']!r} needs a recipe defined under recipes",
                                  path=study_path, pointer=f"/variants/{index}/recipe")
            if not (spec["recipes"][recipe].get("quantize")):
                raise RecordError(f"recipe {recipe!r} lists no module patterns under quantize",
                                  path=study_path, pointer=f"/recipes/{recipe}")


def _check_shapes_and_modes(spec: dict, run: dict, study_path: str) -> None:
    """Every shape is HxW with whole numbers above 0; every mode eager or compile."""
    for field_name in ("shapes", "compile_shapes"):
        for index, shape in enumerate(run.get(field_name) or []):
            if not SHAPE.match(str(shape)):
                raise RecordError(f"invalid shape {shape!r}: write HxW in pixels, each a whole number above 0",
                                  path=study_path, pointer=f"/run/{field_name}/{index}")
    agreement_shape = (spec.get("agreement") or {}).get("shape")
    if agreement_shape is not None and not SHAPE.match(str(agreement_shape)):
        raise RecordError(f"invalid shape {agreement_shape!r}: write HxW in pixels, each a whole number above 0",
                          path=study_path, pointer="/agreement/shape")
    for index, mode in enumerate(run["modes"]):
        if mode not in MODES:
            raise RecordError(f"unknown mode {mode!r} (eager or compile)", path=study_path, pointer=f"/run/modes/{index}")


def _check_compilation_rule(run: dict, study_path: str) -> None:
    """``run.compilation_rule`` of an ``auto`` count: at_most not below at_least, and
    consecutive_inside below at_least (the first compilation has no range to fall inside)."""
    if run["compilations"] != AUTO:
        return
    rule = {**DEFAULT_RULE, **(run.get("compilation_rule") or {})}
    if rule["at_most"] < rule["at_least"]:
        raise RecordError(f"compilation_rule.at_most {rule['at_most']} is below at_least {rule['at_least']}",
                          path=study_path, pointer="/run/compilation_rule/at_most")
    if rule["consecutive_inside"] >= rule["at_least"]:
        raise RecordError(f"compilation_rule.consecutive_inside {rule['consecutive_inside']} must be below at_least "
                          f"{rule['at_least']}: the first compilation has no range to fall inside",
                          path=study_path, pointer="/run/compilation_rule/consecutive_inside")


def _check_inductor_config(run: dict, study_path: str) -> None:
    """Each ``run.inductor_config`` setting is a switch or a number Inductor
    compiles by, never a debug, file or program setting
    (:mod:`studygen.records.inductor_settings`; whether Inductor has it, and
    of that type, is checked when compiling)."""
    problem = inductor_config_problem({"run": run})
    if problem:
        raise RecordError(problem[1], path=study_path, pointer=problem[0])


def _agreement(spec: dict, declared: dict[str, dict], study_path: str) -> dict:
    """The study's agreement block with defaults: the first fp32 variant as
    reference, score threshold 0, IoU threshold 0.5."""
    agreement = dict(spec.get("agreement") or {})
    agreement.setdefault("reference_variant", next((v for v, e in declared.items() if e["precision"] == "fp32"), None))
    if agreement["reference_variant"] not in declared:
        raise RecordError(f"agreement reference variant {agreement['reference_variant']!r} is not a declared variant",
                          path=study_path, pointer="/agreement/reference_variant")
    agreement.setdefault("score_threshold", 0.0)
    agreement.setdefault("iou_threshold", 0.5)
    return agreement


def _grid(run: dict, variants: list[str]) -> list[Cell]:
    """Every cell of the study in order (mode, shape, variant); compiled cells
    only for ``run.compile_variants`` at ``run.compile_shapes`` when given
    (:func:`studygen.records.run_grid.grid`)."""
    return [Cell(*cell) for cell in grid(run, variants)]


def _select(chosen: list[str] | None, declared: list[str], what: str) -> list[str]:
    if not chosen:
        return declared
    unknown = [c for c in chosen if c not in declared]
    if unknown:
        raise UsageError(f"unknown {what} {', '.join(map(repr, unknown))}: the study declares {', '.join(declared)}")
    return chosen
