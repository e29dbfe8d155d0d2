"""studygen diff on a job measured again in a new process, its figure held to
the scatter inside its first run.

Case (a DINOv2-S on one H100, eager, run twice as the same jobs, session 28):
fp32 at 448 x 448, batch 8, moved 20.258 -> 20.281 ms (+0.11 %) while the
five repeat medians of the first run spread 0.011 ms; 12 such figures moved
0.1 to 0.75 % (one small kernel group 2.3 %). diff failed the re-run naming only that spread, as if one
process's repeats bounded another process. The line now says whose scatter
it is and how a study declares how far runs move. A compiled cell's repeats
pool its compilations, each its own process: no such words. Figures below
are my own, shaped like that run.
"""

from __future__ import annotations

from studygen.compare.figures import BEYOND, figure_changes
from studygen.compare.report import figure_line
from tests.checks.studies import collected_provenance, load, record, spec
from tests.render.test_host_bound_cells import EVENTS

ONE = spec(variants=[{"name": "fp32", "precision": "fp32"}], recipes={})
H100 = collected_provenance(gpu="NVIDIA H100 80GB HBM3", tensorrt=None)
WORDS = ("the scatter inside one run of job b8: another process may move further "
         "(spread_sources, source job, declares how far)")


def latency(mode: str, value: float, repeats: list[float], compilations=()) -> dict:
    # the host issues a forward in 1.1 ms, far under the median: GPU-bound, so repeats are the allowance
    result = {"kind": "latency", "variant": "fp32", "shape": "448x448", "batch": 8, "backend": "pytorch",
              "mode": mode, "timing": "gpu_compute", "statistic": "median", "value_ms": value,
              "method": dict(EVENTS),
              "distribution": {"repeats": len(repeats), "repeat_medians_ms": repeats,
                               "host_issue_ms_per_forward": 1.1, "host_ms_per_forward": 1.2}}
    if compilations:
        result["compilations"] = [{"compilation": i, "median_ms": m, "repeat_medians_ms": [m]}
                                  for i, m in enumerate(compilations, 1)]
    return result


def change_of(tmp_path, old: dict, new: dict):
    base = load(tmp_path / "base", records=[record("b8", [old], H100)], study=ONE)
    head = load(tmp_path / "head", records=[record("b8", [new], H100)], study=ONE)
    changes = [c for c in figure_changes(base, head)[0] if "CUDA-event" in c.what]
    assert len(changes) == 1, [(c.what, c.verdict) for c in changes]
    return changes[0]


def test_a_rerun_past_its_first_runs_repeats_says_whose_scatter_held_it(tmp_path):
    old = latency("eager", 20.258, [20.2516, 20.2556, 20.258, 20.2601, 20.2624])  # spread 0.0108 ms
    new = latency("eager", 20.281, [20.2742, 20.2788, 20.281, 20.2835, 20.2871])
    change = change_of(tmp_path, old, new)
    assert change.verdict == BEYOND and change.spread.one_run
    assert figure_line(change).endswith("more than 0.0108 ms spread of 5 repeat medians in base "
                                        f"(20.2516 to 20.2624 ms), {WORDS}")


def test_a_compiled_cells_repeats_span_its_compilations_and_get_no_such_words(tmp_path):
    # three compilations 2.30, 2.37, 2.40 ms, their repeat medians pooled (2.29 to 2.41); the re-run 2.60 ms
    old = latency("compile", 2.37, [2.29, 2.30, 2.31, 2.36, 2.37, 2.38, 2.39, 2.40, 2.41], [2.30, 2.37, 2.40])
    new = latency("compile", 2.60, [2.58, 2.60, 2.62], [2.60])
    change = change_of(tmp_path, old, new)
    assert change.verdict == BEYOND and not change.spread.one_run
    assert "one run" not in figure_line(change)
    assert figure_line(change).endswith("more than 0.12 ms spread of 9 repeat medians in base (2.29 to 2.41 ms)")
