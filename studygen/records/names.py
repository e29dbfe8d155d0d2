"""What names studygen turns into file and folder names must be (families,
job ids, dataset ids, variant names): the characters, the length, no
Windows device name. Read by the study (its study file's names) and by
what writes records (:mod:`.write`), kept apart from writing so that
loading a study does not import it."""

from __future__ import annotations

import re

from ..errors import UsageError
from ..patterns import lazy_compile

JOB_ID_PATTERN = r"[A-Za-z0-9][A-Za-z0-9._-]*"  # matched whole (re.fullmatch): "x\n" is no name
FAMILY_NAME = lazy_compile(r"[A-Za-z0-9_-]+")
# Names become file names (<job>.json, and .<job>.json.<pid>.<random>.tmp while it is written): well
# below the 255 bytes a file name may have, with room for what is added to it.
MAX_NAME_LENGTH = 128


# Names Windows gives to devices: no file or folder can be named so there, whatever its extension
# ("con.json", "LPT1.x.json"), so a project holding one cannot be checked out on Windows.
WINDOWS_DEVICE_NAMES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(10)),
                                  *(f"LPT{i}" for i in range(10))})


def _check_length(what: str, name: str) -> None:
    if len(name) > MAX_NAME_LENGTH:
        raise UsageError(f"invalid {what} {name[:40]!r}… ({len(name)} characters): at most {MAX_NAME_LENGTH} "
                         "(it becomes a file name)")


def device_name_problem(what: str, name: str) -> str | None:
    """Why ``name`` cannot name a file on every system (a Windows device
    name before its first dot, any case), or None."""
    stem = name.split(".")[0]
    if stem.upper() in WINDOWS_DEVICE_NAMES:
        return (f"invalid {what} {name!r}: {stem} names a device on Windows, where no file or folder can be named "
                "so (whatever follows a dot)")
    return None


def validate_family_name(name: str) -> str:
    """Family names are letters, digits, ``_`` and ``-`` (they become
    paths), not beginning with ``-`` (commands would read the name as an
    option), the whole name (a trailing newline is no letter), at most
    :data:`MAX_NAME_LENGTH` characters, no Windows device name
    (:data:`WINDOWS_DEVICE_NAMES`). Raises UsageError."""
    if not FAMILY_NAME.fullmatch(name or ""):
        raise UsageError(f"invalid family name {name!r}: use letters, digits, '_' and '-'")
    if name.startswith("-"):  # every command would read it as an option ("studygen render -x")
        raise UsageError(f"invalid family name {name!r}: it may not begin with '-'")
    _check_length("family name", name)
    problem = device_name_problem("family name", name)
    if problem:
        raise UsageError(problem)
    return name


def validate_job_id(job_id: str, what: str = "job id") -> str:
    """Job ids become file names: letters, digits, ``.``, ``_``, ``-``, not
    starting with ``.``/``-``, the whole id, at most :data:`MAX_NAME_LENGTH`
    characters, no Windows device name. ``what`` names the id in messages
    (the rule holds for dataset ids and variant names as well). Raises UsageError."""
    if not re.fullmatch(JOB_ID_PATTERN, job_id or ""):
        raise UsageError(f"invalid {what} {job_id!r}: use letters, digits, '.', '_' and '-' (not first)")
    _check_length(what, job_id)
    problem = device_name_problem(what, job_id)
    if problem:
        raise UsageError(problem)
    return job_id


def study_name_problem(spec: dict) -> tuple[str, str] | None:
    """``(JSON pointer, reason)`` of the first name in a study file (its
    family, its variants' names) that is a Windows device name, or a variant
    name that repeats another one in any case ("FP16" and "fp16" are one
    file name on macOS and Windows); None when there is none."""
    problem = device_name_problem("family name", str(spec.get("family", "")))
    if problem:
        return "/family", problem
    seen: dict[str, int] = {}
    for index, variant in enumerate(spec.get("variants") or []):
        name = str(variant.get("name", ""))
        problem = device_name_problem("variant name", name)
        if problem:
            return f"/variants/{index}/name", problem
        if name.lower() in seen:
            first = seen[name.lower()]
            return f"/variants/{index}/name", (f"variant name {name!r} repeats {spec['variants'][first]['name']!r} "
                                               f"(/variants/{first}/name), in case only or as it is: one file name "
                                               "on macOS and Windows")
        seen[name.lower()] = index
    return None
