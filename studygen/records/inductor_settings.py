"""Which ``torch._inductor.config`` settings a study may set, and to what.

``run.inductor_config`` (and ``collect run --inductor``) is data: a switch
or a number that changes how Inductor compiles, recorded with each compiled
latency. Inductor also has settings that name programs, folders and files
(``cpp.cxx``, the C++ compiler it runs; ``cuda.cuda_cxx``; ``trace.debug_dir``,
where ``trace.enabled`` writes), and switches that make it write debug output
anywhere or run test hooks. Case (attack round on issue 24's successor):
``inductor_config: {cpp.cxx: /path/evil.sh}`` in a study file made
``collect run`` run that program as its compiler.

So a setting is refused when:

- its value is not a boolean, an integer or a finite number (a string,
  list, mapping or null could name a program or a path);
- a word of its name (split at ``.`` and ``_``, any case) is one of
  :data:`REFUSED_WORDS`, or its first part one of :data:`REFUSED_NAMESPACES`:
  debug, trace, path, file, program and compiler settings, whatever their
  value;
- where torch is at hand (:func:`typed_setting_problem`, when the setting is
  applied): its current value is not a boolean, integer or number, or the new
  value is not of that type (a boolean is never taken for an integer, an
  integer is taken for a floating-point number).

Nothing here imports torch: the study file is refused when it is loaded, and
again, against torch's own types, in the process that compiles.
"""

from __future__ import annotations

import math

from ..patterns import lazy_compile

# A torch._inductor.config setting by its dotted name (run.inductor_config, collect run --inductor).
SETTING_NAME = lazy_compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")
# Words of a setting name that mark it as choosing a program, a folder or a file, as writing debug output, or as
# reaching another machine (the remote caches).
REFUSED_WORDS = frozenset({
    "debug", "trace", "traces", "path", "paths", "dir", "dirs", "file", "files", "filename", "home", "cxx", "cc",
    "compiler", "cmd", "command", "program", "exe", "executable", "bin", "log", "logs", "logging", "tlparse",
    "dump", "save", "profile", "profiler", "package", "remote",
})
# First parts of names whose settings all serve debugging, tests or ahead-of-time packages written to disk.
REFUSED_NAMESPACES = frozenset({"trace", "test_configs", "aot_inductor", "aot_inductor_mode", "autoheuristic_collect"})
ALLOWED_TYPES = "true/false, a whole number or a number"


def setting_pointer(name: str) -> str:
    """The JSON pointer of setting ``name`` in a study file (RFC 6901: ``~`` and ``/`` escaped)."""
    return "/run/inductor_config/" + name.replace("~", "~0").replace("/", "~1")


def setting_name_problem(name: str) -> str | None:
    """Why ``name`` may not be set from a study file or the command line, None when it may."""
    if not SETTING_NAME.match(name):
        return (f"{name!r} is not a torch._inductor.config name (dotted identifiers, "
                "e.g. triton.autotune_pointwise)")
    parts = name.lower().split(".")
    words = {word for part in parts for word in part.split("_")}
    refused = sorted(words & REFUSED_WORDS) or sorted({parts[0]} & REFUSED_NAMESPACES)
    if refused:
        return (f"{name!r} is a debug, trace, file, folder or program setting ('{refused[0]}'): a study sets only "
                "switches and numbers that change how Inductor compiles")
    return None


def setting_value_problem(name: str, value) -> str | None:
    """Why ``value`` may not be given to setting ``name`` (whatever torch holds), None when it may."""
    if isinstance(value, bool) or (isinstance(value, (int, float)) and math.isfinite(value)):
        return None
    return f"{name!r} is given {value!r}: a setting takes {ALLOWED_TYPES}, never text, a list, a mapping or null"


def inductor_config_problem(spec: dict) -> tuple[str, str] | None:
    """``(JSON pointer, reason)`` of the first refused setting in the study
    mapping's ``run.inductor_config``; None when every one may be set."""
    run = spec.get("run")
    config = run.get("inductor_config") if isinstance(run, dict) else None
    for name, value in (config or {}).items() if isinstance(config, dict) else ():
        problem = setting_name_problem(str(name)) or setting_value_problem(str(name), value)
        if problem:
            return setting_pointer(str(name)), "inductor_config: " + problem
    return None


def typed_setting_problem(name: str, current, value) -> str | None:
    """Why ``value`` may not replace ``current``, the value torch holds for
    setting ``name`` now; None when it may: the name and value pass
    :func:`setting_name_problem` and :func:`setting_value_problem`, ``current``
    is a boolean, integer or number, and ``value`` of its type (an integer
    for a number; never a boolean for an integer)."""
    problem = setting_name_problem(name) or setting_value_problem(name, value)
    if problem:
        return problem
    if type(current) not in (bool, int, float):
        return (f"{name!r} holds {type(current).__name__} in torch._inductor.config: a study sets only settings "
                "that hold true/false or a number")
    accepted = (int, float) if type(current) is float else (type(current),)
    if type(value) not in accepted:
        return (f"{name!r} holds {type(current).__name__} in torch._inductor.config, "
                f"and is given {type(value).__name__} {value!r}")
    return None
