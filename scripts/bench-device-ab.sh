#!/usr/bin/env bash
# Two filterrun binaries on the Vulkan device, every single-input recipe of recipes/ on PHOTO: wall seconds of one
# process a render (JPEG q90 out), median (min–max) of RUNS (default 5), the binaries alternating so the machine's
# drift touches both alike. Prints a Markdown table with B's median over A's.
# Usage: FILTERRUN_DEVICE=llvmpipe [RUNS=5] scripts/bench-device-ab.sh PHOTO A-FILTERRUN B-FILTERRUN
set -euo pipefail
cd "$(dirname "$0")/.."
photo=$1; a=$2; b=$3; runs=${RUNS:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
seconds() {  # binary recipe
  local began
  began=$(date +%s.%N)
  "$1" "$2" "$photo" "$work/out.jpg" --force --backend vulkan --quality 90 > /dev/null 2> "$work/err" \
    || { cat "$work/err" >&2; exit 1; }
  echo "$(date +%s.%N) - $began" | bc
}
summary() { sort -n | awk '{v[NR]=$1} END {printf "%.2f (%.2f–%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
printf "| recipe | A: %s | B: %s | B ÷ A |\n|---|---|---|---|\n" "$a" "$b"
for recipe in recipes/*.json; do
  name=$(basename "$recipe" .json)
  case $name in schema|watermark|caption|cutout|grade-16bit) continue ;; esac
  : > "$work/a"; : > "$work/b"
  for _ in $(seq "$runs"); do
    seconds "$a" "$recipe" >> "$work/a"
    seconds "$b" "$recipe" >> "$work/b"
  done
  ma=$(summary < "$work/a"); mb=$(summary < "$work/b")
  printf "| %s | %s | %s | %s× |\n" "$name" "$ma" "$mb" \
    "$(awk -v x="${mb%% *}" -v y="${ma%% *}" 'BEGIN {printf "%.2f", x / y}')"
done
