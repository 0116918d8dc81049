#!/usr/bin/env bash
# Three recipes on one image, filterrun beside the vips CLI doing the same work, both writing zlib 6 with adaptive
# filters (the peers' common PNG setting). Medians of RUNS runs (default 5); wall seconds and peak RSS (GNU time).
# Usage: scripts/bench-peers.sh IMAGE   (needs libvips-tools)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}; image=$1; out=$(mktemp -d)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {
  local times=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$out/t" "$@" >/dev/null 2>&1
    read -r t m < "$out/t"; times+=("$t"); rss+=("$m")
  done
  echo "$(printf '%s\n' "${times[@]}" | median) s / $(( $(printf '%s\n' "${rss[@]}" | median) / 1024 )) MiB"
}
echo "| pipeline | filterrun (cpu) | vips CLI |"
echo "|---|---|---|"
o="$out/o.png[compression=6,filter=all]"
fr() { echo ".build/release/filterrun bench/$1.json '$image' '$out/o.png' --force --compression 6 --filter all --backend cpu"; }
echo "| P2 gaussian σ3 | $(measure bash -c "$(fr p2-gaussian)") | $(measure vips gaussblur "$image" "$o" 3 --min-ampl 0.01) |"
echo "| P3 resize 25 % lanczos3 | $(measure bash -c "$(fr p3-resize)") | $(measure vips resize "$image" "$o" 0.25 --kernel lanczos3) |"
unsharp_vips="vips gaussblur '$image' '$out/b.v' 2 --min-ampl 0.01 && vips linear -- '$image' '$out/a.v' 2 0.5 &&
  vips subtract '$out/a.v' '$out/b.v' '$out/d.v' && vips cast '$out/d.v' '$o' uchar"
echo "| P4 unsharp σ2 | $(measure bash -c "$(fr p4-unsharp)") | $(measure bash -c "$unsharp_vips") |"
rm -rf "$out"
