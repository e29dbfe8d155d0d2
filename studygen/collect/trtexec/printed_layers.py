"""The engine's layers as a trtexec console log prints them, for
:mod:`.layer_precision`: each layer's type, tactic and first input's type.

Two printed forms, both lines of their own with no ``[time] [I]`` prefix
(seen in ../shared/fixtures: the TensorRT 8.0-8.6 hackathon logs, the 8.5
QAT ResNet-18 log):

* after ``[V] [TRT] Engine Layer Information:`` (a ``--verbose`` build),
  ``Layer(CaskConvolution): NAME, Tactic: 0x…, IN (Int8[1,64:32,56,56]) ->
  OUT (…)``; TensorRT 8.0-8.4 write a tensor ``IN[Float(-2,1,28,28)]`` and
  the tactic in decimal. The tactic is a number here, so only the input's
  type says anything.
* after ``[I] Layers:`` (``--dumpLayerInfo``), of an engine built with
  ``--profilingVerbosity=detailed``: ``Name: NAME, LayerType: TYPE, Inputs:
  [ { Name: …, Format/Datatype: Row major Int8 format }, …], Outputs: […],
  ParameterType: …`` and, where the release prints it, ``TacticName: …``.
  A names-only engine prints bare names there, which say nothing and are
  skipped.

A block ends at the next prefixed line.
"""

from __future__ import annotations

import re

from .exports import LayerKernel

# the prefixed messages after which trtexec prints the layers (the verbose one keeps TensorRT's "[TRT] " tag)
BLOCK_HEADERS = ("Engine Layer Information:", "Layers:")

VERBOSE_LAYER = re.compile(r"^Layer\((?P<type>[^)]*)\): (?P<name>.*?), Tactic: (?P<tactic>\S+), (?P<io>.*)$")
# a tensor's type in the verbose form: "name (Int8[1,3,224,224])" (8.5 on) or "name[Float(-2,1,28,28)]" (8.0-8.4)
VERBOSE_TYPE = re.compile(r"\((?P<later>[A-Za-z]\w*)\[|\[(?P<earlier>[A-Za-z]\w*)\(")
# the head of a --dumpLayerInfo line; its inputs run to the first "], Outputs: " after it (found with str.find: a
# lazy ".*?" before that text retried at every ", LayerType: " made a long garbled line quadratic, minutes a MB)
DETAILED_LAYER = re.compile(r"^Name: (?P<name>.*?), LayerType: (?P<type>[^,]*), Inputs: \[")
INPUTS_END = "], Outputs: "
# an input's type up to the next comma or brace, trailing spaces stripped after the match (a lazy type before
# "\s*" backtracked over every split of a long run of spaces)
DETAILED_TYPE = re.compile(r"(?:Format/Datatype|DataType): (?P<type>[^,}]*)[,}]")
DETAILED_PARAMETER = re.compile(r", ParameterType: (?P<type>[^,]+)")
DETAILED_TACTIC = re.compile(r", TacticName: (?P<tactic>[^,]+)")
NUMERIC_TACTIC = re.compile(r"^-?(?:0x[0-9a-fA-F]+|\d+)$")


def starts_block(message: str) -> bool:
    """True when a prefixed log message opens a printed layer list."""
    return message.endswith(BLOCK_HEADERS[0]) or message.strip() == BLOCK_HEADERS[1]


def printed_layer(line: str) -> tuple[str, LayerKernel] | None:
    """``(layer name, what it ran)`` of one printed layer line, in either
    form; None for any other line (a bare name, a binding, a blank)."""
    if found := VERBOSE_LAYER.match(line):
        inputs = found.group("io").split(" -> ", 1)[0]
        first = VERBOSE_TYPE.search(inputs)
        types = (first.group("later") or first.group("earlier"),) if first else ()
        tactic = found.group("tactic")
        return found.group("name"), LayerKernel(work=found.group("type"),
                                                tactic=None if NUMERIC_TACTIC.match(tactic) else tactic,
                                                input_types=types)
    if (found := DETAILED_LAYER.match(line)) and (inputs_end := line.find(INPUTS_END, found.end())) >= 0:
        first = DETAILED_TYPE.search(line, found.end(), inputs_end)
        after = inputs_end + len(INPUTS_END)
        parameter = DETAILED_PARAMETER.search(line, after)
        tactic = DETAILED_TACTIC.search(line, after)
        work = " ".join(filter(None, (found.group("type").strip(), parameter and parameter.group("type").strip())))
        return found.group("name"), LayerKernel(work=work, tactic=tactic.group("tactic").strip() if tactic else None,
                                                input_types=(first.group("type").rstrip(),) if first else ())
    return None
