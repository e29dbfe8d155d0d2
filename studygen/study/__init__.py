"""A study: its study file, its run records and dataset definitions, loaded.

Flow: ``records`` (validated JSON) → :class:`Study` (this module; its figures
as rows: :mod:`.rows`) → ``render`` and ``checks``. Loading never raises on
a bad record: the problem is kept in :attr:`Study.problems` so ``check`` can
report it as SG202 while ``render`` refuses to run.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

from ..errors import RecordError, StudygenError, UsageError
from ..fsutil import open_to_others, shown_path, shown_paths_in
from ..place import Place
from ..records.inductor_settings import inductor_config_problem
from ..records.kernel_rules import compile_pattern
from ..records.load import Dataset, Record, load_dataset, load_record, load_yaml, unquoted_non_text, yaml_node
from ..records.schemas import validate_document
from ..records.names import study_name_problem, validate_family_name
from ..textio import regular_file
from ..records.checkpoints import Revisions
from ..rules import code_of
from .model_revisions import revisions_in_view
from .rows import Row, flatten_record
from .timing import compute_rows

STUDY_FILE = "study.yaml"
# The study file's list of configurations declared not measured (each with a config and a reason).
NOT_MEASURED_KEY = "not_measured"


def find_root(start: Path | None = None) -> Path:
    """The project root: the nearest folder at or above ``start`` (default:
    the working directory) that holds ``families/``, resolved. The walk goes
    up the path as given, made absolute (``os.path.abspath``: symbolic links
    kept), so a study folder that is a link into another tree still finds the
    project it was named in. Raises UsageError."""
    here = Path(os.path.abspath(start or Path.cwd()))
    for folder in (here, *here.parents):
        if (folder / "families").is_dir():
            return folder.resolve()
    raise UsageError(f"no project root: no folder holding families/ at or above {here} (use --root DIR)")


def is_study_dir_target(target: str) -> bool:
    """Whether a command-line target is a path to a study folder (it holds a
    "/" or is a folder here, and a study file is in it) rather than a family
    name; the rule :func:`resolve_targets` reads targets by."""
    as_path = Path(target)
    return ("/" in target or as_path.is_dir()) and (as_path / STUDY_FILE).is_file()


def is_path_target(target: str) -> bool:
    """Whether a target that is no study folder was still written as a path
    (a "/" in it, or a leading "."), so it cannot be a family name."""
    return "/" in target or target.startswith(".")


def refuse_path_target(target: str, root: Path | None = None) -> None:
    """UsageError naming ``target``, a path that is no study folder, by what
    it is: no such folder, a file (no folder), or a folder without a study
    file (InputError when that study file is no regular file:
    :func:`refuse_special_study_file`; shown relative to ``root``)."""
    as_path = Path(target)
    if not as_path.exists():
        raise UsageError(f"{target}: no such folder")
    if not as_path.is_dir():
        raise UsageError(f"{target}: not a folder (a STUDY_DIR is a folder holding {STUDY_FILE})")
    refuse_special_study_file(as_path / STUDY_FILE, root)
    raise UsageError(f"{target}: no {STUDY_FILE} in that folder")


def project_of_study_dir(target: str) -> Path:
    """The project root of a study folder given as a path: the folder above
    the ``families/`` it lies directly in, else the nearest folder holding
    ``families/`` at or above it (a test case kept elsewhere in a project),
    both taken from the path as given made absolute, never from where its
    symbolic links lead (:func:`find_root`). Raises UsageError."""
    given = Path(os.path.abspath(target))
    if given.parent.name == "families":
        return given.parent.parent.resolve()
    return find_root(given)


def study_dir_at(target: str, root: Path) -> Path:
    """The study folder a path target names: ``root/families/<name>``, the
    folder a family name gives, when the path as given lies directly in
    root's ``families/`` (so a family read by path and by name is one study,
    also when its folder is a symbolic link); else the path resolved."""
    given = Path(os.path.abspath(target))
    if given.parent.resolve() == (root / "families").resolve():
        return root / "families" / given.name
    return given.resolve()


def family_dirs(root: Path) -> list[Path]:
    """Every ``families/<f>/`` holding a study file, sorted by name."""
    return sorted(p.parent for p in (root / "families").glob(f"*/{STUDY_FILE}"))


def folders_without_study_file(root: Path) -> list[Path]:
    """Every folder ``families/<f>/`` (hidden ones, such as ``.git``, left
    out) with nothing at ``<f>/study.yaml``, sorted by name: a family begun
    and never given its study file, which :func:`family_dirs` cannot list
    (a study file that is there but no regular file is listed, and refused
    when loaded)."""
    families = root / "families"
    if not families.is_dir():
        return []
    return sorted(p for p in families.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and not os.path.lexists(p / STUDY_FILE))


def resolve_targets(root: Path, targets: tuple[str, ...] | list[str]) -> list[Path]:
    """Study folders for command-line targets: family names (looked up in
    ``root``, which is resolved) or paths to a folder holding a study file
    (:func:`study_dir_at`). No targets: every family. Raises UsageError for an
    unknown family or a path that is no study folder."""
    if not targets:
        dirs = family_dirs(root)
        if not dirs:
            raise UsageError(f"no families/*/{STUDY_FILE} under {root}")
        return dirs
    resolved = []
    for target in targets:
        if is_study_dir_target(target):
            resolved.append(study_dir_at(target, root))
            continue
        if is_path_target(target):
            refuse_path_target(target, root)
        validate_family_name(target)
        candidate = root / "families" / target
        if not (candidate / STUDY_FILE).is_file():
            refuse_special_study_file(candidate / STUDY_FILE, root)
            known = ", ".join(p.name for p in family_dirs(root)) or "none"
            raise UsageError(f"unknown family '{target}' (known: {known})")
        resolved.append(candidate)
    return list(dict.fromkeys(resolved))  # "check X X" checks X once


def refuse_special_study_file(path: Path, root: Path | None = None) -> None:
    """InputError naming ``path`` when a study file is there but is no
    regular file (a folder, a FIFO, a device; :func:`studygen.textio.regular_file`),
    so that it is not mistaken for a family without a study file."""
    if os.path.lexists(path):
        regular_file(path, shown_path(path, root))


class Problem(NamedTuple):
    """A file that failed to load, at a :class:`~studygen.place.Place`:
    reported by check as SG202, refused by render (:meth:`error`).
    ``no_records``: the study has no record yet (nothing is wrong with a
    file; render skips the study, check says to collect), ``hint`` what to
    do when it is not to fix a file."""

    place: Place
    message: str
    no_records: bool = False
    hint: str | None = None

    @classmethod
    def at(cls, path: str, message: str, pointer: str | None = None, line: int = 0) -> "Problem":
        return cls(Place(path, line, pointer), message)

    @classmethod
    def of_error(cls, error: StudygenError, shown: str) -> "Problem":
        """The problem an error met while loading the file shown as ``shown``
        reports, at the error's place, with the error's hint (a record whose
        figures contradict each other is fixed otherwise than a schema
        violation). A pointer to the whole document (``/``) is dropped: the
        line (1) says as much."""
        place = error.place._replace(path=shown)
        if place.pointer == "/":
            place = place._replace(pointer=None)
        return cls(place, error.message, hint=error.hint)

    def error(self) -> RecordError:
        """The problem as the error render and collect raise (one line naming the place)."""
        return RecordError(self.message, place=self.place)

    @property
    def path(self) -> str:
        return self.place.path

    @property
    def pointer(self) -> str | None:
        return self.place.pointer

    @property
    def line(self) -> int:
        return self.place.line


@dataclass
class Study:
    """A loaded study. ``spec`` is the validated study file."""

    root: Path
    study_dir: Path
    spec: dict
    spec_text: str
    records: list[Record] = field(default_factory=list)
    datasets: dict[str, Dataset] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    # The study file's ``comparisons``: name -> the records of its folder (kept apart from ``records``).
    comparison_records: dict[str, list[Record]] = field(default_factory=dict)
    # (folder as shown, mode) of each folder the study's inputs are read from (or one above it, up to the
    # project root) that every user may write in: SG220 warns about them
    open_folders: list[tuple[str, int]] = field(default_factory=list)
    _shown_paths: dict[Path, str] = field(default_factory=dict, init=False, repr=False, compare=False)  # rel()'s

    @property
    def family(self) -> str:
        return self.spec["family"]

    @property
    def has_unread_files(self) -> bool:
        """Whether a record, dataset definition or folder of the study failed
        to load (a problem other than having no record yet,
        :attr:`Problem.no_records`): what no loaded record holds may be in
        it, so a check whose verdict is that something is missing says
        nothing then (SG202 names the file)."""
        return any(not problem.no_records for problem in self.problems)

    @property
    def study_path(self) -> Path:
        return self.study_dir / STUDY_FILE

    @property
    def readme_path(self) -> Path:
        return self.study_dir / "README.md"

    @property
    def charts_dir(self) -> Path:
        """``families/<f>/figures/``: where the study's charts go."""
        return self.study_dir / "figures"

    @property
    def measurements_dir(self) -> Path:
        rel = self.spec.get("measurements") or f"measurements/{self.family}"
        return self.root / rel

    def rel(self, path: Path) -> str:
        """``path`` as findings show it (:func:`studygen.fsutil.shown_path`,
        relative to the project root), worked out once a path for this study:
        every README finding shows the README's path, and each working out
        resolved it and the root on the disk, a component at a time. A study
        holds what one command read, so the answer is the disk's (links,
        working folder) as that command found it: a study kept past a change
        of the folders shows paths as they were."""
        shown = self._shown_paths.get(path)
        if shown is None:
            shown = self._shown_paths[path] = shown_path(path, self.root)
        return shown

    @property
    def variants(self) -> dict[str, dict]:
        return {v["name"]: v for v in self.spec["variants"]}

    @property
    def declared_not_measured(self) -> list[dict]:
        """The study file's ``not_measured`` entries (``config``, ``reason``, …):
        configurations the study declares it did not measure."""
        return list(self.spec.get(NOT_MEASURED_KEY) or [])

    def variant_label(self, variant: str) -> str:
        return self.variants.get(variant, {}).get("label", variant)

    def comparison(self, name: str) -> "Study":
        """The study as seen through the records of its ``comparisons`` entry
        ``name`` only (same study file and datasets, no comparisons of its
        own): what render prints of a side measurement; one view a name, made
        when first asked (a template asking twice gets the same view, its rows
        flattened once). Raises KeyError for a name the study file does not
        declare."""
        views = self.__dict__.setdefault("_comparison_views", {})
        if name not in views:
            view = replace(self, records=list(self.comparison_records[name]), comparison_records={}, problems=[])
            view.__dict__["revisions"] = self.revisions  # keys made among the same revisions as the study's own
            views[name] = view
        return views[name]

    @functools.cached_property
    def rows(self) -> list[Row]:
        """Every figure of every record as one :class:`~studygen.study.rows.Row`, in record order."""
        rows, variants, printing, revision_keys = [], self.variants, self.spec.get("precision", {}), {}
        for record in self.records:
            rows.extend(flatten_record(record, variants, printing, self.revisions, revision_keys))
        return rows

    @functools.cached_property
    def compute_timing_rows(self) -> list[Row]:
        """The latency rows that time their run's GPU work
        (:func:`~studygen.study.timing.compute_rows` of :attr:`rows`), in row
        order; made once a study: SG207 compares them and the precision
        inversions (SG208, render's side findings) pair them, and each made
        them anew (4 ms per 1,000 records of the scale benchmark)."""
        return compute_rows(self.rows)

    @functools.cached_property
    def revisions(self) -> Revisions:
        """The checkpoint revisions in view: those the study file allows and
        those its records (and its comparisons' records) hold; each row's key
        holds its revision's :meth:`~studygen.records.checkpoints.Revisions.key`
        among them, and SG209 asks them which revisions the study names."""
        records = [*self.records, *(r for group in self.comparison_records.values() for r in group)]
        return revisions_in_view(self.spec.get("model"),
                                 ((record.provenance.get("checkpoint") or {}).get("revision") for record in records))


def refuse_unportable_names(spec: dict, shown: str) -> None:
    """RecordError at the pointer of a name in a study file that cannot name
    a file everywhere (:func:`studygen.records.names.study_name_problem`)."""
    problem = study_name_problem(spec)
    if problem is not None:
        raise RecordError(problem[1], path=shown, pointer=problem[0])


def refuse_invalid_patterns(spec: dict, shown: str) -> None:
    """RecordError at ``/kernel_groups/N/pattern`` of the first pattern
    collect would not group by (:func:`studygen.records.kernel_rules.compile_pattern`:
    no regular expression, or a risk of long backtracking RE2 cannot take).
    Check and render refuse it as collect does: a study whose rule only
    parsed once loaded with its rules unread (SG210, SG223 skipped)."""
    for index, rule in enumerate(spec.get("kernel_groups") or []):
        if isinstance(rule, dict):
            compile_pattern(rule["pattern"], shown, f"/kernel_groups/{index}/pattern")


def refuse_inductor_settings(spec: dict, shown: str) -> None:
    """RecordError at the pointer of a ``run.inductor_config`` setting a study
    file may not give: a debug, file or program setting, or a value that is no
    switch or number (:mod:`studygen.records.inductor_settings`)."""
    problem = inductor_config_problem(spec)
    if problem is not None:
        raise RecordError(problem[1], path=shown, pointer=problem[0])


def load_study(study_dir: Path, root: Path) -> Study:
    """Load ``study_dir/study.yaml`` and the records it names.

    Raises RecordError when the study file itself is unreadable or invalid
    (nothing can be checked without it). Bad records and dataset files are
    kept as :class:`Problem` entries; a study with no record at all is a
    problem too.
    """
    study_path = study_dir / STUDY_FILE
    rel = shown_path(study_path, root)
    spec, text = load_yaml(study_path, rel)
    if not isinstance(spec, dict):
        raise RecordError("study file must be a YAML mapping", path=rel, pointer="/")
    try:
        validate_document("study", spec, path=rel, text=None)
        refuse_unportable_names(spec, rel)
        refuse_invalid_patterns(spec, rel)
        refuse_inductor_settings(spec, rel)
        if spec["family"] != study_dir.name and study_dir.parent == root / "families":
            raise RecordError(f"family '{spec['family']}' differs from its folder name '{study_dir.name}'",
                              path=rel, pointer="/family")
    except RecordError as exc:
        raise at_yaml_line(exc, text) from None
    study = Study(root=root, study_dir=study_dir, spec=spec, spec_text=text)
    records_dir = study.measurements_dir
    shown_in = {records_dir: shown_paths_in(records_dir, root)}
    # (display-path function of the record's folder, record path): the folder is known, not asked per record
    record_files = _json_files(records_dir, root, study.problems)
    record_paths = [(shown_in[records_dir], path) for path in record_files or []]
    for extra in spec.get("extra_measurements", []):  # more record folders (a test case adding rows to shared records)
        extra_dir = root / extra
        if not _is_folder(extra_dir):
            study.problems.append(Problem.at(rel, f"extra_measurements: {extra}/ is not a folder",
                                             "/extra_measurements"))
            continue
        shown_in_extra = shown_in.setdefault(extra_dir, shown_paths_in(extra_dir, root))
        record_paths += [(shown_in_extra, path) for path in _json_files(extra_dir, root, study.problems) or []]
    for shown_in_folder, path in record_paths:
        shown = shown_in_folder(path)
        try:
            study.records.append(load_record(path, shown))
        except StudygenError as exc:
            study.problems.append(Problem.of_error(exc, shown))
    # an unlistable records folder is one problem: its datasets/ is not asked for a second
    dataset_files = _json_files(records_dir / "datasets", root, study.problems) if record_files is not None else []
    for path in dataset_files or []:
        shown = shown_path(path, root)
        try:
            dataset = load_dataset(path, shown)
            study.datasets[dataset.dataset_id] = dataset
        except StudygenError as exc:
            study.problems.append(Problem.of_error(exc, shown))
    if not record_paths and not study.problems:
        study.problems.append(Problem(
            Place(rel, 0, None), f"no records: {shown_path(records_dir, root)}/ holds no *.json run record",
            no_records=True, hint=f"collect its first records: studygen collect trtexec|torch-profile|coco --family "
                                  f"{study.family} --job JOB ... (docs/study-guide.md)"))
    _load_comparisons(study, rel)
    study.problems.extend(record_consistency_problems(study))
    read_from = [study_dir, root / "templates", records_dir, records_dir / "datasets",
                 *(root / extra for extra in spec.get("extra_measurements", [])),
                 *(records_dir / entry["records"] for entry in spec.get("comparisons") or [])]
    study.open_folders = open_folders(read_from, root)
    return study


def open_folders(folders: list[Path], root: Path) -> list[tuple[str, int]]:
    """``(folder as shown, mode)`` of each of ``folders`` that exists, and
    of each folder above one of them up to ``root``, that every user may
    write in (:func:`studygen.fsutil.open_to_others`), once each, in order
    of the path: anyone on the machine could plant or replace the records,
    study file or templates read from there."""
    seen, found = set(), []
    root = root.absolute()
    for folder in folders:
        folder = folder.absolute()
        if not _is_folder(folder):
            continue
        chain = [folder, *folder.parents]
        upto = chain.index(root) + 1 if root in chain else 1
        for step in chain[:upto]:
            if step not in seen:
                seen.add(step)
                mode = open_to_others(step)
                if mode is not None:
                    found.append((step, mode))
    return [(shown_path(step, root) if step != root else ".", mode) for step, mode in sorted(found)]


# The check that reports the folders of open_folders, named by the rule table (its code is written there).
OPEN_FOLDERS_CHECK = "studygen.checks.sg220_open_folders"


def open_folder_warning(folder: str, mode: int) -> str:
    """The line ``render`` prints on stderr for a folder of :func:`open_folders`
    (render runs no check, but writes a README from what it read there;
    ``check`` reports the folder under the code of :data:`OPEN_FOLDERS_CHECK`).
    Here, not in the check's module, so that render imports no check."""
    return (f"studygen: warning: {folder}/: writable by every user (mode {mode:04o}), so anyone on this machine could "
            f"have added or replaced what this README was rendered from ({code_of(OPEN_FOLDERS_CHECK)})")


def _load_comparisons(study: Study, rel: str) -> None:
    """The records of each ``comparisons`` entry (a folder under the
    measurements folder, see the study schema) into
    :attr:`Study.comparison_records`; a folder that is missing or holds no
    record, a name used twice and a bad record are problems (SG202)."""
    for index, entry in enumerate(study.spec.get("comparisons") or []):
        pointer = f"/comparisons/{index}"
        if entry["name"] in study.comparison_records:
            study.problems.append(Problem.at(rel, f"comparisons: the name {entry['name']!r} is used twice", pointer))
            continue
        folder = study.measurements_dir / entry["records"]
        records = study.comparison_records[entry["name"]] = []
        paths = _json_files(folder, study.root, study.problems)
        if paths is None:  # there, but not a folder it can list: the problem names it
            continue
        if not paths:
            study.problems.append(Problem.at(rel, f"comparisons: {shown_path(folder, study.root)}/ holds no *.json "
                                                  f"run record", pointer + "/records"))
            continue
        shown_in = shown_paths_in(folder, study.root)
        for path in paths:
            try:
                records.append(load_record(path, shown_in(path)))
            except StudygenError as exc:
                study.problems.append(Problem.of_error(exc, shown_in(path)))


def at_yaml_line(exc: RecordError, text: str) -> RecordError:
    """``exc`` (placed by a JSON pointer into the study file) placed at the YAML
    line of that node instead, the pointer kept in the message; as it was when
    the node has no line (a missing key). A refusal of a value that is no
    text says so when YAML read it from unquoted text (``revision: 0123456``
    is the octal number 42798): how it was written and to quote it."""
    pointer = exc.place.pointer
    if not pointer:
        return exc
    steps = [int(part) if part.isdigit() else part.replace("~1", "/").replace("~0", "~")
             for part in pointer.split("/")[1:] if part]
    node = yaml_node(text, *steps)
    if node is None:
        return exc
    written = unquoted_non_text(node) if "'string'" in exc.message else None  # a schema's type refusal of a text
    message = f"{exc.message}; {written}" if written else exc.message
    return RecordError(f"{message} ({pointer})", place=Place(exc.place.path, node.start_mark.line + 1))


def _is_folder(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:  # a parent without search permission
        return False


def _json_files(folder: Path, root: Path, problems: list) -> list[Path] | None:
    """The entries directly in ``folder`` whose names end in ``.json`` (those
    ``folder.glob("*.json")`` names), sorted by name; none when nothing is
    at ``folder``, not even a link (a family with no records yet).

    Anything else there that cannot be listed (a file in the folder's place,
    a symbolic link that leads nowhere or loops, a folder without read or
    search permission) is a problem (SG202: :func:`unlistable_folder`) and
    gives None. A file, or the folder, that a symbolic link takes outside
    the project ``root`` is a problem too and is not listed
    (:func:`outside_project`). Listed with ``os.scandir`` rather than ``Path.glob``, which
    answers an unreadable folder with no entries instead of its error."""
    try:
        with os.scandir(folder) as entries:
            listed = sorted((entry.name, entry.is_symlink()) for entry in entries if entry.name.endswith(".json"))
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and not os.path.lexists(folder):
            return []
        problems.append(unlistable_folder(folder, root, exc))
        return None
    if listed and not _inside(folder, root):
        problems.append(outside_project(folder, root, "a folder"))
        return None
    outside = [name for name, link in listed if link and os.path.exists(folder / name)
               and not _inside(folder / name, root)]  # a dangling link is named as such when it is read
    problems.extend(outside_project(folder / name, root, "a file") for name in outside)
    return [folder / name for name, _ in listed if name not in outside]


def _inside(path: Path, root: Path) -> bool:
    """Whether ``path``, its links followed, lies inside the project ``root`` (also followed)."""
    try:
        return Path(os.path.realpath(path)).is_relative_to(os.path.realpath(root))
    except (OSError, ValueError):
        return True  # a path that cannot be resolved is refused where it is read, with its own reason


# Why a link out of the project is not read, and what to do: check's words and diff's (at a revision) alike
LINK_NOT_READ = "not read (a commit holds the symbolic link, not what it leads to)"
LINK_HINT = "put the file itself in the project in the link's place"


def outside_project(path: Path, root: Path, what: str) -> Problem:
    """The problem of a record, dataset definition or their folder
    (``what``: ``a file``, ``a folder``) that a symbolic link on the way
    takes outside the project: not read. A revision holds the link, not what
    it leads to, so ``studygen diff`` (which reads revisions from git) could
    not read it, and ``check`` and ``render`` would vouch for a file no
    commit holds. Case (attack s21): such a record was read by check and
    render and left out by diff, whose report gave its figures as removed."""
    return Problem(Place(shown_path(path, root), 0, None),
                   f"{what} that leads outside the project, to {os.path.realpath(path)}: {LINK_NOT_READ}",
                   hint=LINK_HINT)


def unlistable_folder(folder: Path, root: Path, error: OSError) -> Problem:
    """The problem of a records folder (or its ``datasets/``) that is there
    but cannot be listed: placed at the folder, naming it and the system's
    reason (``error.strerror``: "Not a directory", "Permission denied"), and
    where a symbolic link leads ("No such file or directory" alone would
    puzzle: the link is there)."""
    try:
        link = f" (a symbolic link to {os.readlink(folder)})" if folder.is_symlink() else ""
    except OSError:  # the folder above cannot be searched: the reason says so
        link = ""
    return Problem(Place(shown_path(folder, root), 0, None), f"cannot list the folder{link}: {error.strerror or error}",
                   hint="make it a folder that this user may read and search (it holds the study's *.json "
                        "files), or remove it")


def record_consistency_problems(study: Study) -> list[Problem]:
    """What a record may not say although its schema allows it: another
    family, a job id other than its file name (so two files cannot claim one
    job), a variant the study file does not declare."""
    problems = []
    declared, family = set(study.variants), study.family
    for record in [*study.records, *(r for records in study.comparison_records.values() for r in records)]:
        if record.data["family"] != family:
            problems.append(Problem.at(record.display_path,
                                       f"family '{record.data['family']}' but the study is '{family}'",
                                       "/family", record.line_of("/family")))
        if record.job_id != record.path.stem:
            problems.append(Problem.at(record.display_path,
                                       f"job_id '{record.job_id}' differs from the file name '{record.path.name}'",
                                       "/job_id", record.line_of("/job_id")))
        for index, result in enumerate(record.results):
            if result["variant"] in declared and (not result.get("reference_variant")
                                                  or result["reference_variant"] in declared):
                continue  # nearly every result: no list of names to build
            names = [("variant", result["variant"])]
            if result.get("reference_variant"):
                names.append(("reference_variant", result["reference_variant"]))
            for field_name, variant in names:
                if variant not in declared:
                    pointer = f"/results/{index}/{field_name}"
                    problems.append(Problem.at(record.display_path,
                                            f"variant '{variant}' is not declared in {study.rel(study.study_path)} "
                                            f"(declared: {', '.join(sorted(declared))})", pointer,
                                            record.line_of(pointer)))
    return problems
