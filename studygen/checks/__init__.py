"""Study checks: each a pure function ``Study -> list[Finding]`` in its own
module, registered in :data:`REGISTRY` (adding a check = one module + one line).

Each entry: (code, module, function name). Checks are imported lazily.
"""

from __future__ import annotations

import importlib

REGISTRY: list[tuple[str, str, str]] = [
    ("SG202", "studygen.checks.sg202_records", "check"),
]


def run_checks(study, codes: set[str] | None = None) -> list:
    """All registered checks over ``study`` (or only those in ``codes``)."""
    findings = []
    for code, module_name, function in REGISTRY:
        if codes is not None and code not in codes:
            continue
        findings.extend(getattr(importlib.import_module(module_name), function)(study))
    return findings
