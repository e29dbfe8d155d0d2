"""Study checks: each a pure function ``Study -> list[Finding]`` in its own
module, registered in :data:`REGISTRY` (adding a check = one module + one line).

Each entry: (codes it reports, module). Modules are imported lazily and
expose ``check(study) -> list[Finding]``.
"""

from __future__ import annotations

import importlib

REGISTRY: list[tuple[str, str]] = [
    ("SG202", "studygen.checks.sg202_records"),
    ("SG201", "studygen.checks.sg201_stale"),
    ("SG101-SG106", "studygen.checks.readme_markdown"),
]


def run_checks(study) -> list:
    """Every registered check over ``study``, then waivers and explanations applied."""
    from .waivers import apply_waivers

    findings = []
    for _, module_name in REGISTRY:
        findings.extend(importlib.import_module(module_name).check(study))
    return apply_waivers(study, findings)
