"""Fixtures of the records tests: a working folder of their own (as the collect tests have)."""

from tests.collect.conftest import collect, workdir  # noqa: F401 - fixtures, found by name
