"""Long run of the H200 jobs property of issue 26 (tests/robustness/test_h200_jobs_property.py), counting.

``pytest --hypothesis-profile=long`` stops at the first failing example and spends the rest of its time
shrinking it, so it counts nothing past it. This runs the property's own body (the README rendered as
``studygen render`` writes it, then ``studygen lint`` and ``studygen check``) on examples drawn by the
test's own strategies, records every example's outcome as a JSON line, and goes on after a failure;
every ``--figures-every``-th example also runs the chart property (full ``studygen render``, check takes
its charts as current). Hypothesis draws without a failure to build on, so the examples do not cluster.

    nice -n 10 python benchmarks/h200_property_long.py --seed 4711 --examples 2000 --out run.jsonl

Prints the count passed and failed at the end (or read the JSON lines while it runs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import traceback
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import copy_project  # noqa: E402
from tests.robustness import test_h200_jobs_property as prop  # noqa: E402


def _outcome(body, *args) -> str | None:
    """None when ``body(*args)`` holds, else the failure's message (its first 4000 characters)."""
    try:
        body(*args)
    except AssertionError as exc:
        return str(exc)[:4000] or traceback.format_exc()[-4000:]
    except Exception:  # an internal error of render, lint or check is a failure of the property too
        return traceback.format_exc()[-4000:]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--examples", type=int, default=1000)
    parser.add_argument("--figures-every", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True)
    options = parser.parse_args()
    project = copy_project(Path(tempfile.mkdtemp(prefix="h200-long-")), families=(prop.FAMILY,))
    counts = {"passed": 0, "failed": 0, "figures passed": 0, "figures failed": 0}

    def readme(specs, plain_ids):
        prop._write(project, prop.build(specs, plain_ids))
        lint_line, own, unrendered = prop.readme_findings(project, prop.render_readme(project))
        assert lint_line == "0 error(s), 0 warning(s)", lint_line + "\n" + prop.run_clean("lint", project / prop.README).out
        assert own == [], own
        assert unrendered == [], unrendered

    @seed(options.seed)
    @settings(max_examples=options.examples, derandomize=False, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(specs=prop.job_sets(), plain_ids=st.booleans())
    def run(specs, plain_ids):
        number = sum(counts[k] for k in ("passed", "failed")) + 1
        start = time.process_time()
        failure = _outcome(readme, specs, plain_ids)
        counts["failed" if failure else "passed"] += 1
        entry = {"n": number, "specs": specs, "plain_ids": plain_ids, "failure": failure,
                 "cpu_s": round(time.process_time() - start, 3)}
        if options.figures_every and number % options.figures_every == 0:
            figures = _outcome(prop.test_generated_jobs_render_charts_check_takes_as_current.hypothesis.inner_test,
                               project, specs)
            counts["figures failed" if figures else "figures passed"] += 1
            entry["figures_failure"] = figures
        with options.out.open("a") as out:
            out.write(json.dumps(entry) + "\n")

    run()
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
