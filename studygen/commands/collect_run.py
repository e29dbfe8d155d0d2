"""``studygen collect run``: measure a study on this machine (PyTorch backend).

Example (one H200, the eager part of the grid)::

    studygen collect run --study families/deformable_detr_h200_torch/study.yaml \\
        --job h200-eager --modes eager --commit "$(git rev-parse HEAD)"

Exit codes: 0 when the record was written; 2 for a bad option, a bad study
file or dataset definition, an existing record without ``--resume``, no
CUDA device without ``--cpu``, or a failed ModelOpt calibration.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from .common import root_option


def _split(values: tuple[str, ...]) -> list[str] | None:
    """``('fp16,bf16', 'fp32')`` → ``['fp16', 'bf16', 'fp32']``; empty → None."""
    items = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return items or None


def _study_dir(study: Path):
    from ..errors import UsageError
    from ..study import STUDY_FILE

    folder = study.parent if study.name == STUDY_FILE else study
    if not (folder / STUDY_FILE).is_file():
        raise UsageError(f"--study {study}: no {STUDY_FILE} there")
    return folder.resolve()


@click.command("run")
@click.option("--study", "study", required=True, type=click.Path(path_type=Path),
              help="The study file (families/<f>/study.yaml) or its folder.")
@click.option("--job", "job", required=True, help="Job id: the record is measurements/<family>/<job>.json.")
@click.option("--variants", "variants", multiple=True, help="Variants to measure (comma-separated; default: all).")
@click.option("--shapes", "shapes", multiple=True, help="Shapes HxW to measure (comma-separated; default: the study's).")
@click.option("--modes", "modes", multiple=True, help="eager and/or compile (default: the study's).")
@click.option("--shard", "shard", default=None, help="K/N: measure the K-th of N slices of the variant x shape grid.")
@click.option("--resume", is_flag=True, help="Add the missing results to an existing record of this job.")
@click.option("--measurements", "measurements", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Records folder (default: the study's, measurements/<family>/).")
@click.option("--commit", "commit", default=None,
              help="Repository commit to record when the checkout has no .git (default: git rev-parse HEAD).")
@click.option("--dirty/--clean", "dirty", default=None,
              help="With --commit: whether the working tree had uncommitted changes.")
@click.option("--merge-ap", "merge_ap", type=click.IntRange(min=1), default=None,
              help="Evaluate COCO AP once over the detections of N shards of --job (writes <job>-ap.json).")
@click.option("--quiet", is_flag=True, help="No progress bars or log lines.")
@click.option("--cpu", "cpu", is_flag=True,
              help="Run on the CPU (test configs only: latency is end-to-end wall time, not GPU compute). "
                   "Without it, a machine with no CUDA device is refused.")
@root_option
def run_command(study, job, variants, shapes, modes, shard, resume, measurements, commit, dirty, merge_ap, quiet, cpu,
                root):
    """Measure a study's variants (latency, kernel time per group, agreement) with PyTorch and write its record."""
    from ..collect.run.runner import RunOptions, command_line, run_study
    from ..collect.run.spec import parse_shape, parse_shard
    from ..errors import UsageError
    from .common import resolve_root

    if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", job):
        raise UsageError(f"invalid --job {job!r}: letters, digits, '.', '_' and '-', starting with a letter or digit")
    project_root = resolve_root(root)
    shape_list = _split(shapes)
    for shape in shape_list or []:
        try:
            parse_shape(shape)
        except UsageError as exc:
            raise UsageError(f"--shapes: {exc.message}") from None
    options = RunOptions(root=project_root, study_dir=_study_dir(study), job=job, variants=_split(variants),
                         shapes=shape_list, modes=_split(modes), shard=parse_shard(shard), resume=resume,
                         measurements=measurements.resolve() if measurements else None, commit=commit, dirty=dirty,
                         command=command_line(click.get_current_context().params), quiet=quiet,
                         merge_ap=merge_ap, cpu=cpu)
    record = run_study(options)
    click.echo(f"wrote {record.display}: {len(record.results)} results")
