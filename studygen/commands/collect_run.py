"""``studygen collect run``: measure a study on this machine (PyTorch backend).

Example (one H200, the eager part of the grid)::

    studygen collect run --study families/deformable_detr_h200_torch/study.yaml \\
        --job h200-eager --modes eager --commit "$(git rev-parse HEAD)"

The command loads the study (:func:`studygen.study.load_study`), resolves
what the run needs as plain data (:class:`~studygen.collect.run.context.RunInputs`:
the run plan, the image-set definitions, the COCO setup, the measurements
folder) and hands the runner a record store
(:class:`~studygen.collect.run.record.RunRecordStore`) that persists each
result; :func:`collect_run` is that path, callable from Python as from the CLI.

Exit codes: 0 when the record was written; 1 when it was written but a cell
of the grid failed (its forward or its compilation raised: the record holds it
as a ``not_measured`` latency, and stderr names each such cell); 2 for a bad
option, a bad study file or dataset definition, an existing record without
``--resume``, no CUDA device without ``--cpu``, or a failed ModelOpt calibration.
"""

from __future__ import annotations

import math
import shlex
import time
from dataclasses import replace
from pathlib import Path

import click

from ..collect.run.ap_stage import merge_ap
from ..collect.run.coco_ap import coco_setup
from ..collect.run.context import ImageSetDefinition, RunInputs, RunOptions
from ..collect.run.launcher import shard_option
from ..collect.run.record import RunRecord, RunRecordStore
from ..collect.run.runner import run_study
from ..collect.run.spec import build_plan, parse_shape
from ..errors import EXIT_FINDINGS, RecordError, UsageError
from ..fsutil import shown_path
from ..records.inductor_settings import ALLOWED_TYPES, setting_name_problem
from ..records.load import load_dataset
from ..records.names import validate_job_id
from ..study import STUDY_FILE, Study, at_yaml_line, load_study
from . import COLLECT_COMMANDS, command
from .common import resolve_root, root_option


def collect_run(options: RunOptions) -> RunRecord:
    """Measure the study in ``options.study_dir`` (or, with ``merge_ap``, merge
    the AP of its shards) and return the record written.

    Raises UsageError / RecordError / InputError for bad options or inputs
    (before anything is written; an error inside the study file names its
    line), ConflictError when the record exists without ``--resume``.
    """
    started = time.perf_counter()
    study = load_study(options.study_dir, options.root)
    study_path = shown_path(study.study_path, options.root)
    try:
        inputs = run_inputs(study, options, study_path)
        store = RunRecordStore(root=options.root, measurements=inputs.measurements, family=inputs.plan.family,
                               description=inputs.description, resume=options.resume)
        if options.merge_ap:
            return merge_ap(inputs, options, store)
        calibrated = inputs.plan.calibrated_variants(options.variants)
        calibration_set = image_set(study, inputs, "calibration_set", needed_by=calibrated) if calibrated else None
        inputs = replace(inputs, calibration_set=calibration_set, agreement_set=image_set(study, inputs, "agreement_set"))
        return run_study(inputs, options, store, started=started)
    except RecordError as exc:
        if exc.path != study_path:
            raise
        raise at_yaml_line(exc, study.spec_text) from None  # the study file's line, as check prints it


def run_inputs(study: Study, options: RunOptions, study_path: str) -> RunInputs:
    """The run plan of ``study`` for ``options`` (selection, shard), its COCO
    setup and measurements folder. Raises RecordError (pointer into the study
    file) or UsageError (an unknown selection)."""
    plan = build_plan(study.spec, study_path=study_path, variants=options.variants, shapes=options.shapes,
                      modes=options.modes, shard=options.shard)
    if options.pin_timing is not None:
        plan.settings["pin_timing"] = options.pin_timing
    plan.settings["inductor_config"] = {**plan.settings["inductor_config"], **options.inductor}
    coco = coco_setup(study.spec.get("run") or {}, root=options.root, study_path=study_path,
                      default_shape=plan.agreement_shape)
    return RunInputs(plan=plan, study_path=study_path, measurements=options.measurements or study.measurements_dir,
                     description=study.spec.get("title"), coco=coco)


def image_set(study: Study, inputs: RunInputs, key: str, needed_by: list[str] | None = None) -> ImageSetDefinition:
    """The dataset definition the study names under ``run.<key>``;
    ``needed_by`` the variants that use it, named when it is unset. Raises
    RecordError when the key is unset, the definition is missing, or it
    failed to load (its own file and place)."""
    datasets = f"{shown_path(study.measurements_dir, study.root)}/datasets"
    dataset_id = inputs.plan.settings.get(key)
    if not dataset_id:
        users = (f" (FP8 variant{'s' if len(needed_by) > 1 else ''} {', '.join(map(repr, needed_by))} "
                 f"{'are' if len(needed_by) > 1 else 'is'} calibrated on it)") if needed_by else ""
        raise RecordError(f"run.{key} is not set{users}: name a dataset definition under {datasets}/",
                          path=inputs.study_path, pointer="/run")
    dataset = study.datasets.get(dataset_id)
    if dataset is None:
        path = study.measurements_dir / "datasets" / f"{dataset_id}.json"
        if path.is_file():  # present but refused by the study's loading: the same error, with its place
            load_dataset(path, shown_path(path, study.root))
        raise RecordError(f"run.{key} names {dataset_id!r}, but no dataset definition {datasets}/{dataset_id}.json "
                          "exists", path=inputs.study_path, pointer=f"/run/{key}")
    return ImageSetDefinition(dataset_id, dataset.display_path, dataset.data)


def _split(values: tuple[str, ...]) -> list[str] | None:
    """``('fp16,bf16', 'fp32')`` → ``['fp16', 'bf16', 'fp32']``; empty → None."""
    items = [v.strip() for value in values for v in value.split(",") if v.strip()]
    return items or None


def _study_dir(study: Path) -> Path:
    folder = study.parent if study.name == STUDY_FILE else study
    if not (folder / STUDY_FILE).is_file():
        raise UsageError(f"--study {study}: no {STUDY_FILE} there")
    return folder.resolve()


def run_options(params: dict) -> RunOptions:
    """:class:`RunOptions` from click's parsed ``params`` of ``collect run``.
    Raises UsageError for an invalid --job, --root, --shapes, --study or --shard
    (``--shard auto``: no or an incomplete launcher environment, see
    :mod:`studygen.collect.run.launcher`)."""
    job = validate_job_id(params["job"], "--job")  # whole (not 'j\n'), bounded, no Windows device name
    study_dir = _study_dir(params["study"])
    given = params["study"]
    # the project the study folder lies in, as check and render find it for a folder target (a study in another
    # project than the working directory's read that project's dataset files and wrote records into this one's)
    project_root = resolve_root(params["root"], (str(given.parent if given.name == STUDY_FILE else given),))
    shape_list = _split(params["shapes"])
    for shape in shape_list or []:
        try:
            parse_shape(shape)
        except UsageError as exc:
            raise UsageError(f"--shapes: {exc.message}") from None
    measurements = params["measurements"]
    placement = shard_option(params["shard"])
    deadline = None if params["time_limit"] is None else time.monotonic() + params["time_limit"]
    return RunOptions(root=project_root, study_dir=study_dir, job=job,
                      variants=_split(params["variants"]), shapes=shape_list, modes=_split(params["modes"]),
                      shard=placement.shard, launcher=placement.launcher, local_rank=placement.local_rank,
                      resume=params["resume"],
                      measurements=measurements.resolve() if measurements else None, commit=params["commit"],
                      dirty=params["dirty"], command=command_line(params), quiet=params["quiet"],
                      merge_ap=params["merge_ap"], cpu=params["cpu"], deadline=deadline,
                      pin_timing=params["pin_timing"], inductor=inductor_settings(_split(params["inductor"]) or []))


def inductor_settings(items: list[str]) -> dict:
    """``['triton.autotune_pointwise=false', 'coordinate_descent_tuning=1']`` ->
    ``{'triton.autotune_pointwise': False, 'coordinate_descent_tuning': 1}``:
    true/false (any case) become booleans, whole numbers ints, other finite
    numbers floats. Raises UsageError for an item without ``=``, a name that is
    not a dotted identifier or names a debug, file or program setting, or a
    value that is none of these (the rules of a study's run.inductor_config:
    :mod:`studygen.records.inductor_settings`; whether torch._inductor.config
    has the setting, and of that type, is checked when compiling)."""
    settings = {}
    for item in items:
        name, equals, text = item.partition("=")
        if not equals:
            raise UsageError(f"--inductor {item!r}: write NAME=VALUE with a torch._inductor.config name, "
                             "e.g. triton.autotune_pointwise=false")
        problem = setting_name_problem(name)
        if problem:
            raise UsageError(f"--inductor {item!r}: {problem}")
        value = _setting_value(text)
        if value is None:
            raise UsageError(f"--inductor {item!r}: the value is {ALLOWED_TYPES}")
        settings[name] = value
    return settings


def _setting_value(text: str):
    """``text`` as a boolean, int or finite float; None when it is none of them."""
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if math.isfinite(value):
            return value
    return None


def command_line(params: dict) -> str:
    """The ``studygen collect run`` command line of ``params`` (click's parsed options), shell-quoted,
    for the record's ``collector.command``; options left at their defaults are left out."""
    words = ["studygen", "collect", "run"]
    for name, value in params.items():
        if name == "dirty" and value is not None:
            words.append("--dirty" if value else "--clean")
            continue
        if name == "pin_timing" and value is not None:
            words.append("--pin-timing" if value else "--no-pin-timing")
            continue
        if value in (None, False, ()) or name == "quiet":
            continue
        flag = "--" + name.replace("_", "-")
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):
            words += [flag, ",".join(value)]
        else:
            words += [flag, str(value)]
    return " ".join(shlex.quote(w) for w in words)


@command("run", COLLECT_COMMANDS)
@click.option("--study", "study", required=True, type=click.Path(path_type=Path),
              help="The study file (families/<f>/study.yaml) or its folder.")
@click.option("--job", "job", required=True, help="Job id: the record is measurements/<family>/<job>.json.")
@click.option("--variants", "variants", multiple=True, help="Variants to measure (comma-separated; default: all).")
@click.option("--shapes", "shapes", multiple=True, help="Shapes HxW to measure (comma-separated; default: the study's).")
@click.option("--modes", "modes", multiple=True, help="eager and/or compile (default: the study's).")
@click.option("--shard", "shard", default=None,
              help="K/N: measure the K-th of N slices of the variant x shape grid; auto: K and N from the launcher "
                   "(Slurm array or torchrun), pinned to the GPU of LOCAL_RANK.")
@click.option("--resume", is_flag=True, help="Add the missing results to an existing record of this job.")
@click.option("--measurements", "measurements", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Records folder (default: the study's, measurements/<family>/).")
@click.option("--commit", "commit", default=None,
              help="Repository commit to record when the checkout has no .git (default: git rev-parse HEAD).")
@click.option("--dirty/--clean", "dirty", default=None,
              help="With --commit: whether the working tree had uncommitted changes.")
@click.option("--merge-ap", "merge_ap", type=click.IntRange(min=1), default=None,
              help="Evaluate COCO AP once over the detections of N shards of --job (writes <job>-ap.json).")
@click.option("--time-limit", "time_limit", type=click.FloatRange(min=1), default=None,
              help="Seconds from the start: no compilation wave starts that would end later, and compilations not "
                   "finished by then are left out (the record says so).")
@click.option("--pin-timing/--no-pin-timing", "pin_timing", default=None,
              help="Pin the measuring process to half of the cores while it times (default: the study's "
                   "run.pin_timing).")
@click.option("--inductor", "inductor", multiple=True,
              help="NAME=VALUE (comma-separated): torch._inductor.config settings added to the study's "
                   "run.inductor_config for this job, recorded with each compiled latency.")
@click.option("--quiet", is_flag=True, help="No progress bars or log lines.")
@click.option("--cpu", "cpu", is_flag=True,
              help="Run on the CPU (a machine's CUDA device, if any, is left unused): latency is the host clock's "
                   "end-to-end time per forward, kernel time the CPU operators' self time, and the record names the "
                   "CPU, no GPU. Without it, a machine with no CUDA device is refused.")
@root_option
def run_command(**params):
    """The study file's run section sets the grid; --variants, --shapes and --modes narrow it."""
    record = collect_run(run_options(params))
    for failure in record.failed_cells:  # one line each, --quiet or not: a script must see what was not measured
        click.echo(f"studygen: {failure.line()}", err=True)
    if record.failed_cells:
        count = len(record.failed_cells)
        click.echo(f"studygen: {count} cell{'s' if count != 1 else ''} of the grid failed; the record holds "
                   f"{'them' if count != 1 else 'it'} as not measured", err=True)
    click.echo(f"wrote {record.display}: {len(record.results)} results")
    return EXIT_FINDINGS if record.failed_cells else 0
