"""Collectors: turn measurement outputs into run-record results.

Readers and result builders only; writing records is the records layer's
(:mod:`studygen.records.write`). Modules (used by the ``studygen collect``
commands): :mod:`.trtexec` (console log, --exportTimes, --exportProfile,
--exportLayerInfo, plan size; one result builder per kind),
:mod:`.torch_profile` (Kineto Chrome traces), :mod:`.coco` (COCOeval bbox
statistics, refusal rules, the dataset definition of an annotations file),
:mod:`.env` (this machine's provenance block), :mod:`.kernel_groups`
(ordered regex → kernel group rules, shared with ``collect run``),
:mod:`.inputs` (input guards and JSON reading), :mod:`.result` (a result
with where it was read).
"""
