#!/usr/bin/env bash
# What a render on the Vulkan device holds: every recipe of recipes/ that takes one photo, rendered with
# `--backend vulkan` on IMAGE (default the 3840×2160 RGB photo), with the working buffers as the planner chooses them
# and with float32 forced (FILTERRUN_VULKAN_FLOAT32=1). Prints, per recipe, the device's working buffers
# (`--stats`' "intermediate rows") and the process's peak resident memory (GNU time; on lavapipe device memory is
# host memory), then the sums and their ratio. Memory is deterministic here; RUNS (default 1) repeats each.
# Usage: FILTERRUN_DEVICE=llvmpipe scripts/bench-device-memory.sh IMAGE [FILTERRUN]
# (BENCHMARKS.md's figures: ../shared/testdata/photos/seeding_3840x2160_rgb8.png)
set -euo pipefail
cd "$(dirname "$0")/.."
image=$1
binary=${2:-.build/release/filterrun}
runs=${RUNS:-1}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
measure() {  # recipe, float32 (""/1) → "working-MiB peak-MiB"
  local best=""
  for _ in $(seq "$runs"); do
    FILTERRUN_VULKAN_FLOAT32=$2 /usr/bin/time -f "%M" -o "$work/time" "$binary" "$1" "$image" "$work/out.png" --force \
      --backend vulkan --stats >"$work/stats" 2>&1 || { echo "failed: $1" >&2; cat "$work/stats" >&2; exit 1; }
    local rows peak
    rows=$(grep -o "intermediate rows [0-9.]* MiB" "$work/stats" | grep -o "[0-9.]*" | head -1)
    peak=$(awk '{printf "%.0f", $1 / 1024}' "$work/time")
    best="$rows $peak"
  done
  echo "$best"
}
printf "| recipe | working buffers, float32 | as planned | peak resident, float32 | as planned | ratio |\n|---|---|---|---|---|---|\n"
total32=0; total=0
for recipe in recipes/*.json; do
  name=$(basename "$recipe" .json)
  # Recipes with a second input (watermark, cutout, caption) or a 16-bit grade are left to their own tests.
  case $name in schema|watermark|caption|cutout|grade-16bit) continue ;; esac
  read -r w32 p32 < <(measure "$recipe" 1)
  read -r w p < <(measure "$recipe" "")
  total32=$((total32 + p32)); total=$((total + p))
  printf "| %s | %s MiB | %s MiB | %s MiB | %s MiB | %s× |\n" "$name" "$w32" "$w" "$p32" "$p" \
    "$(awk -v a="$p" -v b="$p32" 'BEGIN {printf "%.2f", a / b}')"
done
printf "| **all** | | | %s MiB | %s MiB | **%s×** |\n" "$total32" "$total" \
  "$(awk -v a="$total" -v b="$total32" 'BEGIN {printf "%.2f", a / b}')"
