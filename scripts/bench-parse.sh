#!/usr/bin/env bash
# Times filterrun (release) refusing the adversarial recipes of the reliability review: 1 MiB of numbers nested
# 400 deep inside "description", and the same at the nesting limit (62 deep). Medians of 5 runs.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product filterrun >/dev/null
bin=.build/release/filterrun
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
def doc(depth, count):
    return '{"version":1,"description":' + '[' * depth + ','.join(['1'] * count) + ']' * depth + ',"steps":[]}'
open(w + '/deep.json', 'w').write(doc(400, 200_000))
open(w + '/limit.json', 'w').write(doc(62, 520_000))
PY
for name in deep limit; do
  times=()
  for _ in 1 2 3 4 5; do
    start=$(date +%s.%N)
    "$bin" "$work/$name.json" samples/coffee_600x400_rgb8.png "$work/out.png" 2>/dev/null || true
    times+=("$(echo "$(date +%s.%N) - $start" | bc)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  echo "$name.json ($(stat -c %s "$work/$name.json") bytes): median ${median} s"
done
