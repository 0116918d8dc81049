#!/usr/bin/env bash
# PNG decode+encode (identity recipe) at several encoder settings, beside libvips doing the same copy.
# Medians of RUNS runs (default 5) of wall time and peak RSS (GNU time). Usage: scripts/bench-codec.sh IMAGE...
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
bin=.build/release/filterrun
recipe=$(mktemp --suffix=.json); echo '{"version": 1, "steps": []}' > "$recipe"
out=$(mktemp -d)
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
measure() {  # label, command...
  local label=$1; shift
  local times=() rss=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$out/t" "$@" >/dev/null 2>&1
    read -r t m < "$out/t"; times+=("$t"); rss+=("$m")
  done
  local size; size=$(stat -c %s "$out/o.png")
  printf "| %s | %s | %s | %s |\n" "$label" "$(printf '%s\n' "${times[@]}" | median)" \
    "$(( $(printf '%s\n' "${rss[@]}" | median) / 1024 ))" "$(( size / 1048576 )).$(( size % 1048576 * 10 / 1048576 ))"
}
for image in "$@"; do
  echo "### $(basename "$image")"
  echo "| tool, zlib level, filter | wall s | peak RSS MiB | output MiB |"
  echo "|---|---|---|---|"
  for setting in "1 sub" "2 sub" "2 up" "2 all" "6 all" "9 all"; do
    set -- $setting
    measure "filterrun, $1, $2" $bin "$recipe" "$image" "$out/o.png" --force --compression "$1" --filter "$2"
  done
  measure "vips copy, 6, all" vips copy "$image" "$out/o.png[compression=6,filter=all]"
  measure "vips copy, 2, sub" vips copy "$image" "$out/o.png[compression=2,filter=sub]"
  echo
done
rm -rf "$out" "$recipe"
