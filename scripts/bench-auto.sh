#!/usr/bin/env bash
# `--backend auto` against the CPU and Vulkan backends on every recipe of recipes/, one process a render (wall
# seconds, median of RUNS, default 3, the backends alternating), JPEG q90 out; prints a Markdown table with auto's
# time over the faster backend's and the issue's bound (1.2× the faster + 0.05 s). DEVICE sets FILTERRUN_DEVICE for
# every run (llvmpipe: lavapipe stands in for a slow device); without it auto sees this machine as it is. The
# device's profile is measured before the table (one auto run with a fresh cache) so no row pays for it.
# Usage: [DEVICE=llvmpipe] [RUNS=3] scripts/bench-auto.sh PHOTO.jpg [FILTERRUN]
set -euo pipefail
cd "$(dirname "$0")/.."
photo=$1; fr=${2:-.build/release/filterrun}; runs=${RUNS:-3}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache
[ -n "${DEVICE:-}" ] && export FILTERRUN_DEVICE=$DEVICE
# A grey mask and a small logo for the recipes with a second input, written by filterrun from the photo.
printf '%s' '{"version": 1, "steps": [{"op": "grayscale"}]}' > "$work/grey.json"
printf '%s' '{"version": 1, "steps": [{"op": "resize", "width": 320}]}' > "$work/logo.json"
"$fr" "$work/grey.json" "$photo" "$work/mask.png" --force --backend cpu
"$fr" "$work/logo.json" "$photo" "$work/logo.png" --force --backend cpu
extra() {
  case $(basename "$1") in
    watermark.json) echo "--input watermark=$work/logo.png";;
    cutout.json) echo "--input mask=$work/mask.png";;
  esac
}
"$fr" recipes/vintage.json "$photo" "$work/warm.jpg" --force --backend auto > /dev/null 2>&1 || true
seconds() {  # backend recipe
  local began ended
  began=$(date +%s.%N)
  # shellcheck disable=SC2046
  "$fr" "$2" "$photo" "$work/out.jpg" --force --backend "$1" $(extra "$2") > /dev/null 2> "$work/err" \
    || { echo "failed: $1 $2: $(tail -1 "$work/err")" >&2; echo nan; return; }
  ended=$(date +%s.%N)
  echo "$ended - $began" | bc -l
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "device: ${DEVICE:-as found}; photo: $photo; $runs runs each, medians (range)"
echo
echo "| recipe | CPU s | Vulkan s | auto s | auto ÷ faster | within 1.2× + 0.05 s | auto rendered on |"
echo "|---|---|---|---|---|---|---|"
for recipe in $(ls recipes/*.json | grep -v schema.json); do
  c=(); v=(); a=()
  for _ in $(seq "$runs"); do
    c+=("$(seconds cpu "$recipe")"); v+=("$(seconds vulkan "$recipe")"); a+=("$(seconds auto "$recipe")")
  done
  mc=$(median "${c[@]}"); mv=$(median "${v[@]}"); ma=$(median "${a[@]}")
  # shellcheck disable=SC2046
  ran=$("$fr" "$recipe" "$photo" "$work/out.jpg" --force --backend auto --stats=json $(extra "$recipe") 2>&1 >/dev/null \
        | python3 -c 'import json, sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["backend"])' 2>/dev/null || echo "?")
  python3 - "$recipe" "$mc" "$mv" "$ma" "$ran" "${c[*]}" "${v[*]}" "${a[*]}" <<'EOF'
import sys
name, c, v, a, ran = sys.argv[1].split("/")[-1][:-5], *map(float, sys.argv[2:5]), sys.argv[5]
r = lambda s: "–".join(f"{x:.3f}" for x in (min(map(float, s.split())), max(map(float, s.split()))))
faster = min(c, v)
print(f"| {name} | {c:.3f} ({r(sys.argv[6])}) | {v:.3f} ({r(sys.argv[7])}) | {a:.3f} ({r(sys.argv[8])}) | "
      f"{a / faster:.2f}× | {'yes' if a <= 1.2 * faster + 0.05 else '**no**'} | {ran} |")
EOF
done
