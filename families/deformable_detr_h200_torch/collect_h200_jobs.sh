#!/usr/bin/env bash
# Several jobs of this study in one device call, one after another, within the call's time:
#   BUDGET_S=580 bash families/deformable_detr_h200_torch/collect_h200_jobs.sh COMMIT \
#       'h200-compile-800x800 300 --modes compile --shapes 800x800 --variants fp16,fp8' \
#       'h200-eager-unpinned 200 --modes eager --no-pin-timing'
# Each job is 'JOB MIN_S [collect run options...]': it starts only when at least MIN_S of BUDGET_S seconds (counted
# from this script's start) are left, runs collect_h200.sh (COLLECT overrides it) with LIMIT_S = the seconds left
# minus MARGIN_S, and gets --time-limit 40 s below that, so that compilation waves stop in time and their results
# are written before the interrupt. After each job, everything the jobs wrote is packed into $OUT/results.tar.gz
# (records, logs, dataset definitions), so what finished comes back even when the call is cut short.
set -uo pipefail
commit=$1; shift
out=${OUT:-/tmp/studygen-out}; mkdir -p "$out"
stage=$(mktemp -d /tmp/studygen-jobs.XXXXXX)
collect=${COLLECT:-families/deformable_detr_h200_torch/collect_h200.sh}
budget=${BUDGET_S:-580}; margin=${MARGIN_S:-15}
began=$(date +%s)
status=0
for spec in "$@"; do
  read -r -a words <<<"$spec"
  job=${words[0]}; min_s=${words[1]}; options=("${words[@]:2}")
  left=$(( budget - ($(date +%s) - began) ))
  if (( left < min_s )); then
    echo "== $job skipped: $left s left of $budget, it needs $min_s" | tee -a "$stage/jobs.log"
    continue
  fi
  limit=$(( left - margin ))
  echo "== $job: LIMIT_S=$limit, --time-limit $(( limit - 40 )), ${options[*]}" | tee -a "$stage/jobs.log"
  mkdir -p "$stage/$job"
  OUT="$stage/$job" LIMIT_S=$limit bash "$collect" "$job" "$commit" "${options[@]}" --time-limit $(( limit - 40 ))
  code=$?
  echo "== $job exit $code after $(( $(date +%s) - began )) s" | tee -a "$stage/jobs.log"
  (( code == 0 )) || status=$code
  tar -czf "$out/results.tar.gz.part" -C "$stage" . && mv "$out/results.tar.gz.part" "$out/results.tar.gz"
done
exit "$status"
