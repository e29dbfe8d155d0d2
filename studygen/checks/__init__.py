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
    ("SG203", "studygen.checks.sg203_reconcile"),
    ("SG204", "studygen.checks.sg204_noise_verdict"),
    ("SG205", "studygen.checks.sg205_datasets"),
    ("SG206", "studygen.checks.sg206_unmeasured"),
    ("SG207", "studygen.checks.sg207_anomaly"),
    ("SG208", "studygen.checks.sg208_precision_inversion"),
    ("SG209", "studygen.checks.sg209_provenance"),
    ("SG210", "studygen.checks.sg210_kernel_coverage"),
    ("SG211", "studygen.checks.sg211_literal_figures"),
    ("SG212", "studygen.checks.sg212_incomparable"),
    ("SG213", "studygen.checks.sg213_unstable"),
    ("SG214", "studygen.checks.sg214_random_weights"),
    ("SG215", "studygen.checks.sg215_fp8_evidence"),
]


def run_checks(study) -> list:
    """Every registered check over ``study``, then waivers and explanations applied."""
    from .waivers import apply_waivers

    findings = []
    for _, module_name in REGISTRY:
        findings.extend(importlib.import_module(module_name).check(study))
    return apply_waivers(study, findings)
