#!/usr/bin/env bash
# Measure this study on one NVIDIA H200 (the device machine), from the repository root:
#   bash families/deformable_detr_h200_torch/collect_h200.sh JOB COMMIT [collect run options...]
# e.g. JOB=h200-eager with --modes eager, JOB=h200-compile with --modes compile.
# The wheels the machine lacks (ModelOpt, jsonschema, ...) travel in .whl/ (../shared/tools/device-wheels.sh).
# Writes the record to measurements/deformable_detr_h200_torch/JOB.json and copies it, its log and any
# refreshed dataset definition to $OUT.
set -uo pipefail
job=$1; commit=$2; shift 2
out=${OUT:-/tmp/studygen-out}; mkdir -p "$out"
# once per machine (a later job of the same call finds them installed)
[ -f /tmp/site/.studygen-wheels ] || { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
  --upgrade --target /tmp/site .whl/*.whl && touch /tmp/site/.studygen-wheels; } || exit 3
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 COLUMNS=160
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv
# ModelOpt's fake-quantization CUDA extension compiles on first use (FP8 agreement, eager jobs only).
# Build it first, to the end, so that nothing else runs on the machine while the job times forwards
# (built in the background, it took the CPU cores from the eager timings). PREBUILD_EXT=0 skips it.
if [ "${PREBUILD_EXT:-1}" = 1 ]; then
  began=$(date +%s)
  python3 -c "from modelopt.torch.quantization.extensions import get_cuda_ext_fp8; get_cuda_ext_fp8()" >"$out/ext.log" 2>&1
  echo "ModelOpt CUDA extension ready after $(( $(date +%s) - began )) s" | tee -a "$out/ext.log"
fi
python3 - <<'PY'
from pathlib import Path
from studygen.collect.run.datasets import refresh_definition
for path in sorted(Path("measurements/deformable_detr_h200_torch/datasets").glob("*.json")):
    print(path, "rewritten for this scikit-image" if refresh_definition(path) else "matches")
PY
# stop (SIGINT) before the device call's limit so the finished results still come back
timeout -s INT "${LIMIT_S:-510}" python3 -c 'import sys; from studygen.commands.collect_run import run_command; run_command.main(sys.argv[1:], prog_name="studygen collect run")' \
  --study families/deformable_detr_h200_torch --job "$job" --commit "$commit" --dirty "$@" 2>&1 | tee "$out/$job.log"
status=${PIPESTATUS[0]}
cp measurements/deformable_detr_h200_torch/"$job".json "$out/" 2>/dev/null
cp measurements/deformable_detr_h200_torch/datasets/*.json "$out/" 2>/dev/null
nvidia-smi --query-gpu=clocks.sm,temperature.gpu --format=csv,noheader
exit "$status"
