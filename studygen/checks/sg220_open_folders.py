"""SG220 input folder writable by everyone: a folder the study's records,
dataset definitions, study file or templates are read from (or one above
it, up to the project root) whose mode lets every user write in it (``o+w``:
0777, or 1777 like ``/tmp``, where the sticky bit still lets anyone add a
file). ``check`` and ``render`` trust what they read there, so anyone on
the machine could add a record, or replace one, and change a figure or a
verdict. A warning, not an error: the folder may be shared on purpose, and
whether its writers are trusted is the owner's to judge. ``render`` prints
its own line for such a folder (:func:`studygen.study.open_folder_warning`).

Case (attack on main after issue 24): issue 24 closed the cache's trust
hole by reading no cache at all, but ``measurements/`` set to 0777 was read
without a word.
"""

from __future__ import annotations

from ..findings import Finding


def check(context) -> list[Finding]:
    return [Finding("SG220", f"folder writable by every user (mode {mode:04o}): anyone on this machine can add "
                             "or replace the records, datasets, study file or templates check and render read there",
                    folder, hint=f"chmod o-w {folder} (or keep the project where only its writers can write)")
            for folder, mode in context.study.open_folders]

