"""The grid of cells a study file's ``run`` block declares for ``collect run``.

One (mode, shape, variant) per cell, in the order the study lists them:
every mode of ``run.modes``, every shape of ``run.shapes``, every variant;
compiled cells only for ``run.compile_variants`` at ``run.compile_shapes``
where the study gives them. Shared by the run plan
(:mod:`studygen.collect.run.spec`, which measures the grid) and SG219
(:mod:`studygen.checks.sg219_unmeasured_variant`, which asks a result of
every declared shape), so the two never disagree on what a study declared.
"""

from __future__ import annotations


def grid(run: dict, variants: list[str]) -> list[tuple[str, str, str]]:
    """``[(mode, shape, variant), ...]`` of ``run`` (a study's run block with
    ``shapes`` and ``modes`` present) for the declared ``variants``."""
    compile_variants = run.get("compile_variants") or variants
    compile_shapes = [str(s) for s in (run.get("compile_shapes") or run["shapes"])]
    cells = []
    for mode in run["modes"]:
        for shape in (str(s) for s in run["shapes"]):
            for name in variants:
                if mode == "compile" and (name not in compile_variants or shape not in compile_shapes):
                    continue
                cells.append((mode, shape, name))
    return cells
