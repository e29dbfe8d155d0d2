"""Pausing Python's cyclic garbage collector around work that builds many
long-lived objects (a lint model, a study's records), shared by lint, check
and render without importing either."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Pause the cyclic garbage collector while a model is built and checked.

    The model of a 1 MB document is ~150k live objects; none of them is
    garbage before the checks end, yet every collection the model's
    allocations trigger would rescan them (a quarter to half of lint's own
    time in the benchmark). Collection resumes on exit (if it was on), and
    what became garbage inside is collected then as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
