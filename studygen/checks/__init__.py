"""Study checks: each a pure function ``check(context) -> list[Finding]`` in
its own module (``context`` a :class:`~studygen.checks.base.CheckContext`:
the study, and the README as render makes it now).

The registry is the rule table (:mod:`studygen.rules`): :data:`CHECKS` holds
every check module the table names (adding a check is one module plus one
line there), after :mod:`~studygen.checks.readme_markdown`, which runs the
lint rules (SG101-SG106) on the committed README. SG216's module,
:mod:`~studygen.checks.waivers`, runs last: it reads the other findings.
"""

from __future__ import annotations

import importlib

from ..rules import rules_in
from . import readme_markdown, waivers
from .base import CheckContext

_TABLE_MODULES = list(dict.fromkeys(importlib.import_module(rule.module) for rule in rules_in("studygen.checks")))
CHECKS = [readme_markdown, *(module for module in _TABLE_MODULES if module is not waivers)]


def run_checks(study) -> list:
    """Every registered check over ``study``, then waivers and explanations applied."""
    context = CheckContext(study)
    findings = []
    for module in CHECKS:
        findings.extend(module.check(context))
    return waivers.apply_waivers(study, findings)
