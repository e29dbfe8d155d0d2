#!/usr/bin/env bash
# Issue 17 on a host with two H200s (device kind nvidia-h200-x2), from the repository root:
#   bash families/deformable_detr_h200_torch/collect_h200_x2.sh COMMIT
# 1. the eager cells as two shards at the same time, one per GPU: both GPUs visible, RANK/WORLD_SIZE/
#    LOCAL_RANK set as torchrun sets them, so --shard auto picks the shard and pins the GPU;
# 2. the same cells alone, unsharded, on GPU 0, right after.
# Writes measurements/deformable_detr_h200_torch/h200-eager-x2-shard{1,2}of2.json and h200-eager-alone.json
# and copies them and the logs to $OUT. Compare them with benchmarks/shard_interference.py.
set -uo pipefail
commit=$1; shift
out=${OUT:-/tmp/studygen-out}; mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 COLUMNS=160
nvidia-smi --query-gpu=index,uuid,name,driver_version,clocks.sm,temperature.gpu --format=csv
# build ModelOpt's FP8 extension once, before two processes would both build it into one cache
python3 -c "from modelopt.torch.quantization.extensions import get_cuda_ext_fp8; get_cuda_ext_fp8()" >"$out/ext.log" 2>&1
python3 - <<'PY'
from pathlib import Path
from studygen.collect.run.datasets import refresh_definition
for path in sorted(Path("measurements/deformable_detr_h200_torch/datasets").glob("*.json")):
    print(path, "rewritten for this scikit-image" if refresh_definition(path) else "matches")
PY
collect() {  # collect run with the options given, its output to $out/<log>.log
  local log=$1; shift
  timeout -s INT "${LIMIT_S:-270}" python3 -c 'import sys; from studygen.commands.collect_run import run_command; run_command.main(sys.argv[1:], prog_name="studygen collect run")' \
    --study families/deformable_detr_h200_torch --commit "$commit" --dirty --modes eager "$@" >"$out/$log.log" 2>&1
}
pids=()
for rank in 0 1; do
  RANK=$rank WORLD_SIZE=2 LOCAL_RANK=$rank TORCHINDUCTOR_CACHE_DIR=/tmp/inductor-$rank \
    collect "h200-eager-x2-rank$rank" --job h200-eager-x2 --shard auto &
  pids+=("$!")
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
CUDA_VISIBLE_DEVICES=0 collect h200-eager-alone --job h200-eager-alone || status=$?
cp measurements/deformable_detr_h200_torch/h200-eager-x2-shard*.json measurements/deformable_detr_h200_torch/h200-eager-alone.json "$out/" 2>/dev/null
tail -n 3 "$out"/*.log
nvidia-smi --query-gpu=index,clocks.sm,temperature.gpu --format=csv,noheader
exit "$status"
