#!/usr/bin/env bash
# A folder of photos to 400 px thumbnails, JPEG quality 80: filterrun's batch (recipes/web-thumbnail.json, fit inside
# 400×400, --jobs 2, fidelity `high`) against `ls | xargs -P2 -n1 vipsthumbnail -s 400x400` (libvips-tools), RUNS
# (default 5) runs each, the tools alternating; wall seconds (median, range) and images/s.
# Usage: [RUNS=5] scripts/bench-thumbnail-batch.sh DIR [FILTERRUN]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(cd "$1" && pwd); fr=$(realpath "${2:-.build/release/filterrun}"); runs=${RUNS:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
count=$(ls "$dir" | wc -l)
now() { date +%s.%N; }
f=(); v=()
for _ in $(seq "$runs"); do
  rm -rf "$work/f" "$work/v"; mkdir -p "$work/v"
  began=$(now); "$fr" recipes/web-thumbnail.json "$dir" "$work/f/" --jobs 2 --quality 80 --quiet; f+=("$(echo "$(now) - $began" | bc -l)")
  began=$(now); (cd "$dir" && ls | xargs -P2 -I{} vipsthumbnail {} -s 400x400 -o "$work/v/%s.jpg[Q=80]"); v+=("$(echo "$(now) - $began" | bc -l)")
done
python3 - "$count" "${f[*]}" "${v[*]}" <<'PY'
import statistics, sys
count = int(sys.argv[1]); f = list(map(float, sys.argv[2].split())); v = list(map(float, sys.argv[3].split()))
for name, t in (("filterrun --jobs 2", f), ("xargs -P2 vipsthumbnail", v)):
    m = statistics.median(t)
    print(f"| {name} | {m:.2f} ({min(t):.2f}–{max(t):.2f}) | {count / m:.1f} |")
print(f"filterrun ÷ vipsthumbnail images/s: {statistics.median(v) / statistics.median(f):.2f}×")
PY
