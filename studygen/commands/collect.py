"""``studygen collect``: turn trtexec output, PyTorch profiler traces and COCO
detections into schema-checked run records; print or merge this machine's
provenance (``env``); ``run`` (measure a study on a GPU node) lives in
``studygen.commands.collect_run`` and is loaded only when invoked.

Every ingest subcommand takes ``--family NAME --job ID`` and optional
``--variant NAME --shape HxW --batch N --measurements DIR`` and writes or
extends ``DIR/NAME/ID.json`` (atomically, schema-checked first, never
overwriting a result). Bad input ends in one line naming the file and the
place, exit 2, nothing written.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import re
import shlex
from pathlib import Path

import click

from .. import __version__
from ..errors import UsageError

SHAPE = re.compile(r"^[1-9][0-9]*x[1-9][0-9]*$")  # HxW, as studygen.collect.run.spec.SHAPE
DEFAULT_VARIANT = "unnamed"
LAZY_SUBCOMMANDS = {
    "run": ("studygen.commands.collect_run", "run_command",
            "Measure a study's variants and shapes on this GPU machine (PyTorch backend)."),
}


# --- the group -----------------------------------------------------------------

def _unavailable_command(name: str, reason: str) -> click.Command:
    def refuse(**_):
        raise UsageError(f"collect {name} is unavailable: {reason}")

    return click.Command(name, callback=refuse, help=f"(unavailable: {reason})", add_help_option=False,
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


class CollectGroup(click.Group):
    """A click group whose ``run`` subcommand is imported on use; when its
    module is missing, ``--help`` lists it as unavailable instead of failing."""

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *LAZY_SUBCOMMANDS])

    def get_command(self, ctx, name):
        if name in LAZY_SUBCOMMANDS:
            module_name, attribute, _ = LAZY_SUBCOMMANDS[name]
            try:
                module = importlib.import_module(module_name)
            except ImportError as exc:
                return _unavailable_command(name, f"{type(exc).__name__}: {exc}")
            command = getattr(module, attribute, None)
            if command is None:
                return _unavailable_command(name, f"{module_name} has no {attribute}")
            return command
        return super().get_command(ctx, name)

    def format_commands(self, ctx, formatter):
        rows = []
        for name in self.list_commands(ctx):
            if name in LAZY_SUBCOMMANDS:
                module_name, _, help_text = LAZY_SUBCOMMANDS[name]
                if importlib.util.find_spec(module_name) is None:
                    help_text = f"(unavailable: module {module_name} is not installed)"
                rows.append((name, help_text))
            else:
                rows.append((name, super().get_command(ctx, name).get_short_help_str(limit=80)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group("collect", cls=CollectGroup)
def collect_group():
    """Turn measurements (trtexec, profiler traces, COCO detections, GPU runs) into records."""


# --- shared options and helpers ------------------------------------------------

def common_options(func):
    """--family --job --variant --shape --batch --measurements --study and the provenance options."""
    options = [
        click.option("--family", required=True, help="Model family (records go to DIR/FAMILY/)."),
        click.option("--job", "job_id", required=True, help="Job id: the record is DIR/FAMILY/JOB.json."),
        click.option("--variant", help="Variant name from the study file (precision and recipe)."),
        click.option("--shape", help="Input shape HxW in pixels, e.g. 800x1067."),
        click.option("--batch", type=click.IntRange(min=1), help="Batch size, when the input does not state it."),
        click.option("--measurements", "measurements_dir", type=click.Path(file_okay=False, path_type=Path),
                     help="Records folder (default: measurements/ under the project root, or ./measurements)."),
        click.option("--study", "study_file", type=click.Path(dir_okay=False, path_type=Path),
                     help="Study file (default: families/FAMILY/study.yaml under the project root, when present)."),
        click.option("--checkpoint", help="Checkpoint measured, ID or ID@REVISION (default: unknown)."),
        click.option("--weights", type=click.Choice(["pretrained", "random-init"]),
                     help="Weights of the checkpoint (default for a new record: pretrained, noted as a default)."),
        click.option("--gpu", help="Measuring GPU model, when the input does not name it."),
        click.option("--software", multiple=True, metavar="NAME=VERSION",
                     help="A software version of the measuring machine (repeatable), when the input does not state it."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def project_root() -> Path | None:
    """The project root (folder holding families/) at or above the cwd, or None."""
    from ..study import find_root

    try:
        return find_root()
    except UsageError:
        return None


def resolve_measurements(measurements_dir: Path | None) -> Path:
    """``--measurements`` or ``<root>/measurements`` or ``./measurements``."""
    if measurements_dir is not None:
        return measurements_dir
    root = project_root()
    return (root or Path.cwd()) / "measurements"


def load_study_spec(family: str, study_file: Path | None) -> tuple[dict | None, str | None]:
    """The study file for ``family`` (validated) and its display path, or
    ``(None, None)`` when there is none. Raises RecordError when invalid."""
    from ..records.load import load_yaml
    from ..records.schemas import validate_document
    from .. import study as study_module

    if study_file is None:
        root = project_root()
        if root is None:
            return None, None
        study_file = root / "families" / family / study_module.STUDY_FILE
        if not study_file.is_file():
            return None, None
    from ..fsutil import shown_path

    shown = shown_path(study_file)
    spec, _ = load_yaml(study_file, shown)
    if not isinstance(spec, dict):
        from ..errors import RecordError

        raise RecordError("study file must be a YAML mapping", path=shown, where="/")
    validate_document("study", spec, path=shown)
    if spec.get("family") != family:
        raise UsageError(f"--family {family} but {shown} is the study of {spec.get('family')!r}")
    return spec, shown


def resolve_variant(variant: str | None, spec: dict | None, study_display: str | None,
                    notes: list[str] | None = None) -> str:
    """The variant: checked against the study's variants when there is a
    study file (its only variant is the default), else as given, else
    ``unnamed`` (with a note appended to ``notes``, as for a defaulted
    ``--weights``)."""
    if spec is None:
        if variant is None and notes is not None:
            notes.append(f"--variant not given and no study file names one: results recorded as variant "
                         f"{DEFAULT_VARIANT!r} (the default)")
        return variant or DEFAULT_VARIANT
    names = [v["name"] for v in spec.get("variants", [])]
    if variant is None:
        if len(names) == 1:
            return names[0]
        raise UsageError(f"give --variant: {study_display} defines {', '.join(names)}")
    if variant not in names:
        raise UsageError(f"unknown variant {variant!r}: {study_display} defines {', '.join(names)}")
    return variant


def check_shape(shape: str | None, option: str = "--shape") -> str | None:
    """``shape`` when it is ``HxW``: height and width in pixels, whole numbers
    above 0 without leading zeros (``800x1067``); None stays None. Raises
    UsageError naming ``option`` otherwise (``0x0`` is no input an engine runs on)."""
    if shape is not None and not SHAPE.match(shape):
        raise UsageError(f"invalid {option} {shape!r}: use HxW in pixels, each a whole number above 0, e.g. 800x1067")
    return shape


def parse_software(pairs: tuple[str, ...]) -> dict[str, str]:
    software = {}
    for pair in pairs:
        name, sep, version = pair.partition("=")
        if not sep or not name or not version:
            raise UsageError(f"invalid --software {pair!r}: use NAME=VERSION, e.g. tensorrt=10.16.1")
        software[name.strip()] = version.strip()
    return software


def checkpoint_block(checkpoint: str | None, weights: str | None) -> dict:
    """``{id, revision, weights}`` from the options; fields not given are
    defaults (id ``unknown``, revision null, weights ``pretrained``) and are
    marked so they never conflict with an existing record."""
    from ..records.write import DEFAULTED

    block, defaulted = {}, []
    if checkpoint:
        ident, sep, revision = checkpoint.partition("@")
        if not ident or (sep and not revision):
            raise UsageError(f"invalid --checkpoint {checkpoint!r}: use ID or ID@REVISION")
        block["id"] = ident
        block["revision"] = revision or None
        if not sep:
            defaulted.append("revision")
    else:
        block.update(id="unknown", revision=None)
        defaulted += ["id", "revision"]
    if weights:
        block["weights"] = weights
    else:
        block["weights"] = "pretrained"
        defaulted.append("weights")
    block[DEFAULTED] = defaulted
    return block


def command_line(ctx: click.Context) -> str:
    """The studygen command as run, rebuilt from the parsed options."""
    parts = ["studygen", "collect", ctx.info_name]
    for param in ctx.command.params:
        if not isinstance(param, click.Option):
            continue
        value = ctx.params.get(param.name)
        if value in (None, False, (), param.default) and not (param.required and value):
            continue
        flag = param.opts[0]
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if item is True:
                parts.append(flag)
            else:
                parts.extend([flag, str(item)])
    return " ".join(shlex.quote(p) for p in parts)


def provenance_block(ctx: click.Context, collector: str, *, gpu: str | None, software: dict, options: dict,
                     notes: list[str], source_names_gpu: bool, gpu_count: int | None = None) -> dict:
    """The provenance a new record gets: the measuring GPU and software from
    the source (options fill what it does not state; disagreeing options
    are refused), the checkpoint options, the collector and this machine as
    the conversion machine."""
    from ..collect.env import conversion_machine, now_iso
    from ..records.write import DEFAULTED

    option_gpu = options.get("gpu")
    if option_gpu and gpu and option_gpu != gpu and source_names_gpu:
        raise UsageError(f"--gpu {option_gpu!r} but the input names the GPU {gpu!r}")
    software = dict(software)
    for name, version in parse_software(options.get("software") or ()).items():
        if software.get(name) not in (None, version):
            raise UsageError(f"--software {name}={version} but the input says {name} {software[name]}")
        software[name] = version
    checkpoint = checkpoint_block(options.get("checkpoint"), options.get("weights"))
    block = {"gpu": gpu or option_gpu}
    if gpu_count:
        block["gpu_count"] = gpu_count
    block.update(software=software, checkpoint=checkpoint, collected_at=now_iso(),
                 collector={"name": collector, "version": __version__, "command": command_line(ctx)},
                 conversion_machine=conversion_machine())
    notes = list(notes)
    if "weights" in checkpoint.get(DEFAULTED, []):
        notes.append("weights not given on the command line: recorded as pretrained (the default)")
    if notes:
        block["notes"] = notes
    return block


def report(outcome) -> None:
    """One line on success (plus notes)."""
    state = "new record" if outcome.created else "record extended"
    click.echo(f"wrote {outcome.display}: {outcome.added} result(s) added ({state})")
    for note in outcome.notes:
        click.echo(f"  note: {note}")


def check_family_known(family: str, measurements_dir: Path | None, study_file: Path | None) -> None:
    """Inside a project, a record of a family without
    ``families/<family>/study.yaml`` belongs to no study and ``studygen
    check`` would never see it: refuse (UsageError, naming the known
    families), unless ``--study`` is given or ``--measurements`` points
    outside the project (a record kept apart from any study)."""
    from .. import study as study_module

    root = project_root()
    if study_file is not None or root is None:
        return
    if (root / "families" / family / study_module.STUDY_FILE).is_file():
        return
    if measurements_dir is not None:
        try:
            measurements_dir.resolve().relative_to(root.resolve())
        except (ValueError, OSError):
            return  # outside the project: not part of any study
    families_dir = root / "families"
    known = sorted(d.name for d in families_dir.iterdir() if (d / study_module.STUDY_FILE).is_file()) \
        if families_dir.is_dir() else []
    raise UsageError(f"unknown --family {family!r}: the project has no families/{family}/{study_module.STUDY_FILE} "
                     f"(known families: {', '.join(known) or 'none'}); give --measurements outside the project "
                     "for a record that belongs to no study")


def prepare(family: str, job_id: str, variant: str | None, shape: str | None, measurements_dir: Path | None,
            study_file: Path | None):
    """Check the common options; return (measurements dir, study spec,
    study display, variant, notes for the record's provenance). Raises
    UsageError (bad option, unknown family), RecordError (bad study file)."""
    from ..records.write import validate_job_id
    from ..study import validate_family_name

    validate_family_name(family)
    validate_job_id(job_id)
    check_shape(shape)
    check_family_known(family, measurements_dir, study_file)
    spec, study_display = load_study_spec(family, study_file)
    notes: list[str] = []
    variant = resolve_variant(variant, spec, study_display, notes)
    return resolve_measurements(measurements_dir), spec, study_display, variant, notes


def kernel_rules(spec: dict | None, study_display: str | None):
    from ..collect.kernel_groups import rules_from_study

    return rules_from_study(spec, study_display or "study.yaml")


# --- trtexec -------------------------------------------------------------------

@collect_group.command("trtexec")
@click.option("--log", "log_path", type=click.Path(path_type=Path), help="trtexec console log.")
@click.option("--times", "times_path", type=click.Path(path_type=Path), help="--exportTimes JSON (arrays may be concatenated).")
@click.option("--profile", "profile_path", type=click.Path(path_type=Path), help="--exportProfile JSON (arrays may be concatenated).")
@click.option("--layer-info", "layer_info_path", type=click.Path(path_type=Path), help="--exportLayerInfo JSON.")
@click.option("--plan", "plan_path", type=click.Path(path_type=Path), help="Engine plan file (its size in bytes is recorded).")
@common_options
@click.pass_context
def trtexec_command(ctx, log_path, times_path, profile_path, layer_info_path, plan_path, family, job_id, variant, shape,
                    batch, measurements_dir, study_file, **options):
    """Ingest trtexec output: latency summary, per-iteration times, layer profile, layer info, plan size.

    Each run of a log (and each array of a concatenated times or profile
    file, matched to the log's runs in order) gives its own results, keyed
    by its batch. The measuring GPU and TensorRT version come from the log.
    """
    from ..collect import trtexec
    from ..records.write import write_results

    if not any((log_path, times_path, profile_path, layer_info_path, plan_path)):
        raise UsageError("give at least one of --log, --times, --profile, --layer-info, --plan")
    measurements, spec, study_display, variant, notes = prepare(family, job_id, variant, shape, measurements_dir,
                                                                study_file)
    inputs = trtexec.read_inputs(log_path, times_path, profile_path, layer_info_path, plan_path)
    results = trtexec.build_results(inputs, kernel_rules(spec, study_display), variant=variant, shape=shape, batch=batch)
    gpu, version, log_notes = trtexec.log_provenance(inputs.log)
    notes = log_notes + notes
    if inputs.log is None:
        notes.append("no trtexec log given: the measuring GPU and TensorRT version come from options only")
    provenance = provenance_block(ctx, "studygen collect trtexec", gpu=gpu, software={"tensorrt": version},
                                  options=options, notes=notes, source_names_gpu=inputs.log is not None)
    report(write_results(measurements, family, job_id, provenance, results))


# --- torch-profile -------------------------------------------------------------

@collect_group.command("torch-profile")
@click.option("--trace", "trace_path", required=True, type=click.Path(path_type=Path),
              help="Chrome trace from torch.profiler (.json or .json.gz).")
@click.option("--mode", type=click.Choice(["eager", "compile"]), help="PyTorch mode the trace was recorded in.")
@common_options
@click.pass_context
def torch_profile_command(ctx, trace_path, mode, family, job_id, variant, shape, batch, measurements_dir, study_file,
                          **options):
    """Ingest kernel time per group from a PyTorch profiler (Kineto) trace.

    GPU kernel events only; ts/dur are µs. With ProfilerStep#N ranges the
    result is the mean per iteration, each iteration listed.
    """
    from ..collect import torch_profile
    from ..records.write import write_results

    measurements, spec, study_display, variant, variant_notes = prepare(family, job_id, variant, shape,
                                                                        measurements_dir, study_file)
    trace = torch_profile.parse_trace(trace_path)
    results = torch_profile.build_results(trace, kernel_rules(spec, study_display), variant=variant, shape=shape,
                                          batch=batch, mode=mode)
    notes = [] if trace.gpu else [f"{Path(trace.display).name} has no deviceProperties name for the kernels' device"]
    notes += variant_notes
    provenance = provenance_block(ctx, "studygen collect torch-profile", gpu=trace.gpu, software={}, options=options,
                                  notes=notes, source_names_gpu=trace.gpu is not None, gpu_count=trace.gpu_count)
    report(write_results(measurements, family, job_id, provenance, results))


# --- coco ----------------------------------------------------------------------

@collect_group.command("coco")
@click.option("--annotations", "annotations_path", required=True, type=click.Path(path_type=Path),
              help="COCO ground-truth annotations JSON.")
@click.option("--detections", "detections_path", required=True, type=click.Path(path_type=Path),
              help="Detections in the COCO results format (x, y, w, h in pixels).")
@click.option("--dataset", "dataset_id", required=True,
              help="Dataset id: DIR/FAMILY/datasets/ID.json is written, or verified when it exists.")
@click.option("--backend", type=click.Choice(["pycocotools", "faster-coco-eval"]), default="pycocotools",
              show_default=True, help="COCOeval implementation.")
@click.option("--split", default="unspecified", show_default=True, help="Split named in a new dataset definition.")
@click.option("--dataset-source", help="Where the images come from, for a new dataset definition.")
@click.option("--role", type=click.Choice(["evaluation", "reference", "calibration"]), default="evaluation",
              show_default=True, help="Role of a new dataset definition.")
@click.option("--inference", type=click.Choice(["tensorrt", "pytorch", "onnxruntime", "other"]),
              help="Backend that produced the detections.")
@click.option("--mode", type=click.Choice(["engine", "eager", "compile"]), help="Mode that produced the detections.")
@common_options
@click.pass_context
def coco_command(ctx, annotations_path, detections_path, dataset_id, backend, split, dataset_source, role, inference,
                 mode, family, job_id, variant, shape, batch, measurements_dir, study_file, **options):
    """Evaluate detections with COCOeval (bbox) and record the 12 statistics.

    Refuses, before evaluating, detections whose image or category ids are
    not in the annotations, boxes with negative size, normalized boxes and
    x1,y1,x2,y2 boxes passed as x,y,w,h.
    """
    from ..collect import coco
    from ..fsutil import shown_path
    from ..records.write import validate_job_id, write_results
    from ..fsutil import dump_json, ensure_inside
    from ..records.schemas import validate_document

    measurements, spec, study_display, variant, variant_notes = prepare(family, job_id, variant, shape,
                                                                        measurements_dir, study_file)
    validate_job_id(dataset_id)  # same id rules: it becomes a file name
    gt = coco.load_ground_truth(annotations_path)
    detections_display = shown_path(detections_path)
    detections = coco.load_detections(detections_path, detections_display)
    coco.check_detections(gt, detections, detections_display)
    dataset_path = measurements / family / "datasets" / f"{dataset_id}.json"
    ensure_inside(dataset_path, measurements)
    extra_files, notes = [], []
    if dataset_path.exists():
        notes += coco.verify_dataset(dataset_path, shown_path(dataset_path), gt)
    else:
        definition = coco.dataset_definition(dataset_id, gt, split=split, source=dataset_source, role=role)
        text = dump_json(definition)
        validate_document("dataset", definition, path=shown_path(dataset_path), text=text)
        extra_files.append((dataset_path, text))
    stats = coco.evaluate(gt, detections, backend)
    # an empty list is a measurement (nothing detected: AP 0), recorded, but never silently
    empty_warning = None if detections else coco.no_detections_warning(detections_display)
    results = coco.build_results(stats, variant=variant, dataset=dataset_id, backend=backend, shape=shape, batch=batch,
                                 inference_backend=inference, mode=mode, origin=detections_display, note=empty_warning)
    if not detections:
        notes.append(f"{detections_display} holds no detection: AP 0 where ground truth exists")
    notes += variant_notes
    software = {backend: coco.backend_version(backend)}
    provenance = provenance_block(ctx, "studygen collect coco", gpu=None, software=software, options=options,
                                  notes=notes, source_names_gpu=False)
    outcome = write_results(measurements, family, job_id, provenance, results, extra_files=extra_files)
    report(outcome)
    if extra_files:
        click.echo(f"wrote {shown_path(dataset_path)}: dataset {dataset_id}, {len(gt.images)} images")
    else:
        click.echo(f"verified {shown_path(dataset_path)}: {len(gt.images)} images match")
    click.echo("  " + ", ".join(f"{name} {stats[name]:.4f}" for name in coco.STAT_NAMES))
    if empty_warning:
        click.echo(f"studygen: warning: {empty_warning}", err=True)


# --- env -----------------------------------------------------------------------

@collect_group.command("env")
@click.option("--family", help="With --job: merge the block into DIR/FAMILY/JOB.json.")
@click.option("--job", "job_id", help="Job id of the record to merge into.")
@click.option("--role", type=click.Choice(["measuring", "conversion"]),
              help="Merge as the measuring machine (provenance) or the conversion machine.")
@click.option("--measurements", "measurements_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Records folder (default: measurements/ under the project root, or ./measurements).")
@click.option("--no-torch", is_flag=True, help="Do not import torch (no CUDA version from torch).")
def env_command(family, job_id, role, measurements_dir, no_torch):
    """Print this machine's provenance block as JSON; with --family/--job/--role merge it into a record.

    GPU names and driver through nvidia-ml-py when present, CUDA (torch),
    Python, torch/transformers/ModelOpt/TensorRT versions when installed,
    git commit and dirty flag. Missing tools are listed in notes.
    """
    from ..collect.env import collect_env

    if (family is None) != (job_id is None):
        raise UsageError("give both --family and --job to merge into a record, or neither to print")
    if family is not None and role is None:
        raise UsageError("give --role measuring (this machine measured the job) or --role conversion")
    measurements = resolve_measurements(measurements_dir)
    if family is not None:
        existing_record(measurements, family, job_id)  # refuse before printing anything
    root = project_root()
    block = collect_env(root, with_torch=not no_torch)
    click.echo(json.dumps(block, indent=2))
    if family is None:
        return
    report(merge_env(block, family, job_id, role, measurements))


def existing_record(measurements: Path, family: str, job_id: str) -> Path:
    """``measurements/<family>/<job_id>.json``; UsageError when it does not
    exist (``collect env`` completes a record, it never starts one: a
    record without results is not written)."""
    from ..records.write import record_path, validate_job_id
    from ..fsutil import shown_path
    from ..study import validate_family_name

    validate_family_name(family)
    validate_job_id(job_id)
    path = record_path(measurements, family, job_id)
    if not path.is_file():
        raise UsageError(f"no such record {shown_path(path)}: collect results into --job {job_id} first "
                         "(a record without results is not written)")
    return path


def merge_env(block: dict, family: str, job_id: str, role: str, measurements: Path):
    """Merge an env block into an existing record (a missing record is a
    UsageError: a record holds results, so collect them first). ``measuring``: provenance fields the record leaves empty are
    filled; ``conversion``: the same for ``provenance.conversion_machine``.
    A value that differs from one the record states is a ConflictError
    (nothing is overwritten)."""
    import socket

    from ..records.write import WriteOutcome, build_document, write_files
    from ..fsutil import shown_path
    from ..errors import ConflictError
    from ..records.schemas import validate_document

    path = existing_record(measurements, family, job_id)
    display = shown_path(path)
    software = dict(block["software"])
    collector = {"name": "studygen collect env", "version": __version__}
    if role == "measuring":
        incoming = {k: block.get(k) for k in ("gpu", "gpu_count", "driver", "repository_commit", "repository_dirty")}
        incoming.update(software=software, collected_at=block["collected_at"], checkpoint=checkpoint_block(None, None),
                        collector=collector)
        if block.get("notes"):
            incoming["notes"] = [f"env: {n}" for n in block["notes"]]
        draft = build_document(path, family, job_id, incoming, [])
        measured_on = draft.document["provenance"].get("gpu")
        if not draft.created and measured_on is not None and block.get("gpu") != measured_on:
            # here a missing GPU is known, not unknown: this machine did not measure the job
            raise ConflictError(f"the record was measured on {measured_on}; this machine has "
                                f"{block.get('gpu') or 'no GPU'}: one job is one measuring machine",
                                path=display, where="/provenance/gpu")
    else:
        machine = {"gpu": block.get("gpu"), "gpu_count": block.get("gpu_count", 0), "driver": block.get("driver"),
                   "hostname": socket.gethostname(), "software": software}
        incoming = {"gpu": None, "software": {}, "checkpoint": checkpoint_block(None, None), "collector": collector}
        draft = build_document(path, family, job_id, incoming, [])
        existing = draft.document["provenance"].setdefault("conversion_machine", {})
        for name, value in machine.items():
            if name == "software":
                have = existing.setdefault("software", {})
                for package, version in value.items():
                    if have.get(package) is None:
                        have[package] = version
                    elif version is not None and have[package] != version:
                        raise ConflictError(f"the record's conversion machine has {package} {have[package]}, "
                                            f"this machine {version}; nothing overwritten", path=display,
                                            where=f"/provenance/conversion_machine/software/{package}")
            elif existing.get(name) is None:
                existing[name] = value
            elif value is not None and existing[name] != value:
                raise ConflictError(f"the record's conversion machine has {name} {existing[name]!r}, this machine "
                                    f"{value!r}; nothing overwritten", path=display,
                                    where=f"/provenance/conversion_machine/{name}")
    text = draft.text()  # the record's text kept, the new fields added
    validate_document("run", draft.document, path=display, text=text)
    write_files([(path, text)])
    return WriteOutcome(path=path, display=display, created=draft.created, added=0, notes=draft.notes)
