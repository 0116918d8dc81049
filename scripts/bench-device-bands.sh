#!/usr/bin/env bash
# Device renders whole against streamed band by band (the default from a megapixel): every single-input recipe of
# recipes/ on PHOTO with one filterrun binary, `FILTERRUN_VULKAN_STREAM_ROWS=0` (whole) alternating with the default,
# one process a render, JPEG q90 out. Wall seconds and peak resident MiB (GNU time's %M), median (min–max) of RUNS
# (default 5); checks the two outputs are identical. Prints a Markdown table.
# Usage: FILTERRUN_DEVICE=llvmpipe [RUNS=5] [FILTERRUN=.build/release/filterrun] scripts/bench-device-bands.sh PHOTO
set -euo pipefail
cd "$(dirname "$0")/.."
photo=$1; runs=${RUNS:-5}; filterrun=${FILTERRUN:-.build/release/filterrun}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
measure() {  # rows recipe out → "seconds MiB"
  FILTERRUN_VULKAN_STREAM_ROWS=$1 /usr/bin/time -f "%e %M" -o "$work/time" \
    "$filterrun" "$2" "$photo" "$3" --force --backend vulkan --quality 90 > /dev/null 2> "$work/err" \
    || { cat "$work/err" >&2; exit 1; }
  awk '{printf "%s %.0f\n", $1, $2 / 1024}' "$work/time"
}
summary() { sort -n | awk '{v[NR]=$1} END {printf "%.2f (%.2f–%.2f)", v[int((NR+1)/2)], v[1], v[NR]}'; }
printf "| recipe | whole s | streamed s | streamed ÷ whole | whole MiB | streamed MiB |\n|---|---|---|---|---|---|\n"
for recipe in recipes/*.json; do
  name=$(basename "$recipe" .json)
  case $name in schema|watermark|caption|cutout|grade-16bit) continue ;; esac
  : > "$work/w"; : > "$work/s"
  for _ in $(seq "$runs"); do
    measure 0 "$recipe" "$work/whole.jpg" >> "$work/w"
    measure "" "$recipe" "$work/streamed.jpg" >> "$work/s"
  done
  cmp -s "$work/whole.jpg" "$work/streamed.jpg" || { echo "$name: streamed output differs from whole" >&2; exit 1; }
  tw=$(cut -d' ' -f1 "$work/w" | summary); ts=$(cut -d' ' -f1 "$work/s" | summary)
  mw=$(cut -d' ' -f2 "$work/w" | summary); ms=$(cut -d' ' -f2 "$work/s" | summary)
  printf "| %s | %s | %s | %s× | %.0f | %.0f |\n" "$name" "$tw" "$ts" \
    "$(awk -v x="${ts%% *}" -v y="${tw%% *}" 'BEGIN {printf "%.2f", x / y}')" "${mw%% *}" "${ms%% *}"
done
