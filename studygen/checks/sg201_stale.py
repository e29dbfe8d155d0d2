"""SG201 stale output: the README (or a figure) on disk differs from what
``studygen render`` makes from the records now, whether git has it committed,
modified or untracked.

Case: a hand edit of a generated README, or a record changed without
re-rendering; the finding carries a unified diff of the README. A figure is
current when its stamp names the digest of what it is drawn from now and its
drawing hashes to the stamped digest (no redraw); otherwise it is drawn and
compared byte for byte.
"""

from __future__ import annotations

import difflib
import os

from ..errors import InputError
from ..findings import Finding
from ..textio import MAX_RENDERED_BYTES, read_bytes


def check(context) -> list[Finding]:
    study = context.study
    if study.problems:
        return []  # SG202 already reports why the study cannot be rendered
    # one render shared with the text checks (SG204-SG206, SG212, SG213) through the context
    if context.render_error is not None:
        # at the study file (the template error's own file and line are quoted: the template is named there)
        return [Finding("SG201", f"cannot render: {context.render_error.line()}", study.rel(study.study_path),
                        hint="fix the template or study file, then run studygen render")]
    rendered = context.rendered
    findings = []
    for path in rendered.paths():
        shown = study.rel(path)
        if not os.path.lexists(path):  # a dangling or looping link is there, and is reported as unreadable
            findings.append(Finding("SG201", "missing: studygen render has not written it", shown,
                                    hint=f"run studygen render {study.family}"))
            continue
        try:  # a FIFO or /dev/zero in its place would hang the read; a 2 GB file is no render's output
            current = read_bytes(path, shown, MAX_RENDERED_BYTES)
        except InputError as exc:
            findings.append(Finding("SG201", f"cannot be read: {exc.message.removeprefix('cannot read: ')}", shown,
                                    hint="remove what stands in its place, then run studygen render"))
            continue
        if rendered.is_current(path, current):
            continue
        if path.suffix == ".md":
            data = rendered.data(path)
            old = current.decode("utf-8", errors="replace").splitlines(keepends=True)
            new = data.decode("utf-8").splitlines(keepends=True)
            # "on disk", not "committed": the file may be untracked, or modified since its last commit
            diff = list(difflib.unified_diff(old, new, fromfile=f"{shown} (on disk)", tofile=f"{shown} (rendered)", n=1))
            first_line = next((i + 1 for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)) + 1)
            findings.append(Finding("SG201", "README is stale: it differs from what the records render to", shown,
                                    line=first_line, hint=f"run studygen render {study.family} (never edit it by hand)",
                                    detail="".join(diff).rstrip("\n")))
        else:
            findings.append(Finding("SG201", "figure is stale: its bytes differ from what the records render to", shown,
                                    hint=f"run studygen render {study.family}"))
    return findings
