#!/usr/bin/env bash
# Peak resident memory of one peer-table operation (scripts/peers/ops.py) through several filterrun binaries, the
# binaries alternating: RUNS runs each (default 9; one binary's peak moves by ±1.5 MiB between runs on the 2-vCPU VM),
# GNU time's maximum resident KiB, median (min–max). JPEG q90 4:2:0 out, CPU backend, as scripts/bench-ops.sh.
# Each binary runs from a fresh copy written here: a mapped file's resident pages include the neighbours the kernel
# maps around each fault (fault-around) when they are in the page cache, so a binary just written (every page
# cached) measures up to 2 MiB more than the same bytes in an older file; fresh copies put every binary in that state.
# Usage: scripts/bench-peak.sh "OPERATION" IMAGE.jpg FILTERRUN...
set -euo pipefail
cd "$(dirname "$0")/.."
op=$1; image=$2; shift 2
runs=${RUNS:-9}
py=.build/peers-venv/bin/python
[ -x "$py" ] || { echo "run scripts/bench-ops.sh once first (it makes the peers' venv)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
read -r W H < <("$py" -c "import pyvips, sys; i = pyvips.Image.new_from_file(sys.argv[1]); print(i.width, i.height)" "$image")
"$py" scripts/peers/ops.py recipe "$op" "$W" "$H" > "$work/recipe.json"
i=0
for binary in "$@"; do
  cat "$binary" > "$work/bin$i" && chmod +x "$work/bin$i"
  i=$((i + 1))
done
for _ in $(seq "$runs"); do
  i=0
  for binary in "$@"; do
    /usr/bin/time -f "%M" -a -o "$work/$i" "$work/bin$i" "$work/recipe.json" "$image" "$work/out.jpg" --force \
      --backend cpu --quality 90 --subsampling 420 >/dev/null
    i=$((i + 1))
  done
done
i=0
for binary in "$@"; do
  sort -n "$work/$i" | awk -v b="$binary" '{a[NR]=$1} END {printf "%s: %d KiB (%d–%d)\n", b, a[int((NR+1)/2)], a[1], a[NR]}'
  i=$((i + 1))
done
