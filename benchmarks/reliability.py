"""Reliability benchmark (issue 16): parallel writers, hostile inputs, large inputs.

Prints four tables, never asserts (tests assert outcomes, not times):

1. **Parallel writers**: N ``studygen collect trtexec`` processes started at
   once into one records folder (different shapes of one job; one key from
   two logs; different jobs), with the results each record keeps against
   those the processes said they added, and what the losers printed.
2. **Hostile inputs**: each case run as its own ``studygen`` process in a
   scratch project, with how it ended (exit code, the first line of stderr),
   its wall time and peak memory. Every case must end with one line and exit
   1 or 2 (a template or check finding) well inside its time cap. Issue 24's
   classes are among them: templates that allocate (a format width, a
   filter's or a method's width, ``%``, ``~``, captured output, repeats in a
   loop), templates nested deep (render and check), lone surrogates, a COCO
   file with a million categories, a byte order mark on each kind of text
   input, names given to collect (``../``, absolute, newline, Windows
   device names, a look-alike of a declared variant, a case-only twin of a
   record), kernel_groups patterns RE2 cannot run (backreferences,
   lookarounds) and long runs of blanks in a study summary or a record note.
3. **Large inputs**: time and peak memory of lint on a large table, deeply
   nested emphasis and a long paragraph, each under a memory cap
   (``--memory-cap-gb``) and a time cap (``--time-cap-s``): a case past a cap
   is printed as such (issue 16's targets: lint linear in time and under 1 GB
   for 30 MB).
4. **Cache poisoning and tampering** (issue 24): entries of every kind earlier
   versions kept and read back (compiled schema checks, template bytecode,
   formatted Markdown, findings) planted as an attacker would, a cache folder
   mode 1777 owned by another user, a same-size edit of installed code with its
   mtime kept; with each, whether check's exit codes and findings and the bytes
   render writes are those of a run without a cache, whether planted code ran,
   and how many files in the cache folders studygen opened.

Inputs: ``../shared/fixtures/trtexec`` (logs), everything else written here.
Usage: ``python benchmarks/reliability.py [--writers 8] [--large-mb 30 [MB ...]] [--time-cap-s 120] [--memory-cap-gb 4] [--skip-large | --only-large | --only-hostile | --only-cache] [--match TEXT [TEXT ...]]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO.parent / "shared" / "fixtures"
LOG = FIXTURES / "trtexec" / "trt10.16_build-and-run.log"  # 6 results per shape
FP16_LOG = FIXTURES / "public" / "hackathon-76321b19_trt8.4.1_result-FP16.log"  # built with FP16, as the fp16 variant
KINETO = "cuda-h100_bert-small_profilerstep6_kineto_trace.json.gz"
sys.path.insert(0, str(REPO))

from tests.robustness.tiny import TEMPLATE, make_tiny_project  # noqa: E402 - the scratch project of the tests


TIME = Path("/usr/bin/time")  # GNU time: the peak resident memory of one process (%M, KiB)


def studygen(*args, cwd: Path, timeout_s: float = 120, memory_cap: int | None = None) -> dict:
    """Run ``studygen ARGS``; its exit code (or ``timeout``), stdout, stderr,
    wall time (s) and peak resident memory (MiB, by GNU time; None without it)."""
    def limit():
        if memory_cap:
            resource.setrlimit(resource.RLIMIT_AS, (memory_cap, memory_cap))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak_file:
        wrapper = [str(TIME), "-q", "-f", "%M", "-o", peak_file.name] if TIME.exists() else []
        start = time.perf_counter()
        argv = [a if isinstance(a, bytes) else str(a) for a in args]
        process = subprocess.Popen([*wrapper, sys.executable, "-m", "studygen", *argv], cwd=cwd, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=limit,
                                   start_new_session=True)
        try:
            out, err = process.communicate(timeout=timeout_s)
            code = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # GNU time and the studygen process it waits for
            process.communicate()
            out, err, code = "", f"past the time cap ({timeout_s:.0f} s)", "timeout"
        wall = time.perf_counter() - start
        peak = peak_file.read().strip().splitlines()
    peak_mib = int(peak[-1]) / 1024 if peak and peak[-1].isdigit() else None
    return {"code": code, "out": out, "err": err, "wall_s": wall, "peak_mib": peak_mib}


def mib(value) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def start_collect(cwd: Path, *args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "studygen", "collect", "trtexec", *map(str, args)], cwd=cwd,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def copy_of(scratch: Path, log: Path, name: str) -> Path:
    """A copy of ``log`` named ``name.log`` in ``scratch``."""
    copy = scratch / f"{name}.log"
    copy.write_bytes(log.read_bytes())
    return copy


def rerun_of(scratch: Path, log: Path) -> Path:
    """``log`` with its GPU compute median changed (0.0361328 -> 0.0381328 ms): the same six
    measurement keys as ``log``, one of them with another figure. (Another real log of the same GPU
    may differ in method, and then its results are other measurements, kept beside these.)"""
    rerun = scratch / "rerun.log"
    rerun.write_text(log.read_text(encoding="utf-8").replace("median = 0.0361328 ms", "median = 0.0381328 ms"),
                     encoding="utf-8")
    return rerun


def parallel_writers(scratch: Path, writers: int) -> None:
    print(f"## Parallel writers ({writers} processes started at once, one records folder)\n")
    print("| case | exit codes | results said added | results kept | leftovers in the folder |")
    print("| --- | --- | --- | --- | --- |")
    cases = {
        # one copy of the log per shape: the same log under two shapes is one measurement, refused as such
        "different shapes, one job": [("shared", copy_of(scratch, LOG, f"shape{i}"), f"{100 * (i + 1)}x{100 * (i + 1)}")
                                      for i in range(writers)],
        "one key, two logs": [("same", (LOG, rerun_of(scratch, LOG))[i % 2], "640x640") for i in range(writers)],
        "different jobs": [(f"job{i}", LOG, "640x640") for i in range(writers)],
    }
    for name, runs in cases.items():
        folder = scratch / name.replace(" ", "_").replace(",", "")
        folder.mkdir()
        started = time.perf_counter()
        processes = [start_collect(folder, "--family", "demo", "--job", job, "--measurements", "m", "--log", log,
                                   "--shape", shape) for job, log, shape in runs]
        ended = [(p, *p.communicate(timeout=300)) for p in processes]
        wall = time.perf_counter() - started
        codes = sorted(p.returncode for p, _, _ in ended)
        said = sum(int(out.split(": ")[1].split()[0]) for _, out, _ in ended if out.startswith("wrote "))
        records = sorted((folder / "m" / "demo").glob("*.json"))
        kept = sum(len(json.loads(r.read_text(encoding="utf-8"))["results"]) for r in records)
        left = sorted(p.name for p in (folder / "m" / "demo").iterdir() if p.suffix != ".json")
        print(f"| {name} ({wall:.1f} s) | {codes} | {said} | {kept} | {left or 'none'} |")
        losers = {err.strip() for p, _, err in ended if p.returncode}
        for line in sorted(losers)[:1]:
            print(f"|  a refused writer printed | `{line[:150]}…` | | | |")
    print()


def killed_writers(scratch: Path, kills: int = 40) -> None:
    """Kill -9 collects at random moments; count temp files left and whether the next collect removes them."""
    folder = scratch / "killed"
    folder.mkdir()
    left_after_kill = 0
    for index in range(kills):
        process = start_collect(folder, "--family", "demo", "--job", f"k{index}", "--measurements", "m", "--log", LOG)
        time.sleep(0.3 + 0.1 * (index % 20))  # 0.3 to 2.2 s: before, while and after it writes
        process.send_signal(signal.SIGKILL)
        process.communicate()
        records = folder / "m" / "demo"
        left_after_kill += len([p for p in records.glob(".*.tmp")]) if records.exists() else 0
    records = folder / "m" / "demo"
    before = sorted(p.name for p in records.iterdir()) if records.exists() else []
    done = studygen("collect", "trtexec", "--family", "demo", "--job", "after", "--measurements", "m", "--log", LOG,
                    cwd=folder)
    after = sorted(p.name for p in records.iterdir() if not p.name.endswith(".json"))
    temp_before = [n for n in before if n.endswith(".tmp")]
    print(f"## Killed writers\n\n{kills} collects killed by SIGKILL at 0.3 to 2.2 s: {left_after_kill} temp-file "
          f"sightings after the kills, {len(temp_before)} temp files and "
          f"{len([n for n in before if n.endswith('.json')])} whole records in the folder; the next collect "
          f"exited {done['code']} and left {after or 'no temp or lock file'}.\n")


def hostile_template(line: str) -> str:
    """The tiny project's template with ``line`` as its third line."""
    lines = TEMPLATE.splitlines()
    lines.insert(2, line)
    return "\n".join(lines) + "\n"


def scratch_project(scratch: Path, name: str, template: str = TEMPLATE, study_extra: str = "", record_edit=None,
                    study_edit=None) -> Path:
    """A tiny project in ``scratch/hostile/name``: ``study_extra`` put before its study file's text,
    ``study_edit`` and ``record_edit`` applied to the text of the study file and of its record."""
    root = make_tiny_project(scratch / "hostile" / name, template=template)
    study = root / "families" / "tiny" / "study.yaml"
    if study_extra:
        study.write_text(study_extra + study.read_text(encoding="utf-8"), encoding="utf-8")
    if study_edit:
        study.write_text(study_edit(study.read_text(encoding="utf-8")), encoding="utf-8")
    if record_edit:
        record = root / "measurements" / "tiny" / "job-a.json"
        record.write_text(record_edit(record.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def hostile_cases(scratch: Path) -> list[tuple[str, Path, list, dict]]:
    """``(name, cwd, argv, options)`` of every hostile case, each in its own scratch project."""
    cases = []

    def project(name: str, template: str = TEMPLATE, study_extra: str = "", record_edit=None) -> Path:
        return scratch_project(scratch, name, template, study_extra, record_edit)

    fifo_dir = scratch / "hostile" / "fifo"
    fifo_dir.mkdir(parents=True)
    os.mkfifo(fifo_dir / "pipe")
    for command, option in (("trtexec", "--log"), ("trtexec", "--times"), ("torch-profile", "--trace"),
                            ("coco", "--annotations")):
        extra = ["--dataset", "d", "--detections", "pipe"] if command == "coco" else []
        cases.append((f"FIFO as collect {command} {option}", fifo_dir,
                      ["collect", command, "--family", "d", "--job", "j", "--measurements", "m", option, "pipe", *extra], {}))
    root = project("study-fifo")
    (root / "families" / "tiny" / "study.yaml").unlink()
    os.mkfifo(root / "families" / "tiny" / "study.yaml")
    cases.append(("study.yaml is a FIFO", root, ["check", "tiny"], {}))
    chain = "".join([f"a0: &a0 [{', '.join(['x'] * 10)}]\n"] + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n"
                                                                   for i in range(1, 11)])
    cases.append(("YAML alias chain (10**10 items)", project("yaml-aliases", study_extra=chain), ["check", "tiny"], {}))
    cases.append(("YAML nested 10,000 deep", project("yaml-deep", study_extra="deep: " + "[" * 10000 + "]" * 10000 + "\n"),
                  ["check", "tiny"], {}))
    cases.append(("record JSON nested 10,000 deep",
                  project("json-deep", record_edit=lambda t: t.replace('"results": [', '"deep": ' + "[" * 10000 + "]" * 10000
                                                                       + ', "results": [', 1)), ["check", "tiny"], {}))
    cases.append(("lone surrogate in a record", project("surrogate", record_edit=lambda t: t.replace(
        '"NVIDIA H100 80GB HBM3"', '"NVIDIA \\ud800"')), ["render"], {}))
    injected = project("injection", template=hostile_template("{% for f in study.figures() %}\n{{ f.gpu }}\n{% endfor %}"),
                       record_edit=lambda t: t.replace('"NVIDIA H100 80GB HBM3"', '"B200\\n\\n# injected heading"'))
    cases.append(("GPU name with a heading, placed in prose", injected, ["render"], {"headings": True}))
    for name, line in (("template: nested range(100000) loops",
                        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"),
                       ("template: appends a waiver to the spec",
                        "{% set _ = study.spec.setdefault('waivers', []).append({'code': 'SG201', 'match': '', 'reason': 'x'}) %}"),
                       ("template: grows the list it iterates", "{% set xs = [1] %}{% for x in xs %}{{ xs.append(x) }}{% endfor %}"),
                       ("template: prints an object", "{{ '%s'|format(study) }}"),
                       ("template: 100 MB of output", "{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}"),
                       ("template: a 10**14-character string", "{{ ('x' * 10000000).replace('x', 'x' * 10000000) }}")):
        cases.append((name, project(name.split(": ")[1].replace(" ", "-").replace("*", "")[:30],
                                    template=hostile_template(line)), ["render"], {}))
    root = project("catastrophic-pattern", study_extra="kernel_groups:\n- pattern: '^(a+)+$'\n  group: A\n")
    (root / "profile.json").write_text(json.dumps([{"count": 10}, {"name": "a" * 5000 + "!", "timeMs": 1.0,
                                                    "averageMs": 0.1, "medianMs": 0.1, "percentage": 100.0}]))
    cases.append(("kernel_groups '^(a+)+$' on a 5,001-character layer name", root,
                  ["collect", "trtexec", "--family", "tiny", "--job", "j", "--variant", "fp16", "--profile", "profile.json"], {}))
    names = scratch / "hostile" / "names"
    names.mkdir()
    cases.append(("a 300-character job id", names, ["collect", "trtexec", "--family", "d", "--job", "j" * 300,
                                                    "--measurements", "m", "--log", LOG], {}))
    cases.append(("a family name ending in a newline", names, ["collect", "trtexec", "--family", "d\n", "--job", "j",
                                                               "--measurements", "m", "--log", LOG], {}))
    for more in (allocation_cases, deep_template_cases, blank_cases, surrogate_cases, category_cases, bom_cases,
                 name_cases, pattern_cases):
        cases += more(scratch)
    return cases


ALLOCATING_LINES = {  # issue 24, item 5: each makes 20 MB to 10**12 characters in one template line
    "format width": "{{ '{:>50000000}'.format('x') }}",
    "format precision": "{{ '{:.50000000f}'.format(1.5) }}",
    "center filter": "{{ 'x'|center(50000000) }}",
    "printf width": "{{ '%50000000d' % 1 }}",
    "format filter": "{{ '%.50000000f'|format(1.5) }}",
    "ljust": "{{ 'x'.ljust(50000000) }}",
    "expandtabs": "{{ 'x\\t'.expandtabs(50000000) }}",
    "indent filter": "{{ 'a\\nb'|indent(50000000) }}",
    "replace": "{{ ('x' * 10000000).replace('x', 'xx') }}",
    "join of repeats": "{{ (['x' * 10000000] * 20)|join }}",
    "~ of repeats": "{% set x = 'x' * 10000000 %}{{ x ~ x ~ x ~ x ~ x ~ x ~ x ~ x }}",
    "captured loop output": "{% set b %}{% for i in range(100000) %}{{ 'y' * 2000 }}{% endfor %}{% endset %}{{ b|length }}",
    "repeats in a loop": "{% for i in range(100000) %}{% set x = 'x' * 10000000 %}{% endfor %}",
    "int.to_bytes": "{{ (1).to_bytes(50000000, 'big')|length }}",
}


def allocation_cases(scratch: Path) -> list:
    return [(f"template allocates: {name}", scratch_project(scratch, f"alloc-{index}", hostile_template(line)),
             ["render"], {}) for index, (name, line) in enumerate(ALLOCATING_LINES.items())]


def deep_template_cases(scratch: Path) -> list:
    cases = []
    for name, line in (("2,000 chained filters", "{{ 'x'" + "|lower" * 2000 + " }}"),
                       ("5,000 nested parentheses", "{{ " + "(" * 5000 + "1" + ")" * 5000 + " }}")):
        root = scratch_project(scratch, f"deep-{len(cases)}", hostile_template(line))
        cases += [(f"template of {name}: {command}", root, [command], {}) for command in ("render", "check")]
    return cases


def blank_cases(scratch: Path) -> list:
    """Item 4: 60,000 spaces (the issue's case), and 30,000 spaces then 30,000 tabs, folded by render's
    prose escaping (a study summary, a record note)."""
    cases = []
    for blanks, what in ((" " * 60000, "60,000 spaces"), (" " * 30000 + "\t" * 30000, "30,000 spaces and tabs")):
        tag = len(cases)
        summary = scratch_project(scratch, f"blank-summary-{tag}", study_edit=lambda t: t.replace(
            "FP8 is not shipped for this family.", json.dumps(f"FP8{blanks}is not shipped.")))  # YAML's "…" reads \t
        notes = scratch_project(scratch, f"blank-note-{tag}", hostile_template(
            "{% for job, note in study.record_notes() %}{{ note }}{% endfor %}"), record_edit=lambda t: t.replace(
            '"results": [', f'"notes": [{json.dumps("a" + blanks + "b")}], "results": [', 1))
        cases += [(f"{what} in {where}: {command}", root, [command], {})
                  for where, root in (("the study summary", summary), ("a record note", notes))
                  for command in ("render", "check")]
    return cases


def surrogate_cases(scratch: Path) -> list:
    folder = scratch / "hostile" / "surrogates"
    folder.mkdir(parents=True)
    trace = json.loads(gzip.decompress((FIXTURES / "torch_profiler" / KINETO).read_bytes()))
    kernel = next(e for e in trace["traceEvents"] if e.get("cat") == "kernel")
    kernel["name"] = "sm90\udc80" + kernel["name"]
    (folder / "trace.json").write_text(json.dumps(trace), encoding="utf-8")
    return [("torch-profile: kernel name with a lone surrogate", folder,
             ["collect", "torch-profile", "--family", "d", "--job", "j", "--variant", "v", "--measurements", "m",
              "--trace", "trace.json"], {}),
            ("collect --gpu given as bytes that are no UTF-8", folder,
             ["collect", "trtexec", "--family", "d", "--job", "g", "--measurements", "m", "--log", LOG,
              "--gpu", b"H100 \xff"], {})]


def category_cases(scratch: Path) -> list:
    """Item 8: 4 images, 1,000,000 categories, 8 boxes in 2 of them."""
    folder = scratch / "hostile" / "categories"
    folder.mkdir(parents=True)
    boxes = [{"id": n + 1, "image_id": n % 4 + 1, "category_id": n % 2 + 1, "bbox": [10 + 40 * n, 20, 30, 40],
              "area": 1200, "iscrowd": 0} for n in range(8)]
    truth = {"images": [{"id": i, "width": 640, "height": 480, "file_name": f"{i}.jpg"} for i in range(1, 5)],
             "categories": [{"id": c, "name": f"c{c}"} for c in range(1, 1_000_001)], "annotations": boxes}
    (folder / "gt.json").write_text(json.dumps(truth), encoding="utf-8")
    (folder / "dt.json").write_text(json.dumps([{"image_id": b["image_id"], "category_id": b["category_id"],
                                                 "bbox": b["bbox"], "score": 0.9} for b in boxes]), encoding="utf-8")
    return [("COCO: 1,000,000 categories, 4 images", folder,
             ["collect", "coco", "--family", "d", "--job", "j", "--measurements", "m", "--dataset", "d4",
              "--annotations", "gt.json", "--detections", "dt.json"], {})]


BOM = "\ufeff"


def bom_cases(scratch: Path) -> list:
    """Item 9: a UTF-8 byte order mark on each kind of text input."""
    folder = scratch / "hostile" / "bom"
    folder.mkdir(parents=True)
    for name, source in (("log.log", LOG), ("profile.json", FIXTURES / "trtexec" / "detr-r50_profile.json")):
        (folder / name).write_text(BOM + source.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "trace.json").write_text(BOM + gzip.decompress((FIXTURES / "torch_profiler" / KINETO).read_bytes())
                                       .decode("utf-8"), encoding="utf-8")
    (folder / "doc.md").write_text(BOM + "# Latency\n\n| GPU | fp16 (ms) |\n| --- | --- |\n| H100 | 2.5 |\n",
                                   encoding="utf-8")
    collect = ["collect", "trtexec", "--family", "d", "--measurements", "m"]
    cases = [("BOM: trtexec log", folder, [*collect, "--job", "log", "--log", "log.log"], {}),
             ("BOM: trtexec --profile", folder, [*collect, "--job", "profile", "--profile", "profile.json"], {}),
             ("BOM: Kineto trace", folder, ["collect", "torch-profile", "--family", "d", "--job", "k", "--variant",
                                            "v", "--measurements", "m", "--trace", "trace.json"], {}),
             ("BOM: Markdown given to lint", folder, ["lint", "doc.md"], {})]
    for what, relative in (("record", "measurements/tiny/job-a.json"), ("study file", "families/tiny/study.yaml"),
                           ("dataset definition", "measurements/tiny/datasets/tiny-val-8.json"),
                           ("template", "templates/tiny.md.j2")):
        root = scratch_project(scratch, f"bom-{relative.split('/')[-1]}")
        path = root / relative
        path.write_text(BOM + path.read_text(encoding="utf-8"), encoding="utf-8")
        cases.append((f"BOM: {what}, render then check", root, ["render"], {"then": ["check"], "readme_start": True}))
    return cases


def name_cases(scratch: Path) -> list:
    """Item 10: names given to collect that would leave the records folder, break a file system or pass
    for another name; the files each case left are shown."""
    cases = []
    outside = [("--job", "../x"), ("--family", str(scratch / "abs")), ("--variant", "../x"), ("--variant", "fp16\n"),
               ("--variant", "a/b"), ("--job", "CON"), ("--family", "NUL"), ("--job", "con.json"), ("--job", "LPT1.x"),
               ("--variant", "COM1")]
    for index, (option, value) in enumerate(outside):
        folder = scratch / "hostile" / f"name-{index}"
        folder.mkdir(parents=True)
        given = {"--family": "d", "--job": "j", "--variant": "fp16", option: value}
        cases.append((f"name: collect {option} {value!r} (no study)", folder,
                      ["collect", "trtexec", "--measurements", "m", "--log", LOG,
                       *[part for pair in given.items() for part in pair]], {"written": True}))
    twin = scratch_project(scratch, "name-case-twin")
    cases.append(("name: collect --job JOB-A beside job-a.json", twin, ["collect", "trtexec", "--family", "tiny", "--job",
                                                                   "JOB-A", "--variant", "fp16", "--log", FP16_LOG],
                  {"written": True}))
    cases.append(("name: collect --variant 'fр16' (a Cyrillic р)", twin, ["collect", "trtexec", "--family", "tiny", "--job",
                                                                     "k", "--variant", "fр16", "--log", LOG], {}))
    variant = scratch_project(scratch, "name-study-variant", study_edit=lambda t: t.replace("name: fp8", "name: ../../fp8"),
                              record_edit=lambda t: t.replace('"variant": "fp8"', '"variant": "../../fp8"'))
    cases.append(("name: a study variant named '../../fp8', render then check", variant, ["render"],
                  {"then": ["check"]}))
    cases.append(("name: collect run --job 'j\\n'", twin, ["collect", "run", "--study", "families/tiny", "--job", "j\n"], {}))
    return cases


def pattern_cases(scratch: Path) -> list:
    """Item 10: kernel_groups patterns RE2 cannot run (a backreference, a lookaround) on long layer names."""
    cases = []
    for pattern, length in (("(.+)\\1x", 5000), ("(?<=a)(.*)\\1b", 5000), ("(?=(.*)\\1x)", 5000),
                            ("(?<!q)a.*b", 200_000)):
        root = scratch_project(scratch, f"pattern-{len(cases)}",
                               study_extra=f"kernel_groups:\n- pattern: '{pattern}'\n  group: A\n")
        (root / "profile.json").write_text(json.dumps([{"count": 10}, {"name": "a" * length + "!", "timeMs": 1.0,
                                                        "averageMs": 0.1, "medianMs": 0.1, "percentage": 100.0}]))
        cases.append((f"kernel_groups {pattern!r} on a {length + 1:,}-character layer name", root,
                      ["collect", "trtexec", "--family", "tiny", "--job", "j", "--variant", "fp16", "--profile",
                       "profile.json"], {}))
    return cases


def hostile_inputs(scratch: Path, time_cap_s: float, match: tuple[str, ...] = ("",), memory_cap_gb: float = 4) -> None:
    """Each hostile case under the time cap and an address-space cap of ``memory_cap_gb`` (a case that asks
    for more ends in a MemoryError, never in the machine's out-of-memory killer)."""
    cap = int(memory_cap_gb * 2**30)
    print("## Hostile inputs (each its own process)\n")
    print("| case | exit | wall (s) | peak (MiB) | first line of stderr (or stdout) |")
    print("| --- | --- | --- | --- | --- |")
    for name, cwd, argv, options in hostile_cases(scratch):
        if not any(text in name for text in match):
            continue
        before = {p for p in cwd.rglob("*")}
        done = studygen(*argv, cwd=cwd, timeout_s=time_cap_s, memory_cap=cap)
        line = first_line(done)
        if options.get("then") and done["code"] == 0:  # the next command on the same project
            done = studygen(*options["then"], cwd=cwd, timeout_s=time_cap_s, memory_cap=cap)
            line = f"then {options['then'][0]}: {first_line(done)}"
        if options.get("headings"):
            readme = (cwd / "families" / "tiny" / "README.md").read_text(encoding="utf-8")
            line = (f"rendered; headings in the README: "
                    f"{[h for h in readme.splitlines() if h.startswith('#')]}")
        if options.get("readme_start"):
            readme = cwd / "families" / "tiny" / "README.md"
            line = (f"README starts {readme.read_bytes()[:4]!r}; " if readme.exists() else "") + line
        if options.get("written"):
            added = sorted(str(p.relative_to(cwd)) for p in set(cwd.rglob("*")) - before if p.is_file())
            line += f" (files written: {added or 'none'})"
        line = line.replace(str(cwd) + "/", "").replace("|", "\\|")
        print(f"| {name} | {done['code']} | {done['wall_s']:.2f} | {mib(done['peak_mib'])} | {line[:200]} |")
    print()


def first_line(done: dict) -> str:
    """The first line of stderr, else of stdout; for check's findings, the first error and the count."""
    out = done["out"].strip().splitlines()
    if out and " error(s), " in out[-1]:
        errors = [line for line in out[:-1] if " SG" in line and "[warning]" not in line]
        return " / ".join(errors[:1] + out[-1:])
    return (done["err"].strip().splitlines() or out or [""])[0]


def cache_attacks(scratch: Path) -> None:
    """Issue 24's cache classes: entries planted in the cache folders (as earlier versions read
    them back), a hand-edited findings entry, a same-size edit of installed code with its mtime
    kept, a world-writable cache folder owned by another user. Each against the same runs with
    no cache folder (``STUDYGEN_CACHE_DIR=``): check of a stale README, check --no-cache,
    render, check after render."""
    from tests.workflow import test_cache_trust as trust

    print("## Cache poisoning and tampering (each its own set of processes)\n")
    print("| case | exit codes (check, --no-cache, render, check) | findings and README as without a cache "
          "| planted code ran | files opened in cache folders |")
    print("| --- | --- | --- | --- | --- |")
    cases = {f"{kind} entries planted (and every existing one replaced)": (kind,) for kind in trust.KINDS}
    cases["every kind at once, in all three cache folders"] = trust.KINDS
    cases["cache folders mode 1777, owned by another user, every kind planted"] = trust.KINDS
    for name, kinds in cases.items():
        folder = scratch / "cache" / name.split()[0].replace("/", "")[:20] / str(len(kinds))
        folder.mkdir(parents=True, exist_ok=True)
        marker = folder / "planted-code-ran"
        clean = trust.outcome(folder, dict(trust.environment(folder), STUDYGEN_CACHE_DIR=""))
        shutil.rmtree(folder / "home", ignore_errors=True)
        env = trust.environment(folder)
        trust.first_check(folder, env)  # earlier versions filled the cache here
        trust.plant_everywhere(folder, marker, kinds, open_to_all=False)  # the 1777 case below does its own
        if "another user" in name:
            for root in trust.cache_roots(folder):
                for path in [root, *root.rglob("*")]:
                    os.chmod(path, 0o1777 if path.is_dir() else 0o666)
                    try:
                        os.chown(path, 65534, 65534)  # nobody
                    except PermissionError:
                        pass
        log = folder / "opened"
        again = trust.outcome(folder, env, recorded=log)
        codes = [again[step][0] for step in ("check", "check --no-cache", "render", "check after render")]
        same = "yes" if again == clean else "NO: " + ", ".join(k for k in clean if again[k] != clean[k])
        opened = set()
        for log_file in folder.glob("opened.*"):
            paths = log_file.read_text(encoding="utf-8").splitlines()
            opened |= {p for p in paths for root in trust.cache_roots(folder) if p.startswith(str(root))}
        print(f"| {name} | {codes} | {same} | {'YES' if marker.exists() else 'no'} | {len(opened)} |")
    edited = scratch / "cache" / "same-size-edit"
    package = edited / "installed"
    shutil.copytree(REPO / "studygen", package / "studygen", ignore=shutil.ignore_patterns("__pycache__"))
    env = trust.environment(edited, pythonpath=package)
    root = trust.copy_project(edited / "project")
    past = time.time() - 100
    for path in [*root.rglob("*"), *package.rglob("*")]:
        os.utime(path, (past, past))
    first = trust.studygen("check", "--root", root, cwd=root, env=env)[0]
    rules = package / "studygen" / "rules.py"
    status = rules.stat()
    rules.write_text(rules.read_text(encoding="utf-8").replace('Rule("SG208", WARNING,', 'Rule("SG208", ERROR  ,'),
                     encoding="utf-8")
    os.utime(rules, ns=(status.st_atime_ns, status.st_mtime_ns))
    cached = trust.studygen("check", "--root", root, cwd=root, env=env)[0]
    fresh = trust.studygen("check", "--no-cache", "--root", root, cwd=root, env=env)[0]
    print(f"| rules.py edited in place (SG208 warning -> error), size and mtime kept | before the edit {first}; "
          f"after: check {cached}, --no-cache {fresh} | {'yes' if cached == fresh else 'NO'} | n/a | n/a |")
    print()


def write_large_table(path: Path, megabytes: float) -> None:
    """A table-heavy Markdown file of ``megabytes`` MiB: one 4-column latency table."""
    rows = ["| GPU | Shape HxW | fp16 (ms) | FP8 (ms) |", "| --- | --- | --- | --- |"]
    size, index = 0, 0
    while size < megabytes * 2**20:
        row = f"| H{index % 300} | {index % 97 + 1}x{index % 89 + 1} | {1 + index % 1000 / 100:.2f} | {1 + index % 900 / 100:.2f} |"
        rows.append(row)
        size += len(row) + 1
        index += 1
    path.write_text("# Latency\n\n" + "\n".join(rows) + "\n", encoding="utf-8")


def large_inputs(scratch: Path, sizes_mb: list[int], time_cap_s: float, memory_cap_gb: float) -> None:
    folder = scratch / "large"
    folder.mkdir()
    names = []
    for megabytes in sizes_mb:
        write_large_table(folder / f"table{megabytes}.md", megabytes)
        (folder / f"emphasis{megabytes}.md").write_text("# E\n\n" + "*a " * (megabytes * 2**20 // 9) + "\n", encoding="utf-8")
        names += [f"table{megabytes}.md", f"emphasis{megabytes}.md"]
    for sentences in (4000, 16000):
        text = " ".join(f"FP8 is {i % 7 + 1}.{i % 10} ms faster at {i % 97 + 1}x{i % 89 + 1}." for i in range(sentences))
        (folder / f"sentences{sentences}.md").write_text("# S\n\n" + text + "\n", encoding="utf-8")
        names.append(f"sentences{sentences}.md")
    print(f"## Large inputs (caps: {time_cap_s:.0f} s, {memory_cap_gb:g} GB of address space)\n")
    print("| input | size (MB) | exit | wall (s) | peak (MiB) | ended |")
    print("| --- | --- | --- | --- | --- | --- |")
    cap = int(memory_cap_gb * 2**30)
    for name in names:
        path = folder / name
        done = studygen("lint", name, cwd=folder, timeout_s=time_cap_s, memory_cap=cap)
        ended = ("past the time cap" if done["code"] == "timeout" else
                 "out of memory (cap)" if "MemoryError" in done["err"] or "memory" in done["err"].lower() else
                 (done["out"].strip().splitlines() or done["err"].strip().splitlines() or [""])[-1][:80])
        print(f"| lint {name} | {path.stat().st_size / 1e6:.1f} | {done['code']} | {done['wall_s']:.1f} | "
              f"{mib(done['peak_mib'])} | {ended} |")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--large-mb", type=int, nargs="+", default=[30],
                        help="sizes of the large table and emphasis inputs, MiB (several: one row each, e.g. 3 10 30)")
    parser.add_argument("--time-cap-s", type=float, default=120)
    parser.add_argument("--memory-cap-gb", type=float, default=4)
    parser.add_argument("--skip-large", action="store_true")
    parser.add_argument("--only-large", action="store_true", help="run the large inputs only")
    parser.add_argument("--only-hostile", action="store_true", help="run the hostile inputs only")
    parser.add_argument("--only-cache", action="store_true", help="run the cache poisoning and tampering cases only")
    parser.add_argument("--match", nargs="+", default=[""], metavar="TEXT",
                        help="run only the hostile cases whose name holds one of these texts")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="studygen-reliability-"))
    try:
        if args.only_cache:
            cache_attacks(scratch)
            return 0
        if not args.only_large and not args.only_hostile:
            parallel_writers(scratch, args.writers)
            killed_writers(scratch)
        if not args.only_large:
            hostile_inputs(scratch, args.time_cap_s, args.match, args.memory_cap_gb)
        if not args.only_large and not args.only_hostile:
            cache_attacks(scratch)
        if not args.skip_large and not args.only_hostile:
            large_inputs(scratch, args.large_mb, args.time_cap_s, args.memory_cap_gb)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
