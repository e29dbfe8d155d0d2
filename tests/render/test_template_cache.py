"""The kept compiled templates (render/engine.py template_bytecode_cache):
a later environment loads a template's code from the cache folder instead
of compiling it, an edited template is compiled anew (never the old code),
the sandbox's loop budget holds in loaded code, and without a cache folder
nothing is kept."""

from __future__ import annotations

import jinja2
import pytest

from studygen.render import engine


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(folder))
    return folder


def _kept(cache_dir):
    return sorted(p for p in cache_dir.rglob("*") if p.is_file())


def test_a_template_is_compiled_once_and_loaded_by_a_later_environment(cache_dir, tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.md.j2").write_text("{% for n in numbers %}{{ n * 2 }} {% endfor %}\n")
    first = engine.make_environment([templates]).get_template("t.md.j2").render(numbers=[1, 2])
    kept = _kept(cache_dir)
    assert len(kept) == 1 and kept[0].parent.name.startswith("templates-")
    compiled = []
    monkeypatch.setattr(jinja2.Environment, "_compile", lambda self, *a: compiled.append(a) or pytest.fail("compiled"))
    again = engine.make_environment([templates]).get_template("t.md.j2").render(numbers=[1, 2])
    assert first == again == "2 4 " and compiled == []  # trim_blocks drops the newline after endfor
    assert _kept(cache_dir) == kept


def test_an_edited_template_is_compiled_anew(cache_dir, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    template = templates / "t.md.j2"
    template.write_text("old {{ x }}\n")
    assert engine.make_environment([templates]).get_template("t.md.j2").render(x=1) == "old 1\n"
    template.write_text("new {{ x }}\n")
    assert engine.make_environment([templates]).get_template("t.md.j2").render(x=1) == "new 1\n"


def test_the_loop_budget_holds_in_loaded_code(cache_dir, tmp_path, monkeypatch):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.md.j2").write_text("{% for n in range(50) %}{{ n }}{% endfor %}\n")
    monkeypatch.setattr(engine, "MAX_TEMPLATE_STEPS", 10)
    for _ in range(2):  # compiled, then loaded from the cache folder
        with pytest.raises(Exception, match="steps|budget|limit"):
            engine.make_environment([templates]).get_template("t.md.j2").render()
    assert len(_kept(cache_dir)) == 1


def test_without_a_cache_folder_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("STUDYGEN_CACHE_DIR", "")
    assert engine.template_bytecode_cache() is None
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.md.j2").write_text("{{ 1 + 1 }}\n")
    assert engine.make_environment([templates]).get_template("t.md.j2").render() == "2\n"


def test_a_changed_cache_folder_is_followed_within_one_process(tmp_path, monkeypatch):
    # A computation kept by studygen.memo must write only into the cache folder of the moment.
    for name in ("first", "second"):
        monkeypatch.setenv("STUDYGEN_CACHE_DIR", str(tmp_path / name))
        templates = tmp_path / f"templates-{name}"
        templates.mkdir()
        (templates / "t.md.j2").write_text("{{ 2 + 2 }}\n")
        assert engine.make_environment([templates]).get_template("t.md.j2").render() == "4\n"
        assert len(_kept(tmp_path / name)) == 1


@pytest.mark.parametrize("damage", [lambda kept: kept.replace(b"kept words", b"kept wordz"), lambda kept: kept[:-20],
                                    lambda kept: b"", lambda kept: kept[:40]])
def test_a_damaged_kept_template_is_compiled_again_never_run(cache_dir, tmp_path, damage):
    # A same-length change to a constant leaves the bytecode loadable: it would print other words
    # (and check would call a README stale that is not, also under check --no-cache).
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "t.md.j2").write_text("kept words {{ x }}\n")
    assert engine.make_environment([templates]).get_template("t.md.j2").render(x=1) == "kept words 1\n"
    (kept,) = _kept(cache_dir)
    whole = kept.read_bytes()
    assert damage(whole) != whole
    kept.write_bytes(damage(whole))
    assert engine.make_environment([templates]).get_template("t.md.j2").render(x=1) == "kept words 1\n"
    assert kept.read_bytes() == whole  # compiled again and kept in its place
