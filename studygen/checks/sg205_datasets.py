"""SG205 datasets: every figure measured on images names a defined image set,
calibration and evaluation sets are disjoint, one comparison uses one
evaluation set, every image count agrees with its definition, the
calibration and agreement sets of the records are the study file's, and no
quality figure is measured on its variant's calibration set.

Which figures are measured on images is the result-kind table's
(``image_set`` in :data:`studygen.records.kinds.RESULT_KINDS`): the quality
figures (COCO AP and its difference, ``quality``, the same definition SG214
reads) and agreement.

Rules, in order:

1. Such a result without ``dataset``, or naming a dataset id with no
   definition under ``datasets/`` → error at the result's pointer.
2. Each calibration set (``role: calibration``) against each evaluation set:
   disjoint when both list image ids and they share none (a shared id is an
   error naming the count and one id, at the evaluation set's ids, or, where
   either definition declares the two disjoint in ``disjoint_from``, at that
   declaration, which the ids prove false); else when either names the other
   in ``disjoint_from`` (declared by their selection rules); else a warning
   that disjointness is unverified.
3. Quality figures of one job and statistic on different evaluation sets,
   or a helper output of the README (range, ratio, table, AP difference)
   built from quality figures of different evaluation sets → error, unless a
   table shows its image-set column or the study file explains it; so is a
   sentence of the study file's prose (the decision summary, a description:
   the fields SG222 reads, not ``not_measured``, waivers or explanations)
   that quotes two or more quality figures no one image set gives together,
   unless it names each set by its id. Which rows a figure is read from is
   SG222's matcher (:func:`studygen.checks.prose_figures.matches`:
   the figure rounds or is cut to the row's at its printed decimals; AP as a
   fraction or in points); a figure with "AP" beside it or one bare in a
   sentence that holds such a figure ("AP 0.8020 against 0.7690 for fp32"),
   of at least three significant digits; a figure no row gives is left out
   (where its rows cannot be told, nothing is reported).
4. Image counts: an ``images`` field of a result must equal its dataset's
   count; an evaluation definition that no result names, while quality results
   exist, is an error (two definitions for one study's quality figures: which
   images were used?), unless a file failed to load (SG202: the result
   naming it may be in that record); a count written by hand in the README
   ("800 images", "400 held out") must be the count of a set the results
   use. Counts inside helper output (the dataset table, known gaps) come
   from the definitions and are not read. A number is a count only where it quantifies the
   images (:func:`studygen.lint.vocabulary.quantifies`): a factor, size,
   dimension or setting beside the word ("a 7x7 window on a 32-fold
   downsampled image", "a 224x224 image", "stride 32") counts nothing.
5. A definition whose ids were not published → warning; the README's known
   gaps state it by themselves (``StudyView.known_gaps``).
6. A calibration set a record names (a ``quantization`` result's
   ``dataset``) or an agreement set (an ``agreement`` result's ``dataset``)
   that the study file does not name for it → error at the record's
   ``dataset``, the message naming the study file's pointer: a calibration
   set is the one of the variant's recipe (``/recipes/<recipe>/calibration_set``),
   else the run's (``/run/calibration_set``); an agreement set the run's
   (``/run/agreement_set``). Where the study file names no set of that
   role (a study transcribed from a source has no ``run`` section), the
   record's set is held only to a definition (rule 1 for agreement).
7. A quality or agreement figure evaluated on the set its variant was
   calibrated on → error at the figure (the held-out set must differ): the
   set the study file names for the variant's recipe (the message names that
   pointer), the one a ``quantization`` result of the variant in the same job
   names, or, for a variant of a calibrated precision (int8, FP8, FP4) or a
   recipe, any set whose definition's ``role`` is ``calibration``; such a
   figure is left out of rule 3, whose "different evaluation sets" would
   misname it.
8. A sentence of the prose naming one set by its id and giving it the role
   its definition does not (calibrated on an evaluation set, a calibration
   set called held out) → error at the field (:mod:`.prose_set_roles`).

Case (a new user's trial): fp16 AP on ``mnist-val`` (2 images) and fp32 AP
on ``mnist-val-4`` (4 images); the decision summary "AP 0.8020 against 0.7690
for fp32 on the validation images" passed.

Case (seed): the AP figures are on "400 held-out images" while the same study
describes its quality set as "800 images at a fixed stride"; both are
definitions in ``measurements/deformable_detr/datasets/``, the results name the
400-image set, and no image id list was published.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..findings import WARNING, Finding
from ..lint import vocabulary
from ..numbers import format_number
from ..patterns import lazy_compile
from ..records.jsonpos import pointer_from_path, pointer_part
from ..records.load import yaml_phrase_line
from ..records.kinds import IMAGE_SET_KINDS, QUALITY_KINDS, Kind
from ..study.placeholders import claim_strings
from ..study.rows import Row
from .base import prose_finding, readme_finding, row_finding
from .readme_text import quote, sentence_at
from .prose_set_roles import role_findings
from .prose_figures import MIN_SIGNIFICANT, ap_factor, matches, quoted_figures, significant_digits
from .prose_figures import sentence_at as prose_sentence_at

# What an image count counts: "800 images", "400 held out", "a thousand-image subset", "1000-image".
IMAGE_NOUNS = r"images?|held[- ]out"
# A word each of IMAGE_NOUNS begins with, lower case: a line holding neither holds no image count.
IMAGE_NOUN_WORDS = ("image", "held")


def image_counts(line: str) -> list[tuple[int, int, int]]:
    """``(count, start, end)`` of each image count of ``line``, in digits or
    words, hyphenated or not (:func:`studygen.lint.vocabulary.counts`); "one
    image" or "a single image" is an image, not a set, and is left out.

    A line whose case-folded text (:func:`studygen.lint.vocabulary.ascii_folded`,
    where a case-insensitive pattern's ASCII words are substrings) holds no
    word of :data:`IMAGE_NOUN_WORDS` is not searched: most README lines."""
    folded = vocabulary.ascii_folded(line)
    if not any(word in folded for word in IMAGE_NOUN_WORDS):
        return []
    return [found for found in vocabulary.counts(line, IMAGE_NOUNS) if found[0] > 1]



def _dataset_finding(study, dataset_id: str, message: str, pointer: str = "/dataset_id", **extra) -> Finding:
    dataset = study.datasets[dataset_id]
    return Finding("SG205", message, dataset.display_path, line=dataset.line_of(pointer), pointer=pointer, **extra)


def named_datasets(study) -> list[Finding]:
    """Rule 1: quality results name a defined dataset."""
    findings = []
    # a definition file that failed to load is SG202 already; its results are not "undefined" too
    unreadable = {Path(problem.path).stem for problem in study.problems
                  if Path(problem.path).parent.name == "datasets"}
    for row in study.rows:
        if row.kind not in IMAGE_SET_KINDS or row.dataset in unreadable:
            continue
        if not row.dataset:
            findings.append(row_finding("SG205", row,
                                        f"{row.kind} result of {row.variant} in job {row.job_id} names no dataset",
                                        hint="add \"dataset\": the id of a definition under datasets/"))
        elif row.dataset not in study.datasets:
            known = ", ".join(sorted(study.datasets)) or "none"
            findings.append(row_finding("SG205", row,
                                        f"{row.kind} result of {row.variant} in job {row.job_id} names dataset "
                                        f"'{row.dataset}', which has no definition (defined: {known})",
                                        hint="add measurements/<family>/datasets/<id>.json"))
    return findings


def _ids(dataset) -> set | None:
    ids = dataset.data.get("image_ids")
    return set(ids) if ids is not None else None


def disjointness(study) -> list[Finding]:
    """Rule 2: calibration vs evaluation sets."""
    findings = []
    by_role = {role: sorted(i for i, d in study.datasets.items() if d.data["role"] == role)
               for role in ("calibration", "evaluation")}
    for calib_id in by_role["calibration"]:
        calib = study.datasets[calib_id]
        for eval_id in by_role["evaluation"]:
            evaluation = study.datasets[eval_id]
            calib_ids, eval_ids = _ids(calib), _ids(evaluation)
            declaring = _declaring(calib_id, eval_id, study)
            if calib_ids is not None and eval_ids is not None:
                shared = calib_ids & eval_ids
                if shared:
                    findings.append(_shared_ids(study, calib_id, eval_id, shared, declaring))
                continue
            if declaring is None:
                findings.append(_dataset_finding(
                    study, eval_id, f"disjointness of evaluation set {eval_id} ({evaluation.data['count']} images) and "
                    f"calibration set {calib_id} ({calib.data['count']} images) is unverified: no id lists and no "
                    f"disjoint_from declaration", severity=WARNING,
                    hint="publish the image ids, or declare disjoint_from with the selection rule that makes them disjoint"))
    return findings


def _declaring(calib_id: str, eval_id: str, study) -> tuple[str, int] | None:
    """``(dataset id, index)`` of the first ``disjoint_from`` entry declaring
    the two sets disjoint, the calibration set's looked at first; None when
    neither declares it."""
    for declarer, other in ((calib_id, eval_id), (eval_id, calib_id)):
        named = study.datasets[declarer].data.get("disjoint_from", [])
        if other in named:
            return declarer, named.index(other)
    return None


def _shared_ids(study, calib_id: str, eval_id: str, shared: set, declaring: tuple[str, int] | None) -> Finding:
    """Rule 2's error for a calibration and an evaluation set whose id lists
    share ``shared``: at the evaluation set's ``/image_ids``, or, where a
    definition declares the two disjoint, at that declaration (the entry of
    its ``disjoint_from``), which the ids contradict: one finding either way."""
    calib, evaluation = study.datasets[calib_id], study.datasets[eval_id]
    example = sorted(shared, key=lambda v: (isinstance(v, str), v))[0]
    overlap = (f"evaluation set {eval_id} ({evaluation.data['count']} images) shares {len(shared)} image id(s) with "
               f"calibration set {calib_id} ({calib.data['count']} images), for example {example}")
    if declaring is None:
        return _dataset_finding(study, eval_id, overlap, pointer="/image_ids",
                                hint="evaluate on images the calibration never saw")
    declarer, index = declaring
    other = eval_id if declarer == calib_id else calib_id
    return _dataset_finding(
        study, declarer, f"{declarer} declares itself disjoint from {other} (disjoint_from), but the id lists "
        f"contradict it: {overlap}", pointer=f"/disjoint_from/{index}",
        hint=f"evaluate on images the calibration never saw; until the sets are disjoint, remove {other} from "
             f"{declarer}'s disjoint_from")


def mixed_comparisons(context) -> list[Finding]:
    """Rule 3: one comparison, one evaluation set — within a job, and in every
    helper output (range, ratio, table, AP difference) of the README."""
    study = context.study
    findings = []
    groups: dict[tuple, dict[str, dict]] = {}
    variants = study.variants
    for row in study.rows:
        # a calibrated variant's figure on a calibration set is rule 7's, which says what is wrong with it
        if (row.kind in IMAGE_SET_KINDS and row.dataset and row.value is not None
                and not _calibration_role(study, row, variants)):
            groups.setdefault((row.job_id, row.kind, row.statistic or row.metric), {}).setdefault(row.dataset, row)
    for (job, kind, statistic), by_dataset in sorted(groups.items(), key=lambda item: str(item[0])):
        if len(by_dataset) < 2:
            continue
        rows = [by_dataset[d] for d in sorted(by_dataset)]
        findings.append(row_finding(
            "SG205", rows[-1],
            f"{statistic} figures of job {job} are on different evaluation sets: {_listed(rows)}",
            hint="compare figures on one image set, or explain the mix in the study file (explanations: SG205)"))
    return findings + _mixed_in_readme(context) + mixed_in_prose(study)


# A bare figure in a sentence that quotes AP: not inside a version, date or word, no other unit after it.
_BARE_FIGURE_RE = lazy_compile(r"(?<![\w.\-/])\d+(?:\.\d+)?(?![\w.]?\d)(?!\s*(?:ms|µs|μs|us|MiB|MB|GiB|GB|%|x|×)(?![\w-]))")


def _quality_rows(study) -> list[Row]:
    return [row for row in study.rows if row.kind in QUALITY_KINDS and row.dataset and row.value is not None
            and row.unit in ("AP", "points")]


def _rows_of(number: str, unit: str, rows: list[Row]) -> list[Row]:
    """The quality ``rows`` whose figure the quoted ``number`` (``unit`` "AP"
    or "points" as written) gives (:func:`~studygen.checks.prose_figures.matches`:
    an AP above 1 is read in points, :func:`~studygen.checks.prose_figures.ap_factor`)."""
    wanted = "points" if unit.startswith("point") else "AP"
    factor = ap_factor(number) if wanted == "AP" else 1.0
    return [row for row in rows if row.unit == wanted and matches(number, row.value * factor)]


def quality_sentences(spec) -> list[tuple[tuple, str]]:
    """``(path, sentence)`` of each sentence of the study file's prose that
    quotes a figure with "AP" or "points" beside it (not under ``not_measured``,
    waivers or explanations), each sentence once."""
    found = []
    for path, text in claim_strings(spec):
        for _, unit, start in quoted_figures(text):
            if unit in ("AP", "point", "points") and (path, sentence := prose_sentence_at(text, start)) not in found:
                found.append((path, sentence))
    return found


def mixed_in_prose(study) -> list[Finding]:
    """Rule 3 in the study file's prose: a sentence whose quality figures
    (:func:`quality_sentences`, each read against the rows it gives,
    :func:`_rows_of`) no one image set gives together, unless the sentence
    names each set by its id."""
    rows = _quality_rows(study)
    if len({row.dataset for row in rows}) < 2:
        return []
    findings = []
    for path, sentence in quality_sentences(study.spec):
        quoted = []
        for match in _BARE_FIGURE_RE.finditer(sentence):
            number = match.group()
            if significant_digits(number) >= MIN_SIGNIFICANT:
                unit = "points" if re.match(r"\s*points?\b", sentence[match.end():]) else "AP"
                if matched := _rows_of(number, unit, rows):
                    quoted.append((number, matched))
        sets = [{row.dataset for row in matched} for _, matched in quoted]
        if len(quoted) < 2 or set.intersection(*sets) or all(names_dataset(sentence, d) for d in set.union(*sets)):
            continue
        pointer = pointer_from_path(path)
        listed = "; ".join(f"{number}: " + ", ".join(f"{r.variant} on {r.dataset} ({study.datasets[r.dataset].data['count']} images, "
                                                      f"job {r.job_id})" if r.dataset in study.datasets else
                                                      f"{r.variant} on {r.dataset} (job {r.job_id})" for r in matched)
                           for number, matched in quoted)
        findings.append(Finding(
            "SG205", f"{pointer} compares quality figures from different image sets: {listed}: {quote(sentence.strip())}",
            study.rel(study.study_path), line=yaml_phrase_line(study.spec_text, path, sentence), pointer=pointer,
            key=f"{pointer} {' '.join(number for number, _ in quoted)}",
            hint="compare figures on one image set, or name each set in the sentence"))
    return findings


def names_dataset(sentence: str, dataset_id: str) -> bool:
    """True when ``sentence`` names ``dataset_id`` as a whole word (case aside)."""
    return re.search(rf"(?<![\w-]){re.escape(dataset_id)}(?![\w-])", sentence, re.I) is not None


def _listed(rows: list[Row]) -> str:
    return "; ".join(f"{r.variant} {format_number(r.value)} on {r.dataset} (job {r.job_id})" for r in rows)


def _mixed_in_readme(context) -> list[Finding]:
    """Helper outputs whose quality figures come from different evaluation sets,
    unless the table shows an image-set column (then it says so)."""
    findings, seen = [], set()
    study = context.study
    for item, text in context.produced_outputs():
        if item.within or "Image set" in item.headers:
            continue
        rows = [r for r in item.rows if r.kind in IMAGE_SET_KINDS and r.dataset and r.value is not None]
        by_dataset = {}
        for row in rows:
            by_dataset.setdefault(row.dataset, row)
        if len(by_dataset) < 2:
            continue
        line = text.locate(item)
        if (line, item.text) in seen:
            continue
        seen.add((line, item.text))
        findings.append(readme_finding(
            study, "SG205", line,
            f"{item.kind} compares quality figures on different evaluation sets without saying so: "
            f"{_listed([by_dataset[d] for d in sorted(by_dataset)])}",
            hint="compare on one image set, or show the image set (index=(..., 'dataset') in study.table)"))
    return findings


def counts(context) -> list[Finding]:
    """Rule 4: counts in records, unused evaluation definitions, counts written in the README."""
    study = context.study
    findings = []
    used = {row.dataset for row in study.rows if row.kind in IMAGE_SET_KINDS and row.dataset in study.datasets}
    used |= {recipe.get("calibration_set") for recipe in (study.spec.get("recipes") or {}).values()}
    used.discard(None)
    for row in study.rows:
        if row.kind != Kind.AGREEMENT or row.dataset not in study.datasets:
            continue
        images = row.result.get("images")
        expected = study.datasets[row.dataset].data["count"]
        if images is not None and images != expected:
            findings.append(row_finding("SG205", row,
                                        f"{row.metric} of {row.variant} in job {row.job_id} states {images} images, "
                                        f"but dataset {row.dataset} has {expected}"))
    evaluation_used = sorted(d for d in used if d in study.datasets and study.datasets[d].data["role"] == "evaluation")
    # with a record unreadable (SG202), the result naming a definition may be in it: no result naming it proves nothing
    if evaluation_used and not study.has_unread_files:
        named = ", ".join(f"{d} ({study.datasets[d].data['count']} images)" for d in evaluation_used)
        for dataset_id in sorted(study.datasets):
            dataset = study.datasets[dataset_id]
            if dataset.data["role"] == "evaluation" and dataset_id not in used:
                findings.append(_dataset_finding(
                    study, dataset_id, f"evaluation set {dataset_id} ({dataset.data['count']} images) is defined but no "
                    f"result names it, while the quality results name {named}: which images were evaluated is "
                    "ambiguous",
                    hint="remove the definition, or explain how the two image sets relate (explanations: SG205)"))
    findings.extend(_readme_counts(context, used))
    return findings



def _readme_counts(context, used: set) -> list[Finding]:
    study = context.study
    text = context.readme_text
    if text is None:
        return []
    used_counts = {study.datasets[d].data["count"]: d for d in sorted(used) if d in study.datasets}
    by_count: dict[int, list[str]] = {}
    for dataset_id in sorted(study.datasets):
        by_count.setdefault(study.datasets[dataset_id].data["count"], []).append(dataset_id)
    findings = []
    for index, line in text.prose_lines():
        for stated, start, end in image_counts(line):
            if text.covered(index, start, end):
                continue  # printed by a helper from the definitions
            if stated in used_counts:
                continue
            phrase = line[start:end]
            sentence = quote(sentence_at(line, start, end))
            used_text = ", ".join(f"{d} ({c} images, {study.datasets[d].data['role']})"
                                  for c, d in sorted(used_counts.items())) or "none"
            if stated in by_count:
                message = (f"README states {stated} images ({quote(phrase)}), the count of "
                           f"{', '.join(by_count[stated])}, which no result uses; the figures use {used_text}: "
                           f"{sentence}")
            else:
                message = (f"README states {stated} images ({quote(phrase)}), but no dataset definition has "
                           f"{stated} images (the figures use {used_text}): {sentence}")
            findings.append(prose_finding(context, "SG205", index, (start, end), message,
                                          "print image sets with study.dataset_table(); state only counts of the "
                                          "sets the figures use",
                                          "state only counts of the image sets the figures use, or leave the count "
                                          "out (the README's Image sets table gives each set's)"))
    return findings


def unpublished_ids(study) -> list[Finding]:
    """Rule 5: definitions without published ids (warning; known gaps list them)."""
    return [
        _dataset_finding(study, dataset_id,
                         f"image ids of {dataset_id} ({study.datasets[dataset_id].data['count']} images) were not "
                         "published: "
                         f"{study.datasets[dataset_id].data['ids_not_published']}", pointer="/ids_not_published",
                         severity=WARNING, hint="the README lists it under known gaps")
        for dataset_id in sorted(study.datasets) if "ids_not_published" in study.datasets[dataset_id].data
    ]


# What set a record names for each kind of result that rule 6 holds to the study file.
CALIBRATION, AGREEMENT = "calibration", "agreement"
SET_ROLES = {Kind.QUANTIZATION: CALIBRATION, Kind.AGREEMENT: AGREEMENT}


def study_file_set(study, role: str, recipe: str | None) -> tuple[str, str | None]:
    """``(pointer, dataset id)``: where the study file names the set of
    ``role`` for a variant of ``recipe`` (None: a variant with no recipe),
    and the id it names there (None when it names none): a calibration set
    is its recipe's ``calibration_set``, else the run's; an agreement set the
    run's ``agreement_set``."""
    if role == CALIBRATION and recipe:
        named = ((study.spec.get("recipes") or {}).get(recipe) or {}).get("calibration_set")
        if named:
            return f"/recipes/{pointer_part(recipe)}/calibration_set", named
    key = "calibration_set" if role == CALIBRATION else "agreement_set"
    return f"/run/{key}", (study.spec.get("run") or {}).get(key) or None


def _result_pointer(row: Row) -> str:
    """The pointer of the record result a row is read from (``/results/3``)."""
    return "/".join(row.pointer.split("/")[:3])


def _recipe(study, row: Row, variants: dict | None = None) -> str | None:
    """The recipe of the row's variant: the study file's (``variants[*].recipe``), else the result's own.
    ``variants``: the study's (:attr:`studygen.study.Study.variants`, made anew each time it is asked), when at hand."""
    return (study.variants if variants is None else variants).get(row.variant, {}).get("recipe") or row.result.get("recipe")


def _set_finding(row: Row, message: str, hint: str) -> Finding:
    pointer = f"{_result_pointer(row)}/dataset"
    return Finding("SG205", message, row.record.display_path, line=row.record.line_of(pointer), pointer=pointer,
                   key=row.key.text(), hint=hint)


def sets_in_study_file(study) -> list[Finding]:
    """Rule 6: each calibration and agreement set a record names is the one the study file names for it."""
    findings = []  # a quantization or agreement result is one row
    study_file, variants = study.rel(study.study_path), study.variants
    for row in study.rows:
        role = SET_ROLES.get(row.kind)
        if role is None or not row.dataset:
            continue
        pointer, named = study_file_set(study, role, _recipe(study, row, variants))
        if named is None or row.dataset == named:
            continue
        findings.append(_set_finding(
            row, f"{row.kind} result of {row.variant} in job {row.job_id} names {role} set '{row.dataset}', which the "
            f"study file does not define for it: {study_file} {pointer} names '{named}'",
            hint=f"set {pointer} in the study file to the set the job used, or collect the job again"))
    return findings


# The precisions whose engines are calibrated (int8 activation scales, FP8 and FP4 scales): a figure of such a variant
# on a set defined as a calibration set was scored on the images its scales came from (rule 7)
CALIBRATED_PRECISIONS = frozenset({"int8", "int4", "fp8", "fp4", "nvfp4", "mxfp4"})


def calibrated_on(study) -> list[Finding]:
    """Rule 7: no quality or agreement figure of a calibrated variant on its own calibration set: the set the
    study file or a quantization result names for it, or, for a variant of a calibrated precision
    (:data:`CALIBRATED_PRECISIONS`) or recipe, any set whose definition's role is ``calibration``. Case (a new
    user's trial, session 28): an int8 agreement figure scored on the 64 inputs its activation scales came from
    (``role: calibration``) was reported only as "figures on different evaluation sets", because the same job
    also scored the held-out set; scored alone, it passed."""
    quantized = {(row.job_id, row.variant): row for row in study.rows if row.kind == Kind.QUANTIZATION and row.dataset}
    study_file, variants = study.rel(study.study_path), study.variants
    calibration_sets = {}  # recipe → where the study file names its calibration set, and which (once a recipe)
    findings = []
    for row in study.rows:
        if row.kind not in IMAGE_SET_KINDS or not row.dataset:
            continue
        recipe = _recipe(study, row, variants)  # a variant without a recipe is calibrated on nothing
        if recipe not in calibration_sets:
            calibration_sets[recipe] = study_file_set(study, CALIBRATION, recipe)
        pointer, named = calibration_sets[recipe]
        if recipe and row.dataset == named:
            source = f"{study_file} {pointer}"
        elif (job_row := quantized.get((row.job_id, row.variant))) is not None and job_row.dataset == row.dataset:
            source = f"the quantization result of job {row.job_id}, {job_row.record.display_path} {_result_pointer(job_row)}/dataset"
        elif _calibration_role(study, row, variants):
            source = f"its definition's role is calibration: {_definition_path(study, row.dataset)}"
        else:
            continue
        findings.append(_set_finding(
            row, f"{row.kind} ({row.statistic or row.metric}) of {row.variant} in job {row.job_id} is evaluated on "
            f"{row.dataset}, the set {row.variant} was calibrated on ({source}): quality must be measured on images "
            "the calibration never saw",
            hint="evaluate on a held-out set that differs from the calibration set"))
    return findings


def _calibration_role(study, row: Row, variants: dict) -> bool:
    """Whether ``row`` is of a calibrated variant (a calibrated precision or a recipe; ``variants``: the study's)
    and its set is defined as a calibration set."""
    definition = study.datasets.get(row.dataset)
    return (definition is not None and definition.data.get("role") == CALIBRATION
            and ((row.precision or "").lower() in CALIBRATED_PRECISIONS or bool(_recipe(study, row, variants))))


def _definition_path(study, dataset_id: str) -> str:
    """The definition file of ``dataset_id`` as the findings name files, with the pointer of its role."""
    return f"{study.datasets[dataset_id].display_path} /role"


def check(context) -> list[Finding]:
    study = context.study
    return (named_datasets(study) + disjointness(study) + mixed_comparisons(context) + counts(context)
            + unpublished_ids(study) + sets_in_study_file(study) + calibrated_on(study) + role_findings(study, "SG205"))
