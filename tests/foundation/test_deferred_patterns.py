"""Patterns a check of the shipped project never used are compiled at first use, not before (issue 25 item 5).

Measured on the shipped project (a hook on re._compiler.compile, a profile
of the calls made on each compiled pattern): these were compiled at import
or built for every study or table, and no check used them (about 1.7 ms of
compiling per ``studygen check``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

from studygen.checks import readme_text
from studygen.lint.parse import parse_document
from studygen.lint.row_axis import _label_patterns, _mentions

from ..conftest import REPO

# module: names of module-level patterns compiled at import before
DEFERRED_AT_IMPORT = {
    "studygen.records.jsonpos": ["_SCALAR"],
    "studygen.fsutil": ["_TEMP_NAME"],
    "studygen.records.inductor_settings": ["SETTING_NAME"],
    "studygen.records.checkpoints": ["HUB_CACHE", "_REF_CHARACTERS", "_REF_SEQUENCES"],
    "studygen.records.names": ["FAMILY_NAME"],
    "studygen.records.write": ["_RESULT_POINTER", "_LOCATOR"],
    "studygen.render.limits": ["_PRINTF", "_DEBUG_INFO"],
    "studygen.render.produced": ["_REMAINS"],
    "studygen.checks.prose_figures": ["_SENTENCE_END"],
}


def test_importing_the_modules_compiles_none_of_the_deferred_patterns():
    script = (
        "import importlib, json, re._compiler as c\n"
        "seen = []\n"
        "real = c.compile\n"
        "c.compile = lambda p, f=0: seen.append(p) or real(p, f)\n"
        f"modules = {sorted(DEFERRED_AT_IMPORT) + ['studygen.checks.sg217_unchanged_group_cause']!r}\n"
        "for name in modules: importlib.import_module(name)\n"
        "print(json.dumps([p for p in seen if isinstance(p, str)]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True)
    compiled_at_import = set(json.loads(done.stdout))
    import importlib

    from studygen.checks import sg217_unchanged_group_cause as sg217

    deferred = [getattr(importlib.import_module(module), name) for module, names in DEFERRED_AT_IMPORT.items()
                for name in names]
    deferred += [*sg217.GROUP_WORDS.values(), *sg217.MODE_WORDS.values()]
    assert len(deferred) == 19
    assert [p.pattern for p in deferred if p.pattern in compiled_at_import] == []


def test_numbered_labels_compile_when_a_figure_is_first_quoted():
    pattern = readme_text._names_pattern(("nvidia geforce gtx 1070", "rtx 3090"))
    assert "compiled" not in vars(pattern)  # built for every study, searched only where a finding quotes figures
    assert readme_text.numbers_in("GTX 1070 at 2.5 ms and RTX-3090 at 1.1 ms", pattern) == ["2.5", "1.1"]
    assert isinstance(vars(pattern)["compiled"], re.Pattern)
    assert readme_text._names_pattern(()) is None


def test_row_label_patterns_compile_only_where_a_text_holds_the_labels_words():
    document = parse_document("| GPU | Latency ms |\n| --- | --- |\n| B200 | 1.0 |\n| H100 PCIe | 2.0 |\n", "t.md")
    table = document.tables[0]
    assert _mentions(table, "the b200 is faster")[0] == [(4, 8, "b200")]
    patterns = {label: pattern for label, _, pattern in _label_patterns(table)}
    assert sorted(patterns) == ["b200", "h100 pcie"]
    assert "compiled" in vars(patterns["b200"]) and "compiled" not in vars(patterns["h100 pcie"])
