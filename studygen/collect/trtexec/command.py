"""The command line a trtexec log prints (``&&&& RUNNING … # <command>``),
split into the arguments trtexec received and read as trtexec reads them.

Format (TensorRT's ``samples/common/sampleOptions.cpp`` and
``samples/trtexec/trtexec.cpp``, TensorRT 7 to 10):

* The log joins ``argv`` with single spaces, so the shell's own quoting is
  gone: ``--onnx="a.onnx"`` typed at a prompt prints as ``--onnx=a.onnx``.
  Quotes that remain were characters of the argument itself. trtexec's
  syntax puts them around a whole tensor or layer name
  (``--shapes='input 0':1x3x8x8``, ``--shapes=a:1x3,'b:0':4``), so a quote
  that opens an argument, or a name after ``=`` or ``,``, runs to its
  closing quote, spaces included; any other quote (a path such as
  ``/home/o'neil/m.onnx``) is an ordinary character, and an unclosed one
  too.
* An argument is ``--name=value``, split at its first ``=``; one without
  ``=`` is given with no value (``''``). trtexec has no ``--name value``
  form: there ``value`` is a separate argument of its own, which trtexec
  rejects (``Unknown option``), so a run that passed never holds one.
* trtexec reads each option once, and fails on a second copy of it
  (``Unknown option``), except the few it collects (:data:`REPEATABLE`):
  two different values of one option in the command of a run that passed
  mean the command was edited (:func:`conflicting_flag`).
"""

from __future__ import annotations

import re

# An argument: unquoted characters, quoted spans opened where trtexec quotes a name (at the start, after = or ,),
# and any other quote character taken literally.
ARGUMENT = re.compile(r"""(?:(?:(?<![^\s=,])'[^']*'|(?<![^\s=,])"[^"]*")|[^\s'"]+|['"])+""")
# The options trtexec collects from several copies (sampleOptions.cpp: getAndDelRepeatedOption and while loops).
REPEATABLE = frozenset({"--plugins", "--staticPlugins", "--setPluginsToSerialize", "--dynamicPlugins", "--uffInput"})


def arguments(command: str | None) -> list[str]:
    """The arguments of ``command`` as trtexec received them (see the module
    docstring), the program first; ``[]`` for None or an empty command."""
    return ARGUMENT.findall(command or "")


def options(command: str | None) -> list[tuple[str, str]]:
    """``[(name, value)]`` of each ``--name[=value]`` argument in order,
    value ``''`` when the argument has no ``=``."""
    out = []
    for argument in arguments(command):
        if argument.startswith("--"):
            name, _, value = argument.partition("=")
            out.append((name, value))
    return out


def conflicting_flag(command: str | None, names: frozenset[str] | set[str]) -> tuple[str, list[str]] | None:
    """``(name, its values)`` of the first option among ``names`` that the
    command gives twice with different values (an option trtexec collects,
    :data:`REPEATABLE`, excepted); None when there is none."""
    seen: dict[str, list[str]] = {}
    for name, value in options(command):
        if name in names and name not in REPEATABLE:
            seen.setdefault(name, []).append(value)
    return next(((name, values) for name, values in seen.items() if len(set(values)) > 1), None)
