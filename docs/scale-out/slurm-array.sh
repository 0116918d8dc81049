#!/usr/bin/env bash
# A Slurm job array rendering one batch in 16 shards (tasks 0-15, at most 8 running at once).
#
# Storage: the photos and the output directory are on a file system every node mounts at the same path (the
# cluster's shared /scratch or home: Lustre, GPFS, NFS), so every task sees the same tree and a resubmitted task
# finds what it wrote. Set PHOTOS and OUT below (or export them before sbatch; --export=ALL is Slurm's default).
#
#   sbatch docs/scale-out/slurm-array.sh
#   # after it ends, or to see how far it got:
#   python3 docs/scale-out/merge-stats.py "$OUT/.stats"/shard-*.json
#
# Resubmitting the array (or one task: sbatch --array=5 …) renders only the files not yet written.
#SBATCH --job-name=filterrun
#SBATCH --array=0-15%8
#SBATCH --cpus-per-task=4
#SBATCH --mem=2G
#SBATCH --time=02:00:00
#SBATCH --output=filterrun-%A_%a.log
set -euo pipefail
PHOTOS=${PHOTOS:-/scratch/$USER/photos}
OUT=${OUT:-/scratch/$USER/thumbs}
RECIPE=${RECIPE:-recipes/web-thumbnail.json}
# --shard auto reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT; --jobs matches the CPUs Slurm gave the task.
exec filterrun "$RECIPE" "$PHOTOS" "$OUT" --recursive --shard auto --jobs "${SLURM_CPUS_PER_TASK:-4}" --quiet \
  --stats-file "$OUT/.stats/shard-${SLURM_ARRAY_TASK_ID}.json"
