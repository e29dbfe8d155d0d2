"""Benchmark: ``studygen lint`` on real public documents with hand labels.

Runs the corpus scorer's own matching (``../shared/corpus/score_lint.py``:
``matches`` and ``run_lint``, imported from there, never copied) over every
document of a labelled corpus and prints, per finding code and in total:
true positives, false positives, labelled faults found and wanted, precision
and recall. The total line is the scorer's summary line. Targets (issue 23,
on the 61 documents of ../shared/corpus/lint): precision >= 0.92 and recall
>= 0.75. Run from the project root::

    python benchmarks/lint_corpus.py [--corpus ../shared/corpus] [--studygen "studygen"] [--list]

``--corpus`` names a folder holding ``score_lint.py`` and ``lint/LABELS.json``
(the layout its README describes), so a second labelled set is scored the
same way; ``--list`` also prints each false positive and each miss.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"


def load_scorer(corpus: Path):
    """The corpus's score_lint module (its matching rules and lint runner)."""
    path = corpus / "score_lint.py"
    if not path.is_file():
        raise SystemExit(f"lint_corpus: {path}: no scorer there (is ../shared/corpus present?)")
    spec = importlib.util.spec_from_file_location("score_lint", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def score(corpus: Path, command: str, listing: bool = False) -> tuple[Counter, Counter, Counter, Counter]:
    """(true positives, false positives, faults found, faults wanted) per code,
    counted as the scorer counts them (once per file, code and line)."""
    scorer = load_scorer(corpus)
    labels = json.loads((corpus / "lint" / "LABELS.json").read_text(encoding="utf-8"))
    tp, fp, hits, wanted = Counter(), Counter(), Counter(), Counter()
    for name in sorted(labels):
        entry = labels[name]
        tp_labels = [tuple(x) for x in entry.get("tp", [])]
        neutral = [tuple(x) for x in entry.get("neutral", [])]
        for label in tp_labels:
            wanted[label[0]] += 1
        findings, error = scorer.run_lint(command, corpus / "lint" / name)
        if error:
            print(f"{name}: lint did not run: {error}")
            continue
        found = set()
        for code, line in sorted({(code, line) for code, line, _ in findings}):
            matched = [label for label in tp_labels if scorer.matches(code, line, label)]
            if matched:
                tp[code] += 1
                found.update(matched)
            elif not any(scorer.matches(code, line, label) for label in neutral):
                fp[code] += 1
                if listing:
                    print(f"{name}:{line}: FP {code}")
        for label in found:
            hits[label[0]] += 1
        if listing:
            for label in tp_labels:
                if label not in found:
                    print(f"{name}:{label[1]}: MISS {label[0]}")
    return tp, fp, hits, wanted


def _ratio(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder with score_lint.py and lint/")
    parser.add_argument("--studygen", default="studygen", help="command that runs studygen (default: studygen on PATH)")
    parser.add_argument("--list", action="store_true", help="also print each false positive and miss")
    args = parser.parse_args(argv)
    tp, fp, hits, wanted = score(args.corpus, args.studygen, args.list)
    print(f"{'code':<6} {'TP':>4} {'FP':>4} {'found':>6} {'wanted':>6} {'precision':>9} {'recall':>6}")
    for code in sorted(set(tp) | set(fp) | set(wanted)):
        print(f"{code:<6} {tp[code]:>4} {fp[code]:>4} {hits[code]:>6} {wanted[code]:>6} "
              f"{_ratio(tp[code], tp[code] + fp[code]):>9} {_ratio(hits[code], wanted[code]):>6}")
    all_tp, all_fp, all_hits, all_wanted = (sum(c.values()) for c in (tp, fp, hits, wanted))
    print(f"precision {_ratio(all_tp, all_tp + all_fp)} ({all_tp}, {all_fp}), "
          f"recall {_ratio(all_hits, all_wanted)} ({all_hits} of {all_wanted})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
