#!/usr/bin/env bash
# A folder of photos to 400 px thumbnails, JPEG quality 80: filterrun's batch (RECIPE, default
# recipes/web-thumbnail.json; FIDELITY, default high; --jobs 2) against `ls | xargs -P2 -n1 vipsthumbnail -s 400x400`
# (libvips-tools, cold: a process a file) and, with VIPS_WARM=1, vipsthumbnail over every file in one process;
# with COMPARE_DC=1 filterrun again with its 1/8 DC path off (FILTERRUN_JPEG_DC_PATH=0). RUNS (default 5) runs each,
# the tools alternating; wall seconds (median, range) and images/s.
# Usage: [RUNS=5] [RECIPE=…] [FIDELITY=…] [VIPS_WARM=1] [COMPARE_DC=1] scripts/bench-thumbnail-batch.sh DIR [FILTERRUN]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(cd "$1" && pwd); fr=$(realpath "${2:-.build/release/filterrun}"); runs=${RUNS:-5}
recipe=$(realpath "${RECIPE:-recipes/web-thumbnail.json}"); fidelity=${FIDELITY:-high}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
count=$(ls "$dir" | wc -l)
now() { date +%s.%N; }
f=(); d=(); v=(); w=()
for _ in $(seq "$runs"); do
  rm -rf "$work/f" "$work/d" "$work/v" "$work/w"; mkdir -p "$work/v" "$work/w"
  began=$(now); "$fr" "$recipe" "$dir" "$work/f/" --jobs 2 --quality 80 --fidelity "$fidelity" --quiet
  f+=("$(echo "$(now) - $began" | bc -l)")
  began=$(now); (cd "$dir" && ls | xargs -P2 -I{} vipsthumbnail {} -s 400x400 -o "$work/v/%s.jpg[Q=80]"); v+=("$(echo "$(now) - $began" | bc -l)")
  if [ "${COMPARE_DC:-0}" = 1 ]; then
    began=$(now); FILTERRUN_JPEG_DC_PATH=0 "$fr" "$recipe" "$dir" "$work/d/" --jobs 2 --quality 80 --fidelity "$fidelity" --quiet
    d+=("$(echo "$(now) - $began" | bc -l)")
  fi
  if [ "${VIPS_WARM:-0}" = 1 ]; then
    began=$(now); (cd "$dir" && vipsthumbnail -s 400x400 -o "$work/w/%s.jpg[Q=80]" *); w+=("$(echo "$(now) - $began" | bc -l)")
  fi
done
python3 - "$count" "$fidelity" "${f[*]}" "${v[*]}" "${d[*]:-}" "${w[*]:-}" <<'PY'
import statistics, sys
count, fidelity = int(sys.argv[1]), sys.argv[2]
rows = [(f"filterrun --jobs 2 --fidelity {fidelity}", sys.argv[3]), ("xargs -P2 vipsthumbnail (cold)", sys.argv[4]),
        (f"filterrun, DC path off", sys.argv[5]), ("vipsthumbnail, one process (warm)", sys.argv[6])]
medians = {}
print("| tool | wall s | images/s |\n|---|---|---|")
for name, times in rows:
    if not times.strip():
        continue
    t = list(map(float, times.split()))
    m = statistics.median(t)
    medians[name] = m
    print(f"| {name} | {m:.2f} ({min(t):.2f}–{max(t):.2f}) | {count / m:.1f} |")
cold = medians["xargs -P2 vipsthumbnail (cold)"]
for name, m in medians.items():
    if name.startswith("filterrun"):
        print(f"{name}: {cold / m:.2f}× vipsthumbnail cold" + (
            f", {medians['vipsthumbnail, one process (warm)'] / m:.2f}× warm" if "vipsthumbnail, one process (warm)" in medians else ""))
PY
