#!/usr/bin/env bash
# Measure a study as one shard per GPU of this host, all shards at the same time.
#   bash docs/launch/one-host.sh STUDY JOB [collect run options...]
# e.g. bash docs/launch/one-host.sh families/deformable_detr_h200_torch h200-eager-x2 --modes eager
# GPUS: how many shards (default: the GPUs nvidia-smi lists). LAUNCHER: torchrun (default; shard and
# GPU from RANK/WORLD_SIZE/LOCAL_RANK through --shard auto) or processes (one background process per
# GPU, each seeing only its own GPU through CUDA_VISIBLE_DEVICES, with --shard K/N).
# Each shard writes measurements/<family>/JOB-shardKofN.json; the exit status is non-zero when any failed.
set -euo pipefail
study=$1; job=$2; shift 2
gpus=${GPUS:-$(nvidia-smi --list-gpus | wc -l)}
# each shard compiles with its own Inductor cache: shards must not share (or race on) compiled kernels
cache=${TORCHINDUCTOR_CACHE_DIR:-${TMPDIR:-/tmp}/studygen-inductor-$job}
case ${LAUNCHER:-torchrun} in
  torchrun)
    # --no-python: torchrun starts the studygen command itself; the cache directory is set per rank below
    exec torchrun --standalone --nnodes=1 --nproc-per-node="$gpus" --no-python \
      bash -c 'TORCHINDUCTOR_CACHE_DIR="$0-$LOCAL_RANK" exec studygen collect run "$@" --shard auto' "$cache" \
      --study "$study" --job "$job" "$@" ;;
  processes)
    pids=()
    for ((index = 0; index < gpus; index++)); do
      CUDA_VISIBLE_DEVICES=$index TORCHINDUCTOR_CACHE_DIR="$cache-$index" \
        studygen collect run --study "$study" --job "$job" --shard "$((index + 1))/$gpus" "$@" &
      pids+=("$!")
    done
    status=0
    for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
    exit "$status" ;;
  *) echo "LAUNCHER must be torchrun or processes, not ${LAUNCHER}" >&2; exit 2 ;;
esac
