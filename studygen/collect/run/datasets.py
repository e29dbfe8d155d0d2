"""Dataset definitions that ``collect run`` checks or writes.

* skimage.data image sets (calibration, agreement): a measuring machine whose
  scikit-image ships other files than the definition pins gets the definition
  rewritten for the pixels it actually measures (:func:`refresh_definition`);
* the COCO AP image set: an existing definition is verified against the
  annotations, a missing one written from them (:func:`ensure_coco_definition`).
"""

from __future__ import annotations

from pathlib import Path

from ...fsutil import atomic_write_text, dump_json
from ...records.datasets import verify_dataset
from ...records.load import load_dataset
from ..coco import GroundTruth, dataset_definition
from .images import skimage_dataset_definition


def refresh_definition(path: Path) -> bool:
    """Rewrite the ``skimage.data`` dataset definition at ``path`` when this
    machine's scikit-image ships different files for it (other sha256, sizes or
    release); True when it was rewritten. For a measuring machine whose
    scikit-image differs from the one the definition was written with: the
    definition must describe the pixels actually measured. Raises RecordError
    when the definition does not load."""
    current = load_dataset(path).data
    fresh = skimage_dataset_definition(current["dataset_id"], [str(n) for n in current["image_ids"]],
                                       role=current["role"], selection=current["selection"])
    for key in ("disjoint_from", "citation"):
        if key in current:
            fresh[key] = current[key]
    if fresh == current:
        return False
    atomic_write_text(path, dump_json(fresh))
    return True


def ensure_coco_definition(path: Path, display: str, dataset_id: str, ground_truth: GroundTruth) -> None:
    """Verify the definition at ``path`` against the annotations' images
    (InputError when count or id sha256 differ), or write it from them when
    there is none."""
    if path.is_file():
        verify_dataset(path, display, ground_truth.image_ids, ground_truth.display)
        return
    atomic_write_text(path, dump_json(dataset_definition(dataset_id, ground_truth, split="as annotated",
                                                         source=None, role="evaluation")))
