"""Records: schema-checked JSON run records, dataset definitions and study files.

The lowest layer above the core: collectors write through it
(:mod:`.write`, :class:`.result.NewResult`), the study reads through it
(:mod:`.load`). It imports no collector (tests/test_layers.py).
"""
