"""Measurement keys and the flattened figure table.

A **measurement key** identifies what a figure measures, independently of
which job measured it: family, checkpoint revision, variant and recipe,
metric and statistic, shape, batch, GPU, the software versions that matter
for its backend, and dataset. Two jobs reporting the same key measured the
same thing (SG203 compares them). The **configuration key** drops GPU and
software versions, so the same metric of the same configuration can be
compared across GPUs and TensorRT versions (SG207).
"""

from __future__ import annotations

# Software versions that change what a backend measures.
BACKEND_SOFTWARE = {
    "tensorrt": ("tensorrt", "cuda"),
    "pytorch": ("torch", "cuda", "transformers", "modelopt"),
    "onnxruntime": ("onnxruntime", "cuda"),
}
QUALITY_SOFTWARE = ("torch", "transformers", "modelopt", "tensorrt")

FIELDS = (
    "family", "revision", "variant", "recipe", "kind", "metric", "statistic", "group",
    "shape", "batch", "backend", "mode", "gpu", "software", "dataset",
)
CONFIG_FIELDS = tuple(f for f in FIELDS if f not in ("gpu", "software"))


def software_signature(provenance: dict, backend: str | None, kind: str) -> str:
    """``tensorrt=11.4.0.106`` style signature of the versions that matter."""
    versions = provenance.get("software") or {}
    names = BACKEND_SOFTWARE.get(backend or "", QUALITY_SOFTWARE)
    return ",".join(f"{n}={versions[n]}" for n in names if versions.get(n))


def _key_part(name: str, value) -> str:
    if value is None or value != value:  # None or NaN
        return ""
    if name == "batch" and value != "":
        return f"b{int(value)}"
    if name == "revision" and value:
        return str(value)[:7]
    return str(value)


def key_string(row: dict, fields=FIELDS) -> str:
    """A readable key such as
    ``deformable_detr|83ecd26|fp16|latency|gpu_compute|median||800x800|b1|tensorrt|engine|NVIDIA B200|tensorrt=11.4.0.106|``.
    Empty parts stay empty so that positions keep their meaning."""
    return "|".join([_key_part(name, row.get(name)) for name in fields])


def measurement_and_config_keys(row: dict) -> tuple[str, str]:
    """``(key_string(row, FIELDS), key_string(row, CONFIG_FIELDS))`` with each
    part made once (the flattened table asks for both on every row)."""
    get = row.get
    # a plain string is its own part (most parts are), None an empty one: no call for either
    parts = [value if (value := get(name)).__class__ is str and name in _PLAIN_FIELDS
             else "" if value is None else _key_part(name, value) for name in FIELDS]
    return "|".join(parts), "|".join([parts[i] for i in _CONFIG_INDEXES])


_CONFIG_INDEXES = tuple(FIELDS.index(name) for name in CONFIG_FIELDS)
_PLAIN_FIELDS = frozenset(FIELDS) - {"batch", "revision"}  # the fields _key_part changes a string of
