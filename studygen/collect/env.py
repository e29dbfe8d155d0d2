"""The provenance block of this machine: GPUs and driver, the CPU model, CUDA, Python,
the versions of torch, transformers, ModelOpt and TensorRT, the repository
commit and whether the tree is dirty.

Everything optional is looked up lazily and may be missing: NVML
(nvidia-ml-py) without a GPU or driver, torch not installed, no git. A
missing tool is reported in ``notes`` and its field set to null; nothing
here raises for it. Versions come from installed package metadata
(``importlib.metadata``), so ``studygen collect env`` imports torch only for
``torch.version.cuda`` and only when asked to (``with_torch``).
"""

from __future__ import annotations

import datetime as _dt
import platform
import socket
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ..gitenv import QUICK_TIMEOUT_S, STATUS_SUBMODULES, STATUS_TIMEOUT_S, git_environment, run_git
from ..version import collector_version

# provenance.software name -> distribution names to try, in order
PACKAGES = {
    "torch": ("torch",),
    "transformers": ("transformers",),
    "modelopt": ("nvidia-modelopt", "nvidia_modelopt"),
    "tensorrt": ("tensorrt", "tensorrt-cu12", "tensorrt-cu13", "tensorrt_cu12", "tensorrt_cu13"),
    "timm": ("timm",),
    "onnxruntime": ("onnxruntime", "onnxruntime-gpu"),
    "pycocotools": ("pycocotools",),
}


def package_version(names: tuple[str, ...]) -> str | None:
    """The installed version of the first distribution found, else None."""
    for name in names:
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return None


def nvml_gpus() -> tuple[list[str], str | None, str | None]:
    """``(gpu names, driver version, problem)`` through NVML (nvidia-ml-py).
    ``problem`` says why no GPU could be listed (not installed, no driver)."""
    try:
        import pynvml
    except ImportError:
        return [], None, "nvidia-ml-py is not installed"
    try:
        pynvml.nvmlInit()
    except Exception as exc:  # NVMLError_LibraryNotFound, DriverNotLoaded, …
        return [], None, f"NVML unavailable ({exc})"
    try:
        driver = pynvml.nvmlSystemGetDriverVersion()
        names = []
        for index in range(pynvml.nvmlDeviceGetCount()):
            name = pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByIndex(index))
            names.append(name.decode() if isinstance(name, bytes) else name)
        driver = driver.decode() if isinstance(driver, bytes) else driver
        return names, driver, None
    except Exception as exc:
        return [], None, f"NVML query failed ({exc})"
    finally:
        try:
            pynvml.nvmlShutdown()
        except Exception:
            pass


def torch_cuda() -> tuple[str | None, list[str], str | None]:
    """``(CUDA version torch was built with, GPU names torch sees, problem)``."""
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken install
        return None, [], f"torch not importable ({type(exc).__name__})"
    names = []
    try:
        if torch.cuda.is_available():
            names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    except Exception as exc:
        return torch.version.cuda, [], f"torch.cuda failed ({exc})"
    return torch.version.cuda, names, None


GITLINK_MODE = "160000 "  # a submodule's entry in ``git ls-files --stage``


def git_state(root: Path) -> tuple[str | None, bool | None, str | None]:
    """``(commit, dirty, problem)`` of the git work tree at ``root``.

    Dirty means ``git status --porcelain --untracked-files=no`` lists
    anything: a change to a tracked file, staged or not (a deleted or renamed
    one too). Untracked files never count, whatever
    ``status.showUntrackedFiles`` says, as ``git describe --dirty`` and
    setuptools-scm read a checkout: a study's new study file and the records
    being collected are untracked until committed, and counting them made
    every record of a new study say ``.dirty``. A submodule counts when it
    is at another commit than the recorded one; files inside one are not
    compared (no git is run in a submodule: :data:`studygen.gitenv.STATUS_SUBMODULES`),
    so a tree with a submodule that is otherwise clean has ``dirty`` None,
    with the reason. ``dirty`` is also None, with the
    problem, when git status fails."""
    try:
        environment = git_environment(root)  # fails closed: no git command when the filter drivers are unknown
        commit = run_git(root, "rev-parse", "HEAD", environment=environment, timeout_s=QUICK_TIMEOUT_S)
        if commit.returncode != 0:
            return None, None, f"not a git work tree with a commit ({first_line(commit.stderr, 'git rev-parse failed')})"
        status = run_git(root, "status", "--porcelain", "--untracked-files=no", STATUS_SUBMODULES,
                         environment=environment, timeout_s=STATUS_TIMEOUT_S)
    except FileNotFoundError:
        return None, None, "git is not installed"
    except OSError as exc:  # e.g. git could not list the filter drivers, so none of its commands is run
        return None, None, f"git not run: {exc}"
    except subprocess.TimeoutExpired:
        return None, None, "git timed out"
    if status.returncode != 0:
        return commit.stdout.strip(), None, f"git status failed, dirty state unknown " \
                                           f"({first_line(status.stderr, f'exit status {status.returncode}')})"
    if status.stdout.strip():
        return commit.stdout.strip(), True, None
    return commit.stdout.strip(), *_clean_unless_submodules(root, environment)


def _clean_unless_submodules(root: Path, environment: dict[str, str]) -> tuple[bool | None, str | None]:
    """``(False, None)`` for a work tree status found clean, ``(None, why)``
    when it holds a submodule, whose files status did not compare (no git is
    run inside one): clean would be a claim nobody checked."""
    try:
        index = run_git(root, "ls-files", "--stage", "-z", environment=environment, timeout_s=STATUS_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None, "git ls-files failed, dirty state unknown"
    if index.returncode != 0:
        return None, f"git ls-files failed, dirty state unknown ({first_line(index.stderr, f'exit status {index.returncode}')})"
    if any(entry.startswith(GITLINK_MODE) for entry in index.stdout.split("\0")):
        return None, ("dirty state unknown: the files inside its submodules were not compared "
                      "(studygen runs no git inside a submodule)")
    return False, None


def first_line(text: str, fallback: str) -> str:
    """The first line of a tool's stderr, or ``fallback`` when it is empty."""
    return text.strip().splitlines()[0] if text.strip() else fallback


# provenance.cpu holds at most this many characters (schemas/run_record.schema.json); a longer name is cut
CPU_MODEL_LIMIT = 200
CPUINFO = Path("/proc/cpuinfo")


def cpu_model(cpuinfo: Path = CPUINFO) -> tuple[str | None, str | None]:
    """``(CPU model, problem)`` of this machine: on Linux the ``model name``
    lines of ``cpuinfo`` (distinct models joined by ' + ', as :func:`gpu_fields`
    joins GPUs), on macOS ``sysctl -n machdep.cpu.brand_string``, elsewhere
    or failing those :func:`platform.processor`. Whitespace runs become one
    space and the name is cut to :data:`CPU_MODEL_LIMIT` characters.
    ``problem`` says why no model was found (an Arm Linux kernel lists no
    ``model name``); nothing here raises."""
    names: list[str] = []
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            field, _, value = line.partition(":")
            if field.strip().lower() == "model name" and value.strip():
                names.append(" ".join(value.split()))
    except OSError:
        pass  # no such file off Linux
    if not names and platform.system() == "Darwin":
        try:
            done = subprocess.run(["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True,
                                  timeout=QUICK_TIMEOUT_S)
            if done.returncode == 0 and done.stdout.strip():
                names.append(" ".join(done.stdout.split()))
        except (OSError, subprocess.TimeoutExpired):
            pass
    if not names and platform.processor().strip():
        names.append(" ".join(platform.processor().split()))
    if not names:
        return None, f"CPU model: not found in {cpuinfo} or platform.processor()"
    distinct = list(dict.fromkeys(names))
    return " + ".join(distinct)[:CPU_MODEL_LIMIT], None


def gpu_fields(names: list[str]) -> dict:
    """``gpu`` (the model; distinct models joined by ' + ') and ``gpu_count``."""
    if not names:
        return {"gpu": None, "gpu_count": 0}
    distinct = sorted(set(names))
    return {"gpu": distinct[0] if len(distinct) == 1 else " + ".join(distinct), "gpu_count": len(names)}


def now_iso() -> str:
    """The current UTC time, ISO 8601 to the second."""
    return _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat()


def collect_env(root: Path | None = None, *, with_torch: bool = True) -> dict:
    """This machine's provenance block (schema ``provenance`` fields).

    Keys: gpu, gpu_count, cpu (:func:`cpu_model`), driver, software {python, cuda, torch,
    transformers, modelopt, tensorrt, timm, onnxruntime, pycocotools},
    repository_commit, repository_dirty (git at ``root``, default the working
    directory), collected_at, notes (what was missing and why). Never
    raises for a missing optional tool.
    """
    notes: list[str] = []
    names, driver, problem = nvml_gpus()
    cuda = None
    if with_torch:
        cuda, torch_names, torch_problem = torch_cuda()
        if not names and torch_names:
            names = torch_names
        if torch_problem:
            notes.append(torch_problem)
    if problem:
        notes.append(f"GPUs and driver: {problem}")
    if not names:
        notes.append("no GPU found on this machine")
    cpu, cpu_problem = cpu_model()
    if cpu_problem:
        notes.append(cpu_problem)
    software = {"python": platform.python_version(), "cuda": cuda}
    for field_name, distributions in PACKAGES.items():
        found = package_version(distributions)
        software[field_name] = found
        if found is None and field_name in ("torch", "transformers", "modelopt", "tensorrt"):
            notes.append(f"{field_name}: not installed")
    if not with_torch:
        software.pop("cuda")
    commit, dirty, git_problem = git_state(root or Path.cwd())
    if git_problem:
        notes.append(f"repository: {git_problem}")
    block = {**gpu_fields(names), "cpu": cpu, "driver": driver, "software": software,
             "repository_commit": commit, "repository_dirty": dirty, "collected_at": now_iso()}
    if notes:
        block["notes"] = notes
    return block


def conversion_machine() -> dict:
    """The light description of the machine converting files into a record
    (``provenance.conversion_machine``): hostname, GPUs via NVML when present,
    Python and studygen's evaluators; no torch import."""
    names, driver, _ = nvml_gpus()
    block = {**gpu_fields(names), "driver": driver, "hostname": socket.gethostname(),
             "software": {"python": platform.python_version()}}
    return block


def collector_block(name: str, root: Path | None, *, reading: tuple[str | None, bool | None] | None = None,
                    command: str | None = None) -> dict:
    """``provenance.collector`` of a record that collector ``name`` (``studygen
    collect run`` …) writes for the project at ``root``: the name, studygen's
    version (:func:`studygen.version.collector_version`) and the studygen
    ``command`` line when given. ``reading`` is the ``(commit, dirty)`` of
    ``root``'s checkout the record states (``collect run``, ``collect env``);
    without one (an ingest), the checkout is read by :func:`git_state`, only
    when the version needs it. Every collector's record gets its collector
    here, so the version follows one rule."""
    def read_checkout() -> tuple[str | None, bool | None]:
        return reading if reading is not None else git_state(root)[:2]

    block = {"name": name, "version": collector_version(root, read_checkout)}
    if command is not None:
        block["command"] = command
    return block
