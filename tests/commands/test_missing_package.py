"""A library that is not installed is named as such, in one line, not as an internal error.

Case: on the GPU machine, studygen's wheels were installed without their
dependencies, and ``studygen check`` stopped with "internal error:
ModuleNotFoundError: No module named 'wcwidth'" (mdformat-gfm imports it)."""

from __future__ import annotations

import pytest

from studygen import cli
from studygen.commands import check as check_command


def _failing(exc):
    def run_check(options):
        raise exc
    return run_check


def test_a_missing_library_is_named_with_how_to_install_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(check_command, "run_check", _failing(ModuleNotFoundError("No module named 'wcwidth.x'",
                                                                                  name="wcwidth.x")))
    assert cli.run(["check", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == ("studygen: the Python module wcwidth is not installed in this environment (this command or a "
                   "library it uses needs it): install studygen with its dependencies (pip install -e . in its "
                   "checkout; pip install -e '.[gpu]' for collect run's torch, transformers and ModelOpt) "
                   "(set STUDYGEN_DEBUG=1 for the traceback)\n")


@pytest.mark.parametrize("exc", [ModuleNotFoundError("no name given"), ValueError("boom"),
                                 ModuleNotFoundError("No module named 'studygen.nothere'", name="studygen.nothere")])
def test_other_errors_stay_internal_errors(monkeypatch, capsys, tmp_path, exc):
    monkeypatch.setattr(check_command, "run_check", _failing(exc))
    assert cli.run(["check", "--root", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"studygen: internal error: {type(exc).__name__}: {exc} "
                                       "(set STUDYGEN_DEBUG=1 for the traceback)\n")


def test_with_studygen_debug_the_error_is_raised(monkeypatch, tmp_path):
    monkeypatch.setenv("STUDYGEN_DEBUG", "1")
    monkeypatch.setattr(check_command, "run_check", _failing(ModuleNotFoundError("x", name="wcwidth")))
    with pytest.raises(ModuleNotFoundError):
        cli.run(["check", "--root", str(tmp_path)])
