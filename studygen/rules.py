"""The rule table: every finding code, declared once (after ruff and markdownlint).

One :class:`Rule` per code gives its default severity, its short name, the
module that implements it and a one-line summary of what it catches. Read
from here: the default severities (:data:`studygen.findings.CODES`), the lint
registry (:mod:`studygen.lint`, SG1xx), the check registry
(:mod:`studygen.checks`, SG2xx), the ``studygen lint --help`` text and the
README's finding-code table (``python -m studygen.rules`` prints it;
``tests/test_rules.py`` keeps the README equal to it).

Adding a check is one new module (with a ``check`` function) plus one line
here; the registries import every module this table names.
"""

from __future__ import annotations

from typing import NamedTuple

ERROR = "error"
WARNING = "warning"


class Rule(NamedTuple):
    """One finding code: ``severity`` is the default (``error`` fails the run,
    ``warning`` is printed); ``module`` the dotted name of the module whose
    ``check`` reports it; ``summary`` one line saying what it catches;
    ``waivable`` False for a code no waiver or explanation in a study file may
    cover (SG216 reports one that tries): its finding says the README or the
    records cannot be trusted, so a waiver of it would leave every other
    finding, and every figure, standing on nothing."""

    code: str
    severity: str
    name: str
    module: str
    summary: str
    waivable: bool = True


RULES: tuple[Rule, ...] = (
    Rule("SG101", ERROR, "range coverage", "studygen.lint.sg101_range_coverage",
         "a prose range that summarises a table column leaves out one of its values"),
    Rule("SG102", ERROR, "statistic order", "studygen.lint.sg102_statistic_order",
         "statistics of one row out of order (min <= median <= max, p50 <= p90 <= p99)"),
    Rule("SG103", ERROR, "derived figure", "studygen.lint.sg103_derived_figures",
         "a ratio, speedup, reduction, percentage, share or average that its own figures do not give; a "
         "comparison or change whose printed figures go the other way than its words"),
    Rule("SG104", ERROR, "Markdown structure", "studygen.lint.sg104_structure",
         "a table row with the wrong cell count, a delimiter row that does not match its header or repeats "
         "inside a table body, an unclosed code fence; in check, also a family README that mdformat would rewrite"),
    Rule("SG105", WARNING, "noise wording", "studygen.lint.sg105_noise_wording",
         '"within noise" or "not significant" with no spread, repeat count or test nearby'),
    Rule("SG106", WARNING, "unmeasured stated as result", "studygen.lint.sg106_unmeasured",
         "a configuration the document says was not measured, given an outcome elsewhere"),
    Rule("SG107", ERROR, "universal comparison contradicted", "studygen.lint.sg107_universal_claims",
         "\"X is faster than Y on every GPU\" (all, always …) where a row of its tables (or two rows of two tables "
         "alike in all but X and Y) has X not faster, or none holds both; a best-of claim with a figure (\"A peaks at "
         "2.6x\", \"B is the fastest at 4 ms\") that another row of its column beats"),
    Rule("SG201", ERROR, "stale README or figure", "studygen.checks.sg201_stale",
         "the committed README or a figure differs from what the records render to", waivable=False),
    Rule("SG202", ERROR, "invalid record", "studygen.checks.sg202_records",
         "a record, dataset definition or study file that fails to load or validate (figures of a record that "
         "contradict each other too), or a study its worker process died checking", waivable=False),
    Rule("SG203", ERROR, "same measurement disagrees across jobs", "studygen.checks.sg203_reconcile",
         "one measurement with values from two or more jobs that disagree (one finding per measurement: its jobs' "
         "range and how many pairs of them disagree), or a difference inside their spread"),
    Rule("SG204", ERROR, "noise verdict without repeats", "studygen.checks.sg204_noise_verdict",
         "a noise or significance verdict written by hand instead of computed from repeats"),
    Rule("SG205", ERROR, "dataset", "studygen.checks.sg205_datasets",
         "a quality or agreement figure on an undefined, overlapping, mixed or miscounted image set, or on its own "
         "calibration set; figures of different image sets compared in helper output or a study-file sentence; a "
         "calibration or agreement set the study file names otherwise, or a set its prose gives the other role"),
    Rule("SG206", ERROR, "unmeasured configuration stated", "studygen.checks.sg206_unmeasured",
         "a configuration the study file lists as not measured, reported or stated anyway"),
    Rule("SG207", ERROR, "unexplained cross-version or cross-GPU anomaly", "studygen.checks.sg207_anomaly",
         "one configuration off by the anomaly factor across versions of one GPU, or from a GPU pair's usual ratio, "
         "unexplained"),
    Rule("SG208", WARNING, "precision inversion", "studygen.checks.sg208_precision_inversion",
         "a lower-precision variant slower than a higher-precision one on the same platform, in the time of its "
         "work (GPU work time; on a machine without a GPU, host time per forward)"),
    Rule("SG209", ERROR, "provenance", "studygen.checks.sg209_provenance",
         "a record that names no GPU (no CPU, for one timed on the CPU), software version, checkpoint revision, "
         "commit or citation, a checkpoint revision its study file neither names nor lists, or another model than "
         "the study file's"),
    Rule("SG210", WARNING, "kernel-time coverage", "studygen.checks.sg210_kernel_coverage",
         "kernel groups that miss the profiled total by 2 %, or leave over 10 % unclassified; a per-layer total "
         "over 2 % above its run's GPU compute time, unless the run was timed apart from its profile "
         "(--separateProfileRun); a kernel_groups rule that takes no kernel or layer any record lists (a typo, or an "
         "earlier rule takes them)"),
    Rule("SG211", ERROR, "literal figure in template", "studygen.checks.sg211_literal_figures",
         "a template that prints a number no expression computed from records", waivable=False),
    Rule("SG212", ERROR, "incomparable timings", "studygen.checks.sg212_incomparable",
         "latencies measured differently, or by different shards of one job, in one ratio, range or table, "
         "or compared in the study file's prose (there also variants from different software versions or model "
         "revisions, unnamed, and kernel times of different spans: a whole trace against a mean per step)"),
    Rule("SG213", WARNING, "unstable measurement", "studygen.checks.sg213_unstable",
         "a ratio, verdict, range or side finding built on a timing flagged unstable, or such a timing quoted in "
         "the study file's prose"),
    Rule("SG214", ERROR, "quality from random weights", "studygen.checks.sg214_random_weights",
         "a COCO AP figure from random-init weights"),
    Rule("SG215", ERROR, "FP8 latency without real-FP8 evidence", "studygen.checks.sg215_fp8_evidence",
         "an FP8 run's latency without the FP8 GEMM kernels of a profile behind it"),
    Rule("SG216", ERROR, "waiver matches no finding or is refused", "studygen.checks.waivers",
         "a waiver or explanation that matches no finding, names none closely enough, or covers a code never waived",
         waivable=False),
    Rule("SG217", ERROR, "cause in an unchanged kernel group", "studygen.checks.sg217_unchanged_group_cause",
         "a sentence giving a recipe's kernel group as the cause of a difference the profiles put elsewhere"),
    Rule("SG218", ERROR, "placeholder text", "studygen.checks.sg218_placeholder",
         "study-file text that still holds what studygen new wrote to be replaced (\"(edit this)\"), or a prose "
         "field that is placeholder text (\"TODO\", \"TBD\", \"...\", an unfilled template slot)"),
    Rule("SG219", ERROR, "declared variant without results", "studygen.checks.sg219_unmeasured_variant",
         "a declared variant, or a shape of run.shapes for a variant with results, that no record gives a result "
         "and not_measured does not name (a reference other variants were measured against has results)"),
    Rule("SG220", WARNING, "input folder writable by everyone", "studygen.checks.sg220_open_folders",
         "a folder records, datasets, the study file or templates are read from that every user may write in"),
    Rule("SG221", ERROR, "one run in several jobs", "studygen.checks.sg221_same_run",
         "two jobs holding a timing of one run: the same input by its sha256, or the same figures to every digit"),
    Rule("SG222", ERROR, "misquoted figure", "studygen.checks.sg222_misquoted_figures",
         "a figure in the study file's prose (ms, MiB, AP, an agreement figure after its metric's name) that no "
         "measured figure gives at its printed digits "
         "but one gives with one digit changed or two swapped, or that a record gives but none of the runs its clause "
         "names (a GPU, revision, job, kernel group or statistic); a difference of two variants' AP in points, or an "
         "AP said to be the same for them, that their records do not give"),
    Rule("SG223", ERROR, "kernel times grouped by other rules", "studygen.checks.sg223_stale_grouping",
         "a kernel-time result grouped by other rules than the study file's kernel_groups (a group renamed, a rule "
         "added or reordered since it was collected)"),
    Rule("SG224", WARNING, "GPU, precision, batch, shape or timing method named but not measured",
         "studygen.checks.sg224_unmeasured_gpu",
         "the study's title names a GPU model that no record was measured on, or a precision, batch or shape that "
         "none measured, or its other prose states a result (a time, an AP, a ratio, faster or slower) on or at one; "
         "also a batch, shape or TensorRT version that none of the runs a clause names was measured at, or a timing "
         "method (CUDA graphs, data transfers) none of them was timed with; a plan size or AP stated where no record "
         "holds one"),
    Rule("SG225", ERROR, "kernel-time share, multiple, range or best-of not given",
         "studygen.checks.sg225_kernel_shares",
         "a share of kernel time (\"GEMMs take 54% of the step\"), a multiple, difference or percentage change of a "
         "group's time between two runs (\"doubles the H100's\", \"0.05 ms less\", \"27% less\"), a range of kernel times or a best-of over every "
         "group (\"fastest in every kernel group\") in the study file's prose, without its figures, that the profiles of the runs and "
         "groups its sentence names do not give"),
    Rule("SG226", WARNING, "kernels of another precision than the variant's", "studygen.checks.sg226_kernel_dtypes",
         "a kernel-time result whose kernels' names say they ran on a 16-bit type the variant's declared precision "
         "contradicts (bf16 kernels under fp16, fp16 under bf16, either under fp32): a model loaded in another dtype "
         "than the study says"),
)

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}


def rules_in(package: str) -> tuple[Rule, ...]:
    """The rules implemented under ``package`` (``studygen.lint``,
    ``studygen.checks``), in table order."""
    return tuple(rule for rule in RULES if rule.module.startswith(package + "."))


def code_of(module: str) -> str:
    """The code of the rule the module named ``module`` (dotted) implements,
    for text that names the code outside that module (render's line about
    an open folder names SG220's). Raises KeyError for a module the table
    does not name."""
    for rule in RULES:
        if rule.module == module:
            return rule.code
    raise KeyError(module)


def help_line(rules: tuple[Rule, ...]) -> str:
    """``Codes: SG101 range coverage, … (errors); SG105 noise wording, … (warnings).``
    for ``--help`` texts: each severity's codes in table order."""
    parts = []
    for severity, plural in ((ERROR, "errors"), (WARNING, "warnings")):
        named = [f"{rule.code} {rule.name}" for rule in rules if rule.severity == severity]
        if named:
            parts.append(f"{', '.join(named)} ({plural})")
    return f"Codes: {'; '.join(parts)}."


def markdown_table() -> str:
    """The README's finding-code table (a GFM table, one row per rule; ``waivable``: yes or no)."""
    lines = ["| code | severity | waivable | name | catches |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {rule.code} | {rule.severity} | {'yes' if rule.waivable else 'no'} | {rule.name} | {rule.summary} |"
              for rule in RULES]
    return "\n".join(lines) + "\n"


def lint_code_list() -> str:
    """The lint codes as docs/lint.md lists them: one Markdown list item per
    rule of ``studygen.lint`` (code, severity, name, what it catches), in
    table order, so the page says what the rule table says."""
    return "".join(f"- {rule.code} ({rule.severity}, {rule.name}): {rule.summary}.\n"
                   for rule in rules_in("studygen.lint"))


if __name__ == "__main__":  # python -m studygen.rules: the table to paste into the README
    import sys

    # python -m studygen.rules lint: the list to paste into docs/lint.md
    print(lint_code_list() if sys.argv[1:] == ["lint"] else markdown_table(), end="")
