"""``collect run``: measure a study's variants with PyTorch on this machine.

What a run measures comes down from the command as plain data
(:class:`~studygen.collect.run.context.RunInputs`: the run plan, the image-set
definitions, the measurements folder); its results go up through a sink the
command makes (:class:`~studygen.collect.run.context.RecordStore`), so nothing
here reads a study or writes a record itself.

Modules, in the order a run uses them: ``spec`` (the plan), ``context`` (the
run in progress), ``runner`` (the order of work), ``variants`` (build, FP8
quantization and compression), ``agreement_stage``, ``ap_stage``,
``latency_stage`` (compile, time, profile one group of cells), and the
measuring helpers ``images``, ``model``, ``quant``, ``agreement``,
``coco_ap``, ``timing``, ``profiling``, ``compiled``, ``provenance``,
``progress``. Nothing imports torch at module level.
"""
