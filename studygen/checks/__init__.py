"""Study checks: each a pure function ``check(context) -> list[Finding]`` in
its own module (``context`` a :class:`~studygen.checks.base.CheckContext`:
the study, and the README as render makes it now).

The registry is the rule table (:mod:`studygen.rules`): :func:`registered_checks`
gives every check module the table names (adding a check is one module plus
one line there), after :mod:`~studygen.checks.readme_markdown`, which runs the
lint rules (SG101-SG107) on the committed README. SG216's module,
:mod:`~studygen.checks.waivers`, runs last: it reads the other findings.

The registry is built when a check first runs, not when this package is
imported: importing one check module then costs that module only, not
every check and the linter behind :mod:`~studygen.checks.readme_markdown`
(importing render's command took 0.122 s with them, 0.069 s without: best of 8 fresh processes).
``render`` imports no check at all (its SG220 line is
:func:`studygen.study.open_folder_warning`): this package's own imports
(SG216's :mod:`waivers`, :mod:`base`) were 10 % of rendering an unchanged family.
"""

from __future__ import annotations

import functools
import importlib

from ..rules import rules_in
from . import waivers
from .base import CheckContext

# Runs first; named, not imported here: it imports the whole linter.
README_MARKDOWN_MODULE = "studygen.checks.readme_markdown"


@functools.cache
def registered_checks() -> tuple:
    """The check modules every run goes through, in order: the README's lint
    (:data:`README_MARKDOWN_MODULE`), then each module the rule table names
    under ``studygen.checks`` once, in table order, except :mod:`waivers`
    (applied after them). Imported on the first call."""
    names = dict.fromkeys([README_MARKDOWN_MODULE, *(rule.module for rule in rules_in("studygen.checks"))])
    return tuple(module for module in map(importlib.import_module, names) if module is not waivers)


def run_checks(study) -> list:
    """Every registered check over ``study``, then waivers and explanations applied."""
    context = CheckContext(study)
    findings = []
    for module in registered_checks():
        findings.extend(module.check(context))
    return waivers.apply_waivers(study, findings)


__all__ = ["CheckContext", "README_MARKDOWN_MODULE", "registered_checks", "run_checks", "waivers"]
