#!/usr/bin/env bash
# Every recipe in recipes/ on IMAGE through two filterrun binaries (a previous build against this one), JPEG out at
# quality 90, CPU backend: median wall seconds and peak RSS (GNU time) of RUNS runs (default 5), the two alternating.
# Recipes with a second input get samples/emerald-logo_160x120_rgba8.png for it.
# Usage: scripts/bench-recipes-vs.sh OLD_FILTERRUN IMAGE
set -uo pipefail
cd "$(dirname "$0")/.."
old=$1; image=$2; runs=${RUNS:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
swift build -c release --product filterrun >/dev/null
new=.build/release/filterrun
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }
echo "| recipe | before s | MiB | after s | MiB | after ÷ before |"
echo "|---|---|---|---|---|---|"
for recipe in recipes/*.json; do
  name=$(basename "$recipe" .json)
  [ "$name" = schema ] && continue
  extra=()
  grep -q '"mask"' "$recipe" && extra=(--input mask=samples/emerald-logo_160x120_rgba8.png)
  grep -q '"watermark"' "$recipe" && extra=(--input watermark=samples/emerald-logo_160x120_rgba8.png)
  rm -f "$work"/*.runs
  for i in $(seq 0 "$runs"); do
    for which in old new; do
      bin=$old; [ "$which" = new ] && bin=$new
      /usr/bin/time -f "%e %M" -o "$work/t" "$bin" "$recipe" "$image" "$work/out.jpg" "${extra[@]}" --force \
        --backend cpu --quality 90 >/dev/null 2>"$work/err" || { echo "$name ($which): $(tail -1 "$work/err")" >&2; continue; }
      [ "$i" -gt 0 ] && cat "$work/t" >> "$work/$which.runs"
    done
  done
  [ -s "$work/old.runs" ] && [ -s "$work/new.runs" ] || continue
  a=$(cut -d' ' -f1 "$work/old.runs" | median); am=$(( $(cut -d' ' -f2 "$work/old.runs" | median) / 1024 ))
  b=$(cut -d' ' -f1 "$work/new.runs" | median); bm=$(( $(cut -d' ' -f2 "$work/new.runs" | median) / 1024 ))
  echo "| $name | $a | $am | $b | $bm | $(awk "BEGIN{printf \"%.2f\", $b / $a}") |"
done
