"""Nothing in a cache folder can run code or change a verdict (issue 24).

studygen keeps nothing between runs. Earlier versions kept four kinds of
entries in ``$STUDYGEN_CACHE_DIR`` (else ``$XDG_CACHE_HOME/studygen``, else
``~/.cache/studygen``): compiled schema checks (``schema-checks/``, marshalled
code that was run), compiled templates (``templates-<digest>/``, Jinja's
bytecode cache: a pickle, then marshalled code), formatted Markdown
(``markdown/``) and each study's findings (``check-findings/``). These tests
plant an entry of each kind, written as an attacker would (a code object
that writes a marker file, a pickle that opens one, a forged text re-sealed
with its own sha256, findings emptied by hand), and show that ``check``
prints the same findings with the same exit code and ``render`` writes the
same bytes as without them, that no planted code ran, and that studygen
opened nothing in any of the three cache folders, also when those folders
are world-writable (mode 1777) and owned by another user.

Every studygen here runs as its own process, with ``HOME``,
``XDG_CACHE_HOME`` and ``STUDYGEN_CACHE_DIR`` under the test's folder and
``PYTHONDONTWRITEBYTECODE`` set, so Python's own bytecode files play no part.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO, copy_project

README = Path("families/deformable_detr/README.md")
FIGURE = Path("families/deformable_detr/figures/latency.svg")
KINDS = ("schema-checks", "templates", "markdown", "check-findings")  # templates: in templates-<digest>/

# Runs studygen with every open and listing recorded (paths, absolute), written to argv[1] at exit.
RECORDING_RUN = """
import atexit, io, os, sys
log, argv = sys.argv[1], sys.argv[2:]
seen = []
real_open, real_os_open, real_listdir, real_scandir = io.open, os.open, os.listdir, os.scandir

def note(path):
    if isinstance(path, (str, bytes, os.PathLike)):
        seen.append(os.path.abspath(os.fsdecode(path)))

def recorded_open(file, *args, **kwargs):
    note(file)
    return real_open(file, *args, **kwargs)

def recorded_os_open(path, *args, **kwargs):
    note(path)
    return real_os_open(path, *args, **kwargs)

def recorded_listdir(path="."):
    note(path)
    return real_listdir(path)

def recorded_scandir(path="."):
    note(path)
    return real_scandir(path)

import builtins
builtins.open = io.open = recorded_open
os.open, os.listdir, os.scandir = recorded_os_open, recorded_listdir, recorded_scandir
atexit.register(lambda: real_open(log, "w", encoding="utf-8").write("\\n".join(seen)))
from studygen.cli import run
sys.exit(run(argv))
"""


def studygen(*argv, cwd: Path, env: dict, recorded: Path | None = None) -> tuple[int, str, str]:
    """``python -m studygen ARGV`` (or the recording run) as a process; (exit code, stdout, stderr)."""
    command = [sys.executable, "-c", RECORDING_RUN, str(recorded)] if recorded else [sys.executable, "-m", "studygen"]
    done = subprocess.run([*command, *map(str, argv)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def environment(tmp_path: Path, pythonpath: Path = REPO) -> dict:
    env = dict(os.environ, PYTHONPATH=str(pythonpath), PYTHONDONTWRITEBYTECODE="1", HOME=str(tmp_path / "home"),
               XDG_CACHE_HOME=str(tmp_path / "xdg"), STUDYGEN_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("STUDYGEN_JOBS", None)
    return env


def cache_roots(tmp_path: Path) -> list[Path]:
    """The three places a cache folder of studygen was looked for."""
    return [tmp_path / "cache", tmp_path / "xdg" / "studygen", tmp_path / "home" / ".cache" / "studygen"]


def aged_copy(dest: Path) -> Path:
    """A copy of the shipped deformable_detr study, its files dated 100 s back (an entry of
    an earlier version's findings cache was kept only for files older than its 1 s window)."""
    root = copy_project(dest)
    past = time.time() - 100
    for path in root.rglob("*"):
        os.utime(path, (past, past))
    return root


def stale(root: Path) -> None:
    """Make the README stale (a hand edit): check must fail with SG201."""
    path = root / README
    path.write_text(path.read_text(encoding="utf-8").replace("FP8", "FP9", 1), encoding="utf-8")
    past = time.time() - 100
    os.utime(path, (past, past))


def sealed(payload: bytes) -> bytes:
    """The seal earlier versions checked: ``sha256 <hex>``, a newline, the payload (anyone can compute it)."""
    return b"sha256 " + hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload


class OpensMarker:
    """Unpickled, it opens the marker file for appending (creating it): code run by a pickle."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "a")


def planted(kind: str, marker: Path, existing: bytes | None = None) -> bytes:
    """An attacker's entry of ``kind``, written in the format earlier versions read back
    (sealed where they checked a seal); ``existing`` is the entry it replaces, if any."""
    if kind == "schema-checks":
        code = compile(f"open({str(marker)!r}, 'a').write('schema check ran\\n')\n"
                       "def validate(data, custom_formats={}, name_prefix=None):\n    return data\n", "planted", "exec")
        return b"studygen schema check\n" + importlib.util.MAGIC_NUMBER + sealed(marshal.dumps(code))
    if kind == "templates":
        from jinja2.bccache import bc_magic

        return sealed(bc_magic + pickle.dumps(OpensMarker(marker)))
    if kind == "markdown":
        return sealed(b"# Forged\n\nFP8 is 3x faster than fp16 on every GPU.\n")
    entry = json.loads(existing) if existing else {"format": 2, "files": {}, "folders": {}, "probes": {}}
    entry["value"] = []  # the hand edit of issue 24 item 2: no findings
    return json.dumps(entry).encode("utf-8")


def kind_of(folder: Path) -> str:
    """The kind of entry a cache subfolder held (``templates-<digest>`` held templates)."""
    return "templates" if folder.name.startswith("templates-") else folder.name


def plant_everywhere(tmp_path: Path, marker: Path, kinds=KINDS, open_to_all: bool = True) -> list[Path]:
    """Replace every entry of ``kinds`` an earlier run left with a planted one of its kind,
    and plant one of each kind in each of the three cache folders (``open_to_all``: then
    make every cache folder world-writable, see :func:`world_writable`); return the planted files."""
    files = []
    for root in cache_roots(tmp_path):
        for path in sorted(root.rglob("*")) if root.is_dir() else []:
            if path.is_file() and kind_of(path.parent) in kinds:
                path.write_bytes(planted(kind_of(path.parent), marker, path.read_bytes()))
                files.append(path)
        for kind in kinds:
            folder, name = {"schema-checks": ("schema-checks", f"check_{'0' * 64}.{sys.implementation.cache_tag}.bin"),
                            "templates": ("templates-planted", f"__jinja2_{'0' * 40}.cache"),
                            "markdown": ("markdown", f"{'0' * 64}.md"),
                            "check-findings": ("check-findings", f"{'0' * 64}.json")}[kind]
            path = root / folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(planted(kind, marker))
            files.append(path)
    if open_to_all:
        world_writable(tmp_path)
    return files


def world_writable(tmp_path: Path) -> None:
    """Every cache folder and subfolder made mode 1777, as a restored CI cache or a shared
    /tmp folder may be, and, when the tests run as root, owned by another user (nobody):
    earlier versions used such folders as they found them (issue 24 item 1)."""
    for root in cache_roots(tmp_path):
        for folder in [root, *(p for p in root.rglob("*") if p.is_dir())] if root.is_dir() else []:
            folder.chmod(0o1777)
            if os.geteuid() == 0:
                os.chown(folder, 65534, 65534)


def first_check(tmp_path: Path, env: dict) -> None:
    """What earlier versions filled their cache with before ``outcome``: a check of a fresh
    copy with a stale README (its findings, compiled templates, formatted Markdown) and a
    render of another copy (which kept every compiled schema check for later checks)."""
    root = aged_copy(tmp_path / "project")
    stale(root)
    studygen("check", "--root", root, cwd=root, env=env)
    other = aged_copy(tmp_path / "other")
    studygen("render", "--root", other, cwd=other, env=env)
    shutil.rmtree(root)
    shutil.rmtree(other)


def outcome(tmp_path: Path, env: dict, recorded: Path | None = None) -> dict:
    """check (stale README), then render, then check again, on a fresh copy: exit codes, output, bytes."""
    root = aged_copy(tmp_path / "project")
    stale(root)
    results = {}
    for step, argv in (("check", ("check", "--root", root)), ("check --no-cache", ("check", "--no-cache", "--root", root)),
                       ("render", ("render", "--root", root)), ("check after render", ("check", "--root", root))):
        log = recorded.with_suffix(f".{len(results)}") if recorded else None
        code, out, err = studygen(*argv, cwd=root, env=env, recorded=log)
        results[step] = (code, out.replace(str(root), "ROOT"), err.replace(str(root), "ROOT"))
    results["bytes"] = {str(path): (root / path).read_bytes() for path in (README, FIGURE)}
    shutil.rmtree(root)
    return results


def test_planted_entries_of_every_kind_never_run_code_nor_change_check_or_render(tmp_path):
    marker = tmp_path / "planted-code-ran"
    clean = outcome(tmp_path, dict(environment(tmp_path), STUDYGEN_CACHE_DIR=""))  # earlier versions: no cache
    assert clean["check"][0] == 1 and "SG201 README is stale" in clean["check"][1]
    assert clean["check after render"][0] == 0
    assert clean["bytes"][str(README)] == (REPO / README).read_bytes()
    shutil.rmtree(tmp_path / "home", ignore_errors=True)

    env = environment(tmp_path)
    first_check(tmp_path, env)  # earlier versions filled the cache here
    planted_files = plant_everywhere(tmp_path, marker)
    assert len(planted_files) >= 3 * len(KINDS)
    log = tmp_path / "opened"
    again = outcome(tmp_path, env, recorded=log)

    assert not marker.exists(), marker.read_text()
    assert again == clean
    for log_file in sorted(tmp_path.glob("opened.*")):
        opened = log_file.read_text(encoding="utf-8").splitlines()
        assert opened  # the recording saw the project's files
        for root in cache_roots(tmp_path):
            assert not [path for path in opened if path.startswith(str(root))], log_file


def test_a_hand_edited_findings_entry_cannot_pass_a_stale_readme(tmp_path):
    # issue 24 item 2: an entry's value set to [] made the next check of a stale README exit 0
    env = environment(tmp_path)
    root = aged_copy(tmp_path / "project")
    stale(root)
    first = studygen("check", "--root", root, cwd=root, env=env)
    assert first[0] == 1 and "SG201 README is stale" in first[1]
    findings = tmp_path / "cache" / "check-findings"
    findings.mkdir(parents=True, exist_ok=True)
    (findings / f"{'0' * 64}.json").write_bytes(planted("check-findings", tmp_path / "marker"))
    for entry in findings.glob("*.json"):
        entry.write_bytes(planted("check-findings", tmp_path / "marker", entry.read_bytes()))
    assert studygen("check", "--root", root, cwd=root, env=env) == first


def test_a_resealed_markdown_entry_cannot_reach_the_readme(tmp_path):
    # issue 24 item 2: a Markdown entry rewritten with its own sha256 was written into the README by render
    env = environment(tmp_path)
    root = aged_copy(tmp_path / "project")
    assert studygen("check", "--root", root, cwd=root, env=env)[0] == 0
    markdown = tmp_path / "cache" / "markdown"
    markdown.mkdir(parents=True, exist_ok=True)
    for entry in [*markdown.glob("*.md"), markdown / f"{'0' * 64}.md"]:
        entry.write_bytes(planted("markdown", tmp_path / "marker"))
    stale(root)
    code, out, _ = studygen("render", "--root", root, cwd=root, env=env)
    assert code == 0 and "wrote families/deformable_detr/README.md" in out
    assert (root / README).read_bytes() == (REPO / README).read_bytes()


@pytest.mark.parametrize("edit", [
    # studygen's own rules: SG208 (7 warnings on deformable_detr) becomes an error, same size
    ("rules.py", 'Rule("SG208", WARNING,', 'Rule("SG208", ERROR  ,'),
    # the run-record schema: a job id must be a number, so no shipped record is valid; same size
    ("schemas/run_record.schema.json", '"job_id": {\n      "type": "string"', '"job_id": {\n      "type": "number"'),
], ids=["rules", "schema"])
def test_a_same_size_edit_of_installed_code_with_its_mtime_kept_is_seen(tmp_path, edit):
    # issue 24 item 3: the code key of earlier versions read each file's size and mtime only
    package = tmp_path / "installed"
    shutil.copytree(REPO / "studygen", package / "studygen", ignore=shutil.ignore_patterns("__pycache__"))
    env = environment(tmp_path, pythonpath=package)
    root = copy_project(tmp_path / "project")
    past = time.time() - 100
    for path in [*root.rglob("*"), *package.rglob("*")]:
        os.utime(path, (past, past))
    assert studygen("check", "--root", root, cwd=root, env=env)[0] == 0
    name, before, after = edit
    path = package / "studygen" / name
    status = path.stat()
    text = path.read_text(encoding="utf-8")
    assert text.count(before) == 1 and len(before) == len(after)
    path.write_text(text.replace(before, after), encoding="utf-8")
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))  # as `touch -r` would
    assert path.stat().st_size == status.st_size and path.stat().st_mtime_ns == status.st_mtime_ns
    fresh = studygen("check", "--no-cache", "--root", root, cwd=root, env=env)
    assert fresh[0] == 1
    assert studygen("check", "--root", root, cwd=root, env=env) == fresh
