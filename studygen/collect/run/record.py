"""The run record a ``collect run`` job writes, result by result.

Every finished measurement is appended and the whole record is validated
against schemas/run_record.schema.json and written atomically
(:func:`studygen.fsutil.atomic_write_text`), so an interrupted run keeps what
it finished and a reader never sees half a file. An existing record is never
overwritten: without ``--resume`` it is an error; with it, results already
present are skipped, provided the record was measured on the same GPU with the
same software (a resumed record must keep one provenance).
"""

from __future__ import annotations

import datetime as _dt
import platform
from pathlib import Path

from ... import __version__
from ...errors import ConflictError, UsageError
from ...fsutil import dump_json
from ...records.jsonedit import extend_json_text
from ...records.write import write_files
from ...records.load import load_record
from ...textio import parse_json
from ...records.schemas import validate_document

# provenance fields that must agree for a resumed record
RESUME_MUST_MATCH = ("gpu",)
RESUME_SOFTWARE = ("torch", "cuda", "transformers", "modelopt")


def result_key(result: dict) -> tuple:
    """What makes a result unique within one record: kind, variant, shape, mode, metric/statistic."""
    return (result["kind"], result["variant"], result.get("shape"), result.get("mode"),
            result.get("metric") or result.get("statistic"))


class RunRecord:
    """One job's record file ``measurements/<family>/<job_id>.json``."""

    def __init__(self, path: Path, display: str, *, job_id: str, family: str, provenance: dict,
                 description: str | None = None, resume: bool = False):
        self.path = path
        self.display = display
        # a resumed record's text as last written and the document it holds: what it
        # already holds keeps its bytes (figures their digits, CRLF), new results are added
        self.text: str | None = None
        self.written: dict | None = None
        if path.exists():
            if not resume:
                raise ConflictError("record already exists (use --resume to add the missing results, "
                                    "or another --job)", path=display)
            record = load_record(path, display)
            _check_resume(record.data["provenance"], provenance, display)
            self.data = record.data
            self.text, self.written = record.text, parse_json(record.text, display)
        else:
            self.data = {"schema_version": 1, "job_id": job_id, "family": family}
            if description:
                self.data["description"] = description
            self.data["provenance"] = provenance
            self.data["results"] = []

    @property
    def results(self) -> list[dict]:
        return self.data["results"]

    def has(self, kind: str, variant: str, shape: str | None = None, mode: str | None = None,
            metric: str | None = None) -> bool:
        """True when a result (or a not_measured for it) with this key is present."""
        for result in self.results:
            if result["variant"] != variant or result.get("shape") != shape or result.get("mode") != mode:
                continue
            if result["kind"] == kind and (metric is None or (result.get("metric") or result.get("statistic")) == metric):
                return True
            if result["kind"] == "not_measured" and result.get("metric") in (kind, metric):
                return True
        return False

    def add(self, *results: dict) -> None:
        """Append ``results``, validate the whole record, write it atomically.

        Raises ConflictError when a result with the same key is already present
        (nothing is written) and RecordError when the record would not validate.
        """
        present = {result_key(r) for r in self.results}
        for result in results:
            if result_key(result) in present:
                raise ConflictError(f"a result {result_key(result)} is already in the record; not overwritten",
                                    path=self.display)
            present.add(result_key(result))
        candidate = {**self.data, "results": [*self.results, *results]}
        validate_document("run", candidate, path=self.display)
        self._write(candidate)

    def set_wall_time(self, seconds: float) -> None:
        """Add this invocation's wall time (s) to ``provenance.run_wall_s`` and write the record;
        a record that holds no result yet is not written (a failed first step leaves no file)."""
        if not self.results:
            return
        provenance = dict(self.data["provenance"])
        provenance["run_wall_s"] = round(provenance.get("run_wall_s", 0.0) + seconds, 3)
        candidate = {**self.data, "provenance": provenance}
        validate_document("run", candidate, path=self.display)
        self._write(candidate)

    def _write(self, candidate: dict) -> None:
        """Write ``candidate`` atomically: a new record in the canonical layout,
        a resumed one as its text extended (:func:`studygen.collect.jsonedit.extend_json_text`)."""
        if self.text is None:
            write_files([(self.path, dump_json(candidate))])
        else:
            text = extend_json_text(self.text, self.written, candidate)
            write_files([(self.path, text)])
            self.text, self.written = text, candidate
        self.data = candidate


def _check_resume(old: dict, new: dict, display: str) -> None:
    for name in RESUME_MUST_MATCH:
        if old.get(name) != new.get(name):
            raise UsageError(f"{display}: cannot resume: the record was measured with {name} {old.get(name)!r}, "
                             f"this machine has {new.get(name)!r}")
    for name in RESUME_SOFTWARE:
        was, now = (old.get("software") or {}).get(name), (new.get("software") or {}).get(name)
        if was != now:
            raise UsageError(f"{display}: cannot resume: the record was measured with {name} {was!r}, this run has {now!r}")


def _version(module_name: str) -> str | None:
    from importlib import metadata

    names = {"modelopt": "nvidia-modelopt", "skimage": "scikit-image"}
    try:
        return metadata.version(names.get(module_name, module_name))
    except metadata.PackageNotFoundError:
        return None


def collect_provenance(*, root: Path, checkpoint: dict, commit: str | None, command: str, dataset_revision: str | None,
                       dirty: bool | None = None):
    """The measuring machine's provenance: GPU model and driver (nvidia-ml-py when
    present), torch/CUDA/transformers/ModelOpt/timm/scikit-image versions, the
    repository commit (``commit`` and ``dirty`` when given, else ``git rev-parse HEAD``
    and ``git status`` in ``root``; None when unknown), time collected (UTC)."""
    import torch

    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    software = {
        "torch": torch.__version__, "cuda": torch.version.cuda, "transformers": _version("transformers"),
        "modelopt": _version("modelopt"), "timm": _version("timm"), "python": platform.python_version(),
        "scikit-image": _version("skimage"), "tensorrt": None,
    }
    if commit is None:
        commit, dirty = _git_commit(root)
    provenance = {
        "gpu": gpu,
        "gpu_count": torch.cuda.device_count() if torch.cuda.is_available() else 0,
        "driver": _driver_version() if gpu else None,
        "software": software,
        "checkpoint": checkpoint,
        "dataset_revision": dataset_revision,
        "repository_commit": commit,
        "repository_dirty": dirty,
        "collected_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "collector": {"name": "studygen collect run", "version": __version__, "command": command},
    }
    if gpu:
        provenance["notes"] = [f"torch.backends.cuda.matmul.allow_tf32={torch.backends.cuda.matmul.allow_tf32}, "
                               f"torch.backends.cudnn.allow_tf32={torch.backends.cudnn.allow_tf32} (fp32 convolutions may use TF32)"]
    else:
        provenance["notes"] = ["no CUDA device: timed with the host clock, profiled CPU operators"]
    return provenance


def _driver_version() -> str | None:
    try:
        import pynvml

        pynvml.nvmlInit()
        try:
            version = pynvml.nvmlSystemGetDriverVersion()
            return version.decode() if isinstance(version, bytes) else str(version)
        finally:
            pynvml.nvmlShutdown()
    except Exception:  # noqa: BLE001 - nvidia-ml-py absent or no driver: unknown, not guessed
        return None


def _git_commit(root: Path) -> tuple[str | None, bool | None]:
    """``(commit, dirty)`` of the work tree at ``root`` (see
    :func:`studygen.collect.env.git_state`: untracked, not ignored files make
    it dirty); None where git cannot tell."""
    from ..env import git_state

    commit, dirty, _ = git_state(root)
    return commit, dirty
