"""Collectors: turn measurement outputs into run-record results.

Readers and result builders, above the records layer they write through
(:mod:`studygen.records.write`; a result handed on is a
:class:`studygen.records.result.NewResult`); :mod:`.run` also builds the
record of its own measurements (:mod:`.run.record`). Only the commands
import a collector. Modules (used by the ``studygen collect`` commands):
:mod:`.trtexec` (console log, --exportTimes, --exportProfile,
--exportLayerInfo, plan size; one result builder per kind),
:mod:`.torch_profile` (Kineto Chrome traces), :mod:`.coco` (COCOeval bbox
statistics, refusal rules, the dataset definition of an annotations file),
:mod:`.env` (this machine's provenance block), :mod:`.kernel_groups`
(ordered regex → kernel group rules, shared with ``collect run``),
:mod:`.inputs` (input guards and JSON reading).
"""
