"""Heavy third-party libraries bound at module top but imported on first use.

``np = lazy_import("numpy")`` lets a module use ``np.array`` as usual while
importing it costs nothing until a function touches ``np`` (Polygraphy's
``mod.lazy_import`` does the same). ``studygen collect run --help`` and the
command modules that import the COCO reader stay free of numpy this way
(tests/run/test_lazy_imports.py).
"""

from __future__ import annotations

import importlib


class LazyModule:
    """Stands for the module ``name``; the first attribute read imports it
    (ImportError then, as a plain ``import`` would raise) and every read is
    forwarded to it."""

    __slots__ = ("_name",)

    def __init__(self, name: str):
        object.__setattr__(self, "_name", name)

    def __getattr__(self, attribute: str):
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"<lazily imported module {self._name!r}>"


def lazy_import(name: str) -> LazyModule:
    """A :class:`LazyModule` for ``name`` (e.g. ``"numpy"``)."""
    return LazyModule(name)
