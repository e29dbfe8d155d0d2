"""Property (issue 22 item 3): for generated studies (random variant sets,
GPUs, modes, batches, missing cells, one or several jobs, trtexec-like and
torch-like records; :mod:`.generic_studies`), the README the generic
template renders never draws a finding from ``lint`` or ``check`` that its
own generated text caused.

A finding the README's text caused is one placed in the README (every lint
finding, and a check finding at a README line), except SG213: it marks a
comparison built on a timing its record flags unstable, which is what the
README's known gaps say of that record; it is the data's finding, printed
wherever that timing is compared. Findings placed in a record (SG207
cross-GPU anomalies, SG208 precision inversions, SG209 provenance, SG210
coverage) are the data's and are not counted.

Profiles (tests/conftest.py): "ci" runs 50 examples; ``pytest
--hypothesis-profile=long`` 1000.
"""

from __future__ import annotations

from hypothesis import given

from studygen.checks import run_checks
from studygen.render.engine import render_study, write_rendered
from studygen.study import load_study

from .generic_studies import studies, write_study

# Check findings at README lines that the data causes, not the README's text (see the module docstring).
DATA_CODES = {"SG213"}


def own_findings(root, spec, records) -> tuple[str, list]:
    """Render the generated study with the generic template and check it:
    ``(README, findings its own text caused)``."""
    study_dir = write_study(root, spec, records)
    study = load_study(study_dir, root)
    assert not study.problems, study.problems
    rendered = render_study(study)
    write_rendered(rendered)
    readme = study.rel(study.readme_path)
    findings = [f for f in run_checks(load_study(study_dir, root))
                if f.file == readme and f.code not in DATA_CODES]
    return rendered.readme, findings


@given(generated=studies())
def test_the_generic_readme_draws_no_finding_of_its_own(tmp_path_factory, generated):
    root = tmp_path_factory.getbasetemp() / "generic-property"
    spec, records = generated
    readme, findings = own_findings(root, spec, records)
    assert findings == [], "\n".join(f"{f.line}: {f.code} {f.message}" for f in findings) + "\n\n" + readme
