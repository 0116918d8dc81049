#!/usr/bin/env bash
# A JPEG thumbnail decoded at 1/8 from its DC coefficients against libjpeg-turbo's own 1/8 decode
# (FILTERRUN_JPEG_DC_PATH=0): filterrun's `decode` stage and whole render (`--stats`), one process a render, RUNS
# (default 11) runs each way, alternating; median (range) in ms. The recipe resizes in sRGB with Lanczos 3 to WIDTH
# (default 400) at FIDELITY (default fast; `high` keeps libjpeg's 4:2:0 chroma, and picks 1/8 only for a small WIDTH).
# Usage: [RUNS=11] [WIDTH=400] [FIDELITY=fast] scripts/bench-jpeg-eighth.sh PHOTO.jpg... [-- FILTERRUN]
set -euo pipefail
cd "$(dirname "$0")/.."
photos=(); fr=.build/release/filterrun
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then fr=$2; break; fi
  photos+=("$1"); shift
done
runs=${RUNS:-11}; width=${WIDTH:-400}; fidelity=${FIDELITY:-fast}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf '{"version": 1, "workingSpace": "srgb", "steps": [{"op": "resize", "width": %d, "kernel": "lanczos3", "withoutEnlargement": true}]}' \
  "$width" > "$work/thumb.json"
echo "| photo | decode | DC path: decode ms | libjpeg: decode ms | DC path: render ms | libjpeg: render ms |"
echo "|---|---|---|---|---|---|"
for photo in "${photos[@]}"; do
  factor=$("$fr" "$work/thumb.json" "$photo" "$work/x.jpg" --fidelity "$fidelity" --explain --backend cpu --force | grep -oE 'decoded at 1/[0-9]+' | head -1 || true)
  : > "$work/dc"; : > "$work/lj"
  for _ in $(seq "$runs"); do
    for way in dc lj; do
      env_value=1; [ "$way" = lj ] && env_value=0
      FILTERRUN_JPEG_DC_PATH=$env_value "$fr" "$work/thumb.json" "$photo" "$work/x.jpg" --fidelity "$fidelity" --backend cpu \
        --stats --force 2>&1 | grep -oE 'decode [0-9.]+ s|total [0-9.]+ s' | awk '{print $2}' | paste -sd' ' >> "$work/$way"
    done
  done
  python3 - "$(basename "$photo")" "${factor:-?}" "$work/dc" "$work/lj" <<'PY'
import statistics, sys
name, factor = sys.argv[1], sys.argv[2]
def column(path, i):
    values = [float(line.split()[i]) * 1000 for line in open(path) if line.strip()]
    return f"{statistics.median(values):.1f} ({min(values):.1f}–{max(values):.1f})"
print(f"| {name} | {factor} | {column(sys.argv[3], 0)} | {column(sys.argv[4], 0)} | {column(sys.argv[3], 1)} | {column(sys.argv[4], 1)} |")
PY
done
