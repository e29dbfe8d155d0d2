"""SG219 declared variant without results: a variant the study file
declares that no record gives any result (figure or not-measured result),
and that the study file's ``not_measured`` list does not name either. The
README's tables leave it out without a word: say why it is missing
(``not_measured``: config, reason), collect it, or remove it. An error once
the study file says it is ready to publish (``status: ready``, the default),
a warning while it says ``status: draft`` (:func:`studygen.study.scaffold.unfinished_severity`).

Case (issue 22): a study declared fp32 and fp16, collected fp16 only; the
README never mentioned fp32 and ``check`` said 0 errors. Where a
``not_measured`` entry names no declared variant but is close to this one's
name, label or recipe (``in8`` for ``int8``: :func:`likely_typo`), the hint
points at that entry instead of asking for one that is already there.

A shape the study file declares under ``run.shapes`` is asked of every
variant that has results the same way: a variant with no result of any kind
(a figure or a ``not_measured`` result) at that shape, in each mode of
``run.modes`` where the study gives them (compiled cells only where
``run.compile_variants`` and ``run.compile_shapes`` put them: the grid of
:func:`studygen.records.run_grid.grid`, which ``collect run`` measures), is a
finding at the shape's line, unless a ``not_measured`` entry (or alias) is
the shape as ``run.shapes`` writes it. A variant with no result at all is the
variant finding above, not one per shape. Case (GPU trial): a ViT built for
224x224, with ``run.shapes: [224x224, 256x256]``; the run stopped at 256x256
and the README said nothing of that shape, under no heading.

A variant that results of other variants were measured against (their
``reference_variant``: an agreement figure, an AP or kernel-time
difference) ran too, to give them, and the README names it ("Agreement
with fp32"): it has results. Case (a new user's trial, session 29): a study
of agreement figures collected from a file of the user's own had its fp32
reference declared, as the study guide says, and was told to collect fp32,
list it as not measured (which then made SG206 report the template's
"Agreement with fp32" heading) or remove it (which made every agreement
figure an SG202 error).

Nothing is reported while a file of the study failed to load (SG202;
:attr:`studygen.study.Study.has_unread_files`), as SG216 reports no
unmatched waiver then: the results the check looks for may be in that file.
A study with no record yet is still checked. Case (attack round): a record
whose ``value_ms`` disagreed with its own median was refused, and the
variant its results measured was said to have none.
"""

from __future__ import annotations

import difflib

from ..findings import Finding
from ..records.load import yaml_line
from ..records.run_grid import grid
from ..study.scaffold import unfinished_severity


def check(context) -> list[Finding]:
    study = context.study
    if study.has_unread_files:
        return []  # a variant's results may lie in the record SG202 names: their absence proves nothing
    with_results = {row.variant for row in study.rows}
    ran = with_results | referenced_variants(study)  # a reference's shapes are its measured variants' own
    named = set()
    for entry in study.declared_not_measured:
        named.update([entry["config"], *entry.get("aliases", [])])
    findings, severity = [], unfinished_severity(study.spec)
    declared = {v["name"] for v in study.spec["variants"]} | {v["label"] for v in study.spec["variants"] if v.get("label")}
    unmatched = [config for config in named if config not in declared]
    for index, variant in enumerate(study.spec["variants"]):
        name = variant["name"]
        if name in ran or name in named or variant.get("label") in named:
            continue
        typo = likely_typo(variant, unmatched)
        # the entry's own keys: a user told only "add it under not_measured" wrote `variant: fp32` and met a schema
        # error naming the key it refused, not the one it takes (session 30's new user)
        hint = (f"collect {name}, add it under not_measured with the reason it was not measured "
                f"(- {{config: {name}, reason: WHY}}), or remove it")
        if typo:
            hint = f"not_measured names {typo!r}, which is no variant: if it means {name}, correct it there; else {hint}"
        findings.append(Finding(
            "SG219", f"variant {name} is declared, but no record has a result for it and not_measured does not name it",
            study.rel(study.study_path), line=yaml_line(study.spec_text, "variants", index),
            pointer=f"/variants/{index}", severity=severity, hint=hint))
    return findings + _unmeasured_shapes(study, with_results, named, severity)


def referenced_variants(study) -> set[str]:
    """The variants rows were measured against (``reference_variant`` of an
    agreement, AP-difference or kernel-time-difference result)."""
    return {row.result["reference_variant"] for row in study.rows if row.result.get("reference_variant")}


def _unmeasured_shapes(study, with_results: set[str], named: set[str], severity: str) -> list[Finding]:
    """One finding per (variant with results, shape of ``run.shapes``) whose
    cells of the declared grid hold no result, naming the modes that lack one
    when ``run.modes`` is given (see the module docstring)."""
    run = study.spec.get("run") or {}
    if not run.get("shapes"):
        return []
    modes_given = bool(run.get("modes"))
    cells = grid({**run, "modes": run.get("modes") or [None]}, [v["name"] for v in study.spec["variants"]])
    present = {(row.variant, str(row.shape), row.mode) for row in study.rows}
    any_mode = {(variant, shape) for variant, shape, _ in present}
    missing: dict[tuple[str, str], list[str]] = {}
    for mode, shape, variant in cells:
        if variant not in with_results or shape in named:
            continue
        measured = (variant, shape, mode) in present if modes_given else (variant, shape) in any_mode
        if not measured:
            missing.setdefault((variant, shape), []).append(mode)
    findings = []
    shapes = [str(s) for s in run["shapes"]]
    for (variant, shape), modes in missing.items():
        index = shapes.index(shape)
        which = f" ({', '.join(modes)})" if modes_given else ""
        findings.append(Finding(
            "SG219", f"variant {variant} is declared at shape {shape} (run.shapes), but no record has a result for it "
                     f"there{which} and not_measured does not name it",
            study.rel(study.study_path), line=yaml_line(study.spec_text, "run", "shapes", index),
            pointer=f"/run/shapes/{index}", severity=severity,
            hint=_shape_hint(variant, shape, modes, measured_elsewhere=(variant, shape) in any_mode)))
    return findings


def _shape_hint(variant: str, shape: str, modes: list, measured_elsewhere: bool) -> str:
    """What to do about ``variant`` lacking results at ``shape`` in
    ``modes``. Where another mode of that shape has results, a
    ``not_measured`` entry for the shape would say no mode of it was
    measured (SG106 then fires on the measured rows: a new user's trial, 19
    warnings), so the hint names the cells to collect, or for compiled cells
    the grid's own settings (``run.compile_shapes``, ``run.compile_variants``)."""
    if not measured_elsewhere:  # also whenever run.modes is not given: then any result at the shape counts
        return (f"collect {variant} at {shape}, add {shape} under not_measured with the reason it was not measured, "
                "or remove it from run.shapes")
    collect = (f"collect {variant} at {shape} in {' and '.join(modes)} "
               f"(collect run --variants {variant} --shapes {shape} --modes {','.join(modes)})")
    shape_note = f"not_measured {shape} would say no mode of {shape} was measured"
    if modes == ["compile"]:
        return (f"{collect}, or leave the cell out of the compiled grid (run.compile_shapes and "
                f"run.compile_variants name what is compiled); {shape_note}")
    return f"{collect}; {shape_note}"


# How alike (difflib's ratio, 0 to 1) a not_measured name and a variant's name, label or recipe must be to be
# taken for a typo of it: "in8" and "int8" score 0.86, "fp61" and "fp16" 0.75, "fp8" and "fp16" 0.57.
TYPO_RATIO = 0.7


def likely_typo(variant: dict, unmatched: list[str]) -> str | None:
    """The entry of ``unmatched`` (not_measured names and aliases that name
    no declared variant) closest to the variant's name, label or recipe,
    compared without case by :class:`difflib.SequenceMatcher`, when it
    scores at least :data:`TYPO_RATIO`; None otherwise."""
    targets = [str(t).casefold() for t in (variant["name"], variant.get("label"), variant.get("recipe")) if t]
    scored = [(max(difflib.SequenceMatcher(None, config.casefold(), t).ratio() for t in targets), config)
              for config in sorted(unmatched)]
    ratio, config = max(scored, key=lambda pair: pair[0], default=(0.0, None))  # the first of equals, in name order
    return config if ratio >= TYPO_RATIO else None
