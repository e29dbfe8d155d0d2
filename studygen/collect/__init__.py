"""Collectors: turn measurement outputs into run-record results.

Modules (imported lazily by ``studygen collect``): :mod:`.trtexec` (console
log, --exportTimes, --exportProfile, --exportLayerInfo, plan size),
:mod:`.torch_profile` (Kineto Chrome traces), :mod:`.coco` (COCOeval bbox
statistics, refusal rules, dataset definitions), :mod:`.env` (this machine's
provenance block), :mod:`.kernel_groups` (ordered regex → kernel group
rules, shared with ``collect run``), :mod:`.writer` (schema-checked atomic
write or extension of ``DIR/<family>/<job>.json``), :mod:`.inputs` (input
guards and JSON reading).
"""
