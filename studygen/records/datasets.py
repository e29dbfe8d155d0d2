"""Dataset definitions (``schemas/dataset.schema.json``) as collectors use
them: ``DIR/<family>/datasets/<id>.json`` names the image set a result was
evaluated on. A new id gets a definition, schema-checked before anything is
written (the caller writes it atomically with its record, under the records
folder's lock, see :func:`studygen.records.write.write_results`); an existing one is verified
against the images at hand (count, and sha256 of the sorted ids when it
publishes them), so one id never names two image sets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..digests import image_ids_sha256
from ..errors import InputError
from ..fsutil import dump_json, ensure_inside, shown_path
from .load import load_dataset
from .schemas import validate_document
from .names import validate_job_id


@dataclass
class DatasetUse:
    """What a collector does with a dataset id: the definition's ``path``
    (and as messages show it), the ``text`` of a new definition to write
    (None when an existing one was verified) and ``notes`` for the record."""

    path: Path
    display: str
    text: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def created(self) -> bool:
        """True when the definition is new (to be written with the record)."""
        return self.text is not None

    def files(self) -> list[tuple[Path, str]]:
        """``[(path, text)]`` of a new definition, for ``write_results(extra_files=...)``; ``[]`` when verified."""
        return [(self.path, self.text)] if self.text is not None else []


def validate_dataset_id(dataset_id: str) -> str:
    """Dataset ids follow the job id rules (they become file names). Raises UsageError."""
    return validate_job_id(dataset_id, "dataset id")


def dataset_path(measurements_dir: Path, family: str, dataset_id: str, records_dir: Path | None = None) -> Path:
    """``measurements_dir/<family>/datasets/<id>.json`` (``records_dir/datasets/<id>.json``
    when the family's records live there); UsageError when it would lie
    outside ``measurements_dir``."""
    path = (records_dir if records_dir is not None else measurements_dir / family) / "datasets" / f"{dataset_id}.json"
    ensure_inside(path, measurements_dir)
    return path


def use_dataset(measurements_dir: Path, family: str, dataset_id: str, image_ids: Iterable, images_display: str,
                new_definition: Callable[[], dict], records_dir: Path | None = None) -> DatasetUse:
    """The definition of ``dataset_id`` for the images ``image_ids`` (listed
    by ``images_display``, e.g. an annotations file): an existing definition
    is verified (:func:`verify_dataset`); otherwise ``new_definition()`` is
    built and schema-checked, ready to be written. Raises InputError (the
    images differ from the definition's), RecordError (the existing or the
    new definition fails its schema), UsageError (a path outside
    ``measurements_dir``). Writes nothing: the caller writes a new
    definition with its record (``write_results(extra_files=...)``), and
    calls this again under the records folder's lock, so that a definition
    another process wrote meanwhile is verified, not replaced."""
    path = dataset_path(measurements_dir, family, dataset_id, records_dir)
    display = shown_path(path)
    if path.exists():
        return DatasetUse(path, display, notes=verify_dataset(path, display, image_ids, images_display))
    definition = new_definition()
    text = dump_json(definition)
    validate_document("dataset", definition, path=display, text=text)
    return DatasetUse(path, display, text=text)


def verify_dataset(path: Path, display: str, image_ids: Iterable, images_display: str) -> list[str]:
    """Check an existing dataset definition against ``image_ids`` (count and
    sha256 of the sorted ids, :func:`studygen.digests.image_ids_sha256`).
    Raises InputError when they differ, RecordError when the definition is
    invalid; returns notes (e.g. the definition publishes no ids)."""
    data = load_dataset(path, display).data
    ids = list(image_ids)
    count = len(ids)
    if data["count"] != count:
        raise InputError(f"dataset {data['dataset_id']} has {data['count']} images but {images_display} lists {count}: "
                         "evaluate on the defined images or give another --dataset", path=display, pointer="/count")
    if "image_ids_sha256" in data:
        digest = image_ids_sha256(ids)
        if data["image_ids_sha256"] != digest:
            raise InputError(f"dataset {data['dataset_id']} image_ids_sha256 {data['image_ids_sha256'][:12]}… differs from "
                             f"the sha256 of {images_display}'s image ids {digest[:12]}…: not the same images",
                             path=display, pointer="/image_ids_sha256")
        return []
    return [f"dataset {data['dataset_id']} publishes no image ids; only the count ({count}) was checked"]
