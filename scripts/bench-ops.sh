#!/usr/bin/env bash
# Every catalogue operation that libvips or OpenCV also has, one at a time, on each IMAGE: JPEG in → JPEG out at
# quality 90 with 4:2:0 chroma for every tool (libjpeg-turbo throughout, so the codec is held equal), sRGB working
# space, filterrun on the CPU backend. filterrun is timed as a whole process; the peers inside Python from opening
# the file to the written output (scripts/peers/ops.py; the interpreter's start and imports excluded). Medians of
# RUNS runs (default 3) after a warm-up run, tools alternating; filterrun's wall time from bash's clock around GNU
# time (which adds about 1 ms), peak RSS from GNU time (a peer's includes its Python interpreter and imports, about
# 60 MiB). Installs the peers as scripts/compare-peers.sh does.
# Usage: scripts/bench-ops.sh IMAGE.jpg...      (OPS="invert,quarter turn" picks operations)
# The photos of the tables in BENCHMARKS.md: scripts/bench-ops.sh $(scripts/bench-photos.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
dpkg -s libvips42 >/dev/null 2>&1 || { $sudo apt-get update -qq && $sudo apt-get install -y -qq libvips42 >/dev/null; } || true
venv=.build/peers-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv" || true
py="$venv/bin/python"
for pkg in opencv-python-headless numpy pyvips; do
  "$py" -c "import ${pkg%%-*}" 2>/dev/null || "$py" -m pip install -q "$pkg" >/dev/null 2>&1 \
    || echo "pip could not install $pkg: the peer that needs it is skipped" >&2
done
tools=(filterrun)
"$py" -c "import cv2" 2>/dev/null && tools+=(opencv) || echo "OpenCV unavailable: skipped" >&2
"$py" -c "import pyvips; pyvips.Image.black(1, 1)" 2>/dev/null && tools+=(pyvips) || echo "pyvips unavailable: skipped" >&2
swift build -c release --product filterrun >/dev/null
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]}'; }

echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); runs: $runs (median), tools alternating"
for image in "$@"; do
  read -r W H < <("$py" -c "import pyvips, sys; i = pyvips.Image.new_from_file(sys.argv[1]); print(i.width, i.height)" "$image")
  echo
  echo "$(basename "$image") ($W×$H)"
  echo
  echo "| operation | filterrun s | MiB | libvips s | MiB | OpenCV s | MiB | filterrun ÷ faster peer |"
  echo "|---|---|---|---|---|---|---|---|"
  while IFS= read -r op; do
    [ -n "${OPS:-}" ] && [[ ",$OPS," != *",$op,"* ]] && continue
    "$py" scripts/peers/ops.py recipe "$op" "$W" "$H" > "$work/recipe.json"
    rm -f "$work"/*.runs
    for i in $(seq 0 "$runs"); do
      for tool in "${tools[@]}"; do
        if [ "$tool" = filterrun ]; then
          began=$EPOCHREALTIME  # GNU time's wall clock has 10 ms steps: too coarse for the smaller photo
          /usr/bin/time -f "%e %M" -o "$work/t" .build/release/filterrun "$work/recipe.json" "$image" "$work/out.jpg" \
            --force --backend cpu --quality 90 --subsampling 420 >/dev/null 2>"$work/err" || { cat "$work/err" >&2; continue; }
          s=$(awk "BEGIN{print $EPOCHREALTIME - $began}"); read -r _ m < "$work/t"
        else
          /usr/bin/time -f "%e %M" -o "$work/t" "$py" scripts/peers/ops.py "$tool" "$op" "$image" "$work/out-$tool.jpg" \
            > "$work/json" 2>"$work/err" || { echo "$tool $op: $(tail -1 "$work/err")" >&2; continue; }
          read -r _ m < "$work/t"
          s=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['seconds'])" "$work/json")
        fi
        [ "$i" -gt 0 ] && echo "$s $m" >> "$work/$tool.runs"
      done
    done
    row="| $op"; best=""; cells=()
    for tool in filterrun pyvips opencv; do
      f="$work/$tool.runs"
      if [ -s "$f" ]; then
        s=$(cut -d' ' -f1 "$f" | median); m=$(( $(cut -d' ' -f2 "$f" | median) / 1024 ))
        cells+=("$(printf '%.3f' "$s")" "$m")
        if [ "$tool" != filterrun ]; then
          if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
        else fr=$s; fi
      else
        cells+=("—" "—")
      fi
    done
    ratio="—"; [ -n "$best" ] && ratio=$(awk "BEGIN{printf \"%.2f×\", $fr / $best}")
    echo "$row | $(IFS='|'; echo "${cells[*]}" | sed 's/|/ | /g') | $ratio |"
  done < <("$py" scripts/peers/ops.py list)
done
